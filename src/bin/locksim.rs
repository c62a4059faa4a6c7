//! `locksim`: runs one scenario of the catalogue in the simulation core and prints its trace.
//!
//! `cargo run --bin locksim -- --scenario network-delay --delay 8500 [--json]`; every input of the input
//! table is a flag (`--pause MS`, `--lease on|off`, `--release plain|compare`, …). Bad arguments: a message
//! and exit code 2.
//!
//! `locksim search --scenario ID [inputs] [--step MS] [--json]` runs every combination of the scenario's
//! disturbances instead ([`fencing_lab::scenarios::search`]) and prints the smallest counterexamples.
//!
//! `locksim --script FILE [--NAME VALUE …] [--json]` runs a lock script (`-`: standard input; its named
//! values are flags), and `locksim --scenario ID [inputs] --print-script` prints any catalogue state as one
//! (`fencing_lab::script`). `search` takes a script too, and varies its named values.
//!
//! A search says how many schedules it will run before it runs them, and refuses more than [`CAP`] unless
//! given `--no-cap`.
//!
//! `locksim real --scenario ID [inputs] --backend redis|etcd [--scale 0.1] [--json]` runs the scenario on a
//! real lock service with real worker processes (`fencing_lab::real`) and prints both verdicts. The workers
//! are this binary again, as the hidden `locksim real-worker JSON`.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use fencing_lab::present::lesson::SEED_QUESTION_PAUSE;
use fencing_lab::present::params::{parse_scenario, set_input};
use fencing_lab::present::report::table;
#[cfg(not(target_arch = "wasm32"))]
use fencing_lab::real;
use fencing_lab::scenarios::search;
use fencing_lab::scenarios::{Inputs, Key, Kind, ScenarioId, INPUTS};
use fencing_lab::script;
use fencing_lab::sim::explore::{self, Dim, Explorer};
use fencing_lab::sim::Scenario;
use fencing_lab::sim::{self, Ms, MAX_PAUSE};

/// The grid step of `locksim search` without `--step`: the gc-pause grid is then 30 401 runs, a few ms.
const STEP: Ms = 100;

/// The most schedules a search runs without `--no-cap`: about ten seconds on one core.
const CAP: u64 = 20_000_000;

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
        "usage: locksim [--scenario ID] {} [--json] [--print-script]\n       \
         locksim --script FILE|- [--NAME MS|off for each named value] [--json] [--lang en|ja]\n       \
         locksim search [--scenario ID] [inputs as above, but not the ones searched] [--step MS] [--no-cap] [--json]\n       \
         locksim search --script FILE|- [--step MS] [--no-cap]\n       \
         locksim real [--scenario ID] [inputs as above] --backend redis|etcd [--scale 0.1] [--json]\n\
         \n  search runs every combination of {} (each the scenario reads) from 0 to its\n  \
         maximum every --step ms (default {STEP}; pause_start up to the lease's end); on a script, every\n  \
         named value over its range. It says how many schedules first, and refuses more than {CAP} without\n  \
         --no-cap\n\
         \n  real starts a real server on loopback (redis-server or etcd), runs each worker as a process\n  \
         (SIGSTOP/SIGCONT for a pause, SIGKILL for a crash), time scaled by --scale (default 0.1, on etcd 0.3);\n  \
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
    /// `Some`: a script's scenario, its named values set by the flags, instead of the catalogue's.
    script: Option<Scenario>,
    json: bool,
    print_script: bool,
    no_cap: bool,
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
    let (mut json, mut print_script, mut no_cap) = (false, false, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--print-script" => print_script = true,
            "--no-cap" if search => no_cap = true,
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
    if let Some((_, path)) = pairs.iter().rev().find(|(k, _)| k == "script") {
        let ja = pairs.iter().any(|(k, v)| k == "lang" && v == "ja");
        let sc = read_script(path, ja)?;
        let step = named_flags(&sc, &pairs, search, real.is_some(), print_script)?;
        let sc = with_flags(sc, &pairs)?;
        return Ok(Some(Args {
            scenario: ScenarioId::GcPause,
            inputs: Inputs::default(),
            script: Some(sc),
            json,
            print_script,
            no_cap,
            search: search.then_some(step),
            real,
        }));
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
    Ok(Some(Args {
        scenario,
        inputs,
        script: None,
        json,
        print_script,
        no_cap,
        search: search.then_some(step),
        real,
    }))
}

/// The script at `path` (`-`: standard input), or its error in the chosen language.
fn read_script(path: &str, ja: bool) -> Result<Scenario, String> {
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("standard input: {e}"))?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?
    };
    script::parse(&text).map_err(|e| format!("{path}: {}", if ja { e.ja() } else { e.en() }))
}

/// Checks the flags given with a script: each names one of its values (or is `--step` for a search,
/// `--lang`); returns the search step.
fn named_flags(
    sc: &Scenario,
    pairs: &[(String, String)],
    search: bool,
    real: bool,
    print: bool,
) -> Result<Ms, String> {
    if real {
        return Err("locksim real runs the catalogue's scenarios, not scripts".into());
    }
    if print {
        return Err("--print-script prints a catalogue scenario; a script is already one".into());
    }
    let mut step = STEP;
    for (name, value) in pairs.iter().filter(|(k, _)| k != "script" && k != "lang") {
        if search && name == "step" {
            step = value.trim().parse().ok().filter(|s| (1..=MAX_PAUSE).contains(s)).ok_or_else(|| {
                format!("--step \"{value}\" is not a whole number of ms from 1 to {MAX_PAUSE}")
            })?;
        } else if sc.param(&name.replace('-', "_")).is_none() {
            let names: Vec<String> =
                sc.params.iter().map(|p| format!("--{}", p.name.replace('_', "-"))).collect();
            let known = if names.is_empty() { "it has none".to_owned() } else { names.join(", ") };
            return Err(format!(
                "--{name}: the script has no named value {name:?}; its named values: {known}"
            ));
        } else if search {
            return Err(format!("--{name}: search varies every named value itself; leave it out"));
        }
    }
    Ok(step)
}

/// The script's scenario with the values its flags give its named values (ms, or `off` for 0).
fn with_flags(mut sc: Scenario, pairs: &[(String, String)]) -> Result<Scenario, String> {
    for (name, value) in pairs {
        let Some(i) = sc.param(&name.replace('-', "_")) else { continue };
        let p = &sc.params[i];
        let v = match value.trim() {
            "off" => Some(0),
            v => v.parse::<Ms>().ok(),
        };
        let v = v.filter(|v| (p.min..=p.max).contains(v)).ok_or_else(|| {
            format!("--{name} \"{value}\" is not a whole number of ms from {} to {}", p.min, p.max)
        })?;
        sc.set_param(i, v);
    }
    Ok(sc)
}

/// `locksim search --script`: every named value over its range, as text or JSON.
fn search_script(sc: &Scenario, step: Ms, json: bool, no_cap: bool) -> Result<String, String> {
    let dims: Vec<Dim> =
        (sc.params.iter().enumerate()).map(|(i, p)| Dim::new(i, p.min, p.max, step)).collect();
    let total = explore::size(&dims);
    refuse_past_cap(total, no_cap)?;
    let started = Instant::now();
    let mut explorer = Explorer::new(sc.clone(), dims);
    explorer.run(u64::MAX);
    let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let found = |f: Option<&explore::Found>| {
        f.map(|f| {
            let values: Vec<(String, Ms)> =
                sc.params.iter().map(|p| p.name.clone()).zip(f.values.iter().copied()).collect();
            (f.outcome, values)
        })
    };
    let (safety, liveness) = (found(explorer.safety()), found(explorer.liveness()));
    if json {
        let bounds: Vec<serde_json::Value> = (explorer.dims().iter())
            .map(|d| serde_json::json!({"input": sc.params[d.param].name, "from": d.from, "to": d.to, "step": d.step}))
            .collect();
        let cx = |c: &Option<(sim::OutcomeKind, Vec<(String, Ms)>)>| {
            c.as_ref().map(|(o, v)| serde_json::json!({"outcome": o, "inputs": v.iter().map(|(n, ms)| (n.clone(), serde_json::Value::from(*ms))).collect::<serde_json::Map<_, _>>()}))
        };
        let v = serde_json::json!({
            "schedules": explorer.done(), "bounds": bounds, "millis": millis,
            "safety": cx(&safety), "liveness": cx(&liveness),
        });
        return Ok(serde_json::to_string_pretty(&v).expect("plain data") + "\n");
    }
    let grid: Vec<String> = (explorer.dims().iter())
        .map(|d| format!("{} {}..={} step {}", sc.params[d.param].name, d.from, d.to, d.step))
        .collect();
    let mut out = format!(
        "search: script\nbounds: {} (ms)\nschedules: {} in {millis} ms\n",
        if grid.is_empty() { "none, one schedule".to_owned() } else { grid.join(", ") },
        explorer.done()
    );
    for (what, c) in [("safety", &safety), ("liveness", &liveness)] {
        match c {
            Some((o, v)) => {
                let v: Vec<String> = v.iter().map(|(n, ms)| format!("{n} {ms}")).collect();
                out += &format!("{what}: {o} at {}\n", v.join(", "));
            }
            None => out += &format!("{what}: none within these bounds\n"),
        }
    }
    Ok(out)
}

/// Says the size of a search on standard error before it runs, and refuses one past [`CAP`].
fn refuse_past_cap(total: u64, no_cap: bool) -> Result<(), String> {
    if total > CAP && !no_cap {
        return Err(format!(
            "search: {total} schedules is more than {CAP}; give a larger --step (or fewer named values), \
             or --no-cap to run them all"
        ));
    }
    eprintln!("search: {total} schedules");
    Ok(())
}

/// `locksim search`: the report, as text or JSON.
fn search_report(args: &Args, step: Ms) -> Result<String, String> {
    if let Some(sc) = &args.script {
        return search_script(sc, step, args.json, args.no_cap);
    }
    let bounds = search::bounds(&args.inputs, step);
    refuse_past_cap(search::schedules(args.scenario, &args.inputs, &bounds), args.no_cap)?;
    let started = Instant::now();
    let mut report = search::search_within(args.scenario, &args.inputs, &bounds);
    report.millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok(if args.json {
        serde_json::to_string_pretty(&report).expect("plain data") + "\n"
    } else {
        report.to_string()
    })
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
        return match search_report(&args, step) {
            Ok(text) => {
                let _ = std::io::stdout().write_all(text.as_bytes());
                ExitCode::SUCCESS
            }
            Err(msg) => {
                eprintln!("locksim: {msg}");
                ExitCode::from(2)
            }
        };
    }
    if let Some(sc) = &args.script {
        let run = sim::run(sc);
        let text = if args.json {
            let named: serde_json::Map<String, serde_json::Value> =
                sc.params.iter().map(|p| (p.name.clone(), p.value.into())).collect();
            let mut v = serde_json::json!({"script": true, "named": named, "double_grant": run.outcome.double_grant.is_some()});
            if let (Some(obj), Ok(serde_json::Value::Object(run))) =
                (v.as_object_mut(), serde_json::to_value(&run))
            {
                obj.extend(run);
            }
            serde_json::to_string_pretty(&v).expect("plain data") + "\n"
        } else {
            format!("scenario: script\n{}", table(&run))
        };
        let _ = std::io::stdout().write_all(text.as_bytes());
        return ExitCode::SUCCESS;
    }
    let sc = args.scenario.build(&args.inputs);
    if args.print_script {
        let _ = std::io::stdout().write_all(script::print(&sc).as_bytes());
        return ExitCode::SUCCESS;
    }
    let run = sim::run(&sc);
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
