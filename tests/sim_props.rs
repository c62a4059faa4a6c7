//! Property tests over random scenarios: the fast path equals the full run, order, mutual exclusion per the lock service,
//! fencing monotonicity, lease liveness, and an outcome that agrees with its trace.
#![cfg(not(target_arch = "wasm32"))]

use fencing_lab::scenarios::{Inputs, Kind, ScenarioId};
use fencing_lab::sim::{self, EventKind, OutcomeKind, Run, Scenario};
use proptest::prelude::*;

fn inputs() -> impl Strategy<Value = Inputs> {
    (
        0..=30_000u64,
        any::<bool>(),
        any::<bool>(),
        1..=20_000u64,
        0..=5_000u64,
        0..=15_000u64,
        0..=5_000u64,
        0..=100u64,
    )
        .prop_map(|(pause, lease, fencing, ttl, pause_start, b_request, b_work, first_token)| Inputs {
            pause,
            lease,
            fencing,
            ttl,
            pause_start,
            b_request,
            b_work,
            first_token,
            ..Inputs::default()
        })
}

/// A scenario of the catalogue with random switches and a random value of every input it reads.
fn any_scenario() -> impl Strategy<Value = (ScenarioId, Inputs)> {
    (0..ScenarioId::ALL.len(), any::<u64>(), prop::collection::vec(0.0..1.0f64, 16)).prop_map(
        |(n, bits, r)| {
            let id = ScenarioId::ALL[n];
            let mut i = id.defaults();
            for (k, key) in id.keys().iter().chain(id.extras()).enumerate() {
                let spec = key.spec();
                let value = match spec.kind {
                    Kind::Words(_) => bits >> k & 1,
                    // The base timing stays near its defaults: a 0 ms lease or a 30 s wait say little.
                    _ if id.extras().contains(key) => spec.get(&i),
                    _ => {
                        let (min, max) = spec.range();
                        min + ((max - min) as f64 * r[k]) as u64
                    }
                };
                spec.set(&mut i, value).unwrap();
            }
            (id, i)
        },
    )
}

fn base(i: &Inputs) -> Scenario {
    ScenarioId::GcPause.build(i)
}

fn grant_of(run: &Run, worker: usize) -> Option<u64> {
    run.trace.events.iter().find_map(|e| match e.kind {
        EventKind::Grant { worker: w, .. } if w == worker => Some(e.at),
        _ => None,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn outcome_map_matches_an_exhaustive_sweep(i in inputs()) {
        let sc = base(&i);
        let exhaustive = sim::sweep(&sc, 0..=sim::MAX_PAUSE);
        let map = sim::outcome_map(&sc, 0..=sim::MAX_PAUSE);
        let mut expanded = Vec::new();
        for (n, seg) in map.iter().enumerate() {
            prop_assert!(seg.from <= seg.to);
            if n > 0 {
                prop_assert_eq!(seg.from, map[n - 1].to + 1);
                prop_assert_ne!(seg.kind, map[n - 1].kind);
            }
            expanded.extend(std::iter::repeat_n(seg.kind, (seg.to - seg.from + 1) as usize));
        }
        prop_assert!(expanded == exhaustive, "the map differs from the sweep");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn time_never_goes_backwards(i in inputs()) {
        let run = sim::run(&base(&i));
        prop_assert!(run.trace.events.windows(2).all(|w| w[0].at <= w[1].at));
        prop_assert_eq!(run.trace.end, run.trace.events.last().unwrap().at);
    }

    #[test]
    fn never_two_holders_at_once(i in inputs()) {
        let run = sim::run(&base(&i));
        for pair in run.trace.leases.windows(2) {
            let end = pair[0].held.to.expect("a later grant means the earlier lease ended");
            prop_assert!(end <= pair[1].held.from);
        }
    }

    #[test]
    fn with_fencing_accepted_tokens_never_decrease(mut i in inputs()) {
        i.fencing = true;
        let run = sim::run(&base(&i));
        let accepted: Vec<_> = run.trace.writes.iter().filter(|w| w.accepted).map(|w| w.token).collect();
        prop_assert!(accepted.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn with_lease_b_acquires_within_ttl_of_a_stopping(mut i in inputs()) {
        i.lease = true;
        let run = sim::run(&base(&i));
        // A never renews: it stops renewing at its grant (t = 0).
        let b = grant_of(&run, 1).expect("B always gets the lock with a lease");
        prop_assert!(b <= i.b_request.max(i.ttl), "B at {}, asked {}, ttl {}", b, i.b_request, i.ttl);
    }

    #[test]
    fn outcome_agrees_with_trace(i in inputs()) {
        let run = sim::run(&base(&i));
        let w = &run.trace.writes;
        let stale_accepted_over_newer =
            w.iter().any(|x| x.stale && x.accepted && x.highest_before.is_some_and(|h| Some(h) > x.token));
        // A stale write harms only while someone else holds the lock.
        let stale_accepted = w.iter().any(|x| x.stale && x.accepted && x.holder.is_some_and(|h| h != x.worker));
        let rejected = w.iter().any(|x| !x.accepted);
        let b = grant_of(&run, 1).unwrap();
        let a_wake = i.pause_start + i.pause;
        let expected = if stale_accepted_over_newer {
            OutcomeKind::Corrupted
        } else if stale_accepted {
            OutcomeKind::UnfencedGap
        } else if rejected {
            OutcomeKind::Fenced
        } else if !i.lease && i.b_request < a_wake && b >= i.ttl {
            OutcomeKind::Stalled
        } else {
            OutcomeKind::Safe
        };
        prop_assert_eq!(run.outcome.kind, expected);
        // The fast path gives the same verdict as the full run.
        prop_assert_eq!(sim::outcome(&base(&i)), run.outcome);
        // Fencing is the only thing that rejects; with it off, nothing is rejected.
        if !i.fencing { prop_assert!(!rejected); }
        // A stale write from A exists only when A outlived its lease.
        if w.iter().any(|x| x.stale && x.worker == 0) { prop_assert!(i.lease && a_wake >= i.ttl); }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The fast outcome map is exact for every scenario: it equals the verdict of every single value.
    #[test]
    fn every_scenarios_outcome_map_matches_an_exhaustive_sweep((id, i) in any_scenario()) {
        let Some(key) = id.dragged() else { return Ok(()) };
        let (min, max) = key.spec().range();
        let sc = id.build(&i);
        let exhaustive = sim::sweep(&sc, min..=max);
        let mut expanded = Vec::new();
        for seg in sim::outcome_map(&sc, min..=max) {
            expanded.extend(std::iter::repeat_n(seg.kind, (seg.to - seg.from + 1) as usize));
        }
        prop_assert!(expanded == exhaustive, "{:?}: the map differs from the sweep", id);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// The fast verdict-only path (no trace) agrees with the full run. (That a run is the same every time
    /// is pinned by the golden traces, `tests/golden.rs`.)
    #[test]
    fn the_verdict_only_path_agrees_with_the_full_run((id, i) in any_scenario()) {
        prop_assert_eq!(sim::outcome(&id.build(&i)), sim::run(&id.build(&i)).outcome);
    }

    /// With fencing on, no scenario of the catalogue accepts a lower token after a higher one, and none is
    /// corrupted but the two whose tokens cannot order the holders: a failover hands the same token out
    /// twice, and Redlock has none.
    #[test]
    fn with_fencing_no_scenario_accepts_a_lower_token((id, mut i) in any_scenario()) {
        i.fencing = true;
        let run = sim::run(&id.build(&i));
        let accepted: Vec<_> = run.trace.writes.iter().filter(|w| w.accepted).map(|w| w.token).collect();
        prop_assert!(accepted.windows(2).all(|w| w[0] <= w[1]), "{:?} {:?}", id, accepted);
        if !matches!(id, ScenarioId::Failover | ScenarioId::Redlock) {
            prop_assert_ne!(run.outcome.kind, OutcomeKind::Corrupted);
        }
    }

    /// The double-grant fact is the lock service's own: two grants whose promises overlap.
    #[test]
    fn a_double_grant_is_an_overlap_of_promised_grants((id, i) in any_scenario()) {
        let run = sim::run(&id.build(&i));
        if let Some(d) = run.outcome.double_grant {
            prop_assert!(d.earlier != d.later);
            prop_assert!(d.until.is_none_or(|u| u > d.at));
        }
        if run.outcome.kind == OutcomeKind::DoubleGrant {
            prop_assert!(run.outcome.double_grant.is_some());
        }
        // Only a SET without NX or someone else's DEL can break mutual exclusion in a single lock server; of
        // the replicated services, a failover that loses the key and Redlock can, consensus never.
        let breaks = matches!(
            id,
            ScenarioId::CheckThenSet | ScenarioId::UnsafeRelease | ScenarioId::Failover | ScenarioId::Redlock
        );
        if !breaks { prop_assert!(run.outcome.double_grant.is_none(), "{:?}", id); }
    }
}

mod common;

use common::programs::any_program;
use fencing_lab::sim::{Service, Step};

/// The documented invariants of every run of any script (issue #37): a random program the language accepts,
/// judged from its trace alone.
fn invariants(sc: &Scenario) -> Result<(), TestCaseError> {
    let run = sim::run(sc);
    let polls = |w: usize| sc.workers[w].steps.iter().any(|s| matches!(s, Step::TryAcquire { .. }));
    // Whether each (worker, token) was granted with an expiry; the queue of waiters, in line order.
    let mut expiry: Vec<((usize, u64), bool)> = Vec::new();
    let mut line: Vec<usize> = Vec::new();
    // Every wait not yet granted, queued or polling.
    let mut open: Vec<usize> = Vec::new();
    for e in &run.trace.events {
        match e.kind {
            EventKind::Grant { worker, token, expires, .. } => {
                expiry.retain(|g| g.0 != (worker, token));
                expiry.push(((worker, token), expires.is_some()));
                open.retain(|&w| w != worker);
                if let Some(i) = line.iter().position(|&w| w == worker) {
                    prop_assert_eq!(i, 0, "a queued worker granted out of line at {}", e.at);
                    line.remove(0);
                }
            }
            EventKind::Wait { worker, .. } => {
                open.push(worker);
                if !polls(worker) {
                    line.push(worker);
                }
            }
            // A lock without expiry never expires, and nothing gives it one.
            EventKind::Expire { worker, token } | EventKind::Renew { worker, token, .. } => {
                let had = expiry.iter().find(|g| g.0 == (worker, token)).map(|g| g.1);
                prop_assert_eq!(had, Some(true), "{:?} at {} of a lock without expiry", e.kind, e.at);
            }
            _ => {}
        }
    }
    // A consensus service never grants twice.
    if let Service::Consensus { .. } = sc.service {
        prop_assert!(run.outcome.double_grant.is_none(), "{:?}", run.outcome.double_grant);
    }
    // The verdict is the highest of the conditions that hold, each read from the trace (section 4).
    let o = run.outcome;
    let mut held = vec![OutcomeKind::Safe];
    let w = &run.trace.writes;
    if w.iter().any(|w| !w.accepted && w.stale) {
        held.push(OutcomeKind::Fenced);
    }
    if w.iter().any(|w| w.accepted && w.stale && w.holder.is_some_and(|h| h != w.worker)) {
        held.push(OutcomeKind::UnfencedGap);
    }
    if !open.is_empty() {
        held.push(OutcomeKind::Orphaned);
    }
    let top = held.iter().copied().max().unwrap();
    prop_assert!(o.kind >= top, "{} below {} that holds", o.kind, top);
    match o.kind {
        OutcomeKind::Corrupted | OutcomeKind::UnfencedGap => {
            prop_assert!(o.stale_write.is_some_and(|s| s.accepted))
        }
        OutcomeKind::DoubleGrant => prop_assert!(o.double_grant.is_some()),
        OutcomeKind::Fenced | OutcomeKind::Orphaned => prop_assert_eq!(o.kind, top),
        OutcomeKind::Stalled => prop_assert!(top <= OutcomeKind::Stalled),
        OutcomeKind::Safe => prop_assert_eq!(top, OutcomeKind::Safe),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn every_script_keeps_the_documented_invariants(sc in any_program()) {
        // A program the language accepts.
        let text = fencing_lab::script::print(&sc);
        prop_assert_eq!(fencing_lab::script::parse(&text).map_err(|e| TestCaseError::fail(e.to_string()))?, sc.clone());
        invariants(&sc)?;
    }
}
