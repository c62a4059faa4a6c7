//! `locksim`: runs one scenario of the simulation core and prints its trace.
//!
//! `cargo run --bin locksim -- --pause 15000 --fencing off [--json]`; every SPEC input is a flag
//! (`--lease on|off`, `--ttl MS`, `--pause-start MS`, `--b-request MS`, `--b-work MS`, `--first-token N`).

use std::io::Write;
use std::process::ExitCode;

use fencing_lab::params::set_input;
use fencing_lab::report::table;
use fencing_lab::sim::{self, Inputs, Scenario};

const USAGE: &str = "usage: locksim [--pause MS] [--lease on|off] [--fencing on|off] [--ttl MS] \
[--pause-start MS] [--b-request MS] [--b-work MS] [--first-token N] [--json]";

struct Args {
    inputs: Inputs,
    json: bool,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut out = Args { inputs: Inputs::default(), json: false };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => out.json = true,
            "-h" | "--help" => return Ok(None),
            flag if flag.starts_with("--") => {
                let (name, inline) = match flag[2..].split_once('=') {
                    Some((n, v)) => (n, Some(v.to_owned())),
                    None => (&flag[2..], None),
                };
                let value = match inline.or_else(|| args.next()) {
                    Some(v) => v,
                    None => return Err(format!("--{name} needs a value")),
                };
                set_input(&mut out.inputs, &name.replace('-', "_"), &value).map_err(|p| p.to_string())?;
            }
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    Ok(Some(out))
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            eprintln!("locksim: {msg}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let run = sim::run(&Scenario::base(&args.inputs));
    let text = if args.json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            inputs: &'a Inputs,
            #[serde(flatten)]
            run: &'a sim::Run,
        }
        serde_json::to_string_pretty(&Out { inputs: &args.inputs, run: &run }).expect("plain data") + "\n"
    } else {
        table(&run)
    };
    // A closed pipe (`locksim | head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
    ExitCode::SUCCESS
}
