//! The conductor: `locksim real` itself. It starts the server and the workers, gives them one t = 0,
//! stops and resumes a worker at its pause (SIGSTOP, SIGCONT), kills one at its crash (SIGKILL), watches
//! the lock's holder, and at the end turns what it gathered into the core's events.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{ChildStdin, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use super::clock::{now_ns, sleep_until, Scale};
use super::recording::{assemble, jitter};
use super::servers::{self, child_command, Processes};
use super::storage::Storage;
use super::worker::{Report, WorkerArgs};
use super::{Backend, Failure, RealRun};
use crate::scenarios::{Inputs, ScenarioId};
use crate::sim::{self, Classifier, Event, EventKind, Observer, TraceBuilder};

/// How often the watcher reads the lock's holder, in real time.
const WATCH_NS: u64 = 1_000_000;
/// How long workers may take to connect before t = 0.
const READY_NS: u64 = 10_000_000_000;

static CAUGHT: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(signal: libc::c_int) {
    CAUGHT.store(signal, Ordering::SeqCst);
}

/// Turns Ctrl-C and SIGTERM into an early return, so [`Processes`] is dropped and stops everything.
fn catch_signals() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// The signal that interrupted the run, if one did.
pub fn caught() -> Option<i32> {
    Some(CAUGHT.load(Ordering::SeqCst)).filter(|&s| s != 0)
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

fn signal(pid: u32, signal: libc::c_int) {
    // SAFETY: kill(2) with a PID this process spawned and has not reaped yet.
    unsafe { libc::kill(pid as libc::pid_t, signal) };
}

/// Waits (briefly) until the kernel reports `pid` stopped, so the pause is stamped when it really began.
fn wait_stopped(pid: u32) {
    let deadline = now_ns() + 100_000_000;
    while now_ns() < deadline {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // The state follows the command name in parentheses: "1234 (locksim) T ...".
        if stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with(['T', 't'])) {
            return;
        }
        std::thread::sleep(Duration::from_micros(50));
    }
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
    let binary = servers::find(backend.server_binary()).ok_or(Failure::Missing(backend.server_binary()))?;
    let version = servers::version(backend, &binary)?;

    let mut procs = Processes::new().map_err(broken("temporary directory"))?;
    let port = servers::start(backend, &binary, &mut procs, &interrupted)?;
    let server_pid = procs.children[0].1.id();
    let _ = writeln!(
        log,
        "locksim real: {} {version} pid {server_pid} on 127.0.0.1:{port} in {}",
        backend.server_binary(),
        procs.dir().display()
    );
    let db = procs.dir().join("storage.db");
    Storage::create(&db).map_err(|e| Failure::Broken(format!("storage: {e}")))?;
    backend.prepare(port, sc.first_token).map_err(broken("preparing the lock service"))?;

    // The workers: this binary again, one process each.
    let exe = std::env::current_exe().map_err(broken("locating locksim"))?;
    let (tx, rx) = mpsc::channel();
    let mut stdins: Vec<ChildStdin> = Vec::new();
    let mut pids = Vec::new();
    for (index, w) in sc.workers.iter().enumerate() {
        let args = WorkerArgs {
            scenario: id,
            inputs: *inputs,
            index,
            backend,
            port,
            db: db.clone(),
            scale: scale.0,
        };
        let json = serde_json::to_string(&args).map_err(|e| Failure::Broken(e.to_string()))?;
        let mut child = child_command(&exe)
            .args(["real-worker", &json])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(broken("starting a worker"))?;
        let _ = writeln!(log, "locksim real: worker {} pid {}", w.name, child.id());
        pids.push(child.id());
        stdins.extend(child.stdin.take());
        let stdout = child.stdout.take();
        procs.children.push((format!("worker {}", w.name), child));
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
    drop(tx);
    let name = |w: usize| sc.workers[w].name.clone();

    // Everyone connected, then one t = 0 for all.
    let mut ready = 0;
    let deadline = now_ns() + READY_NS;
    while ready < sc.workers.len() {
        if interrupted() {
            return Err(Failure::Interrupted);
        }
        match rx.recv_timeout(Duration::from_millis(10)) {
            Ok(Msg::Report(_, Report::Ready)) => ready += 1,
            Ok(Msg::Closed(w)) => return Err(Failure::Broken(format!("worker {} failed to start", name(w)))),
            Ok(Msg::Garbled(w, line)) => {
                return Err(Failure::Broken(format!("worker {} wrote {line:?}", name(w))))
            }
            Ok(Msg::Report(w, _)) => {
                return Err(Failure::Broken(format!("worker {} acted before t = 0", name(w))))
            }
            Err(RecvTimeoutError::Timeout) if now_ns() > deadline => {
                return Err(Failure::Broken("the workers did not connect in time".into()))
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Err(Failure::Broken("the workers are gone".into()))
            }
        }
    }
    let t0 = now_ns() + 50_000_000;
    for stdin in &mut stdins {
        writeln!(stdin, "go {t0}").map_err(broken("starting the workers"))?;
    }

    // The watcher: every change of the holder's mark, for the expiries nobody reports.
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = {
        let (stop, mut client) = (stop.clone(), backend.client(port).map_err(broken("watcher"))?);
        std::thread::spawn(move || {
            let mut seen: Vec<(u64, Option<String>)> = vec![(0, None)];
            sleep_until(t0);
            while !stop.load(Ordering::Relaxed) {
                if let Ok(now) = client.holder() {
                    if seen.last().is_none_or(|(_, last)| *last != now) {
                        seen.push((now_ns().saturating_sub(t0), now));
                    }
                }
                sleep_until(now_ns() + WATCH_NS);
            }
            seen
        })
    };

    // The run: gather events, pause and crash workers on cue, until every worker is done or the horizon.
    // A waiter still waiting a lease after the simulation's last event waits for ever.
    let horizon = t0 + scale.real_ns(simulated.trace.end + sc.ttl + 1_000);
    let mut raw: Vec<Event> = Vec::new();
    let mut wakes: Vec<(u64, usize)> = Vec::new();
    let mut open = sc.workers.len();
    let mut killed = vec![false; sc.workers.len()];
    let stamp = |ns: u64| ns.saturating_sub(t0);
    loop {
        if interrupted() {
            return Err(Failure::Interrupted);
        }
        let now = now_ns();
        wakes.retain(|&(at, w)| {
            if at > now {
                return true;
            }
            signal(pids[w], libc::SIGCONT);
            raw.push(Event { at: stamp(now_ns()), kind: EventKind::Wake { worker: w } });
            false
        });
        if (open == 0 && wakes.is_empty()) || now >= horizon {
            break;
        }
        let next =
            wakes.iter().map(|&(at, _)| at).chain([horizon, now + 10_000_000]).min().unwrap_or(horizon);
        match rx.recv_timeout(Duration::from_nanos(next.saturating_sub(now))) {
            Ok(Msg::Report(_, Report::Event { event })) => raw.push(event),
            Ok(Msg::Report(w, Report::PausePoint { for_ns })) => {
                signal(pids[w], libc::SIGSTOP);
                wait_stopped(pids[w]);
                let at = now_ns();
                raw.push(Event {
                    at: stamp(at),
                    kind: EventKind::PauseStart { worker: w, until: stamp(at) + for_ns },
                });
                wakes.push((at + for_ns, w));
            }
            Ok(Msg::Report(w, Report::CrashPoint)) => {
                signal(pids[w], libc::SIGKILL);
                killed[w] = true;
                raw.push(Event { at: stamp(now_ns()), kind: EventKind::Crash { worker: w } });
            }
            Ok(Msg::Report(w, Report::Ready)) => {
                return Err(Failure::Broken(format!("worker {} said ready twice", name(w))))
            }
            Ok(Msg::Garbled(w, line)) => {
                return Err(Failure::Broken(format!("worker {} wrote {line:?}", name(w))))
            }
            Ok(Msg::Closed(_)) => open -= 1,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => open = 0,
        }
    }
    stop.store(true, Ordering::Relaxed);
    let seen = watcher.join().map_err(|_| Failure::Broken("the watcher failed".into()))?;
    // Whoever is still running at the horizon is waiting for a lock that never comes: stop it.
    for (w, (_, child)) in procs.children.iter_mut().skip(1).enumerate() {
        if !killed[w] && child.try_wait().ok().flatten().is_none() {
            signal(pids[w], libc::SIGKILL);
            killed[w] = true;
        }
        let status = child.wait().map_err(broken("waiting for a worker"))?;
        if !killed[w] && !status.success() {
            return Err(Failure::Broken(format!("worker {} failed: {status}", name(w))));
        }
    }
    drop(procs);

    let names: Vec<String> = sc.workers.iter().map(|w| w.name.clone()).collect();
    let events = assemble(raw, &seen, &names, scale);
    let mut observers =
        (TraceBuilder::new(names.iter().map(String::as_str), sc.ttl), Classifier::new(sc.ttl, sc.lease));
    for event in &events {
        observers.on(event);
    }
    let real = sim::Run { trace: observers.0.finish(), outcome: observers.1.finish() };
    let jitter = jitter(&simulated.trace.events, &real.trace.events);
    Ok(RealRun { scenario: id, inputs: *inputs, backend, version, scale: scale.0, simulated, real, jitter })
}
