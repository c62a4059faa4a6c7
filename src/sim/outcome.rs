//! Outcome: the one verdict of a run and the facts that explain it.
//!
//! [`Classifier`] is an [`Observer`]: it decides as the events happen, so a sweep can classify thousands of
//! runs without recording their traces.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::scenario::Ms;
use super::trace::{Event, EventKind, Observer, WorkerId, WriteRecord};

/// The verdict of one run. The kebab-case names are part of the interface (`data-outcome`, `locksim`).
///
/// Declared from harmless to harmful: when several apply, the later one wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutcomeKind {
    /// Every accepted write came from the lock's holder of the moment, or harmed no one.
    Safe,
    /// A lock without expiry was let go at or after its grant + ttl while a worker waited: a lease would
    /// have freed it no later.
    Stalled,
    /// A worker still waits for the lock when the run ends.
    Orphaned,
    /// A write from a worker that no longer held the lock reached the storage and was rejected.
    Fenced,
    /// A stale write was accepted while another worker held the lock, before the storage knew that
    /// holder's token: fencing only orders the writes it has seen.
    UnfencedGap,
    /// The lock service granted the lock while an earlier grant was still inside its lease and not given
    /// back by its holder, and both holders' writes were accepted.
    DoubleGrant,
    /// An accepted write came from a worker whose lock was older than that of a worker whose write had
    /// already been accepted: newer work is overwritten.
    Corrupted,
}

impl OutcomeKind {
    /// Every outcome, from harmless to harmful.
    pub const ALL: [OutcomeKind; 7] = [
        OutcomeKind::Safe,
        OutcomeKind::Stalled,
        OutcomeKind::Orphaned,
        OutcomeKind::Fenced,
        OutcomeKind::UnfencedGap,
        OutcomeKind::DoubleGrant,
        OutcomeKind::Corrupted,
    ];

    /// The interface name: `safe`, `stalled`, `orphaned`, `fenced`, `unfenced-gap`, `double-grant`,
    /// `corrupted`.
    pub fn name(self) -> &'static str {
        match self {
            OutcomeKind::Safe => "safe",
            OutcomeKind::Stalled => "stalled",
            OutcomeKind::Orphaned => "orphaned",
            OutcomeKind::Fenced => "fenced",
            OutcomeKind::UnfencedGap => "unfenced-gap",
            OutcomeKind::DoubleGrant => "double-grant",
            OutcomeKind::Corrupted => "corrupted",
        }
    }

    /// The outcome named `name`.
    pub fn from_name(name: &str) -> Option<OutcomeKind> {
        OutcomeKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the data or mutual exclusion was harmed (as opposed to liveness, or nothing).
    pub fn unsafe_data(self) -> bool {
        matches!(self, OutcomeKind::UnfencedGap | OutcomeKind::DoubleGrant | OutcomeKind::Corrupted)
    }

    /// Whether the system stopped making progress.
    pub fn liveness_lost(self) -> bool {
        matches!(self, OutcomeKind::Stalled | OutcomeKind::Orphaned)
    }
}

impl fmt::Display for OutcomeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A worker kept waiting for the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitRecord {
    /// Who waited.
    pub worker: WorkerId,
    /// Since when.
    pub from: Ms,
    /// When it got the lock; `None`: never.
    pub until: Option<Ms>,
    /// The holder it waited for.
    pub holder: WorkerId,
    /// When that holder was granted the lock.
    pub holder_since: Ms,
}

impl WaitRecord {
    /// How long it waited; a wait for ever is the longest.
    pub fn length(&self) -> Ms {
        self.until.map_or(Ms::MAX, |until| until - self.from)
    }
}

/// The lock service granted the lock while an earlier grant was still promised: two holders at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoubleGrant {
    /// The holder of the earlier grant.
    pub earlier: WorkerId,
    /// The holder of the later grant.
    pub later: WorkerId,
    /// When the later grant was made.
    pub at: Ms,
    /// When the earlier grant's promise ended (its lease ran out, or its holder let go); `None`: never.
    pub until: Option<Ms>,
}

/// The verdict with the facts that explain it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The verdict.
    pub kind: OutcomeKind,
    /// The write that decided a `fenced`, `unfenced-gap`, `double-grant` or `corrupted` verdict.
    pub stale_write: Option<WriteRecord>,
    /// The token that write lost to: the higher token the storage had seen (`fenced`), the holder's
    /// (`unfenced-gap`), the other holder's (`double-grant`) or the overwritten write's (`corrupted`).
    pub newer_token: Option<u64>,
    /// The wait that made a `stalled` or `orphaned` verdict, or the longest wait of the run otherwise.
    pub wait: Option<WaitRecord>,
    /// The first time the lock service broke mutual exclusion, whatever the data outcome.
    pub double_grant: Option<DoubleGrant>,
}

/// A grant the lock service has promised: exclusive until its lease ends or its holder lets go.
#[derive(Clone, Copy, Debug)]
struct Promise {
    worker: WorkerId,
    token: u64,
    expires: Option<Ms>,
    let_go: Option<Ms>,
}

impl Promise {
    fn end(&self) -> Option<Ms> {
        super::trace::sooner(self.expires, self.let_go)
    }

    fn live_at(&self, t: Ms) -> bool {
        self.end().is_none_or(|end| t < end)
    }
}

/// Decides the outcome as events arrive.
pub struct Classifier {
    ttl: Ms,
    kind: OutcomeKind,
    stale_write: Option<WriteRecord>,
    newer_token: Option<u64>,
    /// Every grant, in order; a worker's lock is its latest grant.
    grants: Vec<Promise>,
    /// Pairs of grants (indices) that overlapped.
    overlaps: Vec<(usize, usize)>,
    /// Grants (indices) with an accepted write.
    accepted: Vec<usize>,
    /// The newest grant with an accepted write, and that write's token.
    newest_accepted: Option<(usize, Option<u64>)>,
    /// The first overlap: (earlier grant, later grant, when).
    first_overlap: Option<(usize, usize, Ms)>,
    /// The latest grant: its holder, when, and whether it has an expiry.
    last: Option<(WorkerId, Ms, bool)>,
    /// Who waits for the lock, since when.
    waiting: Vec<(WorkerId, Ms)>,
    wait: Option<WaitRecord>,
}

impl Classifier {
    /// A classifier for a scenario with this lease length.
    pub fn new(ttl: Ms) -> Self {
        Classifier {
            ttl,
            kind: OutcomeKind::Safe,
            stale_write: None,
            newer_token: None,
            grants: Vec::new(),
            overlaps: Vec::new(),
            accepted: Vec::new(),
            newest_accepted: None,
            first_overlap: None,
            last: None,
            waiting: Vec::new(),
            wait: None,
        }
    }

    /// Ready for a new run, keeping its buffers.
    pub fn reset(&mut self, ttl: Ms) {
        fn emptied<T>(mut v: Vec<T>) -> Vec<T> {
            v.clear();
            v
        }
        let old = std::mem::replace(self, Classifier::new(ttl));
        self.grants = emptied(old.grants);
        self.overlaps = emptied(old.overlaps);
        self.accepted = emptied(old.accepted);
        self.waiting = emptied(old.waiting);
    }

    /// The verdict once the run is over.
    pub fn finish(mut self) -> Outcome {
        self.verdict()
    }

    /// The verdict once the run is over; [`Classifier::reset`] before the next run.
    pub fn verdict(&mut self) -> Outcome {
        // Whoever still waits at the end waits for ever: the lock was orphaned.
        for i in 0..self.waiting.len() {
            self.raise(OutcomeKind::Orphaned);
            self.waited(self.waiting[i], None);
        }
        let double_grant = self.first_overlap.map(|(earlier, later, at)| DoubleGrant {
            earlier: self.grants[earlier].worker,
            later: self.grants[later].worker,
            at,
            until: self.grants[earlier].end(),
        });
        Outcome {
            kind: self.kind,
            stale_write: self.stale_write,
            newer_token: self.newer_token,
            wait: self.wait,
            double_grant,
        }
    }

    fn raise(&mut self, kind: OutcomeKind) -> bool {
        if kind > self.kind {
            self.kind = kind;
            true
        } else {
            false
        }
    }

    fn decide(&mut self, kind: OutcomeKind, write: WriteRecord, newer: Option<u64>) {
        if self.raise(kind) {
            self.stale_write = Some(write);
            self.newer_token = newer;
        }
    }

    /// Records a wait that ended at `until` (`None`: never), behind the latest holder.
    fn waited(&mut self, (worker, from): (WorkerId, Ms), until: Option<Ms>) {
        let Some((holder, holder_since, _)) = self.last else { return };
        let record = WaitRecord { worker, from, until, holder, holder_since };
        if self.wait.is_none_or(|longest| record.length() > longest.length()) {
            self.wait = Some(record);
        }
    }

    /// The index of `worker`'s latest grant.
    fn lock_of(&self, worker: WorkerId) -> Option<usize> {
        self.grants.iter().rposition(|g| g.worker == worker)
    }

    fn on_store(&mut self, write: WriteRecord) {
        let lock = self.lock_of(write.worker);
        if !write.accepted {
            if write.stale {
                self.decide(OutcomeKind::Fenced, write, write.highest_before);
            }
            return;
        }
        // An older lock's write after a newer lock's accepted write: the newer work is overwritten.
        if let Some((newest, token)) = self.newest_accepted {
            if lock.is_none_or(|l| l < newest) {
                return self.decide(OutcomeKind::Corrupted, write, token);
            }
        }
        if let Some(l) = lock {
            if self.newest_accepted.is_none_or(|(n, _)| l > n) {
                self.newest_accepted = Some((l, write.token));
            }
            if !self.accepted.contains(&l) {
                self.accepted.push(l);
            }
            // Both holders of a double grant wrote (any pair that overlapped, not only the first).
            let other = self.overlaps.iter().find_map(|&(a, b)| {
                let o = match (a == l, b == l) {
                    (true, _) => b,
                    (_, true) => a,
                    _ => return None,
                };
                Some(o).filter(|o| self.accepted.contains(o))
            });
            if let Some(o) = other {
                let token = Some(self.grants[o].token);
                if self.raise(OutcomeKind::DoubleGrant) {
                    self.newer_token = token;
                    self.stale_write = self.stale_write.or(Some(write));
                }
            }
        }
        // A stale write accepted while another worker holds the lock.
        if write.stale && write.holder.is_some_and(|h| h != write.worker) {
            let holder_token = write.holder.and_then(|h| self.lock_of(h)).map(|g| self.grants[g].token);
            self.decide(OutcomeKind::UnfencedGap, write, holder_token);
        }
    }
}

impl Observer for Classifier {
    fn on(&mut self, event: &Event) {
        let at = event.at;
        match event.kind {
            EventKind::Grant { worker, token, expires, .. } => {
                if let Some(i) = self.waiting.iter().position(|w| w.0 == worker) {
                    let waiter = self.waiting.remove(i);
                    self.waited(waiter, Some(at));
                }
                let index = self.grants.len();
                for (i, g) in self.grants.iter().enumerate() {
                    if g.worker != worker && g.live_at(at) {
                        self.overlaps.push((i, index));
                        self.first_overlap = self.first_overlap.or(Some((i, index, at)));
                    }
                }
                self.grants.push(Promise { worker, token, expires, let_go: None });
                self.last = Some((worker, at, expires.is_some()));
            }
            EventKind::Release { worker, .. } | EventKind::CheckLease { worker, ok: false } => {
                // The holder lets go of its promises (an older one too), whatever the release did to the key.
                for g in &mut self.grants {
                    if g.worker == worker {
                        g.let_go = g.let_go.or(Some(at));
                    }
                }
                // A lock without expiry freed at or after grant + ttl while others waited: a lease would
                // have freed it sooner.
                if let (EventKind::Release { freed: Some(_), .. }, Some((_, since, false))) =
                    (event.kind, self.last)
                {
                    if at >= since + self.ttl && !self.waiting.is_empty() {
                        self.raise(OutcomeKind::Stalled);
                    }
                }
            }
            EventKind::Renew { worker, token, expires } => {
                // A keepalive or a new leader extends the promise itself.
                if let Some(g) = self.grants.iter_mut().rev().find(|g| g.worker == worker && g.token == token)
                {
                    g.expires = Some(expires);
                }
            }
            EventKind::Wait { worker, .. } => self.waiting.push((worker, at)),
            EventKind::Store { .. } => {
                if let Some(write) = WriteRecord::from_event(event) {
                    self.on_store(write);
                }
            }
            _ => {}
        }
    }
}
