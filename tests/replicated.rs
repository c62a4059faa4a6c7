//! The replicated lock services of the catalogue (failover, Redlock, etcd, ZooKeeper) against the core:
//! the expected outcomes of docs/semantics.md, each scenario's exact boundaries (derived by hand in the comments), and the
//! properties the source claims: consensus never grants twice, Redlock grants twice exactly when a server's
//! early expiry frees a majority while the first holder still holds it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{grants, locksim};
use fencing_lab::scenarios::{Inputs, ScenarioId, JUMP_AT, REDLOCK_DRIFT};
use fencing_lab::sim::{self, outcome_map, EventKind, NodeChange, Outcome, OutcomeKind};
use OutcomeKind::*;
use ScenarioId::*;

fn run(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> Outcome {
    let mut i = id.defaults();
    f(&mut i);
    sim::outcome(&id.build(&i))
}

/// (verdict, whether the service granted twice).
fn verdict(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> (OutcomeKind, bool) {
    let o = run(id, f);
    (o.kind, o.double_grant.is_some())
}

/// The outcome map over the dragged input: (first value, verdict) of each stretch.
fn map(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> Vec<(u64, OutcomeKind)> {
    let mut i = id.defaults();
    f(&mut i);
    let (min, max) = id.dragged().expect("a dragged input").spec().range();
    outcome_map(&id.build(&i), min..=max).iter().map(|s| (s.from, s.kind)).collect()
}

#[test]
fn each_replicated_scenario_gives_its_documented_outcomes() {
    // failover: sync off corrupted even with fencing, a double grant; on: safe, none.
    assert_eq!(verdict(Failover, |_| {}), (Corrupted, true));
    assert_eq!(verdict(Failover, |i| i.fencing = false), (Corrupted, true));
    assert_eq!(verdict(Failover, |i| i.sync = true), (Safe, false));
    assert_eq!(verdict(Failover, |i| (i.sync, i.fencing) = (true, false)), (Safe, false));
    // redlock: jump 9000 corrupted and a double grant; 1000 safe; jump 0 with a 15 s pause corrupted, none.
    assert_eq!(verdict(Redlock, |_| {}), (Corrupted, true));
    assert_eq!(verdict(Redlock, |i| i.jump = 1_000), (Safe, false));
    assert_eq!(verdict(Redlock, |i| (i.jump, i.pause) = (0, 15_000)), (Corrupted, false));
    // Fencing is unavailable: the switch in a link changes nothing.
    assert_eq!(verdict(Redlock, |i| i.fencing = false), verdict(Redlock, |i| i.fencing = true));
    // etcd and ZooKeeper: pause 15 s fenced / corrupted, never a double grant.
    for id in [Etcd, Zookeeper] {
        assert_eq!(verdict(id, |_| {}), (Fenced, false), "{id:?}");
        assert_eq!(verdict(id, |i| i.fencing = false), (Corrupted, false), "{id:?}");
    }
}

#[test]
fn locksim_agrees_and_reports_the_double_grant() {
    for (args, outcome, double) in [
        (vec!["--scenario", "failover"], "corrupted", true),
        (vec!["--scenario", "failover", "--sync", "on"], "safe", false),
        (vec!["--scenario", "redlock", "--jump", "1000"], "safe", false),
        (vec!["--scenario", "redlock", "--jump", "0", "--pause", "15000"], "corrupted", false),
        (vec!["--scenario", "etcd", "--leader-crash", "5000"], "safe", false),
        (vec!["--scenario", "etcd", "--leader-crash", "off", "--fencing", "off"], "corrupted", false),
        (vec!["--scenario", "zookeeper"], "fenced", false),
    ] {
        let (code, out, err) = locksim(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.ends_with(&format!("double-grant: {double}\noutcome: {outcome}\n")), "{args:?}: {out}");
        let (_, json, _) = locksim(&[args.as_slice(), &["--json"]].concat());
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["outcome"]["kind"], outcome, "{args:?}");
        assert_eq!(v["double_grant"], double, "{args:?}: {json}");
    }
    let (code, _, err) = locksim(&["--scenario", "etcd", "--leader-crash", "later"]);
    assert_eq!(code, 2);
    assert!(err.contains("leader_crash"), "{err}");
}

#[test]
fn redlock_boundaries_over_the_jump() {
    // A holds N1–N3 from 0 (10 s keys) and writes and releases at 5 s; B tries at 3, 4, 5 … s and needs
    // N3 (N4, N5 are free). N3's key, set at its clock's 0, expires when its clock reads 10 s: at 2 s if
    // the jump is 8 s or more, else at 10 s − jump. B gets it at 3 s if that is ≤ 3 s (jump ≥ 7 s): it
    // writes at 4 s, A at 5 s over it: corrupted. At 4 s if ≤ 4 s (jump 6–7 s): both write at 5 s, A first:
    // double-grant. Later, A has released by B's try at 5 s (same ms, A acts first): safe.
    assert_eq!(map(Redlock, |_| {}), vec![(0, Safe), (6_000, DoubleGrant), (7_000, Corrupted)]);
    // With jump 0 the pause decides: A writes 5 s after waking; its keys expire at 10 s and B takes all
    // five at its try at 10 s and writes at 11 s. A writing by 10 s (pause ≤ 5 s) harms no one; up to
    // B's write at 11 s (A acts first in a millisecond) is a gap; later overwrites B.
    let by_pause: Vec<(u64, OutcomeKind)> = {
        let mut i = Redlock.defaults();
        i.jump = 0;
        let mut out: Vec<(u64, OutcomeKind)> = Vec::new();
        for p in 0..=30_000 {
            i.pause = p;
            let k = sim::outcome(&Redlock.build(&i)).kind;
            if out.last().is_none_or(|l| l.1 != k) {
                out.push((p, k));
            }
        }
        out
    };
    assert_eq!(by_pause, vec![(0, Safe), (5_001, UnfencedGap), (6_001, Corrupted)]);
}

#[test]
fn redlock_grants_twice_exactly_when_an_early_expiry_frees_a_majority() {
    // By hand: N3's key expires at e3 = max(2 s, 10 s − jump) (10 s without a jump); A lets go at
    // r = pause + 5 s. B tries every second from 3 s and gets a majority at the first try g ≥ min(e3, r).
    // The service granted twice iff B got it while A's grant was still promised: g < min(r, validity).
    let validity = 10_000 - REDLOCK_DRIFT;
    for pause in [0, 1_000, 2_500, 4_000, 4_999, 5_000, 6_000, 15_000] {
        for jump in (0..=30_000).step_by(7) {
            let e3 = if jump == 0 { 10_000 } else { (10_000u64.saturating_sub(jump)).max(JUMP_AT) };
            let r = pause + 5_000;
            let free = e3.min(r);
            let g = free.max(3_000).div_ceil(1_000) * 1_000;
            let expected = e3 < r && g < r.min(validity);
            let o = run(Redlock, |i| (i.jump, i.pause) = (jump, pause));
            assert_eq!(o.double_grant.is_some(), expected, "jump {jump} pause {pause}");
        }
    }
}

#[test]
fn consensus_never_grants_twice() {
    // Every leader-crash time against every pause, 100 ms apart, both fencing settings: one holder at a time.
    for fencing in [true, false] {
        for crash in (0..=30_000).step_by(100) {
            for pause in (0..=30_000).step_by(100) {
                for id in [Etcd, Zookeeper] {
                    let o = run(id, |i| (i.leader_crash, i.pause, i.fencing) = (crash, pause, fencing));
                    assert!(o.double_grant.is_none(), "{id:?} crash {crash} pause {pause}");
                }
            }
        }
    }
    // And every millisecond of the crash for the source's 15 s pause.
    for crash in 0..=30_000 {
        assert!(run(Etcd, |i| i.leader_crash = crash).double_grant.is_none(), "crash {crash}");
    }
}

#[test]
fn consensus_boundaries_over_the_pause() {
    // A's keepalives stop with it, so its lease ends 10 s after the grant; B (token 34 since its request
    // at 1 s) gets the lock then and writes 1 s later: as the base scenario.
    for id in [Etcd, Zookeeper] {
        assert_eq!(map(id, |_| {}), vec![(0, Safe), (10_000, UnfencedGap), (11_001, Fenced)], "{id:?}");
    }
    // A leader crash at 5 s: no leader until 6 s, which re-arms A's lease for the election timeout plus
    // the whole TTL, to 17 s. A paused up to then wakes in its lease; B gets the lock at 17 s.
    assert_eq!(
        map(Etcd, |i| i.leader_crash = 5_000),
        vec![(0, Safe), (17_000, UnfencedGap), (18_001, Fenced)]
    );
    // A crash after A's lease ran out and B had taken the lock changes nothing for A.
    assert_eq!(map(Etcd, |i| i.leader_crash = 12_000), map(Etcd, |_| {}));
}

#[test]
fn keepalives_renew_a_running_holder_every_third_of_the_lease() {
    // A works 8 s before pausing: keepalives at 3.333 s and 6.666 s keep its lease, which then ends 10 s
    // after the last one, at 16.666 s.
    let mut i = Etcd.defaults();
    i.pause_start = 8_000;
    let trace = sim::run(&Etcd.build(&i)).trace;
    let renewals: Vec<(u64, u64)> = trace
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Renew { worker: 0, expires, .. } => Some((e.at, expires)),
            _ => None,
        })
        .collect();
    assert_eq!(renewals, vec![(3_333, 13_333), (6_666, 16_666)]);
    assert!(trace
        .events
        .iter()
        .any(|e| e.at == 16_666 && matches!(e.kind, EventKind::Expire { worker: 0, .. })));
}

#[test]
fn tokens_follow_each_system() {
    // etcd and ZooKeeper number the request (the key's create revision, the znode's czxid): B's is 34 from 1 s.
    let grants = |id: ScenarioId| grants(&sim::run(&id.build(&id.defaults())));
    assert_eq!(grants(Etcd), vec![(0, 0, 33), (10_000, 1, 34)]);
    // The failover's promoted replica starts its INCR counter again: 33 twice.
    assert_eq!(grants(Failover), vec![(0, 0, 33), (2_000, 1, 33)]);
    // With WAIT the replica has the counter: 34.
    let run = sim::run(&Failover.build(&Inputs { sync: true, ..Inputs::default() }));
    assert!(run.trace.events.iter().any(|e| matches!(e.kind, EventKind::Grant { worker: 1, token: 34, .. })));
    // Redlock writes carry no token; its servers hold keys, N3's lost at the jump.
    let run = sim::run(&Redlock.build(&Redlock.defaults()));
    assert!(run.trace.writes.iter().all(|w| w.token.is_none()));
    assert!(!run.trace.tokens);
    assert!(run
        .trace
        .events
        .iter()
        .any(|e| e.at == 2_000 && e.kind == EventKind::Node { node: 2, change: NodeChange::Clear(0) }));
    assert_eq!(run.trace.nodes.len(), 5);
}
