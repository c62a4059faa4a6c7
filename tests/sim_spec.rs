//! Every rule and example of docs/semantics.md, and the boundaries around the 10 s lease, against the simulation core.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::grants;
use fencing_lab::scenarios::{Inputs, ScenarioId};
use fencing_lab::sim::{self, Dur, EventKind, LeaseEnd, OutcomeKind, Release, Scenario, Span, Step, Worker};
use OutcomeKind::*;

fn gc(inputs: &Inputs) -> Scenario {
    ScenarioId::GcPause.build(inputs)
}

fn base(pause: u64, lease: bool, fencing: bool) -> Scenario {
    gc(&Inputs { pause, lease, fencing, ..Inputs::default() })
}

fn kind(pause: u64, lease: bool, fencing: bool) -> OutcomeKind {
    sim::run(&base(pause, lease, fencing)).outcome.kind
}

#[test]
fn the_documented_examples_give_their_outcomes() {
    assert_eq!(kind(15_000, true, true), Fenced);
    assert_eq!(kind(15_000, true, false), Corrupted);
    assert_eq!(kind(10_500, true, true), UnfencedGap);
    assert_eq!(kind(10_500, true, false), UnfencedGap);
    assert_eq!(kind(9_999, true, true), Safe);
    assert_eq!(kind(15_000, false, true), Stalled);
    assert_eq!(kind(4_000, false, true), Safe);
    assert_eq!(kind(4_000, true, true), Safe);
}

#[test]
fn fenced_example_in_detail() {
    let run = sim::run(&base(15_000, true, true));
    // Lease expires at 10000, B acquires 34 at 10000, writes at 11000, A writes 33 at 15000 and is rejected.
    assert_eq!(grants(&run), vec![(0, 0, 33), (10_000, 1, 34)]);
    let w = &run.trace.writes;
    assert_eq!(w.len(), 2);
    assert_eq!((w[0].at, w[0].worker, w[0].token, w[0].accepted), (11_000, 1, Some(34), true));
    assert_eq!((w[1].at, w[1].worker, w[1].token, w[1].accepted), (15_000, 0, Some(33), false));
    assert_eq!(w[1].highest_before, Some(34));
    assert!(w[1].stale && !w[0].stale);
    let stale = run.outcome.stale_write.expect("the decisive write");
    assert_eq!((stale.worker, stale.token, run.outcome.newer_token), (0, Some(33), Some(34)));
}

#[test]
fn corrupted_overwrites_b() {
    let run = sim::run(&base(15_000, true, false));
    let last = run.trace.writes.last().unwrap();
    assert_eq!((last.worker, last.token, last.accepted, last.highest_before), (0, Some(33), true, Some(34)));
}

#[test]
fn boundaries_with_lease_on() {
    for fencing in [true, false] {
        assert_eq!(kind(0, true, fencing), Safe);
        assert_eq!(kind(9_999, true, fencing), Safe);
        // At expiry A acts after the grant (rule 7): the lock is already B's.
        assert_eq!(kind(10_000, true, fencing), UnfencedGap);
        // Same millisecond as B's write: A acts first.
        assert_eq!(kind(11_000, true, fencing), UnfencedGap);
        assert_eq!(kind(30_000, true, fencing), if fencing { Fenced } else { Corrupted });
    }
    assert_eq!(kind(11_001, true, true), Fenced);
    assert_eq!(kind(11_001, true, false), Corrupted);
}

#[test]
fn boundaries_with_lease_off() {
    for fencing in [true, false] {
        for pause in [0, 4_000, 9_999] {
            assert_eq!(kind(pause, false, fencing), Safe, "pause {pause}");
        }
        for pause in [10_000, 11_000, 11_001, 30_000] {
            assert_eq!(kind(pause, false, fencing), Stalled, "pause {pause}");
        }
    }
}

#[test]
fn stalled_b_waits_as_long_as_a_is_paused() {
    let run = sim::run(&base(15_000, false, true));
    assert_eq!(grants(&run), vec![(0, 0, 33), (15_000, 1, 34)]);
    let wait = run.outcome.wait.expect("B waited");
    assert_eq!((wait.worker, wait.from, wait.until, wait.holder), (1, 1_000, Some(15_000), 0));
    assert_eq!(run.trace.workers[1].waiting, vec![Span { from: 1_000, to: Some(15_000) }]);
}

#[test]
fn rule1_lease_is_half_open() {
    // A granted at 0 with ttl 10000 holds [0, 10000): the expiry happens at exactly 10000.
    let run = sim::run(&base(15_000, true, true));
    let lease = run.trace.leases[0];
    assert_eq!((lease.worker, lease.token), (0, 33));
    assert_eq!(lease.held, Span { from: 0, to: Some(10_000) });
    assert_eq!(lease.end, LeaseEnd::Expired);
    assert!(lease.held.contains(9_999) && !lease.held.contains(10_000));
}

#[test]
fn rule2_a_is_paused_and_believes_throughout() {
    let run = sim::run(&base(15_000, true, true));
    let a = &run.trace.workers[0];
    assert_eq!(a.paused, vec![Span { from: 0, to: Some(15_000) }]);
    // A believes it holds the lock until its own release at 15000, long after the service took it away.
    assert_eq!(a.believing, vec![(Span { from: 0, to: Some(15_000) }, 33)]);
    // The danger zone: from expiry to A's own release.
    assert_eq!(a.mistaken, vec![Span { from: 10_000, to: Some(15_000) }]);
    assert!(run.trace.workers[1].mistaken.is_empty());
    assert!(sim::run(&base(4_000, true, true)).trace.workers[0].mistaken.is_empty());
}

#[test]
fn rule2_pause_start_moves_the_pause() {
    let inputs = Inputs { pause: 3_000, pause_start: 2_000, ..Inputs::default() };
    let run = sim::run(&gc(&inputs));
    assert_eq!(run.trace.workers[0].paused, vec![Span { from: 2_000, to: Some(5_000) }]);
    assert_eq!(run.trace.writes[0].at, 5_000);
    // Waking at 11 s after starting the pause at 2 s: past the lease.
    let inputs = Inputs { pause: 9_000, pause_start: 2_000, ..Inputs::default() };
    assert_eq!(sim::run(&gc(&inputs)).outcome.kind, UnfencedGap);
}

#[test]
fn rule3_b_waits_then_gets_the_next_token_at_release() {
    let run = sim::run(&base(4_000, true, true));
    assert_eq!(grants(&run), vec![(0, 0, 33), (4_000, 1, 34)]);
    let waits: Vec<_> =
        run.trace.events.iter().filter(|e| matches!(e.kind, EventKind::Wait { .. })).collect();
    assert_eq!(waits.len(), 1);
    assert_eq!(waits[0].at, 1_000);
}

#[test]
fn rule3_b_asking_after_a_is_done_does_not_wait() {
    let run = sim::run(&base(500, true, true));
    assert_eq!(grants(&run), vec![(0, 0, 33), (1_000, 1, 34)]);
    assert!(run.trace.workers[1].waiting.is_empty());
}

#[test]
fn rule4_late_release_is_compare_and_delete() {
    // A wakes at 10500 while B holds 34: A's release must not free B's lock.
    let run = sim::run(&base(10_500, true, true));
    let release =
        run.trace.events.iter().find(|e| matches!(e.kind, EventKind::Release { worker: 0, .. })).unwrap();
    assert_eq!(release.kind, EventKind::Release { worker: 0, token: Some(33), freed: None });
    assert_eq!(run.trace.leases[1].end, LeaseEnd::Released);
}

#[test]
fn rule4_plain_delete_frees_someone_elses_lock() {
    let mut sc = base(10_500, true, true);
    sc.release = Release::PlainDelete;
    let run = sim::run(&sc);
    assert_eq!(run.trace.leases[1].end, LeaseEnd::DeletedByOther(0));
    assert_eq!(run.trace.leases[1].held, Span { from: 10_000, to: Some(10_500) });
}

#[test]
fn rule5_b_writes_b_work_after_acquiring() {
    let inputs = Inputs { pause: 15_000, b_work: 2_500, ..Inputs::default() };
    let run = sim::run(&gc(&inputs));
    assert_eq!(run.trace.writes[0].at, 12_500);
    // A now wakes at 15000, after B's write at 12500: fenced.
    assert_eq!(run.outcome.kind, Fenced);
}

#[test]
fn rule6_equal_token_is_accepted() {
    // A writes twice with the same token: the second write carries a token equal to the highest seen.
    let mut sc = base(1_000, true, true);
    sc.workers[0].steps.insert(3, Step::Write { delay: Dur::Ms(0) });
    let run = sim::run(&sc);
    assert!(run.trace.writes[..2].iter().all(|w| w.accepted && w.token == Some(33)));
}

#[test]
fn rule7_expiry_before_grant_before_workers() {
    let run = sim::run(&base(10_000, true, true));
    let at_10s: Vec<_> = run.trace.events.iter().filter(|e| e.at == 10_000).map(|e| e.kind).collect();
    assert!(matches!(at_10s[0], EventKind::Expire { worker: 0, token: 33 }));
    assert!(matches!(at_10s[1], EventKind::Grant { worker: 1, token: 34, .. }));
    assert!(matches!(at_10s[2], EventKind::Wake { worker: 0 }));
}

#[test]
fn first_token_is_a_parameter() {
    let inputs = Inputs { first_token: 7, pause: 15_000, ..Inputs::default() };
    let run = sim::run(&gc(&inputs));
    assert_eq!(grants(&run), vec![(0, 0, 7), (10_000, 1, 8)]);
}

#[test]
fn ttl_is_a_parameter() {
    let inputs = Inputs { ttl: 5_000, pause: 6_500, ..Inputs::default() };
    // Lease ends at 5000; B acquires then and writes at 6000; A wakes at 6500 and is rejected.
    assert_eq!(sim::run(&gc(&inputs)).outcome.kind, Fenced);
}

#[test]
fn crash_without_lease_orphans_the_lock() {
    let mut sc = base(1_000, false, true);
    sc.workers[0].steps = vec![Step::Acquire, Step::Crash];
    let run = sim::run(&sc);
    assert_eq!(run.outcome.kind, Orphaned);
    assert_eq!(run.outcome.wait.unwrap().until, None);
    // With a lease the lock comes back at expiry.
    sc.lease = true;
    let run = sim::run(&sc);
    assert_eq!(run.outcome.kind, Safe);
    assert_eq!(grants(&run)[1], (10_000, 1, 34));
}

#[test]
fn check_before_write_does_not_help_if_paused_after_the_check() {
    let mut sc = base(0, true, false);
    sc.workers[0].steps = vec![
        Step::Acquire,
        Step::Work(Dur::Ms(9_000)),
        Step::CheckLease,
        Step::Pause(Dur::Ms(6_000)),
        Step::Write { delay: Dur::Ms(0) },
        Step::Release,
    ];
    assert_eq!(sim::run(&sc).outcome.kind, Corrupted);
    // Checking after the pause catches it: A gives up and never writes.
    sc.workers[0].steps.swap(2, 3);
    let run = sim::run(&sc);
    assert_eq!(run.outcome.kind, Safe);
    assert_eq!(run.trace.writes.len(), 1);
}

#[test]
fn delayed_write_in_the_network_is_fenced() {
    let mut sc = base(0, true, true);
    sc.workers[0].steps =
        vec![Step::Acquire, Step::Work(Dur::Ms(9_000)), Step::Write { delay: Dur::Ms(3_000) }, Step::Release];
    let run = sim::run(&sc);
    assert_eq!(run.outcome.kind, Fenced);
    let late = run.outcome.stale_write.unwrap();
    assert_eq!((late.sent, late.at), (9_000, 12_000));
}

#[test]
fn lock_delay_keeps_the_lock_free_after_expiry() {
    let mut sc = base(15_000, true, true);
    sc.lock_delay = 2_000;
    let run = sim::run(&sc);
    assert_eq!(grants(&run)[1], (12_000, 1, 34));
}

#[test]
fn a_third_worker_gets_the_following_token() {
    let mut sc = base(15_000, true, true);
    sc.workers.push(Worker {
        name: "C".into(),
        steps: vec![
            Step::Idle(Dur::Ms(2_000)),
            Step::Acquire,
            Step::Write { delay: Dur::Ms(0) },
            Step::Release,
        ],
    });
    let run = sim::run(&sc);
    assert_eq!(grants(&run), vec![(0, 0, 33), (10_000, 1, 34), (11_000, 2, 35)]);
    assert_eq!(run.outcome.kind, Fenced);
}

#[test]
fn sweep_agrees_with_single_runs() {
    let sc = base(0, true, true);
    let map = sim::sweep(&sc, (0..=30_000).step_by(250));
    for (i, k) in map.iter().enumerate() {
        assert_eq!(*k, kind(i as u64 * 250, true, true));
    }
}

#[test]
fn outcome_map_of_the_defaults() {
    let seg = |from, to, kind| sim::Segment { from, to, kind };
    let map = |lease, fencing| sim::outcome_map(&base(0, lease, fencing), 0..=sim::MAX_PAUSE);
    assert_eq!(
        map(true, true),
        vec![seg(0, 9_999, Safe), seg(10_000, 11_000, UnfencedGap), seg(11_001, 30_000, Fenced)]
    );
    assert_eq!(
        map(true, false),
        vec![seg(0, 9_999, Safe), seg(10_000, 11_000, UnfencedGap), seg(11_001, 30_000, Corrupted)]
    );
    assert_eq!(map(false, true), vec![seg(0, 9_999, Safe), seg(10_000, 30_000, Stalled)]);
}

#[test]
fn outcome_names_are_the_interface() {
    let names: Vec<_> = OutcomeKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names, ["safe", "stalled", "orphaned", "fenced", "unfenced-gap", "double-grant", "corrupted"]);
    for k in OutcomeKind::ALL {
        assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{}\"", k.name()));
    }
}

/// The names of the events at `at`, in the order the run gave them.
fn order_at(sc: &Scenario, at: u64) -> Vec<&'static str> {
    let run = sim::run(sc);
    let name = |k: &EventKind| match k {
        EventKind::Expire { .. } => "expire",
        EventKind::Election { .. } => "election",
        EventKind::Node { .. } => "node",
        EventKind::Grant { .. } => "grant",
        EventKind::Register { .. } => "register",
        EventKind::Renew { .. } => "renew",
        EventKind::PauseStart { .. } => "pause",
        EventKind::Wake { .. } => "wake",
        EventKind::Write { .. } => "write",
        EventKind::Store { .. } => "store",
        EventKind::Release { .. } => "release",
        EventKind::Request { .. } => "request",
        EventKind::Wait { .. } => "wait",
        _ => "other",
    };
    run.trace.events.iter().filter(|e| e.at == at).map(|e| name(&e.kind)).collect()
}

fn etcd(f: impl FnOnce(&mut Inputs)) -> Scenario {
    let mut i = ScenarioId::Etcd.defaults();
    f(&mut i);
    ScenarioId::Etcd.build(&i)
}

#[test]
fn rule7_a_service_change_comes_between_an_expiry_and_the_grant_it_frees() {
    // The leader crashes on the millisecond A's lease runs out: no grant until a new leader is ready at 11 s.
    let sc = etcd(|i| (i.pause, i.leader_crash) = (11_500, 10_000));
    assert_eq!(order_at(&sc, 10_000), ["expire", "election"]);
    let run = sim::run(&sc);
    assert_eq!(grants(&run), vec![(0, 0, 33), (11_000, 1, 34)]);
    // A writes at 11.5 s while B holds the lock and before B's write: the gap.
    assert_eq!(run.outcome.kind, UnfencedGap);
    // Waking at 10.5 s, A writes while nobody holds the lock: harmless.
    assert_eq!(sim::run(&etcd(|i| (i.pause, i.leader_crash) = (10_500, 10_000))).outcome.kind, Safe);
}

#[test]
fn rule7_every_keepalive_comes_before_a_pause_of_the_same_millisecond() {
    // ZooKeeper: keepalives every ttl/3 (3333 ms). A pause that starts on the very millisecond of any
    // keepalive has not stopped the client yet: that keepalive renews, the next one is overdue.
    for k in 1..=2u64 {
        let start = 3_333 * k;
        let mut i = ScenarioId::Zookeeper.defaults();
        (i.pause_start, i.pause) = (start, 10_000);
        let sc = ScenarioId::Zookeeper.build(&i);
        assert_eq!(order_at(&sc, start), ["renew", "pause"], "keepalive {k}");
        let renewed =
            sim::run(&sc).trace.events.iter().filter(|e| matches!(e.kind, EventKind::Renew { .. })).count();
        assert_eq!(renewed as u64, k, "renewals up to and including the pause's start, keepalive {k}");
    }
}

#[test]
fn rule7_a_keepalive_due_on_the_wake_is_sent_by_the_woken_worker() {
    // A pause that ends on a keepalive's millisecond: the keepalive finds A paused, A sends it on waking.
    let mut i = ScenarioId::Zookeeper.defaults();
    (i.pause_start, i.pause) = (0, 6_666);
    assert_eq!(
        order_at(&ScenarioId::Zookeeper.build(&i), 6_666),
        ["wake", "renew", "write", "store", "release", "grant"]
    );
}

#[test]
fn rule7_a_grant_and_its_registration_come_before_the_workers() {
    // register-token, A wakes on the millisecond its lease ends: expiry, grant to B with its token registered,
    // then A's write, which the registered 34 fences.
    let mut i = ScenarioId::RegisterToken.defaults();
    i.pause = 10_000;
    let sc = ScenarioId::RegisterToken.build(&i);
    assert_eq!(order_at(&sc, 10_000), ["expire", "grant", "register", "wake", "write", "store", "release"]);
    assert_eq!(sim::run(&sc).outcome.kind, Fenced);
}

#[test]
fn rule7_workers_in_order_then_deliveries() {
    // A's write sent at 2 s with a 1 s delay arrives at 3 s, when B (asking at 3 s) acts first.
    let a = Worker {
        name: "A".into(),
        steps: vec![
            Step::Acquire,
            Step::Work(Dur::Ms(2_000)),
            Step::Write { delay: Dur::Ms(1_000) },
            Step::Release,
        ],
    };
    let b = Worker { name: "B".into(), steps: vec![Step::Idle(Dur::Ms(3_000)), Step::Acquire] };
    let c = Worker { name: "C".into(), steps: vec![Step::Idle(Dur::Ms(3_000)), Step::Acquire] };
    let sc = Scenario::with_workers(vec![a, b, c]);
    let run = sim::run(&sc);
    let at3: Vec<(&str, Option<usize>)> = run
        .trace
        .events
        .iter()
        .filter(|e| e.at == 3_000)
        .map(|e| match e.kind {
            EventKind::Request { worker } => ("request", Some(worker)),
            EventKind::Wait { worker, .. } => ("wait", Some(worker)),
            EventKind::Store { worker, .. } => ("store", Some(worker)),
            EventKind::Release { worker, .. } => ("release", Some(worker)),
            EventKind::Grant { worker, .. } => ("grant", Some(worker)),
            _ => ("other", None),
        })
        .collect();
    assert_eq!(
        at3,
        [
            ("request", Some(1)),
            ("wait", Some(1)),
            ("request", Some(2)),
            ("wait", Some(2)),
            ("store", Some(0)),
            ("release", Some(0)),
            ("grant", Some(1))
        ]
    );
}

#[test]
fn a_run_ends_at_the_horizon_even_when_a_worker_polls_for_ever() {
    // A takes the lock with no expiry and crashes; B polls every 10 ms for a lock nobody will free.
    let a = Worker { name: "A".into(), steps: vec![Step::AcquireNoExpiry, Step::Crash] };
    let b = Worker { name: "B".into(), steps: vec![Step::TryAcquire { retry: Dur::Ms(10) }, Step::Release] };
    let run = sim::run(&Scenario::with_workers(vec![a, b]));
    assert!(run.trace.events.iter().all(|e| e.at <= sim::HORIZON));
    assert_eq!(run.outcome.kind, Orphaned);
}

// Issue #37: each rule an independent reading of the docs found the core breaking, at a minimal script.

fn script_run(text: &str) -> sim::Run {
    sim::run(&fencing_lab::script::parse(text).unwrap())
}

/// (time, worker, expires) of every grant.
fn grant_leases(run: &sim::Run) -> Vec<(u64, usize, Option<u64>)> {
    let grant = |e: &sim::Event| match e.kind {
        EventKind::Grant { worker, expires, .. } => Some((e.at, worker, expires)),
        _ => None,
    };
    run.trace.events.iter().filter_map(grant).collect()
}

#[test]
fn an_acquire_without_expiry_that_waited_is_granted_without_expiry() {
    let run = script_run(
        "A: acquire, work 2s, release\nB: idle 1s, acquire without expiry, crash\n\
         C: idle 3s, acquire, write, release\n",
    );
    assert_eq!(grant_leases(&run), vec![(0, 0, Some(10_000)), (2_000, 1, None)]);
    // B's SETNX key never expires: C waits for ever.
    assert_eq!(run.outcome.kind, Orphaned);
}

#[test]
fn a_new_consensus_leader_re_arms_only_leases_that_had_one() {
    for text in [
        "service consensus, election 1s, leader-crash 5s\nA: acquire without expiry, crash\n\
         B: idle 1s, acquire, write, release\n",
        "expiry off\nservice consensus, election 1s, leader-crash 5s\nA: acquire, crash\n\
         B: idle 1s, acquire, write, release\n",
    ] {
        let run = script_run(text);
        assert!(!run.trace.events.iter().any(|e| matches!(e.kind, EventKind::Renew { .. })), "{text}");
        assert_eq!(grant_leases(&run), vec![(0, 0, None)], "{text}");
        assert_eq!(run.outcome.kind, Orphaned, "{text}");
    }
}

#[test]
fn a_keepalive_of_a_lease_given_back_never_renews_the_lock_taken_again_without_one() {
    // Found by every_script_keeps_the_documented_invariants: A's keepalive for its leased 33 fell due while
    // A was paused holding 34 without expiry, and on waking renewed 34.
    let run = script_run(
        "lease 10ms\nservice consensus\nA: acquire, release, acquire without expiry, pause 6.5s\n",
    );
    assert!(!run.trace.events.iter().any(|e| matches!(e.kind, EventKind::Renew { token: 34, .. })));
    assert_eq!(grant_leases(&run).last().map(|g| g.2), Some(None));
}

#[test]
fn a_lease_that_runs_out_during_a_failover_outage_frees_the_lock_at_the_promotion() {
    for wait in ["on", "off"] {
        let run = script_run(&format!(
            "lease 1s\nservice failover, crash 0.5s, promote 2s, wait {wait}\nA: acquire, crash\n\
             B: idle 0.6s, acquire, write, release\n"
        ));
        assert_eq!(grants(&run)[1..], [(2_000, 1, if wait == "on" { 34 } else { 33 })], "wait {wait}");
    }
}

#[test]
fn a_set_after_a_free_get_waits_while_the_lock_is_unavailable() {
    // Lock-delay (B's lease ends at 1 s, the lock is unavailable to 6 s) and a failover outage (0.5 s to
    // 2 s): the set at 1.5 s or 1 s waits in line like an acquire. (Under a consensus group, leaderless or
    // not, the language refuses `set`: tests/script.rs.)
    for (text, at) in [
        ("lease 1s\nlock-delay 5s\nA: get, idle 1.5s, set, write, release\nB: acquire, crash\n", 6_000),
        ("service failover, crash 0.5s, promote 2s\nA: get, idle 1s, set, write, release\n", 2_000),
    ] {
        let run = script_run(text);
        let a = grant_leases(&run).into_iter().find(|g| g.1 == 0).expect("A is granted");
        assert_eq!(a.0, at, "{text}");
        assert_eq!(run.outcome.kind, Safe, "{text}");
    }
}

#[test]
fn a_queued_redlock_acquire_is_granted_when_the_keys_expire() {
    let run =
        script_run("service redlock, servers 3\nA: acquire, crash\nB: idle 1s, acquire, write, release\n");
    assert_eq!(grants(&run), vec![(0, 0, 33), (10_000, 1, 34)]);
    assert_eq!(run.outcome.kind, Safe);
}

#[test]
fn a_redlock_request_waits_behind_the_line() {
    // A loses its majority at 2 s (N3's clock jumps) but keeps N1 and N2 to 10 s; B, in line since 1 s,
    // needs them. C asks at 3 s for N3-N5, all free: it waits behind B instead of taking them.
    let run = script_run(
        "service redlock, servers 5, jump N3 at 2s by 20s\nreach A: N1, N2, N3\nreach B: N1, N2, N3\n\
         reach C: N3, N4, N5\nA: acquire, crash\nB: idle 1s, acquire, write, release\n\
         C: idle 3s, acquire, write, release\n",
    );
    assert_eq!(grants(&run), vec![(0, 0, 33), (10_000, 1, 34), (10_000, 2, 35)]);
    assert!(run.outcome.double_grant.is_none());
}

#[test]
fn double_grant_looks_at_every_overlapping_pair_not_only_the_first() {
    // A's set takes 33, B's takes 34 over it, C's 35 over B: pairs A–B, A–C, B–C. A never writes; B and C
    // both do, so B–C is a double grant both of whose holders wrote, though C's first pair (A–C) is not.
    let run = script_run(
        "A: get, idle 1s, set, crash\nB: get, idle 1.5s, set, write, work 5s, release\n\
         C: get, idle 2s, set, write, release\n",
    );
    assert_eq!(run.outcome.kind, DoubleGrant);
    assert_eq!(run.outcome.newer_token, Some(34));
}

#[test]
fn a_release_lets_go_of_every_grant_its_worker_still_has() {
    // A holds 33 (no expiry), B's set takes 34 over it at 1 s and B releases; A takes 35 at 2.5 s and
    // releases it. A's older 33 is let go then too: the double grant (A–B at 1 s) was promised until 2.5 s.
    let run = script_run(
        "A: idle 0.5s, acquire without expiry, idle 2s, acquire, release\nB: get, idle 1s, set, release\n\
         C: idle 4s, acquire, write, release\n",
    );
    let dg = run.outcome.double_grant.expect("A–B");
    assert_eq!((dg.earlier, dg.later, dg.at, dg.until), (0, 1, 1_000, Some(2_500)));
}

#[test]
fn orphaned_is_any_wait_still_open_at_the_end_whoever_held_the_lock() {
    // C asks during a lock-delay (nobody holds the lock); B, ahead of it, takes it for ever.
    let run = script_run(
        "lease 1s\nlock-delay 5s\nA: acquire, crash\nB: idle 2s, acquire without expiry, crash\n\
         C: idle 3s, acquire, write, release\n",
    );
    assert_eq!(run.outcome.kind, Orphaned);
    let w = run.outcome.wait.unwrap();
    assert_eq!((w.worker, w.from, w.until, w.holder, w.holder_since), (2, 3_000, None, 1, 6_000));
    // C asks behind A, whose lock is freed at 2 s; B, ahead in line, then keeps it: the wait names B.
    let run = script_run(
        "A: acquire, work 2s, release\nB: idle 1s, acquire without expiry, crash\n\
         C: idle 1.5s, acquire, write, release\n",
    );
    assert_eq!(run.outcome.kind, Orphaned);
    let w = run.outcome.wait.unwrap();
    assert_eq!((w.worker, w.holder, w.holder_since), (2, 1, 2_000));
}

#[test]
fn stalled_is_a_lock_without_expiry_let_go_after_its_ttl_while_others_wait() {
    // C has waited since 2 s and gets the lock at 11 s, past A's grant + ttl; but A let go at 5 s and B at
    // 11 s, each inside its own 10 s: a lease would have freed nothing sooner.
    let text = "expiry off\nA: acquire, work 5s, release\nB: idle 1s, acquire, work 6s, release\n\
                C: idle 2s, acquire, write, release\n";
    assert_eq!(script_run(text).outcome.kind, Safe);
    assert_eq!(script_run(&text.replace("work 6s", "work 10s")).outcome.kind, Stalled);
    // A lock taken without expiry stalls a waiter as expiry off does.
    let run =
        script_run("A: acquire without expiry, work 12s, release\nB: idle 1s, acquire, write, release\n");
    assert_eq!(run.outcome.kind, Stalled);
}

#[test]
fn a_wait_with_no_holder_is_not_called_a_lock_delay() {
    // A asks during a failover's outage: nobody holds the lock, and there is no lock-delay.
    let run = script_run("service failover, crash 0.5s, promote 2s\nA: idle 1s, acquire, release\n");
    let table = fencing_lab::present::report::table(&run);
    assert!(table.contains("wait            nobody may take it"), "{table}");
    assert!(!table.contains("lock-delay"), "{table}");
}
