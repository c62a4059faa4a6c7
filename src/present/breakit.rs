//! "Break it": what the page searches and maps for the current scenario and switches, or for a script's
//! named values. Plain functions over the core's search, so native tests cover everything but the drawing.

use crate::scenarios::search::{self, Bound, Report, Search, DISTURBANCES};
use crate::scenarios::{Inputs, Key, ScenarioId};
use crate::sim::explore::{self, Dim, Explorer, Found};
use crate::sim::{Ms, OutcomeKind, Scenario};

/// The most schedules a search on the page runs: well under a second in Chromium.
pub const PAGE_SCHEDULES: u64 = 1_000_000;

/// The spacings a page search may use, finest first.
const STEPS: [Ms; 10] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

/// The map's spacing: one cell per second of each disturbance.
pub const CELL: Ms = 1000;

/// The page's search: every disturbance the scenario reads, over its whole range, at the finest spacing
/// that keeps the grid within [`PAGE_SCHEDULES`].
pub fn page_search(id: ScenarioId, inputs: &Inputs) -> Search {
    for step in STEPS {
        let search = Search::new(id, inputs, &search::bounds(inputs, step));
        if search.total() <= PAGE_SCHEDULES {
            return search;
        }
    }
    Search::new(id, inputs, &search::bounds(inputs, CELL))
}

/// What a search or a map depends on: the scenario and its inputs with every disturbance at its first
/// value. Showing a counterexample changes only disturbances, so its search still stands.
pub fn settings(id: ScenarioId, inputs: &Inputs) -> (ScenarioId, Inputs) {
    let mut i = *inputs;
    for key in DISTURBANCES {
        let _ = key.spec().set(&mut i, key.spec().range().0);
    }
    (id, i)
}

/// What a script's search depends on: its scenario with every named value at its smallest.
pub fn script_settings(sc: &Scenario) -> Scenario {
    let mut sc = sc.clone();
    for p in &mut sc.params {
        p.value = p.min;
    }
    sc
}

/// A map of the verdict over the scenario's disturbances (at most two: rows, then columns), a cell per
/// [`CELL`] ms: each cell is the run at its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plane {
    /// Its dimensions: one (a single row) or two (rows, then columns).
    pub dims: Vec<Bound>,
    /// The verdict of every cell, row by row.
    pub kinds: Vec<OutcomeKind>,
}

impl Plane {
    /// The map for `inputs`; `None` when the scenario has nothing to vary. etcd's maps the leader's crash
    /// against the pause, where consensus shows that no crash time grants the lock twice.
    pub fn new(id: ScenarioId, inputs: &Inputs) -> Option<Plane> {
        let shown = |k: Key| id.uses(k) && (k != Key::PauseStart || !id.uses(Key::LeaderCrash));
        let mut bounds: Vec<Bound> =
            search::bounds(inputs, CELL).into_iter().filter(|b| shown(b.key)).collect();
        if id.uses(Key::LeaderCrash) {
            bounds.reverse();
        }
        bounds.truncate(2);
        if bounds.is_empty() {
            return None;
        }
        let (dims, kinds) = search::plane(id, inputs, &bounds);
        Some(Plane { dims, kinds })
    }

    /// Cells across: the last dimension's values.
    pub fn columns(&self) -> usize {
        self.dims.last().map_or(1, count)
    }

    /// The values of cell `i`, in dimension order.
    pub fn values(&self, i: usize) -> Vec<(Key, Ms)> {
        let mut rest = i;
        let mut values: Vec<(Key, Ms)> = (self.dims.iter().rev())
            .map(|d| {
                let n = count(d);
                let v = d.from + (rest % n) as Ms * d.step;
                rest /= n;
                (d.key, v)
            })
            .collect();
        values.reverse();
        values
    }

    /// The cell whose run is the run of `inputs`; `None` if no cell's is (a value between cells, or past
    /// the map): the map marks only the run on screen, never a neighbour with another verdict.
    pub fn cell_of(&self, inputs: &Inputs) -> Option<usize> {
        self.dims.iter().try_fold(0, |at, d| {
            let v = d.key.spec().get(inputs);
            let on_grid = (d.from..=d.to).contains(&v) && (v - d.from).is_multiple_of(d.step);
            on_grid.then(|| at * count(d) + ((v - d.from) / d.step) as usize)
        })
    }
}

/// Values on a dimension's grid.
fn count(d: &Bound) -> usize {
    ((d.to - d.from) / d.step + 1) as usize
}

/// One dimension of a script's search as the page says it: the named value, whether its 0 is "off", and
/// its grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    /// The named value's index in the script's scenario.
    pub param: usize,
    /// Its name, as the script writes it.
    pub name: String,
    /// Whether 0 means it does not happen.
    pub off: bool,
    /// Its grid: `from`, `from + step`, … `to`.
    pub from: Ms,
    /// The last value on the grid.
    pub to: Ms,
    /// Distance between values.
    pub step: Ms,
}

/// A search of a script: every named value over its own range, at the finest spacing of [`STEPS`] (or a
/// coarser one, to a single step across the widest range) that keeps the grid within [`PAGE_SCHEDULES`].
/// Like the catalogue's, its counterexample is the run with the least total disturbance.
pub struct ScriptSearch {
    axes: Vec<Axis>,
    explorer: Explorer,
}

impl ScriptSearch {
    /// The search of `sc` at its first point.
    pub fn new(sc: &Scenario) -> ScriptSearch {
        let widest = sc.params.iter().map(|p| p.max - p.min).max().unwrap_or(0).max(1);
        let coarser = std::iter::successors(Some(2 * CELL), |s| (*s < widest).then_some(s * 2));
        let dims = |step: Ms| -> Vec<Dim> {
            (sc.params.iter().enumerate()).map(|(i, p)| Dim::new(i, p.min, p.max, step)).collect()
        };
        let step = STEPS
            .into_iter()
            .chain(coarser)
            .find(|&step| explore::size(&dims(step)) <= PAGE_SCHEDULES)
            .unwrap_or(widest);
        let dims = dims(step);
        let axes = (dims.iter())
            .map(|d| {
                let p = &sc.params[d.param];
                Axis {
                    param: d.param,
                    name: p.name.clone(),
                    off: p.off,
                    from: d.from,
                    to: d.to,
                    step: d.step,
                }
            })
            .collect();
        ScriptSearch { axes, explorer: Explorer::new(sc.clone(), dims) }
    }

    /// Runs up to `n` more schedules; `true` once every schedule has run.
    pub fn run(&mut self, n: u64) -> bool {
        self.explorer.run(n)
    }

    /// What the search found (over the whole grid once [`ScriptSearch::run`] has returned `true`).
    pub fn report(&self) -> ScriptReport {
        ScriptReport {
            axes: self.axes.clone(),
            schedules: self.explorer.done(),
            millis: 0,
            safety: self.explorer.safety().cloned(),
            liveness: self.explorer.liveness().cloned(),
        }
    }
}

/// What a script's search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptReport {
    /// The dimensions searched, with their grids.
    pub axes: Vec<Axis>,
    /// How many runs.
    pub schedules: u64,
    /// Wall-clock time of the search, filled in by the page.
    pub millis: u64,
    /// The least-disturbed run that harms the data; its values in the order of `axes`.
    pub safety: Option<Found>,
    /// The least-disturbed run that lost liveness.
    pub liveness: Option<Found>,
}

/// A search on the page: of the catalogue's scenario or of a script.
pub enum Hunt {
    /// The catalogue's search over the scenario's disturbances.
    Catalogue(Search),
    /// A script's, over its named values.
    Script(ScriptSearch),
}

impl Hunt {
    /// Runs up to `n` more schedules; `true` once every schedule has run.
    pub fn run(&mut self, n: u64) -> bool {
        match self {
            Hunt::Catalogue(s) => s.run(n),
            Hunt::Script(s) => s.run(n),
        }
    }

    /// Schedules run so far and in all.
    pub fn progress(&self) -> (u64, u64) {
        match self {
            Hunt::Catalogue(s) => (s.done(), s.total()),
            Hunt::Script(s) => (s.explorer.done(), s.explorer.total()),
        }
    }

    /// What it found, having taken `millis`.
    pub fn finding(&self, millis: u64) -> Finding {
        match self {
            Hunt::Catalogue(s) => Finding::Catalogue(Report { millis, ..s.report() }),
            Hunt::Script(s) => Finding::Script(ScriptReport { millis, ..s.report() }),
        }
    }
}

/// What a search on the page found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The catalogue's report.
    Catalogue(Report),
    /// A script's.
    Script(ScriptReport),
}

impl Finding {
    /// Whether it found a safety failure and a liveness failure: the "Show it" buttons.
    pub fn found(&self) -> [bool; 2] {
        match self {
            Finding::Catalogue(r) => [r.safety.is_some(), r.liveness.is_some()],
            Finding::Script(r) => [r.safety.is_some(), r.liveness.is_some()],
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::script;

    /// Three workers, two named values: B's request time and A's pause, each over its own range.
    pub(crate) const THREE: &str = "value pause 5s, range 0s..20s\nvalue b_asks 1s, range 0s..4s\nlease 10s\nfencing off\n\
                         A: acquire, pause {pause}, write, release\nB: idle {b_asks}, acquire, write, release\n\
                         C: idle 3s, acquire, write, release";

    #[test]
    fn a_script_is_searched_over_its_named_values_and_the_failure_replays() {
        let sc = script::parse(THREE).unwrap();
        let mut search = ScriptSearch::new(&sc);
        while !search.run(10_000) {}
        let r = search.report();
        // 20 001 × 4 001 points is more than a page search runs: the finest spacing that fits is 10 ms.
        let steps: Vec<Ms> = r.axes.iter().map(|a| a.step).collect();
        assert_eq!(steps, [10, 10]);
        assert_eq!(r.schedules, 2001 * 401);
        assert_eq!((r.axes[0].name.as_str(), r.axes[0].from, r.axes[0].to), ("pause", 0, 20_000));
        // With fencing off, A's write after a pause past its lease overwrites B's: the least-disturbed such
        // run is the one the report names, and its values give that verdict when run.
        let f = r.safety.clone().expect("a safety failure");
        let mut replay = sc.clone();
        for (a, &v) in r.axes.iter().zip(&f.values) {
            replay.set_param(a.param, v);
        }
        assert_eq!(crate::sim::run(&replay).outcome.kind, f.outcome);
        assert!(f.outcome.unsafe_data());
    }

    #[test]
    fn a_script_with_nothing_to_vary_runs_its_one_schedule() {
        let sc = script::parse("A: acquire, write, release").unwrap();
        let mut search = ScriptSearch::new(&sc);
        assert!(search.run(10));
        let r = search.report();
        assert_eq!((r.schedules, r.axes.len()), (1, 0));
    }

    #[test]
    fn many_wide_values_are_searched_on_a_coarser_grid_still_within_the_page_budget() {
        let mut text = String::new();
        for i in 0..8 {
            text += &format!("value v{i} 1s, range 0s..30s\n");
        }
        text += "A: acquire, pause {v0}, work {v1}, work {v2}, work {v3}, write\nB: idle {v4}, acquire, work {v5}, work {v6}, work {v7}, write";
        let sc = script::parse(&text).unwrap();
        let search = ScriptSearch::new(&sc);
        let total = search.explorer.total();
        assert!(total <= PAGE_SCHEDULES && total > 1, "{total}");
        assert!(search.axes.iter().all(|a| a.step > CELL));
    }

    #[test]
    fn a_script_search_depends_on_its_settings_not_on_where_its_values_stand() {
        let a = script::parse(THREE).unwrap();
        let mut b = a.clone();
        b.set_param(0, 17_000);
        assert_eq!(script_settings(&a), script_settings(&b));
        let mut c = a.clone();
        c.fencing = true;
        assert_ne!(script_settings(&a), script_settings(&c));
    }
}
