//! Search of the catalogue: run every combination of a scenario's disturbances over a grid and report the
//! smallest counterexample for safety and for liveness.
//!
//! The disturbances ([`DISTURBANCES`]) are the scenario's named values: when A's pause starts and how long
//! it lasts, how long A's write spends in the network, when A's job ends, a clock jump, a leader crash. Each
//! is varied over a [`Bound`] (a range and a step) by the core's [`Explorer`], which sets the named value
//! itself; the switches (lease, fencing, …) and the base timing stay as given. Deterministic: no clock (the
//! caller times the search and fills in [`Report::millis`]), no threads, the same search gives the same
//! report.

use std::fmt;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

pub use super::DISTURBANCES;
use super::{Inputs, Key, Kind, ScenarioId, INPUTS};
use crate::sim::explore::{Dim, Explorer, Found};
use crate::sim::{Ms, OutcomeKind};

/// One dimension of a search: the input and the values it takes, `from`, `from + step`, … up to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bound {
    /// The input, by its name in the input table (`pause_start`).
    #[serde(rename = "input", serialize_with = "key_name")]
    pub key: Key,
    /// First value.
    pub from: Ms,
    /// Last value (in a [`Report`], the last value actually on the grid).
    pub to: Ms,
    /// Distance between values.
    pub step: Ms,
}

/// The least-disturbed run of a search that went wrong in one way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counterexample {
    /// Its verdict.
    pub outcome: OutcomeKind,
    /// The value of each dimension, in dimension order; as JSON, an object of input names to values.
    #[serde(serialize_with = "named")]
    pub inputs: Vec<(Key, Ms)>,
}

impl Counterexample {
    /// `base` with this counterexample's values: the inputs that replay its run.
    pub fn apply(&self, base: &Inputs) -> Inputs {
        let mut i = *base;
        for &(key, v) in &self.inputs {
            // The value came from a bound already clamped to the input's range.
            let _ = key.spec().set(&mut i, v);
        }
        i
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The scenario searched.
    pub scenario: ScenarioId,
    /// The inputs the search started from; every dimension takes its own values instead. Not in the JSON:
    /// the caller gave them.
    #[serde(skip)]
    pub inputs: Inputs,
    /// How many runs: the number of points on the grid.
    pub schedules: u64,
    /// The dimensions searched, after pruning, with their grids.
    pub bounds: Vec<Bound>,
    /// Wall-clock time of the search; left 0 by [`search`] (the core has no clock), filled in by the caller.
    pub millis: u64,
    /// The least-disturbed run with an outcome that harms the data (corrupted, double-grant, unfenced-gap);
    /// `None`: none within these bounds.
    pub safety: Option<Counterexample>,
    /// The least-disturbed run that lost liveness (stalled, orphaned); `None`: none within these bounds.
    pub liveness: Option<Counterexample>,
    /// What the search left out because it cannot change the outcome; as JSON, the notes ([`Pruned::notes`]).
    pub pruned: Pruned,
}

/// The inputs a search left out: the disturbances asked for that the scenario does not read. Kept as
/// names and said in words only when asked ([`Pruned::notes`]): the page never says them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pruned {
    scenario: ScenarioId,
    unread: Vec<&'static str>,
}

impl Pruned {
    /// What was left out and why, a sentence per kind: the disturbances not searched, the switches ignored.
    pub fn notes(&self) -> Vec<String> {
        let id = self.scenario;
        let switches = INPUTS.iter().filter(|s| matches!(s.kind, Kind::Words(_)) && !id.uses(s.key));
        let ignored: Vec<&str> = switches.map(|s| s.name).collect();
        let mut notes = Vec::new();
        for (names, what) in [(&self.unread, "not searched"), (&ignored, "ignored")] {
            if !names.is_empty() {
                let verb = if names.len() == 1 { "does" } else { "do" };
                notes.push(format!("{} {verb} not apply to {}: {what}", list(names), id.id()));
            }
        }
        notes
    }
}

impl Serialize for Pruned {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.notes().serialize(s)
    }
}

/// The default grid: every disturbance over its whole range with this step (at least 1 ms). A's pause
/// starts at most where its lease ends: a worker that pauses later has lost the lock before pausing, which
/// the search at pause start = lease end already covers with no pause at all.
pub fn bounds(inputs: &Inputs, step: Ms) -> Vec<Bound> {
    DISTURBANCES
        .map(|key| {
            let (from, mut to) = key.spec().range();
            if key == Key::PauseStart {
                to = to.min(inputs.ttl);
            }
            Bound { key, from, to, step }
        })
        .to_vec()
}

/// Searches scenario `id` with the switches and timing of `inputs` over the default grid ([`bounds`]).
pub fn search(id: ScenarioId, inputs: &Inputs, step: Ms) -> Report {
    search_within(id, inputs, &bounds(inputs, step))
}

/// Searches scenario `id` with the inputs of `inputs` over the grid of `bounds`, all at once; see
/// [`Search`].
pub fn search_within(id: ScenarioId, inputs: &Inputs, bounds: &[Bound]) -> Report {
    let mut search = Search::new(id, inputs, bounds);
    search.run(u64::MAX);
    search.report()
}

/// A search under way, run a slice at a time ([`Search::run`]) so that a page can stay responsive and show
/// its progress: one run for each combination of the bounds' values, in lexicographic order (the first bound
/// outermost).
///
/// A counterexample is the run with the least total disturbance (the sum of its dimensions' values); of
/// equal sums, the earliest in that order. Bounds are first normalised: a step of at least 1, `to` clamped
/// to the input's range and lowered onto the grid, `from` at most `to`; an input given twice keeps its first
/// bound. An input the scenario does not read is pruned (it cannot change the outcome) and said so in
/// [`Report::pruned`], as are the switches it ignores. With no dimension left the search is one run.
pub struct Search {
    id: ScenarioId,
    start: Inputs,
    keys: Vec<Key>,
    explorer: Explorer,
    pruned: Pruned,
}

impl Search {
    /// A search at its first point.
    pub fn new(id: ScenarioId, inputs: &Inputs, bounds: &[Bound]) -> Search {
        let sc = id.build(inputs);
        let (mut keys, mut dims, mut unread) = (Vec::new(), Vec::new(), Vec::new());
        for b in bounds {
            if keys.contains(&b.key) {
                continue;
            }
            // The scenario names every disturbance it reads: one it does not name cannot change a run.
            let Some(param) = sc.param(b.key.spec().name) else {
                unread.push(b.key.spec().name);
                continue;
            };
            let (min, max) = b.key.spec().range();
            let to = b.to.clamp(min, max);
            keys.push(b.key);
            dims.push(Dim::new(param, b.from.clamp(min, to), to, b.step));
        }
        Search {
            id,
            start: *inputs,
            keys,
            explorer: Explorer::new(sc, dims),
            pruned: Pruned { scenario: id, unread },
        }
    }

    /// Runs up to `n` more schedules; `true` once every schedule has run.
    pub fn run(&mut self, n: u64) -> bool {
        self.explorer.run(n)
    }

    /// Schedules run so far.
    pub fn done(&self) -> u64 {
        self.explorer.done()
    }

    /// Schedules in all.
    pub fn total(&self) -> u64 {
        self.explorer.total()
    }

    /// The searched bounds, normalised.
    pub fn bounds(&self) -> Vec<Bound> {
        let dims = self.explorer.dims();
        self.keys
            .iter()
            .zip(dims)
            .map(|(&key, d)| Bound { key, from: d.from, to: d.to, step: d.step })
            .collect()
    }

    /// What the search found: over the whole grid once [`Search::run`] has returned `true`.
    pub fn report(&self) -> Report {
        let found = |f: Option<&Found>| {
            f.map(|f| Counterexample {
                outcome: f.outcome,
                inputs: self.keys.iter().copied().zip(f.values.iter().copied()).collect(),
            })
        };
        Report {
            scenario: self.id,
            inputs: self.start,
            schedules: self.done(),
            bounds: self.bounds(),
            millis: 0,
            safety: found(self.explorer.safety()),
            liveness: found(self.explorer.liveness()),
            pruned: self.pruned.clone(),
        }
    }
}

/// The verdict of every point of the grid of `bounds` (normalised as [`Search`] does), in its order: the
/// last bound fastest. An outcome map over two disturbances, for a heat-map.
pub fn plane(id: ScenarioId, inputs: &Inputs, bounds: &[Bound]) -> (Vec<Bound>, Vec<OutcomeKind>) {
    let search = Search::new(id, inputs, bounds);
    (search.bounds(), search.explorer.verdicts())
}

/// `a`, `a and b`, `a, b and c`.
fn list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn key_name<S: Serializer>(key: &Key, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(key.spec().name)
}

fn named<S: Serializer>(inputs: &[(Key, Ms)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(inputs.len()))?;
    for (key, v) in inputs {
        map.serialize_entry(key.spec().name, v)?;
    }
    map.end()
}

impl fmt::Display for Counterexample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: Vec<String> = self.inputs.iter().map(|(k, v)| format!("{} {v}", k.spec().name)).collect();
        if values.is_empty() {
            write!(f, "{} with no disturbance", self.outcome)
        } else {
            write!(f, "{} at {}", self.outcome, values.join(", "))
        }
    }
}

impl Report {
    /// The `locksim` command that replays `found`: the scenario, every input that differs from the
    /// scenario's defaults, and the counterexample's values.
    pub fn replay(&self, found: &Counterexample) -> String {
        let (defaults, run) = (self.scenario.defaults(), found.apply(&self.inputs));
        let mut cmd = format!("locksim --scenario {}", self.scenario.id());
        for key in self.scenario.keys().iter().chain(self.scenario.extras()) {
            let spec = key.spec();
            if spec.get(&run) != spec.get(&defaults) || found.inputs.iter().any(|(k, _)| k == key) {
                cmd += &format!(" --{} {}", spec.name.replace('_', "-"), spec.text(&run));
            }
        }
        cmd
    }
}

/// The report as `locksim search` prints it.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let searched = |k: &Key| self.bounds.iter().any(|b| b.key == *k);
        let held: Vec<String> = (self.scenario.keys().iter())
            .filter(|k| !searched(k))
            .map(|k| format!(", {} {}", k.spec().name, k.spec().text(&self.inputs)))
            .collect();
        writeln!(f, "search: {}{}", self.scenario.id(), held.concat())?;
        let grid: Vec<String> = self
            .bounds
            .iter()
            .map(|b| format!("{} {}..={} step {}", b.key.spec().name, b.from, b.to, b.step))
            .collect();
        if grid.is_empty() {
            writeln!(f, "bounds: none, one schedule")?;
        } else {
            writeln!(f, "bounds: {} (ms)", grid.join(", "))?;
        }
        writeln!(f, "schedules: {} in {} ms", self.schedules, self.millis)?;
        for (what, found) in [("safety", &self.safety), ("liveness", &self.liveness)] {
            match found {
                Some(c) => writeln!(f, "{what}: {c}\n  replay: {}", self.replay(c))?,
                None => writeln!(f, "{what}: none within these bounds")?,
            }
        }
        self.pruned.notes().iter().try_for_each(|note| writeln!(f, "pruned: {note}"))
    }
}
