//! `locksim check --client CMD`: a reader's own lock client as the workers of a scenario, on a real Redis
//! server, under the lab's real faults. The protocol is `docs/clients.md`.
//!
//! The lab starts `CMD` (through `sh -c`) once per worker, with the addresses of that worker's way to Redis
//! and to the storage in its environment, and tells it, one JSON line at a time, what the scenario says and
//! when: `acquire`, `work`, `check`, `write`, `release`. The client does the lock operations itself, with its
//! own library. The lab sees what it did from where it stands:
//!
//! - **a proxy per worker in front of Redis** (`LOCKSIM_REDIS`): every command that names the lock's key
//!   (or may touch it: `EVAL`, `EVALSHA`, `FCALL`, `EXEC`) runs one at a time, with the key read before and
//!   after, so the lab knows who took the lock (a grant), with what lease (`PTTL`), who deleted it (and whose
//!   it was), and when a lease ran out. A fault the scenario puts right after the grant (a pause, a crash)
//!   lands there: the reply that says "you have it" is held until the client's process group is stopped
//!   (SIGSTOP) or killed (SIGKILL), so it falls between the client's `SETNX` and its `EXPIRE`, say.
//! - **the storage** (`LOCKSIM_STORAGE`): the lab's SQLite row behind a line protocol, one address per
//!   worker so the lab knows who wrote; it records every write, its token and what it answered.
//!
//! The record becomes the core's events, judged by the core's classifier, as `locksim real` does. A client
//! that exits, hangs, prints something that is not a JSON line, answers out of turn or ignores SIGTERM
//! fails the run with one line naming the worker, what it did and when; nothing is left running.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, ChildStdin, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use serde_json::{json, Value};

use super::clock::{now_ns, sleep_until, Scale};
use super::conductor::{catch_signals, caught};
use super::recording::jitter;
use super::redis::{Redis, Reply};
use super::resp;
use super::servers::{child_command, wait_stopped, RedisServer};
use super::storage::Storage;
use super::{Backend, Failure, RealRun};
use crate::present::lesson;
use crate::scenarios::{Inputs, ScenarioId};
use crate::sim::{self, Event, EventKind, Outcome, OutcomeKind, Scenario, Step, WorkerId};

/// The lock's key: the client must take the lock under this key (`LOCKSIM_LOCK_KEY`).
pub const KEY: &str = "lock:job";

/// The scenarios a client can be checked in: one Redis server, and steps a client's five commands can
/// play. The others need a lock service of several servers (`failover`, `redlock`), a step of the lab's own
/// (`check-then-set`'s GET and SET, `register-token`'s registration), a delaying network (`network-delay`),
/// or have no real run at all (`lock-delay`).
pub const SCENARIOS: [ScenarioId; 5] = [
    ScenarioId::GcPause,
    ScenarioId::CheckThenPause,
    ScenarioId::Crash,
    ScenarioId::SetnxExpire,
    ScenarioId::UnsafeRelease,
];

/// How long a client may take to answer one command beyond what the command itself takes (a `work`'s
/// length, a pause the lab put on it), in real time.
const ANSWER_NS: u64 = 2_000_000_000;
/// How long a client may take to start and answer `hello`.
const HELLO_NS: u64 = 10_000_000_000;
/// How long a client has to exit after its standard input closes and it is sent SIGTERM.
const TERM_NS: u64 = 1_000_000_000;
/// How often a waiter asks again for the lock, in real time (`acquire` is one attempt).
const POLL_NS: u64 = 2_000_000;

/// A fault the scenario puts right after a worker's grant, applied by the proxy when the grant happens.
#[derive(Clone, Copy, Debug)]
enum Fault {
    Pause(u64),
    Crash,
}

/// The lock as the proxies saw it: whose it is (by the value under the key), and until when.
struct Holding {
    worker: WorkerId,
    value: Vec<u8>,
    /// When its lease ends (monotonic ns), as Redis's `PTTL` said; `None`: no expiry.
    expires: Option<u64>,
    /// Its end as Redis keeps it (`PEXPIRETIME`: Unix ms, −1 for none): a renewal changes it.
    end: i64,
}

/// What every thread of a run shares.
struct Shared {
    t0: AtomicU64,
    scale: Scale,
    fencing: bool,
    names: Vec<String>,
    /// The lock: the proxies' connection for reading the key, and who holds it. Its mutex makes every command
    /// on the key run alone, read before and after.
    lock: Mutex<(Redis, Option<Holding>)>,
    /// Per worker.
    workers: Vec<Mutex<WorkerState>>,
    /// The record, in real ns since t = 0.
    events: Mutex<Vec<Event>>,
    /// The first failure: one line.
    failed: Mutex<Option<String>>,
    stop: AtomicBool,
    /// The longest the lab's own part took (real ns): see [`Shared::lagged`].
    lag: AtomicU64,
}

#[derive(Default)]
struct WorkerState {
    /// The client's process group.
    pgid: u32,
    /// A fault to apply at its next grant.
    armed: Option<Fault>,
    /// Stopped by the lab until then (monotonic ns).
    wake_at: Option<u64>,
    /// Killed by the lab (a crash).
    killed: bool,
    /// Whose lock its commands deleted since the last `release` was sent.
    freed: Option<WorkerId>,
    /// Events of its grant still waiting for the token its client reports (`acquire`'s answer).
    unreported: Vec<usize>,
    /// The token it reported.
    token: Option<u64>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    fn t0(&self) -> u64 {
        self.t0.load(Ordering::SeqCst)
    }

    fn since(&self, ns: u64) -> u64 {
        ns.saturating_sub(self.t0())
    }

    fn ms(&self, ns: u64) -> u64 {
        self.scale.scenario_ms(self.since(ns))
    }

    fn push(&self, at_ns: u64, kind: EventKind) -> usize {
        let mut events = lock(&self.events);
        events.push(Event { at: self.since(at_ns), kind });
        events.len() - 1
    }

    fn fail(&self, msg: String) {
        let mut failed = lock(&self.failed);
        if failed.is_none() {
            *failed = Some(msg);
        }
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Notes how long the lab's own part of something that came at `since` took (a command on the key, a
    /// write at the storage): the run's lag.
    fn lagged(&self, since: u64) {
        self.lag.fetch_max(now_ns().saturating_sub(since), Ordering::SeqCst);
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    fn signal(&self, w: WorkerId, signal: Signal) {
        let pgid = lock(&self.workers[w]).pgid;
        let _ = killpg(Pid::from_raw(i32::try_from(pgid).unwrap_or(i32::MAX)), signal);
    }

    /// The holder's lease ended (the key is gone or changed with no command of a client): an expiry, stamped
    /// when `PTTL` said it would end (no later than now).
    fn expired(&self, h: &Holding, now: u64) {
        // Its token is filled in at the end, from the grant before it.
        let at = h.expires.map_or(now, |e| e.min(now));
        self.push(at, EventKind::Expire { worker: h.worker, token: 0 });
    }

    /// The holder now: whose lease still runs at `now`.
    fn holder(&self, held: &Option<Holding>, now: u64) -> Option<WorkerId> {
        held.as_ref().filter(|h| h.expires.is_none_or(|e| now < e)).map(|h| h.worker)
    }
}

fn bulk(reply: io::Result<Reply>) -> io::Result<Option<Vec<u8>>> {
    match reply? {
        Reply::Bulk(v) => Ok(v),
        other => Err(io::Error::other(format!("GET: {other:?}"))),
    }
}

/// A worker's way to Redis: every connection its client makes to `LOCKSIM_REDIS`.
fn proxy(shared: Arc<Shared>, me: WorkerId, listener: TcpListener, server: u16) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let _ = listener.set_nonblocking(true);
        while !shared.stopped() {
            match listener.accept() {
                Ok((client, _)) => {
                    let shared = shared.clone();
                    std::thread::spawn(move || {
                        let _ = client.set_nonblocking(false);
                        if let Err(e) = connection(&shared, me, client, server) {
                            if !shared.stopped() && !lock(&shared.workers[me]).killed {
                                eprintln!(
                                    "locksim check: worker {}'s Redis connection: {e}",
                                    shared.names[me]
                                );
                            }
                        }
                    });
                }
                Err(_) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
    })
}

/// Reads one complete RESP value from `from` into `buf`, returning its bytes; `None` at end of stream.
fn read_frame(from: &mut TcpStream, buf: &mut Vec<u8>) -> io::Result<Option<Vec<u8>>> {
    loop {
        if let Some(end) = resp::frame(buf, 0).map_err(io::Error::other)? {
            return Ok(Some(buf.drain(..end).collect()));
        }
        let mut chunk = [0_u8; 16 * 1024];
        let n = from.read(&mut chunk)?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// One client connection: each command forwarded in turn; one that may touch the key runs alone, with the
/// key read before and after.
fn connection(shared: &Shared, me: WorkerId, mut client: TcpStream, port: u16) -> io::Result<()> {
    let mut server = TcpStream::connect(("127.0.0.1", port))?;
    let _ = server.set_nodelay(true);
    let _ = client.set_nodelay(true);
    let (mut from_client, mut from_server) = (Vec::new(), Vec::new());
    while let Some(command) = read_frame(&mut client, &mut from_client)? {
        let args = resp::args(&command);
        let name = args.first().map(|a| a.to_ascii_uppercase()).unwrap_or_default();
        let touches = args.iter().skip(1).any(|a| a == KEY.as_bytes())
            || matches!(name.as_slice(), b"EVAL" | b"EVALSHA" | b"FCALL" | b"EXEC");
        if !touches {
            server.write_all(&command)?;
            let reply =
                read_frame(&mut server, &mut from_server)?.ok_or_else(|| io::Error::other("closed"))?;
            client.write_all(&reply)?;
            continue;
        }
        let came = now_ns();
        let mut guard = lock(&shared.lock);
        let (side, held) = &mut *guard;
        let before = bulk(side.call(&["GET", KEY]))?;
        if let Some(h) = held.take_if(|h| before.as_ref() != Some(&h.value)) {
            shared.expired(&h, now_ns());
        }
        server.write_all(&command)?;
        let reply = read_frame(&mut server, &mut from_server)?.ok_or_else(|| io::Error::other("closed"))?;
        let now = now_ns();
        let after = bulk(side.call(&["GET", KEY]))?;
        // The lease as Redis keeps it: its absolute end (PEXPIRETIME, which changes only when the lease
        // does), and the time left (PTTL), which places that end on this clock. Counted from before the
        // PTTL call (Redis counts from later, and rounds down), the end is never placed after Redis's own:
        // a grant that follows the real expiry is never taken for one over a live lease.
        let int = |reply: io::Result<Reply>| match reply {
            Ok(Reply::Int(n)) => Ok(n),
            Ok(other) => Err(io::Error::other(format!("expected an integer, got {other:?}"))),
            Err(e) => Err(e),
        };
        let end = int(side.call(&["PEXPIRETIME", KEY]))?;
        let asked = now_ns();
        let pttl = int(side.call(&["PTTL", KEY]))?;
        let expires = u64::try_from(pttl).ok().map(|ms| asked + ms * 1_000_000);
        // A lease that ran out meanwhile (between the read before and the command, or while it ran) is an
        // expiry, not something the command did.
        if let Some(h) =
            held.take_if(|h| after.as_ref() != Some(&h.value) && h.expires.is_some_and(|e| e <= now))
        {
            shared.expired(&h, now);
        }
        let mut fault = None;
        match &after {
            Some(value) if held.as_ref().is_some_and(|h| h.value == *value) => {
                // The same holder: an EXPIRE or PEXPIRE may have given it a lease, or a new one.
                if let Some(h) = held.as_mut().filter(|h| h.end != end) {
                    h.end = end;
                    h.expires = expires;
                    if let Some(until) = expires {
                        let kind =
                            EventKind::Renew { worker: h.worker, token: 0, expires: shared.since(until) };
                        shared.push(now, kind);
                    }
                }
            }
            None => {
                // Deleted by this command: whose it was.
                if let Some(h) = held.take() {
                    lock(&shared.workers[me]).freed = Some(h.worker);
                }
            }
            Some(value) => {
                // Set by this command: a grant to this worker, over a lock still held if there was one.
                let over = shared.holder(held, now).filter(|&h| h != me);
                let kind = EventKind::Grant {
                    worker: me,
                    token: 0,
                    expires: expires.map(|e| shared.since(e)),
                    over,
                };
                let i = shared.push(now, kind);
                let mut state = lock(&shared.workers[me]);
                state.unreported.retain(|_| false);
                state.unreported.push(i);
                state.token = None;
                fault = state.armed.take();
                *held = Some(Holding { worker: me, value: value.clone(), expires, end });
            }
        }
        shared.lagged(came);
        match fault {
            Some(Fault::Pause(ns)) => {
                shared.signal(me, Signal::SIGSTOP);
                wait_stopped(lock(&shared.workers[me]).pgid);
                let at = now_ns();
                shared.push(at, EventKind::PauseStart { worker: me, until: shared.since(at + ns) });
                lock(&shared.workers[me]).wake_at = Some(at + ns);
            }
            Some(Fault::Crash) => {
                shared.signal(me, Signal::SIGKILL);
                lock(&shared.workers[me]).killed = true;
                shared.push(now_ns(), EventKind::Crash { worker: me });
                return Ok(());
            }
            None => {}
        }
        drop(guard);
        client.write_all(&reply)?;
    }
    Ok(())
}

/// The lab's storage for one worker (`LOCKSIM_STORAGE`): lines `WRITE <token|-> <data>`, answered
/// `ACCEPTED` or `REJECTED <highest>`; each write recorded with who held the lock when it arrived.
fn storage(
    shared: Arc<Shared>,
    me: WorkerId,
    listener: TcpListener,
    db: std::path::PathBuf,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let _ = listener.set_nonblocking(true);
        while !shared.stopped() {
            let Ok((stream, _)) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(2));
                continue;
            };
            let (shared, db) = (shared.clone(), db.clone());
            std::thread::spawn(move || {
                let _ = stream.set_nonblocking(false);
                if let Err(e) = serve_writes(&shared, me, stream, &db) {
                    eprintln!("locksim check: worker {}'s storage connection: {e}", shared.names[me]);
                }
            });
        }
    })
}

fn serve_writes(shared: &Shared, me: WorkerId, stream: TcpStream, db: &Path) -> io::Result<()> {
    let mut storage = Storage::open(db).and_then(Storage::unsynced).map_err(io::Error::other)?;
    let mut out = stream.try_clone()?;
    for line in BufReader::new(stream).lines() {
        let line = line?;
        let mut words = line.splitn(3, ' ');
        let (verb, token) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let token = match (verb, token) {
            ("WRITE", "-") => None,
            ("WRITE", t) => match t.parse::<u64>() {
                Ok(t) => Some(t),
                Err(_) => {
                    writeln!(out, "ERROR the token must be a whole number or -")?;
                    continue;
                }
            },
            _ => {
                writeln!(out, "ERROR expected WRITE <token|-> <data>")?;
                continue;
            }
        };
        // Who holds the lock when the write arrives (the key read under the lock's mutex, so no command on
        // it runs meanwhile).
        let at = now_ns();
        let holder = {
            let mut guard = lock(&shared.lock);
            let (side, held) = &mut *guard;
            let key = bulk(side.call(&["GET", KEY]))?;
            if let Some(h) = held.take_if(|h| key.as_ref() != Some(&h.value)) {
                shared.expired(&h, at);
            }
            shared.holder(held, at)
        };
        let stored =
            storage.write_as(&shared.names[me], token, shared.fencing, true).map_err(io::Error::other)?;
        shared.lagged(at);
        shared.push(at, EventKind::Write { worker: me, token, arrives: shared.since(at) });
        shared.push(
            at,
            EventKind::Store {
                worker: me,
                token,
                sent: shared.since(at),
                accepted: stored.accepted,
                highest_before: stored.highest_before,
                written_before: stored.written_before,
                stale: holder != Some(me),
                holder,
            },
        );
        if stored.accepted {
            writeln!(out, "ACCEPTED")?;
        } else {
            let highest = stored.highest_before.map_or("-".to_owned(), |h| h.to_string());
            writeln!(out, "REJECTED {highest}")?;
        }
    }
    Ok(())
}

/// A line from a client's standard output, or its end, stamped when it came.
enum Line {
    Text(u64, String),
    End(u64),
}

/// One worker's driver: plays its steps as commands, at their times.
struct Driver {
    shared: Arc<Shared>,
    me: WorkerId,
    sc: Scenario,
    stdin: ChildStdin,
    rx: Receiver<Line>,
    horizon: u64,
}

/// What went wrong with a client: the message, already naming the worker.
type Bad = String;

impl Driver {
    fn name(&self) -> &str {
        &self.shared.names[self.me]
    }

    fn at(&self, ns: u64) -> String {
        format!("at {} ms", self.shared.ms(ns))
    }

    /// Any line that came while nothing was asked: out of turn.
    fn nothing_pending(&mut self) -> Result<(), Bad> {
        match self.rx.try_recv() {
            Ok(Line::Text(at, line)) => Err(format!(
                "worker {} answered when nothing was asked {}: {line:?}",
                self.name(),
                self.at(at)
            )),
            Ok(Line::End(at)) if !lock(&self.shared.workers[self.me]).killed => {
                Err(format!("worker {} exited {} (its standard output closed)", self.name(), self.at(at)))
            }
            _ => Ok(()),
        }
    }

    /// Sends `cmd`, waits for its one answer line (resuming the client at the end of a pause the lab put on
    /// it meanwhile). `extra_ns`: how long the command itself may take. `Ok(None)`: the client was killed by
    /// the lab (a crash) or the run is over.
    fn ask(&mut self, cmd: Value, extra_ns: u64) -> Result<Option<Value>, Bad> {
        self.nothing_pending()?;
        let what = cmd["cmd"].as_str().unwrap_or("?").to_owned();
        let sent = now_ns();
        if writeln!(self.stdin, "{cmd}").and_then(|()| self.stdin.flush()).is_err() {
            if lock(&self.shared.workers[self.me]).killed {
                return Ok(None);
            }
            return Err(format!(
                "worker {} exited {} (its standard input closed)",
                self.name(),
                self.at(sent)
            ));
        }
        let mut deadline = sent + ANSWER_NS + extra_ns;
        loop {
            let now = now_ns();
            let wake = lock(&self.shared.workers[self.me]).wake_at;
            if let Some(wake) = wake {
                if wake <= now {
                    self.resume(wake)?;
                    continue;
                }
                deadline = deadline.max(wake + ANSWER_NS + extra_ns);
            }
            if self.shared.stopped() {
                return Ok(None);
            }
            let next =
                [deadline, wake.unwrap_or(u64::MAX), now + 10_000_000].into_iter().min().unwrap_or(deadline);
            match self.rx.recv_timeout(Duration::from_nanos(next.saturating_sub(now))) {
                Ok(Line::Text(at, line)) => {
                    let answer: Value = serde_json::from_str(&line).map_err(|_| {
                        format!(
                            "worker {} wrote {line:?} {}, which is not a JSON line (its answer to {what})",
                            self.name(),
                            self.at(at)
                        )
                    })?;
                    if !answer.get("ok").is_some_and(Value::is_boolean) {
                        return Err(format!(
                            "worker {} answered {what} {} with {line:?}, which has no \"ok\": true or false",
                            self.name(),
                            self.at(at)
                        ));
                    }
                    return Ok(Some(answer));
                }
                Ok(Line::End(at)) => {
                    if lock(&self.shared.workers[self.me]).killed {
                        return Ok(None);
                    }
                    return Err(format!(
                        "worker {} exited {} while the lab waited for its answer to {what} (sent {})",
                        self.name(),
                        self.at(at),
                        self.at(sent)
                    ));
                }
                Err(RecvTimeoutError::Timeout) if now_ns() >= deadline => {
                    return Err(format!(
                        "worker {} did not answer {what} (sent {}) within {} ms of real time",
                        self.name(),
                        self.at(sent),
                        (deadline - sent) / 1_000_000
                    ));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    /// Ends a pause: SIGCONT, stamped before the signal.
    fn resume(&mut self, wake: u64) -> Result<(), Bad> {
        self.shared.lagged(wake);
        lock(&self.shared.workers[self.me]).wake_at = None;
        self.shared.push(now_ns(), EventKind::Wake { worker: self.me });
        self.shared.signal(self.me, Signal::SIGCONT);
        Ok(())
    }

    fn real(&self, ms: u64) -> u64 {
        self.shared.scale.real_ns(ms)
    }

    fn run(&mut self) -> Result<(), Bad> {
        let t0 = self.shared.t0();
        let steps = self.sc.workers[self.me].steps.clone();
        let ttl = self.sc.lease.then(|| self.shared.scale.real_ms(self.sc.ttl));
        let mut i = 0;
        while i < steps.len() {
            if self.shared.stopped() {
                return Ok(());
            }
            let step = steps[i];
            i += 1;
            match step {
                Step::Idle(d) => {
                    let until = now_ns() + self.real(self.sc.dur(d));
                    sleep_until(until);
                    self.shared.lagged(until);
                }
                Step::Get => return Err("a GET step has no command in the protocol".into()),
                Step::Acquire | Step::AcquireNoExpiry | Step::Set | Step::TryAcquire { .. } => {
                    // A pause or a crash right after the grant lands at the grant itself (the proxy applies it).
                    // (Work and idling of no length in between take no time: `work {pause_start}` at 0.)
                    let sc = &self.sc;
                    let mut next = i;
                    while matches!(steps.get(next), Some(Step::Work(d) | Step::Idle(d)) if sc.dur(*d) == 0) {
                        next += 1;
                    }
                    let fault = match steps.get(next) {
                        Some(Step::Pause(d)) if sc.dur(*d) > 0 => Some(Fault::Pause(self.real(sc.dur(*d)))),
                        Some(Step::Crash) => Some(Fault::Crash),
                        _ => None,
                    };
                    if fault.is_some() {
                        i = next + 1;
                    }
                    let retry = match step {
                        Step::TryAcquire { retry } => self.real(self.sc.dur(retry)).max(POLL_NS),
                        _ => POLL_NS,
                    };
                    if !self.acquire(ttl, fault, retry)? {
                        return Ok(());
                    }
                }
                Step::Work(d) if self.sc.dur(d) == 0 => {}
                Step::Work(d) => self.work(now_ns() + self.real(self.sc.dur(d)))?,
                Step::WorkUntil(d) => self.work(t0 + self.real(self.sc.dur(d)))?,
                Step::Pause(d) => {
                    let ns = self.real(self.sc.dur(d));
                    if ns > 0 {
                        self.shared.signal(self.me, Signal::SIGSTOP);
                        wait_stopped(lock(&self.shared.workers[self.me]).pgid);
                        let at = now_ns();
                        self.shared.push(
                            at,
                            EventKind::PauseStart { worker: self.me, until: self.shared.since(at + ns) },
                        );
                        sleep_until(at + ns);
                        self.resume(at + ns)?;
                    }
                }
                Step::CheckLease => {
                    let Some(answer) = self.ask(json!({"cmd": "check"}), 0)? else { return Ok(()) };
                    let ok = answer["ok"].as_bool().unwrap_or(false);
                    self.shared.push(now_ns(), EventKind::CheckLease { worker: self.me, ok });
                    if !ok {
                        return Ok(());
                    }
                }
                Step::Write { .. } => {
                    let data = format!("{}'s work", self.name());
                    if self.ask(json!({"cmd": "write", "data": data}), 0)?.is_none() {
                        return Ok(());
                    }
                }
                Step::Release => {
                    lock(&self.shared.workers[self.me]).freed = None;
                    let at = now_ns();
                    if self.ask(json!({"cmd": "release"}), 0)?.is_none() {
                        return Ok(());
                    }
                    let mut state = lock(&self.shared.workers[self.me]);
                    let (freed, token) = (state.freed.take(), state.token.take());
                    drop(state);
                    self.shared.push(at, EventKind::Release { worker: self.me, token, freed });
                }
                Step::Crash => {
                    self.shared.signal(self.me, Signal::SIGKILL);
                    lock(&self.shared.workers[self.me]).killed = true;
                    self.shared.push(now_ns(), EventKind::Crash { worker: self.me });
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    fn work(&mut self, until: u64) -> Result<(), Bad> {
        let ns = until.saturating_sub(now_ns());
        let ms = ns.div_ceil(1_000_000);
        self.ask(json!({"cmd": "work", "ms": ms}), ns)?;
        sleep_until(until);
        Ok(())
    }

    /// `acquire` until the client has the lock (one attempt per command, again every `retry_ns`), or the
    /// horizon. Whether it got it.
    fn acquire(&mut self, ttl: Option<u64>, fault: Option<Fault>, retry_ns: u64) -> Result<bool, Bad> {
        self.shared.push(now_ns(), EventKind::Request { worker: self.me });
        lock(&self.shared.workers[self.me]).armed = fault;
        let first = now_ns();
        let mut waited = false;
        for attempt in 1_u64.. {
            let Some(answer) = self.ask(json!({"cmd": "acquire", "ttl_ms": ttl}), fault_ns(fault))? else {
                return Ok(false);
            };
            if answer["ok"] == Value::Bool(true) {
                let token = match answer.get("token") {
                    None | Some(Value::Null) => None,
                    Some(t) => Some(t.as_u64().ok_or_else(|| {
                        format!(
                            "worker {} answered acquire with token {t}, which is not a whole number",
                            self.name()
                        )
                    })?),
                };
                let mut state = lock(&self.shared.workers[self.me]);
                state.token = token;
                let pending = std::mem::take(&mut state.unreported);
                let armed = state.armed.take();
                drop(state);
                let mut events = lock(&self.shared.events);
                if pending.is_empty() {
                    // The client says it has the lock, but no command of its own set the key.
                    drop(events);
                    self.shared.push(
                        now_ns(),
                        EventKind::Grant {
                            worker: self.me,
                            token: token.unwrap_or(0),
                            expires: None,
                            over: None,
                        },
                    );
                } else {
                    for i in pending {
                        set_token(&mut events[i].kind, token.unwrap_or(0));
                    }
                    drop(events);
                }
                // A fault the proxy could not place (no grant seen) lands after the answer.
                match armed {
                    Some(Fault::Pause(ns)) => {
                        self.shared.signal(self.me, Signal::SIGSTOP);
                        let at = now_ns();
                        self.shared.push(
                            at,
                            EventKind::PauseStart { worker: self.me, until: self.shared.since(at + ns) },
                        );
                        sleep_until(at + ns);
                        self.resume(at + ns)?;
                    }
                    Some(Fault::Crash) => {
                        self.shared.signal(self.me, Signal::SIGKILL);
                        lock(&self.shared.workers[self.me]).killed = true;
                        self.shared.push(now_ns(), EventKind::Crash { worker: self.me });
                        return Ok(false);
                    }
                    None => {}
                }
                return Ok(!lock(&self.shared.workers[self.me]).killed);
            }
            if lock(&self.shared.workers[self.me]).killed {
                return Ok(false);
            }
            if !waited {
                waited = true;
                let holder = {
                    let guard = lock(&self.shared.lock);
                    self.shared.holder(&guard.1, now_ns())
                };
                self.shared.push(now_ns(), EventKind::Wait { worker: self.me, holder });
            }
            let next =
                first + attempt * retry_ns + 2_000_000 * self.me as u64 * u64::from(retry_ns > POLL_NS);
            if next >= self.horizon {
                return Ok(false);
            }
            sleep_until(next);
        }
        Ok(false)
    }
}

fn fault_ns(fault: Option<Fault>) -> u64 {
    match fault {
        Some(Fault::Pause(ns)) => ns,
        _ => 0,
    }
}

fn set_token(kind: &mut EventKind, t: u64) {
    match kind {
        EventKind::Grant { token, .. } | EventKind::Renew { token, .. } | EventKind::Expire { token, .. } => {
            *token = t
        }
        _ => {}
    }
}

/// Whether a process of group `pgid` still runs (a zombie runs nothing).
pub fn group_alive(pgid: u32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else { return false };
    entries.flatten().any(|e| {
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        // After the command name: state, ppid, pgrp.
        let fields: Vec<&str> =
            stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
        fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(pgid)
            && fields.first().is_some_and(|s| !matches!(*s, "Z" | "X"))
    })
}

/// Tells every thread of the run to stop when dropped.
struct StopOnDrop(Arc<Shared>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::SeqCst);
    }
}

/// The clients: one process group each, killed and reaped when dropped.
struct Clients {
    children: Vec<Child>,
}

impl Drop for Clients {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = killpg(Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX)), Signal::SIGKILL);
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Runs `client` as the workers of `id` with `inputs` on a real Redis server, time scaled by `scale`; says
/// what it starts on `log`. Spawn from the main thread only (see [`child_command`]).
pub fn conduct(
    id: ScenarioId,
    inputs: &Inputs,
    client: &str,
    scale: Scale,
    log: &mut dyn Write,
) -> Result<RealRun, Failure> {
    catch_signals();
    let interrupted = || caught().is_some();
    let sc = id.build(inputs);
    let simulated = sim::run(&sc);
    let server = RedisServer::start(&interrupted)?;
    let broken = |what: &'static str| move |e: io::Error| Failure::Broken(format!("{what}: {e}"));
    // Each line in one write: unbuffered, `writeln!` writes piece by piece, and a client's own stderr (the
    // same stream) could land inside a line and break the pids and ports the tests read off it.
    let _ = log.write_all(
        format!(
            "locksim check: redis-server {} pid {} on 127.0.0.1:{} in {}\n",
            server.version,
            server.pid(),
            server.port,
            server.dir().display()
        )
        .as_bytes(),
    );
    let db = server.dir().join("storage.db");
    Storage::create(&db).map_err(|e| Failure::Broken(format!("storage: {e}")))?;
    // Tokens are the client's business; its INCR counter (if it keeps one under this name) starts at 32.
    Redis::connect(server.port)
        .and_then(|mut r| {
            r.call(&["SET", &format!("{KEY}:token"), &sc.first_token.saturating_sub(1).to_string()])
        })
        .map_err(broken("preparing Redis"))?;
    let names: Vec<String> = sc.workers.iter().map(|w| w.name.clone()).collect();
    let shared = Arc::new(Shared {
        t0: AtomicU64::new(u64::MAX),
        scale,
        fencing: sc.fencing,
        names: names.clone(),
        lock: Mutex::new((Redis::connect(server.port).map_err(broken("connecting to Redis"))?, None)),
        workers: names.iter().map(|_| Mutex::default()).collect(),
        events: Mutex::new(Vec::new()),
        failed: Mutex::new(None),
        stop: AtomicBool::new(false),
        lag: AtomicU64::new(0),
    });
    // However the run ends, the proxies and the storage stop listening.
    let _stop = StopOnDrop(shared.clone());
    let mut threads = Vec::new();
    let mut clients = Clients { children: Vec::new() };
    let mut pipes = Vec::new();
    for (w, name) in names.iter().enumerate() {
        let redis = TcpListener::bind("127.0.0.1:0").map_err(broken("a port for the proxy"))?;
        let store = TcpListener::bind("127.0.0.1:0").map_err(broken("a port for the storage"))?;
        let (redis_port, store_port) = (
            redis.local_addr().map_err(broken("proxy"))?.port(),
            store.local_addr().map_err(broken("storage"))?.port(),
        );
        threads.push(proxy(shared.clone(), w, redis, server.port));
        threads.push(storage(shared.clone(), w, store, db.clone()));
        let mut child = child_command("sh")
            .args(["-c", client])
            .env("LOCKSIM_WORKER", name)
            .env("LOCKSIM_REDIS", format!("127.0.0.1:{redis_port}"))
            .env("LOCKSIM_REDIS_HOST", "127.0.0.1")
            .env("LOCKSIM_REDIS_PORT", redis_port.to_string())
            .env("LOCKSIM_LOCK_KEY", KEY)
            .env("LOCKSIM_STORAGE", format!("127.0.0.1:{store_port}"))
            .env("LOCKSIM_STORAGE_HOST", "127.0.0.1")
            .env("LOCKSIM_STORAGE_PORT", store_port.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| Failure::Usage(format!("--client {client:?} does not start: {e}")))?;
        let _ = log.write_all(
            format!(
                "locksim check: worker {name} pid {} (Redis through 127.0.0.1:{redis_port}, storage on 127.0.0.1:{store_port})\n",
                child.id()
            )
            .as_bytes(),
        );
        lock(&shared.workers[w]).pgid = child.id();
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take();
        std::thread::spawn(move || {
            if let Some(out) = stdout {
                for line in BufReader::new(out).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(Line::Text(now_ns(), line)).is_err() {
                        return;
                    }
                }
            }
            let _ = tx.send(Line::End(now_ns()));
        });
        pipes.push((child.stdin.take(), rx));
        clients.children.push(child);
    }
    // Every client says hello before t = 0.
    let horizon_ms = simulated.trace.end + sc.ttl + 1_000;
    let mut drivers = Vec::new();
    for (w, (stdin, rx)) in pipes.into_iter().enumerate() {
        let stdin = stdin.ok_or_else(|| Failure::Broken("no pipe".into()))?;
        let mut d = Driver { shared: shared.clone(), me: w, sc: sc.clone(), stdin, rx, horizon: u64::MAX };
        let hello = json!({"cmd": "hello", "worker": names[w], "ttl_ms": scale.real_ms(sc.ttl)});
        match d.ask(hello, HELLO_NS - ANSWER_NS) {
            Ok(Some(_)) => {}
            Ok(None) => return Err(Failure::Interrupted),
            Err(msg) => return Err(Failure::Broken(msg.replace(" at 0 ms", " before t = 0"))),
        }
        drivers.push(d);
    }
    let t0 = now_ns() + 20_000_000;
    shared.t0.store(t0, Ordering::SeqCst);
    let horizon = t0 + scale.real_ns(horizon_ms);
    let mut running = Vec::new();
    for mut d in drivers {
        d.horizon = horizon;
        running.push(std::thread::spawn(move || {
            sleep_until(d.shared.t0());
            if let Err(msg) = d.run() {
                d.shared.fail(msg);
            }
            // Any answer that came after the last command is out of turn.
            let until = now_ns() + 5_000_000;
            while now_ns() < until && !d.shared.stopped() {
                if let Err(msg) = d.nothing_pending() {
                    d.shared.fail(msg);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            d.stdin
        }));
    }
    let mut stdins = Vec::new();
    loop {
        if interrupted() {
            shared.stop.store(true, Ordering::SeqCst);
            return Err(Failure::Interrupted);
        }
        if shared.stopped() || running.iter().all(JoinHandle::is_finished) || now_ns() >= horizon + ANSWER_NS
        {
            shared.stop.store(true, Ordering::SeqCst);
            // Every stopped client goes on, so that it can hear SIGTERM.
            for w in 0..names.len() {
                shared.signal(w, Signal::SIGCONT);
            }
            for r in running {
                stdins.extend(r.join().ok());
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let end = now_ns();
    if let Some(msg) = lock(&shared.failed).take() {
        return Err(Failure::Broken(msg));
    }
    // The end: standard input closes, SIGTERM; a client still running a second later is killed and fails the run.
    drop(stdins);
    for w in 0..names.len() {
        if !lock(&shared.workers[w]).killed {
            shared.signal(w, Signal::SIGTERM);
        }
    }
    let deadline = now_ns() + TERM_NS;
    for (w, child) in clients.children.iter_mut().enumerate() {
        if lock(&shared.workers[w]).killed {
            continue;
        }
        let pgid = child.id();
        // The whole process group: `sh -c` may have ended while what it started goes on.
        while child.try_wait().ok().flatten().is_none() || group_alive(pgid) {
            if now_ns() > deadline {
                return Err(Failure::Broken(format!(
                    "worker {} ignored SIGTERM: still running {} ms after the run ended at {} ms (killed)",
                    names[w],
                    TERM_NS / 1_000_000,
                    shared.ms(end)
                )));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    drop(clients);
    // A lease that ran out with no command after it is an expiry too.
    let mut events = std::mem::take(&mut *lock(&shared.events));
    {
        let held = lock(&shared.lock).1.take();
        if let Some(h) = held.filter(|h| h.expires.is_some_and(|e| e < end)) {
            let token = events
                .iter()
                .rev()
                .find_map(|e| match e.kind {
                    EventKind::Grant { worker, token, .. } if worker == h.worker => Some(token),
                    _ => None,
                })
                .unwrap_or(0);
            events.push(Event {
                at: shared.since(h.expires.unwrap_or(end)),
                kind: EventKind::Expire { worker: h.worker, token },
            });
        }
    }
    // Expiries noted before the client reported its token carry it too.
    fill_expiry_tokens(&mut events);
    for t in threads {
        let _ = t.join();
    }
    // A run where the lab itself fell behind (a stalled machine) is not about this scenario.
    let lag = scale.scenario_ms(shared.lag.load(Ordering::SeqCst));
    let bound = super::jitter_bound(sc.ttl);
    if lag >= bound {
        return Err(Failure::Broken(format!(
            "the lab could not keep its timing: its own part of one step took {lag} ms (scenario time), over \
             the bound of {bound} ms (a tenth of the lease), so the run gives no verdict; try again on a less \
             busy machine"
        )));
    }
    let events = scaled(events, scale);
    let real = sim::replay(&sc, &events);
    let jitter = jitter(&simulated.trace.events, &real.trace.events);
    Ok(RealRun {
        scenario: id,
        inputs: *inputs,
        backend: Backend::Redis,
        version: server.version.clone(),
        scale: scale.0,
        simulated,
        real,
        jitter,
        client: Some(client.to_owned()),
    })
}

/// An expiry's or a renewal's token is that of the worker's grant before it.
fn fill_expiry_tokens(events: &mut [Event]) {
    events.sort_by_key(|e| e.at);
    for i in 0..events.len() {
        let (EventKind::Expire { worker, token: 0 } | EventKind::Renew { worker, token: 0, .. }) =
            events[i].kind
        else {
            continue;
        };
        let token = events[..i].iter().rev().find_map(|e| match e.kind {
            EventKind::Grant { worker: w, token, .. } if w == worker => Some(token),
            _ => None,
        });
        set_token(&mut events[i].kind, token.unwrap_or(0));
    }
}

/// The record in scenario ms, in time order (an expiry first within one millisecond, as in the core).
fn scaled(events: Vec<Event>, scale: Scale) -> Vec<Event> {
    let mut out: Vec<(u64, u8, u64, Event)> = events
        .into_iter()
        .map(|e| {
            let ms = scale.scenario_ms(e.at);
            let rank = u8::from(!matches!(e.kind, EventKind::Expire { .. }));
            let kind = match e.kind {
                EventKind::Grant { worker, token, expires, over } => {
                    EventKind::Grant { worker, token, expires: expires.map(|t| scale.scenario_ms(t)), over }
                }
                EventKind::PauseStart { worker, until } => {
                    EventKind::PauseStart { worker, until: scale.scenario_ms(until) }
                }
                EventKind::Write { worker, token, arrives } => {
                    EventKind::Write { worker, token, arrives: scale.scenario_ms(arrives) }
                }
                EventKind::Store {
                    worker,
                    token,
                    sent,
                    accepted,
                    highest_before,
                    written_before,
                    stale,
                    holder,
                } => EventKind::Store {
                    worker,
                    token,
                    sent: scale.scenario_ms(sent),
                    accepted,
                    highest_before,
                    written_before,
                    stale,
                    holder,
                },
                EventKind::Renew { worker, token, expires } => {
                    EventKind::Renew { worker, token, expires: scale.scenario_ms(expires) }
                }
                other => other,
            };
            (ms, rank, e.at, Event { at: ms, kind })
        })
        .collect();
    out.sort_by_key(|&(ms, rank, ns, _)| (ms, rank, ns));
    out.into_iter().map(|(.., e)| e).collect()
}

/// The first bad event of a run, in words: the deciding write, the double grant, or the longest wait.
pub fn first_bad(sc_names: &[String], outcome: &Outcome) -> String {
    let name = |w: WorkerId| sc_names.get(w).map_or("?", String::as_str);
    match outcome.kind {
        OutcomeKind::Safe => "-".into(),
        OutcomeKind::Stalled | OutcomeKind::Orphaned => match outcome.wait {
            Some(w) => match w.until {
                Some(until) => format!(
                    "{} waited from {} to {} ms for {}",
                    name(w.worker),
                    w.from,
                    until,
                    name(w.holder)
                ),
                None => {
                    format!("{} waited from {} ms for {} to the end", name(w.worker), w.from, name(w.holder))
                }
            },
            None => "-".into(),
        },
        _ => match (outcome.double_grant, outcome.stale_write) {
            (Some(d), _) if outcome.kind == OutcomeKind::DoubleGrant => {
                format!("{} ms: {} granted while {} held the lock", d.at, name(d.later), name(d.earlier))
            }
            (_, Some(w)) => format!(
                "{} ms: {}'s write {} {}",
                w.at,
                name(w.worker),
                w.token.map_or("without a token".to_owned(), |t| format!("with token {t}")),
                if w.accepted { "accepted" } else { "rejected" }
            ),
            _ => "-".into(),
        },
    }
}

/// Checks `--scenario` for `locksim check`: a scenario a client can play, on Redis.
pub fn supported(id: ScenarioId, backend: Option<&str>) -> Result<(), Failure> {
    match backend.map(str::trim) {
        None | Some("redis") => {}
        Some(other) => {
            return Err(Failure::Usage(format!(
                "--backend {other:?}: locksim check runs clients against redis (etcd and ZooKeeper clients are not \
                 supported yet)"
            )))
        }
    }
    if !SCENARIOS.contains(&id) {
        let ids: Vec<&str> = SCENARIOS.iter().map(|s| s.id()).collect();
        return Err(Failure::Usage(format!(
            "{} cannot be played by a client (it needs more than one Redis server or a step of the lab's own); \
             locksim check runs: {}",
            id.id(),
            ids.join(", ")
        )));
    }
    Ok(())
}

/// The inputs `--all` runs a scenario with: its defaults, and gc-pause's the source's own question (15 s).
pub fn all_inputs(id: ScenarioId) -> Inputs {
    lesson::opening(id, true)
}

/// `locksim check`: one run (`all` false) or every scenario a client can play, printed; the exit code (2:
/// bad flags; 1: a failure on the way, a bad client; 128 + the signal when interrupted).
pub fn main(
    id: ScenarioId,
    inputs: &Inputs,
    client: Option<&str>,
    backend: Option<&str>,
    all: bool,
    json: bool,
    usage: &str,
) -> ExitCode {
    let client = match client.map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => c,
        None => return super::cli::exit(Failure::Usage("locksim check needs --client CMD".into()), usage),
    };
    if let Err(f) = supported(if all { ScenarioId::GcPause } else { id }, backend) {
        return super::cli::exit(f, usage);
    }
    let scale = Scale(Backend::Redis.default_scale(id));
    if !all {
        return match conduct(id, inputs, client, scale, &mut io::stderr()) {
            Ok(run) => {
                let text = if json { run.json() } else { run.text() };
                let _ = io::stdout().write_all(text.as_bytes());
                ExitCode::SUCCESS
            }
            Err(f) => super::cli::exit(f, usage),
        };
    }
    let mut rows = vec![[
        "scenario".to_owned(),
        "verdict".to_owned(),
        "lab's client".to_owned(),
        "first bad event".to_owned(),
    ]];
    let mut runs = Vec::new();
    for id in SCENARIOS {
        match conduct(id, &all_inputs(id), client, scale, &mut io::stderr()) {
            Ok(run) => {
                let names: Vec<String> = run.real.trace.workers.iter().map(|w| w.name.clone()).collect();
                rows.push([
                    id.id().to_owned(),
                    run.real.outcome.kind.to_string(),
                    run.simulated.outcome.kind.to_string(),
                    first_bad(&names, &run.real.outcome),
                ]);
                runs.push(run);
            }
            Err(f) => return super::cli::exit(f, usage),
        }
    }
    let out = if json {
        let all: Vec<Value> = runs.iter().filter_map(|r| serde_json::from_str(&r.json()).ok()).collect();
        serde_json::to_string(&all).unwrap_or_default() + "\n"
    } else {
        let widths: Vec<usize> = (0..4).map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0)).collect();
        rows.iter()
            .map(|r| {
                let cells: Vec<String> = (0..4).map(|c| format!("{:<w$}", r[c], w = widths[c])).collect();
                cells.join("  ").trim_end().to_owned() + "\n"
            })
            .collect()
    };
    let _ = io::stdout().write_all(out.as_bytes());
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Service;

    #[test]
    fn every_checked_scenario_runs_on_one_server_with_steps_a_client_can_play() {
        for id in SCENARIOS {
            let sc = id.build(&all_inputs(id));
            assert_eq!(sc.service, Service::Single, "{}", id.id());
            for w in &sc.workers {
                for s in &w.steps {
                    assert!(
                        !matches!(s, Step::Get | Step::Write { delay: sim::Dur::Ms(1..) }),
                        "{}: {s:?}",
                        id.id()
                    );
                }
            }
            assert!(!sc.register, "{}", id.id());
        }
    }
}
