//! "Break it": what the page searches and maps for the current scenario and switches. Plain functions over
//! the core's search, so native tests cover everything but the drawing.

use crate::scenarios::search::{self, Bound, Search, DISTURBANCES};
use crate::scenarios::{Inputs, Key, ScenarioId};
use crate::sim::{Ms, OutcomeKind};

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
