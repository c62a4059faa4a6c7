//! Shared by the integration tests: running the `locksim` binary as a user would, every setting of a
//! scenario's switches, and the numbers a narration says.
#![allow(dead_code)] // Each test file uses its part.

pub mod programs;

use std::process::Command;

use fencing_lab::scenarios::{Inputs, Key, ScenarioId};
use fencing_lab::sim::{EventKind, Run};

/// The numbers a sentence says: `12.5` and `34` in "At 12.5 s … token 34".
pub fn numbers(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars().chain([' ']) {
        if c.is_ascii_digit() || (c == '.' && !cur.is_empty()) {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(cur.trim_end_matches('.').to_owned());
            cur.clear();
        }
    }
    out
}

/// The scenario's defaults under every combination of its switches.
pub fn switch_settings(id: ScenarioId) -> Vec<Inputs> {
    let switches: Vec<Key> = id.keys().iter().copied().filter(|k| k.spec().is_switch()).collect();
    (0..1u64 << switches.len())
        .map(|bits| {
            let mut i = id.defaults();
            for (n, key) in switches.iter().enumerate() {
                key.spec().set(&mut i, key.spec().switched(bits >> n & 1 == 1)).unwrap();
            }
            i
        })
        .collect()
}

/// Runs `locksim` with `args`: exit code, standard output, standard error.
pub fn locksim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_locksim")).args(args).output().expect("locksim runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The grant events of a run: (time, worker, token).
pub fn grants(run: &Run) -> Vec<(u64, usize, u64)> {
    run.trace
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Grant { worker, token, .. } => Some((e.at, worker, token)),
            _ => None,
        })
        .collect()
}

/// The first slip in `ja` from the page's one Japanese vocabulary, if any: 番号 (the term is
/// フェンシングトークン, never a bare トークン), 資源 (ストレージ only in the gloss 「資源（ストレージ）」), ロックを返す
/// (not 解放), サーバ (not サーバー), ロック and キー (not 鍵), no doubled で, and a time written 「11秒」, not
/// 「11 秒」. What stands in 「」 is quoted (a source's heading, a button's name) and kept as it is.
pub fn slip(ja: &str) -> Option<&'static str> {
    let mut said = String::new();
    let mut quoted = 0usize;
    for c in ja.chars() {
        match c {
            '「' => quoted += 1,
            '」' => quoted = quoted.saturating_sub(1),
            _ if quoted == 0 => said.push(c),
            _ => {}
        }
    }
    let said =
        said.replace("フェンシングトークン", "").replace("資源（ストレージ）", "資源").replace("までで", "");
    ["鍵", "トークン", "ストレージ", "解放", "サーバー", "でで", "で、で", " 秒"]
        .into_iter()
        .find(|w| said.contains(w))
}
