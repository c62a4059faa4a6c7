//! `locksim`, the command-line view of the core, run as a user would run it.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::locksim;

#[test]
fn pause_15000_is_fenced_and_corrupted_without_fencing() {
    let (code, out, _) = locksim(&["--pause", "15000"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("outcome: fenced"));
    assert!(out.contains("15000  storage  reject      33  33 < 34"), "{out}");
    let (_, out, _) = locksim(&["--pause", "15000", "--fencing", "off"]);
    assert_eq!(out.lines().last(), Some("outcome: corrupted"));
    assert!(out.contains("accept      33  overwrites 34"), "{out}");
}

#[test]
fn every_input_of_the_table_is_a_flag() {
    let (_, out, _) = locksim(&["--pause=15000", "--lease", "off"]);
    assert_eq!(out.lines().last(), Some("outcome: stalled"));
    let (_, out, _) = locksim(&["--ttl", "5000", "--pause", "6500", "--b-work", "500", "--first-token", "7"]);
    assert!(out.contains("grant        8  to B, lease until 10000"), "{out}");
    let (_, out, _) = locksim(&["--pause-start", "2000", "--pause", "9000", "--b-request", "1500"]);
    assert_eq!(out.lines().last(), Some("outcome: unfenced-gap"));
}

#[test]
fn table_is_aligned() {
    let (_, out, _) = locksim(&[]);
    let lines: Vec<_> = out.lines().collect();
    assert_eq!(lines[0], "scenario: gc-pause");
    assert!(lines[1].starts_with("time  actor"));
    // Every row puts its event column at the same offset as the header.
    let col = lines[1].find("event").unwrap();
    for line in &lines[2..lines.len() - 2] {
        assert_eq!(&line[col - 2..col], "  ", "{line}");
    }
    assert_eq!(lines.last(), Some(&"outcome: safe"));
}

#[test]
fn json_is_the_serde_form() {
    let (code, out, _) = locksim(&["--json", "--pause", "10500"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(v["outcome"]["kind"], "unfenced-gap");
    assert_eq!(v["inputs"]["pause"], 10500);
    assert_eq!(v["trace"]["writes"][0]["token"], 33);
    assert_eq!((v["scenario"].as_str(), v["double_grant"].as_bool()), (Some("gc-pause"), Some(false)));
}

/// The catalogue's expected outcomes, far from every boundary, with the `double-grant` fact.
#[test]
fn every_scenario_with_its_flags() {
    let cases: &[(&[&str], &str, bool)] = &[
        (&["--scenario", "base", "--pause", "15000"], "fenced", false),
        (&["--scenario", "check-then-pause"], "fenced", false),
        (&["--scenario", "check-then-pause", "--fencing", "off"], "corrupted", false),
        (&["--scenario", "check-then-pause", "--pause", "3000"], "safe", false),
        (&["--scenario", "network-delay", "--delay", "13000"], "fenced", false),
        (&["--scenario", "network-delay", "--delay", "13000", "--fencing", "off"], "corrupted", false),
        (&["--scenario", "network-delay", "--delay", "8500"], "unfenced-gap", false),
        (&["--scenario", "network-delay", "--delay", "3000"], "safe", false),
        (&["--scenario", "setnx-expire"], "orphaned", false),
        (&["--scenario", "setnx-expire", "--atomic", "on"], "safe", false),
        (&["--scenario", "check-then-set"], "double-grant", true),
        (&["--scenario", "check-then-set", "--fencing", "off"], "double-grant", true),
        (&["--scenario", "check-then-set", "--atomic", "on"], "safe", false),
        (&["--scenario", "unsafe-release"], "fenced", true),
        (&["--scenario", "unsafe-release", "--fencing", "off"], "corrupted", true),
        (&["--scenario", "unsafe-release", "--release", "compare"], "safe", false),
        (&["--scenario", "crash"], "safe", false),
        (&["--scenario", "crash", "--lease", "off"], "orphaned", false),
        (&["--scenario", "lock-delay", "--fencing", "off"], "safe", false),
        (&["--scenario", "lock-delay", "--fencing", "off", "--pause", "28000"], "corrupted", false),
        (&["--scenario", "lock-delay", "--fencing", "off", "--lockdelay", "off"], "corrupted", false),
        (&["--scenario", "register-token"], "fenced", false),
        (&["--scenario", "register-token", "--register", "off"], "unfenced-gap", false),
    ];
    for (args, outcome, double) in cases {
        let (code, out, err) = locksim(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let lines: Vec<_> = out.lines().collect();
        assert_eq!(lines[lines.len() - 1], format!("outcome: {outcome}"), "{args:?}");
        assert_eq!(lines[lines.len() - 2], format!("double-grant: {double}"), "{args:?}");
        let mut json = args.to_vec();
        json.push("--json");
        let v: serde_json::Value = serde_json::from_str(&locksim(&json).1).unwrap();
        assert_eq!(
            (v["outcome"]["kind"].as_str(), v["double_grant"].as_bool()),
            (Some(*outcome), Some(*double))
        );
    }
}

#[test]
fn usage_lists_every_scenario_and_input() {
    let (code, out, _) = locksim(&["--help"]);
    assert_eq!(code, 0);
    for word in [
        "--delay <MS>",
        "--release <compare|plain>",
        "--lockdelay <on|off>",
        "--first-token <N>",
        "unsafe-release",
    ] {
        assert!(out.contains(word), "{word}: {out}");
    }
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    for args in [
        &["--pause", "1x"][..],
        &["--pause", "40000"],
        &["--lease", "maybe"],
        &["--nope", "1"],
        &["stray"],
        &["--pause"],
        &["--scenario", "paxos"],
        &["--release", "maybe"],
        // An input that never ends is refused once it is longer than any script could be.
        &["--script", "/dev/zero"],
        &["course", "/dev/zero"],
    ] {
        let (code, out, err) = locksim(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert!(err.starts_with("locksim: ") && err.contains("Usage: locksim"), "{err}");
    }
}

#[test]
fn search_says_its_size_first_and_refuses_past_the_cap_unless_asked() {
    // etcd every 1 ms: pause start × pause × leader crash is about 9·10¹² schedules.
    let (code, out, err) = common::locksim(&["search", "--scenario", "etcd", "--step", "1"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("schedules is more than 20000000") && err.contains("--no-cap"), "{err}");
    let (code, out, err) = common::locksim(&["search", "--scenario", "gc-pause"]);
    assert_eq!(code, 0);
    assert!(err.starts_with("search: 30401 schedules\n"), "{err}");
    assert!(out.contains("schedules: 30401 in"), "{out}");
}

#[test]
fn locksim_course_checks_a_course_and_refuses_an_impossible_goal_with_its_step() {
    let (help, out, _) = locksim(&["--help"]);
    assert_eq!(help, 0);
    assert!(out.contains("course  Checks a course (docs/courses.md)"), "{out}");
    let (code, out, err) = locksim(&["course", "src/present/course/source.course", "--lang", "ja"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("course: source (10 steps): 分散ロックを順に\n"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("step ")).count(), 10, "{out}");
    let (code, _, err) = locksim(&["course", "tests/courses/impossible.course"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "step 2 (line 15): goal find unfenced-gap: no state gives unfenced-gap with the step's switches"
        ),
        "{err}"
    );
    // A file that does not read: exit 2 with the line and column; no file, or a bad flag: exit 2 and the usage.
    let (code, _, err) = locksim(&["course", "tests/cli.rs"]);
    assert_eq!(code, 2);
    assert!(err.contains("line 1, column 1"), "{err}");
    for args in [&["course"][..], &["course", "x.course", "--lang", "fr"], &["course", "a", "b"]] {
        let (code, _, err) = locksim(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("Usage: locksim course FILE [--lang en|ja]"), "{args:?}: {err}");
    }
}

#[test]
fn options_go_after_their_command_and_a_scripts_names_do_not_shadow_locksims() {
    // Before the command they would be read by none (and `course` had no `--json` to read: a panic).
    for args in [
        &["--scenario", "crash", "search"][..],
        &["--lang", "en", "course", "x.course"],
        &["--json", "render"],
    ] {
        let (code, _, err) = locksim(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("comes first, its options after it"), "{err}");
    }
    // A named value or switch named as one of locksim's options (of the command used) is refused, not a panic.
    let dir = std::env::temp_dir().join(format!("locksim-clash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let json = script("json.lock", "value json 1s\nA: acquire, pause {json}, write, release\n");
    let (code, _, err) = locksim(&["--script", &json]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the script's \"json\" would be --json, one of locksim's own options"), "{err}");
    let twins =
        script("twins.lock", "value a_b 1s\nvalue a-b 2s\nA: acquire, pause {a_b}, pause {a-b}, release\n");
    let (code, _, err) = locksim(&["--script", &twins]);
    assert_eq!((code, err.contains("as another of its names would")), (2, true), "{err}");
    // `width` is render's own: a plain run takes it, a render does not.
    let width = script("width.lock", "value width 1s\nA: acquire, pause {width}, write, release\n");
    let (code, out, _) = locksim(&["--script", &width, "--width", "2000"]);
    assert_eq!((code, out.lines().last()), (0, Some("outcome: safe")));
    assert_eq!(locksim(&["render", "--script", &width]).0, 2);
    // The language is en or ja, exactly, for a plain run too (a script's errors are Japanese for `ja` alone).
    for lang in ["fr", "ja-JP", "JA"] {
        assert_eq!(locksim(&["--lang", lang]).0, 2, "{lang}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
