//! Runs recorded on real lock services: `scripts/record.sh` runs `locksim real` for every supported
//! combination and writes `assets/recordings.json`. Each recording keeps the real run's events; the page
//! replays them through the core's own trace builder and classifier ([`sim::replay`]) and draws them with the
//! same figure code as the simulation.
//!
//! The page fetches the file from its own origin when the reader first opens "Seen on real systems" (the
//! recordings stay out of the first load) and reads it with the browser's JSON parser into [`Fields`];
//! natively, `build.rs` compiles it into static data ([`RAW`]) for the tests. Both end in [`Recording::read`].

use crate::present::params::set_input;
use crate::scenarios::{Inputs, Kind, ScenarioId};
use crate::sim::{self, Event, OutcomeKind, Run};

/// A recording as `build.rs` compiles it from `assets/recordings.json` (as `scripts/record.sh` wrote it):
/// the same fields, the inputs that differ from the scenario's defaults as name and value, and each event
/// as numbers ([`Event::to_numbers`]).
#[derive(Clone, Copy)]
pub struct Raw {
    /// Scenario id.
    pub scenario: &'static str,
    /// Inputs that differ from the scenario's defaults: name, value as a link writes it.
    pub inputs: &'static [(&'static str, &'static str)],
    /// `redis` or `etcd`.
    pub backend: &'static str,
    /// Its version.
    pub version: &'static str,
    /// YYYY-MM-DD.
    pub recorded: &'static str,
    /// Outcome names.
    pub simulated: &'static str,
    /// Outcome names.
    pub real: &'static str,
    /// Scenario ms.
    pub max_jitter_ms: u64,
    /// How many times faster than the scenario it ran (the file's `scale` is its inverse).
    pub speedup: u64,
    /// Events as numbers.
    pub events: &'static [&'static [i32]],
}

/// The recordings of `assets/recordings.json`, compiled in for the native side.
#[cfg(not(target_arch = "wasm32"))]
pub const RAW: &[Raw] = include!(concat!(env!("OUT_DIR"), "/recordings.rs"));

/// A recording's fields as the file has them, before they are checked.
pub struct Fields<'a> {
    /// Scenario id.
    pub scenario: &'a str,
    /// Inputs that differ from the scenario's defaults: name, value as a link writes it.
    pub inputs: Vec<(&'a str, &'a str)>,
    /// `redis`, `etcd`, …
    pub backend: &'static str,
    /// Its version.
    pub version: &'static str,
    /// YYYY-MM-DD.
    pub recorded: &'static str,
    /// Outcome name.
    pub simulated: &'a str,
    /// Outcome name.
    pub real: &'a str,
    /// Scenario ms.
    pub max_jitter_ms: u64,
    /// How many times faster than the scenario it ran.
    pub speedup: u64,
    /// Events as numbers ([`Event::to_numbers`]).
    pub events: Vec<Vec<i64>>,
}

/// One real run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recording {
    /// Its scenario.
    pub scenario: ScenarioId,
    /// Its inputs: the scenario's defaults and what the recording changed.
    pub inputs: Inputs,
    /// The lock service: `redis` or `etcd`.
    pub backend: &'static str,
    /// Its version.
    pub version: &'static str,
    /// When it was recorded (YYYY-MM-DD).
    pub recorded: &'static str,
    /// The simulation's verdict, and the real run's, when it was recorded.
    pub simulated: OutcomeKind,
    /// The real run's verdict when it was recorded.
    pub real: OutcomeKind,
    /// How far, at most, a real event fell from its simulated time (scenario ms).
    pub max_jitter_ms: u64,
    /// How many times faster than the scenario it ran (1: in real time).
    pub speedup: u64,
    /// What happened, in scenario ms.
    pub events: Vec<Event>,
}

impl Recording {
    /// The recorded run, as the core reads it.
    pub fn run(&self) -> Run {
        sim::replay(&self.scenario.build(&self.inputs), &self.events)
    }

    /// Whether this recording shows `id` with the same switches as `inputs` (the dragged values may differ;
    /// a time that a switch turns on, a leader crash, must be on or off as in the recording), and the same
    /// timings apart from those its caption names: every other timing it changed from the defaults (B's
    /// work, say). A 10 s lease recorded is not the scenario a link with a 5 s lease shows.
    pub fn matches(&self, id: ScenarioId, inputs: &Inputs) -> bool {
        let defaults = id.defaults();
        self.scenario == id
            && id.keys().iter().chain(id.extras()).all(|&k| {
                let spec = k.spec();
                let (mine, theirs) = (spec.get(&self.inputs), spec.get(inputs));
                match spec.kind {
                    Kind::Words(_) => mine == theirs,
                    Kind::At { .. } => (mine != 0) == (theirs != 0),
                    Kind::Ms { .. } if Some(k) != id.dragged() => {
                        mine == theirs || mine != spec.get(&defaults)
                    }
                    _ => true,
                }
            })
    }
}

/// Every recording of the file (any that does not read as one left out: the tests catch it).
#[cfg(not(target_arch = "wasm32"))]
pub fn all() -> Vec<Recording> {
    let mut out = Vec::new();
    for raw in RAW {
        if let Some(r) = Recording::from_raw(raw) {
            out.push(r);
        }
    }
    out
}

impl Recording {
    /// The recording `raw` stands for; `None` if it stands for none.
    pub fn from_raw(raw: &Raw) -> Option<Recording> {
        Recording::read(Fields {
            scenario: raw.scenario,
            inputs: raw.inputs.to_vec(),
            backend: raw.backend,
            version: raw.version,
            recorded: raw.recorded,
            simulated: raw.simulated,
            real: raw.real,
            max_jitter_ms: raw.max_jitter_ms,
            speedup: raw.speedup,
            events: raw.events.iter().map(|e| e.iter().map(|&n| i64::from(n)).collect()).collect(),
        })
    }

    /// The recording `f` stands for; `None` if it stands for none (an unknown scenario, input, verdict or
    /// event).
    pub fn read(f: Fields) -> Option<Recording> {
        let outcome = |name: &str| OutcomeKind::ALL.into_iter().find(|k| k.name() == name);
        let scenario = ScenarioId::parse(f.scenario)?;
        let mut inputs = scenario.defaults();
        for (name, value) in f.inputs {
            set_input(&mut inputs, name, value).ok()?;
        }
        let events = f.events.iter().map(|n| Event::from_numbers(n)).collect::<Option<Vec<Event>>>()?;
        Some(Recording {
            scenario,
            inputs,
            backend: f.backend,
            version: f.version,
            recorded: f.recorded,
            simulated: outcome(f.simulated)?,
            real: outcome(f.real)?,
            max_jitter_ms: f.max_jitter_ms,
            speedup: f.speedup.max(1),
            events,
        })
    }
}
