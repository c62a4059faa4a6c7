//! Scenario: the inputs of one run, as plain data.
//!
//! A scenario is a list of workers, each a small program of steps, plus the settings of the lock service
//! and the storage. New situations (a network delay, a crash, a third worker) are new data, not new code;
//! the catalogue of named scenarios that build these values lives a layer up, in `scenarios`.

use serde::{Deserialize, Serialize};

/// Time in integer milliseconds from t = 0.
pub type Ms = u64;

/// The longest pause the learner can drag to (30 s).
pub const MAX_PAUSE: Ms = 30_000;

/// How a worker gives the lock back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Release {
    /// Delete the key only if it still holds my token (Redis: a Lua compare-and-delete).
    CompareAndDelete,
    /// Delete the key whoever holds it: the classic bug that frees someone else's lock.
    PlainDelete,
}

/// A length of time: fixed, or one of the scenario's named values ([`Scenario::params`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dur {
    /// A fixed length.
    Ms(Ms),
    /// The value of the scenario's named value at this index: one a reader drags, a search varies, a flag or
    /// a link sets.
    Param(u8),
}

/// Most named values a scenario has.
pub const MAX_PARAMS: usize = 8;

/// A named value of a scenario: a length the reader may drag or set and a search may vary, by its name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    /// Its name in scripts, links and flags (`pause`, `pause_start`).
    pub name: String,
    /// Its value now.
    pub value: Ms,
    /// The smallest value a control or a search gives it.
    pub min: Ms,
    /// The largest.
    pub max: Ms,
    /// Whether 0 means "it does not happen" (a leader crash that is off).
    pub off: bool,
}

/// One step of a worker's program. Steps run in order; a step that takes time delays the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Do nothing for a while (before asking for the lock, say).
    Idle(Dur),
    /// Take the lock atomically with its lease (Redis `SET key v NX PX ttl`); queue while someone holds it.
    Acquire,
    /// Take the lock without any expiry (Redis `SETNX` before its `EXPIRE`); queue while someone holds it.
    AcquireNoExpiry,
    /// Try `SET NX PX` once; if the lock is taken, try again every `retry` ms.
    TryAcquire {
        /// Time between attempts.
        retry: Dur,
    },
    /// Read the lock (Redis `GET`) and remember whether it looked free.
    Get,
    /// Write the lock without `NX` after a `GET` that saw it free: it takes the lock whoever holds it now.
    /// After a `GET` that saw it taken, behaves as [`Step::Acquire`].
    Set,
    /// Work for a while, alive and running.
    Work(Dur),
    /// Work until this time from t = 0 (go straight on if it is already past).
    WorkUntil(Dur),
    /// Stop the world (GC, VM suspend, swap): the worker does nothing and notices nothing.
    Pause(Dur),
    /// Check the lease on the local clock; give up if it has run out.
    CheckLease,
    /// Write to the storage with the token the worker believes it holds and wait for the reply; the
    /// message spends `delay` in the network (the reply is instant).
    Write {
        /// Network delay between sending and the storage receiving the write.
        delay: Dur,
    },
    /// Give the lock back.
    Release,
    /// Die: no further steps, never releases.
    Crash,
}

/// The lock service behind the lock: one server, or one of the replicated designs the source compares.
///
/// Each variant models what its system documents (the sources are cited where the engine plays it); the
/// catalogue's reading says where the model simplifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Service {
    /// One server: the lock and its token counter live in one place.
    Single,
    /// A Redis primary (node 0) with one replica (node 1), replication asynchronous: the primary crashes at
    /// `crash`, before anything it did reached the replica, which is promoted at `promote`. With `sync` every
    /// change reached the replica before the client heard of it (`WAIT`), so the replica has it.
    Failover {
        /// When the primary crashes.
        crash: Ms,
        /// When the replica becomes the primary.
        promote: Ms,
        /// Replies only after the replica acknowledged (WAIT 1).
        sync: bool,
    },
    /// Redlock: `nodes` independent Redis servers, each with its own clock; a client holds the lock while it
    /// holds a majority. Node `jump_node`'s clock jumps forward by `jump` at `jump_at`. Values are random:
    /// no tokens.
    Redlock {
        /// How many servers (at most [`MAX_NODES`]).
        nodes: usize,
        /// Which servers each worker reaches, by index, as bit masks (a worker past the list reaches all).
        reach: [u8; 3],
        /// Whose clock jumps.
        jump_node: usize,
        /// When.
        jump_at: Ms,
        /// How far forward.
        jump: Dur,
        /// The clock-drift allowance a client subtracts from its lease (validity = ttl − elapsed − drift).
        drift: Ms,
    },
    /// A consensus group (etcd, ZooKeeper): one linearizable log. A waiter's token is the log position of its
    /// request (etcd's create revision, ZooKeeper's czxid); a running holder keeps its lease alive every ttl/3;
    /// the leader may crash at `leader_crash`, and the new one, ready `election` later, re-arms every lease
    /// for `election` + ttl (etcd).
    Consensus {
        /// When the leader crashes, if it does (a named value that is 0 and `off`: it does not).
        leader_crash: Option<Dur>,
        /// The election timeout.
        election: Ms,
    },
}

/// Most servers a [`Service::Redlock`] has.
pub const MAX_NODES: usize = 5;

/// Most named switches a scenario has.
pub const MAX_SWITCHES: usize = 4;

/// A named switch: an on/off a reader flips, a link or a flag sets, that picks between two versions of
/// part of some workers' programs (`{atomic? acquire | acquire without expiry}`). The workers always hold
/// the steps of the switch's present setting, so the engine never sees a switch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Switch {
    /// Its name in scripts, links and flags (`atomic`).
    pub name: String,
    /// Its setting now.
    pub on: bool,
    /// The parts of programs it picks, at most one per worker.
    pub choices: Vec<Choice>,
}

/// Where a switch picks part of one worker's program: from step `at`, the steps of its present setting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// The worker.
    pub worker: usize,
    /// Where in its program the choice starts.
    pub at: usize,
    /// The steps when the switch is on.
    pub on: Vec<Step>,
    /// The steps when it is off.
    pub off: Vec<Step>,
}

/// One worker: a name for the view and its program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Worker {
    /// Short name shown on the timeline ("A").
    pub name: String,
    /// What it does, in order.
    pub steps: Vec<Step>,
}

/// Everything one run needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    /// The named values every [`Dur::Param`] refers to, in the order a search varies them.
    pub params: Vec<Param>,
    /// The named value the learner drags on the timeline (a pause, a delay, a job's end, a clock jump).
    pub drag: Option<u8>,
    /// Lease expiry on or off.
    pub lease: bool,
    /// Whether the storage rejects a token lower than the highest it has seen.
    pub fencing: bool,
    /// Lease length.
    pub ttl: Ms,
    /// The first token the lock service hands out.
    pub first_token: u64,
    /// How workers release.
    pub release: Release,
    /// After a lease runs out unreleased, how long the lock service keeps the lock unavailable (Chubby's
    /// lock-delay).
    pub lock_delay: Ms,
    /// Every grant's token reaches the storage at the grant itself, raising the highest token it has seen.
    pub register: bool,
    /// The lock service.
    pub service: Service,
    /// The workers; on the same millisecond a lower index acts first.
    pub workers: Vec<Worker>,
    /// The named switches that picked parts of the workers' programs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<Switch>,
}

impl Scenario {
    /// A scenario with these workers and the base settings: one lock server, lease and fencing on, a 10 s
    /// lease, token 33 first, compare-and-delete release, no lock-delay, no registration.
    pub fn with_workers(workers: Vec<Worker>) -> Scenario {
        Scenario {
            params: Vec::new(),
            drag: None,
            lease: true,
            fencing: true,
            ttl: 10_000,
            first_token: 33,
            release: Release::CompareAndDelete,
            lock_delay: 0,
            register: false,
            service: Service::Single,
            workers,
            switches: Vec::new(),
        }
    }

    /// Whether grants carry ordered tokens (Redlock's values are random).
    pub fn tokens(&self) -> bool {
        !matches!(self.service, Service::Redlock { .. })
    }

    /// The length of `d` in this scenario (a named value that is missing reads as 0).
    pub fn dur(&self, d: Dur) -> Ms {
        match d {
            Dur::Ms(ms) => ms,
            Dur::Param(i) => self.params.get(usize::from(i)).map_or(0, |p| p.value),
        }
    }

    /// When the consensus group's leader crashes, if it does.
    pub fn leader_crash(&self) -> Option<Ms> {
        let Service::Consensus { leader_crash: Some(d), .. } = self.service else { return None };
        // At 0 there is no crash, written as a number or as a named value at 0 (as a link's 0 is off):
        // replacing a number by a named value of the same value never changes the run.
        Some(self.dur(d)).filter(|&at| at > 0)
    }

    /// The index of the named value called `name`.
    pub fn param(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }

    /// Sets named value `i` (nothing if there is none).
    pub fn set_param(&mut self, i: usize, value: Ms) {
        if let Some(p) = self.params.get_mut(i) {
            p.value = value;
        }
    }

    /// Sets named switch `i` (nothing if there is none): each worker it picks for gets the steps of the
    /// new setting in place of the old.
    pub fn set_switch(&mut self, i: usize, on: bool) {
        let Some(switch) = self.switches.get_mut(i).filter(|s| s.on != on) else { return };
        switch.on = on;
        for c in &switch.choices {
            let (old, new) = if on { (&c.off, &c.on) } else { (&c.on, &c.off) };
            if let Some(w) = self.workers.get_mut(c.worker) {
                let end = (c.at + old.len()).min(w.steps.len());
                w.steps.splice(c.at.min(end)..end, new.iter().copied());
            }
        }
    }

    /// The value the learner drags, if the scenario has one.
    pub fn dragged(&self) -> Option<&Param> {
        self.drag.and_then(|i| self.params.get(usize::from(i)))
    }

    /// Sets the dragged value (nothing if there is none).
    pub fn set_drag(&mut self, value: Ms) {
        if let Some(i) = self.drag {
            self.set_param(usize::from(i), value);
        }
    }
}

/// A worker named `name` running `steps`.
pub fn worker(name: &str, steps: impl Into<Vec<Step>>) -> Worker {
    Worker { name: name.to_owned(), steps: steps.into() }
}
