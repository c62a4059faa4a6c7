//! Narration told from events, for any program: random scripts (random workers, steps, settings and lock
//! services), and every number and claim of every sentence, in both languages, checked against the trace.
#![cfg(not(target_arch = "wasm32"))]

use fencing_lab::present::geom::seconds;
use fencing_lab::present::told::{self, Told};
use fencing_lab::script;
use fencing_lab::sim::{self, EventKind};
use proptest::prelude::*;

mod common;
use common::numbers;
use common::programs::any_program;

/// Every number the fact's own event(s) carry: its times as seconds, tokens, server numbers.
fn allowed(run: &sim::Run, fact: &Told) -> Vec<String> {
    let mut ok: Vec<String> = Vec::new();
    let mut time = |t: u64| ok.push(seconds(t));
    match *fact {
        Told::Waited { at, .. }
        | Told::Expired { at, .. }
        | Told::Read { at, .. }
        | Told::Crashed { at, .. } => time(at),
        Told::Released { at, .. } | Told::Checked { at, .. } => time(at),
        Told::Granted { at, expires, .. } => {
            time(at);
            expires.into_iter().for_each(time);
        }
        Told::Unavailable { at, until } | Told::Paused { at, until, .. } | Told::LeaderLost { at, until } => {
            time(at);
            time(until);
        }
        Told::Sent { at, arrives, .. } => {
            time(at);
            time(arrives);
        }
        Told::Rearmed { at, expires, .. } => {
            time(at);
            time(expires);
        }
        Told::Jumped { at, by, .. } => {
            time(at);
            time(by);
        }
        Told::Registered { at, .. }
        | Told::Stored { at, .. }
        | Told::Down { at, .. }
        | Told::Promoted { at, .. } => time(at),
    }
    // Tokens and server numbers: only those the run's own events carry.
    for e in &run.trace.events {
        match e.kind {
            EventKind::Grant { token, .. } | EventKind::Register { token, .. } => ok.push(token.to_string()),
            EventKind::Store { highest_before: Some(h), .. } => ok.push(h.to_string()),
            EventKind::Node { node, .. } => ok.push((node + 1).to_string()),
            _ => {}
        }
    }
    ok
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_number_and_claim_of_the_narration_is_the_trace_s(sc in any_program()) {
        // Any program prints as a script that reads back as the same program.
        let back = script::parse(&script::print(&sc)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &sc);
        let run = sim::run(&sc);
        let names: Vec<String> = sc.workers.iter().map(|w| w.name.clone()).collect();
        let facts = told::told(&run);
        for fact in &facts {
            let ok = allowed(&run, fact);
            for (lang, text) in [("en", told::en(fact, &names)), ("ja", told::ja(fact, &names))] {                for n in numbers(&text) {
                    prop_assert!(ok.contains(&n), "{lang}: {n} in {text:?} is not in {fact:?}");
                }
                // The page's one vocabulary: 番号, 資源, ロックを返す, サーバ; and no doubled で.
                for word in ["トークン", "ストレージ", "解放", "サーバー", "でで", "で、で"] {
                    prop_assert!(!text.contains(word), "{} in {:?}", word, text);
                }
                if let Told::Stored { accepted, worker, .. } = *fact {
                    let (yes, no) = if lang == "en" { ("accepted", "rejected") } else { ("受け付け", "拒否") };
                    prop_assert_eq!(text.contains(yes), accepted, "{}", text);
                    prop_assert_eq!(text.contains(no), !accepted, "{}", text);
                    prop_assert!(text.contains(&names[worker]));
                }
            }
        }
        // Every accepted and every rejected write is told, in order.
        let stored = facts.iter().filter(|f| matches!(f, Told::Stored { .. })).count();
        prop_assert_eq!(stored, run.trace.writes.len());
        let times: Vec<u64> = facts.iter().map(Told::at).collect();
        prop_assert!(times.windows(2).all(|w| w[0] <= w[1]));
        // A projector's steps: each moment once, in order, holding exactly the facts told then, every one a
        // time of the trace.
        let moments = told::moments(&run);
        prop_assert!(moments.windows(2).all(|w| w[0].0 < w[1].0));
        prop_assert!(moments.iter().all(|(at, fs)| !fs.is_empty() && fs.iter().all(|f| f.at() == *at)));
        prop_assert!(moments.iter().all(|(at, _)| run.trace.events.iter().any(|e| e.at == *at)));
        let flat: Vec<Told> = moments.into_iter().flat_map(|(_, fs)| fs).collect();
        prop_assert_eq!(flat, facts);
    }
}

#[test]
fn the_source_s_question_told_from_its_events() {
    let sc = script::parse(
        "A: acquire, pause {pause=15s}, write, release\nB: idle 1s, acquire, work 1s, write, release\n",
    )
    .unwrap();
    let run = sim::run(&sc);
    let names = vec!["A".to_owned(), "B".to_owned()];
    let en: Vec<String> = told::told(&run).iter().map(|f| told::en(f, &names)).collect();
    assert_eq!(
        en,
        [
            "At 0 s A took the lock with token 33, its lease until 10 s.",
            "From 0 s to 15 s A was paused.",
            "At 1 s B asked for the lock; A held it, so B waited.",
            "At 10 s A's lease ran out.",
            "At 10 s B took the lock with token 34, its lease until 20 s.",
            "At 11 s the storage accepted B's write with token 34.",
            "At 11 s B released the lock.",
            "At 15 s the storage rejected (it had seen 34) A's write with token 33. A no longer held the lock.",
            "At 15 s A released, but it no longer held the lock: nothing changed.",
        ]
    );
    let ja: Vec<String> = told::told(&run).iter().map(|f| told::ja(f, &names)).collect();
    assert_eq!(ja[7], "15秒に資源は A の番号 33 の書き込みを拒否しました（すでに 34 を見ていました）。A はもうロックを持っていませんでした。");
    assert_eq!(ja[4], "10秒に B がロックを取りました（番号 34、20秒までのリース）。");
}
