//! Exploring a scenario's named values: every point of a grid over them is a run, and the least-disturbed
//! run that broke safety and the one that lost liveness are kept.
//!
//! Generic over any scenario: a dimension is a named value ([`super::Param`]) by index, so a search knows
//! exactly what it varies. The catalogue's search (inputs by name, reports, pruning) is built on this in
//! `scenarios::search`. Pure like the rest of the core: no clock, no threads.

use super::{Ms, OutcomeKind, Runner, Scenario};

/// One dimension: named value `param` takes `from`, `from + step`, … up to `to` (on the grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim {
    /// The named value's index in [`Scenario::params`].
    pub param: usize,
    /// First value.
    pub from: Ms,
    /// Last value, on the grid.
    pub to: Ms,
    /// Distance between values, at least 1.
    pub step: Ms,
}

impl Dim {
    /// A dimension with its step at least 1, `from` at most `to`, and `to` lowered onto the grid.
    pub fn new(param: usize, from: Ms, to: Ms, step: Ms) -> Dim {
        let step = step.max(1);
        let from = from.min(to);
        Dim { param, from, to: from + (to - from) / step * step, step }
    }

    /// How many values it takes.
    pub fn count(&self) -> u64 {
        (self.to - self.from) / self.step + 1
    }
}

/// The number of points of a grid (saturating: a grid that large is never run whole).
pub fn size(dims: &[Dim]) -> u64 {
    dims.iter().fold(1u64, |n, d| n.saturating_mul(d.count()))
}

/// A run that went wrong: its verdict and the value of each dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Its verdict.
    pub outcome: OutcomeKind,
    /// The values, in dimension order.
    pub values: Vec<Ms>,
}

/// An exploration under way, run a slice at a time ([`Explorer::run`]) so a page stays responsive: one run
/// per point, in lexicographic order (the first dimension outermost, the last fastest).
///
/// The counterexample kept is the one with the least total disturbance (the sum of its values); of equal
/// sums, the earliest in that order.
pub struct Explorer {
    dims: Vec<Dim>,
    sc: Scenario,
    values: Vec<Ms>,
    runner: Runner,
    done: u64,
    total: u64,
    safety: Option<(Ms, Found)>,
    liveness: Option<(Ms, Found)>,
}

impl Explorer {
    /// An exploration of `sc` over `dims`, at its first point. Dimensions whose named value `sc` lacks are
    /// dropped (they cannot change a run).
    pub fn new(mut sc: Scenario, dims: Vec<Dim>) -> Explorer {
        let dims: Vec<Dim> = dims.into_iter().filter(|d| d.param < sc.params.len()).collect();
        let values: Vec<Ms> = dims.iter().map(|d| d.from).collect();
        for (d, &v) in dims.iter().zip(&values) {
            sc.set_param(d.param, v);
        }
        let total = size(&dims);
        Explorer { dims, sc, values, runner: Runner::default(), done: 0, total, safety: None, liveness: None }
    }

    /// Runs up to `n` more points; `true` once every point has run.
    pub fn run(&mut self, n: u64) -> bool {
        for _ in 0..n {
            if self.finished() {
                break;
            }
            let kind = self.runner.outcome(&self.sc).kind;
            self.note(kind);
            self.advance();
        }
        self.finished()
    }

    /// The verdict of every point, in order (for a map), running the whole grid.
    pub fn verdicts(mut self) -> Vec<OutcomeKind> {
        let mut kinds = Vec::new();
        while !self.finished() {
            let kind = self.runner.outcome(&self.sc).kind;
            kinds.push(kind);
            self.done += 1;
            self.advance();
        }
        kinds
    }

    fn note(&mut self, kind: OutcomeKind) {
        self.done += 1;
        let best = match kind {
            k if k.unsafe_data() => &mut self.safety,
            k if k.liveness_lost() => &mut self.liveness,
            _ => return,
        };
        let total: Ms = self.values.iter().sum();
        // Strictly less: the grid runs in lexicographic order, so the first of equal sums stays.
        if best.as_ref().is_none_or(|(t, _)| total < *t) {
            *best = Some((total, Found { outcome: kind, values: self.values.clone() }));
        }
    }

    /// Moves to the next point, the last dimension fastest.
    fn advance(&mut self) {
        for i in (0..self.dims.len()).rev() {
            let d = self.dims[i];
            let v = if self.values[i] + d.step <= d.to { self.values[i] + d.step } else { d.from };
            self.values[i] = v;
            self.sc.set_param(d.param, v);
            if v != d.from {
                return;
            }
        }
    }

    fn finished(&self) -> bool {
        self.done >= self.total
    }

    /// Points run so far.
    pub fn done(&self) -> u64 {
        self.done
    }

    /// Points in all.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The dimensions, as normalised.
    pub fn dims(&self) -> &[Dim] {
        &self.dims
    }

    /// The least-disturbed run so far that harmed the data (corrupted, double-grant, unfenced-gap).
    pub fn safety(&self) -> Option<&Found> {
        self.safety.as_ref().map(|(_, f)| f)
    }

    /// The least-disturbed run so far that lost liveness (stalled, orphaned).
    pub fn liveness(&self) -> Option<&Found> {
        self.liveness.as_ref().map(|(_, f)| f)
    }
}
