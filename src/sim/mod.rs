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
pub use outcome::{Classifier, Outcome, OutcomeKind, WaitRecord};
pub use scenario::{Inputs, Ms, PauseLen, Release, Scenario, Step, Worker, MAX_PAUSE};
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
    let mut observers = (
        TraceBuilder::new(names, scenario.ttl, scenario.lease),
        Classifier::new(scenario.ttl, scenario.lease),
    );
    simulate(scenario, &mut observers);
    Run { trace: observers.0.finish(), outcome: observers.1.finish() }
}

/// Runs a scenario for its verdict only, recording no trace.
pub fn outcome(scenario: &Scenario) -> Outcome {
    let mut classifier = Classifier::new(scenario.ttl, scenario.lease);
    simulate(scenario, &mut classifier);
    classifier.finish()
}

/// A stretch of pause lengths, `from..=to`, that all give one verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// First pause length of the stretch.
    pub from: Ms,
    /// Last pause length of the stretch.
    pub to: Ms,
    /// Their verdict.
    pub kind: OutcomeKind,
}

/// Pause lengths between probes of [`outcome_map`].
const MAP_PROBE: Ms = 100;

/// The verdict for every pause from 0 to `max` ms, as stretches of equal verdict, exact to the millisecond.
///
/// Probes every 100 ms, then scans each bracket whose ends differ ms by ms: about 300 + 100 per change
/// runs instead of 30001. A stretch shorter than 100 ms that starts and ends strictly inside one bracket
/// whose ends agree would be missed; in the base scenario the verdict only moves forward
/// (safe → unfenced-gap → fenced/corrupted, or safe → stalled), so that cannot happen.
pub fn outcome_map(scenario: &Scenario, max: Ms) -> Vec<Segment> {
    let mut sc = scenario.clone();
    let mut at = |pause: Ms| {
        sc.pause = pause;
        outcome(&sc).kind
    };
    let mut segments = vec![Segment { from: 0, to: 0, kind: at(0) }];
    let mut prev = 0;
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

/// The verdict for each pause length in `pauses`, everything else as in `scenario`.
pub fn sweep(scenario: &Scenario, pauses: impl IntoIterator<Item = Ms>) -> Vec<OutcomeKind> {
    let mut sc = scenario.clone();
    pauses
        .into_iter()
        .map(|pause| {
            sc.pause = pause;
            outcome(&sc).kind
        })
        .collect()
}
