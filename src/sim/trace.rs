//! Trace: what happened in one run, as time-ordered events, and the lanes the view draws from them.
//!
//! The engine emits [`Event`]s to an [`Observer`]; [`TraceBuilder`] is the observer that keeps them and folds
//! them into per-actor intervals, so the view draws spans without re-deriving anything.

use serde::{Deserialize, Serialize};

use super::scenario::Ms;

/// Index of a worker in [`Scenario::workers`](super::Scenario::workers).
pub type WorkerId = usize;

/// Who an event belongs to: the lane it is drawn on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Actor {
    /// A worker, by index.
    Worker(WorkerId),
    /// The lock service.
    Lock,
    /// The storage.
    Storage,
}

/// One thing that happened at one millisecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// When.
    pub at: Ms,
    /// What.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum EventKind {
    /// A worker asks for the lock.
    Request {
        /// Who asks.
        worker: WorkerId,
    },
    /// The lock is held by someone else: the worker queues.
    Wait {
        /// Who waits.
        worker: WorkerId,
        /// Who holds the lock, if anyone (no one during a lock-delay).
        holder: Option<WorkerId>,
    },
    /// The lock service hands the lock to a worker.
    Grant {
        /// The new holder.
        worker: WorkerId,
        /// Its fencing token.
        token: u64,
        /// When the lease expires; `None` with lease expiry off (or a `SETNX` without its `EXPIRE`).
        expires: Option<Ms>,
        /// The holder whose lock this grant overwrote (a `SET` without `NX`), if any.
        over: Option<WorkerId>,
    },
    /// A worker read the lock (`GET`).
    Get {
        /// Who read.
        worker: WorkerId,
        /// Whether the lock looked free.
        free: bool,
    },
    /// The new holder's token reached the storage at its grant (registration), raising the highest seen.
    Register {
        /// The new holder.
        worker: WorkerId,
        /// Its token.
        token: u64,
    },
    /// The lease ran out: the lock service no longer counts the worker as holder. The worker is not told.
    Expire {
        /// The holder whose lease ran out.
        worker: WorkerId,
        /// Its token.
        token: u64,
    },
    /// After an expiry the lock service keeps the lock unavailable until `until` (lock-delay).
    LockDelay {
        /// When the lock may be granted again.
        until: Ms,
    },
    /// A stop-the-world pause begins.
    PauseStart {
        /// Who stops.
        worker: WorkerId,
        /// When it will wake.
        until: Ms,
    },
    /// The pause ends; the worker goes on as if no time had passed.
    Wake {
        /// Who wakes.
        worker: WorkerId,
    },
    /// The worker checked its lease on its own clock.
    CheckLease {
        /// Who checked.
        worker: WorkerId,
        /// Whether the lease still looked valid; if not, the worker gives up.
        ok: bool,
    },
    /// A worker sends a write with the token it believes it holds.
    Write {
        /// The writer.
        worker: WorkerId,
        /// The token sent with it.
        token: Option<u64>,
        /// When the storage receives it.
        arrives: Ms,
    },
    /// The storage receives a write and accepts or rejects it.
    Store {
        /// The writer.
        worker: WorkerId,
        /// The token that came with it.
        token: Option<u64>,
        /// When the writer sent it.
        sent: Ms,
        /// Whether the storage took it.
        accepted: bool,
        /// The highest token the storage had seen before this write (accepted writes and registrations).
        highest_before: Option<u64>,
        /// The highest token of a write the storage had accepted before this one.
        written_before: Option<u64>,
        /// The writer is not the lock's holder (with this token) when the write arrives.
        stale: bool,
        /// Who the lock service counted as holder when the write arrived.
        holder: Option<WorkerId>,
    },
    /// A worker releases the lock.
    Release {
        /// Who releases.
        worker: WorkerId,
        /// The token it believed it held.
        token: Option<u64>,
        /// The holder whose lock this release deleted, if any (with compare-and-delete, only its own).
        freed: Option<WorkerId>,
    },
    /// A worker dies and will never act again.
    Crash {
        /// Who.
        worker: WorkerId,
    },
    /// A keepalive, or a new leader, moved a lease's end (etcd, ZooKeeper).
    Renew {
        /// The holder.
        worker: WorkerId,
        /// Its token.
        token: u64,
        /// The lease's new end.
        expires: Ms,
    },
    /// The consensus group's leader crashed: nothing is granted, renewed or expired until a new leader is
    /// ready at `until`.
    Election {
        /// When the new leader is ready.
        until: Ms,
    },
    /// A server of a replicated lock service changed (Redis failover, Redlock).
    Node {
        /// Which server, by index (primary 0, replica 1; N1 is 0).
        node: usize,
        /// What changed.
        change: NodeChange,
    },
}

/// What happened to one server of a replicated lock service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeChange {
    /// It now holds this worker's key.
    Set(WorkerId),
    /// This worker's key is gone from it (released, expired, lost).
    Clear(WorkerId),
    /// Its clock jumped forward this far.
    Jump(Ms),
    /// It crashed.
    Down,
    /// It was promoted to primary, keeping the lock's key and counter or having neither.
    Promoted {
        /// Whether it had the key and the counter.
        kept: bool,
    },
}

impl NodeChange {
    /// The change as two numbers (kind, value), for [`Event::to_numbers`].
    fn to_numbers(self) -> [i64; 2] {
        match self {
            NodeChange::Set(w) => [0, w as i64],
            NodeChange::Clear(w) => [1, w as i64],
            NodeChange::Jump(by) => [2, by as i64],
            NodeChange::Down => [3, 0],
            NodeChange::Promoted { kept } => [4, i64::from(kept)],
        }
    }

    fn from_numbers(kind: i64, v: u64) -> Option<NodeChange> {
        Some(match kind {
            0 => NodeChange::Set(v as usize),
            1 => NodeChange::Clear(v as usize),
            2 => NodeChange::Jump(v),
            3 => NodeChange::Down,
            4 => NodeChange::Promoted { kept: v == 1 },
            _ => return None,
        })
    }
}

/// An event as a short list of numbers, for recordings shipped with the page: `[at, kind, fields…]`, the
/// kind by its position in [`EventKind`] and the fields in declaration order; `None` is -1, `false` 0 and
/// `true` 1. [`Event::from_numbers`] reads it back.
impl Event {
    /// The numbers of this event.
    pub fn to_numbers(&self) -> Vec<i64> {
        use EventKind::*;
        let (n, b) = (|v: u64| v as i64, |v: bool| i64::from(v));
        let o = |v: Option<u64>| v.map_or(-1, |v| v as i64);
        let w = |v: usize| v as i64;
        let ow = |v: Option<usize>| v.map_or(-1, |v| v as i64);
        let (kind, fields) = match self.kind {
            Request { worker } => (0, vec![w(worker)]),
            Wait { worker, holder } => (1, vec![w(worker), ow(holder)]),
            Grant { worker, token, expires, over } => (2, vec![w(worker), n(token), o(expires), ow(over)]),
            Get { worker, free } => (3, vec![w(worker), b(free)]),
            Register { worker, token } => (4, vec![w(worker), n(token)]),
            Expire { worker, token } => (5, vec![w(worker), n(token)]),
            LockDelay { until } => (6, vec![n(until)]),
            PauseStart { worker, until } => (7, vec![w(worker), n(until)]),
            Wake { worker } => (8, vec![w(worker)]),
            CheckLease { worker, ok } => (9, vec![w(worker), b(ok)]),
            Write { worker, token, arrives } => (10, vec![w(worker), o(token), n(arrives)]),
            Store { worker, token, sent, accepted, highest_before, written_before, stale, holder } => (
                11,
                vec![
                    w(worker),
                    o(token),
                    n(sent),
                    b(accepted),
                    o(highest_before),
                    o(written_before),
                    b(stale),
                    ow(holder),
                ],
            ),
            Release { worker, token, freed } => (12, vec![w(worker), o(token), ow(freed)]),
            Crash { worker } => (13, vec![w(worker)]),
            Renew { worker, token, expires } => (14, vec![w(worker), n(token), n(expires)]),
            Election { until } => (15, vec![n(until)]),
            Node { node, change } => (16, [vec![w(node)], change.to_numbers().to_vec()].concat()),
        };
        [vec![self.at as i64, kind], fields].concat()
    }

    /// The event these numbers stand for; `None` if they stand for none.
    pub fn from_numbers(numbers: &[i64]) -> Option<Event> {
        use EventKind::*;
        let (&at, &kind, f) = match numbers {
            [at, kind, f @ ..] => (at, kind, f),
            _ => return None,
        };
        let n = |i: usize| f.get(i).and_then(|&v| u64::try_from(v).ok());
        let o = |i: usize| f.get(i).and_then(|&v| if v == -1 { Some(None) } else { n(i).map(Some) });
        let w = |i: usize| n(i).map(|v| v as usize);
        let ow = |i: usize| o(i).map(|v| v.map(|v| v as usize));
        let b = |i: usize| f.get(i).and_then(|&v| [false, true].get(usize::try_from(v).ok()?).copied());
        let kind = match (kind, f.len()) {
            (0, 1) => Request { worker: w(0)? },
            (1, 2) => Wait { worker: w(0)?, holder: ow(1)? },
            (2, 4) => Grant { worker: w(0)?, token: n(1)?, expires: o(2)?, over: ow(3)? },
            (3, 2) => Get { worker: w(0)?, free: b(1)? },
            (4, 2) => Register { worker: w(0)?, token: n(1)? },
            (5, 2) => Expire { worker: w(0)?, token: n(1)? },
            (6, 1) => LockDelay { until: n(0)? },
            (7, 2) => PauseStart { worker: w(0)?, until: n(1)? },
            (8, 1) => Wake { worker: w(0)? },
            (9, 2) => CheckLease { worker: w(0)?, ok: b(1)? },
            (10, 3) => Write { worker: w(0)?, token: o(1)?, arrives: n(2)? },
            (11, 8) => Store {
                worker: w(0)?,
                token: o(1)?,
                sent: n(2)?,
                accepted: b(3)?,
                highest_before: o(4)?,
                written_before: o(5)?,
                stale: b(6)?,
                holder: ow(7)?,
            },
            (12, 3) => Release { worker: w(0)?, token: o(1)?, freed: ow(2)? },
            (13, 1) => Crash { worker: w(0)? },
            (14, 3) => Renew { worker: w(0)?, token: n(1)?, expires: n(2)? },
            (15, 1) => Election { until: n(0)? },
            (16, 3) => Node { node: w(0)?, change: NodeChange::from_numbers(f[1], n(2)?)? },
            _ => return None,
        };
        Some(Event { at: u64::try_from(at).ok()?, kind })
    }
}

impl EventKind {
    /// The lane this event is drawn on.
    pub fn actor(&self) -> Actor {
        use EventKind::*;
        match *self {
            Grant { .. }
            | Expire { .. }
            | LockDelay { .. }
            | Renew { .. }
            | Election { .. }
            | Node { .. } => Actor::Lock,
            Store { .. } | Register { .. } => Actor::Storage,
            Request { worker }
            | Wait { worker, .. }
            | PauseStart { worker, .. }
            | Wake { worker }
            | Get { worker, .. }
            | CheckLease { worker, .. }
            | Write { worker, .. }
            | Release { worker, .. }
            | Crash { worker } => Actor::Worker(worker),
        }
    }
}

/// Anything that listens to a run as it happens.
pub trait Observer {
    /// Called once per event, in time order.
    fn on(&mut self, event: &Event);
}

impl<A: Observer, B: Observer> Observer for (A, B) {
    fn on(&mut self, event: &Event) {
        self.0.on(event);
        self.1.on(event);
    }
}

/// A half-open interval `[from, to)`; `to: None` means it never ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// Start, inclusive.
    pub from: Ms,
    /// End, exclusive; `None`: still running when the run ended.
    pub to: Option<Ms>,
}

/// The sooner of two ends, where `None` is one that never comes: when a promise kept until either ends.
pub fn sooner(a: Option<Ms>, b: Option<Ms>) -> Option<Ms> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl Span {
    /// Whether `t` lies inside the span.
    pub fn contains(&self, t: Ms) -> bool {
        t >= self.from && self.to.is_none_or(|to| t < to)
    }
}

/// How a lease ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeaseEnd {
    /// Released by its holder.
    Released,
    /// Deleted by another worker's plain delete.
    DeletedByOther(WorkerId),
    /// Overwritten by another worker's `SET` without `NX`.
    Overwritten(WorkerId),
    /// Ran out (Redlock: its holder no longer held a majority).
    Expired,
    /// Lost with a crashed primary: the promoted replica never had it.
    Lost,
    /// Still held when the run ended.
    Held,
}

/// One grant of the lock, as the lock service saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    /// The holder.
    pub worker: WorkerId,
    /// Its token.
    pub token: u64,
    /// When the service counted it as holder.
    pub held: Span,
    /// Where the lease runs out (or would, with lease expiry off).
    pub nominal_expiry: Ms,
    /// Whether expiry is enforced.
    pub enforced: bool,
    /// How it ended.
    pub end: LeaseEnd,
}

/// A worker's lane: what it did and what it believed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerLane {
    /// Name shown on the lane.
    pub name: String,
    /// Asked for the lock and is waiting for it.
    pub waiting: Vec<Span>,
    /// Believes it holds the lock, with the token it believes in: from its grant to its release, whatever
    /// the lock service thinks meanwhile.
    pub believing: Vec<(Span, u64)>,
    /// Stopped the world.
    pub paused: Vec<Span>,
    /// Believes it holds the lock while the lock service has given it away: the danger zone.
    pub mistaken: Vec<Span>,
    /// Crashed at this time.
    pub crashed: Option<Ms>,
}

/// One write as the storage received it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteRecord {
    /// When it sent it.
    pub sent: Ms,
    /// When the storage received it.
    pub at: Ms,
    /// The writer.
    pub worker: WorkerId,
    /// Its token.
    pub token: Option<u64>,
    /// Accepted or rejected.
    pub accepted: bool,
    /// The highest token the storage had seen before it (accepted writes and registrations).
    pub highest_before: Option<u64>,
    /// The highest token of a write accepted before it.
    pub written_before: Option<u64>,
    /// Sent by a worker the lock service did not count as holder when it arrived.
    pub stale: bool,
    /// Who the lock service counted as holder when it arrived.
    pub holder: Option<WorkerId>,
}

impl WriteRecord {
    /// The newer token whose write this write overwrote: accepted although its token is below that of a
    /// write already accepted (a missing token counts as lowest). A registered token alone is not overwritten.
    pub fn overwrote(&self) -> Option<u64> {
        match self.written_before {
            Some(h) if self.accepted && self.token < Some(h) => Some(h),
            _ => None,
        }
    }

    /// The highest token the storage had accepted once this write was handled.
    pub fn highest_after(&self) -> Option<u64> {
        if self.accepted {
            self.highest_before.max(self.token)
        } else {
            self.highest_before
        }
    }

    /// The record of a `Store` event; `None` for any other event.
    pub fn from_event(event: &Event) -> Option<WriteRecord> {
        match event.kind {
            EventKind::Store {
                worker,
                token,
                sent,
                accepted,
                highest_before,
                written_before,
                stale,
                holder,
            } => Some(WriteRecord {
                sent,
                at: event.at,
                worker,
                token,
                accepted,
                highest_before,
                written_before,
                stale,
                holder,
            }),
            _ => None,
        }
    }
}

/// The whole record of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    /// Every event, in the order it happened.
    pub events: Vec<Event>,
    /// One lane per worker, in scenario order.
    pub workers: Vec<WorkerLane>,
    /// The lock service's grants, in order.
    pub leases: Vec<Lease>,
    /// The storage's history, in arrival order.
    pub writes: Vec<WriteRecord>,
    /// When the lock service kept the lock unavailable (lock-delay).
    pub unavailable: Vec<Span>,
    /// When a consensus group had no leader.
    pub elections: Vec<Span>,
    /// The servers of a replicated lock service (none for one server or a consensus group).
    pub nodes: Vec<NodeLane>,
    /// Whether grants carry ordered tokens (Redlock's values are random).
    pub tokens: bool,
    /// Time of the last event.
    pub end: Ms,
}

/// One server of a replicated lock service: whose key it held when, and what happened to it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeLane {
    /// Each key it held, and whose.
    pub keys: Vec<(Span, WorkerId)>,
    /// Its clock's jumps: when, how far.
    pub jumps: Vec<(Ms, Ms)>,
    /// When it crashed.
    pub down: Option<Ms>,
    /// When it was promoted, and whether it had the key and counter.
    pub promoted: Option<(Ms, bool)>,
}

/// The observer that records a [`Trace`].
pub struct TraceBuilder {
    trace: Trace,
    ttl: Ms,
}

impl TraceBuilder {
    /// A builder for workers with these names and this lease length, whose grants carry tokens or not.
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>, ttl: Ms, tokens: bool) -> Self {
        let workers: Vec<WorkerLane> = names
            .into_iter()
            .map(|name| WorkerLane { name: name.to_owned(), ..Default::default() })
            .collect();
        TraceBuilder { trace: Trace { workers, tokens, ..Default::default() }, ttl }
    }

    fn node(&mut self, node: usize) -> &mut NodeLane {
        if self.trace.nodes.len() <= node {
            self.trace.nodes.resize(node + 1, NodeLane::default());
        }
        &mut self.trace.nodes[node]
    }

    /// The finished trace.
    pub fn finish(mut self) -> Trace {
        for (w, lane) in self.trace.workers.iter_mut().enumerate() {
            let held: Vec<Span> =
                self.trace.leases.iter().filter(|l| l.worker == w).map(|l| l.held).collect();
            lane.mistaken = lane.believing.iter().flat_map(|(belief, _)| subtract(*belief, &held)).collect();
        }
        self.trace
    }

    fn open_lease(&mut self, worker: WorkerId) -> Option<&mut Lease> {
        self.trace.leases.iter_mut().rev().find(|l| l.worker == worker && l.end == LeaseEnd::Held)
    }
}

/// The parts of `span` covered by none of `holes` (each hole lies inside or overlaps `span`; sorted).
fn subtract(span: Span, holes: &[Span]) -> Vec<Span> {
    let mut out = Vec::new();
    let mut from = span.from;
    for hole in holes {
        if hole.to.is_some_and(|to| to <= from) || span.to.is_some_and(|to| hole.from >= to) {
            continue;
        }
        if hole.from > from {
            out.push(Span { from, to: Some(hole.from) });
        }
        match hole.to {
            Some(to) => from = from.max(to),
            None => return out,
        }
    }
    if span.to.is_none_or(|to| from < to) {
        out.push(Span { from, to: span.to });
    }
    out
}

fn close(spans: &mut [Span], at: Ms) {
    if let Some(span) = spans.last_mut().filter(|s| s.to.is_none()) {
        span.to = Some(at);
    }
}

fn close_belief(lane: &mut WorkerLane, at: Ms) {
    if let Some((span, _)) = lane.believing.last_mut().filter(|(s, _)| s.to.is_none()) {
        span.to = Some(at);
    }
}

impl Observer for TraceBuilder {
    fn on(&mut self, event: &Event) {
        let at = event.at;
        self.trace.events.push(*event);
        self.trace.end = at;
        match event.kind {
            EventKind::Request { .. }
            | EventKind::Wake { .. }
            | EventKind::Write { .. }
            | EventKind::Get { .. }
            | EventKind::Register { .. }
            | EventKind::CheckLease { ok: true, .. } => {}
            EventKind::LockDelay { until } => self.trace.unavailable.push(Span { from: at, to: Some(until) }),
            EventKind::Wait { worker, .. } => {
                self.trace.workers[worker].waiting.push(Span { from: at, to: None })
            }
            EventKind::Grant { worker, token, expires, over } => {
                if let Some(old) = over {
                    if let Some(lease) = self.open_lease(old) {
                        lease.held.to = Some(at);
                        lease.end = LeaseEnd::Overwritten(worker);
                    }
                }
                let lane = &mut self.trace.workers[worker];
                close(&mut lane.waiting, at);
                lane.believing.push((Span { from: at, to: None }, token));
                self.trace.leases.push(Lease {
                    worker,
                    token,
                    held: Span { from: at, to: None },
                    nominal_expiry: expires.unwrap_or(at + self.ttl),
                    enforced: expires.is_some(),
                    end: LeaseEnd::Held,
                });
            }
            EventKind::Expire { worker, .. } => {
                if let Some(lease) = self.open_lease(worker) {
                    lease.held.to = Some(at);
                    lease.end = LeaseEnd::Expired;
                }
            }
            EventKind::PauseStart { worker, until } => {
                self.trace.workers[worker].paused.push(Span { from: at, to: Some(until) })
            }
            EventKind::CheckLease { worker, ok: false } => close_belief(&mut self.trace.workers[worker], at),
            EventKind::Store { .. } => self.trace.writes.extend(WriteRecord::from_event(event)),
            EventKind::Release { worker, freed, .. } => {
                close_belief(&mut self.trace.workers[worker], at);
                if let Some(holder) = freed {
                    if let Some(lease) = self.open_lease(holder) {
                        lease.held.to = Some(at);
                        lease.end = if holder == worker {
                            LeaseEnd::Released
                        } else {
                            LeaseEnd::DeletedByOther(worker)
                        };
                    }
                }
            }
            EventKind::Crash { worker } => {
                let lane = &mut self.trace.workers[worker];
                lane.crashed = Some(at);
                close_belief(lane, at);
            }
            EventKind::Renew { worker, expires, .. } => {
                if let Some(lease) = self.open_lease(worker) {
                    lease.nominal_expiry = expires;
                }
            }
            EventKind::Election { until } => self.trace.elections.push(Span { from: at, to: Some(until) }),
            EventKind::Node { node, change } => {
                let lane = self.node(node);
                match change {
                    NodeChange::Set(w) => lane.keys.push((Span { from: at, to: None }, w)),
                    NodeChange::Clear(w) => {
                        if let Some((span, _)) =
                            lane.keys.iter_mut().rev().find(|k| k.1 == w && k.0.to.is_none())
                        {
                            span.to = Some(at);
                        }
                    }
                    NodeChange::Jump(by) => lane.jumps.push((at, by)),
                    NodeChange::Down => {
                        lane.down = Some(at);
                        for (span, _) in lane.keys.iter_mut().filter(|k| k.0.to.is_none()) {
                            span.to = Some(at);
                        }
                    }
                    NodeChange::Promoted { kept } => {
                        lane.promoted = Some((at, kept));
                        if !kept {
                            // The promoted replica never had the key: the grant is lost with the primary.
                            for lease in self.trace.leases.iter_mut().filter(|l| l.end == LeaseEnd::Held) {
                                lease.held.to = Some(at);
                                lease.end = LeaseEnd::Lost;
                            }
                        }
                    }
                }
            }
        }
    }
}
