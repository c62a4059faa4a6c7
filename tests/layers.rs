//! The layers of `src/` and the direction of their imports: the core imports nothing of the crate, the
//! catalogue and the language import only the core, the presentation imports nothing above it, and no two
//! modules of one layer import each other in a cycle. Read off the source itself, so a new `use` that
//! points the wrong way fails here.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module's layer: lower layers never import higher ones.
const LAYERS: &[(&str, u8)] =
    &[("sim", 0), ("scenarios", 1), ("script", 1), ("present", 2), ("real", 3), ("app", 3)];

/// Modules of one layer that must not import each other either way.
const APART: &[(&str, &str)] = &[("scenarios", "script")];

fn layer(module: &str) -> u8 {
    LAYERS.iter().find(|(m, _)| *m == module).map(|l| l.1).unwrap_or_else(|| panic!("{module} has no layer"))
}

/// Every `.rs` file below `dir` with its module path (`present/text/en.rs` → `present::text::en`).
fn sources(dir: &Path, out: &mut Vec<(Vec<String>, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/src")).unwrap();
            let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            let file = parts.pop().unwrap();
            let stem = file.trim_end_matches(".rs");
            if stem != "mod" && stem != "lib" {
                parts.push(stem.to_owned());
            }
            out.push((parts, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

/// The module paths a source names after `crate::`, two levels deep (`present::text`).
fn imports(source: &str) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    for (i, _) in source.match_indices("crate::") {
        let rest = &source[i + "crate::".len()..];
        let path: Vec<String> = rest
            .split("::")
            .take(2)
            .map(|p| p.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect::<String>())
            .take_while(|p| !p.is_empty())
            .collect();
        if !path.is_empty() {
            found.insert(path);
        }
    }
    found
}

fn all() -> Vec<(Vec<String>, String)> {
    let mut files = Vec::new();
    sources(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")), &mut files);
    // The binaries are programs on top of everything; lib.rs only declares the modules.
    files.retain(|(m, _)| !m.is_empty() && m[0] != "bin" && m[0] != "main");
    files
}

#[test]
fn imports_point_down_the_layers_only() {
    let mut wrong = Vec::new();
    for (module, source) in all() {
        let from = &module[0];
        for target in imports(&source) {
            let to = &target[0];
            if to == from {
                continue;
            }
            let apart = APART.iter().any(|&(a, b)| (a == from && b == to) || (b == from && a == to));
            if layer(to) >= layer(from) || apart {
                wrong.push(format!("{} imports crate::{}", module.join("::"), target.join("::")));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers:\n{}", wrong.join("\n"));
}

#[test]
fn no_two_modules_of_a_layer_import_each_other_in_a_cycle() {
    // The graph of `present`'s parts and of the top-level modules, by their `crate::` imports.
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, source) in all() {
        let node = if module[0] == "present" && module.len() > 1 {
            module[..2].join("::")
        } else {
            module[0].clone()
        };
        for target in imports(&source) {
            let to = if target[0] == "present" && target.len() > 1 {
                target.join("::")
            } else {
                target[0].clone()
            };
            if to != node {
                graph.entry(node.clone()).or_default().insert(to);
            }
        }
    }
    // Depth-first search for a back edge.
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if let Some(at) = path.iter().position(|p| p == n) {
            panic!("import cycle: {} -> {n}", path[at..].join(" -> "));
        }
        if done.contains(n) {
            return;
        }
        path.push(n.to_owned());
        for next in g.get(n).into_iter().flatten() {
            visit(next, g, path, done);
        }
        path.pop();
        done.insert(n.to_owned());
    }
    let mut done = BTreeSet::new();
    for n in graph.keys() {
        visit(n, &graph, &mut Vec::new(), &mut done);
    }
}

#[test]
fn the_core_reaches_no_web_no_clock_and_no_randomness() {
    for (module, source) in all().into_iter().filter(|(m, _)| m[0] == "sim") {
        for banned in
            ["web_sys", "leptos", "js_sys", "Instant", "SystemTime", "rand::", "std::thread", "std::fs"]
        {
            assert!(!source.contains(banned), "{} mentions {banned}", module.join("::"));
        }
    }
}
