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
