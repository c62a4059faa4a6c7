//! `locksim real` against real servers: every supported combination gives the simulated verdict, quickly,
//! and leaves nothing behind, even when the conductor is killed mid-run (or stopped while a Redis replica is
//! stopped).
//!
//! These tests need `redis-server` and `etcd` (`scripts/setup.sh --real` installs them); without them they
//! fail, never pass silently. They share the machine's CPU and ports, so they run one at a time.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Fails the test, naming the fix, if a server binary is not installed.
fn require(binary: &str) {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path).any(|d| d.join(binary).is_file());
    assert!(found, "{binary} is not installed: run scripts/setup.sh --real (CI installs it)");
}

/// What a run's standard error says it started.
#[derive(Debug, Default)]
struct Started {
    pids: Vec<u32>,
    ports: Vec<u16>,
    dir: Option<PathBuf>,
}

impl Started {
    fn read(line: &str, into: &mut Started) {
        if !line.starts_with("locksim real: ") {
            return;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            match pair[0] {
                "pid" => into.pids.extend(pair[1].parse::<u32>().ok()),
                "on" => {
                    into.ports.extend(pair[1].strip_prefix("127.0.0.1:").and_then(|p| p.parse::<u16>().ok()))
                }
                "in" => into.dir = Some(PathBuf::from(pair[1])),
                _ => {}
            }
        }
    }

    fn from(stderr: &str) -> Started {
        let mut s = Started::default();
        for line in stderr.lines() {
            Started::read(line, &mut s);
        }
        s
    }
}

/// Any of the process's threads still running. A killed child whose new parent has not reaped it yet is a
/// zombie: it runs nothing and holds no port. A killed multi-threaded process (etcd) can show its first
/// thread as a zombie while the others are still closing its files, so every thread counts.
fn alive(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return false };
    tasks.flatten().any(|task| {
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X']))
    })
}

fn listens(port: u16) -> bool {
    TcpStream::connect(("127.0.0.1", port)).is_ok()
}

fn state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

/// Everything `started` names is gone: processes, the listening ports, the directory (if `dir`).
fn assert_gone(started: &Started, dir: bool, what: &str) {
    assert!(started.pids.len() >= 3, "{what}: expected a server and workers in {started:?}");
    assert!(!started.ports.is_empty(), "{what}: expected a port in {started:?}");
    let running = || started.pids.iter().any(|&p| alive(p)) || started.ports.iter().any(|&p| listens(p));
    // A killed process takes a moment to close its files.
    let deadline = Instant::now() + Duration::from_secs(3);
    while running() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for &pid in &started.pids {
        assert!(!alive(pid), "{what}: process {pid} is still running");
    }
    for &port in &started.ports {
        assert!(!listens(port), "{what}: port {port} still listens");
    }
    if dir {
        let d = started.dir.as_deref().expect("a directory");
        assert!(!d.exists(), "{what}: {} is still there", d.display());
    }
}

fn locksim() -> Command {
    Command::new(env!("CARGO_BIN_EXE_locksim"))
}

/// `locksim real` with `args`, after checking that it left nothing behind. A run that could not keep its
/// timing (a stall of the shared machine: over a tenth of the lease, 100 ms of real time on Redis) gives no
/// verdict and says so; it is tried again after a pause, four times at most.
fn attempt(args: &[&str]) -> std::process::Output {
    const TRIES: usize = 5;
    for n in 1..=TRIES {
        let out = locksim().arg("real").args(args).output().expect("locksim runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        // (Its stderr in the message: a run that failed before it started anything says why.)
        assert_gone(&Started::from(&stderr), true, &format!("{args:?}: {stderr}"));
        if n == TRIES || out.status.code() != Some(1) || !stderr.contains("could not keep its timing") {
            return out;
        }
        eprintln!("{args:?}: {}", stderr.lines().last().unwrap_or(""));
        std::thread::sleep(Duration::from_secs(2));
    }
    unreachable!("the last try returns")
}

/// One real run with `--json`: its JSON, after checking the time it took and that it left nothing behind.
fn run(args: &[&str]) -> serde_json::Value {
    let started = Instant::now();
    let out = attempt(&[args, &["--json"]].concat());
    let took = started.elapsed();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    // etcd runs at scale 1 (its lessor looks for expired leases every 500 ms): about 16 s for gc-pause;
    // up to five tries.
    assert!(took < Duration::from_secs(180), "{args:?} took {took:?}");
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The runs made so far, by their arguments. Some tests look closer at a run the table below makes too (its
/// trace, its servers): the run is made once, and every test that names it reads the same one.
static MADE: Mutex<Vec<(Vec<String>, serde_json::Value)>> = Mutex::new(Vec::new());

/// [`run`], made once for every test that asks for the same `args` (each test holds [`serial`] meanwhile).
fn shared(args: &[&str]) -> serde_json::Value {
    let key: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let made =
        |m: &[(Vec<String>, serde_json::Value)]| m.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone());
    if let Some(v) = made(&MADE.lock().unwrap_or_else(|e| e.into_inner())) {
        return v;
    }
    let v = run(args);
    MADE.lock().unwrap_or_else(|e| e.into_inner()).push((key, v.clone()));
    v
}

/// Whether a run's event at `at` came at `want`, give or take 100 ms and the lateness the run itself reports
/// (a loaded machine once put a failover's promotion 337 ms of scenario time late, and the run said so).
fn on_time(run: &serde_json::Value, at: Option<u64>, want: u64) -> bool {
    let late = run["max_jitter_ms"].as_u64().expect("the run's jitter");
    at.is_some_and(|t| t.abs_diff(want) < late + 100)
}

/// Every supported (scenario, backend, switch) combination: the real verdict is the simulated one, and the
/// simulated one is the verdict the combination is there to show.
#[test]
fn every_supported_combination_gives_the_simulated_verdict() {
    require("redis-server");
    require("etcd");
    let _serial = serial();
    let cases: &[(&[&str], &str)] = &[
        // Without --pause, the source's question: A wakes after 15 s.
        (&["--scenario", "gc-pause", "--backend", "redis"], "fenced"),
        (&["--scenario", "gc-pause", "--backend", "redis", "--pause", "5000"], "safe"),
        (
            &["--scenario", "gc-pause", "--backend", "redis", "--pause", "15000", "--fencing", "off"],
            "corrupted",
        ),
        // B holds the lock from 10 s and writes at 13 s; A writes at 11.5 s, 150 ms of real time from both.
        (
            &["--scenario", "gc-pause", "--backend", "redis", "--pause", "11500", "--b-work", "3000"],
            "unfenced-gap",
        ),
        (&["--scenario", "gc-pause", "--backend", "redis", "--pause", "15000", "--lease", "off"], "stalled"),
        (&["--scenario", "setnx-expire", "--backend", "redis"], "orphaned"),
        (&["--scenario", "setnx-expire", "--backend", "redis", "--atomic", "on"], "safe"),
        (&["--scenario", "unsafe-release", "--backend", "redis"], "fenced"),
        (&["--scenario", "unsafe-release", "--backend", "redis", "--release", "compare"], "safe"),
        (&["--scenario", "crash", "--backend", "redis"], "safe"),
        // etcd runs at scale 1: its lessor revokes an expired lease up to 500 ms late, under a tenth of the lease.
        (&["--scenario", "gc-pause", "--backend", "etcd", "--pause", "5000"], "safe"),
        (&["--scenario", "gc-pause", "--backend", "etcd"], "fenced"),
        // A asks the server (PTTL, LeaseTimeToLive) at 2 s, sees its lease valid, then is stopped.
        (&["--scenario", "check-then-pause", "--backend", "redis"], "fenced"),
        (&["--scenario", "check-then-pause", "--backend", "redis", "--fencing", "off"], "corrupted"),
        (&["--scenario", "check-then-pause", "--backend", "redis", "--pause", "3000"], "safe"),
        (&["--scenario", "check-then-pause", "--backend", "etcd"], "fenced"),
        // GET, then a plain SET: both take the lock; with SET NX, B retries every 0.5 s until A releases.
        (&["--scenario", "check-then-set", "--backend", "redis"], "double-grant"),
        (&["--scenario", "check-then-set", "--backend", "redis", "--atomic", "on"], "safe"),
        // B's grant registers 34 at the storage (SQL) before A wakes at 10.5 s.
        (&["--scenario", "register-token", "--backend", "redis"], "fenced"),
        (&["--scenario", "register-token", "--backend", "redis", "--register", "off"], "unfenced-gap"),
        // On etcd at half speed (scale 2): its revocation, up to 500 ms of real time late, is then at most
        // 250 ms of the 0.5 s between B's grant and A's wake.
        (&["--scenario", "register-token", "--backend", "etcd"], "fenced"),
        // A's write goes to a PostgreSQL server through a proxy that holds it 13 s (1.3 s of real time).
        (&["--scenario", "network-delay", "--backend", "redis"], "fenced"),
        (&["--scenario", "network-delay", "--backend", "redis", "--delay", "8500"], "unfenced-gap"),
        (&["--scenario", "network-delay", "--backend", "redis", "--delay", "3000"], "safe"),
        // Five Redis servers; N3's wall clock jumps 9 s at 2 s and Redis expires A's key there itself.
        (&["--scenario", "redlock", "--backend", "redis"], "corrupted"),
        (&["--scenario", "redlock", "--backend", "redis", "--jump", "1000"], "safe"),
        (&["--scenario", "redlock", "--backend", "redis", "--jump", "0", "--pause", "15000"], "corrupted"),
        // The primary dies before replicating A's SET and INCR: the promoted replica hands B token 33 again,
        // and no token can tell the two writes apart.
        (&["--scenario", "failover", "--backend", "redis"], "corrupted"),
        (&["--scenario", "failover", "--backend", "redis", "--fencing", "off"], "corrupted"),
        // WAIT 1: the replica had the key and the counter, so B waits for A's release.
        (&["--scenario", "failover", "--backend", "redis", "--sync", "on"], "safe"),
        (&["--scenario", "failover", "--backend", "redis", "--sync", "on", "--fencing", "off"], "safe"),
        // etcd's lock recipe on one member, at scale 1 like gc-pause: A wakes at 15 s.
        (&["--scenario", "etcd", "--backend", "etcd"], "fenced"),
        (&["--scenario", "etcd", "--backend", "etcd", "--fencing", "off"], "corrupted"),
        // A three-member ZooKeeper ensemble: A's session expires while it is stopped, its znode goes.
        (&["--scenario", "zookeeper", "--backend", "zookeeper"], "fenced"),
        (&["--scenario", "zookeeper", "--backend", "zookeeper", "--fencing", "off"], "corrupted"),
    ];
    for (args, expected) in cases {
        let v = shared(args);
        if args.len() == 4 && ["gc-pause", "etcd", "zookeeper"].contains(&args[1]) {
            assert_eq!(v["inputs"]["pause"], 15_000, "{args:?}: the source's pause");
        }
        if args.len() == 4 {
            let scale = match (args[1], args[3]) {
                ("register-token", "etcd") => 2.0,
                (_, "etcd") => 1.0,
                (_, "zookeeper") => 0.5,
                _ => 0.1,
            };
            assert_eq!(v["scale"], scale, "{args:?}: its default scale");
        }
        // The bound every run must keep to give a verdict: under a tenth of the 10 s lease.
        assert!(v["max_jitter_ms"].as_u64().is_some_and(|j| j < 1_000), "{args:?}: {v}");
        assert_eq!(v["simulated"], *expected, "{args:?}");
        assert_eq!(v["real"], v["simulated"], "{args:?}: {v}");
        assert_eq!(v["backend"], args[3]);
        assert!(v["version"].as_str().is_some_and(|s| s.starts_with(|c: char| c.is_ascii_digit())), "{v}");
        let events = v["trace"]["events"].as_array().expect("events");
        assert_eq!(v["jitter_ms"].as_array().map(Vec::len), Some(events.len()));
        assert!(v["max_jitter_ms"].as_u64().is_some());
        // Every input given that differs from the scenario's default is in `changed`, as a link writes it.
        for pair in args[4..].chunks(2) {
            let (name, value) = (pair[0].trim_start_matches("--").replace('-', "_"), pair[1]);
            let given =
                value.parse::<u64>().map_or_else(|_| serde_json::json!(value), |n| serde_json::json!(n));
            assert_eq!(v["changed"][&name], given, "{args:?}: {}", v["changed"]);
        }
    }
}

#[test]
fn text_output_ends_with_both_verdicts_and_shows_the_jitter() {
    require("redis-server");
    let _serial = serial();
    let out = attempt(&["--scenario", "gc-pause", "--backend", "redis", "--pause", "15000"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.last().copied().unwrap_or("");
    assert!(last.starts_with("simulated: fenced   real (redis 7.") && last.ends_with("): fenced"), "{text}");
    assert!(lines[1].contains("jitter") && lines.iter().any(|l| l.starts_with("max jitter: ")), "{text}");
    assert!(text.contains("reject      33  33 < 34"), "{text}");
}

/// The failover run draws the server lanes the simulation draws: the primary holds A's key until it
/// crashes, and the replica is promoted with the key and counter only if A's changes were acknowledged
/// (WAIT 1) before the crash.
#[test]
fn a_failover_run_crashes_the_primary_and_promotes_the_replica_with_or_without_the_key() {
    require("redis-server");
    let _serial = serial();
    for (sync, kept) in [("off", false), ("on", true)] {
        // The table's runs: sync is off by default.
        let v = match sync {
            "on" => shared(&["--scenario", "failover", "--backend", "redis", "--sync", "on"]),
            _ => shared(&["--scenario", "failover", "--backend", "redis"]),
        };
        let nodes = v["trace"]["nodes"].as_array().expect("server lanes");
        assert_eq!(nodes.len(), 2, "sync {sync}: {v}");
        assert!(on_time(&v, nodes[0]["down"].as_u64(), 500), "sync {sync}: {v}");
        let promoted = &nodes[1]["promoted"];
        assert!(on_time(&v, promoted[0].as_u64(), 2_000), "sync {sync}: {v}");
        assert_eq!(promoted[1], kept, "sync {sync}: {v}");
        // A's key on the primary; with WAIT, on the replica too.
        let holds_a =
            |n: &serde_json::Value| n["keys"].as_array().is_some_and(|k| k.iter().any(|k| k[1] == 0));
        assert!(holds_a(&nodes[0]));
        assert_eq!(holds_a(&nodes[1]), kept, "sync {sync}: {v}");
        // The promoted replica counts B's grant from its own counter: 33 again without sync, 34 with it.
        let tokens: Vec<u64> =
            v["trace"]["leases"].as_array().unwrap().iter().map(|l| l["token"].as_u64().unwrap()).collect();
        assert_eq!(tokens, if kept { [33, 34] } else { [33, 33] }, "sync {sync}");
        // B waited for A, although the primary it would have asked was dead.
        let wait = v["trace"]["events"].as_array().unwrap().iter().find(|e| e["event"] == "wait").cloned();
        assert_eq!(wait.map(|w| w["holder"].clone()), Some(serde_json::json!(0)), "sync {sync}: {v}");
    }
}

/// Three etcd members; at 5 s the conductor asks who leads and SIGKILLs that member. The other two elect a
/// new leader, whose lessor re-arms A's lease (observed from the lease's TTL, not assumed): A, paused from
/// 0 to 15 s, still holds the lock when it wakes, as in the model.
#[test]
fn an_etcd_leader_crash_is_a_real_sigkill_and_the_new_leader_re_arms_the_lease() {
    require("etcd");
    let _serial = serial();
    let v = run(&["--scenario", "etcd", "--backend", "etcd", "--leader-crash", "5000"]);
    assert_eq!(v["real"], "safe", "{v}");
    assert_eq!(v["real"], v["simulated"]);
    let events = v["trace"]["events"].as_array().unwrap();
    let election = events.iter().find(|e| e["event"] == "election").expect("an election");
    let (crash, led) = (election["at"].as_u64().unwrap(), election["until"].as_u64().unwrap());
    assert!(on_time(&v, Some(crash), 5_000) && led > crash && led < crash + 5_000, "{v}");
    let renew =
        events.iter().find(|e| e["event"] == "renew" && e["worker"] == 0).expect("A's lease re-armed");
    assert!(renew["expires"].as_u64().is_some_and(|t| t > 15_000), "past A's wake: {v}");
}

/// ZooKeeper's recipe on a real ensemble: the token is the lock znode's czxid (the counter of the zxid that
/// created it, within the run's one epoch), and A's session, whose heartbeats stop with it, really expires after the ttl.
#[test]
fn a_stopped_zookeeper_client_s_session_expires_and_its_znode_goes() {
    require("java");
    let _serial = serial();
    let v = shared(&["--scenario", "zookeeper", "--backend", "zookeeper"]);
    assert_eq!(v["real"], "fenced", "{v}");
    let events = v["trace"]["events"].as_array().unwrap();
    let expire = events.iter().find(|e| e["event"] == "expire").expect("A's session expired");
    assert_eq!(expire["worker"], 0);
    assert!(expire["at"].as_u64().is_some_and(|t| (10_000..11_000).contains(&t)), "{v}");
    let leases = v["trace"]["leases"].as_array().unwrap();
    let (a, b) = (leases[0]["token"].as_u64().unwrap(), leases[1]["token"].as_u64().unwrap());
    assert!(a > 1 && b > a && b < 1 << 32, "czxid counters of one epoch, B's after A's: {a}, {b}");
}

/// etcd's lock recipe: B's token is the revision of the key it put when it asked, right after A's, and its
/// lease is renewed while it holds the lock and runs (here B works past a third of the lease).
#[test]
fn the_etcd_recipe_gives_each_waiter_its_request_revision_and_renews_the_running_holder() {
    require("etcd");
    let _serial = serial();
    let v = run(&[
        "--scenario",
        "etcd",
        "--backend",
        "etcd",
        "--pause",
        "20000",
        "--b-work",
        "5000",
        "--scale",
        "0.7",
    ]);
    assert_eq!(v["real"], "fenced", "{v}");
    assert_eq!(v["real"], v["simulated"]);
    let leases = v["trace"]["leases"].as_array().unwrap();
    let (a, b) = (leases[0]["token"].as_u64().unwrap(), leases[1]["token"].as_u64().unwrap());
    assert_eq!(b, a + 1, "B's key was put right after A's: {v}");
    let renewals: Vec<&serde_json::Value> =
        v["trace"]["events"].as_array().unwrap().iter().filter(|e| e["event"] == "renew").collect();
    assert_eq!(renewals.len(), 1, "B renews once, a third of the lease after its grant: {v}");
    assert_eq!(renewals[0]["worker"], 1);
}

#[test]
fn unsupported_pairs_and_bad_flags_exit_2() {
    for args in [
        &["real", "--scenario", "check-then-set", "--backend", "etcd"][..],
        &["real", "--scenario", "network-delay", "--backend", "etcd"],
        &["real", "--scenario", "lock-delay", "--backend", "redis"],
        &["real", "--scenario", "setnx-expire", "--backend", "etcd"],
        &["real", "--scenario", "failover", "--backend", "etcd"],
        &["real", "--scenario", "etcd", "--backend", "redis"],
        &["real", "--scenario", "redlock", "--backend", "etcd"],
        &["real", "--scenario", "zookeeper", "--backend", "etcd"],
        &["real", "--scenario", "gc-pause"],
        &["real", "--backend", "zookeeper"],
        &["real", "--backend", "redis", "--scale", "7"],
        &["real", "--backend", "etcd", "--ttl", "2500"],
    ] {
        let out = locksim().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("locksim: "), "{err}");
    }
    let out = locksim().args(["real", "--scenario", "check-then-set", "--backend", "etcd"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("check-then-set has no real run on etcd") && err.contains("gc-pause (redis, etcd)"),
        "{err}"
    );
    assert!(err.contains("check-then-set (redis)") && err.contains("redlock (redis)"), "{err}");
    // lock-delay: no packaged lock service offers it, whatever the backend.
    for backend in ["redis", "etcd"] {
        let out =
            locksim().args(["real", "--scenario", "lock-delay", "--backend", backend]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("lock-delay has no real run") && err.contains("offers lock-delay"), "{err}");
    }
    assert!(err.contains("failover (redis)") && err.contains("etcd (etcd)"), "{err}");
}

#[test]
fn a_missing_server_names_the_setup_script() {
    let out = locksim().args(["real", "--backend", "redis"]).env("PATH", "/nonexistent").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("redis-server is not installed") && err.contains("scripts/setup.sh --real"),
        "{err}"
    );
}

/// Starts a long gc-pause run and returns once worker A is stopped (SIGSTOP), with what the run started.
fn start_and_wait_for_the_pause(backend: &str) -> (Child, Started) {
    // The server's line, then one per worker; A is the second process.
    let args = ["--scenario", "gc-pause", "--backend", backend, "--pause", "30000"];
    let (child, started, _) = start_until_stopped(&args, 3, 1, "worker A");
    (child, started)
}

/// Starts `locksim real` with `args`, reads the lines of its `processes` started processes, and returns once
/// the `stopped`-th of them (`what`) is stopped (SIGSTOP), with what the run started.
/// The rest of its standard error comes from the handle, once the run has ended.
fn start_until_stopped(
    args: &[&str],
    processes: usize,
    stopped: usize,
    what: &str,
) -> (Child, Started, std::thread::JoinHandle<String>) {
    let mut child =
        locksim().arg("real").args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut started = Started::default();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    while started.pids.len() < processes {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "locksim ended early");
        Started::read(&line, &mut started);
    }
    let rest = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut rest);
        rest
    });
    let pid = started.pids[stopped];
    let deadline = Instant::now() + Duration::from_secs(5);
    while state(pid) != Some('T') {
        assert!(Instant::now() < deadline, "{what} was never stopped");
        std::thread::sleep(Duration::from_millis(5));
    }
    (child, started, rest)
}

fn signal(child: &Child, signal: i32) {
    // SAFETY: kill(2) on a child this test spawned and has not reaped.
    unsafe { libc::kill(child.id() as i32, signal) };
}

/// Ctrl-C, SIGTERM, a closed terminal (SIGHUP) and Ctrl-\ (SIGQUIT) all stop the run cleanly.
#[test]
fn a_stop_signal_mid_pause_stops_everything_and_removes_the_directory() {
    require("redis-server");
    let _serial = serial();
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGQUIT] {
        let (mut child, started) = start_and_wait_for_the_pause("redis");
        signal(&child, sig);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(128 + sig), "signal {sig}: {status}");
        assert_gone(&started, true, &format!("after signal {sig}"));
    }
}

/// Redlock on five real servers: A's requests to N4 and N5 are refused, N3's own clock jumps at 2 s and
/// Redis drops A's key there by itself (no release), so A has lost its majority when B takes N3–N5.
#[test]
fn redlock_runs_on_five_servers_and_a_jumping_clock_expires_the_key_on_n3_early() {
    require("redis-server");
    let _serial = serial();
    let v = shared(&["--scenario", "redlock", "--backend", "redis"]);
    assert_eq!(v["real"], "corrupted", "{v}");
    let events = v["trace"]["events"].as_array().unwrap();
    let node = |e: &serde_json::Value, n: u64, change: &str| {
        e["event"] == "node" && e["node"] == n && e["change"].get(change).is_some()
    };
    // A set its key on N1–N3 only.
    let a_set: Vec<u64> = events
        .iter()
        .filter(|e| e["event"] == "node" && e["change"]["set"] == 0)
        .map(|e| e["node"].as_u64().unwrap())
        .collect();
    assert_eq!(a_set, [0, 1, 2], "{v}");
    let jump = events.iter().find(|e| node(e, 2, "jump")).expect("N3's clock jumped");
    let clear =
        events.iter().find(|e| node(e, 2, "clear") && e["change"]["clear"] == 0).expect("N3 dropped A's key");
    let (jumped, cleared) = (jump["at"].as_u64().unwrap(), clear["at"].as_u64().unwrap());
    assert!(cleared >= jumped && cleared - jumped < 200 && cleared < 3_000, "{v}");
}

/// Without sync the replica is stopped (SIGSTOP) from before t = 0 until its promotion: stopping the run
/// then (scale 1: the promotion is 2 s away) still leaves nothing behind, the stopped replica included.
#[test]
fn sigterm_while_the_replica_is_stopped_stops_everything() {
    require("redis-server");
    let _serial = serial();
    // The primary's line, the replica's, then one per worker.
    let args = ["--scenario", "failover", "--backend", "redis", "--scale", "1"];
    // A stall of the shared machine before the signal ends the run without a verdict (as `attempt` says):
    // tried again after a pause, four times at most.
    for n in 1..=5 {
        let (mut child, started, rest) = start_until_stopped(&args, 4, 1, "the replica");
        assert_eq!(started.ports.len(), 2, "{started:?}");
        signal(&child, libc::SIGTERM);
        let status = child.wait().unwrap();
        let rest = rest.join().unwrap_or_default();
        assert_gone(&started, true, "after SIGTERM with the replica stopped");
        if n < 5 && status.code() == Some(1) && rest.contains("could not keep its timing") {
            eprintln!("{args:?}: {}", rest.lines().last().unwrap_or(""));
            std::thread::sleep(Duration::from_secs(2));
            continue;
        }
        assert_eq!(status.code(), Some(128 + libc::SIGTERM), "{status}: {rest}");
        return;
    }
}

#[test]
fn sigkill_of_the_conductor_takes_its_children_down_and_the_next_run_sweeps_its_directory() {
    require("redis-server");
    require("etcd");
    require("java");
    let _serial = serial();
    for backend in ["redis", "etcd", "zookeeper"] {
        let (mut child, started) = if backend == "zookeeper" {
            // Three members (java itself, not a script that would leave it behind), then A and B.
            let args = ["--scenario", "zookeeper", "--backend", "zookeeper", "--pause", "30000"];
            let (child, started, _) = start_until_stopped(&args, 5, 3, "worker A");
            (child, started)
        } else {
            start_and_wait_for_the_pause(backend)
        };
        signal(&child, libc::SIGKILL);
        child.wait().unwrap();
        // No destructor ran: the kernel's PR_SET_PDEATHSIG killed the server and the workers.
        assert_gone(&started, false, &format!("after SIGKILL ({backend})"));
        let dir: &Path = started.dir.as_deref().unwrap();
        assert!(dir.exists(), "the killed conductor could not remove {}", dir.display());
        run(&["--scenario", "crash", "--backend", "redis"]);
        assert!(!dir.exists(), "the next run left {} behind", dir.display());
    }
}

/// The etcd client on its own: put-if-absent, compare-and-delete, and a lease that lives while its holder
/// renews it and runs out once it stops.
#[test]
fn an_etcd_lease_lives_while_renewed_and_runs_out_when_renewal_stops() {
    use fencing_lab::real::etcd::Etcd;
    use fencing_lab::real::lock::{LockClient, Take};
    use fencing_lab::real::servers::{self, Processes};
    use fencing_lab::real::Backend;

    require("etcd");
    let _serial = serial();
    let mut procs = Processes::new().unwrap();
    let binary = servers::find("etcd").unwrap();
    let port = servers::start(Backend::Etcd, &binary, &mut procs, &|| false).unwrap();
    let (mut a, mut b) = (Etcd::new(port), Etcd::new(port));
    let first = a.take("A.1", Take::Lease(1_000)).unwrap().expect("the lock is free");
    assert_eq!(b.take("B.1", Take::Lease(1_000)).unwrap(), None, "taken twice");
    assert!(!b.release_compare("B.1").unwrap(), "deleted someone else's lock");
    // Two and a half TTLs: only renewal keeps the key.
    std::thread::sleep(Duration::from_millis(2_500));
    assert_eq!(b.holder().unwrap().as_deref(), Some("A.1"));
    drop(a);
    let stopped = Instant::now();
    while b.holder().unwrap().is_some() {
        assert!(stopped.elapsed() < Duration::from_secs(3), "the lease never ran out");
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = b.take("B.1", Take::Lease(1_000)).unwrap().expect("free after the expiry");
    assert!(second.token > first.token, "revisions grow: {} then {}", first.token, second.token);
    assert!(b.release_compare("B.1").unwrap());
}

/// A worker that dies mid-run (here A, killed while stopped) fails the run, which still stops everything.
#[test]
fn a_worker_that_dies_fails_the_run_and_leaves_nothing_behind() {
    require("redis-server");
    let _serial = serial();
    let (mut child, started) = start_and_wait_for_the_pause("redis");
    // SAFETY: kill(2) on worker A, a process of this test's run.
    unsafe { libc::kill(started.pids[1] as i32, libc::SIGKILL) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{status}");
    assert_gone(&started, true, "after worker A died");
}

/// A server that will not start (a `redis-server` that exits at once) fails the run with its reason, and
/// the run's directory goes with it.
#[test]
fn a_server_that_will_not_start_fails_the_run_and_leaves_nothing_behind() {
    let fake = std::env::temp_dir().join(format!("locksim-fake-bin-{}", std::process::id()));
    std::fs::create_dir_all(&fake).unwrap();
    let script = fake.join("redis-server");
    std::fs::write(
        &script,
        "#!/bin/sh\n[ \"$1\" = --version ] && echo 'Redis server v=7.0.15' && exit 0\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", fake.display(), std::env::var("PATH").unwrap_or_default());
    let child = locksim()
        .args(["real", "--scenario", "crash", "--backend", "redis"])
        .env("PATH", path)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&fake);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("redis-server did not start"), "{err}");
    let left = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().starts_with(&format!("locksim-real-{pid}-")));
    assert!(!left, "the run's directory is still there");
}
