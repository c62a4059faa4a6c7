//! Compiles the catalogue's lock scripts (`src/scenarios/catalogue/*.lock`) with the crate's own parser, so
//! that the page's first module holds each scenario as a line of the codec (`sim::codec`), which it already
//! decodes, and not the parser. A script that does not read stops the build with its message.
#![allow(dead_code, unused_imports, clippy::all)]

use std::fmt::Write;
use std::path::Path;

#[path = "src/sim/mod.rs"]
mod sim;

#[path = "src/script/mod.rs"]
mod script;

fn main() {
    let dir = Path::new("src/scenarios/catalogue");
    println!("cargo::rerun-if-changed={}", dir.display());
    println!("cargo::rerun-if-changed=src/sim");
    println!("cargo::rerun-if-changed=src/script");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the catalogue's folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "lock"))
        .collect();
    files.sort();
    let mut out = String::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a readable script");
        let sc = script::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a plain file name");
        let _ = writeln!(out, "/// `{}`, compiled.", path.display());
        let _ = writeln!(out, "pub mod {name} {{ pub const SCRIPT: &str = {:?}; }}", sim::codec::encode(&sc));
    }
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalogue.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
