//! `locksim check` with real clients on a real Redis server: the reference clients (Python on Debian's
//! python3-redis, Rust on the `redis` crate) get the verdicts their code earns, a client written from
//! docs/clients.md alone (bash over redis-cli) works, and every kind of bad client ends the run with one
//! line, exit code 1, and nothing left running.
//!
//! They need `redis-server`, `redis-cli` and Debian's `python3-redis` (`scripts/setup.sh --real`); without
//! them they fail, never pass silently. Each run has its own server, ports and directory, so the runs of one
//! test go side by side; `scripts/test.sh` runs this file beside tests/real.rs, at normal priority.
#![cfg(not(target_arch = "wasm32"))]

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

const PYTHON: &str = "/usr/bin/python3";

fn require() {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for binary in ["redis-server", "redis-cli"] {
        let found = std::env::split_paths(&path).any(|d| d.join(binary).is_file());
        assert!(found, "{binary} is not installed: run scripts/setup.sh --real");
    }
    let redis_py = Command::new(PYTHON).args(["-c", "import redis"]).status();
    assert!(
        redis_py.is_ok_and(|s| s.success()),
        "python3-redis is not installed: run scripts/setup.sh --real"
    );
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Python reference client, with a mistake or none.
fn python(mistake: Option<&str>) -> String {
    let script = root().join("examples/clients/python/lock_client.py");
    let mistake = mistake.map_or(String::new(), |m| format!(" --mistake {m}"));
    format!("{PYTHON} {}{mistake}", script.display())
}

/// The Rust reference client (built by `cargo test` as the `lock-client` example, beside the binaries).
fn rust(mistake: Option<&str>) -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_locksim"));
    let example = bin.parent().expect("target dir").join("examples/lock-client");
    assert!(example.is_file(), "{} is not built", example.display());
    let mistake = mistake.map_or(String::new(), |m| format!(" --mistake {m}"));
    format!("{}{mistake}", example.display())
}

/// What a run's standard error says it started: process ids (each a client's process group too), ports,
/// the directory.
#[derive(Debug, Default)]
struct Started {
    pids: Vec<u32>,
    ports: Vec<u16>,
    dir: Option<PathBuf>,
}

fn started(stderr: &str) -> Started {
    let mut s = Started::default();
    for line in stderr.lines().filter(|l| l.starts_with("locksim check: ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            match pair[0] {
                "pid" => s.pids.extend(pair[1].parse::<u32>().ok()),
                "in" => s.dir = Some(PathBuf::from(pair[1])),
                _ => {}
            }
        }
        for word in &words {
            let port = word.trim_end_matches([',', ')']).strip_prefix("127.0.0.1:");
            s.ports.extend(port.and_then(|p| p.parse::<u16>().ok()));
        }
    }
    s
}

/// Any process of group `pgid` (or the process `pid` itself) that still runs.
fn running(id: u32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else { return false };
    entries.flatten().any(|e| {
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let pid = e.file_name().to_string_lossy().parse::<u32>().ok();
        let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, r)| r).split_whitespace().collect();
        let group = fields.get(2).and_then(|g| g.parse::<u32>().ok());
        (pid == Some(id) || group == Some(id)) && fields.first().is_some_and(|s| !matches!(*s, "Z" | "X"))
    })
}

fn assert_gone(s: &Started, what: &str) {
    assert!(s.pids.len() >= 3, "{what}: expected a server and two clients in {s:?}");
    assert!(s.ports.len() >= 5, "{what}: expected the server's, proxies' and storage's ports in {s:?}");
    let left = || {
        s.pids.iter().any(|&p| running(p))
            || s.ports.iter().any(|&p| TcpStream::connect(("127.0.0.1", p)).is_ok())
    };
    let deadline = Instant::now() + Duration::from_secs(3);
    while left() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for &pid in &s.pids {
        assert!(!running(pid), "{what}: process (group) {pid} still runs");
    }
    for &port in &s.ports {
        assert!(TcpStream::connect(("127.0.0.1", port)).is_err(), "{what}: port {port} still listens");
    }
    let dir = s.dir.as_deref().expect("a directory");
    assert!(!dir.exists(), "{what}: {} is still there", dir.display());
}

/// `locksim check --client CLIENT ARGS`, after checking it left nothing behind. A run in which the lab
/// itself fell behind (a stall of the shared machine) gives no verdict and says so; it is tried again after
/// a pause, three times at most.
fn check(client: &str, args: &[&str]) -> Output {
    const TRIES: usize = 3;
    for n in 1..=TRIES {
        let out = Command::new(env!("CARGO_BIN_EXE_locksim"))
            .current_dir(root())
            .args(["check", "--client", client])
            .args(args)
            .output()
            .expect("locksim runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_gone(&started(&stderr), &format!("{client} {args:?}"));
        if n == TRIES || !stderr.contains("could not keep its timing") {
            return out;
        }
        eprintln!("{client} {args:?}: {}", stderr.lines().last().unwrap_or(""));
        std::thread::sleep(Duration::from_secs(1));
    }
    unreachable!("the last try returns")
}

/// One run with `--json`: its JSON.
fn json(client: &str, args: &[&str]) -> Value {
    let out = check(client, &[args, &["--json"]].concat());
    assert!(out.status.success(), "{client} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Runs every `(client, args, verdict)` and checks each verdict. One at a time: side by side, nine runs'
/// clients on two cores came 30 ms (300 ms of scenario time) late, and in `unsafe-release` C's write then
/// went before B's, 500 ms apart in the scenario: a verdict about another schedule.
fn expect_all(runs: &[(String, &[&str], &str)]) {
    for (client, args, verdict) in runs {
        let run = json(client, args);
        assert_eq!(run["real"], *verdict, "{client} {args:?}: {run}");
        assert_eq!(run["client"], client.as_str());
    }
}

#[test]
fn the_reference_clients_get_the_verdicts_their_code_earns() {
    require();
    let gc: &[&str] = &["--scenario", "gc-pause"];
    let crash: &[&str] = &["--scenario", "crash"];
    let del: &[&str] = &["--scenario", "unsafe-release", "--work", "15500"];
    expect_all(&[
        // Paused between SETNX and EXPIRE: no lease, B waits until A wakes (stalled); killed there: for ever.
        (python(Some("setnx-expire")), gc, "stalled"),
        (python(Some("setnx-expire")), crash, "orphaned"),
        // A's plain DEL frees B's lock: C gets it while B still works, and both write.
        (python(Some("plain-del")), del, "double-grant"),
        (python(None), del, "safe"),
        // No token: the storage has nothing to check, A's stale write lands after B's.
        (python(Some("no-token")), gc, "corrupted"),
        (rust(None), gc, "fenced"),
        (rust(Some("setnx-expire")), gc, "stalled"),
        (rust(Some("plain-del")), del, "double-grant"),
        (rust(Some("no-token")), gc, "corrupted"),
    ]);
}

#[test]
fn the_right_client_has_no_safety_failure_in_any_scenario_it_can_play() {
    require();
    let out = check(&python(None), &["--all"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = table.lines().skip(1).collect();
    let ids = ["gc-pause", "check-then-pause", "crash", "setnx-expire", "unsafe-release"];
    assert_eq!(rows.len(), ids.len(), "{table}");
    for (row, id) in rows.iter().zip(ids) {
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells[0], id, "{table}");
        assert!(["safe", "fenced"].contains(&cells[1]), "{id}: {row}\n{table}");
    }
    assert!(table.starts_with("scenario"), "{table}");
    assert!(table.contains("first bad event"), "{table}");
}

#[test]
fn a_client_written_from_the_docs_alone_works() {
    require();
    let shell = root().join("tests/clients/redis-cli.sh").display().to_string();
    // And the docs' own 30-line example, as printed there.
    let doc = std::fs::read_to_string(root().join("docs/clients.md")).expect("docs/clients.md");
    let example =
        doc.split("```python\n").nth(1).and_then(|rest| rest.split("```").next()).expect("an example");
    assert!(example.lines().count() <= 32, "the docs' example has {} lines", example.lines().count());
    let dir = tempfile::tempdir().expect("a directory");
    let file = dir.path().join("client.py");
    std::fs::write(&file, example).expect("written");
    let docs = format!("{PYTHON} {}", file.display());
    let gc: &[&str] = &["--scenario", "gc-pause"];
    expect_all(&[
        (shell.clone(), gc, "fenced"),
        (shell.clone(), &["--scenario", "gc-pause", "--fencing", "off"], "corrupted"),
        (shell, &["--scenario", "unsafe-release"], "safe"),
        (docs.clone(), gc, "fenced"),
        (docs, &["--scenario", "check-then-pause"], "fenced"),
    ]);
    let run = json(&python(None), gc);
    // The JSON is a recording: the page's Open a run reads it.
    for field in ["scenario", "inputs", "backend", "version", "scale", "simulated", "real", "trace", "events"]
    {
        assert!(run.get(field).is_some(), "{field} missing in {run}");
    }
    assert_eq!(run["backend"], "redis");
}

/// A bash client, in a file of its own, that misbehaves as `body` says.
fn bad(dir: &Path, name: &str, body: &str) -> String {
    let file = dir.join(format!("{name}.sh"));
    std::fs::write(&file, body).expect("written");
    format!("bash {}", file.display())
}

#[test]
fn a_bad_client_gets_one_line_exit_1_and_nothing_is_left_running() {
    require();
    let dir = tempfile::tempdir().expect("a directory");
    let ok = r#"case $l in *acquire*) echo '{"ok":true,"token":7}';; *) echo '{"ok":true}';; esac"#;
    let cases = [
        (
            bad(dir.path(), "exits", "read -r l; echo '{\"ok\":true}'; read -r l; exit 3\n"),
            "worker A exited at",
        ),
        (
            bad(dir.path(), "hangs", "read -r l; echo '{\"ok\":true}'; while read -r l; do :; done\n"),
            "did not answer acquire",
        ),
        (
            bad(
                dir.path(),
                "garbles",
                "read -r l; echo '{\"ok\":true}'; read -r l; echo 'got it'; sleep 5\n",
            ),
            "wrote \"got it\" at",
        ),
        (
            bad(
                dir.path(),
                "chatters",
                "while read -r l; do echo '{\"ok\":false}'; echo '{\"ok\":false}'; done\n",
            ),
            "answered when nothing was asked",
        ),
        (bad(dir.path(), "no-ok", "while read -r l; do echo '{\"token\":1}'; done\n"), "which has no \"ok\""),
        (
            bad(
                dir.path(),
                "stubborn",
                &format!("trap '' TERM\nwhile read -r l; do {ok}; done\nwhile :; do sleep 0.1; done\n"),
            ),
            "worker A ignored SIGTERM",
        ),
        (bad(dir.path(), "missing", "exec /nonexistent/client\n"), "exited before t = 0"),
    ];
    std::thread::scope(|s| {
        for (client, said) in &cases {
            s.spawn(move || {
                let started = Instant::now();
                let out = check(client, &["--scenario", "gc-pause"]);
                let stderr = String::from_utf8_lossy(&out.stderr);
                let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("locksim:")).collect();
                assert_eq!(out.status.code(), Some(1), "{client}: {stderr}");
                assert_eq!(errors.len(), 1, "{client}: one line, not {errors:?}");
                assert!(errors[0].contains(said), "{client}: {:?} does not say {said:?}", errors[0]);
                assert!(out.stdout.is_empty(), "{client}: printed {}", String::from_utf8_lossy(&out.stdout));
                assert!(started.elapsed() < Duration::from_secs(15), "{client} took {:?}", started.elapsed());
            });
        }
    });
}

#[test]
fn bad_flags_exit_2_before_anything_starts() {
    let py = python(None);
    for (args, said) in [
        (vec!["check", "--scenario", "gc-pause"], "needs --client"),
        (vec!["check", "--client", &py, "--backend", "etcd"], "redis"),
        (vec!["check", "--client", &py, "--scenario", "redlock"], "cannot be played by a client"),
        (vec!["check", "--client", &py, "--pause", "soon"], "pause"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_locksim")).args(&args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!stderr.contains("locksim check: redis-server"), "{args:?} started a server: {stderr}");
    }
}

#[test]
fn sigterm_mid_run_stops_the_clients_and_the_server() {
    require();
    let child = Command::new(env!("CARGO_BIN_EXE_locksim"))
        .current_dir(root())
        .args(["check", "--client", &python(None), "--scenario", "gc-pause"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("locksim runs");
    // Within A's pause (0 to 1.5 s of real time, after the clients started).
    std::thread::sleep(Duration::from_millis(1_200));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).expect("signalled");
    let out = child.wait_with_output().expect("it ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(128 + 15), "{stderr}");
    assert!(stderr.contains("interrupted (signal 15)"), "{stderr}");
    assert_gone(&started(&stderr), "SIGTERM mid-run");
}
