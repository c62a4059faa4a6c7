//! `locksim`: runs one scenario of the catalogue in the simulation core and prints its trace.
//!
//! `cargo run --bin locksim -- --scenario network-delay --delay 8500 [--json]`; every input of the input
//! table is a flag (`--pause MS`, `--lease on|off`, `--release plain|compare`, …). Bad arguments: a message
//! and exit code 2.
//!
//! `locksim search --scenario ID [inputs] [--step MS] [--json]` runs every combination of the scenario's
//! disturbances instead ([`sim::search`]) and prints the smallest counterexamples.
//!
//! `locksim real --scenario ID [inputs] --backend redis|etcd|zookeeper [--scale S] [--json]` runs the
//! scenario on a real lock service with real worker processes (`fencing_lab::real`) and prints both
//! verdicts. The workers are this binary again, as the hidden `locksim real-worker JSON`.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use fencing_lab::lesson::SEED_QUESTION_PAUSE;
use fencing_lab::params::{parse_scenario, set_input};
#[cfg(not(target_arch = "wasm32"))]
use fencing_lab::real;
use fencing_lab::report::table;
use fencing_lab::scenarios::{Inputs, Key, Kind, ScenarioId, INPUTS};
use fencing_lab::sim::{self, search, Ms, MAX_PAUSE};

/// The grid step of `locksim search` without `--step`: the gc-pause grid is then 30 401 runs, a few ms.
const STEP: Ms = 100;

/// The usage text, from the input table and the catalogue.
fn usage() -> String {
    let flags: Vec<String> = INPUTS
        .iter()
        .map(|spec| {
            let value = match spec.kind {
                Kind::Ms { .. } => "MS".to_owned(),
                Kind::Count { .. } => "N".to_owned(),
                Kind::Words(w) => format!("{}|{}", w[1], w[0]),
                Kind::At { .. } => "MS|off".to_owned(),
            };
            format!("[--{} {value}]", spec.name.replace('_', "-"))
        })
        .collect();
    let scenarios =
        ScenarioId::ALL.iter().map(|s| format!("  {:<17} {}", s.id(), inputs_of(*s))).collect::<Vec<_>>();
    format!(
        "usage: locksim [--scenario ID] {} [--json]\n       \
         locksim search [--scenario ID] [inputs as above, but not the ones searched] [--step MS] [--json]\n       \
         locksim real [--scenario ID] [inputs as above] --backend redis|etcd|zookeeper [--scale S] [--json]\n\
         \n  search runs every combination of {} (each the scenario reads) from 0 to its\n  \
         maximum every --step ms (default {STEP}; pause_start up to the lease's end)\n\
         \n  real starts real servers on loopback (redis-server, etcd or a ZooKeeper ensemble), runs each worker\n  \
         as a process (SIGSTOP/SIGCONT for a pause, SIGKILL for a crash), time scaled by --scale (default 0.1,\n  \
         on etcd 1, on ZooKeeper 0.5); no verdict if an event strays a tenth of the lease from its time;\n  \
         real runs: {}\n\
         \nscenarios and their inputs (others are ignored):\n{}",
        flags.join(" "),
        search::DISTURBANCES.map(|k| k.spec().name).join(", "),
        real_runs(),
        scenarios.join("\n")
    )
}

/// The scenarios `locksim real` runs, with their backends (none in the browser build).
fn real_runs() -> String {
    #[cfg(not(target_arch = "wasm32"))]
    return real::runs();
    #[cfg(target_arch = "wasm32")]
    String::new()
}

fn inputs_of(id: ScenarioId) -> String {
    let defaults = id.defaults();
    id.keys()
        .iter()
        .chain(id.extras())
        .map(|k: &Key| format!("--{} {}", k.spec().name.replace('_', "-"), k.spec().text(&defaults)))
        .collect::<Vec<_>>()
        .join(" ")
}

struct Args {
    scenario: ScenarioId,
    inputs: Inputs,
    json: bool,
    /// `Some(step)`: the `search` subcommand.
    search: Option<Ms>,
    /// `Some`: the `real` subcommand, with its `--backend` and `--scale` as given.
    real: Option<RealFlags>,
}

#[derive(Default)]
struct RealFlags {
    backend: Option<String>,
    scale: Option<String>,
}

fn parse(args: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut args = args.peekable();
    let search = args.next_if(|a| a == "search").is_some();
    let mut real = args.next_if(|a| !search && a == "real").map(|_| RealFlags::default());
    // Flags in pairs; the scenario first, since its defaults are what the other flags change.
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut json = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => json = true,
            "-h" | "--help" => return Ok(None),
            flag if flag.starts_with("--") => {
                let (name, inline) = match flag[2..].split_once('=') {
                    Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
                    None => (flag[2..].to_owned(), None),
                };
                match inline.or_else(|| args.next()) {
                    Some(v) => pairs.push((name, v)),
                    None => return Err(format!("--{name} needs a value")),
                }
            }
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    let scenario = match pairs.iter().rev().find(|(k, _)| k == "scenario") {
        Some((_, v)) => parse_scenario(v).map_err(|p| p.to_string())?,
        None => ScenarioId::GcPause,
    };
    let mut inputs = scenario.defaults();
    // A real GC pause without --pause plays the source's own question, as the page's first prediction does:
    // A wakes after 15 s (the default 4 s pause is over before anything can go wrong).
    if real.is_some() && scenario == ScenarioId::GcPause {
        inputs.pause = SEED_QUESTION_PAUSE;
    }
    let mut step = STEP;
    for (name, value) in pairs.iter().filter(|(k, _)| k != "scenario") {
        if let Some(flags) = real.as_mut().filter(|_| name == "backend" || name == "scale") {
            let slot = if name == "backend" { &mut flags.backend } else { &mut flags.scale };
            *slot = Some(value.clone());
            continue;
        }
        if search && name == "step" {
            step = value.trim().parse().ok().filter(|s| (1..=MAX_PAUSE).contains(s)).ok_or_else(|| {
                format!("--step \"{value}\" is not a whole number of ms from 1 to {MAX_PAUSE}")
            })?;
            continue;
        }
        set_input(&mut inputs, name, value).map_err(|p| p.to_string())?;
        // A value the search would overwrite is a mistake, not a setting.
        let key = Key::from_name(name).filter(|k| search::DISTURBANCES.contains(k));
        if let Some(key) = key.filter(|k| search && scenario.uses(*k)) {
            return Err(format!("--{name}: search varies {} itself; leave it out", key.spec().name));
        }
    }
    Ok(Some(Args { scenario, inputs, json, search: search.then_some(step), real }))
}

/// `locksim search`: the report, as text or JSON.
fn search_report(args: &Args, step: Ms) -> String {
    let started = Instant::now();
    let mut report = search::search(args.scenario, &args.inputs, step);
    report.millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    if args.json {
        serde_json::to_string_pretty(&report).expect("plain data") + "\n"
    } else {
        report.to_string()
    }
}

fn main() -> ExitCode {
    #[cfg(not(target_arch = "wasm32"))]
    if std::env::args().nth(1).as_deref() == Some("real-worker") {
        return real::worker::main(&std::env::args().nth(2).unwrap_or_default());
    }
    let args = match parse(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            eprintln!("locksim: {msg}\n{}", usage());
            return ExitCode::from(2);
        }
    };
    if let Some(flags) = &args.real {
        let (backend, scale) = (flags.backend.as_deref(), flags.scale.as_deref());
        #[cfg(not(target_arch = "wasm32"))]
        return real::cli::main(args.scenario, &args.inputs, args.json, backend, scale, &usage());
        // The browser build has no processes to start (this branch only keeps that build compiling).
        #[cfg(target_arch = "wasm32")]
        {
            let _ = (backend, scale);
            eprintln!("locksim: real runs are native only");
            return ExitCode::from(2);
        }
    }
    if let Some(step) = args.search {
        let _ = std::io::stdout().write_all(search_report(&args, step).as_bytes());
        return ExitCode::SUCCESS;
    }
    let run = sim::run(&args.scenario.build(&args.inputs));
    let text = if args.json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            scenario: ScenarioId,
            inputs: &'a Inputs,
            /// Whether the lock service ever had two holders at once.
            double_grant: bool,
            #[serde(flatten)]
            run: &'a sim::Run,
        }
        let out = Out {
            scenario: args.scenario,
            inputs: &args.inputs,
            double_grant: run.outcome.double_grant.is_some(),
            run: &run,
        };
        serde_json::to_string_pretty(&out).expect("plain data") + "\n"
    } else {
        format!("scenario: {}\n{}", args.scenario.id(), table(&run))
    };
    // A closed pipe (`locksim | head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
    ExitCode::SUCCESS
}
