//! Engine: a small discrete-event simulation of workers, a lock service and a storage.
//!
//! Pending happenings sit in a queue ordered by (time, phase, actor, insertion). The phases give the
//! same-millisecond order of the semantics (docs/semantics.md): lease expiry, then lock grant, then worker
//! actions (lower index first), then delayed writes arriving at the storage.

use super::scenario::{Ms, Release, Scenario, Step};
use super::trace::{Event, EventKind, Observer, WorkerId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    Expiry,
    Grant,
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

/// [`simulate`], reusing `buffers`.
pub fn simulate_in<O: Observer + ?Sized>(scenario: &Scenario, observer: &mut O, buffers: &mut Buffers) {
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
    };
    engine.queue.clear();
    engine.waiters.clear();
    engine.workers.clear();
    engine.workers.resize(scenario.workers.len(), WorkerState::default());
    for w in 0..scenario.workers.len() {
        engine.schedule(0, Happening::Continue(w));
    }
    while let Some(next) = engine.pop() {
        engine.handle(next);
    }
    *buffers = Buffers { queue: engine.queue, workers: engine.workers, waiters: engine.waiters };
}

impl<O: Observer + ?Sized> Engine<'_, O> {
    fn schedule(&mut self, at: Ms, what: Happening) {
        let (phase, actor) = match what {
            Happening::Expire { .. } => (Phase::Expiry, 0),
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
        Some(self.queue.swap_remove(i))
    }

    fn emit(&mut self, at: Ms, kind: EventKind) {
        self.obs.on(&Event { at, kind });
    }

    fn handle(&mut self, p: Pending) {
        let now = p.at;
        match p.what {
            Happening::Expire { token } => {
                let Some(h) = self.holder.filter(|h| h.token == token && h.expires == Some(now)) else {
                    return;
                };
                self.holder = None;
                self.emit(now, EventKind::Expire { worker: h.worker, token });
                self.unavailable_until = now + self.sc.lock_delay;
                if self.sc.lock_delay > 0 {
                    self.emit(now, EventKind::LockDelay { until: self.unavailable_until });
                    self.schedule(self.unavailable_until, Happening::LockFree);
                } else {
                    self.grant_next(now);
                }
            }
            Happening::LockFree => self.grant_next(now),
            Happening::Continue(w) => self.run_worker(w, now),
            Happening::Wake(w) => {
                self.emit(now, EventKind::Wake { worker: w });
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
        }
    }

    /// Whether a worker asking now may take the lock at once.
    fn free_for(&self, now: Ms) -> bool {
        self.holder.is_none() && now >= self.unavailable_until && self.waiters.is_empty()
    }

    /// `Acquire`: take the lock, or queue for it. Returns whether the worker goes on now.
    fn acquire(&mut self, w: WorkerId, now: Ms, expiry: bool) -> bool {
        self.emit(now, EventKind::Request { worker: w });
        if self.free_for(now) {
            self.grant(w, now, expiry);
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
                        self.emit(now, EventKind::PauseStart { worker: w, until: now + d });
                        return self.schedule(now + d, Happening::Wake(w));
                    }
                }
                Step::Acquire | Step::AcquireNoExpiry => {
                    if !self.acquire(w, now, step == Step::Acquire) {
                        return;
                    }
                }
                Step::TryAcquire { retry } => {
                    let first = !self.workers[w].retrying;
                    if first {
                        self.emit(now, EventKind::Request { worker: w });
                    }
                    if self.free_for(now) {
                        self.workers[w].retrying = false;
                        self.grant(w, now, true);
                    } else {
                        if first {
                            let holder = self.holder.map(|h| h.worker);
                            self.emit(now, EventKind::Wait { worker: w, holder });
                            self.workers[w].retrying = true;
                        }
                        return self.schedule(now + retry.max(1), Happening::Retry(w));
                    }
                }
                Step::Get => {
                    let free = self.free_for(now);
                    self.workers[w].saw_free = free;
                    self.emit(now, EventKind::Get { worker: w, free });
                }
                Step::Set => {
                    if self.workers[w].saw_free {
                        self.emit(now, EventKind::Request { worker: w });
                        self.grant(w, now, true);
                    } else if !self.acquire(w, now, true) {
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
                    let token = self.workers[w].token;
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

    /// Hands the lock to `w`, over whoever holds it (only a `SET` without `NX` gets here while it is held).
    fn grant(&mut self, w: WorkerId, now: Ms, expiry: bool) {
        let token = self.next_token;
        self.next_token += 1;
        let expires = (self.sc.lease && expiry).then_some(now + self.sc.ttl);
        let over = self.holder.map(|h| h.worker);
        self.holder = Some(Holder { worker: w, token, expires });
        self.workers[w].token = Some(token);
        self.workers[w].lease_end = Some(now + self.sc.ttl);
        self.emit(now, EventKind::Grant { worker: w, token, expires, over });
        if let Some(at) = expires {
            self.schedule(at, Happening::Expire { token });
        }
        if self.sc.register {
            // The new holder's token reaches the storage before anyone acts on this millisecond.
            self.highest = self.highest.max(Some(token));
            self.emit(now, EventKind::Register { worker: w, token });
        }
    }

    /// Hands a free lock to the first waiter, who goes on at once.
    fn grant_next(&mut self, now: Ms) {
        if self.holder.is_some() || now < self.unavailable_until || self.waiters.is_empty() {
            return;
        }
        let w = self.waiters.remove(0);
        self.grant(w, now, true);
        self.schedule(now, Happening::Continue(w));
    }

    fn release(&mut self, w: WorkerId, now: Ms) {
        let token = self.workers[w].token.take();
        let freed = match (self.sc.release, self.holder) {
            (Release::CompareAndDelete, Some(h)) if h.worker == w && Some(h.token) == token => Some(w),
            (Release::PlainDelete, Some(h)) => Some(h.worker),
            _ => None,
        };
        self.emit(now, EventKind::Release { worker: w, token, freed });
        if freed.is_some() {
            self.holder = None;
            self.grant_next(now);
        }
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
        let holder = self.holder.map(|h| h.worker);
        let stale = !self.holder.is_some_and(|h| h.worker == worker && Some(h.token) == token);
        let kind =
            EventKind::Store { worker, token, sent, accepted, highest_before, written_before, stale, holder };
        self.emit(now, kind);
    }
}
