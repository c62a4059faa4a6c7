//! The simulation core: scenario in, trace and outcome out.
//!
//! Pure and deterministic: no clock, no randomness, no I/O, no web. The same scenario gives the same trace,
//! byte for byte. Everything the app shows about a run comes from here.

pub mod codec;
mod engine;
pub mod explore;
mod outcome;
mod scenario;
mod trace;

use serde::{Deserialize, Serialize};

pub use engine::{simulate, HORIZON};
pub use outcome::{Classifier, DoubleGrant, Outcome, OutcomeKind, WaitRecord};
pub use scenario::{
    worker, Choice, Dur, Ms, Param, Release, Scenario, Service, Step, Switch, Worker, MAX_NODES, MAX_PARAMS,
    MAX_PAUSE, MAX_SWITCHES,
};
pub use trace::{
    sooner, Actor, Event, EventKind, Lease, LeaseEnd, NodeChange, NodeLane, Observer, Span, Trace,
    TraceBuilder, WorkerId, WorkerLane, WriteRecord,
};

/// In the browser one engine serves both the full run and the fast verdict-only path, through `dyn`: half
/// the engine's code in the bundle. Natively each path keeps its own inlined copy, for sweeps and searches.
macro_rules! observer {
    ($o:expr) => {{
        #[cfg(target_arch = "wasm32")]
        let o: &mut dyn Observer = $o;
        #[cfg(not(target_arch = "wasm32"))]
        let o = $o;
        o
    }};
}

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
    record(scenario, |o| simulate(scenario, observer!(o)))
}

/// The run of `events` recorded elsewhere (on a real lock service) for `scenario`, told to the core's own
/// trace builder and classifier as if the engine had emitted them.
pub fn replay(scenario: &Scenario, events: &[Event]) -> Run {
    record(scenario, |o| {
        let o = observer!(o);
        events.iter().for_each(|e| o.on(e))
    })
}

/// The run that `feed` tells a trace builder and a classifier set up for `scenario`.
fn record(scenario: &Scenario, feed: impl FnOnce(&mut (TraceBuilder, Classifier))) -> Run {
    let names = scenario.workers.iter().map(|w| w.name.as_str());
    let mut observers =
        (TraceBuilder::new(names, scenario.ttl, scenario.tokens()), Classifier::new(scenario.ttl));
    feed(&mut observers);
    Run { trace: observers.0.finish(), outcome: observers.1.finish() }
}

/// Runs a scenario for its verdict only, recording no trace.
pub fn outcome(scenario: &Scenario) -> Outcome {
    let mut classifier = Classifier::new(scenario.ttl);
    simulate(scenario, observer!(&mut classifier));
    classifier.finish()
}

/// Runs many scenarios for their verdicts, reusing the engine's and the classifier's memory: searches and
/// outcome maps run a scenario tens of thousands of times, and the allocations would cost a third of each run.
pub struct Runner {
    buffers: engine::Buffers,
    classifier: Classifier,
    /// The happenings its runs have scheduled so far: what they cost.
    work: u64,
}

impl Default for Runner {
    fn default() -> Self {
        Runner { buffers: engine::Buffers::default(), classifier: Classifier::new(0), work: 0 }
    }
}

impl Runner {
    /// The verdict of `scenario`, as [`outcome`] gives it.
    pub fn outcome(&mut self, scenario: &Scenario) -> Outcome {
        self.classifier.reset(scenario.ttl);
        self.work +=
            u64::from(engine::simulate_in(scenario, observer!(&mut self.classifier), &mut self.buffers));
        self.classifier.verdict()
    }
}

/// A stretch of values of the dragged value, `from..=to`, that all give one verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// First value of the stretch.
    pub from: Ms,
    /// Last value of the stretch.
    pub to: Ms,
    /// Their verdict.
    pub kind: OutcomeKind,
}

/// The verdict for every value of the dragged value ([`Scenario::drag`]) in `range`, as stretches of equal
/// verdict, exact to the millisecond.
///
/// Every value is run: a verdict can change and change back within a few milliseconds (a lease of 2 ms
/// makes a gap of 2 ms), so probing would be exact only for some inputs. 30 001 runs take a few ms.
pub fn outcome_map(scenario: &Scenario, range: std::ops::RangeInclusive<Ms>) -> Vec<Segment> {
    outcome_map_within(scenario, range, u64::MAX).unwrap_or_default()
}

/// The most work (happenings scheduled, over all its runs) an outcome map the page draws may take: ten
/// times the costliest catalogue scenario's, whose maps take at most 524,288 (`tests/catalogue.rs` holds
/// every one to a tenth of this). A script that retries every 10 ms until the horizon makes each run over
/// a hundred thousand happenings, and its 30,001 runs held a page for a minute.
pub const MAP_WORK: u64 = 5_000_000;

/// [`outcome_map`], or `None` once its runs have done more than `budget` work in all (see [`MAP_WORK`]).
pub fn outcome_map_within(
    scenario: &Scenario,
    range: std::ops::RangeInclusive<Ms>,
    budget: u64,
) -> Option<Vec<Segment>> {
    let mut segments: Vec<Segment> = Vec::new();
    let (mut sc, mut runner) = (scenario.clone(), Runner::default());
    for drag in range {
        sc.set_drag(drag);
        let kind = runner.outcome(&sc).kind;
        if runner.work > budget {
            return None;
        }
        match segments.last_mut() {
            Some(last) if last.kind == kind => last.to = drag,
            _ => segments.push(Segment { from: drag, to: drag, kind }),
        }
    }
    Some(segments)
}

/// The verdict for each value of the dragged value in `values`, everything else as in `scenario`.
pub fn sweep(scenario: &Scenario, values: impl IntoIterator<Item = Ms>) -> Vec<OutcomeKind> {
    let (mut sc, mut runner) = (scenario.clone(), Runner::default());
    values
        .into_iter()
        .map(|drag| {
            sc.set_drag(drag);
            runner.outcome(&sc).kind
        })
        .collect()
}
