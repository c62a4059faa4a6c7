//! "Break it" on the page: the search it runs (size and spacing per scenario), the map of verdicts over the
//! disturbances (each cell checked against a run built from its own inputs), and the sentences that report
//! both, in English and Japanese, checked against the core's report.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::switch_settings;

use fencing_lab::present::breakit::{page_search, settings, Plane, CELL, PAGE_SCHEDULES};
use fencing_lab::present::markup;
use fencing_lab::present::params::Lang;
use fencing_lab::present::text::{fill, panels};
use fencing_lab::scenarios::search::{self, Search};
use fencing_lab::scenarios::{Inputs, Key, ScenarioId};
use fencing_lab::sim::{self, OutcomeKind};

fn finished(mut s: Search) -> search::Report {
    s.run(u64::MAX);
    s.report()
}

#[test]
fn the_page_searches_at_the_finest_spacing_within_a_million_schedules() {
    for id in ScenarioId::ALL {
        for inputs in switch_settings(id) {
            let s = page_search(id, &inputs);
            let n = s.total();
            assert!(n <= PAGE_SCHEDULES, "{id:?}: {n}");
            let Some(step) = s.report().bounds.first().map(|b| b.step) else {
                assert_eq!(n, 1, "{id:?}: nothing to vary, one run");
                continue;
            };
            // The next finer spacing the page offers would be over the limit (or there is none).
            if let Some(finer) = [1, 2, 5, 10, 20, 50, 100, 200, 500].into_iter().rev().find(|&s| s < step) {
                let finer_n = Search::new(id, &inputs, &search::bounds(&inputs, finer)).total();
                assert!(finer_n > PAGE_SCHEDULES, "{id:?}: step {finer} gives {finer_n}, within the limit");
            }
            // Small grids run whole here; the large ones once below (every grid in tests/search.rs).
            if n <= 100_000 {
                assert_eq!(finished(s), search::search(id, &inputs, step), "{id:?}: the core's own search");
            }
        }
    }
    // The base scenario: pause start 0–10 s × pause 0–30 s every 20 ms.
    let r = finished(page_search(ScenarioId::GcPause, &Inputs::default()));
    assert_eq!((r.schedules, r.bounds[0].step), (501 * 1501, 20));
    assert_eq!(r, search::search(ScenarioId::GcPause, &Inputs::default(), 20));
    // etcd varies three: pause start 0–10 s × pause × the leader's crash 0–30 s, every 0.5 s.
    let s = page_search(ScenarioId::Etcd, &ScenarioId::Etcd.defaults());
    assert_eq!((s.total(), s.report().bounds.len()), (21 * 61 * 61, 3));
}

#[test]
fn every_cell_of_the_map_is_the_run_at_its_values() {
    for id in ScenarioId::ALL {
        for inputs in switch_settings(id) {
            let Some(plane) = Plane::new(id, &inputs) else {
                assert!(search::DISTURBANCES.iter().all(|&k| !id.uses(k)), "{id:?} has something to vary");
                continue;
            };
            assert!(plane.dims.iter().all(|d| d.step == CELL && id.uses(d.key)));
            let rows = plane.kinds.len() / plane.columns();
            assert_eq!(rows * plane.columns(), plane.kinds.len());
            for (cell, &kind) in plane.kinds.iter().enumerate() {
                let mut at = inputs;
                for (key, v) in plane.values(cell) {
                    key.spec().set(&mut at, v).unwrap();
                }
                assert_eq!(sim::outcome(&id.build(&at)).kind, kind, "{id:?} cell {cell}");
                assert_eq!(plane.cell_of(&at), Some(cell), "{id:?}: the cell of a cell's own run");
            }
        }
    }
}

#[test]
fn the_base_map_is_pause_start_down_and_pause_across_with_the_gap_where_a_wakes_at_the_lease_end() {
    let plane = Plane::new(ScenarioId::GcPause, &Inputs::default()).unwrap();
    let keys: Vec<Key> = plane.dims.iter().map(|d| d.key).collect();
    assert_eq!(keys, [Key::PauseStart, Key::Pause]);
    assert_eq!((plane.kinds.len(), plane.columns()), (11 * 31, 31));
    // A wakes at start + pause; 10 s and 11 s are the gap (B has not written yet), later is fenced.
    for (cell, &kind) in plane.kinds.iter().enumerate() {
        let (start, pause) = (cell as u64 / 31 * 1000, cell as u64 % 31 * 1000);
        let expected = match start + pause {
            // Pause 0 at 10 s: A acts right as its lease ends, after B's grant in that millisecond.
            wake if wake < 10_000 => OutcomeKind::Safe,
            10_000 | 11_000 => OutcomeKind::UnfencedGap,
            _ => OutcomeKind::Fenced,
        };
        assert_eq!(kind, expected, "pause start {start}, pause {pause}");
    }
    // Nearest cell, clamped at the ends.
    let at = |pause_start, pause| Inputs { pause_start, pause, ..Inputs::default() };
    // Only a cell's own run is marked: not a neighbour (5.5 s + 5.5 s is a gap, 6 s + 6 s is fenced), not a
    // run past the map (a pause that starts after the lease).
    assert_eq!(plane.cell_of(&at(0, 10_000)), Some(10));
    assert_eq!(plane.cell_of(&at(10_000, 30_000)), Some(11 * 31 - 1));
    assert_eq!(plane.cell_of(&at(0, 10_500)), None);
    assert_eq!(plane.cell_of(&at(5_500, 5_500)), None);
    assert_eq!(plane.cell_of(&at(20_000, 1_000)), None);
    assert_eq!(Plane::new(ScenarioId::Crash, &Inputs::default()), None);
}

#[test]
fn a_search_and_a_map_depend_on_the_switches_not_on_the_disturbances() {
    let base = Inputs::default();
    let moved = Inputs { pause: 12_345, pause_start: 300, delay: 5, work: 7, ..base };
    assert_eq!(settings(ScenarioId::GcPause, &base), settings(ScenarioId::GcPause, &moved));
    let unfenced = Inputs { fencing: false, ..base };
    assert_ne!(settings(ScenarioId::GcPause, &base), settings(ScenarioId::GcPause, &unfenced));
    assert_ne!(settings(ScenarioId::GcPause, &base), settings(ScenarioId::LockDelay, &base));
}

#[test]
fn the_report_says_what_the_core_found_in_both_languages() {
    let r = finished(page_search(ScenarioId::GcPause, &Inputs::default()));
    let c = r.safety.as_ref().unwrap();
    assert_eq!(c.inputs, [(Key::PauseStart, 0), (Key::Pause, 10_000)]);
    let en = panels(Lang::En).report(&r);
    assert!(
        en.starts_with("Ran 752,001 schedules in 0 ms: pause start 0–10 s × pause 0–30 s, every 0.02 s."),
        "{en}"
    );
    assert!(en.contains(
        "Safety: the smallest failure is “Unfenced gap: a stale write got in”, at pause start 0 s, pause 10 s."
    ));
    assert!(en.ends_with("Liveness: no failure within these bounds."), "{en}");
    let ja = panels(Lang::Ja).report(&r);
    assert!(
        ja.starts_with(
            "752,001通りを0ミリ秒で実行しました（停止の始まり 0〜10秒 × 停止の長さ 0〜30秒、0.02秒刻み）。"
        ),
        "{ja}"
    );
    assert!(ja.contains("安全性：乱れがいちばん小さい失敗は「フェンシングの隙間：古い書き込みが受け付けられた」（停止の始まり 0秒、停止の長さ 10秒）です。"), "{ja}");
    assert!(ja.ends_with("活性：この範囲に失敗はありません。"), "{ja}");

    // Lease off: no harm to the data, but B stalls.
    let r = finished(page_search(ScenarioId::GcPause, &Inputs { lease: false, ..Inputs::default() }));
    let en = panels(Lang::En).report(&r);
    assert!(en.contains("Safety: no failure within these bounds."), "{en}");
    assert!(en.contains("Liveness: the smallest failure is “Stalled: the waiter is held up”, at "), "{en}");

    // Nothing to vary: one run, said so.
    let r = finished(page_search(ScenarioId::CheckThenSet, &ScenarioId::CheckThenSet.defaults()));
    let en = panels(Lang::En).report(&r);
    assert!(en.starts_with("Ran the one schedule this scenario has"), "{en}");
    assert!(en.contains("Safety: it fails with nothing varied: “Double grant: two holders wrote”."), "{en}");
    let ja = panels(Lang::Ja).report(&r);
    assert!(
        ja.contains("安全性：何も変えなくても失敗します（「二重取得：二人の持ち主が書き込んだ」）。"),
        "{ja}"
    );
}

#[test]
fn every_report_names_each_counterexample_value_and_no_placeholder_is_left() {
    for id in ScenarioId::ALL {
        for inputs in switch_settings(id) {
            let r = search::search(id, &inputs, 1000);
            for lang in [Lang::En, Lang::Ja] {
                let t = panels(lang);
                let said = t.report(&r);
                assert!(!said.contains('{') && !said.contains('?'), "{id:?} {lang:?}: {said}");
                for c in [&r.safety, &r.liveness].into_iter().flatten() {
                    assert!(said.contains(t.text.outcome_title(c.outcome)), "{id:?} {lang:?}: {said}");
                    assert!(said.contains(&t.values(&c.inputs)), "{id:?} {lang:?}: {said}");
                }
                let nones = [&r.safety, &r.liveness].iter().filter(|c| c.is_none()).count();
                assert_eq!(
                    said.matches(t.failures[0][2]).count() + said.matches(t.failures[1][2]).count(),
                    nones
                );
            }
        }
    }
}

#[test]
fn the_readers_own_find_is_named_a_safety_or_a_liveness_failure() {
    for lang in [Lang::En, Lang::Ja] {
        let t = panels(lang);
        for kind in OutcomeKind::ALL {
            let said = t.found(kind);
            assert!(said.contains(t.text.outcome_title(kind)), "{said}");
            let which =
                [kind.unsafe_data(), kind.liveness_lost(), !kind.unsafe_data() && !kind.liveness_lost()];
            for (i, expected) in which.into_iter().enumerate() {
                assert_eq!(
                    said == fill(t.found[i], &[t.text.outcome_title(kind)]),
                    expected,
                    "{lang:?} {kind:?}"
                );
            }
        }
    }
}

#[test]
fn the_map_names_its_axes_and_each_cell_by_its_values_and_verdict() {
    let plane = Plane::new(ScenarioId::GcPause, &Inputs::default()).unwrap();
    assert_eq!((plane.kinds.len(), plane.columns()), (11 * 31, 31));
    let t = panels(Lang::En);
    assert_eq!(
        markup::cell_label(&plane, 10, t),
        "pause start 0 s, pause 10 s → Unfenced gap: a stale write got in"
    );
    assert_eq!(plane.kinds[10], OutcomeKind::UnfencedGap);
    assert_eq!(
        markup::plane_caption(&plane, t),
        "Every run, one cell per second: pause 0–30 s across, pause start 0–10 s down"
    );
    let ja = panels(Lang::Ja);
    assert!(markup::cell_label(&plane, 10, ja).ends_with(ja.text.outcome_title(OutcomeKind::UnfencedGap)));
}
