//! Story: the facts of a run that its narration tells, read off the outcome and the trace.
//!
//! Nothing here decides the outcome: the verdict and its deciding facts (the stale write, the token it lost
//! to, the wait, the double grant) come from the classifier's [`Outcome`](crate::sim::Outcome); this only
//! adds the times and tokens a sentence needs.

use crate::scenarios::{Inputs, ScenarioId, LOCK_DELAY};
use crate::sim::{DoubleGrant, EventKind, Ms, OutcomeKind, Run, WaitRecord, WriteRecord};

/// Worker A, who takes the lock first in every scenario.
pub const A: usize = 0;
/// Worker B.
pub const B: usize = 1;
/// Worker C, in the scenarios that have one.
pub const C: usize = 2;

/// Most workers a catalogue scenario has.
const N: usize = 3;

/// What the narration of one run needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Story {
    /// The scenario.
    pub scenario: ScenarioId,
    /// Its inputs.
    pub inputs: Inputs,
    /// The verdict.
    pub kind: OutcomeKind,
    /// Each worker's first token.
    pub token: [Option<u64>; N],
    /// When each worker first got the lock.
    pub grant: [Option<Ms>; N],
    /// When each worker's first write reached the storage.
    pub write: [Option<Ms>; N],
    /// When each worker released.
    pub release: [Option<Ms>; N],
    /// When A woke from its pause, or (without one) sent its first write.
    pub a_wake: Option<Ms>,
    /// When A's first write was sent.
    pub a_sent: Option<Ms>,
    /// When A's lease ran out, if it did.
    pub a_expired: Option<Ms>,
    /// A's plain `DEL` of someone else's lock: (when, whose).
    pub deleted_other: Option<(Ms, usize)>,
    /// When the lock came free after a lock-delay.
    pub lock_free: Option<Ms>,
    /// The deciding write (from the outcome).
    pub stale_write: Option<WriteRecord>,
    /// The token it lost to (from the outcome).
    pub newer_token: Option<u64>,
    /// The wait behind `stalled`/`orphaned` (from the outcome).
    pub wait: Option<WaitRecord>,
    /// The double grant, if the service made one (from the outcome).
    pub double_grant: Option<DoubleGrant>,
}

impl Story {
    /// The story of `run`, a run of `scenario` with `inputs`.
    pub fn of(run: &Run, scenario: ScenarioId, inputs: &Inputs) -> Story {
        let o = &run.outcome;
        let mut s = Story {
            scenario,
            inputs: *inputs,
            kind: o.kind,
            token: [None; N],
            grant: [None; N],
            write: [None; N],
            release: [None; N],
            a_wake: None,
            a_sent: None,
            a_expired: None,
            deleted_other: None,
            lock_free: None,
            stale_write: o.stale_write,
            newer_token: o.newer_token,
            wait: o.wait,
            double_grant: o.double_grant,
        };
        let first = |slot: &mut Option<Ms>, at: Ms| *slot = slot.or(Some(at));
        for e in &run.trace.events {
            match e.kind {
                EventKind::Grant { worker, token, .. } if worker < N => {
                    s.token[worker] = s.token[worker].or(Some(token));
                    first(&mut s.grant[worker], e.at);
                }
                EventKind::Store { worker, .. } if worker < N => first(&mut s.write[worker], e.at),
                EventKind::Release { worker, freed, .. } if worker < N => {
                    first(&mut s.release[worker], e.at);
                    if let Some(other) = freed.filter(|&f| f != worker && worker == A) {
                        s.deleted_other = s.deleted_other.or(Some((e.at, other)));
                    }
                }
                EventKind::Wake { worker: A } => first(&mut s.a_wake, e.at),
                EventKind::Write { worker: A, .. } => {
                    first(&mut s.a_wake, e.at);
                    first(&mut s.a_sent, e.at);
                }
                EventKind::Expire { worker: A, .. } => {
                    first(&mut s.a_expired, e.at);
                    if scenario == ScenarioId::LockDelay && inputs.lock_delay {
                        s.lock_free = s.lock_free.or(Some(e.at + LOCK_DELAY));
                    }
                }
                _ => {}
            }
        }
        s
    }

    /// The lease length.
    pub fn ttl(&self) -> Ms {
        self.inputs.ttl
    }

    /// When a lease taken by A at 0 ends (or would end, with expiry off).
    pub fn a_lease_end(&self) -> Ms {
        self.grant[A].unwrap_or(0) + self.inputs.ttl
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim;

    fn story(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> Story {
        let mut i = id.defaults();
        f(&mut i);
        Story::of(&sim::run(&id.build(&i)), id, &i)
    }

    #[test]
    fn fenced_story() {
        let s = story(ScenarioId::GcPause, |i| i.pause = 15_000);
        assert_eq!(s.kind, OutcomeKind::Fenced);
        assert_eq!((s.token[A], s.token[B]), (Some(33), Some(34)));
        assert_eq!(
            (s.a_wake, s.a_expired, s.grant[B], s.write[B]),
            (Some(15_000), Some(10_000), Some(10_000), Some(11_000))
        );
        let w = s.wait.unwrap();
        assert_eq!((w.from, w.until), (1_000, Some(10_000)));
        assert_eq!((s.stale_write.unwrap().token, s.newer_token), (Some(33), Some(34)));
    }

    #[test]
    fn no_pause_story_uses_the_write_time() {
        let s = story(ScenarioId::GcPause, |i| i.pause = 0);
        assert_eq!((s.a_wake, s.wait, s.a_expired), (Some(0), None, None));
    }

    #[test]
    fn unsafe_release_records_whose_lock_a_deleted() {
        let s = story(ScenarioId::UnsafeRelease, |_| {});
        assert_eq!(s.deleted_other, Some((12_000, B)));
        assert_eq!((s.grant[C], s.token[C], s.write[C]), (Some(12_000), Some(35), Some(13_000)));
        let d = s.double_grant.unwrap();
        assert_eq!((d.earlier, d.later, d.at, d.until), (B, C, 12_000, Some(16_000)));
    }

    #[test]
    fn lock_delay_story_knows_when_the_lock_came_free() {
        let s = story(ScenarioId::LockDelay, |_| {});
        assert_eq!((s.a_expired, s.lock_free, s.grant[B]), (Some(10_000), Some(25_000), Some(25_000)));
    }
}
