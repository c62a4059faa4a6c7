//! `locksim`: runs one scenario of the catalogue in the simulation core and prints its trace.
//!
//! `cargo run --bin locksim -- --scenario network-delay --delay 8500 [--json]`; every input of the input
//! table is a flag (`--pause MS`, `--lease on|off`, `--release plain|compare`, …). Bad arguments: a message
//! and exit code 2.
//!
//! `locksim search --scenario ID [inputs] [--step MS] [--json]` runs every combination of the scenario's
//! disturbances instead ([`fencing_lab::scenarios::search`]) and prints the smallest counterexamples. A
//! search says how many schedules it will run before it runs them, and refuses more than `CAP` unless
//! given `--no-cap`.
//!
//! `locksim --script FILE [--NAME VALUE …] [--json]` runs a lock script (`-`: standard input; its named
//! values are flags), and `locksim --scenario ID [inputs] --print-script` prints any catalogue state as one
//! (`fencing_lab::script`). `search` takes a script too, and varies its named values.
//!
//! `locksim render (--scenario ID [inputs] | --script FILE) [--lang en|ja] [--theme light|dark] [--animate]
//! [--html]` writes the page's own figure for the run (`fencing_lab::present::render`): a standalone SVG, or
//! an HTML fragment with the verdict and the narration.
//!
//! `locksim real --scenario ID [inputs] --backend redis|etcd|zookeeper [--scale S] [--json]` runs the
//! scenario on a real lock service with real worker processes (`fencing_lab::real`) and prints both
//! verdicts. The workers are this binary again, as the hidden `locksim real-worker JSON`.
//!
//! `locksim check --client CMD --scenario ID [inputs] [--all] [--json]` runs a reader's own lock client as
//! the workers, on a real Redis server under the lab's faults (`fencing_lab::real::check`, protocol in
//! `docs/clients.md`).
//! `locksim course FILE [--lang en|ja]` checks a course (`docs/courses.md`): every script reads and every
//! goal can be met (a search within stated bounds decides), and prints its steps with the core's answers.
//! A file that does not read: exit 2, naming its line and column; a goal that cannot be met: exit 1,
//! naming the step and the reason.
//!
//! The flags are a `clap` command built from the input table (and, with `--script`, from the script's
//! named values), so the parser, the help and the table cannot disagree.

use std::process::ExitCode;

/// The browser build compiles this binary only to check it; it has no command line.
#[cfg(target_arch = "wasm32")]
fn main() -> ExitCode {
    ExitCode::from(2)
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    native::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::io::Write;
    use std::process::ExitCode;
    use std::time::Instant;

    use clap::{Arg, ArgAction, ArgMatches, Command};
    use fencing_lab::present::lesson;
    use fencing_lab::present::params::{self, parse_lang, parse_scenario, set_input, Lang, Problem};
    use fencing_lab::present::render::{self, Drawn, Options, Theme};
    use fencing_lab::present::report::table;
    use fencing_lab::present::text::text;
    use fencing_lab::real;
    use fencing_lab::scenarios::search;
    use fencing_lab::scenarios::{InputSpec, Inputs, Key, Kind, ScenarioId, INPUTS};
    use fencing_lab::script;
    use fencing_lab::sim::explore::{self, Dim, Explorer};
    use fencing_lab::sim::{self, Ms, Scenario, MAX_PAUSE};

    /// The grid step of `locksim search` without `--step`: the gc-pause grid is then 30 401 runs, a few ms.
    const STEP: Ms = 100;

    /// The most schedules a search runs without `--no-cap`: about ten seconds on one core.
    const CAP: u64 = 20_000_000;

    /// An input's value as the help shows it.
    fn value_name(spec: &InputSpec) -> String {
        match spec.kind {
            Kind::Ms { .. } => "MS".to_owned(),
            Kind::Count { .. } => "N".to_owned(),
            Kind::Words(w) => format!("{}|{}", w[1], w[0]),
            Kind::At { .. } => "MS|off".to_owned(),
        }
    }

    /// The flags that set a run: every input of the table, or (with a script) the script's named values.
    fn value_args(script: Option<&Scenario>) -> Vec<Arg> {
        match script {
            None => INPUTS
                .iter()
                .map(|spec| {
                    let flag = spec.name.replace('_', "-");
                    let (min, max) = spec.range();
                    let arg =
                        Arg::new(spec.name).long(flag.clone()).value_name(value_name(spec)).help(match spec
                            .kind
                        {
                            Kind::Ms { .. } | Kind::At { .. } | Kind::Count { .. } => {
                                format!("{min} to {max}")
                            }
                            Kind::Words(w) => format!("{} or {}", w[1], w[0]),
                        });
                    if flag == spec.name {
                        arg
                    } else {
                        arg.alias(spec.name)
                    }
                })
                .collect(),
            Some(sc) => {
                sc.params
                    .iter()
                    .map(|p| {
                        Arg::new(p.name.clone())
                            .long(p.name.replace('_', "-"))
                            .value_name(if p.off { "MS|off" } else { "MS" })
                            .help(format!(
                                "the script's named value, {} to {} ms (now {})",
                                p.min, p.max, p.value
                            ))
                    })
                    .chain(sc.switches.iter().map(|s| {
                        Arg::new(s.name.clone()).long(s.name.replace('_', "-")).value_name("on|off").help(
                            format!("the script's named switch (now {})", if s.on { "on" } else { "off" }),
                        )
                    }))
                    .collect()
            }
        }
    }

    /// Every scenario with its inputs and their defaults, for the help.
    fn scenarios_help() -> String {
        let rows: Vec<String> = ScenarioId::ALL
            .iter()
            .map(|&id| {
                let defaults = id.defaults();
                let flags: Vec<String> = (id.keys().iter().chain(id.extras()))
                    .map(|k: &Key| {
                        format!("--{} {}", k.spec().name.replace('_', "-"), k.spec().text(&defaults))
                    })
                    .collect();
                format!("  {:<17} {}", id.id(), flags.join(" "))
            })
            .collect();
        format!(
            "Scenarios and their inputs (others are ignored):\n{}\n\n\
             search runs every combination of {} (each the scenario reads) from 0 to its maximum every\n\
             --step ms (default {STEP}; pause_start up to the lease's end); on a script, every named value over\n\
             its range. It says how many schedules first, and refuses more than {CAP} without --no-cap.\n\n\
             render writes the page's figure for the run (its legend and verdict) as a standalone SVG to standard\n\
             output, or with --html a fragment holding the figure, the verdict and the narration; styles inline, no\n\
             script, no external reference. --animate plays the run as the page does.\n\n\
             real starts real servers on loopback (redis-server, etcd, a ZooKeeper ensemble, PostgreSQL), runs each\n\
             worker as a process (SIGSTOP/SIGCONT for a pause, SIGKILL for a crash), time scaled by --scale\n\
             (default 0.1, on etcd 1, on ZooKeeper 0.5); no verdict if an event strays a tenth of the lease from\n\
             its time. Real runs: {}\n\n\
             check runs your own lock client (--client CMD, protocol in docs/clients.md) as the workers on a real\n\
             Redis server, with the same faults; --all plays every scenario it can: {}",
            rows.join("\n"),
            search::DISTURBANCES.map(|k| k.spec().name).join(", "),
            real::runs(),
            real::check::SCENARIOS.map(|s| s.id()).join(", ")
        )
    }

    /// `locksim course`: its own command (no scenario or inputs), listed in `locksim --help` too.
    fn course_command() -> Command {
        Command::new("course")
            .about("Checks a course (docs/courses.md): every script reads, every goal can be met")
            .after_help("Exit 0: every goal can be met; 1: a goal cannot (the step and why); 2: the file does not read.")
            .arg(Arg::new("file").value_name("FILE|-").required(true).help("the course file (-: standard input)"))
            .arg(Arg::new("lang").long("lang").value_name("en|ja").help("the language of its errors and titles"))
    }

    /// The command, built from the input table (or the script's named values).
    fn command(script: Option<&Scenario>) -> Command {
        let shared = |c: Command| {
            c.arg(
                Arg::new("scenario")
                    .long("scenario")
                    .value_name("ID")
                    .help(format!("the catalogue scenario: {}", ScenarioId::ids().join(", "))),
            )
            .arg(
                Arg::new("script")
                    .long("script")
                    .value_name("FILE|-")
                    .help("run a lock script (docs/scripts.md)"),
            )
            .arg(Arg::new("json").long("json").action(ArgAction::SetTrue).help("the run as JSON"))
            .arg(
                Arg::new("lang")
                    .long("lang")
                    .value_name("en|ja")
                    // Exactly these: the script's errors are Japanese for `ja` alone (read before clap).
                    .value_parser(["en", "ja"])
                    .help("the language of a script's errors and of a render's words"),
            )
            .args(value_args(script))
        };
        shared(
            Command::new("locksim").about("Runs a scenario of distributed locking in the simulation core."),
        )
        .arg(
            Arg::new("print-script")
                .long("print-script")
                .action(ArgAction::SetTrue)
                .help("print the scenario as a lock script"),
        )
        .subcommand(course_command())
        .subcommand(
            shared(Command::new("search").about("Every schedule within bounds: the smallest failures"))
                .arg(
                    Arg::new("step")
                        .long("step")
                        .value_name("MS")
                        .help(format!("grid step, 1 to {MAX_PAUSE}")),
                )
                .arg(
                    Arg::new("no-cap")
                        .long("no-cap")
                        .action(ArgAction::SetTrue)
                        .help(format!("run more than {CAP} schedules")),
                ),
        )
        .subcommand(
            shared(Command::new("real").about("The scenario on a real lock service, beside the simulation"))
                .arg(Arg::new("backend").long("backend").value_name("NAME").help("redis, etcd or zookeeper"))
                .arg(Arg::new("scale").long("scale").value_name("S").help("scenario time × S = real time")),
        )
        .subcommand(
            shared(Command::new("check").about(
                "Your own lock client as the workers, on a real Redis server under the lab's faults \
                 (docs/clients.md)",
            ))
            .arg(
                Arg::new("client")
                    .long("client")
                    .value_name("CMD")
                    .help("the client's command line, run with sh -c once per worker"),
            )
            .arg(Arg::new("backend").long("backend").value_name("NAME").help("redis (the default)"))
            .arg(
                Arg::new("all")
                    .long("all")
                    .action(ArgAction::SetTrue)
                    .help("every scenario a client can play: scenario, verdict, first bad event"),
            ),
        )
        .subcommand(
            shared(
                Command::new("render").about(
                    "The page's figure for the run: a standalone SVG, or an HTML fragment (no script)",
                ),
            )
            .arg(
                Arg::new("theme")
                    .long("theme")
                    .value_name("light|dark")
                    .help("the page's light or dark colours (default light)"),
            )
            .arg(
                Arg::new("animate").long("animate").action(ArgAction::SetTrue).help(
                    "the run plays (CSS), holding still on its last frame under prefers-reduced-motion",
                ),
            )
            .arg(
                Arg::new("html")
                    .long("html")
                    .action(ArgAction::SetTrue)
                    .help("a self-contained HTML fragment: the figure, the verdict, the narration"),
            )
            .arg(
                Arg::new("at")
                    .long("at")
                    .value_name("MS")
                    .help("the run as the page's playback shows it at this time (default: all of it)"),
            )
            .arg(
                Arg::new("width").long("width").value_name("PX").help(format!(
                    "the figure's width, {MIN_WIDTH} to {MAX_WIDTH} (default {})",
                    render::WIDTH
                )),
            )
            .arg(
                Arg::new("id")
                    .long("id")
                    .value_name("NAME")
                    .help("the figure's id, which scopes its styles (default fencing-lab)"),
            ),
        )
        .subcommand(Command::new("real-worker").hide(true).arg(Arg::new("job").required(true)))
        .after_help(scenarios_help())
        .disable_help_subcommand(true)
    }

    /// Why `sc`'s named values and switches cannot all be flags of the command `first` names (or of a plain
    /// run), if they cannot: one is named as one of locksim's own options there, or two names differ only in
    /// `_` and `-` (a flag writes both as `-`).
    fn clash(sc: &Scenario, first: Option<&str>) -> Option<String> {
        // The command as a script builds it, with no names of its own: locksim's own options alone.
        let base = command(Some(&Scenario::with_workers(Vec::new())));
        let mut taken: Vec<String> = std::iter::once(&base)
            .chain(base.get_subcommands().filter(|c| Some(c.get_name()) == first))
            .flat_map(|c| c.get_arguments().filter_map(|a| a.get_long()).map(str::to_owned))
            .chain(["help".to_owned(), "version".to_owned()])
            .collect();
        let names = sc.params.iter().map(|p| &p.name).chain(sc.switches.iter().map(|w| &w.name));
        let own = taken.len();
        for name in names {
            let flag = name.replace('_', "-");
            match taken.iter().position(|t| *t == flag) {
                Some(i) if i < own => {
                    return Some(format!(
                        "the script's \"{name}\" would be --{flag}, one of locksim's own options: rename it"
                    ))
                }
                Some(_) => {
                    return Some(format!(
                    "the script's \"{name}\" would be --{flag}, as another of its names would: rename one"
                ))
                }
                None => taken.push(flag),
            }
        }
        None
    }

    /// A usage error: the message, the usage line, exit code 2.
    fn usage_error(msg: &str, cmd: &mut Command) -> ExitCode {
        eprintln!("locksim: {msg}\n{}", cmd.render_usage());
        ExitCode::from(2)
    }

    /// The value of `--script` among the raw arguments, if any: the script decides which flags exist.
    fn script_path(args: &[String]) -> Option<String> {
        args.iter().enumerate().find_map(|(i, a)| match a.strip_prefix("--script") {
            Some("") => args.get(i + 1).cloned(),
            Some(rest) => rest.strip_prefix('=').map(str::to_owned),
            None => None,
        })
    }

    pub fn main() -> ExitCode {
        let args: Vec<String> = std::env::args().collect();
        if args.get(1).map(String::as_str) == Some("real-worker") {
            return real::worker::main(args.get(2).map_or("", String::as_str));
        }
        if args.get(1).map(String::as_str) == Some("course") {
            return course(&args[2..]);
        }
        let ja = args.windows(2).any(|w| w[0] == "--lang" && w[1] == "ja")
            || args.iter().any(|a| a == "--lang=ja");
        let script = match script_path(&args).map(|path| read_script(&path, ja)) {
            Some(Ok(sc)) => Some(sc),
            Some(Err(msg)) => return usage_error(&msg, &mut command(None)),
            None => None,
        };
        if let Some(msg) = script.as_ref().and_then(|sc| clash(sc, args.get(1).map(String::as_str))) {
            return usage_error(&msg, &mut command(None));
        }
        let mut cmd = command(script.as_ref());
        let matches = match cmd.try_get_matches_from_mut(&args) {
            Ok(m) => m,
            Err(e) if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp) => {
                // `locksim render --help`: that command's flags; the scenarios' list is in `locksim --help`.
                let help = match args.get(1).and_then(|a| cmd.find_subcommand_mut(a)) {
                    Some(sub) => sub.render_long_help(),
                    None => cmd.render_long_help(),
                };
                print!("{help}");
                return ExitCode::SUCCESS;
            }
            Err(e) => {
                let text = e.to_string();
                let first = text.lines().next().unwrap_or_default();
                return usage_error(first.trim_start_matches("error: "), &mut cmd);
            }
        };
        let (mode, m) = match matches.subcommand() {
            // Options before the command would be read by none: `locksim --scenario crash search` is refused.
            Some((mode, _)) if args.get(1).map(String::as_str) != Some(mode) => {
                let msg = format!("\"{mode}\" comes first, its options after it: locksim {mode} [OPTIONS]");
                return usage_error(&msg, &mut cmd);
            }
            Some((mode, m)) => (mode, m),
            None => ("run", &matches),
        };
        let json = m.get_flag("json");
        let result = match script {
            Some(sc) => run_script(sc, mode, m, json),
            None => run_scenario(mode, m, json, &cmd.render_usage().to_string()),
        };
        match result {
            Ok(code) => code,
            // The usage of the subcommand the error is about.
            Err(msg) => match cmd.find_subcommand_mut(mode) {
                Some(sub) => usage_error(&msg, sub),
                None => usage_error(&msg, &mut cmd),
            },
        }
    }

    /// `locksim course FILE [--lang en|ja]`: reads and checks a course, and prints its steps.
    fn course(args: &[String]) -> ExitCode {
        use fencing_lab::present::course::{self, Answer};
        fn usage(msg: &str) -> ExitCode {
            eprintln!("locksim: {msg}\nUsage: locksim course FILE [--lang en|ja]");
            ExitCode::from(2)
        }
        let mut cmd = course_command().name("locksim course").bin_name("locksim course");
        let m = match cmd
            .try_get_matches_from_mut(std::iter::once("course".to_owned()).chain(args.iter().cloned()))
        {
            Ok(m) => m,
            Err(e) if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp) => {
                print!("{}", cmd.render_long_help());
                return ExitCode::SUCCESS;
            }
            Err(e) if matches!(e.kind(), clap::error::ErrorKind::MissingRequiredArgument) => {
                return usage("course: a course file is needed (- for standard input)");
            }
            Err(e) => {
                let text = e.to_string();
                return usage(text.lines().next().unwrap_or_default().trim_start_matches("error: "));
            }
        };
        let lang = match m.get_one::<String>("lang").map(|l| parse_lang(l)) {
            None => Lang::En,
            Some(Ok(l)) => l,
            Some(Err(_)) => return usage("--lang takes en or ja"),
        };
        let path = m.get_one::<String>("file").cloned().unwrap_or_default();
        let text = match read_text(&path) {
            Ok(t) => t,
            Err(e) => return usage(&e),
        };
        let c = match course::parse(&text) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("locksim: {path}: {}", e.said(lang));
                return ExitCode::from(2);
            }
        };
        let mut out = format!("course: {} ({} steps): {}\n", c.id, c.steps.len(), c.title.get(lang));
        for (i, step) in c.steps.iter().enumerate() {
            let said = match course::answer(step) {
                Answer::Predict(k) => format!("answer {}", k.name()),
                Answer::State(s) => {
                    let v: Vec<String> = s.values.iter().map(|(n, ms)| format!("{n} {ms}")).collect();
                    let named = s.switches.iter().map(|(n, o)| format!(", {n} {}", on(*o)));
                    let sw = format!("lease {}, fencing {}", on(s.devices.lease), on(s.devices.fencing))
                        + &named.collect::<String>();
                    format!(
                        "{} at {}{sw}",
                        s.outcome.name(),
                        if v.is_empty() { String::new() } else { v.join(", ") + ", " }
                    )
                }
                Answer::Prove(p) => format!(
                    "fewest: lease {}, fencing {} ({})",
                    on(p.devices.lease),
                    on(p.devices.fencing),
                    course::bounds_text(&p.bounds, Lang::En)
                ),
                Answer::None => {
                    let _ = std::io::stdout().write_all(out.as_bytes());
                    let refusal = course::check(&c).err();
                    let reason = refusal.map(|r| r.en()).unwrap_or_default();
                    eprintln!("locksim: {path}: {reason}");
                    return ExitCode::from(1);
                }
            };
            out += &format!(
                "step {} (line {}): {}: {}: {said}\n",
                i + 1,
                step.line,
                step.goal.name(),
                step.title.get(lang)
            );
        }
        out += "ok: every script reads and every goal can be met\n";
        let _ = std::io::stdout().write_all(out.as_bytes());
        ExitCode::SUCCESS
    }

    fn on(b: bool) -> &'static str {
        if b {
            "on"
        } else {
            "off"
        }
    }

    /// A bad value, in the page's own English sentence for it.
    fn said(p: Problem) -> String {
        (text(Lang::En).problem)(&p)
    }

    /// A catalogue scenario: run, print, search or run for real.
    fn run_scenario(mode: &str, m: &ArgMatches, json: bool, usage: &str) -> Result<ExitCode, String> {
        let scenario = match m.get_one::<String>("scenario") {
            Some(v) => parse_scenario(v).map_err(said)?,
            None => ScenarioId::GcPause,
        };
        // A real GC pause without --pause plays the source's own question, as the page's first prediction
        // does: A wakes after 15 s (the default 4 s pause is over before anything can go wrong).
        let mut inputs = lesson::opening(scenario, mode == "real" || mode == "check");
        for spec in &INPUTS {
            let Some(value) = m.get_one::<String>(spec.name) else { continue };
            set_input(&mut inputs, spec.name, value).map_err(said)?;
            // A value the search would overwrite is a mistake, not a setting.
            if mode == "search" && search::DISTURBANCES.contains(&spec.key) && scenario.uses(spec.key) {
                return Err(format!("--{}: search varies {} itself; leave it out", spec.name, spec.name));
            }
        }
        match mode {
            "render" => render(Drawn::Catalogue(scenario, &inputs), m),
            "search" => {
                let step = step(m)?;
                let mut search = search::Search::new(scenario, &inputs, &search::bounds(&inputs, step));
                refuse_past_cap(search.total(), m.get_flag("no-cap"))?;
                let started = Instant::now();
                search.run(u64::MAX);
                let mut report = search.report();
                report.millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                print(&if json {
                    serde_json::to_string_pretty(&report).expect("plain data") + "\n"
                } else {
                    report.to_string()
                });
                Ok(ExitCode::SUCCESS)
            }
            "check" => {
                let (client, backend) = (m.get_one::<String>("client"), m.get_one::<String>("backend"));
                Ok(real::check::main(
                    scenario,
                    &inputs,
                    client.map(String::as_str),
                    backend.map(String::as_str),
                    m.get_flag("all"),
                    json,
                    usage,
                ))
            }
            "real" => {
                let (backend, scale) = (m.get_one::<String>("backend"), m.get_one::<String>("scale"));
                Ok(real::cli::main(
                    scenario,
                    &inputs,
                    json,
                    backend.map(String::as_str),
                    scale.map(String::as_str),
                    usage,
                ))
            }
            _ => {
                let sc = scenario.build(&inputs);
                if m.get_flag("print-script") {
                    print(&script::print(&sc));
                    return Ok(ExitCode::SUCCESS);
                }
                let run = sim::run(&sc);
                print(&if json {
                    #[derive(serde::Serialize)]
                    struct Out<'a> {
                        scenario: ScenarioId,
                        inputs: &'a Inputs,
                        /// Whether the lock service ever had two holders at once.
                        double_grant: bool,
                        #[serde(flatten)]
                        run: &'a sim::Run,
                    }
                    let double_grant = run.outcome.double_grant.is_some();
                    let out = Out { scenario, inputs: &inputs, double_grant, run: &run };
                    serde_json::to_string_pretty(&out).expect("plain data") + "\n"
                } else {
                    format!("scenario: {}\n{}", scenario.id(), table(&run))
                });
                Ok(ExitCode::SUCCESS)
            }
        }
    }

    /// A script: run or search it, its named values set by their flags.
    fn run_script(sc: Scenario, mode: &str, m: &ArgMatches, json: bool) -> Result<ExitCode, String> {
        if mode == "real" || mode == "check" {
            return Err(format!("locksim {mode} runs the catalogue's scenarios, not scripts"));
        }
        if m.get_one::<String>("scenario").is_some() {
            return Err("--scenario and --script: give one".into());
        }
        if mode == "run" && m.get_flag("print-script") {
            return Err("--print-script prints a catalogue scenario; a script is already one".into());
        }
        let given: Vec<(String, String)> = (sc.params.iter().map(|p| &p.name))
            .chain(sc.switches.iter().map(|s| &s.name))
            .filter_map(|name| m.get_one::<String>(name).map(|v| (name.clone(), v.clone())))
            .collect();
        if mode == "search" {
            if let Some((name, _)) = given.iter().find(|(name, _)| sc.param(name).is_some()) {
                return Err(format!("--{name}: search varies every named value itself; leave it out"));
            }
            // A switch stays as set: the search runs that version of the programs.
            let sc = with_flags(sc, &given)?;
            print(&search_script(&sc, step(m)?, json, m.get_flag("no-cap"))?);
            return Ok(ExitCode::SUCCESS);
        }
        let sc = with_flags(sc, &given)?;
        if mode == "render" {
            return render(Drawn::Script(&sc), m);
        }
        let run = sim::run(&sc);
        print(&if json {
            let named: serde_json::Map<String, serde_json::Value> =
                sc.params.iter().map(|p| (p.name.clone(), p.value.into())).collect();
            let double_grant = run.outcome.double_grant.is_some();
            let mut v = serde_json::json!({"script": true, "named": named, "double_grant": double_grant});
            if let (Some(obj), Ok(serde_json::Value::Object(run))) =
                (v.as_object_mut(), serde_json::to_value(&run))
            {
                obj.extend(run);
            }
            serde_json::to_string_pretty(&v).expect("plain data") + "\n"
        } else {
            format!("scenario: script\n{}", table(&run))
        });
        Ok(ExitCode::SUCCESS)
    }

    /// The narrowest and widest figure `--width` draws.
    const MIN_WIDTH: u32 = 280;
    const MAX_WIDTH: u32 = 4_000;

    /// `locksim render`: the page's figure for the run, as SVG or (`--html`) an HTML fragment.
    fn render(what: Drawn, m: &ArgMatches) -> Result<ExitCode, String> {
        if m.get_flag("json") {
            return Err("render writes SVG or HTML; --json is for a run's trace".into());
        }
        let mut o = Options::default();
        if let Some(lang) = m.get_one::<String>("lang") {
            o.lang = parse_lang(lang).map_err(said)?;
        }
        if let Some(theme) = m.get_one::<String>("theme") {
            o.theme =
                Theme::parse(theme).ok_or_else(|| format!("--theme \"{theme}\" is not light or dark"))?;
        }
        if let Some(width) = m.get_one::<String>("width") {
            let w = width.trim().parse::<u32>().ok().filter(|w| (MIN_WIDTH..=MAX_WIDTH).contains(w));
            o.width = f64::from(w.ok_or_else(|| {
                format!("--width \"{width}\" is not a whole number of px from {MIN_WIDTH} to {MAX_WIDTH}")
            })?);
        }
        if let Some(at) = m.get_one::<String>("at") {
            o.at = Some(
                at.trim().parse::<Ms>().map_err(|_| format!("--at \"{at}\" is not a whole number of ms"))?,
            );
        }
        if let Some(id) = m.get_one::<String>("id") {
            if !render::valid_id(id) {
                return Err(format!("--id \"{id}\": a letter, then letters, digits, - or _"));
            }
            o.id = id.clone();
        }
        o.animate = m.get_flag("animate");
        if o.animate && o.at.is_some() {
            return Err("--animate plays the whole run; --at shows one moment: give one".into());
        }
        print(&if m.get_flag("html") { render::html(what, &o, None) + "\n" } else { render::svg(what, &o) });
        Ok(ExitCode::SUCCESS)
    }

    /// `--step`, checked.
    fn step(m: &ArgMatches) -> Result<Ms, String> {
        match m.get_one::<String>("step") {
            None => Ok(STEP),
            Some(value) => {
                value.trim().parse().ok().filter(|s| (1..=MAX_PAUSE).contains(s)).ok_or_else(|| {
                    format!("--step \"{value}\" is not a whole number of ms from 1 to {MAX_PAUSE}")
                })
            }
        }
    }

    /// Writes to standard output; a closed pipe (`locksim | head`) is not an error worth a panic.
    fn print(text: &str) {
        let _ = std::io::stdout().write_all(text.as_bytes());
    }

    /// The text at `path` (`-`: standard input), read no further than a script or a course can be: an
    /// input that never ends (`/dev/zero`, `yes | locksim …`) is refused, not read into memory for ever.
    fn read_text(path: &str) -> Result<String, String> {
        use std::io::Read;
        const MAX: u64 = params::MAX_SCRIPT_BYTES as u64;
        let input: Box<dyn Read> = if path == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?)
        };
        let mut bytes = Vec::new();
        input.take(MAX + 1).read_to_end(&mut bytes).map_err(|e| format!("{path}: {e}"))?;
        if bytes.len() as u64 > MAX {
            return Err(format!("{path}: longer than {MAX} bytes, more than any script or course can be"));
        }
        String::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8 text"))
    }

    /// The script at `path` (`-`: standard input), or its error in the chosen language.
    fn read_script(path: &str, ja: bool) -> Result<Scenario, String> {
        let text = read_text(path)?;
        script::parse(&text).map_err(|e| format!("{path}: {}", if ja { e.ja() } else { e.en() }))
    }

    /// The script's scenario with the values its flags give its named values (ms, or `off` for 0).
    fn with_flags(mut sc: Scenario, pairs: &[(String, String)]) -> Result<Scenario, String> {
        for (name, value) in pairs {
            if let Some(i) = sc.switches.iter().position(|s| s.name == *name) {
                let on = match value.trim() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("--{name} \"{value}\" is not on or off")),
                };
                sc.set_switch(i, on);
                continue;
            }
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
}
