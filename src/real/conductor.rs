//! The conductor: `locksim real` itself. It starts the server(s) and the workers, gives them one t = 0,
//! stops and resumes a worker at its pause (SIGSTOP, SIGCONT), kills one at its crash (SIGKILL), crashes a
//! Redis primary and promotes its replica at the `failover` scenario's cues, watches the lock's holder,
//! and at the end turns what it gathered into the core's events.

use std::ffi::OsStr;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{ChildStdin, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use std::thread::JoinHandle;
use std::time::Duration;

use super::clock::{now_ns, sleep_until, Scale};
use super::clockshift;
use super::cluster::Cluster;
use super::failover::Sentinel;
use super::lock::LockClient;
use super::pg;
use super::recording::{assemble, jitter, node_clears};
use super::servers::{self, child_command, signal, wait_stopped, Processes};
use super::storage::Storage;
use super::worker::{Report, WorkerArgs};
use super::{timing, Backend, Failure, RealRun};
use crate::scenarios::{Inputs, ScenarioId};
use crate::sim::{self, Event, EventKind, NodeChange, Scenario, Service};

/// How often the watcher reads the lock's holder, in scenario ms: 1 ms of real time at Redis's scale 0.1,
/// 10 ms at etcd's 1 (the same resolution in scenario time, without a core spent on reading).
const WATCH_MS: u64 = 10;

/// The shortest wait between two reads, in real time (what [`WATCH_MS`] is at scale 0.1).
const WATCH_NS: u64 = 1_000_000;
/// How long workers may take to connect before t = 0.
const READY_NS: u64 = 10_000_000_000;

/// The signal that interrupted the run (0: none yet), set by signal-hook's handlers.
static CAUGHT: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// Turns Ctrl-C, SIGTERM, SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\\) into an early return, so
/// [`Processes`] is dropped and stops everything and removes the directory; their default action would end
/// the process with no destructor run.
pub(super) fn catch_signals() {
    let caught = CAUGHT.get_or_init(Arc::default);
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
        // The handler stores the signal's number: async-signal-safe.
        let _ = signal_hook::flag::register_usize(signal, Arc::clone(caught), signal as usize);
    }
}

/// The signal that interrupted the run, if one did.
pub fn caught() -> Option<i32> {
    let caught = CAUGHT.get()?.load(Ordering::SeqCst);
    i32::try_from(caught).ok().filter(|&s| s != 0)
}

fn interrupted() -> bool {
    caught().is_some()
}

enum Msg {
    Report(usize, Report),
    Garbled(usize, String),
    Closed(usize),
}

fn broken(what: &str) -> impl Fn(io::Error) -> Failure + '_ {
    move |e| Failure::Broken(format!("{what}: {e}"))
}

/// Something the lock service's servers do at a given time: the `failover` scenario's crash and promotion,
/// `etcd`'s leader crash, `redlock`'s clock jump (by `by` scenario ms, `real_ms` real, on `node`, whose shift file is `shift`).
#[derive(Clone, Debug)]
enum Cue {
    Crash,
    Promote,
    Jump { node: usize, by: u64, real_ms: u64, shift: std::path::PathBuf },
    LeaderCrash,
}

/// Runs `id` with `inputs` on a real `backend`, time scaled by `scale`; says what it starts on `log`.
/// Spawn from the main thread only (see [`child_command`]).
pub fn conduct(
    id: ScenarioId,
    inputs: &Inputs,
    backend: Backend,
    scale: Scale,
    log: &mut dyn Write,
) -> Result<RealRun, Failure> {
    catch_signals();
    let sc = id.build(inputs);
    let simulated = sim::run(&sc);
    let Topology { mut procs, version, ports, mut cluster, failover, jump, leader_crash } =
        topology(backend, &sc, log)?;
    let dir = procs.dir().to_path_buf();
    let db = dir.join("storage.db");
    Storage::create(&db).map_err(|e| Failure::Broken(format!("storage: {e}")))?;
    backend.prepare(&ports, sc.first_token).map_err(broken("preparing the lock service"))?;
    // `network-delay`: a PostgreSQL server as the storage, and a proxy in front of it that holds each
    // message for the delay once t = 0 has come (the connections are made before, at once).
    let delay = sc
        .workers
        .iter()
        .flat_map(|w| &w.steps)
        .filter_map(|s| match s {
            sim::Step::Write { delay } => Some(sc.dur(*delay)),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let hold = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut pg_ports = None;
    if delay > 0 {
        let bin = pg::find().ok_or(Failure::Missing("postgresql"))?;
        let (pg_port, pg_version) = pg::start(&bin, &mut procs, &interrupted)?;
        let pid = procs.children.last().map_or(0, |(_, c)| c.id());
        let proxy = pg::proxy(pg_port, hold.clone()).map_err(broken("the delaying proxy"))?;
        let _ = writeln!(
            log,
            "locksim real: postgres {pg_version} pid {pid} on 127.0.0.1:{pg_port} behind a proxy on \
             127.0.0.1:{proxy} that holds each message {} ms",
            scale.real_ms(delay)
        );
        pg_ports = Some((pg_port, proxy));
    }
    // A port nothing listens on: Redlock's worker A reaches N4 and N5 there, and is refused.
    let cut_off = servers::free_port().map_err(broken("no free port"))?;
    let mut sentinel = match failover {
        Some((_, _, _, pids)) => Some(
            Sentinel::new([ports[0], ports[1]], pids, &dir, sc.first_token.saturating_sub(1))
                .map_err(broken("replication"))?,
        ),
        None => None,
    };

    let args = WorkerArgs {
        scenario: id,
        inputs: *inputs,
        index: 0,
        backend,
        ports: ports.clone(),
        dir: dir.clone(),
        db,
        scale: scale.0,
        cut_off,
        pg: pg_ports,
    };
    let mut crew = Crew::spawn(&sc, args, &mut procs, log)?;
    crew.ready()?;
    if let (Some(s), Some((_, _, false, _))) = (sentinel.as_mut(), failover) {
        s.isolate_replica().map_err(broken("stopping the replica"))?;
    }
    let t0 = crew.go()?;
    hold.store(scale.real_ns(delay), Ordering::Relaxed);
    let mut cues = match failover {
        Some((crash, promote, _, _)) => {
            vec![(t0 + scale.real_ns(crash), Cue::Crash), (t0 + scale.real_ns(promote), Cue::Promote)]
        }
        None => Vec::new(),
    };
    if let Some(at) = leader_crash {
        cues.push((t0 + scale.real_ns(at), Cue::LeaderCrash));
    }
    if let Some((at, by, node, shift)) = jump {
        cues.push((t0 + scale.real_ns(at), Cue::Jump { node, by, real_ms: scale.real_ms(by), shift }));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let client = backend.client(&sc, &ports, &dir, scale.0).map_err(broken("watcher"))?;
    let watcher = watch(client, t0, scale.real_ns(WATCH_MS).max(WATCH_NS), stop.clone());
    // A waiter still waiting a lease (and a second) after the simulation's last event waits for ever.
    let horizon = t0 + scale.real_ns(simulated.trace.end + sc.ttl + 1_000);
    let mut raw = crew.play(t0, horizon, cues, sentinel.as_mut(), cluster.as_mut())?;
    if let Some(c) = cluster.as_mut() {
        raw.extend(c.events().map_err(broken("the leader crash"))?);
    }
    stop.store(true, Ordering::Relaxed);
    let (seen, nodes_seen) = watcher.join().map_err(|_| Failure::Broken("the watcher failed".into()))?;
    crew.finish(&mut procs)?;
    drop(procs);

    raw.extend(node_clears(&raw, &nodes_seen, &crew.names));
    let events = assemble(raw, &seen, &crew.names, scale);
    let real = sim::replay(&sc, &events);
    let jitter = jitter(&simulated.trace.events, &real.trace.events);
    timing(&jitter, sc.ttl)?;
    Ok(RealRun {
        scenario: id,
        inputs: *inputs,
        backend,
        version,
        scale: scale.0,
        simulated,
        real,
        jitter,
        client: None,
    })
}

/// The servers of one run, as its service needs them (one Redis server; a primary and its replica for
/// `failover`; five for `redlock`, N3 under the clock shift; one etcd member, or three for a leader crash; a
/// three-member ZooKeeper ensemble), in `procs`, which stops them all when dropped; and what the cues need.
struct Topology {
    procs: Processes,
    version: String,
    /// Their client ports, the primary first.
    ports: Vec<u16>,
    /// etcd with a leader crash: the members, to find and crash the leader.
    cluster: Option<Cluster>,
    /// `failover`: when the primary crashes, when the replica is promoted, WAIT or not, their PIDs.
    failover: Option<(sim::Ms, sim::Ms, bool, [u32; 2])>,
    /// `redlock`: when N3's clock jumps, by how much, which node, and its shift file.
    jump: Option<(sim::Ms, sim::Ms, usize, std::path::PathBuf)>,
    /// etcd: when the leader crashes.
    leader_crash: Option<sim::Ms>,
}

/// Starts the servers `sc` needs on `backend`; says what it started on `log`.
fn topology(backend: Backend, sc: &Scenario, log: &mut dyn Write) -> Result<Topology, Failure> {
    let binary = match backend {
        Backend::Zookeeper => servers::find_zookeeper(),
        _ => servers::find(backend.server_binary()),
    };
    let binary = binary.ok_or(Failure::Missing(backend.server_binary()))?;
    let mut version = match backend {
        Backend::Zookeeper => String::new(),
        _ => servers::version(backend, &binary)?,
    };

    let mut procs = Processes::new().map_err(broken("temporary directory"))?;
    // etcd with a leader crash: three members, so the other two elect a new leader.
    let leader_crash = match (backend, sc.leader_crash()) {
        (Backend::Etcd, Some(at)) => Some(at),
        _ => None,
    };
    let mut ports = Vec::new();
    if leader_crash.is_some() || backend == Backend::Zookeeper {
        let first = procs.children.len();
        if backend == Backend::Zookeeper {
            (ports, version) = servers::start_zookeeper(&binary, 3, &mut procs, &interrupted)?;
        } else {
            ports = servers::start_etcd_cluster(&binary, 3, &mut procs, &interrupted)?;
        }
        for (i, (name, child)) in procs.children[first..].iter().enumerate() {
            let within = if i == 0 { format!(" in {}", procs.dir().display()) } else { String::new() };
            let _ = writeln!(
                log,
                "locksim real: {name} {version} pid {} on 127.0.0.1:{}{within}",
                child.id(),
                ports[i]
            );
        }
    }
    let cluster = leader_crash.map(|_| {
        let pids = procs.children.iter().map(|(_, c)| c.id()).collect();
        Cluster::new(ports.clone(), pids, sc.workers.iter().map(|w| w.name.clone()).collect())
    });
    let port = match ports.first() {
        Some(&port) => port,
        None => {
            let port = servers::start(backend, &binary, &mut procs, &interrupted)?;
            let server_pid = procs.children.last().map_or(0, |(_, server)| server.id());
            let _ = writeln!(
                log,
                "locksim real: {} {version} pid {server_pid} on 127.0.0.1:{port} in {}",
                backend.server_binary(),
                procs.dir().display()
            );
            ports.push(port);
            port
        }
    };
    let server_pid = procs.children.first().map_or(0, |(_, server)| server.id());

    let failover = match sc.service {
        Service::Failover { crash, promote, sync } => {
            let replica = servers::start_replica(&binary, port, &mut procs, &interrupted)?;
            let replica_pid = procs.children.last().map_or(0, |(_, server)| server.id());
            let _ = writeln!(
                log,
                "locksim real: {} {version} replica of {port} pid {replica_pid} on 127.0.0.1:{replica}",
                backend.server_binary()
            );
            ports.push(replica);
            Some((crash, promote.max(crash), sync, [server_pid, replica_pid]))
        }
        _ => None,
    };
    // Redlock: four more servers, N3 (`jump_node`) under the preload library that moves its wall clock.
    let mut jump = None;
    if let Service::Redlock { nodes, jump_node, jump_at, jump: by, .. } = sc.service {
        let (lib, shift) = clockshift::build(procs.dir())?;
        for n in 1..nodes {
            let env: Vec<(&str, &OsStr)> = if n == jump_node {
                vec![("LD_PRELOAD", lib.as_os_str()), (clockshift::FILE_VAR, shift.as_os_str())]
            } else {
                Vec::new()
            };
            let name = format!("n{}", n + 1);
            let port = servers::start_named(&binary, &name, &env, &mut procs, &interrupted)?;
            let pid = procs.children.last().map_or(0, |(_, server)| server.id());
            let shifted =
                if n == jump_node { ", its wall clock shifted by the file clockshift.ms" } else { "" };
            let _ = writeln!(
                log,
                "locksim real: {} {version} {name} pid {pid} on 127.0.0.1:{port}{shifted}",
                backend.server_binary()
            );
            ports.push(port);
        }
        if sc.dur(by) > 0 {
            jump = Some((jump_at, sc.dur(by), jump_node, shift));
        }
    }
    Ok(Topology { procs, version, ports, cluster, failover, jump, leader_crash })
}

/// What the watcher saw: every change of the holder's mark, and (Redlock) of each server's key.
type Seen = (Vec<(u64, Option<String>)>, Vec<(u64, usize, Option<String>)>);

/// The watcher: every change of the holder's mark from t = 0 until `stop`, read every `every_ns`, for the
/// expiries nobody reports; on Redlock also every change of each server's key, for the keys a server
/// expired by its own clock.
fn watch(
    mut client: Box<dyn LockClient + Send>,
    t0: u64,
    every_ns: u64,
    stop: Arc<AtomicBool>,
) -> JoinHandle<Seen> {
    std::thread::spawn(move || {
        let mut seen: Vec<(u64, Option<String>)> = vec![(0, None)];
        let mut nodes: Vec<(u64, usize, Option<String>)> = Vec::new();
        let mut last: Vec<Option<String>> = Vec::new();
        sleep_until(t0);
        while !stop.load(Ordering::Relaxed) {
            let marks = client.marks();
            let at = now_ns().saturating_sub(t0);
            for (n, mark) in marks.iter().enumerate() {
                if last.get(n) != Some(mark) {
                    nodes.push((at, n, mark.clone()));
                }
            }
            last = marks;
            if let Ok(now) = client.holder() {
                if seen.last().is_none_or(|(_, last)| *last != now) {
                    seen.push((now_ns().saturating_sub(t0), now));
                }
            }
            sleep_until(now_ns() + every_ns);
        }
        (seen, nodes)
    })
}

/// The worker processes: this binary again, one per worker of the scenario, each in `procs` after the
/// servers.
struct Crew {
    names: Vec<String>,
    /// Where the workers start in `procs.children`.
    first: usize,
    pids: Vec<u32>,
    stdins: Vec<ChildStdin>,
    rx: Receiver<Msg>,
    /// Killed by the conductor (a crash, or still waiting at the horizon): not a failure.
    killed: Vec<bool>,
}

impl Crew {
    fn spawn(
        sc: &Scenario,
        args: WorkerArgs,
        procs: &mut Processes,
        log: &mut dyn Write,
    ) -> Result<Crew, Failure> {
        let exe = std::env::current_exe().map_err(broken("locating locksim"))?;
        let (tx, rx) = mpsc::channel();
        let names: Vec<String> = sc.workers.iter().map(|w| w.name.clone()).collect();
        let mut crew = Crew {
            names,
            first: procs.children.len(),
            pids: Vec::new(),
            stdins: Vec::new(),
            rx,
            killed: vec![false; sc.workers.len()],
        };
        for index in 0..sc.workers.len() {
            let json = serde_json::to_string(&WorkerArgs { index, ..args.clone() })
                .map_err(|e| Failure::Broken(e.to_string()))?;
            let mut child = child_command(&exe)
                .args(["real-worker", &json])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .map_err(broken("starting a worker"))?;
            // In one write, as `check` writes its lines: a worker's stderr shares the stream.
            let line = format!("locksim real: worker {} pid {}\n", crew.names[index], child.id());
            let _ = log.write_all(line.as_bytes());
            crew.pids.push(child.id());
            crew.stdins.extend(child.stdin.take());
            let stdout = child.stdout.take();
            procs.children.push((format!("worker {}", crew.names[index]), child));
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stdout.expect("piped")).lines().map_while(Result::ok) {
                    let msg = match serde_json::from_str(&line) {
                        Ok(report) => Msg::Report(index, report),
                        Err(_) => Msg::Garbled(index, line),
                    };
                    if tx.send(msg).is_err() {
                        return;
                    }
                }
                let _ = tx.send(Msg::Closed(index));
            });
        }
        Ok(crew)
    }

    fn failed(&self, w: usize, what: impl std::fmt::Display) -> Failure {
        Failure::Broken(format!("worker {} {what}", self.names[w]))
    }

    /// Waits until every worker is connected.
    fn ready(&mut self) -> Result<(), Failure> {
        let mut ready = 0;
        let deadline = now_ns() + READY_NS;
        while ready < self.names.len() {
            if interrupted() {
                return Err(Failure::Interrupted);
            }
            match self.rx.recv_timeout(Duration::from_millis(10)) {
                Ok(Msg::Report(_, Report::Ready)) => ready += 1,
                Ok(Msg::Closed(w)) => return Err(self.failed(w, "failed to start")),
                Ok(Msg::Garbled(w, line)) => return Err(self.failed(w, format!("wrote {line:?}"))),
                Ok(Msg::Report(w, _)) => return Err(self.failed(w, "acted before t = 0")),
                Err(RecvTimeoutError::Timeout) if now_ns() > deadline => {
                    return Err(Failure::Broken("the workers did not connect in time".into()))
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Broken("the workers are gone".into()))
                }
            }
        }
        Ok(())
    }

    /// Gives every worker one t = 0, a little ahead. Returns it.
    fn go(&mut self) -> Result<u64, Failure> {
        let t0 = now_ns() + 50_000_000;
        for stdin in &mut self.stdins {
            writeln!(stdin, "go {t0}").map_err(broken("starting the workers"))?;
        }
        Ok(t0)
    }

    /// The run: gathers the workers' events, stops and resumes a worker at its pause, kills one at its
    /// crash, has `sentinel` crash the primary and promote the replica at their `cues`, until every worker
    /// is done and every cue given, or the horizon. The events, stamped in real ns since `t0`.
    fn play(
        &mut self,
        t0: u64,
        horizon: u64,
        mut cues: Vec<(u64, Cue)>,
        mut sentinel: Option<&mut Sentinel>,
        mut cluster: Option<&mut Cluster>,
    ) -> Result<Vec<Event>, Failure> {
        let mut raw: Vec<Event> = Vec::new();
        let mut wakes: Vec<(u64, usize)> = Vec::new();
        let mut open = self.names.len();
        let stamp = |ns: u64| ns.saturating_sub(t0);
        loop {
            if interrupted() {
                return Err(Failure::Interrupted);
            }
            while let Some(i) = cues.iter().position(|(at, _)| *at <= now_ns()) {
                let (_, cue) = cues.remove(i);
                if let Cue::Jump { node, by, real_ms, shift } = &cue {
                    clockshift::set(shift, *real_ms).map_err(broken("moving the clock"))?;
                    raw.push(Event {
                        at: stamp(now_ns()),
                        kind: EventKind::Node { node: *node, change: NodeChange::Jump(*by) },
                    });
                    continue;
                }
                if let Cue::LeaderCrash = cue {
                    let c = cluster.as_deref_mut().ok_or_else(|| Failure::Broken("no cluster".into()))?;
                    c.crash_leader(t0).map_err(broken("crashing the leader"))?;
                    continue;
                }
                let s = sentinel.as_deref_mut().ok_or_else(|| Failure::Broken("no servers to cue".into()))?;
                let ((at, change), node) = match cue {
                    Cue::Crash => (s.crash().map_err(broken("crashing the primary"))?, 0),
                    Cue::Promote => (s.promote().map_err(broken("promoting the replica"))?, 1),
                    Cue::Jump { .. } | Cue::LeaderCrash => unreachable!("handled above"),
                };
                raw.push(Event { at: stamp(at), kind: EventKind::Node { node, change } });
            }
            let now = now_ns();
            wakes.retain(|&(at, w)| {
                if at > now {
                    return true;
                }
                // Stamped before the signal: the worker may run (and report) before this thread runs again.
                raw.push(Event { at: stamp(now_ns()), kind: EventKind::Wake { worker: w } });
                signal(self.pids[w], nix::sys::signal::Signal::SIGCONT);
                false
            });
            if (open == 0 && wakes.is_empty() && cues.is_empty()) || now >= horizon {
                return Ok(raw);
            }
            let next = wakes
                .iter()
                .map(|&(at, _)| at)
                .chain(cues.iter().map(|(at, _)| *at))
                .chain([horizon, now + 10_000_000])
                .min()
                .unwrap_or(horizon);
            match self.rx.recv_timeout(Duration::from_nanos(next.saturating_sub(now))) {
                Ok(Msg::Report(_, Report::Event { event })) => raw.push(event),
                Ok(Msg::Report(w, Report::PausePoint { for_ns })) => {
                    signal(self.pids[w], nix::sys::signal::Signal::SIGSTOP);
                    wait_stopped(self.pids[w]);
                    let at = now_ns();
                    let until = stamp(at) + for_ns;
                    raw.push(Event { at: stamp(at), kind: EventKind::PauseStart { worker: w, until } });
                    wakes.push((at + for_ns, w));
                }
                Ok(Msg::Report(w, Report::CrashPoint)) => {
                    signal(self.pids[w], nix::sys::signal::Signal::SIGKILL);
                    self.killed[w] = true;
                    raw.push(Event { at: stamp(now_ns()), kind: EventKind::Crash { worker: w } });
                }
                Ok(Msg::Report(w, Report::Ready)) => return Err(self.failed(w, "said ready twice")),
                Ok(Msg::Garbled(w, line)) => return Err(self.failed(w, format!("wrote {line:?}"))),
                Ok(Msg::Closed(_)) => open -= 1,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => open = 0,
            }
        }
    }

    /// Stops whoever still runs (a waiter for a lock that never comes) and checks that the others ended well.
    fn finish(&mut self, procs: &mut Processes) -> Result<(), Failure> {
        for (w, (_, child)) in procs.children.iter_mut().skip(self.first).enumerate() {
            if !self.killed[w] && child.try_wait().ok().flatten().is_none() {
                signal(self.pids[w], nix::sys::signal::Signal::SIGKILL);
                self.killed[w] = true;
            }
            let status = child.wait().map_err(broken("waiting for a worker"))?;
            if !self.killed[w] && !status.success() {
                return Err(self.failed(w, format!("failed: {status}")));
            }
        }
        Ok(())
    }
}
