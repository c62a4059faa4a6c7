//! The narration of the catalogue's runs over a dense grid of its own inputs: every scenario, every switch setting, and
//! each timing at every whole second, a millisecond either side of it (where events of the base timing tie)
//! and every quarter second; both languages. Every sentence must read (no "?" for a fact the run lacks), the
//! Japanese must keep the page's one vocabulary, and every number it says must be one the run carries: an
//! event's time or one of its numbers (a token, a lease end, a server), an input, or a lease counted from a
//! grant.
#![cfg(not(target_arch = "wasm32"))]

use fencing_lab::present::geom::seconds;
use fencing_lab::present::params::Lang;
use fencing_lab::present::text::panels;
use fencing_lab::scenarios::{Inputs, Key, Kind, ScenarioId};
use fencing_lab::sim::{self, EventKind, Run};

mod common;
use common::{numbers, slip, switch_settings};

/// What a narration of `run` may say: as seconds and as plain numbers.
fn allowed(run: &Run, inputs: &Inputs, id: ScenarioId) -> Vec<String> {
    let mut ok = Vec::new();
    let mut both = |n: u64| {
        ok.push(seconds(n));
        ok.push(n.to_string());
    };
    for e in &run.trace.events {
        // Its time and fields (tokens, lease ends, the time a write arrives …).
        e.to_numbers().into_iter().filter_map(|n| u64::try_from(n).ok()).for_each(&mut both);
        match e.kind {
            EventKind::Grant { .. } => both(e.at + inputs.ttl),
            EventKind::Node { node, .. } => both(node as u64 + 1),
            _ => {}
        }
    }
    for key in id.keys().iter().chain(id.extras()) {
        both(key.spec().get(inputs));
    }
    both(inputs.ttl);
    ok
}

/// The timings a scenario reads, each with the values the grid gives it.
fn grid(id: ScenarioId) -> Vec<(Key, Vec<u64>)> {
    let timings =
        [Key::Pause, Key::Delay, Key::Work, Key::Jump, Key::LeaderCrash, Key::PauseStart, Key::BRequest];
    timings
        .into_iter()
        .filter(|k| id.uses(*k))
        .map(|k| {
            let max = match k.spec().kind {
                Kind::Ms { max, .. } | Kind::At { max, .. } => max,
                _ => 0,
            };
            let mut values: Vec<u64> = (0..=max).step_by(250).collect();
            for s in (1_000..=max).step_by(1_000) {
                values.extend([s - 1, s + 1]);
            }
            values.retain(|v| *v <= max);
            (k, values)
        })
        .collect()
}

#[test]
fn every_catalogue_sentence_on_the_grid_reads_and_says_only_the_runs_numbers() {
    let (en, ja) = (panels(Lang::En), panels(Lang::Ja));
    let mut told = 0;
    for id in ScenarioId::ALL {
        for base in switch_settings(id) {
            for (key, values) in grid(id) {
                for v in values {
                    let mut inputs = base;
                    if key.spec().set(&mut inputs, v).is_err() {
                        continue;
                    }
                    let sc = id.build(&inputs);
                    let run = sim::run(&sc);
                    let ok = allowed(&run, &inputs, id);
                    let (said_en, said_ja) = (en.narrate(&sc, &run), ja.narrate(&sc, &run));
                    let at = format!("{:?} {}={v} {inputs:?}", id, key.spec().name);
                    assert_eq!(slip(&said_ja), None, "{at}: off the page's vocabulary: {said_ja}");
                    for text in [said_en, said_ja] {
                        assert!(!text.is_empty(), "{at}: nothing said");
                        assert!(!text.contains('?'), "{at}: a fact the run lacks: {text}");
                        for n in numbers(&text) {
                            assert!(ok.contains(&n), "{at}: {n} is no number of the run: {text}");
                        }
                    }
                    told += 1;
                }
            }
        }
    }
    assert!(told > 5_000, "{told} runs told");
}
