//! The simulation core: scenario in, trace and outcome out.
//!
//! Pure and deterministic: no clock, no randomness, no I/O, no web. The same scenario gives the same trace,
//! byte for byte. Everything the app shows about a run comes from here.

mod engine;
mod outcome;
mod scenario;
mod trace;

use serde::{Deserialize, Serialize};

pub use engine::simulate;
pub use outcome::{Classifier, DoubleGrant, Outcome, OutcomeKind, WaitRecord};
pub use scenario::{worker, Dur, Ms, Release, Scenario, Step, Worker, MAX_PAUSE};
pub use trace::{
    Actor, Event, EventKind, Lease, LeaseEnd, Observer, Span, Trace, TraceBuilder, WorkerId, WorkerLane,
    WriteRecord,
};

/// A finished run: what happened and what it means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// The events and lanes.
    pub trace: Trace,
    /// The verdict.
    pub outcome: Outcome,
}

/// Runs a scenario and records everything.
pub fn run(scenario: &Scenario) -> Run {
    let names = scenario.workers.iter().map(|w| w.name.as_str());
    let mut observers =
        (TraceBuilder::new(names, scenario.ttl), Classifier::new(scenario.ttl, scenario.lease));
    simulate(scenario, &mut observers);
    Run { trace: observers.0.finish(), outcome: observers.1.finish() }
}

/// Runs a scenario for its verdict only, recording no trace.
pub fn outcome(scenario: &Scenario) -> Outcome {
    let mut classifier = Classifier::new(scenario.ttl, scenario.lease);
    simulate(scenario, &mut classifier);
    classifier.finish()
}

/// A stretch of values of the dragged input, `from..=to`, that all give one verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// First value of the stretch.
    pub from: Ms,
    /// Last value of the stretch.
    pub to: Ms,
    /// Their verdict.
    pub kind: OutcomeKind,
}

/// Values of the dragged input between probes of [`outcome_map`].
const MAP_PROBE: Ms = 100;

/// The verdict for every value of the dragged input ([`Scenario::drag`]) in `range`, as stretches of equal
/// verdict, exact to the millisecond.
///
/// Probes every 100 ms, then scans each bracket whose ends differ ms by ms: about 300 + 100 per change
/// runs instead of one per millisecond. A stretch shorter than 100 ms lying strictly inside a bracket whose
/// ends agree would be missed; no scenario of the catalogue has one (each scenario's verdict moves one way
/// as its input grows), and `tests/sim_props.rs` checks the map against the exhaustive sweep for every
/// scenario.
pub fn outcome_map(scenario: &Scenario, range: std::ops::RangeInclusive<Ms>) -> Vec<Segment> {
    let (min, max) = (*range.start(), *range.end());
    let mut sc = scenario.clone();
    let mut at = |drag: Ms| {
        sc.drag = drag;
        outcome(&sc).kind
    };
    let mut segments = vec![Segment { from: min, to: min, kind: at(min) }];
    let mut prev = min;
    while prev < max {
        let next = (prev + MAP_PROBE).min(max);
        let kind = at(next);
        let current = segments.last().expect("starts with one").kind;
        if kind != current {
            for p in prev + 1..=next {
                let k = if p == next { kind } else { at(p) };
                let last = segments.last_mut().expect("starts with one");
                if k == last.kind {
                    last.to = p;
                } else {
                    segments.push(Segment { from: p, to: p, kind: k });
                }
            }
        } else {
            segments.last_mut().expect("starts with one").to = next;
        }
        prev = next;
    }
    segments
}

/// The verdict for each value of the dragged input in `values`, everything else as in `scenario`.
pub fn sweep(scenario: &Scenario, values: impl IntoIterator<Item = Ms>) -> Vec<OutcomeKind> {
    let mut sc = scenario.clone();
    values
        .into_iter()
        .map(|drag| {
            sc.drag = drag;
            outcome(&sc).kind
        })
        .collect()
}
