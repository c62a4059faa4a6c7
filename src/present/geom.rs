//! Geometry of the timeline: time ↔ x, tick spacing, and the pause handle's snapping and keys.
//!
//! Pure functions, so the view's arithmetic is tested natively and the drag and the keyboard agree.

use crate::sim::Ms;

/// The drag and the arrow keys move the pause in steps of this many ms.
pub const SNAP: Ms = 100;
/// Shift+Arrow, PageUp and PageDown move it by this many ms.
pub const BIG_STEP: Ms = 1_000;
/// The axis shows at least this much time when the reader drags an input: room to drag to the end.
pub const MIN_AXIS: Ms = 30_000;
/// The axis of a scenario with nothing to drag fits its run, in 5 s steps from this.
pub const SHORT_AXIS: Ms = 5_000;

/// A horizontal time axis mapped onto `[x0, x1]` pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    /// The time at the right end.
    pub t_end: Ms,
    /// Pixel x of t = 0.
    pub x0: f64,
    /// Pixel x of `t_end`.
    pub x1: f64,
}

impl Axis {
    /// An axis long enough for a run that ends at `trace_end`: at least `min`, else in whole 5 s steps.
    pub fn new(trace_end: Ms, min: Ms, x0: f64, x1: f64) -> Axis {
        let t_end = min.max((trace_end + 1_000).div_ceil(5_000) * 5_000);
        Axis { t_end, x0, x1: x1.max(x0 + 1.0) }
    }

    /// Pixels per millisecond.
    pub fn scale(&self) -> f64 {
        (self.x1 - self.x0) / self.t_end as f64
    }

    /// The x of time `t`.
    pub fn x(&self, t: Ms) -> f64 {
        self.x0 + t as f64 * self.scale()
    }

    /// The time at pixel `x`; negative or past the end when `x` is outside the axis.
    pub fn t(&self, x: f64) -> f64 {
        (x - self.x0) / self.scale()
    }

    /// Second ticks: `(t, labelled)`. Labels are 1, 2, 5 or 10 s apart, whichever first leaves `min_gap` px
    /// between them, so they never collide.
    pub fn ticks(&self, min_gap: f64) -> impl Iterator<Item = (Ms, bool)> {
        let px_per_s = self.scale() * 1_000.0;
        let every = [1, 2, 5, 10].into_iter().find(|&s| s as f64 * px_per_s >= min_gap).unwrap_or(10);
        (0..=self.t_end / 1_000).map(move |s| (s * 1_000, s % every == 0))
    }
}

/// The value for a drag of a band's right edge to time `t` (in ms, from the pointer), for a band starting at
/// `origin`: snapped to 100 ms and clamped to `min..=max`, whatever the pointer did.
pub fn drag_at(t: f64, origin: Ms, (min, max): (Ms, Ms)) -> Ms {
    let raw = (t - origin as f64) / SNAP as f64;
    let snapped = if raw.is_finite() { raw.round().max(0.0) as u64 * SNAP } else { min };
    snapped.clamp(min, max)
}

/// A slider's new value after a key, within `min..=max`, or `None` for a key the slider does not handle.
pub fn slider_key(key: &str, shift: bool, value: Ms, (min, max): (Ms, Ms)) -> Option<Ms> {
    let step = if shift { BIG_STEP } else { SNAP };
    let next = match key {
        "ArrowRight" | "ArrowUp" => value.saturating_add(step),
        "ArrowLeft" | "ArrowDown" => value.saturating_sub(step),
        "PageUp" => value.saturating_add(BIG_STEP),
        "PageDown" => value.saturating_sub(BIG_STEP),
        "Home" => min,
        "End" => max,
        _ => return None,
    };
    Some(next.clamp(min, max))
}

/// Rough width in px of `text` at a 11–12 px font: enough to keep labels apart, not to typeset.
pub fn text_width(text: &str) -> f64 {
    text.chars().map(|c| if c.is_ascii() { 6.6 } else { 12.0 }).sum()
}

/// A row for each label, centred at `x` with width `w` (given in x order), so that no two labels in one row
/// come closer than `gap`. Greedy: each label takes the first row with room.
pub fn stagger(labels: &[(f64, f64)], gap: f64) -> Vec<usize> {
    let mut right_edges: Vec<f64> = Vec::new();
    labels
        .iter()
        .map(|&(x, w)| {
            let (left, right) = (x - w / 2.0, x + w / 2.0);
            match right_edges.iter().position(|&edge| edge + gap <= left) {
                Some(row) => {
                    right_edges[row] = right;
                    row
                }
                None => {
                    right_edges.push(right);
                    right_edges.len() - 1
                }
            }
        })
        .collect()
}

/// Positions `xs` (in order) moved apart, as little as may be, so that neighbours are at least `gap` apart,
/// all within `min..=max` where there is room.
pub fn spread(xs: &[f64], gap: f64, min: f64, max: f64) -> Vec<f64> {
    let mut out: Vec<f64> = xs.to_vec();
    for i in 1..out.len() {
        out[i] = out[i].max(out[i - 1] + gap);
    }
    let mut limit = max;
    for x in out.iter_mut().rev() {
        *x = x.min(limit);
        limit = *x - gap;
    }
    let mut floor = min;
    for x in &mut out {
        *x = x.max(floor);
        floor = *x + gap;
    }
    out
}

/// Milliseconds as seconds for people: `10`, `10.5`, `10.05`.
pub fn seconds(ms: Ms) -> String {
    let s = format!("{}.{:03}", ms / 1_000, ms % 1_000);
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::MAX_PAUSE;

    #[test]
    fn x_and_t_are_inverse() {
        let axis = Axis::new(16_000, MIN_AXIS, 100.0, 700.0);
        assert_eq!(axis.t_end, 30_000);
        assert_eq!(axis.x(0), 100.0);
        assert_eq!(axis.x(30_000), 700.0);
        assert_eq!(axis.x(15_000), 400.0);
        for t in [0, 1, 9_999, 10_000, 30_000] {
            assert!((axis.t(axis.x(t)) - t as f64).abs() < 1e-6);
        }
    }

    #[test]
    fn axis_grows_for_late_runs() {
        assert_eq!(Axis::new(31_000, MIN_AXIS, 0.0, 1.0).t_end, 35_000);
        assert_eq!(Axis::new(29_000, MIN_AXIS, 0.0, 1.0).t_end, 30_000);
        // A degenerate width never divides by zero.
        assert!(Axis::new(0, MIN_AXIS, 50.0, 10.0).scale() > 0.0);
        // A run with nothing to drag gets an axis that fits it.
        assert_eq!(Axis::new(2_500, SHORT_AXIS, 0.0, 1.0).t_end, 5_000);
        assert_eq!(Axis::new(11_000, SHORT_AXIS, 0.0, 1.0).t_end, 15_000);
    }

    #[test]
    fn tick_labels_thin_out_when_narrow() {
        let labelled = |width: f64| {
            let axis = Axis::new(0, MIN_AXIS, 0.0, width);
            axis.ticks(36.0).filter(|t| t.1).map(|t| t.0).collect::<Vec<_>>()
        };
        assert_eq!(labelled(1_200.0).len(), 31);
        assert_eq!(labelled(300.0), vec![0, 5_000, 10_000, 15_000, 20_000, 25_000, 30_000]);
        assert_eq!(Axis::new(0, MIN_AXIS, 0.0, 300.0).ticks(36.0).count(), 31);
    }

    #[test]
    fn drag_snaps_and_clamps() {
        let r = (0, MAX_PAUSE);
        assert_eq!(drag_at(15_049.0, 0, r), 15_000);
        assert_eq!(drag_at(15_050.0, 0, r), 15_100);
        assert_eq!(drag_at(-4_000.0, 0, r), 0);
        assert_eq!(drag_at(99_999.0, 0, r), MAX_PAUSE);
        assert_eq!(drag_at(f64::NAN, 0, r), 0);
        assert_eq!(drag_at(f64::INFINITY, 0, r), 0);
        assert_eq!(drag_at(5_000.0, 2_000, r), 3_000);
        assert_eq!(drag_at(40_000.0, 2_000, (0, 28_000)), 28_000);
        assert_eq!(drag_at(0.0, 0, (1_000, 5_000)), 1_000);
    }

    #[test]
    fn keys() {
        let r = (0, MAX_PAUSE);
        assert_eq!(slider_key("ArrowRight", false, 4_000, r), Some(4_100));
        assert_eq!(slider_key("ArrowLeft", true, 4_000, r), Some(3_000));
        assert_eq!(slider_key("ArrowDown", false, 0, r), Some(0));
        assert_eq!(slider_key("PageUp", false, 29_500, r), Some(MAX_PAUSE));
        assert_eq!(slider_key("Home", false, 4_000, r), Some(0));
        assert_eq!(slider_key("End", false, 4_000, r), Some(MAX_PAUSE));
        assert_eq!(slider_key("End", false, 4_000, (0, 28_000)), Some(28_000));
        assert_eq!(slider_key("x", false, 4_000, r), None);
        assert_eq!(slider_key("Enter", true, 4_000, r), None);
    }

    #[test]
    fn stagger_separates_close_labels() {
        assert_eq!(stagger(&[(100.0, 60.0), (300.0, 60.0)], 6.0), vec![0, 0]);
        assert_eq!(stagger(&[(100.0, 60.0), (140.0, 60.0), (300.0, 60.0)], 6.0), vec![0, 1, 0]);
        assert_eq!(stagger(&[(100.0, 60.0), (110.0, 60.0), (120.0, 60.0)], 6.0), vec![0, 1, 2]);
        assert!(text_width("日本") > text_width("ab"));
    }

    #[test]
    fn spread_moves_close_marks_apart_and_keeps_them_in() {
        assert_eq!(spread(&[10.0, 100.0], 24.0, 0.0, 200.0), vec![10.0, 100.0]);
        assert_eq!(spread(&[100.0, 110.0], 24.0, 0.0, 200.0), vec![100.0, 124.0]);
        assert_eq!(spread(&[100.0, 100.0, 100.0], 24.0, 0.0, 200.0), vec![100.0, 124.0, 148.0]);
        // At the right edge the marks back off to the left.
        assert_eq!(spread(&[195.0, 198.0], 24.0, 0.0, 200.0), vec![176.0, 200.0]);
        assert_eq!(spread(&[], 24.0, 0.0, 200.0), Vec::<f64>::new());
    }

    #[test]
    fn seconds_read_well() {
        assert_eq!(seconds(10_000), "10");
        assert_eq!(seconds(10_500), "10.5");
        assert_eq!(seconds(10_050), "10.05");
        assert_eq!(seconds(0), "0");
        assert_eq!(seconds(1), "0.001");
    }
}
