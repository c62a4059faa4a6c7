//! The page's one Japanese vocabulary (`common::slip`) in every Japanese line its sources hold: the strings,
//! the cards, the errors and the course. (The narrations, which are put together at run time, are checked
//! where they are told: `tests/narration.rs`, `tests/told.rs`, `tests/course.rs`.)
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

mod common;

/// Whether `line` holds Japanese (kana).
fn japanese(line: &str) -> bool {
    line.chars().any(|c| ('\u{3041}'..='\u{30ff}').contains(&c))
}

fn walk(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, out);
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let course = path.extension().is_some_and(|e| e == "course");
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            // Comments are the developers'; a course's English lines carry the source's heading beside theirs.
            let said = if course {
                code.split_once(' ').is_some_and(|(_, rest)| rest.starts_with("ja "))
            } else {
                !code.starts_with("//") && !code.starts_with('#')
            };
            if said && japanese(line) {
                if let Some(word) = common::slip(line) {
                    out.push(format!("{}:{}: {word}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
}

#[test]
fn every_japanese_line_of_the_sources_keeps_the_pages_vocabulary() {
    let mut slips = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut slips);
    assert!(slips.is_empty(), "{}", slips.join("\n"));
}

#[test]
fn a_slip_is_found_and_a_quote_or_a_gloss_is_not() {
    for bad in [
        "番号をトークンと呼ぶ",
        "ストレージに書く",
        "ロックを解放する",
        "サーバーが落ちる",
        "鍵を取る",
        "12.5 秒に",
    ] {
        assert!(common::slip(bad).is_some(), "{bad}");
    }
    for good in
        ["「獲得と解放の基本的な流れ」", "フェンシングトークンを使う", "資源（ストレージ）", "12.5秒までです"]
    {
        assert_eq!(common::slip(good), None, "{good}");
    }
}
