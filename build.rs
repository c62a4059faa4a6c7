//! Compiles `assets/recordings.json` (written by `scripts/record.sh`) into plain static data, so the page
//! carries the real runs without a JSON reader: `$OUT_DIR/recordings.rs`, included by `src/recordings.rs`.

use std::fmt::Write;

use serde_json::Value;

/// How many times faster than the scenario a run at `scale` went (a scale of 0.1: ten times).
fn speedup(scale: f64) -> u64 {
    (1.0 / scale).round() as u64
}

fn main() {
    let path = "assets/recordings.json";
    println!("cargo:rerun-if-changed={path}");
    let json = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let all: Vec<Value> = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = String::from("&[\n");
    for r in &all {
        let text = |name: &str| r[name].as_str().unwrap_or_else(|| panic!("{path}: {name} is not text"));
        let inputs = r["inputs"].as_object().unwrap_or_else(|| panic!("{path}: inputs is not an object"));
        let inputs: Vec<String> = inputs
            .iter()
            .map(|(k, v)| format!("({k:?}, {:?})", v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
            .collect();
        let events: Vec<String> =
            (r["events"].as_array().into_iter().flatten()).map(|e| format!("&{}", e)).collect();
        let _ = writeln!(
            out,
            "    Raw {{ scenario: {:?}, inputs: &[{}], backend: {:?}, version: {:?}, recorded: {:?}, simulated: {:?}, \
             real: {:?}, max_jitter_ms: {}, speedup: {}, events: &[{}] }},",
            text("scenario"),
            inputs.join(", "),
            text("backend"),
            text("version"),
            text("recorded"),
            text("simulated"),
            text("real"),
            r["max_jitter_ms"].as_u64().unwrap_or_else(|| panic!("{path}: max_jitter_ms")),
            speedup(r["scale"].as_f64().unwrap_or_else(|| panic!("{path}: scale"))),
            events.join(", ")
        );
    }
    out.push(']');
    let dest =
        std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("recordings.rs");
    std::fs::write(dest, out).expect("writing the recordings");
}
