//! The search over a scenario's disturbances: the known boundaries of the catalogue, agreement with an
//! independent brute force that builds every scenario from its inputs, determinism, pruning, and
//! `locksim search`.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::{locksim, switch_settings};

use fencing_lab::scenarios::search::{self, Bound, Counterexample, Report};
use fencing_lab::scenarios::{Inputs, Key, Kind, ScenarioId, INPUTS};
use fencing_lab::sim::{self, Ms, OutcomeKind};

fn pause_alone(step: Ms) -> [Bound; 1] {
    [Bound { key: Key::Pause, from: 0, to: 30_000, step }]
}

fn found(c: &Option<Counterexample>) -> Option<(OutcomeKind, Vec<(Key, Ms)>)> {
    c.as_ref().map(|c| (c.outcome, c.inputs.clone()))
}

#[test]
fn gc_pause_over_the_pause_alone_first_fails_at_10000_fencing_on_or_off() {
    for fencing in [true, false] {
        let inputs = Inputs { fencing, ..Inputs::default() };
        // Every millisecond: 9999 is still safe, 10000 is the first failure.
        let r = search::search_within(ScenarioId::GcPause, &inputs, &pause_alone(1));
        assert_eq!(r.schedules, 30_001);
        assert_eq!(found(&r.safety), Some((OutcomeKind::UnfencedGap, vec![(Key::Pause, 10_000)])), "{r}");
        assert_eq!(r.liveness, None, "{r}");
    }
}

#[test]
fn over_pause_start_and_length_a_wakes_exactly_as_its_lease_ends() {
    for ttl in [10_000, 5_000, 7_300] {
        let inputs = Inputs { ttl, ..Inputs::default() };
        let r = search::search(ScenarioId::GcPause, &inputs, 100);
        let c = r.safety.as_ref().expect("a safety failure");
        assert_eq!(c.outcome, OutcomeKind::UnfencedGap);
        // Least total disturbance: A wakes at pause_start + pause = ttl; of those, the earliest.
        assert_eq!(c.inputs, vec![(Key::PauseStart, 0), (Key::Pause, ttl)], "{r}");
    }
    // A pause that cannot start before 2 s: still the wake at the lease's end.
    let bounds = [
        Bound { key: Key::PauseStart, from: 2_000, to: 10_000, step: 100 },
        Bound { key: Key::Pause, from: 0, to: 30_000, step: 100 },
    ];
    let r = search::search_within(ScenarioId::GcPause, &Inputs::default(), &bounds);
    let c = r.safety.expect("a safety failure");
    assert_eq!(c.inputs, vec![(Key::PauseStart, 2_000), (Key::Pause, 8_000)]);
    let run = sim::outcome(&ScenarioId::GcPause.build(&c.apply(&Inputs::default())));
    assert_eq!(run.kind, OutcomeKind::UnfencedGap);
    assert_eq!(run.stale_write.map(|w| w.at), Some(10_000));
}

#[test]
fn lease_off_never_harms_the_data_but_stalls() {
    let inputs = Inputs { lease: false, ..Inputs::default() };
    for r in [
        search::search_within(ScenarioId::GcPause, &inputs, &pause_alone(1)),
        search::search(ScenarioId::GcPause, &inputs, 100),
    ] {
        assert_eq!(r.safety, None, "{r}");
        let c = r.liveness.as_ref().expect("a liveness failure");
        assert_eq!(c.outcome, OutcomeKind::Stalled);
        // B waits from 1 s; it is stalled once A holds on past where a lease would have ended.
        assert_eq!(c.inputs.iter().map(|(_, v)| v).sum::<Ms>(), 10_000, "{r}");
    }
}

#[test]
fn register_token_with_register_and_fencing_is_safe_within_bounds() {
    let inputs = ScenarioId::RegisterToken.defaults();
    assert!(inputs.register && inputs.fencing);
    let r = search::search(ScenarioId::RegisterToken, &inputs, 100);
    assert_eq!((r.schedules, &r.safety, &r.liveness), (101 * 301, &None, &None), "{r}");
    assert!(r.to_string().contains("safety: none within these bounds"), "{r}");
    // Independently: every point of a coarser grid, each scenario built from its inputs.
    let coarse = grid(ScenarioId::RegisterToken, &inputs, 500);
    for (_, kind) in brute_force(ScenarioId::RegisterToken, &inputs, &coarse) {
        assert!(!kind.unsafe_data() && !kind.liveness_lost(), "{kind}");
    }
    // Registration is what makes it safe.
    let off = search::search(ScenarioId::RegisterToken, &Inputs { register: false, ..inputs }, 100);
    assert_eq!(off.safety.map(|c| c.outcome), Some(OutcomeKind::UnfencedGap));
}

/// The disturbances each scenario has and their ranges, written out here rather than taken from the
/// search.
fn dimensions(id: ScenarioId, inputs: &Inputs) -> Vec<(Key, Ms, Ms)> {
    use ScenarioId::*;
    match id {
        GcPause | LockDelay | RegisterToken => {
            vec![(Key::PauseStart, 0, inputs.ttl), (Key::Pause, 0, 30_000)]
        }
        CheckThenPause => vec![(Key::Pause, 0, 30_000)],
        NetworkDelay => vec![(Key::Delay, 0, 28_000)],
        UnsafeRelease => vec![(Key::Work, 2_000, 30_000)],
        Zookeeper => vec![(Key::PauseStart, 0, inputs.ttl), (Key::Pause, 0, 30_000)],
        Etcd => {
            vec![(Key::PauseStart, 0, inputs.ttl), (Key::Pause, 0, 30_000), (Key::LeaderCrash, 0, 30_000)]
        }
        Redlock => vec![(Key::Pause, 0, 30_000), (Key::Jump, 0, 28_000)],
        SetnxExpire | CheckThenSet | Crash | Failover => vec![],
    }
}

/// Every point of the grid `dims` (input, first, last, step), each built with [`ScenarioId::build`] and
/// run on its own.
fn brute_force(
    id: ScenarioId,
    inputs: &Inputs,
    dims: &[(Key, Ms, Ms, Ms)],
) -> Vec<(Vec<(Key, Ms)>, OutcomeKind)> {
    let mut points: Vec<Vec<(Key, Ms)>> = vec![vec![]];
    for &(key, from, to, step) in dims {
        let values: Vec<Ms> = (from..=to).step_by(step as usize).collect();
        points = points
            .into_iter()
            .flat_map(|p| values.iter().map(move |&v| [p.clone(), vec![(key, v)]].concat()))
            .collect();
    }
    points
        .into_iter()
        .map(|point| {
            let mut i = *inputs;
            for &(key, v) in &point {
                key.spec().set(&mut i, v).unwrap();
            }
            let kind = sim::outcome(&id.build(&i)).kind;
            (point, kind)
        })
        .collect()
}

/// The default grid of `id` with this step, written out here rather than taken from the search.
fn grid(id: ScenarioId, inputs: &Inputs, step: Ms) -> Vec<(Key, Ms, Ms, Ms)> {
    dimensions(id, inputs).into_iter().map(|(key, from, to)| (key, from, to, step)).collect()
}

/// The least total, earliest point failing `bad`.
fn smallest(
    runs: &[(Vec<(Key, Ms)>, OutcomeKind)],
    bad: fn(OutcomeKind) -> bool,
) -> Option<(OutcomeKind, Vec<(Key, Ms)>)> {
    let total = |p: &[(Key, Ms)]| p.iter().map(|(_, v)| v).sum::<Ms>();
    // min_by_key keeps the first of equal keys, and the points are in lexicographic order.
    runs.iter().filter(|(_, k)| bad(*k)).min_by_key(|(p, _)| total(p)).map(|(p, k)| (*k, p.clone()))
}

/// Every switch combination a scenario reads, from its defaults.
#[test]
fn agrees_with_a_brute_force_on_a_coarser_grid_for_every_scenario_and_switch() {
    let step = 1_000;
    for id in ScenarioId::ALL {
        for inputs in switch_settings(id) {
            let r = search::search(id, &inputs, step);
            let runs = brute_force(id, &inputs, &grid(id, &inputs, step));
            let at = format!("{} {inputs:?}", id.id());
            assert_eq!(r.schedules, runs.len() as u64, "{at}");
            let dims: Vec<(Key, Ms, Ms)> = r.bounds.iter().map(|b| (b.key, b.from, b.to)).collect();
            assert_eq!(dims, dimensions(id, &inputs), "{at}");
            assert_eq!(found(&r.safety), smallest(&runs, OutcomeKind::unsafe_data), "{at}");
            assert_eq!(found(&r.liveness), smallest(&runs, OutcomeKind::liveness_lost), "{at}");
        }
    }
}

/// A window of every millisecond around each scenario's boundaries (the lease's end at 10 s; A's write at
/// 2 s + its pause or delay), where an answer off by one millisecond would show.
#[test]
fn agrees_with_a_brute_force_ms_by_ms_around_the_boundaries() {
    use ScenarioId::*;
    for id in [GcPause, LockDelay, RegisterToken, CheckThenPause, NetworkDelay, UnsafeRelease] {
        let dims = match id {
            CheckThenPause => vec![(Key::Pause, 7_980, 8_020, 1)],
            NetworkDelay => vec![(Key::Delay, 7_980, 8_020, 1)],
            UnsafeRelease => vec![(Key::Work, 9_980, 10_020, 1)],
            _ => vec![(Key::PauseStart, 0, 20, 1), (Key::Pause, 9_980, 10_020, 1)],
        };
        let bounds: Vec<Bound> =
            dims.iter().map(|&(key, from, to, step)| Bound { key, from, to, step }).collect();
        for inputs in switch_settings(id) {
            let r = search::search_within(id, &inputs, &bounds);
            let runs = brute_force(id, &inputs, &dims);
            let at = format!("{} {inputs:?}", id.id());
            assert_eq!(found(&r.safety), smallest(&runs, OutcomeKind::unsafe_data), "{at}");
            assert_eq!(found(&r.liveness), smallest(&runs, OutcomeKind::liveness_lost), "{at}");
        }
    }
}

#[test]
fn the_same_search_gives_the_same_report_byte_for_byte() {
    for id in ScenarioId::ALL {
        let inputs = Inputs { fencing: false, ..id.defaults() };
        let (a, b) = (search::search(id, &inputs, 250), search::search(id, &inputs, 250));
        assert_eq!(a, b);
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
        assert_eq!(a.to_string(), b.to_string());
    }
}

/// Whether a note of `r` ending in `why` names `key` in its list ("a, b and c do not apply to …").
#[test]
fn a_search_run_in_slices_reports_what_one_run_does_and_counts_its_progress() {
    // Slicing does not depend on the grid's spacing: a 1 s grid (1/16 of the schedules of the page's 250 ms)
    // keeps every scenario and switch setting while costing a debug build seconds, not half a minute.
    for id in ScenarioId::ALL {
        for inputs in switch_settings(id) {
            let bounds = search::bounds(&inputs, 1_000);
            let whole = search::search_within(id, &inputs, &bounds);
            let mut sliced = search::Search::new(id, &inputs, &bounds);
            assert_eq!(sliced.total(), whole.schedules);
            // Uneven slices, as a page's time budget gives them.
            let mut slices = [1, 7, 1000, 3].into_iter().cycle();
            while !sliced.run(slices.next().unwrap()) {
                assert!(sliced.done() < sliced.total());
            }
            assert_eq!(sliced.done(), sliced.total());
            assert_eq!(sliced.report(), whole, "{id:?}");
            // Finished: more slices change nothing.
            assert!(sliced.run(5));
            assert_eq!(sliced.report(), whole);
        }
    }
}

fn noted(r: &Report, key: Key, why: &str) -> bool {
    r.pruned.notes().iter().filter(|n| n.ends_with(why)).any(|n| {
        let names = n.split(" do").next().unwrap_or("");
        names.split(", ").flat_map(|s| s.split(" and ")).any(|name| name == key.spec().name)
    })
}

#[test]
fn sizes_and_pruning_per_scenario() {
    use ScenarioId::*;
    let sizes = [
        (GcPause, 101 * 301),
        (LockDelay, 101 * 301),
        (RegisterToken, 101 * 301),
        (CheckThenPause, 301),
        (NetworkDelay, 281),
        (UnsafeRelease, 281),
        (SetnxExpire, 1),
        (CheckThenSet, 1),
        (Crash, 1),
    ];
    for (id, size) in sizes {
        let r = search::search(id, &id.defaults(), 100);
        assert_eq!(r.schedules, size, "{}", id.id());
        // Every disturbance is either searched or pruned with a note, and every switch the scenario
        // ignores is named.
        for key in search::DISTURBANCES {
            let searched = r.bounds.iter().any(|b| b.key == key);
            assert_eq!(searched, id.uses(key), "{}", id.id());
            assert_eq!(
                noted(&r, key, ": not searched"),
                !searched,
                "{} {:?}: {:?}",
                id.id(),
                key,
                r.pruned.notes()
            );
        }
        for spec in INPUTS.iter().filter(|s| matches!(s.kind, Kind::Words(_))) {
            assert_eq!(
                noted(&r, spec.key, ": ignored"),
                !id.uses(spec.key),
                "{}: {:?}",
                id.id(),
                r.pruned.notes()
            );
        }
    }
    let crash = search::search(Crash, &Inputs::default(), 100);
    assert!(crash
        .pruned
        .notes()
        .iter()
        .any(|n| n.starts_with("fencing, ") && n.contains("do not apply to crash")));
}

#[test]
fn bounds_are_normalised_and_unread_inputs_pruned() {
    let bounds = [
        Bound { key: Key::Pause, from: 500, to: 99_999, step: 0 },
        Bound { key: Key::Pause, from: 0, to: 1, step: 1 },
        Bound { key: Key::Delay, from: 0, to: 100, step: 10 },
    ];
    let r =
        search::search_within(ScenarioId::CheckThenPause, &ScenarioId::CheckThenPause.defaults(), &bounds);
    assert_eq!(r.bounds, vec![Bound { key: Key::Pause, from: 500, to: 30_000, step: 1 }]);
    assert_eq!(r.schedules, 29_501);
    assert_eq!(r.pruned.notes()[0], "delay does not apply to check-then-pause: not searched");
    let r = search::search_within(
        ScenarioId::NetworkDelay,
        &Inputs::default(),
        &[Bound { key: Key::Delay, from: 0, to: 28_000, step: 3_000 }],
    );
    assert_eq!(r.bounds[0].to, 27_000, "the last value on the grid");
}

#[test]
fn an_input_that_is_not_a_disturbance_can_be_searched_too() {
    // B's start is an `Idle` step and the first token a field: each point is built anew, same answers.
    let bounds = [
        Bound { key: Key::BRequest, from: 0, to: 12_000, step: 1_000 },
        Bound { key: Key::Pause, from: 0, to: 30_000, step: 1_000 },
    ];
    let r = search::search_within(ScenarioId::GcPause, &Inputs::default(), &bounds);
    assert_eq!(r.schedules, 13 * 31);
    // However early B asks, the first failure is A waking as its lease ends, with B its new holder.
    assert_eq!(
        found(&r.safety),
        Some((OutcomeKind::UnfencedGap, vec![(Key::BRequest, 0), (Key::Pause, 10_000)]))
    );
}

#[test]
fn json_has_the_documented_shape() {
    let r: Report = search::search(ScenarioId::GcPause, &Inputs::default(), 100);
    let v: serde_json::Value = serde_json::to_value(&r).unwrap();
    assert_eq!(v["schedules"], 30_401);
    assert_eq!(
        v["bounds"][0],
        serde_json::json!({"input": "pause_start", "from": 0, "to": 10000, "step": 100})
    );
    assert_eq!(
        v["safety"],
        serde_json::json!({"outcome": "unfenced-gap", "inputs": {"pause_start": 0, "pause": 10000}})
    );
    assert_eq!(v["liveness"], serde_json::Value::Null);
    assert_eq!(v["millis"], 0);
}

#[test]
fn locksim_search_prints_the_report() {
    let (code, out, _) = locksim(&["search", "--scenario", "gc-pause"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "search: gc-pause, lease on, fencing on");
    assert_eq!(lines[1], "bounds: pause_start 0..=10000 step 100, pause 0..=30000 step 100 (ms)");
    assert!(lines[2].starts_with("schedules: 30401 in "), "{out}");
    assert_eq!(lines[3], "safety: unfenced-gap at pause_start 0, pause 10000");
    assert_eq!(lines[4], "  replay: locksim --scenario gc-pause --pause 10000 --pause-start 0");
    assert_eq!(lines[5], "liveness: none within these bounds");
    assert!(out.contains("pruned: delay, work, jump and leader_crash do not apply to gc-pause"), "{out}");

    let (_, out, _) = locksim(&["search", "--scenario", "gc-pause", "--lease", "off", "--step", "1000"]);
    assert!(out.contains("safety: none within these bounds\n"), "{out}");
    assert!(out.contains("liveness: stalled at pause_start 0, pause 10000\n"), "{out}");
    assert!(
        out.contains("replay: locksim --scenario gc-pause --pause 10000 --lease off --pause-start 0"),
        "{out}"
    );
}

#[test]
fn locksim_search_json_matches_the_core() {
    let (code, out, _) = locksim(&["search", "--scenario", "register-token", "--json", "--step", "500"]);
    assert_eq!(code, 0);
    let mut v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert!(v["millis"].is_u64());
    v["millis"] = 0.into();
    let inputs = ScenarioId::RegisterToken.defaults();
    let core = serde_json::to_value(search::search(ScenarioId::RegisterToken, &inputs, 500)).unwrap();
    assert_eq!(v, core);
    assert_eq!((&v["safety"], &v["liveness"]), (&serde_json::Value::Null, &serde_json::Value::Null));

    let (_, out, _) = locksim(&["search", "--scenario", "setnx-expire", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schedules"], 1);
    assert_eq!(v["liveness"], serde_json::json!({"outcome": "orphaned", "inputs": {}}));
}

#[test]
fn locksim_search_bad_arguments_exit_2() {
    for args in [
        &["search", "--step", "0"][..],
        &["search", "--step", "x"],
        &["search", "--step", "30001"],
        &["search", "--pause", "5000"],
        &["search", "--scenario", "network-delay", "--delay", "5000"],
        &["search", "--scenario", "paxos"],
        &["--step", "100"],
        &["search", "search"],
    ] {
        let (code, out, err) = locksim(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert!(err.starts_with("locksim: ") && err.contains("Usage: locksim"), "{err}");
    }
    // An input the scenario does not search is still a setting.
    let (code, out, _) = locksim(&["search", "--scenario", "crash", "--pause", "5000", "--lease", "off"]);
    assert_eq!(code, 0);
    assert!(out.contains("liveness: orphaned with no disturbance"), "{out}");
}
