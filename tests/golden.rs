//! Golden traces: every scenario of the catalogue under every setting of its switches, at its defaults and
//! at the far end of its dragged value, as `locksim` prints the trace. A change to the engine that moves one
//! event of one run fails here and shows which. After a deliberate change, regenerate with
//! `GOLDEN=update cargo test --test golden` and read the diff before committing it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::switch_settings;
use fencing_lab::present::report::table;
use fencing_lab::scenarios::{Inputs, ScenarioId};
use fencing_lab::script;
use fencing_lab::sim;

/// The runs of `id` that its golden file holds: each switch setting at the defaults, and (if the scenario
/// has a dragged value) at its largest value.
fn runs(id: ScenarioId) -> Vec<Inputs> {
    let mut all = Vec::new();
    for i in switch_settings(id) {
        all.push(i);
        if let Some(key) = id.dragged() {
            let mut far = i;
            key.spec().set(&mut far, key.spec().range().1).unwrap();
            all.push(far);
        }
    }
    all
}

fn golden(id: ScenarioId) -> String {
    let mut out = String::new();
    for i in runs(id) {
        let sc = id.build(&i);
        let named: Vec<String> = sc.params.iter().map(|p| format!("{}={}", p.name, p.value)).collect();
        let switches: Vec<String> = (id.keys().iter())
            .filter(|k| k.spec().is_switch())
            .map(|k| format!("{}={}", k.spec().name, k.spec().text(&i)))
            .collect();
        out += &format!("## {} {}\n{}\n", switches.join(" "), named.join(" "), table(&sim::run(&sc)));
        // The script of the same state runs the same trace.
        assert_eq!(sim::run(&script::parse(&script::print(&sc)).unwrap()), sim::run(&sc));
    }
    out
}

#[test]
fn every_catalogue_run_matches_its_golden_trace() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");
    let update = std::env::var("GOLDEN").is_ok_and(|v| v == "update");
    let mut wrong = Vec::new();
    for id in ScenarioId::ALL {
        let path = format!("{dir}/{}.txt", id.id());
        let now = golden(id);
        if update {
            std::fs::write(&path, &now).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(now.as_str()) {
            wrong.push(path);
        }
    }
    assert!(
        wrong.is_empty(),
        "traces differ from {wrong:?}; see the file, or GOLDEN=update after a deliberate change"
    );
}
