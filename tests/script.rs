//! The scenario language: every catalogue state printed as a script reads back as the same scenario and
//! runs the same trace; bad scripts are errors with a line, a column and a hint in both languages, never a
//! panic or a hang; the stated limits hold.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::locksim;
use fencing_lab::scenarios::{Inputs, ScenarioId};
use fencing_lab::script::{self, limits, Error, Expect, Problem};
use fencing_lab::sim::{self, OutcomeKind};
use proptest::prelude::*;

/// A catalogue scenario with every input it reads set at random within its range.
fn any_state() -> impl Strategy<Value = (ScenarioId, Inputs)> {
    (0..ScenarioId::ALL.len(), prop::collection::vec(0.0..1.0f64, 24)).prop_map(|(n, r)| {
        let id = ScenarioId::ALL[n];
        let mut i = id.defaults();
        for (k, key) in id.keys().iter().chain(id.extras()).enumerate() {
            let (min, max) = key.spec().range();
            let v = min + ((max - min) as f64 * r[k]) as u64;
            key.spec().set(&mut i, v).unwrap();
        }
        (id, i)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn printing_then_parsing_gives_the_same_scenario_and_trace((id, inputs) in any_state()) {
        let sc = id.build(&inputs);
        let text = script::print(&sc);
        let back = script::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &sc, "{}", text);
        prop_assert_eq!(sim::run(&back), sim::run(&sc));
        // Printing is canonical: the script of the script is the script.
        prop_assert_eq!(script::print(&back), text);
    }

    /// What lets the page keep its reading when a drag or a slider moves a named value (app::scripting):
    /// the edited text reads as the same scenario with only that value changed.
    #[test]
    fn setting_a_named_value_in_the_text_changes_only_that_value((id, inputs) in any_state(), r in 0.0..1.0f64) {
        let sc = id.build(&inputs);
        let text = script::print(&sc);
        for (i, p) in sc.params.iter().enumerate() {
            let v = p.min + ((p.max - p.min) as f64 * r) as u64;
            let edited = script::set_value(&text, &p.name, v, p.off).expect("a value the script defines");
            let mut want = sc.clone();
            want.params[i].value = v;
            prop_assert_eq!(script::parse(&edited).map_err(|e| TestCaseError::fail(format!("{e}\n{edited}")))?, want, "{}", edited);
        }
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,300}") {
        if let Ok(sc) = script::parse(&text) {
            let _ = sim::run(&sc);
        }
    }

    #[test]
    fn random_script_words_never_panic(words in prop::collection::vec(prop::sample::select(vec![
        "lease", "expiry", "fencing", "on", "off", "service", "redlock", "consensus", "failover", "single",
        "servers", "jump", "N3", "at", "by", "reach", "A", "B", "C", "D", "E", ":", ",", "{", "}", "=", "..",
        "acquire", "without", "expiry", "try-acquire", "every", "work", "until", "idle", "pause", "write",
        "delay", "release", "crash", "check", "get", "set", "value", "x", "range", "drag", "0s", "10ms",
        "15s", "1.5s", "600s", "601s", "leader-crash", "election", "\n", "\n", "\n", "#", "switch", "?", "|",
        "atomic", "{atomic?",
    ]), 0..80)) {
        let text = words.join(" ");
        if let Ok(sc) = script::parse(&text) {
            let run = sim::run(&sc);
            prop_assert!(run.trace.events.iter().all(|e| e.at <= sim::HORIZON));
        }
    }

    #[test]
    fn random_edits_of_valid_scripts_never_panic(
        (id, inputs) in any_state(),
        edits in prop::collection::vec((0.0..1.0f64, 0..3u8, any::<char>()), 1..6),
    ) {
        let mut chars: Vec<char> = script::print(&id.build(&inputs)).chars().collect();
        for (at, what, c) in edits {
            let i = ((chars.len() as f64) * at) as usize;
            match what {
                0 if i < chars.len() => { chars.remove(i); }
                1 => chars.insert(i.min(chars.len()), c),
                _ if i < chars.len() => chars[i] = c,
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        match script::parse(&text) {
            Ok(sc) => { let _ = sim::run(&sc); }
            // Every error names a place on a line that exists (or the script as a whole); a carriage
            // return alone ends a line too.
            Err(e) => {
                let lines = text.replace("\r\n", "\n").replace('\r', "\n").lines().count();
                prop_assert!(e.line <= lines && (e.line > 0 || e.col == 0), "{e:?}")
            }
        }
    }
}

fn err(text: &str) -> Error {
    script::parse(text).expect_err("a bad script")
}

/// Each bad script's error is at its line and column, says what it should in English, and has its own
/// Japanese.
fn said_at(cases: &[(&str, usize, usize, &str)]) {
    for &(text, line, col, says) in cases {
        let e = err(text);
        assert_eq!((e.line, e.col), (line, col), "{text:?}: {e}");
        assert!(e.en().contains(says), "{text:?}: {}", e.en());
        assert!(!e.ja().is_empty() && e.ja() != e.en());
    }
}

#[test]
fn the_sketch_of_the_issue_runs_as_the_source_s_question() {
    let sc = script::parse(
        "lease 10s\nfencing on\nA: acquire, pause {pause=15s}, write, release\n\
         B: idle 1s, acquire, work 1s, write, release\n",
    )
    .unwrap();
    assert_eq!(sim::run(&sc).outcome.kind, OutcomeKind::Fenced);
    assert_eq!(sc.dragged().map(|p| (p.name.as_str(), p.value)), Some(("pause", 15_000)));
    // The same scenario as the catalogue's gc-pause at 15 s, up to the names it gives its values.
    let gc = ScenarioId::GcPause.build(&Inputs { pause: 15_000, ..Inputs::default() });
    assert_eq!(sim::run(&sc), sim::run(&gc));
}

#[test]
fn three_workers_and_a_shared_named_value() {
    let sc = script::parse(
        "# two late writers\nvalue p 12s, range 0s..20s\nA: acquire, pause {p}, write, release\n\
         B: idle 1s, acquire, pause {p}, write, release\nC: idle 2s, acquire, work 1s, write, release\n",
    )
    .unwrap();
    assert_eq!(sc.workers.len(), 3);
    assert_eq!((sc.params[0].min, sc.params[0].max), (0, 20_000));
    let run = sim::run(&sc);
    assert!(run.outcome.kind.unsafe_data() || run.outcome.kind == OutcomeKind::Fenced);
}

#[test]
fn a_misspelt_step_names_its_place_and_the_nearest_word_in_both_languages() {
    let e = err("lease 10s\nA: aquire, write\n");
    assert_eq!((e.line, e.col), (2, 4));
    assert_eq!(
        e.problem,
        Problem::Expected { expected: Expect::Step, found: "aquire".into(), nearest: Some("acquire") }
    );
    assert_eq!(e.en(), "line 2, column 4: expected a step, found \"aquire\" (did you mean \"acquire\"?)");
    assert_eq!(e.ja(), "2行目 4文字目：手順を書くところに「aquire」があります（「acquire」のことですか？）");
    // A line that ends where a step should come, and one that goes on where it should end.
    assert_eq!(err("A: acquire,\n").ja(), "1行目 12文字目：手順を書くところで行が終わっています");
    assert_eq!(
        err("lease 10s 5s\nA: acquire\n").ja(),
        "1行目 11文字目：ここで行が終わるはずですが、「5s」が続いています"
    );
}

#[test]
fn a_half_typed_step_is_offered_the_word_it_begins() {
    // "acq" is three edits from "acquire": the start of a word is the likelier reading while typing.
    let nearest = |text: &str| match err(text).problem {
        Problem::Expected { nearest, .. } => nearest,
        p => panic!("{p:?}"),
    };
    assert_eq!(nearest("lease 10s\nA: acq\n"), Some("acquire"));
    assert_eq!(nearest("lease 10s\nA: acquire, wri\n"), Some("write"));
    // One letter begins too many words to guess from.
    assert_eq!(nearest("lease 10s\nA: q\n"), None);
}

#[test]
fn errors_at_each_kind_of_place() {
    let cases: [(&str, usize, usize, &str); 14] = [
        ("fencing maybe\nA: acquire", 1, 9, "expected on or off, found \"maybe\""),
        ("lease 10\nA: acquire", 1, 7, "\"10\" is not a duration"),
        ("lease 1.5ms\nA: acquire", 1, 7, "\"1.5ms\" is not a duration"),
        ("lease 1e3s\nA: acquire", 1, 7, "\"1e3s\" is not a duration"),
        ("lease 601s\nA: acquire", 1, 7, "601s is out of range: from 1ms to 600s"),
        ("A: acquire write", 1, 12, "expected \",\", found \"write\""),
        ("A: pause {p}", 1, 11, "{p} has no value yet"),
        ("A acquire, write", 1, 3, "expected \":\", found \"acquire\""),
        ("A: pause {p=1s}, pause {p=2s}", 1, 25, "\"p\" is defined twice"),
        ("A: acquire\nA: write", 2, 1, "\"A\" is defined twice"),
        ("fencing on\nfencing off\nA: acquire", 2, 1, "\"fencing\" is set twice"),
        ("reach A: N1\nA: acquire", 1, 1, "\"reach\" needs \"service redlock\""),
        ("drag q\nA: pause {p=1s}", 1, 6, "\"q\" is not defined"),
        ("A: acquire @", 1, 12, "unexpected character \"@\""),
    ];
    said_at(&cases);
}

/// A named switch picks part of a program; flipping it (in the scenario, in the text, or by a flag) gives
/// the other part, prints back as written and runs the other trace.
#[test]
fn a_named_switch_picks_part_of_a_program() {
    let text = "switch atomic off\nlease 10s\nexpiry on\nfencing on\nA: idle 1s, {atomic? acquire | acquire without expiry}, crash\n\
                B: {atomic? idle 2s, try-acquire every 1s | idle 2s, acquire}, write\n";
    let mut sc = script::parse(text).unwrap();
    assert_eq!(script::print(&sc), text);
    let a = |sc: &sim::Scenario| sc.workers[0].steps.clone();
    assert_eq!(a(&sc), script::parse("A: idle 1s, acquire without expiry, crash").unwrap().workers[0].steps);
    assert_eq!(sim::run(&sc).outcome.kind, OutcomeKind::Orphaned);
    sc.set_switch(0, true);
    assert_eq!(a(&sc), script::parse("A: idle 1s, acquire, crash").unwrap().workers[0].steps);
    assert_eq!(sc.workers[1].steps.len(), 3);
    assert_eq!(sim::run(&sc).outcome.kind, OutcomeKind::Safe);
    // The text flipped reads as the scenario flipped, and prints as that text.
    let on = script::set_named_switch(text, "atomic", true).unwrap();
    assert_eq!(on, text.replace("switch atomic off", "switch atomic on"));
    assert_eq!(script::parse(&on).unwrap(), sc);
    assert_eq!(script::print(&sc), on);
    sc.set_switch(0, false);
    assert_eq!(sc, script::parse(text).unwrap());
    assert_eq!(script::set_named_switch(text, "nope", true), None);
    // An empty part is no steps.
    let empty = script::parse("switch s on\nA: acquire, {s? | work 1s}, write").unwrap();
    assert_eq!(empty.workers[0].steps.len(), 2);
    assert_eq!(
        script::print(&empty),
        "switch s on\nlease 10s\nexpiry on\nfencing on\nA: acquire, {s? | work 1s}, write\n"
    );
}

#[test]
fn a_switch_s_mistakes_are_said_at_their_place() {
    let cases: [(&str, usize, usize, &str); 6] = [
        ("A: {atomic? acquire | crash}", 1, 5, "needs a switch: write \"switch atomic on\""),
        ("switch s on\nA: {s acquire | crash}", 2, 7, "expected \"?\", found \"acquire\""),
        ("switch s on\nA: {s? acquire crash}", 2, 16, "expected \",\" or \"|\", found \"crash\""),
        ("switch s on\nA: {s? acquire | crash", 2, 23, "expected \",\" or \"}\", found the end of the line"),
        ("switch s on\nA: {s? acquire | crash}, {s? write | release}", 2, 27, "A already has a {switch? …}"),
        ("value s 1s\nswitch s on\nA: acquire", 2, 8, "\"s\" is defined twice"),
    ];
    said_at(&cases);
    let five: String = (0..5).map(|i| format!("switch s{i} on\n")).collect::<String>() + "A: acquire";
    assert_eq!(err(&five).problem, Problem::TooManySwitches);
    // Both parts answer to the lock service: Redlock refuses a get in either.
    let e = err("service redlock\nswitch s on\nA: {s? acquire | get}");
    assert!(e.en().contains("\"get\" does not work with \"service redlock\""), "{}", e.en());
}

#[test]
fn the_stated_limits_are_enforced_with_a_message() {
    let long = format!("# {}\nA: acquire\n", "x".repeat(limits::CHARS));
    assert!(matches!(err(&long).problem, Problem::TooLong(_)));
    let five = "A: acquire\nB: acquire\nC: acquire\nD: acquire\nE: acquire\n";
    assert_eq!(err(five).problem, Problem::TooManyWorkers);
    assert_eq!(err(five).line, 5);
    let steps = format!("A: {}", vec!["work 1s"; limits::STEPS + 1].join(", "));
    assert_eq!(err(&steps).problem, Problem::TooManySteps("A".into()));
    assert_eq!(err("# nobody\nlease 10s\n").problem, Problem::NoWorkers);
    assert!(err("A: try-acquire every 1ms").en().contains("out of range: from 10ms"));
    let nine: String = (0..9).map(|i| format!("value v{i} 1s\n")).collect::<String>() + "A: acquire";
    assert_eq!(err(&nine).problem, Problem::TooManyNamed);
}

#[test]
fn durations_read_and_print_alike() {
    for (text, ms) in
        [("0s", 0), ("15s", 15_000), ("1.5s", 1_500), ("0.5s", 500), ("13.333s", 13_333), ("102ms", 102)]
    {
        let sc = script::parse(&format!("A: work {text}")).unwrap();
        assert_eq!(sc.workers[0].steps[0], sim::Step::Work(sim::Dur::Ms(ms)), "{text}");
        assert_eq!(script::duration(ms), text);
    }
}

#[test]
fn locksim_prints_any_catalogue_state_and_runs_it_back() {
    let (code, text, _) =
        locksim(&["--scenario", "etcd", "--pause", "11500", "--leader-crash", "10000", "--print-script"]);
    assert_eq!(code, 0);
    assert!(text.contains("value leader_crash 10s"), "{text}");
    let dir = std::env::temp_dir().join(format!("locksim-script-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("etcd.lock");
    std::fs::write(&file, &text).unwrap();
    let from_script = locksim(&["--script", file.to_str().unwrap(), "--json"]);
    let from_scenario =
        locksim(&["--scenario", "etcd", "--pause", "11500", "--leader-crash", "10000", "--json"]);
    let (a, b): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&from_script.1).unwrap(), serde_json::from_str(&from_scenario.1).unwrap());
    assert_eq!(a["outcome"], b["outcome"]);
    assert_eq!(a["trace"], b["trace"]);
    assert_eq!(a["double_grant"], b["double_grant"]);
    // Its named values are flags: the leader crash off, the pause at 15 s.
    let (_, out, _) =
        locksim(&["--script", file.to_str().unwrap(), "--leader-crash", "off", "--pause", "15000"]);
    assert!(out.ends_with("outcome: fenced\n"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn locksim_reports_a_bad_script_with_its_line_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("locksim-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.lock");
    std::fs::write(&file, "lease 10s\nA: acquire, wirte\n").unwrap();
    let (code, _, err) = locksim(&["--script", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("line 2, column 13: expected a step, found \"wirte\" (did you mean \"write\"?)"),
        "{err}"
    );
    let (code, _, err) = locksim(&["--script", file.to_str().unwrap(), "--nope", "1"]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The catalogue is its scripts: each `.lock` file reads as the scenario at its defaults, prints back as
/// itself (its comment aside), and the docs show it as it is.
#[test]
fn the_docs_hold_the_script_of_every_catalogue_scenario() {
    let root = env!("CARGO_MANIFEST_DIR");
    let doc = std::fs::read_to_string(format!("{root}/docs/scripts.md")).unwrap();
    for id in ScenarioId::ALL {
        let path = format!("{root}/src/scenarios/catalogue/{}.lock", id.id().replace('-', "_"));
        let file = std::fs::read_to_string(&path).unwrap();
        assert_eq!(file, id.source(), "{path}: what \"Start from\" opens");
        let sc = id.build(&id.defaults());
        assert_eq!(script::parse(&file).unwrap(), sc, "{path}");
        let code: String = file.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
        assert_eq!(code, script::print(&sc), "{path} is not written as it prints");
        let block = format!("### `{}`\n\n```text\n{file}```\n", id.id());
        assert!(doc.contains(&block), "docs/scripts.md lacks or misprints {}:\n{block}", id.id());
    }
}

#[test]
fn every_keyword_reads_in_any_case_second_words_too() {
    // Issue #37: the second word of a step, `none` and `off` were read in lower case only.
    let upper =
        "VALUE t 1S\nDRAG NONE\nLEASE 10S\nEXPIRY ON\nSERVICE REDLOCK, SERVERS 3, JUMP n3 AT 2S BY 1S\n\
                 REACH A: N1, N2\nREACH B: NONE\n\
                 A: ACQUIRE, WORK UNTIL 3S, WRITE DELAY 2S, CHECK LEASE, RELEASE\n\
                 B: TRY-ACQUIRE EVERY {t}, Write Delay 1s, Release\n";
    let lower =
        "value t 1s\ndrag none\nlease 10s\nexpiry on\nservice redlock, servers 3, jump N3 at 2s by 1s\n\
                 reach A: N1, N2\nreach B: none\n\
                 A: acquire, work until 3s, write delay 2s, check lease, release\n\
                 B: try-acquire every {t}, write delay 1s, release\n";
    assert_eq!(script::parse(upper).unwrap(), script::parse(lower).unwrap());
    let without = script::parse("A: Acquire WITHOUT Expiry, crash").unwrap();
    assert_eq!(without.workers[0].steps[0], sim::Step::AcquireNoExpiry);
    let consensus = script::parse("service consensus, leader-crash OFF\nA: acquire").unwrap();
    assert_eq!(consensus, script::parse("service consensus, leader-crash off\nA: acquire").unwrap());
}

#[test]
fn a_named_value_at_try_acquire_ranges_from_the_step_s_least_value() {
    // Issue #37: `{t=1s}` got the range 0s..30s, and 0s is below the 10 ms a retry needs.
    let sc = script::parse("A: try-acquire every {t=1s}, release").unwrap();
    assert_eq!((sc.params[0].min, sc.params[0].max), (limits::RETRY, 30_000));
    let sc = script::parse("value t 1s\nA: try-acquire every {t}").unwrap();
    assert_eq!(sc.params[0].min, limits::RETRY);
    // It prints with its range and reads back the same.
    assert_eq!(script::parse(&script::print(&sc)).unwrap(), sc);
    // A value below the least is still refused, at the step.
    let e = err("value t 5ms\nA: try-acquire every {t}");
    assert_eq!(
        (e.line, e.problem),
        (2, Problem::OutOfRange { value: 5, min: limits::RETRY, max: limits::DURATION })
    );
}

/// Issue #37: what has no meaning under Redlock is refused at its line, whichever comes first in the text,
/// in both languages (the Redis distributed-locks page: keys are set with `SET NX PX` and released by value).
#[test]
fn what_redlock_has_no_meaning_for_is_refused_at_its_line() {
    let redlock = "service redlock, servers 3\n";
    for (text, line, col, what) in [
        ("expiry off\n", 1, 1, "expiry off"),
        ("release plain\n", 1, 1, "release plain"),
        ("lock-delay 15s\n", 1, 1, "lock-delay"),
        ("register on\n", 1, 1, "register on"),
        ("fencing on\n", 1, 1, "fencing on"),
        ("A: idle 1s, acquire without expiry\n", 1, 13, "acquire without expiry"),
        ("A: get, set\n", 1, 4, "get"),
        ("A: acquire\nB: idle 1s, set\n", 2, 13, "set"),
    ] {
        // The service line may come before or after.
        for script in [format!("{redlock}{text}A9: acquire\n"), format!("{text}{redlock}A9: acquire\n")] {
            let e = err(&script);
            let shift = usize::from(script.starts_with("service"));
            assert_eq!(
                (e.line, e.col, &e.problem),
                (line + shift, col, &Problem::NotWith(what, "redlock")),
                "{script}"
            );
            assert!(e.en().contains("does not work with \"service redlock\""), "{}", e.en());
            assert!(e.ja().contains("「service redlock」では使えません"), "{}", e.ja());
        }
        // Without Redlock the same lines read.
        script::parse(&format!("{text}A9: acquire\n")).unwrap();
    }
    // Off and compare are fine.
    script::parse(
        "service redlock\nexpiry on\nrelease compare\nlock-delay off\nregister off\nfencing off\nA: acquire",
    )
    .unwrap();
}

/// A Redlock write carries no token, which a fencing storage refuses: without a line, fencing is off under Redlock,
/// so two holders' writes are both accepted (not "fenced" as though a token had been checked).
#[test]
fn redlock_fencing_is_off_without_a_line() {
    let text = "service redlock, servers 5, drift 102ms, jump N3 at 2s by 9s\nreach A: N1, N2, N3\n\
                A: acquire, work 5s, write, release\nB: idle 3s, try-acquire every 1s, work 1s, write, release\n";
    let sc = script::parse(text).unwrap();
    assert!(!sc.fencing);
    assert!(script::print(&sc).contains("fencing off"));
    let run = sim::run(&sc);
    assert_eq!(run.outcome.kind, OutcomeKind::Corrupted);
    assert!(run.outcome.double_grant.is_some());
    // The catalogue's Redlock says so itself, and runs as this script does.
    assert!(!ScenarioId::Redlock.script().fencing);
}

#[test]
fn a_fourth_worker_in_a_reach_line_is_told_the_limit_not_undefined() {
    let text = "service redlock\nreach D: N1\nA: acquire\nB: acquire\nC: acquire\nD: acquire\n";
    let e = err(text);
    assert_eq!((e.line, e.col, e.problem), (2, 7, Problem::ReachWorker("D".into())));
    assert!(err(text).en().contains("first three workers"));
    // A name nobody has is still undefined.
    assert_eq!(err("service redlock\nreach Q: N1\nA: acquire").problem, Problem::Unknown("Q".into()));
}

/// Issue #37: a consensus lock is a queue of each worker's own key (etcd's mutex, ZooKeeper's lock recipe):
/// a write that takes the lock over its holder, or a delete of another's key, has no meaning there.
#[test]
fn what_a_consensus_lock_has_no_meaning_for_is_refused_at_its_line() {
    for (text, line, col, what) in [
        ("A: get, set\n", 2, 4, "get"),
        ("A: acquire\nB: idle 1s, set\n", 3, 13, "set"),
        ("release plain\nA: acquire\n", 2, 1, "release plain"),
    ] {
        let e = err(&format!("service consensus\n{text}"));
        assert_eq!((e.line, e.col, &e.problem), (line, col, &Problem::NotWith(what, "consensus")), "{text}");
        assert!(e.en().contains("does not work with \"service consensus\""), "{}", e.en());
        assert!(e.ja().contains("「service consensus」では使えません"), "{}", e.ja());
    }
    // Failover is Redis, which has no lock-delay.
    let e = err("service failover\nlock-delay 5s\nA: acquire");
    assert_eq!((e.line, e.col, &e.problem), (2, 1, &Problem::NotWith("lock-delay", "failover")));
    assert!(e
        .en()
        .ends_with("\"lock-delay\" does not work with \"service failover\": Redis has no lock-delay"));
    // What a consensus group can do: a key without a lease, a lock-delay (Chubby's), registration.
    script::parse("service consensus\nexpiry off\nlock-delay 5s\nregister on\nA: acquire without expiry")
        .unwrap();
}

/// A number and a named value of the same value give the same run: a leader crash at 0 is none, either way
/// (as a link's `leader_crash=0` is off).
#[test]
fn a_leader_crash_at_zero_is_none_written_either_way() {
    let body = "A: acquire, work 2s, write, release\nB: idle 1s, acquire, write, release";
    let runs: Vec<_> = [", leader-crash 0s", ", leader-crash {lc=0s}", ", leader-crash off", ""]
        .iter()
        .map(|crash| {
            let sc = script::parse(&format!("service consensus, election 1s{crash}\n{body}")).unwrap();
            (sc.leader_crash(), sim::run(&sc).trace.events)
        })
        .collect();
    assert_eq!(runs[0].0, None);
    assert!(runs.windows(2).all(|w| w[0] == w[1]));
    let at_1ms = script::parse(&format!("service consensus, election 1s, leader-crash 1ms\n{body}")).unwrap();
    assert_eq!(at_1ms.leader_crash(), Some(1));
}
