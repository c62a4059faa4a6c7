//! What a real run starts and must stop: the lock server and the workers, in a temporary directory.
//!
//! Three layers make sure nothing outlives the run. [`Processes`] kills and reaps every child when dropped
//! (a normal end, an error, or Ctrl-C/SIGTERM, which the conductor turns into an early return). Every child
//! also asks the kernel for SIGKILL when its parent dies (`prctl(PR_SET_PDEATHSIG)`), which covers a
//! conductor killed by SIGKILL: no destructor runs then. And each child gets its own process group, so a
//! Ctrl-C in the terminal reaches only the conductor, which stops the others itself.

use std::ffi::OsStr;
use std::fs;
use std::io::{self, Read};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use nix::sys::prctl::set_pdeathsig;
use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::{getppid, setpgid, Pid};

use super::clock::now_ns;
use super::{etcd, redis::Redis, Backend, Failure};

/// Every temporary directory of a real run starts with this, then the conductor's PID.
const DIR_PREFIX: &str = "locksim-real-";

/// A fresh temporary directory (removed when dropped, by `tempfile`), named for this conductor. Directories
/// left by conductors that were killed (no destructor ran) are removed first: their PID is in the name.
pub fn temp_dir() -> io::Result<tempfile::TempDir> {
    let base = std::env::temp_dir();
    for entry in fs::read_dir(&base)?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let pid = name.strip_prefix(DIR_PREFIX).and_then(|rest| rest.split('-').next()?.parse::<u32>().ok());
        if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
    tempfile::Builder::new().prefix(&format!("{DIR_PREFIX}{}-", std::process::id())).tempdir_in(base)
}

/// The children of one run; dropping it kills (SIGKILL, which also ends a stopped process) and reaps them
/// all, workers first, then removes the directory.
pub struct Processes {
    /// What each child is ("redis-server", "worker A") and the child.
    pub children: Vec<(String, Child)>,
    dir: tempfile::TempDir,
}

impl Processes {
    /// No children yet, and a fresh temporary directory.
    pub fn new() -> io::Result<Processes> {
        Ok(Processes { children: Vec::new(), dir: temp_dir()? })
    }

    /// The run's temporary directory.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Processes {
    fn drop(&mut self) {
        // PostgreSQL's immediate shutdown (SIGQUIT): the server stops its backends and reaps them itself.
        for (name, child) in self.children.iter_mut() {
            if name == "postgres" && child.try_wait().ok().flatten().is_none() {
                signal(child.id(), Signal::SIGQUIT);
                let deadline = now_ns() + 2_000_000_000;
                while child.try_wait().ok().flatten().is_none() && now_ns() < deadline {
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        }
        for (_, child) in self.children.iter_mut().rev() {
            // Each child leads its own process group: what it started itself (PostgreSQL's backends) goes too.
            if child.try_wait().ok().flatten().is_none() {
                let _ = killpg(pid(child.id()), Signal::SIGKILL);
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A command whose process dies with its parent and sits in its own process group.
///
/// PR_SET_PDEATHSIG fires when the *thread* that forked the child ends, so the conductor spawns every child
/// from its main thread, which lives until the run is over.
pub fn child_command(program: impl AsRef<OsStr>) -> Command {
    let mut cmd = Command::new(program);
    let parent = i32::try_from(std::process::id()).unwrap_or(0);
    // SAFETY: between fork and exec the closure calls only async-signal-safe functions (prctl, getppid,
    // setpgid, _exit) and allocates nothing.
    unsafe {
        cmd.pre_exec(move || dies_with(parent).map_err(io::Error::from));
    }
    cmd
}

/// In a forked child before exec: die with the parent (`PR_SET_PDEATHSIG`) and lead a process group of its
/// own. Only async-signal-safe calls.
pub fn dies_with(parent: i32) -> nix::Result<()> {
    set_pdeathsig(Signal::SIGKILL)?;
    // The parent may have died before the prctl: then no signal would ever come.
    if getppid().as_raw() != parent {
        // SAFETY: _exit(2) is async-signal-safe and runs no destructor of the parent's state.
        unsafe { libc::_exit(1) };
    }
    setpgid(Pid::from_raw(0), Pid::from_raw(0))
}

/// `pid` as nix's.
fn pid(pid: u32) -> Pid {
    Pid::from_raw(i32::try_from(pid).unwrap_or(i32::MAX))
}

/// Sends `signal` to `pid`, a child of this process not reaped yet (a child already gone: nothing).
pub fn signal(to: u32, signal: Signal) {
    let _ = kill(pid(to), signal);
}

/// Waits (briefly) until the kernel reports `pid` stopped, so a pause is stamped when it really began.
pub fn wait_stopped(pid: u32) {
    let deadline = now_ns() + 100_000_000;
    while now_ns() < deadline {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // The state follows the command name in parentheses: "1234 (locksim) T ...".
        if stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with(['T', 't'])) {
            return;
        }
        std::thread::sleep(Duration::from_micros(50));
    }
}

/// A port on loopback that is free now (the kernel picks it).
pub fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Where `binary` is on `PATH`.
pub fn find(binary: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(binary)).find(|p| p.is_file())
}

/// The server's version, as its `--version` says it: `7.0.15`, `3.4.23`.
pub fn version(backend: Backend, binary: &Path) -> Result<String, Failure> {
    let out = Command::new(binary)
        .arg("--version")
        .output()
        .map_err(|e| Failure::Broken(format!("{} --version: {e}", binary.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let found = match backend {
        Backend::Redis => text.split_whitespace().find_map(|w| w.strip_prefix("v=")),
        Backend::Etcd => text.lines().find_map(|l| l.strip_prefix("etcd Version:")).map(str::trim),
        // Its members say it once they run (`srvr`).
        Backend::Zookeeper => None,
    };
    found.map(str::to_owned).ok_or_else(|| Failure::Broken(format!("no version in {:?}", text.trim())))
}

/// Starts the server for `backend` on a free loopback port, its files in the run's directory, and waits
/// until it answers. Its port. A port is free when chosen but may be taken before the server binds it:
/// a server that exits at once is started again on another port, twice at most.
pub fn start(
    backend: Backend,
    binary: &Path,
    procs: &mut Processes,
    stop: &dyn Fn() -> bool,
) -> Result<u16, Failure> {
    start_as(backend, binary, None, &[], procs, stop)
}

/// Starts a Redis server named `name`, its files in `name/` of the run's directory, with `env` added to
/// its environment (a preload library for Redlock's N3). Its port.
pub fn start_named(
    binary: &Path,
    name: &str,
    env: &[(&str, &OsStr)],
    procs: &mut Processes,
    stop: &dyn Fn() -> bool,
) -> Result<u16, Failure> {
    start_as(Backend::Redis, binary, Some(name), env, procs, stop)
}

/// Starts a Redis server, its files in `replica/` of the run's directory, and makes it a replica of the
/// primary on loopback at `primary` (it answers, but may not have copied the primary yet). Its port.
pub fn start_replica(
    binary: &Path,
    primary: u16,
    procs: &mut Processes,
    stop: &dyn Fn() -> bool,
) -> Result<u16, Failure> {
    let port = start_as(Backend::Redis, binary, Some("replica"), &[], procs, stop)?;
    // As a command, REPLICAOF connects to the primary at once; as `--replicaof` it would wait for the
    // replication cron, up to a second.
    Redis::connect(port)
        .and_then(|mut r| r.call(&["REPLICAOF", "127.0.0.1", &primary.to_string()]))
        .map_err(|e| Failure::Broken(format!("REPLICAOF: {e}")))?;
    Ok(port)
}

fn start_as(
    backend: Backend,
    binary: &Path,
    name: Option<&str>,
    env: &[(&str, &OsStr)],
    procs: &mut Processes,
    stop: &dyn Fn() -> bool,
) -> Result<u16, Failure> {
    with_retries(procs, |procs, _| start_once(backend, binary, name, env, procs, stop))
}

/// `once`, tried up to three times (it is given the try's number, from 1). A server that exits before it
/// answers most often lost a port to another process between `free_port` and its bind (runs start side by
/// side): what the try started is stopped, and the next try starts again on new ports.
fn with_retries<T>(
    procs: &mut Processes,
    mut once: impl FnMut(&mut Processes, usize) -> Result<T, Start>,
) -> Result<T, Failure> {
    let first = procs.children.len();
    let mut attempt = 1;
    loop {
        match once(procs, attempt) {
            Err(Start::Exited(_)) if attempt < 3 => {
                for (_, mut started) in procs.children.drain(first..) {
                    let _ = started.kill();
                    let _ = started.wait();
                }
                attempt += 1;
            }
            Err(Start::Exited(msg)) => return Err(Failure::Broken(msg)),
            Err(Start::Failed(f)) => return Err(f),
            Ok(started) => return Ok(started),
        }
    }
}

enum Start {
    /// The server exited before it answered.
    Exited(String),
    /// Anything else.
    Failed(Failure),
}

fn start_once(
    backend: Backend,
    binary: &Path,
    name: Option<&str>,
    env: &[(&str, &OsStr)],
    procs: &mut Processes,
    stop: &dyn Fn() -> bool,
) -> Result<u16, Start> {
    let broken = |what: &str, e: io::Error| Start::Failed(Failure::Broken(format!("{what}: {e}")));
    let port = free_port().map_err(|e| broken("no free port", e))?;
    let (dir, log_name) = match name {
        Some(name) => (procs.dir().join(name), format!("{name}.log")),
        None => (procs.dir().to_path_buf(), "server.log".to_owned()),
    };
    fs::create_dir_all(&dir).map_err(|e| broken("server directory", e))?;
    let log_path = dir.join(log_name);
    let log = fs::File::create(&log_path).map_err(|e| broken("server log", e))?;
    let mut cmd = child_command(binary);
    cmd.envs(env.iter().copied());
    match backend {
        // --hz 100: keys nobody touches expire within about 10 ms of real time (the default, 10, allows 100).
        // --repl-diskless-sync no: a replica gets an RDB file at once and then every write as it happens; a
        // diskless sync waits 5 s for more replicas and may hold back the writes made meanwhile until the
        // replica's next acknowledgement, a second later.
        Backend::Redis => cmd
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(&dir)
            .args(["--hz", "100", "--repl-diskless-sync", "no"]),
        Backend::Zookeeper => {
            return Err(Start::Failed(Failure::Broken("ZooKeeper starts as an ensemble".into())));
        }
        Backend::Etcd => {
            let peer = free_port().map_err(|e| broken("no free port", e))?;
            let client = format!("http://127.0.0.1:{port}");
            let peer = format!("http://127.0.0.1:{peer}");
            // Short heartbeat and election: a single node leads at once, and etcd's minimum lease TTL (1.5
            // election timeouts) drops to 1 s, so a 10 s lease at scale 0.1 is not raised to 2 s.
            cmd.arg("--data-dir")
                .arg(dir.join("etcd"))
                .args([
                    "--name",
                    "locksim",
                    "--listen-client-urls",
                    &client,
                    "--advertise-client-urls",
                    &client,
                ])
                .args(["--listen-peer-urls", &peer, "--initial-advertise-peer-urls", &peer])
                .args(["--initial-cluster", &format!("locksim={peer}")])
                .args(["--heartbeat-interval", "10", "--election-timeout", "100"])
        }
    };
    let err = log.try_clone().map_err(|e| broken("server log", e))?;
    let child = cmd
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(err)
        .spawn()
        .map_err(|e| broken(&format!("starting {}", binary.display()), e))?;
    let name = match name {
        Some(name) => format!("{} {name}", backend.server_binary()),
        None => backend.server_binary().to_owned(),
    };
    procs.children.push((name, child));
    let deadline = now_ns() + 15_000_000_000;
    loop {
        if stop() {
            return Err(Start::Failed(Failure::Interrupted));
        }
        let answered = match backend {
            Backend::Redis => Redis::connect(port).and_then(|mut r| r.call(&["PING"])).is_ok(),
            Backend::Etcd => etcd::post(port, "/v3/kv/range", &serde_json::json!({ "key": "eA==" })).is_ok(),
            Backend::Zookeeper => false,
        };
        if answered {
            return Ok(port);
        }
        let exited = procs.children.last_mut().and_then(|(_, c)| c.try_wait().ok().flatten());
        if exited.is_some() || now_ns() > deadline {
            let mut log = String::new();
            let _ = fs::File::open(&log_path).and_then(|mut f| f.read_to_string(&mut log));
            let tail: Vec<&str> = log.lines().rev().take(5).collect();
            let msg = format!(
                "{} did not start on port {port}: {}",
                backend.server_binary(),
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
            return Err(if exited.is_some() {
                Start::Exited(msg)
            } else {
                Start::Failed(Failure::Broken(msg))
            });
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Starts a cluster of `members` etcd members on loopback, each in `mN/` of the run's directory, and waits
/// until every member answers a linearizable read (so a leader is elected). Their client ports.
///
/// Heartbeat 50 ms and election timeout 500 ms: a follower calls an election after a randomized one to two
/// timeouts without a heartbeat, so a crashed leader is replaced in about 0.5 to 1 s, around the model's 1 s
/// (etcd's lessor then extends every lease by the election timeout).
pub fn start_etcd_cluster(
    binary: &Path,
    members: usize,
    procs: &mut Processes,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<u16>, Failure> {
    let broken = |what: &str, e: io::Error| Failure::Broken(format!("{what}: {e}"));
    let mut clients = Vec::new();
    let mut peers = Vec::new();
    for _ in 0..members {
        clients.push(free_port().map_err(|e| broken("no free port", e))?);
        peers.push(free_port().map_err(|e| broken("no free port", e))?);
    }
    let cluster: Vec<String> =
        peers.iter().enumerate().map(|(i, p)| format!("m{}=http://127.0.0.1:{p}", i + 1)).collect();
    let cluster = cluster.join(",");
    let first = procs.children.len();
    for i in 0..members {
        let name = format!("m{}", i + 1);
        let dir = procs.dir().join(&name);
        fs::create_dir_all(&dir).map_err(|e| broken("member directory", e))?;
        let log = fs::File::create(dir.join("etcd.log")).map_err(|e| broken("member log", e))?;
        let err = log.try_clone().map_err(|e| broken("member log", e))?;
        let client = format!("http://127.0.0.1:{}", clients[i]);
        let peer = format!("http://127.0.0.1:{}", peers[i]);
        let child = child_command(binary)
            .arg("--data-dir")
            .arg(dir.join("data"))
            .args(["--name", &name, "--listen-client-urls", &client, "--advertise-client-urls", &client])
            .args(["--listen-peer-urls", &peer, "--initial-advertise-peer-urls", &peer])
            .args(["--initial-cluster", &cluster, "--initial-cluster-state", "new"])
            .args(["--heartbeat-interval", "50", "--election-timeout", "500"])
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .spawn()
            .map_err(|e| broken(&format!("starting {}", binary.display()), e))?;
        procs.children.push((format!("etcd {name}"), child));
    }
    let deadline = now_ns() + 20_000_000_000;
    let mut ready = vec![false; members];
    while ready.iter().any(|r| !r) {
        if stop() {
            return Err(Failure::Interrupted);
        }
        for (i, r) in ready.iter_mut().enumerate() {
            *r = *r || etcd::post(clients[i], "/v3/kv/range", &serde_json::json!({ "key": "eA==" })).is_ok();
        }
        let exited = procs.children[first..].iter_mut().any(|(_, c)| c.try_wait().ok().flatten().is_some());
        if exited || now_ns() > deadline {
            return Err(Failure::Broken(format!(
                "the etcd cluster did not start (see {}/m*/etcd.log)",
                procs.dir().display()
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(clients)
}

/// Debian's ZooKeeper server: its jar (whose manifest names its dependencies) and the class to run.
const ZOOKEEPER_JAR: &str = "/usr/share/java/zookeeper.jar";

/// Where ZooKeeper is: `java`, if Debian's `zookeeper` package is installed.
pub fn find_zookeeper() -> Option<PathBuf> {
    Path::new(ZOOKEEPER_JAR).is_file().then(|| find("java")).flatten()
}

/// What a ZooKeeper member says to the four-letter word `word` on loopback at `port`.
pub fn four_letters(port: u16, word: &str) -> io::Result<String> {
    use std::io::Write;
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(2)))?;
    stream.write_all(word.as_bytes())?;
    let mut reply = String::new();
    stream.read_to_string(&mut reply)?;
    Ok(reply)
}

/// Starts a ZooKeeper ensemble of `members` on loopback, each in `zN/` of the run's directory, and waits
/// until every member is a leader or a follower. Their client ports and the version the members report.
///
/// `java` runs ZooKeeper's main class itself (what `zkServer.sh start-foreground` does in a child), so the
/// kernel kills it with the conductor (`PR_SET_PDEATHSIG`). tickTime 100 ms: sessions expire on the tick,
/// so up to 100 ms late; the session timeout may be from 200 ms to 60 s.
pub fn start_zookeeper(
    java: &Path,
    members: usize,
    procs: &mut Processes,
    stop: &dyn Fn() -> bool,
) -> Result<(Vec<u16>, String), Failure> {
    // A member that exits before the ensemble forms: the whole ensemble starts again.
    with_retries(procs, |procs, attempt| start_zookeeper_once(java, members, procs, stop, attempt))
}

/// One try of [`start_zookeeper`], its members in `zN/` (`zN-<attempt>/` after the first).
fn start_zookeeper_once(
    java: &Path,
    members: usize,
    procs: &mut Processes,
    stop: &dyn Fn() -> bool,
    attempt: usize,
) -> Result<(Vec<u16>, String), Start> {
    let broken = |what: &str, e: io::Error| Start::Failed(Failure::Broken(format!("{what}: {e}")));
    let mut ports = Vec::new();
    let mut servers = Vec::new();
    for i in 1..=members {
        ports.push(free_port().map_err(|e| broken("no free port", e))?);
        let quorum = free_port().map_err(|e| broken("no free port", e))?;
        let election = free_port().map_err(|e| broken("no free port", e))?;
        servers.push(format!("server.{i}=127.0.0.1:{quorum}:{election}"));
    }
    let first = procs.children.len();
    for i in 1..=members {
        let dir = match attempt {
            1 => procs.dir().join(format!("z{i}")),
            n => procs.dir().join(format!("z{i}-{n}")),
        };
        let data = dir.join("data");
        fs::create_dir_all(&data).map_err(|e| broken("member directory", e))?;
        fs::write(data.join("myid"), format!("{i}\n")).map_err(|e| broken("myid", e))?;
        let cfg = format!(
            "tickTime=100\ninitLimit=50\nsyncLimit=20\ndataDir={}\nclientPort={}\nclientPortAddress=127.0.0.1\n\
             admin.enableServer=false\n4lw.commands.whitelist=ruok,srvr\nminSessionTimeout=200\n\
             maxSessionTimeout=60000\n{}\n",
            data.display(),
            ports[i - 1],
            servers.join("\n")
        );
        let cfg_path = dir.join("zoo.cfg");
        fs::write(&cfg_path, cfg).map_err(|e| broken("zoo.cfg", e))?;
        let log = fs::File::create(dir.join("zookeeper.log")).map_err(|e| broken("member log", e))?;
        let err = log.try_clone().map_err(|e| broken("member log", e))?;
        let child = child_command(java)
            .args(["-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"])
            .arg(format!("-Dzookeeper.log.dir={}", dir.display()))
            .args(["-cp", &format!("/etc/zookeeper/conf:{ZOOKEEPER_JAR}")])
            .arg("org.apache.zookeeper.server.quorum.QuorumPeerMain")
            .arg(&cfg_path)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .spawn()
            .map_err(|e| broken(&format!("starting {}", java.display()), e))?;
        procs.children.push((format!("zookeeper z{i}"), child));
    }
    let deadline = now_ns() + 60_000_000_000;
    loop {
        if stop() {
            return Err(Start::Failed(Failure::Interrupted));
        }
        let modes: Vec<String> = ports.iter().map(|&p| four_letters(p, "srvr").unwrap_or_default()).collect();
        if modes.iter().all(|m| m.contains("Mode: leader") || m.contains("Mode: follower")) {
            let version = modes[0]
                .lines()
                .find_map(|l| l.strip_prefix("Zookeeper version: "))
                .and_then(|v| v.split(['-', ',']).next())
                .unwrap_or("?")
                .to_owned();
            return Ok((ports, version));
        }
        let exited = procs.children[first..].iter_mut().any(|(_, c)| c.try_wait().ok().flatten().is_some());
        let msg = || "the ZooKeeper ensemble did not start".to_owned();
        if exited {
            return Err(Start::Exited(msg()));
        }
        if now_ns() > deadline {
            return Err(Start::Failed(Failure::Broken(msg())));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One Redis server on a free loopback port, in a temporary directory of its own: a value that stops the
/// server and removes the directory when dropped (redis-rs's `redis-test` `RedisServer` is the model).
/// `locksim check` runs a reader's client against one; its proxies and storage live beside it.
pub struct RedisServer {
    /// Its port on 127.0.0.1.
    pub port: u16,
    /// Its version (`7.0.15`).
    pub version: String,
    /// The server's process and directory, stopped and removed when this is dropped.
    procs: Processes,
}

impl RedisServer {
    /// Starts `redis-server` from `PATH` (no persistence) and waits until it answers; `stop` says the run
    /// was interrupted meanwhile.
    pub fn start(stop: &dyn Fn() -> bool) -> Result<RedisServer, Failure> {
        let binary = find(Backend::Redis.server_binary()).ok_or(Failure::Missing("redis-server"))?;
        let version = version(Backend::Redis, &binary)?;
        let mut procs = Processes::new().map_err(|e| Failure::Broken(format!("temporary directory: {e}")))?;
        let port = start(Backend::Redis, &binary, &mut procs, stop)?;
        Ok(RedisServer { port, version, procs })
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.procs.children.first().map_or(0, |(_, c)| c.id())
    }

    /// Its temporary directory (the run's other files go there too).
    pub fn dir(&self) -> &Path {
        self.procs.dir()
    }
}
