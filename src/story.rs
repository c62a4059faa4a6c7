//! Story: the handful of facts of a base-scenario run that the narration tells, read off the trace.
//!
//! Nothing here decides the outcome; it only picks the times and tokens a sentence needs.

use crate::sim::{EventKind, Ms, OutcomeKind, Run};

/// Worker A in the base scenario.
pub const A: usize = 0;
/// Worker B in the base scenario.
pub const B: usize = 1;

/// What the narration of one run needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Story {
    /// The verdict.
    pub kind: OutcomeKind,
    /// Lease length.
    pub ttl: Ms,
    /// A's token.
    pub a_token: Option<u64>,
    /// When A woke (or, without a pause, when it wrote).
    pub a_wake: Option<Ms>,
    /// B's token.
    pub b_token: Option<u64>,
    /// When B got the lock.
    pub b_grant: Option<Ms>,
    /// When B's first write reached the storage.
    pub b_write: Option<Ms>,
    /// When A's lease ran out, if it did.
    pub a_expired: Option<Ms>,
    /// B's wait: from, until (`None`: for ever).
    pub b_wait: Option<(Ms, Option<Ms>)>,
}

impl Story {
    /// The story of a run of the base scenario with lease length `ttl`.
    pub fn of(run: &Run, ttl: Ms) -> Story {
        let mut s = Story {
            kind: run.outcome.kind,
            ttl,
            a_token: None,
            a_wake: None,
            b_token: None,
            b_grant: None,
            b_write: None,
            a_expired: None,
            b_wait: None,
        };
        for e in &run.trace.events {
            match e.kind {
                EventKind::Grant { worker: A, token, .. } => s.a_token = s.a_token.or(Some(token)),
                EventKind::Grant { worker: B, token, .. } => {
                    s.b_token = s.b_token.or(Some(token));
                    s.b_grant = s.b_grant.or(Some(e.at));
                }
                EventKind::Wake { worker: A } => s.a_wake = s.a_wake.or(Some(e.at)),
                EventKind::Write { worker: A, .. } => s.a_wake = s.a_wake.or(Some(e.at)),
                EventKind::Store { worker: B, .. } => s.b_write = s.b_write.or(Some(e.at)),
                EventKind::Expire { worker: A, .. } => s.a_expired = s.a_expired.or(Some(e.at)),
                _ => {}
            }
        }
        s.b_wait = run.trace.workers.get(B).and_then(|b| b.waiting.first()).map(|w| (w.from, w.to));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{self, Inputs, Scenario};

    #[test]
    fn fenced_story() {
        let run = sim::run(&Scenario::base(&Inputs { pause: 15_000, ..Inputs::default() }));
        let s = Story::of(&run, 10_000);
        assert_eq!(s.kind, OutcomeKind::Fenced);
        assert_eq!((s.a_token, s.b_token), (Some(33), Some(34)));
        assert_eq!(
            (s.a_wake, s.a_expired, s.b_grant, s.b_write),
            (Some(15_000), Some(10_000), Some(10_000), Some(11_000))
        );
        assert_eq!(s.b_wait, Some((1_000, Some(10_000))));
    }

    #[test]
    fn no_pause_story_uses_the_write_time() {
        let run = sim::run(&Scenario::base(&Inputs { pause: 0, ..Inputs::default() }));
        let s = Story::of(&run, 10_000);
        assert_eq!((s.a_wake, s.b_wait, s.a_expired), (Some(0), None, None));
    }
}
