//! `locksim`, the command-line view of the core, run as a user would run it.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

fn locksim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_locksim")).args(args).output().expect("locksim runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

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
fn every_spec_input_is_a_flag() {
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
    assert!(lines[0].starts_with("time  actor"));
    // Every row puts its event column at the same offset as the header.
    let col = lines[0].find("event").unwrap();
    for line in &lines[1..lines.len() - 1] {
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
    ] {
        let (code, out, err) = locksim(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert!(err.starts_with("locksim: ") && err.contains("usage:"), "{err}");
    }
}
