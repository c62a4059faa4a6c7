//! The scenario catalogue against the core: every expected outcome far from a boundary, each scenario's
//! exact boundaries (derived by hand in the comments), and the outcome rules the catalogue added.
#![cfg(not(target_arch = "wasm32"))]

use fencing_lab::scenarios::{Inputs, ScenarioId};
use fencing_lab::sim::{self, outcome_map, outcome_map_within, Outcome, OutcomeKind, Segment, MAP_WORK};
use OutcomeKind::*;
use ScenarioId::*;

fn run(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> Outcome {
    let mut i = id.defaults();
    f(&mut i);
    sim::outcome(&id.build(&i))
}

fn kind(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> OutcomeKind {
    run(id, f).kind
}

/// The outcome map over the scenario's dragged input: (first value, verdict) of each stretch.
fn map(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> Vec<(u64, OutcomeKind)> {
    let mut i = id.defaults();
    f(&mut i);
    let (min, max) = id.dragged().expect("a dragged input").spec().range();
    outcome_map(&id.build(&i), min..=max).iter().map(|s: &Segment| (s.from, s.kind)).collect()
}

#[test]
fn expected_outcomes_far_from_any_boundary() {
    assert_eq!(kind(CheckThenPause, |i| i.pause = 13_000), Fenced);
    assert_eq!(kind(CheckThenPause, |i| i.fencing = false), Corrupted);
    assert_eq!(kind(CheckThenPause, |i| i.pause = 3_000), Safe);
    assert_eq!(kind(NetworkDelay, |i| i.delay = 13_000), Fenced);
    assert_eq!(kind(NetworkDelay, |i| i.fencing = false), Corrupted);
    assert_eq!(kind(NetworkDelay, |i| i.delay = 8_500), UnfencedGap);
    assert_eq!(kind(NetworkDelay, |i| i.delay = 3_000), Safe);
    assert_eq!(kind(SetnxExpire, |_| {}), Orphaned);
    assert_eq!(kind(SetnxExpire, |i| i.atomic = true), Safe);
    assert_eq!(kind(CheckThenSet, |_| {}), DoubleGrant);
    assert_eq!(kind(CheckThenSet, |i| i.atomic = true), Safe);
    assert_eq!(kind(UnsafeRelease, |_| {}), Fenced);
    assert_eq!(kind(UnsafeRelease, |i| i.fencing = false), Corrupted);
    assert_eq!(kind(UnsafeRelease, |i| i.compare_release = true), Safe);
    assert_eq!(kind(Crash, |_| {}), Safe);
    assert_eq!(kind(Crash, |i| i.lease = false), Orphaned);
    assert_eq!(kind(LockDelay, |i| i.fencing = false), Safe);
    assert_eq!(
        kind(LockDelay, |i| {
            i.fencing = false;
            i.pause = 28_000
        }),
        Corrupted
    );
    assert_eq!(
        kind(LockDelay, |i| {
            i.fencing = false;
            i.lock_delay = false
        }),
        Corrupted
    );
    assert_eq!(kind(RegisterToken, |_| {}), Fenced);
    assert_eq!(kind(RegisterToken, |i| i.register = false), UnfencedGap);
}

#[test]
fn the_double_grant_fact() {
    let twice = |id, f: fn(&mut Inputs)| run(id, f).double_grant.is_some();
    assert!(twice(CheckThenSet, |_| {}));
    assert!(twice(CheckThenSet, |i| i.fencing = false));
    assert!(!twice(CheckThenSet, |i| i.atomic = true));
    assert!(twice(UnsafeRelease, |_| {}));
    assert!(twice(UnsafeRelease, |i| i.fencing = false));
    assert!(!twice(UnsafeRelease, |i| i.compare_release = true));
    // A stale holder whose lease ran out is not a double grant: the service kept its promise.
    assert!(!twice(GcPause, |i| i.pause = 15_000));
    assert!(!twice(SetnxExpire, |_| {}));
    assert!(!twice(Crash, |_| {}));
}

#[test]
fn check_then_pause_boundaries() {
    // A wakes at 2 s + pause: before 10 s safe; at 10–11 s (B's write, A first) the gap; then fenced.
    assert_eq!(map(CheckThenPause, |_| {}), [(0, Safe), (8_000, UnfencedGap), (9_001, Fenced)]);
    assert_eq!(
        map(CheckThenPause, |i| i.fencing = false),
        [(0, Safe), (8_000, UnfencedGap), (9_001, Corrupted)]
    );
    // Lease off: A lets go at 2 s + pause; from 10 s on that is where a lease would have freed the lock.
    assert_eq!(map(CheckThenPause, |i| i.lease = false), [(0, Safe), (8_000, Stalled)]);
}

#[test]
fn network_delay_boundaries() {
    // The write arrives at 2 s + delay. Deliveries come after worker actions of the same millisecond, so an
    // arrival at 11 s lands after B's write of 11 s: the gap is 10 s..10.999 s.
    assert_eq!(map(NetworkDelay, |_| {}), [(0, Safe), (8_000, UnfencedGap), (9_000, Fenced)]);
    assert_eq!(
        map(NetworkDelay, |i| i.fencing = false),
        [(0, Safe), (8_000, UnfencedGap), (9_000, Corrupted)]
    );
    assert_eq!(map(NetworkDelay, |i| i.lease = false), [(0, Safe), (8_000, Stalled)]);
}

#[test]
fn unsafe_release_boundaries() {
    // `work` starts at 2 s, when A has worked and written. Plain DEL at `work`: inside A's lease (before 10 s) it frees A's own lock. From 10 s it deletes B's and
    // C gets 35 at once, writing 1 s later; B writes at 16 s. C's write before B's: B is fenced. From 15 s,
    // C writes at 16 s or later, after B (B acts first): both accepted. After 16 s B has released: no harm.
    assert_eq!(
        map(UnsafeRelease, |_| {}),
        [(2_000, Safe), (10_000, Fenced), (15_000, DoubleGrant), (16_001, Safe)]
    );
    assert_eq!(
        map(UnsafeRelease, |i| i.fencing = false),
        [(2_000, Safe), (10_000, Corrupted), (15_000, DoubleGrant), (16_001, Safe)]
    );
    assert_eq!(map(UnsafeRelease, |i| i.compare_release = true), [(2_000, Safe)]);
}

#[test]
fn lock_delay_boundaries() {
    // Expiry at 10 s, unavailable until 25 s: A's stale write before 25 s lands while nobody holds the lock.
    // At 25 s B gets the lock first (grants come before worker actions), then A writes: the gap up to B's
    // write at 26 s; after it, fenced.
    assert_eq!(map(LockDelay, |_| {}), [(0, Safe), (25_000, UnfencedGap), (26_001, Fenced)]);
    assert_eq!(
        map(LockDelay, |i| i.fencing = false),
        [(0, Safe), (25_000, UnfencedGap), (26_001, Corrupted)]
    );
    assert_eq!(
        map(LockDelay, |i| i.lock_delay = false),
        [(0, Safe), (10_000, UnfencedGap), (11_001, Fenced)]
    );
}

#[test]
fn register_token_boundaries() {
    // B's token reaches the storage at its grant (10 s), before A acts on that millisecond: no gap at all.
    assert_eq!(map(RegisterToken, |_| {}), [(0, Safe), (10_000, Fenced)]);
    assert_eq!(
        map(RegisterToken, |i| i.register = false),
        [(0, Safe), (10_000, UnfencedGap), (11_001, Fenced)]
    );
    // Registration without fencing raises the highest token but nobody checks it: no write was overwritten
    // until B's own write at 11 s.
    assert_eq!(
        map(RegisterToken, |i| i.fencing = false),
        [(0, Safe), (10_000, UnfencedGap), (11_001, Corrupted)]
    );
}

#[test]
fn priority_corrupted_over_double_grant_over_fenced() {
    // unsafe-release at 12 s, fencing off: two holders at once, and B's 34 overwrites C's 35.
    let o = run(UnsafeRelease, |i| i.fencing = false);
    assert_eq!((o.kind, o.double_grant.is_some()), (Corrupted, true));
    // Fencing on: the double grant is there, but B's write is rejected, so not both holders wrote.
    let o = run(UnsafeRelease, |_| {});
    assert_eq!((o.kind, o.double_grant.is_some()), (Fenced, true));
    let w = o.stale_write.unwrap();
    assert_eq!((w.worker, w.token, o.newer_token), (1, Some(34), Some(35)));
}

#[test]
fn a_stale_write_while_nobody_holds_the_lock_is_safe() {
    let o = run(LockDelay, |i| {
        i.fencing = false;
        i.pause = 15_000
    });
    assert_eq!(o.kind, Safe);
    // The same write while B holds the lock is the gap.
    assert_eq!(kind(LockDelay, |i| i.pause = 25_500), UnfencedGap);
}

#[test]
fn orphaned_is_a_wait_that_never_ends() {
    let o = run(SetnxExpire, |_| {});
    let w = o.wait.expect("B waits");
    assert_eq!((w.worker, w.from, w.until), (1, 1_000, None));
}

#[test]
fn check_then_set_with_atomic_set_retries_until_the_release() {
    let r = sim::run(&CheckThenSet.build(&Inputs { atomic: true, ..Inputs::default() }));
    let grants: Vec<_> = r
        .trace
        .events
        .iter()
        .filter_map(|e| match e.kind {
            sim::EventKind::Grant { worker, token, .. } => Some((e.at, worker, token)),
            _ => None,
        })
        .collect();
    // A at 1 s; B's tries at 1.5 s fail, at 2 s A has just released (A acts first): B gets 34.
    assert_eq!(grants, [(1_000, 0, 33), (2_000, 1, 34)]);
}

#[test]
fn every_catalogue_map_is_well_within_the_work_a_page_allows_and_a_polling_script_is_not() {
    for id in ScenarioId::ALL {
        let Some(key) = id.dragged() else { continue };
        let (min, max) = key.spec().range();
        assert!(outcome_map_within(&id.build(&id.defaults()), min..=max, MAP_WORK / 10).is_some(), "{id:?}");
    }
    // B retries every 10 ms until the horizon in every run: some 3.6e9 happenings over 30 s of values.
    let polling = fencing_lab::script::parse(
        "lease 10s\nexpiry off\nA: acquire, pause {pause=15s}, write\nB: idle 1s, try-acquire every 10ms, write, release\n",
    )
    .expect("the script reads");
    let p = polling.dragged().expect("a dragged value");
    assert_eq!(outcome_map_within(&polling, p.min..=p.max, MAP_WORK), None);
    // Its map, were it drawn, would be exact all the same: the budget only stops the page's.
    assert!(outcome_map_within(&polling, 14_000..=14_010, MAP_WORK).is_some());
}
