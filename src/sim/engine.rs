//! Engine: a small discrete-event simulation of workers, a lock service and a storage.
//!
//! Pending happenings sit in a queue ordered by (time, phase, actor, insertion). The phases give the
//! same-millisecond order of the semantics (docs/semantics.md, rule 7): lease expiries, then changes of a
//! replicated service, then lock grants, then keepalives, then worker actions (lower index first), then
//! delayed writes arriving at the storage. A phase never reaches back into an earlier one: an expiry frees
//! the lock, and the grant that follows waits for the grant phase, after the service's changes.
//!
//! A run ends when nothing is left to happen, or at [`HORIZON`]: a worker polling for a lock nobody will
//! ever free would otherwise poll for ever.

use super::scenario::{Ms, Release, Scenario, Service, Step, MAX_NODES};

/// The end of every run (20 minutes): nothing after it happens.
pub const HORIZON: Ms = 1_200_000;
use super::trace::{Event, EventKind, NodeChange, Observer, WorkerId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    Expiry,
    /// A server crashing, a promotion, a clock jump, a leader lost or ready: after the expiries of the same
    /// millisecond (rule 7), before its grants.
    Service,
    Grant,
    /// A client's keepalive, sent by its own thread: before the worker's actions of the same millisecond, so
    /// a pause that starts then has not stopped it yet, whichever keepalive it is.
    Keepalive,
    Worker,
    Delivery,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Happening {
    /// A lease may run out (ignored if the holder already released it).
    Expire { token: u64 },
    /// A lock-delay is over.
    LockFree,
    /// A worker goes on with its program.
    Continue(WorkerId),
    /// A worker's pause ends.
    Wake(WorkerId),
    /// A delayed write reaches the storage; its writer goes on once it is handled.
    Arrive { worker: WorkerId, token: Option<u64>, sent: Ms },
    /// A worker polling with `SET NX` tries again.
    Retry(WorkerId),
    /// Failover: the primary crashes.
    PrimaryDown,
    /// Failover: the replica becomes the primary.
    Promote,
    /// Redlock: a server's clock jumps forward.
    Jump,
    /// Redlock: a key on a server may have run out by that server's clock.
    NodeExpire { node: usize, worker: WorkerId },
    /// Consensus: the holder's client sends a keepalive.
    Keepalive { worker: WorkerId, token: u64 },
    /// Consensus: the leader crashes.
    LeaderDown,
    /// Consensus: a new leader is ready.
    LeaderReady,
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    at: Ms,
    phase: Phase,
    actor: usize,
    seq: u32,
    what: Happening,
}

impl Pending {
    fn key(&self) -> (Ms, Phase, usize, u32) {
        (self.at, self.phase, self.actor, self.seq)
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct WorkerState {
    /// Index of the next step.
    pc: usize,
    /// The token the worker believes it holds.
    token: Option<u64>,
    /// When its lease runs out by its own clock (grant + ttl).
    lease_end: Option<Ms>,
    /// What its last `GET` saw: the lock free.
    saw_free: bool,
    /// Polling for the lock (its wait is already on record).
    retrying: bool,
    /// Stopped the world: its keepalives stop too.
    paused: bool,
    /// A keepalive fell due while it was paused: sent on waking.
    overdue: bool,
    /// Consensus: the token its request was given (its key's place in the log), until it is granted.
    ticket: Option<u64>,
}

#[derive(Clone, Copy, Debug)]
struct Holder {
    worker: WorkerId,
    token: u64,
    expires: Option<Ms>,
}

struct Engine<'s, O: Observer + ?Sized> {
    sc: &'s Scenario,
    obs: &'s mut O,
    /// A handful of entries at most, so a linear scan beats a heap.
    queue: Vec<Pending>,
    seq: u32,
    workers: Vec<WorkerState>,
    holder: Option<Holder>,
    waiters: Vec<WorkerId>,
    next_token: u64,
    unavailable_until: Ms,
    highest: Option<u64>,
    /// The highest token of an accepted write (registrations raise `highest` only).
    highest_written: Option<u64>,
    /// Failover: the node serving the lock (0 until the replica, 1, is promoted).
    primary: usize,
    /// Redlock: each server's key, its holder and expiry by that server's clock.
    keys: [Option<(WorkerId, Ms)>; MAX_NODES],
    /// Redlock: how far each server's clock runs ahead.
    offset: [Ms; MAX_NODES],
}

/// The engine's working memory, kept between runs by callers that do many (searches, outcome maps): a run
/// then allocates nothing.
#[derive(Default)]
pub struct Buffers {
    queue: Vec<Pending>,
    workers: Vec<WorkerState>,
    waiters: Vec<WorkerId>,
}

/// Runs `scenario` from t = 0 until nothing is left to happen, telling `observer` every event in order.
pub fn simulate<O: Observer + ?Sized>(scenario: &Scenario, observer: &mut O) {
    simulate_in(scenario, observer, &mut Buffers::default());
}

/// [`simulate`], reusing `buffers`; returns the run's work: how many happenings it scheduled.
pub fn simulate_in<O: Observer + ?Sized>(
    scenario: &Scenario,
    observer: &mut O,
    buffers: &mut Buffers,
) -> u32 {
    let mut engine = Engine {
        sc: scenario,
        obs: observer,
        queue: std::mem::take(&mut buffers.queue),
        seq: 0,
        workers: std::mem::take(&mut buffers.workers),
        holder: None,
        waiters: std::mem::take(&mut buffers.waiters),
        next_token: scenario.first_token,
        unavailable_until: 0,
        highest: None,
        highest_written: None,
        primary: 0,
        keys: [None; MAX_NODES],
        offset: [0; MAX_NODES],
    };
    engine.queue.clear();
    engine.waiters.clear();
    engine.workers.clear();
    engine.workers.resize(scenario.workers.len(), WorkerState::default());
    for w in 0..scenario.workers.len() {
        engine.schedule(0, Happening::Continue(w));
    }
    match scenario.service {
        Service::Single => {}
        Service::Failover { crash, promote, .. } => {
            engine.schedule(crash, Happening::PrimaryDown);
            engine.schedule(promote.max(crash), Happening::Promote);
        }
        Service::Redlock { jump_at, .. } => engine.schedule(jump_at, Happening::Jump),
        Service::Consensus { .. } => {
            if let Some(at) = scenario.leader_crash() {
                engine.schedule(at, Happening::LeaderDown);
            }
        }
    }
    while let Some(next) = engine.pop() {
        engine.handle(next);
    }
    let work = engine.seq;
    *buffers = Buffers { queue: engine.queue, workers: engine.workers, waiters: engine.waiters };
    work
}

impl<O: Observer + ?Sized> Engine<'_, O> {
    fn schedule(&mut self, at: Ms, what: Happening) {
        let (phase, actor) = match what {
            Happening::Expire { .. } | Happening::NodeExpire { .. } => (Phase::Expiry, 0),
            Happening::PrimaryDown
            | Happening::Promote
            | Happening::Jump
            | Happening::LeaderDown
            | Happening::LeaderReady => (Phase::Service, 0),
            Happening::Keepalive { worker, .. } => (Phase::Keepalive, worker),
            Happening::LockFree => (Phase::Grant, 0),
            Happening::Continue(w) | Happening::Wake(w) | Happening::Retry(w) => (Phase::Worker, w),
            // Deliveries of one millisecond arrive in the order they were sent (the insertion order).
            Happening::Arrive { .. } => (Phase::Delivery, 0),
        };
        self.seq += 1;
        self.queue.push(Pending { at, phase, actor, seq: self.seq, what });
    }

    fn pop(&mut self) -> Option<Pending> {
        let i = (0..self.queue.len()).min_by_key(|&i| self.queue[i].key())?;
        Some(self.queue.swap_remove(i)).filter(|p| p.at <= HORIZON)
    }

    fn emit(&mut self, at: Ms, kind: EventKind) {
        self.obs.on(&Event { at, kind });
    }

    fn handle(&mut self, p: Pending) {
        let now = p.at;
        match p.what {
            Happening::Expire { token } => {
                let Some(Holder { worker, token: t, expires: Some(at) }) = self.holder else { return };
                if t != token || at != now {
                    return;
                }
                self.holder = None;
                self.emit(now, EventKind::Expire { worker, token });
                self.replicas(now, NodeChange::Clear(worker));
                // A lock-delay makes the lock unavailable; no expiry ends an outage (a failover's: the
                // language refuses a lock-delay there, Redis has none).
                let until = now + self.sc.lock_delay;
                if until > now {
                    self.unavailable_until = until;
                    self.emit(now, EventKind::LockDelay { until });
                }
                // The next holder is granted in the grant phase, after this millisecond's service changes.
                self.schedule(until, Happening::LockFree);
            }
            Happening::LockFree => self.grant_next(now),
            Happening::Continue(w) => self.run_worker(w, now),
            Happening::Wake(w) => {
                self.emit(now, EventKind::Wake { worker: w });
                let state = &mut self.workers[w];
                state.paused = false;
                if std::mem::take(&mut state.overdue) {
                    if let Some(token) = state.token {
                        self.keepalive(w, token, now);
                    }
                }
                self.run_worker(w, now);
            }
            Happening::Arrive { worker, token, sent } => {
                self.store(worker, token, sent, now);
                self.run_worker(worker, now);
            }
            Happening::Retry(w) => {
                // Back to the TryAcquire step.
                self.workers[w].pc -= 1;
                self.run_worker(w, now);
            }
            Happening::PrimaryDown => {
                // Redis replication is asynchronous ("Redis uses by default asynchronous replication",
                // redis.io/docs/management/replication): what the primary did since its last copy dies with it.
                // Requests wait until a replica is promoted.
                self.emit(now, EventKind::Node { node: 0, change: NodeChange::Down });
                if let Service::Failover { promote, .. } = self.sc.service {
                    self.unavailable_until = promote.max(now);
                }
            }
            Happening::Promote => {
                let kept = matches!(self.sc.service, Service::Failover { sync: true, .. });
                self.primary = 1;
                self.emit(now, EventKind::Node { node: 1, change: NodeChange::Promoted { kept } });
                if !kept {
                    // "If the master dies without the write reaching the replicas, the write is lost forever"
                    // (Redis cluster spec): the key and the INCR counter both fall back to the replica's.
                    self.holder = None;
                    self.next_token = self.sc.first_token;
                }
                self.unavailable_until = now;
                self.grant_next(now);
            }
            Happening::Jump => {
                if let Service::Redlock { jump_node, jump, .. } = self.sc.service {
                    let by = self.sc.dur(jump);
                    if by > 0 && jump_node < MAX_NODES {
                        self.offset[jump_node] += by;
                        self.emit(now, EventKind::Node { node: jump_node, change: NodeChange::Jump(by) });
                        if let Some((worker, expiry)) = self.keys[jump_node] {
                            let at = expiry.saturating_sub(self.offset[jump_node]).max(now);
                            self.schedule(at, Happening::NodeExpire { node: jump_node, worker });
                        }
                    }
                }
            }
            Happening::NodeExpire { node, worker } => {
                // Redis expires keys by its own wall clock, so a clock that jumps forward expires them early
                // ("Redis is not using monotonic clock for TTL expiration mechanism", the Redlock page).
                if self.keys[node].is_some_and(|(w, expiry)| w == worker && now + self.offset[node] >= expiry)
                {
                    self.keys[node] = None;
                    self.emit(now, EventKind::Node { node, change: NodeChange::Clear(worker) });
                    if let Some(h) =
                        self.holder.filter(|h| h.worker == worker && !self.majority(worker, false))
                    {
                        self.holder = None;
                        self.emit(now, EventKind::Expire { worker, token: h.token });
                    }
                    // A freed server may complete a waiter's majority, in the grant phase (rule 7).
                    self.schedule(now, Happening::LockFree);
                }
            }
            Happening::Keepalive { worker, token } => {
                if self.workers[worker].paused {
                    self.workers[worker].overdue = true;
                } else {
                    self.keepalive(worker, token, now);
                }
            }
            Happening::LeaderDown => {
                if let Service::Consensus { election, .. } = self.sc.service {
                    let until = now + election;
                    self.emit(now, EventKind::Election { until });
                    self.unavailable_until = until;
                    // Nothing expires without a leader: the new one re-arms every lease (a lock with no
                    // lease, say an etcd key put without one, has nothing to re-arm).
                    if let Some(Holder { expires: Some(e), .. }) = self.holder.as_mut() {
                        *e = Ms::MAX;
                    }
                    self.schedule(until, Happening::LeaderReady);
                }
            }
            Happening::LeaderReady => {
                // A lock without a lease (its expiry None) has nothing to re-arm.
                if let (
                    Service::Consensus { election, .. },
                    Some(Holder { worker, token, expires: Some(_) }),
                ) = (self.sc.service, self.holder)
                {
                    // etcd: "Newly promoted lessor renew the TTL of all lease to extend + previous TTL"
                    // (server/lease/lessor.go, extend = the election timeout); without checkpoints the
                    // previous TTL is the whole TTL.
                    self.renew(worker, token, now + election + self.sc.ttl, now);
                }
                self.grant_next(now);
            }
        }
    }

    /// Consensus: a keepalive reaches the leader; a lease still held is renewed for a whole ttl, and the
    /// client sends the next one ttl/3 later (etcd's client: `nextKeepAlive` = TTL/3 after each reply).
    fn keepalive(&mut self, worker: WorkerId, token: u64, now: Ms) {
        // Only a lease is kept alive: a lock taken again without one (an etcd key put with no lease) has
        // nothing to renew, whatever keepalive of the lease before it falls due.
        let held = self.holder.is_some_and(|h| h.worker == worker && h.token == token && h.expires.is_some())
            && self.workers[worker].token == Some(token);
        if !held {
            return;
        }
        if now >= self.unavailable_until {
            self.renew(worker, token, now + self.sc.ttl, now);
        }
        self.schedule(now + (self.sc.ttl / 3).max(1), Happening::Keepalive { worker, token });
    }

    fn renew(&mut self, worker: WorkerId, token: u64, expires: Ms, now: Ms) {
        if let Some(h) = self.holder.as_mut() {
            h.expires = Some(expires);
        }
        self.emit(now, EventKind::Renew { worker, token, expires });
        self.schedule(expires, Happening::Expire { token });
    }

    /// Redlock: whether `worker` holds (`free: false`) or could take (`free: true`) a majority of the
    /// servers it reaches.
    fn majority(&self, worker: WorkerId, free: bool) -> bool {
        let Service::Redlock { nodes, reach, .. } = self.sc.service else { return false };
        let reach = reach.get(worker).copied().unwrap_or(u8::MAX);
        let count = (0..nodes.min(MAX_NODES))
            .filter(|&n| reach & (1 << n) != 0)
            .filter(|&n| match self.keys[n] {
                None => free,
                Some((w, _)) => !free && w == worker,
            })
            .count();
        count > nodes / 2
    }

    /// Failover: tells the servers that hold the lock's key of `change` (the primary, and with `WAIT` the
    /// replica while the primary lives).
    fn replicas(&mut self, now: Ms, change: NodeChange) {
        if let Service::Failover { sync, .. } = self.sc.service {
            if now < self.unavailable_until {
                return;
            }
            self.emit(now, EventKind::Node { node: self.primary, change });
            if sync && self.primary == 0 {
                self.emit(now, EventKind::Node { node: 1, change });
            }
        }
    }

    /// Whether worker `w` could take the lock now, the line aside: nobody holds it and it is available, or
    /// (Redlock) a majority of the servers `w` reaches is free.
    fn open(&self, w: WorkerId, now: Ms) -> bool {
        match self.sc.service {
            Service::Redlock { .. } => self.majority(w, true),
            _ => self.holder.is_none() && now >= self.unavailable_until,
        }
    }

    /// Whether `w`, asking now, may take the lock at once: it is open and nobody waits in line before it
    /// (under Redlock too: no request takes a free majority ahead of the line).
    fn can_take(&self, w: WorkerId, now: Ms) -> bool {
        self.waiters.is_empty() && self.open(w, now)
    }

    /// `Acquire`: take the lock, or queue for it. Returns whether the worker goes on now.
    fn acquire(&mut self, w: WorkerId, now: Ms) -> bool {
        self.emit(now, EventKind::Request { worker: w });
        if let Service::Consensus { .. } = self.sc.service {
            // The request is a write to the log (etcd's put of the waiter's key, ZooKeeper's create of its
            // sequential znode): its revision or zxid is the token, whenever the lock comes.
            self.workers[w].ticket = Some(self.next_token);
            self.next_token += 1;
        }
        if self.can_take(w, now) {
            self.grant(w, now);
            true
        } else {
            self.emit(now, EventKind::Wait { worker: w, holder: self.holder.map(|h| h.worker) });
            // Granting schedules the rest of the program.
            self.waiters.push(w);
            false
        }
    }

    /// Runs worker `w`'s steps at `now` until one takes time, blocks, or the program ends.
    fn run_worker(&mut self, w: WorkerId, now: Ms) {
        while let Some(&step) = self.sc.workers[w].steps.get(self.workers[w].pc) {
            self.workers[w].pc += 1;
            match step {
                Step::Idle(d) | Step::Work(d) => {
                    let d = self.sc.dur(d);
                    if d > 0 {
                        return self.schedule(now + d, Happening::Continue(w));
                    }
                }
                Step::WorkUntil(until) => {
                    let until = self.sc.dur(until);
                    if until > now {
                        return self.schedule(until, Happening::Continue(w));
                    }
                }
                Step::Pause(len) => {
                    let d = self.sc.dur(len);
                    if d > 0 {
                        self.workers[w].paused = true;
                        self.emit(now, EventKind::PauseStart { worker: w, until: now + d });
                        return self.schedule(now + d, Happening::Wake(w));
                    }
                }
                Step::Acquire | Step::AcquireNoExpiry => {
                    if !self.acquire(w, now) {
                        return;
                    }
                }
                Step::TryAcquire { retry } => {
                    let first = !self.workers[w].retrying;
                    if first {
                        self.emit(now, EventKind::Request { worker: w });
                    }
                    if self.can_take(w, now) {
                        self.workers[w].retrying = false;
                        self.grant(w, now);
                    } else {
                        if first {
                            let holder = self.holder.map(|h| h.worker);
                            self.emit(now, EventKind::Wait { worker: w, holder });
                            self.workers[w].retrying = true;
                        }
                        return self.schedule(now + self.sc.dur(retry).max(1), Happening::Retry(w));
                    }
                }
                Step::Get => {
                    let free = self.can_take(w, now);
                    self.workers[w].saw_free = free;
                    self.emit(now, EventKind::Get { worker: w, free });
                }
                Step::Set => {
                    if self.workers[w].saw_free && now >= self.unavailable_until {
                        self.emit(now, EventKind::Request { worker: w });
                        self.grant(w, now);
                    } else if !self.acquire(w, now) {
                        return;
                    }
                }
                Step::CheckLease => {
                    let ok = !self.sc.lease || self.workers[w].lease_end.is_some_and(|end| now < end);
                    self.emit(now, EventKind::CheckLease { worker: w, ok });
                    if !ok {
                        self.workers[w].token = None;
                        return;
                    }
                }
                Step::Write { delay } => {
                    // Redlock's value is random: the write carries nothing the storage could order.
                    let token = self.workers[w].token.filter(|_| self.sc.tokens());
                    let delay = self.sc.dur(delay);
                    self.emit(now, EventKind::Write { worker: w, token, arrives: now + delay });
                    if delay == 0 {
                        self.store(w, token, now, now);
                    } else {
                        // The worker waits for the storage's reply: its program goes on on arrival.
                        return self.schedule(now + delay, Happening::Arrive { worker: w, token, sent: now });
                    }
                }
                Step::Release => self.release(w, now),
                Step::Crash => {
                    self.workers[w].token = None;
                    return self.emit(now, EventKind::Crash { worker: w });
                }
            }
        }
    }

    /// Hands the lock to `w`, over whoever holds it (only a `SET` without `NX` gets here while it is held),
    /// as the step it is at asked: with a lease, or none for `AcquireNoExpiry` (a waiter too).
    fn grant(&mut self, w: WorkerId, now: Ms) {
        let step = self.sc.workers[w].steps.get(self.workers[w].pc.wrapping_sub(1));
        let expiry = !matches!(step, Some(Step::AcquireNoExpiry));
        let token = self.workers[w].ticket.take().unwrap_or_else(|| {
            self.next_token += 1;
            self.next_token - 1
        });
        let mut expires = (self.sc.lease && expiry).then_some(now + self.sc.ttl);
        if let Service::Redlock { nodes, reach, drift, .. } = self.sc.service {
            // SET NX PX on every server the client reaches; the lock is valid for ttl − elapsed − drift by
            // the client's clock ("MIN_VALIDITY=TTL-(T2-T1)-CLOCK_DRIFT", the Redlock page); elapsed is 0 here.
            let reach = reach.get(w).copied().unwrap_or(u8::MAX);
            for node in 0..nodes.min(MAX_NODES) {
                if reach & (1 << node) == 0 || self.keys[node].is_some() {
                    continue;
                }
                self.keys[node] = Some((w, now + self.offset[node] + self.sc.ttl));
                self.emit(now, EventKind::Node { node, change: NodeChange::Set(w) });
                self.schedule(now + self.sc.ttl, Happening::NodeExpire { node, worker: w });
            }
            expires = Some(now + self.sc.ttl - drift.min(self.sc.ttl));
        }
        let over = self.holder.map(|h| h.worker);
        self.holder = Some(Holder { worker: w, token, expires });
        self.workers[w].token = Some(token);
        self.workers[w].lease_end = Some(now + self.sc.ttl);
        self.emit(now, EventKind::Grant { worker: w, token, expires, over });
        self.replicas(now, NodeChange::Set(w));
        match (self.sc.service, expires) {
            (Service::Redlock { .. }, _) | (_, None) => {}
            (Service::Consensus { .. }, Some(at)) => {
                self.schedule(at, Happening::Expire { token });
                self.schedule(now + (self.sc.ttl / 3).max(1), Happening::Keepalive { worker: w, token });
            }
            (_, Some(at)) => self.schedule(at, Happening::Expire { token }),
        }
        if self.sc.register {
            // The new holder's token reaches the storage before anyone acts on this millisecond.
            self.highest = self.highest.max(Some(token));
            self.emit(now, EventKind::Register { worker: w, token });
        }
    }

    /// Hands a free lock to the first waiter, who goes on at once.
    fn grant_next(&mut self, now: Ms) {
        let w = match self.waiters.first() {
            Some(&w) if self.open(w, now) => w,
            _ => return,
        };
        self.waiters.remove(0);
        self.grant(w, now);
        self.schedule(now, Happening::Continue(w));
    }

    fn release(&mut self, w: WorkerId, now: Ms) {
        let token = self.workers[w].token.take();
        if let Service::Redlock { .. } = self.sc.service {
            // Redlock's release deletes the client's own key (a compare on its random value) on every server.
            for node in 0..MAX_NODES {
                if self.keys[node].is_some_and(|k| k.0 == w) {
                    self.keys[node] = None;
                    self.emit(now, EventKind::Node { node, change: NodeChange::Clear(w) });
                }
            }
        }
        let freed = match (self.sc.release, self.holder) {
            (Release::CompareAndDelete, Some(h)) if h.worker == w && Some(h.token) == token => Some(w),
            (Release::PlainDelete, Some(h)) => Some(h.worker),
            _ => None,
        };
        self.emit(now, EventKind::Release { worker: w, token, freed });
        if let Some(holder) = freed {
            self.holder = None;
            self.replicas(now, NodeChange::Clear(holder));
        }
        // Also after a Redlock client that had lost its majority deleted its remaining keys.
        self.grant_next(now);
    }

    fn store(&mut self, worker: WorkerId, token: Option<u64>, sent: Ms, now: Ms) {
        let highest_before = self.highest;
        let accepted = !self.sc.fencing
            || match (token, highest_before) {
                (Some(t), Some(h)) => t >= h,
                (Some(_), None) => true,
                (None, _) => false,
            };
        let written_before = self.highest_written;
        if accepted {
            self.highest = self.highest.max(token);
            self.highest_written = self.highest_written.max(token);
        }
        // Stale: the writer is not the lock's holder (with this token) when its write arrives.
        let (holder, held) = match self.holder {
            Some(h) => (Some(h.worker), h.worker == worker && (Some(h.token) == token || !self.sc.tokens())),
            None => (None, false),
        };
        let stale = !held;
        let kind =
            EventKind::Store { worker, token, sent, accepted, highest_before, written_before, stale, holder };
        self.emit(now, kind);
    }
}
