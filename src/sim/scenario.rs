//! Scenario: the inputs of one run, as plain data.
//!
//! A scenario is a list of workers, each a small program of steps, plus the settings of the lock service
//! and the storage. New situations (a network delay, a crash, a third worker) are new data, not new code.

use serde::{Deserialize, Serialize};

/// Time in integer milliseconds from t = 0.
pub type Ms = u64;

/// The longest pause the learner can drag to (30 s).
pub const MAX_PAUSE: Ms = 30_000;

/// The inputs of SPEC.md, with their defaults. The UI exposes `pause`, `lease` and `fencing`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Inputs {
    /// Length of A's GC pause.
    pub pause: Ms,
    /// Lease expiry on or off.
    pub lease: bool,
    /// Whether the storage checks tokens.
    pub fencing: bool,
    /// Lease length.
    pub ttl: Ms,
    /// When A's pause begins (A acquires at 0).
    pub pause_start: Ms,
    /// When B asks for the lock.
    pub b_request: Ms,
    /// How long B works between acquiring and writing.
    pub b_work: Ms,
    /// A's token; each grant adds one.
    pub first_token: u64,
}

impl Default for Inputs {
    fn default() -> Self {
        Inputs {
            pause: 4_000,
            lease: true,
            fencing: true,
            ttl: 10_000,
            pause_start: 0,
            b_request: 1_000,
            b_work: 1_000,
            first_token: 33,
        }
    }
}

/// How a worker gives the lock back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Release {
    /// Delete the key only if it still holds my token (Redis: a Lua compare-and-delete).
    CompareAndDelete,
    /// Delete the key whoever holds it: the classic bug that frees someone else's lock.
    PlainDelete,
}

/// How long a pause step lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PauseLen {
    /// The scenario's `pause`: the right edge of the purple band the learner drags.
    Dragged,
    /// A fixed length.
    Ms(Ms),
}

/// One step of a worker's program. Steps run in order; a step that takes time delays the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Do nothing for a while (before asking for the lock, say).
    Idle(Ms),
    /// Ask the lock service; wait while someone else holds the lock.
    Acquire,
    /// Work for a while, alive and running.
    Work(Ms),
    /// Stop the world (GC, VM suspend, swap): the worker does nothing and notices nothing.
    Pause(PauseLen),
    /// Check the lease on the local clock; give up if it has run out.
    CheckLease,
    /// Write to the storage with the token the worker believes it holds; the message takes `delay` to arrive.
    Write {
        /// Network delay between sending and the storage receiving the write.
        delay: Ms,
    },
    /// Give the lock back.
    Release,
    /// Die: no further steps, never releases.
    Crash,
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
    /// Length of every `Pause(Dragged)` step.
    pub pause: Ms,
    /// Lease expiry on or off.
    pub lease: bool,
    /// Whether the storage rejects a token lower than the highest it has accepted.
    pub fencing: bool,
    /// Lease length.
    pub ttl: Ms,
    /// The first token the lock service hands out.
    pub first_token: u64,
    /// How workers release.
    pub release: Release,
    /// After an expiry, how long the lock service keeps the lock unavailable (Chubby's lock-delay).
    pub lock_delay: Ms,
    /// The workers; on the same millisecond a lower index acts first.
    pub workers: Vec<Worker>,
}

impl Scenario {
    /// The base scenario of SPEC.md: A takes the lock and pauses; B asks at `b_request`.
    pub fn base(inputs: &Inputs) -> Scenario {
        let mut a = vec![Step::Acquire];
        if inputs.pause_start > 0 {
            a.push(Step::Work(inputs.pause_start));
        }
        a.extend([Step::Pause(PauseLen::Dragged), Step::Write { delay: 0 }, Step::Release]);
        let b = vec![
            Step::Idle(inputs.b_request),
            Step::Acquire,
            Step::Work(inputs.b_work),
            Step::Write { delay: 0 },
            Step::Release,
        ];
        Scenario {
            pause: inputs.pause,
            lease: inputs.lease,
            fencing: inputs.fencing,
            ttl: inputs.ttl,
            first_token: inputs.first_token,
            release: Release::CompareAndDelete,
            lock_delay: 0,
            workers: vec![Worker { name: "A".into(), steps: a }, Worker { name: "B".into(), steps: b }],
        }
    }

    /// The length a pause step lasts in this scenario.
    pub fn pause_len(&self, len: PauseLen) -> Ms {
        match len {
            PauseLen::Dragged => self.pause,
            PauseLen::Ms(ms) => ms,
        }
    }
}
