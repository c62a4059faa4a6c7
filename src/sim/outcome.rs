//! Outcome: the one verdict of a run and the facts that explain it.
//!
//! [`Classifier`] is an [`Observer`]: it decides as the events happen, so a sweep can classify thousands of
//! runs without recording their traces.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::scenario::Ms;
use super::trace::{Event, EventKind, Observer, WorkerId, WriteRecord};

/// The verdict of one run. The kebab-case names are part of the interface (`data-outcome`, `locksim`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutcomeKind {
    /// Every write came from the lock's holder of the moment.
    Safe,
    /// Without lease expiry, a waiter was kept waiting past where a lease would have freed the lock.
    Stalled,
    /// A stale write arrived after a newer token's write and the storage rejected it.
    Fenced,
    /// A stale write was accepted before the new holder wrote: fencing only orders writes.
    UnfencedGap,
    /// A stale write was accepted after a newer token's write: the newer work is overwritten.
    Corrupted,
}

impl OutcomeKind {
    /// Every outcome, from harmless to harmful.
    pub const ALL: [OutcomeKind; 5] = [
        OutcomeKind::Safe,
        OutcomeKind::Stalled,
        OutcomeKind::Fenced,
        OutcomeKind::UnfencedGap,
        OutcomeKind::Corrupted,
    ];

    /// The interface name: `safe`, `fenced`, `corrupted`, `unfenced-gap`, `stalled`.
    pub fn name(self) -> &'static str {
        match self {
            OutcomeKind::Safe => "safe",
            OutcomeKind::Stalled => "stalled",
            OutcomeKind::Fenced => "fenced",
            OutcomeKind::UnfencedGap => "unfenced-gap",
            OutcomeKind::Corrupted => "corrupted",
        }
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

/// The verdict with the facts that explain it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The verdict.
    pub kind: OutcomeKind,
    /// The stale write that decided a `fenced`, `unfenced-gap` or `corrupted` verdict.
    pub stale_write: Option<WriteRecord>,
    /// The newest token the lock service had granted when that stale write arrived.
    pub newer_token: Option<u64>,
    /// The wait that made a `stalled` verdict, or the longest wait of the run otherwise.
    pub wait: Option<WaitRecord>,
}

/// Decides the outcome as events arrive.
pub struct Classifier {
    ttl: Ms,
    lease: bool,
    kind: OutcomeKind,
    stale_write: Option<WriteRecord>,
    newer_token: Option<u64>,
    newest_granted: Option<u64>,
    holder: Option<(WorkerId, Ms)>,
    waiting: Vec<(WorkerId, Ms, WorkerId, Ms)>,
    wait: Option<WaitRecord>,
}

impl Classifier {
    /// A classifier for a scenario with this lease length and lease setting.
    pub fn new(ttl: Ms, lease: bool) -> Self {
        Classifier {
            ttl,
            lease,
            kind: OutcomeKind::Safe,
            stale_write: None,
            newer_token: None,
            newest_granted: None,
            holder: None,
            waiting: Vec::new(),
            wait: None,
        }
    }

    /// The verdict once the run is over.
    pub fn finish(mut self) -> Outcome {
        // Whoever still waits at the end waits for ever.
        for (worker, from, holder, holder_since) in std::mem::take(&mut self.waiting) {
            self.waited(WaitRecord { worker, from, until: None, holder, holder_since });
        }
        Outcome {
            kind: self.kind,
            stale_write: self.stale_write,
            newer_token: self.newer_token,
            wait: self.wait,
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

    fn waited(&mut self, record: WaitRecord) {
        // Without a lease the lock would have been freed at holder_since + ttl; waiting to or past that is a stall.
        if !self.lease && record.until.is_none_or(|until| until >= record.holder_since + self.ttl) {
            self.raise(OutcomeKind::Stalled);
        }
        if self.wait.is_none_or(|longest| record.length() > longest.length()) {
            self.wait = Some(record);
        }
    }
}

impl Observer for Classifier {
    fn on(&mut self, event: &Event) {
        let at = event.at;
        match event.kind {
            EventKind::Grant { worker, token, .. } => {
                if let Some(i) = self.waiting.iter().position(|w| w.0 == worker) {
                    let (worker, from, holder, holder_since) = self.waiting.remove(i);
                    self.waited(WaitRecord { worker, from, until: Some(at), holder, holder_since });
                }
                self.newest_granted = Some(token);
                self.holder = Some((worker, at));
            }
            EventKind::Wait { worker, holder } => {
                // During a lock-delay nobody holds the lock: the wait is not on a holder.
                if let (Some(holder), Some((_, since))) = (holder, self.holder) {
                    self.waiting.push((worker, at, holder, since));
                }
            }
            EventKind::Store { .. } => {
                let Some(write) = WriteRecord::from_event(event).filter(|w| w.stale) else {
                    return;
                };
                let kind = match (write.accepted, write.overwrote()) {
                    (false, _) => OutcomeKind::Fenced,
                    (true, Some(_)) => OutcomeKind::Corrupted,
                    (true, None) => OutcomeKind::UnfencedGap,
                };
                if self.raise(kind) {
                    self.stale_write = Some(write);
                    self.newer_token = self.newest_granted;
                }
            }
            _ => {}
        }
    }
}
