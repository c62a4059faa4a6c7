//! Runs recorded on real lock services: `scripts/record.sh` runs `locksim real` for every supported
//! combination and writes `assets/recordings.json` (the runs in full) and `assets/recordings.txt` (what the
//! page needs, one line each: [`parse`]). Each recording keeps the real run's events; the page replays them
//! through the core's own trace builder and classifier ([`sim::replay`]) and draws them with the same figure
//! code as the simulation.
//!
//! The page fetches the text file from its own origin when the reader first opens "Seen on real systems",
//! so the recordings are no part of the first load; natively the tests read the same file with the same
//! parser ([`all`]). A line is plain text, so reading it needs no JSON reader in the page.

use crate::present::json::{self, Json};
use crate::present::params::set_input;
use crate::scenarios::{Inputs, Kind, ScenarioId};
use crate::sim::{self, Event, OutcomeKind, Run, Scenario};

/// The recordings file the page fetches, as it is in the repository (native only: the page fetches it).
#[cfg(not(target_arch = "wasm32"))]
pub const FILE: &str = include_str!("../../assets/recordings.txt");

/// A recording's fields as the file has them, before they are checked.
pub struct Fields<'a> {
    /// Scenario id.
    pub scenario: &'a str,
    /// Inputs that differ from the scenario's defaults: name, value as a link writes it.
    pub inputs: Vec<(&'a str, &'a str)>,
    /// `redis`, `etcd`, `zookeeper`.
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
    /// How fast it ran: `10` (ten times faster), `1` (in real time), `1/2` (half speed).
    pub speed: &'static str,
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
    /// How fast it ran against the scenario's own time, as the file writes it: `10` (ten times faster than
    /// the scenario), `1` (in real time), `1/2` (half speed); the JSON's `scale` is real time per scenario time.
    pub speed: &'static str,
    /// What happened, in scenario ms.
    pub events: Vec<Event>,
}

impl Recording {
    /// The scenario it recorded, as the core builds it (the narration's reasons read its settings).
    pub fn built(&self) -> Scenario {
        self.scenario.build(&self.inputs)
    }

    /// The recorded run, as the core reads it.
    pub fn run(&self) -> Run {
        sim::replay(&self.built(), &self.events)
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

/// Every recording of [`FILE`].
#[cfg(not(target_arch = "wasm32"))]
pub fn all() -> Vec<Recording> {
    parse(FILE)
}

/// The recordings of a recordings file: one per line, its fields separated by tabs — scenario, inputs
/// (`name=value,…` or `-`), backend, version, date, simulated and real verdicts, largest jitter (ms), how fast
/// it ran (`10`, `1`, `1/2`: [`Recording::speed`]), and its events (each its numbers joined by `,`, the events
/// by spaces). Lines starting with `#` are comments; a line that does not read as a recording is left out
/// (the tests catch it).
pub fn parse(text: &'static str) -> Vec<Recording> {
    text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).filter_map(line).collect()
}

/// One line of a recordings file.
pub fn line(l: &'static str) -> Option<Recording> {
    let f: Vec<&'static str> = l.split('\t').collect();
    let [scenario, inputs, backend, version, recorded, simulated, real, jitter, speed, events] = f[..] else {
        return None;
    };
    let inputs = match inputs {
        "-" => Vec::new(),
        list => list.split(',').map(|kv| kv.split_once('=')).collect::<Option<Vec<_>>>()?,
    };
    let numbers = |e: &str| e.split(',').map(|n| n.parse().ok()).collect::<Option<Vec<i64>>>();
    Recording::read(Fields {
        scenario,
        inputs,
        backend,
        version,
        recorded,
        simulated,
        real,
        max_jitter_ms: jitter.parse().ok()?,
        speed,
        events: events.split(' ').map(numbers).collect::<Option<Vec<_>>>()?,
    })
}

impl Recording {
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
            speed: f.speed,
            events,
        })
    }
}

/// A run the reader opened on the page ("Open a run"): the `--json` of `locksim check` or `locksim real`.
/// It stays in the page: nothing is uploaded, and it is no part of the link.
#[derive(Clone, Debug, PartialEq)]
pub struct Opened {
    /// The run, read as a recording (no date: `recorded` is empty).
    pub recording: Recording,
    /// `locksim check`: the reader's client (`None`: `locksim real`'s own workers).
    pub client: Option<String>,
}

/// Why a file did not read as a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenProblem {
    /// Not JSON at all.
    NotJson,
    /// JSON, but a field a run has is missing or not what it should be (its name).
    Field(&'static str),
    /// A run list with no run in it.
    Empty,
    /// Larger than [`MAX_OPEN`] bytes.
    TooBig,
}

/// The largest run file the page reads: a run of `locksim check` is a few tens of kB.
pub const MAX_OPEN: usize = 4_000_000;

/// The runs of a file of `locksim check --json` or `locksim real --json` (one run, or `--all --json`'s list).
/// Every event is checked against the scenario it claims (its workers and servers, times in order), so no
/// file can make the core's trace builder index past what it knows.
pub fn open(text: &str) -> Result<Vec<Opened>, OpenProblem> {
    if text.len() > MAX_OPEN {
        return Err(OpenProblem::TooBig);
    }
    let value = json::parse(text).ok_or(OpenProblem::NotJson)?;
    match &value {
        Json::Arr(runs) if runs.is_empty() => Err(OpenProblem::Empty),
        Json::Arr(runs) => runs.iter().map(open_one).collect(),
        one => Ok(vec![open_one(one)?]),
    }
}

/// A string that lives as long as the page: a recording's words are `&'static str` (the page leaks the
/// fetched recordings file once too). An opened file costs its version and speed, a few bytes.
fn keep(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn open_one(v: &Json) -> Result<Opened, OpenProblem> {
    use OpenProblem::Field;
    let text = |name: &'static str| v.get(name).and_then(Json::as_str).ok_or(Field(name));
    let scenario = ScenarioId::parse(text("scenario")?).ok_or(Field("scenario"))?;
    // The inputs: the scenario's defaults and what the run changed, as links write them (`changed`; in
    // assets/recordings.json, `inputs` holds the same).
    let mut inputs = scenario.defaults();
    let changed = v.get("changed").or_else(|| v.get("inputs")).and_then(Json::as_object);
    for (name, value) in changed.ok_or(Field("changed"))? {
        let value = match value {
            Json::Str(s) => s.clone(),
            Json::Bool(b) => if *b { "on" } else { "off" }.to_owned(),
            other => other.as_i64().ok_or(Field("changed"))?.to_string(),
        };
        set_input(&mut inputs, name, &value).map_err(|_| Field("changed"))?;
    }
    let backend = match text("backend")? {
        "redis" => "redis",
        "etcd" => "etcd",
        "zookeeper" => "zookeeper",
        _ => return Err(Field("backend")),
    };
    let version = text("version")?;
    if version.len() > 40 {
        return Err(Field("version"));
    }
    let outcome = |name: &'static str| OutcomeKind::from_name(text(name)?).ok_or(Field(name));
    let real = outcome("real")?;
    let scale =
        v.get("scale").and_then(Json::as_f64).filter(|s| *s > 0.0 && *s <= 100.0).ok_or(Field("scale"))?;
    // As the recordings file writes it: `10` times faster, `1`, `1/2` (half speed).
    // (Whole numbers: formatting a float would bring std's float printing into the page.)
    let speed = match (scale < 1.0, (if scale < 1.0 { 1.0 / scale } else { scale }).round() as u64) {
        (_, 1) => "1".to_owned(),
        (true, n) => n.to_string(),
        (false, n) => format!("1/{n}"),
    };
    let max_jitter_ms =
        v.get("max_jitter_ms").and_then(Json::as_i64).and_then(|j| u64::try_from(j).ok()).unwrap_or(0);
    let numbers = v.get("events").and_then(Json::as_array).ok_or(Field("events"))?;
    let events = numbers
        .iter()
        .map(|e| {
            let n: Option<Vec<i64>> = e.as_array()?.iter().map(Json::as_i64).collect();
            Event::from_numbers(&n?)
        })
        .collect::<Option<Vec<Event>>>()
        .ok_or(Field("events"))?;
    let sc = scenario.build(&inputs);
    if !fits(&events, sc.workers.len(), crate::sim::MAX_NODES) {
        return Err(Field("events"));
    }
    // The lab's own verdict for this state, run here: what a file says the simulation did is not shown as
    // the simulation's (the real verdict is likewise the core's, over the file's events).
    let simulated = crate::sim::run(&sc).outcome.kind;
    let client = match v.get("client") {
        None | Some(Json::Null) => None,
        Some(c) => Some(c.as_str().ok_or(Field("client"))?.chars().take(200).collect()),
    };
    let recording = Recording {
        scenario,
        inputs,
        backend,
        version: keep(version.to_owned()),
        recorded: "",
        simulated,
        real,
        max_jitter_ms,
        speed: keep(speed),
        events,
    };
    Ok(Opened { recording, client })
}

/// The latest time a run file may name (a day, in ms): sums of times stay far from overflowing.
const MAX_TIME: u64 = 86_400_000;

/// Whether `events` fit a scenario of `workers` workers and `nodes` servers: every worker and server they
/// name exists, every time is within a day, and they come in time order.
pub fn fits(events: &[Event], workers: usize, nodes: usize) -> bool {
    use crate::sim::{EventKind::*, NodeChange};
    let w = |id: usize| id < workers;
    let ow = |id: Option<usize>| id.is_none_or(w);
    let t = |ms: u64| ms <= MAX_TIME;
    let ot = |ms: Option<u64>| ms.is_none_or(t);
    events.windows(2).all(|p| p[0].at <= p[1].at)
        && events.iter().all(|e| {
            t(e.at)
                && match e.kind {
                    Request { worker } | Wake { worker } | Crash { worker } => w(worker),
                    Get { worker, .. } | CheckLease { worker, .. } => w(worker),
                    Register { worker, .. } | Expire { worker, .. } => w(worker),
                    Wait { worker, holder } => w(worker) && ow(holder),
                    Grant { worker, expires, over, .. } => w(worker) && ot(expires) && ow(over),
                    PauseStart { worker, until } => w(worker) && t(until),
                    Write { worker, arrives, .. } => w(worker) && t(arrives),
                    Store { worker, sent, holder, .. } => w(worker) && t(sent) && ow(holder),
                    Release { worker, freed, .. } => w(worker) && ow(freed),
                    Renew { worker, expires, .. } => w(worker) && t(expires),
                    LockDelay { until } | Election { until } => t(until),
                    Node { node, change } => {
                        node < nodes
                            && match change {
                                NodeChange::Set(x) | NodeChange::Clear(x) => w(x),
                                NodeChange::Jump(by) => t(by),
                                NodeChange::Down | NodeChange::Promoted { .. } => true,
                            }
                    }
                }
        })
}
