//! A worker: a real OS process (`locksim real-worker JSON`, the same binary re-executed by the conductor)
//! that follows its worker's steps of the core's [`Scenario`] against the real lock service and storage,
//! and reports each thing it does as a core [`Event`] stamped on the shared monotonic clock.
//!
//! It does not pause itself: at a `Pause` step it tells the conductor and idles until the conductor has
//! stopped it (SIGSTOP) and let it go on (SIGCONT, which a handler notes), so the pause hits exactly there.
//! At a `Crash` step it tells the conductor, which kills it (SIGKILL).
//!
//! On a replicated service it also reports the servers its changes reached (`Node` events: the client
//! knows which node it wrote to and whether the replica acknowledged) and, on a consensus group, each
//! keepalive that renewed its lease (`Renew`).

use std::error::Error;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use super::clock::{now_ns, sleep_until, Scale};
use super::lock::{mark, parse_mark, unreachable, LockClient, Take, Taken};
use super::pg::Pg;
use super::redlock::Redlock;
use super::storage::{Resource, Storage};
use super::Backend;
use crate::scenarios::{Inputs, ScenarioId};
use crate::sim::{Event, EventKind, NodeChange, Release, Scenario, Service, Step, WorkerId};

/// How often a waiting worker looks whether the lock is free (or its turn came), in scenario ms: 0.5 ms of
/// real time at Redis's scale 0.1, 5 ms at etcd's 1, so a slower run is read as finely in scenario time and
/// does not spend a core on asking (etcd answers each read through its JSON gateway). Redis has no queue, so
/// a waiter polls; etcd's recipe queues the keys, and a waiter polls for its key to be the lowest (etcd's
/// client watches the key before it instead). This is the wait the core models as a queue.
const POLL_MS: u64 = 5;

/// The shortest wait between two looks, in real time (what [`POLL_MS`] is at scale 0.1).
const POLL_NS: u64 = 500_000;

/// How much later a retry of worker index `i` comes than the scenario says: `i` times this (real time), so
/// that on the same instant a lower index acts first, as in the core.
const STAGGER_NS: u64 = 25_000_000;

/// Everything a worker process needs, passed as one JSON argument.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WorkerArgs {
    /// The scenario, rebuilt here with [`ScenarioId::build`].
    pub scenario: ScenarioId,
    /// Its inputs.
    pub inputs: Inputs,
    /// Which of the scenario's workers this is.
    pub index: WorkerId,
    /// The lock service.
    pub backend: Backend,
    /// Its servers' ports on loopback, the primary first.
    pub ports: Vec<u16>,
    /// The run's directory.
    pub dir: PathBuf,
    /// The storage file.
    pub db: PathBuf,
    /// Real time per scenario time.
    pub scale: f64,
    /// A loopback port nothing listens on: where a Redlock worker reaches the servers it is cut off from.
    #[serde(default)]
    pub cut_off: u16,
    /// `network-delay`: the PostgreSQL server's port, and the delaying proxy's in front of it.
    #[serde(default)]
    pub pg: Option<(u16, u16)>,
}

/// One line a worker writes to the conductor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "msg", rename_all = "kebab-case")]
pub enum Report {
    /// Connected and waiting for `go T0` on standard input.
    Ready,
    /// Something it did; every time in it is real nanoseconds since t = 0.
    Event {
        /// The event.
        event: Event,
    },
    /// At a `Pause` step: stop me now, for this long.
    PausePoint {
        /// The pause's real length.
        for_ns: u64,
    },
    /// At a `Crash` step: kill me now.
    CrashPoint,
}

/// Set by signal-hook's SIGCONT handler: the conductor let the worker go on after a pause.
static RESUMED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

fn resumed() -> &'static AtomicBool {
    RESUMED.get_or_init(Arc::default)
}

/// `locksim real-worker JSON`: runs one worker; exit code 1 with a message on any failure.
pub fn main(arg: &str) -> ExitCode {
    match run(arg) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("locksim real-worker: {e}");
            ExitCode::from(1)
        }
    }
}

fn send(report: &Report) -> io::Result<()> {
    let mut out = io::stdout().lock();
    serde_json::to_writer(&mut out, report)?;
    out.write_all(b"\n")?;
    out.flush()
}

fn run(arg: &str) -> Result<(), Box<dyn Error>> {
    let args: WorkerArgs = serde_json::from_str(arg)?;
    let sc = args.scenario.build(&args.inputs);
    if args.index >= sc.workers.len() {
        return Err(format!("{} has no worker {}", args.scenario.id(), args.index).into());
    }
    let mut lock = args.backend.client(&sc, &args.ports, &args.dir, args.scale)?;
    // Redlock: this worker's own client, whose servers out of its reach are a port nothing listens on, and
    // labelled with its own token (Redlock has none); the full view stays for the record (`observer`).
    let mut observer = None;
    if let Service::Redlock { reach, .. } = sc.service {
        let mask = reach.get(args.index).copied().unwrap_or(u8::MAX);
        let ports: Vec<u16> = (args.ports.iter().enumerate())
            .map(|(n, &p)| if mask & (1 << n) != 0 { p } else { args.cut_off })
            .collect();
        let token = sc.first_token + args.index as u64;
        observer = Some(std::mem::replace(&mut lock, Box::new(Redlock::new(&ports, token))));
    }
    let storage: Box<dyn Resource> = match args.pg {
        // `network-delay`: a worker whose program has a delayed write reaches the server through the proxy.
        Some((direct, delayed)) => {
            let late = sc.workers[args.index]
                .steps
                .iter()
                .any(|s| matches!(s, Step::Write { delay } if sc.dur(*delay) > 0));
            Box::new(Pg::open(if late { delayed } else { direct })?)
        }
        None => Box::new(Storage::open(&args.db)?),
    };
    // The handler only stores to an atomic (async-signal-safe), installed with SA_RESTART.
    resumed();
    signal_hook::flag::register(signal_hook::consts::SIGCONT, Arc::clone(RESUMED.get_or_init(Arc::default)))?;
    send(&Report::Ready)?;
    let mut line = String::new();
    io::stdin().lock().read_line(&mut line)?;
    let t0: u64 = line.strip_prefix("go ").and_then(|t| t.trim().parse().ok()).ok_or("expected `go T0`")?;
    if let Service::Consensus { .. } = sc.service {
        // A renewal is stamped when its reply came; the lease then ends a ttl after the keepalive was sent.
        let (me, ttl_ns) = (args.index, Scale(args.scale).real_ns(sc.ttl));
        lock.on_renew(Arc::new(move |token, sent, replied| {
            let expires = sent.saturating_sub(t0) + ttl_ns;
            let kind = EventKind::Renew { worker: me, token, expires };
            let _ = send(&Report::Event { event: Event { at: replied.saturating_sub(t0), kind } });
        }));
    }
    let mut worker = Worker {
        sc: &sc,
        args: &args,
        me: args.index,
        scale: Scale(args.scale),
        t0,
        lock,
        failover: matches!(sc.service, Service::Failover { .. }),
        storage,
        observer,
        token: None,
        mark: None,
        grants: 0,
        saw_free: false,
    };
    sleep_until(t0);
    worker.run()
}

struct Worker<'a> {
    sc: &'a Scenario,
    args: &'a WorkerArgs,
    me: WorkerId,
    scale: Scale,
    t0: u64,
    lock: Box<dyn LockClient + Send>,
    /// The service fails over: while no primary answers, the worker waits instead of failing.
    failover: bool,
    storage: Box<dyn Resource>,
    /// Redlock: a client of every server, for who holds the lock when a write arrives (the record's view,
    /// which the worker, cut off from some servers, does not have).
    observer: Option<Box<dyn LockClient + Send>>,
    /// The token it believes it holds.
    token: Option<u64>,
    /// The mark of the grant it believes it holds.
    mark: Option<String>,
    grants: usize,
    /// Whether its last `GET` saw the lock free.
    saw_free: bool,
}

impl Worker<'_> {
    /// How long a waiter waits between two looks at the lock, in real ns.
    fn poll_ns(&self) -> u64 {
        self.scale.real_ns(POLL_MS).max(POLL_NS)
    }

    fn now(&self) -> u64 {
        now_ns().saturating_sub(self.t0)
    }

    fn name(&self) -> &str {
        &self.sc.workers[self.me].name
    }

    fn emit(&self, at: u64, kind: EventKind) -> io::Result<()> {
        send(&Report::Event { event: Event { at, kind } })
    }

    /// The worker whose mark this is.
    fn whose(&self, mark: Option<&str>) -> Option<WorkerId> {
        let (name, _) = parse_mark(mark?)?;
        self.sc.workers.iter().position(|w| w.name == name)
    }

    fn run(&mut self) -> Result<(), Box<dyn Error>> {
        let ttl = self.sc.ttl;
        let lease = if self.sc.lease { Take::Lease(self.scale.real_ms(ttl)) } else { Take::Forever };
        for &step in &self.sc.workers[self.me].steps {
            match step {
                Step::Idle(d) | Step::Work(d) => sleep_until(now_ns() + self.scale.real_ns(self.sc.dur(d))),
                Step::WorkUntil(until) => sleep_until(self.t0 + self.scale.real_ns(self.sc.dur(until))),
                Step::Pause(d) => {
                    let d = self.sc.dur(d);
                    if d > 0 {
                        self.pause_point(self.scale.real_ns(d))?;
                    }
                }
                Step::Acquire => self.acquire(lease, self.poll_ns())?,
                Step::AcquireNoExpiry => self.acquire(Take::Setnx, self.poll_ns())?,
                Step::TryAcquire { retry } => {
                    self.try_acquire(lease, self.scale.real_ns(self.sc.dur(retry)).max(self.poll_ns()))?
                }
                Step::Get => {
                    let at = self.now();
                    let free = self.lock.holder()?.is_none();
                    self.saw_free = free;
                    self.emit(at, EventKind::Get { worker: self.me, free })?;
                }
                // After a GET that saw the lock taken, a SET waits its turn as an acquire does.
                Step::Set if !self.saw_free => self.acquire(lease, self.poll_ns())?,
                Step::Set => self.take_over(lease)?,
                Step::CheckLease => {
                    // The worker asks the lock service itself (PTTL, LeaseTimeToLive) how much is left.
                    let at = self.now();
                    let ok = !self.sc.lease
                        || match self.mark.clone() {
                            Some(mark) => self.lock.lease_left(&mark)?.is_some(),
                            None => false,
                        };
                    self.emit(at, EventKind::CheckLease { worker: self.me, ok })?;
                    if !ok {
                        self.token = None;
                        self.mark = None;
                        return Ok(());
                    }
                }
                Step::Write { delay } => self.write(self.scale.real_ns(self.sc.dur(delay)))?,
                Step::Release => self.release()?,
                Step::Crash => {
                    // The conductor's SIGKILL ends this process here.
                    send(&Report::CrashPoint)?;
                    loop {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                }
            }
        }
        Ok(())
    }

    fn pause_point(&self, for_ns: u64) -> io::Result<()> {
        resumed().store(false, Ordering::SeqCst);
        send(&Report::PausePoint { for_ns })?;
        while !resumed().load(Ordering::SeqCst) {
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
        Ok(())
    }

    /// `op` on the lock service; `None` if no server answered and the service fails over.
    fn reach<T>(
        &mut self,
        op: impl FnOnce(&mut (dyn LockClient + Send)) -> io::Result<T>,
    ) -> io::Result<Option<T>> {
        match op(self.lock.as_mut()) {
            Ok(v) => Ok(Some(v)),
            Err(e) if self.failover && unreachable(&e) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A `Node` event for each server the last take or release reached.
    fn nodes(&self, change: NodeChange) -> io::Result<()> {
        for &node in self.lock.reached() {
            self.emit(self.now(), EventKind::Node { node, change })?;
        }
        Ok(())
    }

    /// Take the lock, polling with a read while someone holds it, or while no server answers.
    fn acquire(&mut self, how: Take, poll_ns: u64) -> Result<(), Box<dyn Error>> {
        self.emit(self.now(), EventKind::Request { worker: self.me })?;
        let value = mark(self.name(), self.grants + 1);
        let mut waited = false;
        loop {
            if let Some(taken) = self.reach(|l| l.take(&value, how))?.flatten() {
                let at = self.now();
                self.grants += 1;
                self.mark = Some(value);
                self.granted(at, taken, how, None)?;
                return Ok(self.nodes(NodeChange::Set(self.me))?);
            }
            // Whose mark the lock holds; `None`: no server answered.
            let seen = self.reach(|l| l.holder())?;
            if seen.as_ref().is_some_and(|h| h.is_none() || h.as_deref() == Some(value.as_str())) {
                // Freed between the two calls, or (in a queue) this worker's turn came: try again at once.
                continue;
            }
            if !waited {
                waited = true;
                // A waiter that reached no server cannot say who holds the lock: the record says who last did.
                let holder = self.whose(seen.clone().flatten().as_deref());
                self.emit(self.now(), EventKind::Wait { worker: self.me, holder })?;
            }
            // Until that changes: the holder lets go, its lease runs out, a server answers again.
            loop {
                sleep_until(now_ns() + poll_ns);
                if self.reach(|l| l.holder())? != seen {
                    break;
                }
            }
        }
    }

    /// `SET NX` now and, while someone holds the lock, again every `retry_ns` from the first try, as the
    /// step says (no queue: a try that comes between two holders wins, one that comes during a hold fails).
    /// A retry that falls on the same scenario instant as another worker's action comes [`STAGGER_NS`] per
    /// worker index later: the core's rule that a lower index acts first on the same millisecond, which real
    /// processes cannot keep on their own.
    fn try_acquire(&mut self, how: Take, retry_ns: u64) -> Result<(), Box<dyn Error>> {
        let first = now_ns();
        self.emit(self.now(), EventKind::Request { worker: self.me })?;
        let value = mark(self.name(), self.grants + 1);
        for attempt in 1_u64.. {
            if let Some(taken) = self.lock.take(&value, how)? {
                let at = self.now();
                self.grants += 1;
                self.mark = Some(value);
                self.granted(at, taken, how, None)?;
                return Ok(self.nodes(NodeChange::Set(self.me))?);
            }
            if attempt == 1 {
                let holder = self.lock.holder()?;
                let holder = self.whose(holder.as_deref());
                self.emit(self.now(), EventKind::Wait { worker: self.me, holder })?;
            }
            sleep_until(first + attempt * retry_ns + STAGGER_NS * self.me as u64);
        }
        unreachable!("the loop returns")
    }

    /// Notes a grant taken at `at` (over `over`'s lock, for a plain SET) and reports it; with `register`, the
    /// token goes to the storage first, before the holder does anything else.
    fn granted(
        &mut self,
        at: u64,
        taken: Taken,
        how: Take,
        over: Option<WorkerId>,
    ) -> Result<(), Box<dyn Error>> {
        self.token = Some(taken.token);
        let expires = match how {
            Take::Lease(_) => {
                Some(taken.lease_from_ns.saturating_sub(self.t0) + self.scale.real_ns(self.sc.ttl))
            }
            Take::Forever | Take::Setnx => None,
        };
        self.emit(at, EventKind::Grant { worker: self.me, token: taken.token, expires, over })?;
        if self.sc.register {
            self.storage.register(taken.token)?;
            self.emit(self.now(), EventKind::Register { worker: self.me, token: taken.token })?;
        }
        Ok(())
    }

    /// A `SET` without `NX` after a `GET` that saw the lock free: it takes the lock whoever holds it now.
    fn take_over(&mut self, how: Take) -> Result<(), Box<dyn Error>> {
        self.emit(self.now(), EventKind::Request { worker: self.me })?;
        let value = mark(self.name(), self.grants + 1);
        let (taken, over) = self.lock.take_over(&value, how)?;
        let at = self.now();
        self.grants += 1;
        self.mark = Some(value);
        let over = self.whose(over.as_deref());
        self.granted(at, taken, how, over)
    }

    fn write(&mut self, delay_ns: u64) -> Result<(), Box<dyn Error>> {
        let sent = self.now();
        // Redlock's value is random: the write carries nothing the storage could order.
        let token = self.token.filter(|_| self.sc.tokens());
        self.emit(sent, EventKind::Write { worker: self.me, token, arrives: sent + delay_ns })?;
        let name = self.name().to_owned();
        // Through the delaying proxy (`network-delay`) the write itself spends the delay on the wire and the
        // storage answers when it arrives; otherwise a delay (none in a scenario without that proxy) is waited.
        let mut stored = None;
        if self.args.pg.is_some() {
            stored = Some(self.storage.write(&name, token, self.sc.fencing)?);
        } else {
            sleep_until(self.t0 + sent + delay_ns);
        }
        // Who the lock service counts as holder when the write arrives: what makes a write stale (no one, if
        // no server answers).
        let seen = match self.observer.as_mut() {
            Some(observer) => observer.holder()?,
            // ZooKeeper: a holder stopped past its session timeout finds its session expired and can ask
            // nothing more; the record's view of who holds the lock comes from a new session.
            None if self.args.backend == Backend::Zookeeper => match self.lock.holder() {
                Err(e) if unreachable(&e) => {
                    let (a, sc) = (self.args, self.sc);
                    a.backend.client(sc, &a.ports, &a.dir, a.scale)?.holder()?
                }
                other => other?,
            },
            None => self.reach(|l| l.holder())?.flatten(),
        };
        let at = self.now();
        let stale = self.mark.is_none() || seen != self.mark;
        let holder = self.whose(seen.as_deref());
        let stored = match stored {
            Some(stored) => stored,
            None => self.storage.write(&name, token, self.sc.fencing)?,
        };
        let kind = EventKind::Store {
            worker: self.me,
            token,
            sent,
            accepted: stored.accepted,
            highest_before: stored.highest_before,
            written_before: stored.written_before,
            stale,
            holder,
        };
        Ok(self.emit(at, kind)?)
    }

    fn release(&mut self) -> Result<(), Box<dyn Error>> {
        let at = self.now();
        let freed = match (self.sc.release, self.mark.take()) {
            (Release::CompareAndDelete, Some(mark)) => self.lock.release_compare(&mark)?.then_some(self.me),
            (Release::CompareAndDelete, None) => None,
            (Release::PlainDelete, _) => {
                let deleted = self.lock.release_plain()?;
                self.whose(deleted.as_deref())
            }
        };
        let token = self.token.take();
        if let Service::Redlock { .. } = self.sc.service {
            // Redlock deletes its key on every server that still had it, majority or not.
            for &node in self.lock.reached() {
                self.emit(at, EventKind::Node { node, change: NodeChange::Clear(self.me) })?;
            }
        }
        self.emit(at, EventKind::Release { worker: self.me, token, freed })?;
        if let (Some(holder), false) = (freed, matches!(self.sc.service, Service::Redlock { .. })) {
            self.nodes(NodeChange::Clear(holder))?;
        }
        Ok(())
    }
}
