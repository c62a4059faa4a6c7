//! The timeline figure as SVG, drawn from a run: axis, worker lanes, lock service, storage.
//!
//! Pure (no web): the lanes are drawn as elements ([`El`]), which the built page and a part drawn afresh
//! write out as markup and a drag's step compares ([`crate::present::svg::changes`]); the view adds only
//! the interactive parts (the pause handle, the playhead). Native tests read the picture.

use std::fmt::Write;

use crate::present::geom::{seconds, spread, stagger, text_width, Axis, MIN_AXIS, SHORT_AXIS};
use crate::present::html::esc;
use crate::present::program;
use crate::present::svg::{markup, El};
use crate::present::text::Text;
use crate::scenarios::{Inputs, Key, ScenarioId};
use crate::sim::{
    sooner, Dur, EventKind, Lease, LeaseEnd, Ms, Run, Scenario, Service, Span, Step, WriteRecord,
};

/// Height of the axis above the lanes.
pub const AXIS_H: f64 = 30.0;
/// Height of a worker lane.
pub const WORKER_H: f64 = 58.0;
const LOCK_H: f64 = 62.0;
/// Height of a server's strip (failover, Redlock): five stay legible on a phone.
const NODE_H: f64 = 16.0;
const STORAGE_H: f64 = 92.0;
const LABEL_H: f64 = 16.0;

/// Whose run the figure draws: a scenario of the catalogue (its own names for its lock service and its
/// band), or a scenario a reader wrote as a script (named by what the script says).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Who<'a> {
    /// A scenario of the catalogue.
    Catalogue(ScenarioId),
    /// A script's scenario.
    Script(&'a Scenario),
}

impl Who<'_> {
    /// The name of the lock service's lane.
    pub fn service_name(self, t: &Text) -> &'static str {
        match self {
            Who::Catalogue(id) => t.service_name(id),
            Who::Script(sc) => match sc.service {
                Service::Single => t.lock_service,
                Service::Failover { .. } => t.services[0],
                Service::Redlock { .. } => t.services[1],
                Service::Consensus { .. } => t.consensus_service,
            },
        }
    }

    /// What the purple band stands for, if anything in the run can have one: a pause, or a server's clock
    /// jump (what the reader drags, where a script drags the jump).
    pub fn band(self, t: &Text) -> Option<String> {
        match self {
            Who::Catalogue(id) => {
                let jump = id.dragged() == Some(Key::Jump);
                let label = if jump { (t.disturbance)(Key::Jump).to_owned() } else { t.paused.to_owned() };
                (id.uses(Key::Pause) || id.uses(Key::Jump)).then_some(label)
            }
            Who::Script(sc) => {
                let pauses = sc.workers.iter().any(|w| w.steps.iter().any(|s| matches!(s, Step::Pause(_))));
                let jump = match sc.service {
                    Service::Redlock { jump_node, jump, .. }
                        if sc.dur(jump) > 0 || matches!(jump, Dur::Param(_)) =>
                    {
                        Some(jump_node)
                    }
                    _ => None,
                };
                let dragged_jump = sc.drag.and_then(|d| program::first_use(sc, d));
                match (pauses, jump) {
                    (_, Some(node)) if matches!(dragged_jump, Some(program::Use::Jump { .. })) || !pauses => {
                        Some((t.clock_jump)(node))
                    }
                    (true, _) => Some(t.paused.to_owned()),
                    _ => None,
                }
            }
        }
    }
}

/// What a lane shows, top to bottom: the workers, then the lock service, then the storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// A worker, by index.
    Worker(usize),
    /// A server of a replicated lock service, by index.
    Node(usize),
    /// The lock service.
    Lock,
    /// The storage.
    Storage,
}

/// Where things go, in CSS px, for a figure `width` px wide.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Width of the figure.
    pub width: f64,
    /// Lane labels sit left of the lanes (wide) or above them (narrow).
    pub wide: bool,
    /// The time axis.
    pub axis: Axis,
    /// How many worker lanes.
    pub workers: usize,
    /// How many server strips.
    pub nodes: usize,
}

impl Layout {
    /// The layout for `run` at `width` px, its axis at least `min_axis` long.
    pub fn new(width: f64, run: &Run, min_axis: Ms) -> Layout {
        Layout::sized(width, run.trace.end, min_axis, run.trace.workers.len(), run.trace.nodes.len())
    }

    /// The layout for `run` drawn as `who`'s in `t`'s language: on a wide figure the lanes begin right
    /// of the longest lane name (the Japanese 「ロック（プライマリ）」 is longer than the usual margin), so no
    /// name runs under a lane.
    pub fn named(width: f64, run: &Run, who: Who, min_axis: Ms, t: &Text) -> Layout {
        let mut l = Layout::new(width, run, min_axis);
        if l.wide {
            let names = l.lanes().map(|lane| text_width(&lane_name(&l, run, who, lane, t)));
            let longest = names.fold(0.0, f64::max);
            l.axis.x0 = l.axis.x0.max(NAME_X + longest * 1.15 + 10.0);
            l.axis.x1 = l.axis.x1.max(l.axis.x0 + 1.0);
        }
        l
    }

    /// The layout for a run of `workers` workers and `nodes` servers ending at `trace_end`.
    pub fn sized(width: f64, trace_end: Ms, min_axis: Ms, workers: usize, nodes: usize) -> Layout {
        let wide = width >= 600.0;
        let x0 = if wide { 132.0 } else { 14.0 };
        Layout { width, wide, axis: Axis::new(trace_end, min_axis, x0, width - 18.0), workers, nodes }
    }

    /// The room for a lane's name above it on a narrow figure (a server's strip names itself inside).
    fn label_gap(&self, lane: Lane) -> f64 {
        if self.wide || (matches!(lane, Lane::Node(_)) && self.names_inside()) {
            0.0
        } else {
            LABEL_H
        }
    }

    /// Whether server strips carry their names inside, at their left end: on a narrow figure with more
    /// than two (Redlock's five would otherwise take twice the height); a primary and a replica are named
    /// above, like every other lane, so their marks never cover their names.
    fn names_inside(&self) -> bool {
        !self.wide && self.nodes > 2
    }

    /// Every lane, top to bottom.
    pub fn lanes(&self) -> impl Iterator<Item = Lane> {
        (0..self.workers)
            .map(Lane::Worker)
            .chain((0..self.nodes).map(Lane::Node))
            .chain([Lane::Lock, Lane::Storage])
    }

    fn height_of(lane: Lane) -> f64 {
        match lane {
            Lane::Worker(_) => WORKER_H,
            Lane::Node(_) => NODE_H,
            Lane::Lock => LOCK_H,
            Lane::Storage => STORAGE_H,
        }
    }

    /// Top of `lane`.
    pub fn top(&self, lane: Lane) -> f64 {
        let above = match lane {
            Lane::Worker(w) => w.min(self.workers),
            Lane::Node(n) => self.workers + n.min(self.nodes),
            Lane::Lock => self.workers + self.nodes,
            Lane::Storage => self.workers + self.nodes + 1,
        };
        let heights: f64 = self.lanes().take(above).map(|l| Layout::height_of(l) + self.label_gap(l)).sum();
        AXIS_H + heights + self.label_gap(lane)
    }

    /// Height of the whole figure.
    pub fn height(&self) -> f64 {
        self.top(Lane::Storage) + STORAGE_H + 10.0
    }

    /// x of time `t`.
    pub fn x(&self, t: Ms) -> f64 {
        self.axis.x(t)
    }

    /// x of a span's end, clipped to the playhead and to the axis.
    fn x_end(&self, to: Option<Ms>, playhead: Option<Ms>) -> f64 {
        let end = to.unwrap_or(self.axis.t_end).min(self.axis.t_end);
        self.x(playhead.map_or(end, |p| end.min(p)))
    }
}

/// A px value with one decimal, without float formatting (which would weigh ~10 KB of wasm).
pub fn px(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    format!("{sign}{}.{}", tenths.abs() / 10, tenths.abs() % 10)
}

/// The part of a span shown with the playhead at `p`: `None` if it has not begun yet.
fn shown(span: Span, p: Option<Ms>) -> Option<Span> {
    p.is_none_or(|p| span.from <= p).then_some(span)
}

fn visible(at: Ms, p: Option<Ms>) -> bool {
    p.is_none_or(|p| at <= p)
}

fn worker_class(w: usize) -> &'static str {
    ["w-a", "w-b", "w-c"].get(w).copied().unwrap_or("w-c")
}

/// How close a label may come to the figure's edge.
const EDGE: f64 = 2.0;

/// A figure's elements being drawn ([`El`]s), with what places its labels: the figure's width, and the
/// estimated boxes of the labels placed so far (left, top, right, bottom), so that later labels keep clear of
/// them.
struct Svg {
    els: Vec<El>,
    width: f64,
    boxes: Vec<[f64; 4]>,
}

impl Svg {
    fn new(l: &Layout) -> Svg {
        Svg { els: Vec::new(), width: l.width, boxes: Vec::new() }
    }

    /// The elements drawn since the last part was taken: the next part of the figure. The label boxes stay,
    /// so later parts' labels keep clear of this one's.
    fn part(&mut self) -> Vec<El> {
        std::mem::take(&mut self.els)
    }

    /// A `<g class="{class}">` of what `draw` draws.
    fn group(&mut self, class: String, draw: impl FnOnce(&mut Svg)) {
        let outer = self.part();
        draw(self);
        let kids = std::mem::replace(&mut self.els, outer);
        self.els.push(El { kids, ..El::new("g", vec![("class", class)]) });
    }

    /// An element of tag `tag` and class `class`, then the attributes `attrs` (numbers, written as [`px`]
    /// writes them) and `more` (written as they are).
    fn el(
        &mut self,
        tag: &'static str,
        class: &str,
        attrs: &[(&'static str, f64)],
        more: &[(&'static str, &str)],
    ) {
        let mut all = vec![("class", class.to_owned())];
        all.extend(attrs.iter().map(|&(name, v)| (name, px(v))));
        all.extend(more.iter().map(|&(name, v)| (name, v.to_owned())));
        self.els.push(El::new(tag, all));
    }

    /// Where a label of `text` at `x` (anchored `anchor`) and baseline `y` goes, moved inside the figure if it
    /// would cross an edge: the x and anchor to draw it with, and its estimated box. The estimate is
    /// generous (bold text, other fonts); a label moved in is anchored at the edge itself, so its real width
    /// cannot push it out.
    fn fit<'a>(&self, x: f64, y: f64, anchor: &'a str, text: &str) -> (f64, &'a str, [f64; 4]) {
        let w = text_width(text) * 1.12;
        let left = match anchor {
            "end" => x - w,
            "middle" => x - w / 2.0,
            _ => x,
        };
        let (x, anchor, left) = if left < EDGE {
            (EDGE, "start", EDGE)
        } else if left + w > self.width - EDGE {
            (self.width - EDGE, "end", self.width - EDGE - w)
        } else {
            (x, anchor, left)
        };
        (x, anchor, [left, y - 11.0, left + w, y + 3.0])
    }

    /// A label, kept inside the figure, its box remembered.
    fn text(&mut self, class: &str, x: f64, y: f64, anchor: &str, text: &str) {
        let (x, anchor, b) = self.fit(x, y, anchor, text);
        self.boxes.push(b);
        self.raw_text(class, x, y, anchor, text);
    }

    /// A label at the first of `spots` (x, baseline y, anchor) where it keeps clear of every label placed
    /// so far; at the first spot if none does.
    fn label(&mut self, class: &str, text: &str, spots: &[(f64, f64, &str)]) {
        let clear = |b: &[f64; 4]| {
            self.boxes
                .iter()
                .all(|o| b[2] + 3.0 <= o[0] || o[2] + 3.0 <= b[0] || b[3] <= o[1] || o[3] <= b[1])
        };
        let spot = spots.iter().find(|&&(x, y, a)| clear(&self.fit(x, y, a, text).2)).or(spots.first());
        if let Some(&(x, y, anchor)) = spot {
            self.text(class, x, y, anchor, text);
        }
    }

    fn rect(&mut self, class: &str, x: f64, y: f64, w: f64, h: f64) {
        self.el("rect", class, &[("x", x), ("y", y), ("width", w.max(0.0)), ("height", h)], &[("rx", "3")]);
    }

    fn raw_text(&mut self, class: &str, x: f64, y: f64, anchor: &str, text: &str) {
        self.el("text", class, &[("x", x), ("y", y)], &[("text-anchor", anchor)]);
        if let Some(el) = self.els.last_mut() {
            el.text = text.to_owned();
        }
    }

    fn line(&mut self, class: &str, x1: f64, y1: f64, x2: f64, y2: f64) {
        self.el("line", class, &[("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)], &[]);
    }

    /// A mark drawn as a path from (`x`, `y`): `d` goes on from there.
    fn path(&mut self, class: &str, x: f64, y: f64, d: &str) {
        let d = format!("M{} {} {d}", px(x), px(y));
        self.el("path", class, &[], &[("d", &d)]);
    }

    /// A bar for a span, clipped to the playhead.
    fn bar(&mut self, l: &Layout, span: Span, p: Option<Ms>, y: f64, h: f64, class: &str) {
        let x = l.x(span.from);
        self.rect(class, x, y, l.x_end(span.to, p) - x, h);
    }
}

/// The timeline's frame as the page draws it: the SVG with the parts a view fills in (axis, lane names,
/// lanes), the dragged handle drawn around (0, 0) so that one attribute moves it ([`Handle`]), the playhead,
/// and the legend beside the SVG.
pub fn skeleton() -> String {
    format!(
        r#"<svg role="group"><g class="axis" aria-hidden="true"></g><g class="lane-labels"></g><g class="lanes"></g><g class="handle" id="pause-handle" role="slider" tabindex="0" aria-orientation="horizontal"><g>{GRIP}</g></g><line class="playhead" x1="0" x2="0" y1="{}"/></svg><ul class="legend"></ul>"#,
        px(AXIS_H - 6.0)
    )
}

/// The handle's shapes, around (0, 0): a wide target for a finger (as tall as a worker's lane), the focus
/// ring, the grip and its arrows.
pub const GRIP: &str = r#"<rect class="grab" x="-22" y="-4" width="44" height="66.0"/><rect class="focus-ring" x="-9" y="12" width="18" height="38" rx="5"/><rect class="grip" x="-4" y="16" width="8" height="30" rx="3"/><path class="grip-arrows" d="M-8 31 l-5 -4 v8 z M8 31 l5 -4 v8 z"/>"#;

/// The dragged input's handle: an ARIA slider over it, at the right edge of its band.
#[derive(Clone, Debug, PartialEq)]
pub struct Handle {
    /// Its accessible name.
    pub label: String,
    /// The input's range.
    pub min: Ms,
    /// The input's range.
    pub max: Ms,
    /// Its value.
    pub now: Ms,
    /// Where its band starts: the value is the band's length.
    pub origin: Ms,
    /// Its value said in words, with the time its band ends.
    pub text: String,
    /// Where the handle's group goes: `translate(x y)`.
    pub transform: String,
}

/// The handle of `who`'s dragged input or named value (`i`: the catalogue's inputs), if it has one. A clock
/// jump is dragged on its server's strip, centred on it; anything else on the lane of the worker whose step
/// it times (the lock service's for a leader crash).
pub fn handle(l: &Layout, who: Who, i: &Inputs, run: &Run, t: &Text) -> Option<Handle> {
    let built;
    let (sc, key) = match who {
        Who::Catalogue(id) => {
            built = id.build(i);
            (&built, Some(id.dragged()?))
        }
        Who::Script(sc) => (sc, None),
    };
    let d = sc.drag?;
    let p = sc.params.get(usize::from(d))?;
    let top = match program::first_use(sc, d) {
        Some(program::Use::Jump { node, .. }) => l.top(Lane::Node(node)) - 23.0,
        Some(program::Use::Step { worker, .. }) => l.top(Lane::Worker(worker)),
        Some(program::Use::LeaderCrash) => l.top(Lane::Lock),
        None => l.top(Lane::Worker(0)),
    };
    let (min, max, now, start) = (p.min, p.max, p.value, program::origin(run, sc, d));
    // A band whose step never ran ends nowhere: its handle says the value alone, and stays where a band from 0
    // would end.
    let (end, origin) = (start.map(|o| o + now), start.unwrap_or(0));
    let label = key.map_or_else(|| (t.value_handle)(&p.name), |key| (t.handle_name)(key).to_owned());
    let text = match (key, end) {
        (Some(key), Some(end)) => (t.handle_value)(key, now, end),
        (None, Some(end)) => (t.value_text)(now, end),
        (_, None) => (t.playhead)(now),
    };
    let transform = format!("translate({} {})", px(l.x(origin + now)), px(top));
    Some(Handle { label, min, max, now, origin, text, transform })
}

/// A's job, when the reader drags its end: input, not trace, so its band runs whole from the start.
pub fn job(who: Who, i: &Inputs) -> Option<Span> {
    matches!(who, Who::Catalogue(id) if id.dragged() == Some(Key::Work))
        .then_some(Span { from: 0, to: Some(i.work) })
}

/// A whole figure of `run` at width `width`, as the timeline draws it (without its handle or playhead).
pub fn whole(run: &Run, who: Who, width: f64, min_axis: Ms, label: &str, t: &Text) -> String {
    let l = Layout::named(width, run, who, min_axis, t);
    format!(
        r#"<svg role="img" aria-label="{}" viewBox="0 0 {} {}"><g class="axis" aria-hidden="true">{}</g><g class="lane-labels">{}</g><g class="lanes">{}</g></svg>"#,
        esc(label),
        px(l.width),
        px(l.height()),
        axis(&l, t),
        lane_names(&l, run, who, t),
        lanes(&l, run, None, None, t)
    )
}

/// The lab figure's drawn groups, as the page's timeline holds them inside its `<svg>`: the axis, the lane
/// names (the first carrying the first-paint mark) and the lanes up to the playhead `p` (`None`: the whole
/// run). The built page (`present::page`) and `locksim render` draw with this, so the two cannot drift.
pub fn lab_groups(l: &Layout, run: &Run, who: Who, p: Option<Ms>, job: Option<Span>, t: &Text) -> String {
    format!(
        r#"<g class="axis" aria-hidden="true">{}</g><g class="lane-labels">{}</g><g class="lanes">{}</g>"#,
        axis(l, t),
        lab_lane_names(l, run, who, t),
        lanes(l, run, p, job, t)
    )
}

/// The layout of the lab's figure for `run` at `width`, as the page's timeline lays it out: room to drag
/// to the end of the input's range (a 30 s axis), or, with nothing to drag, an axis that fits the run.
pub fn lab_layout(width: f64, run: &Run, who: Who, t: &Text) -> Layout {
    let drags = match who {
        Who::Catalogue(id) => id.dragged().is_some(),
        Who::Script(sc) => sc.drag.is_some(),
    };
    let min = if drags { MIN_AXIS } else { SHORT_AXIS };
    Layout::named(width, run, who, min, t)
}

/// Second ticks with labels that never collide, and faint grid lines.
pub fn axis(l: &Layout, t: &Text) -> String {
    let mut s = Svg::new(l);
    let bottom = l.height() - 8.0;
    for (at, labelled) in l.axis.ticks(if l.wide { 34.0 } else { 30.0 }) {
        let x = l.x(at);
        let class = if labelled { "grid major" } else { "grid" };
        s.els.push(El::new(
            "line",
            vec![
                ("class", class.to_owned()),
                ("data-t", at.to_string()),
                ("x1", px(x)),
                ("y1", px(AXIS_H - 10.0)),
                ("x2", px(x)),
                ("y2", px(bottom)),
            ],
        ));
        if labelled {
            // The unit rides on the first label, anchored left, where it has room.
            if at == 0 {
                s.text("tick-label", x - 3.0, 14.0, "start", &(t.playhead)(0));
            } else {
                s.text("tick-label", x, 14.0, "middle", &seconds(at));
            }
        }
    }
    markup(&s.els)
}

/// The lane names: left of the lanes when wide, above them when narrow. A server's strip is named inside
/// it on a narrow figure, so five of them take no more than five strips' height.
pub fn lane_names(l: &Layout, run: &Run, who: Who, t: &Text) -> String {
    markup(&lane_name_els(l, run, who, t))
}

/// The elements of [`lane_names`].
fn lane_name_els(l: &Layout, run: &Run, who: Who, t: &Text) -> Vec<El> {
    let mut s = Svg::new(l);
    for lane in l.lanes() {
        let name = lane_name(l, run, who, lane, t);
        let top = l.top(lane);
        let (x, y) = match lane {
            _ if l.wide => (NAME_X, top + Layout::height_of(lane) / 2.0 + 4.0),
            Lane::Node(_) if l.names_inside() => (NAME_INSIDE_X, top + 12.0),
            _ => (l.axis.x0, top - 4.0),
        };
        s.text("lane-label", x, y, "start", &name);
    }
    s.els
}

/// The lane names of the lab's own figure (the built page's and the app's, not a recording's): the first
/// carries the figure's Element Timing mark, so a host (and benches/load.mjs) can read with a
/// PerformanceObserver when the figure was first painted.
pub fn lab_lane_names(l: &Layout, run: &Run, who: Who, t: &Text) -> String {
    let mut names = lane_name_els(l, run, who, t);
    if let Some(first) = names.first_mut() {
        first.attrs.insert(0, ("elementtiming", "figure".to_owned()));
    }
    markup(&names)
}

/// Where a lane's name starts on a wide figure.
const NAME_X: f64 = 8.0;

/// A lane's name.
fn lane_name(l: &Layout, run: &Run, who: Who, lane: Lane, t: &Text) -> String {
    match lane {
        Lane::Worker(w) => (t.worker)(run.trace.workers.get(w).map_or("?", |w| w.name.as_str())),
        Lane::Node(n) => node_name(l, n, t),
        Lane::Lock => who.service_name(t).to_owned(),
        Lane::Storage => t.storage.to_owned(),
    }
}

/// Where a server's name drawn inside its strip ends, with room to spare (the name is bold): its keys start
/// there.
fn name_inside_end(l: &Layout, n: usize, t: &Text) -> f64 {
    NAME_INSIDE_X + text_width(&node_name(l, n, t)) * 1.3 + 3.0
}

/// Where a server's name starts inside its strip.
const NAME_INSIDE_X: f64 = 2.0;

/// A server's name: primary and replica (two servers), N1–N5 (Redlock).
fn node_name(l: &Layout, n: usize, t: &Text) -> String {
    match t.nodes.get(n).filter(|_| l.nodes == 2) {
        Some(name) => (*name).to_owned(),
        None => format!("N{}", n + 1),
    }
}

/// Everything drawn from the trace up to the playhead `p`: worker lanes, lock service, storage. The
/// learner's inputs (a pause, a write's time in the network, A's job) are not outcomes, so they are always
/// drawn whole; `job` is A's job when the learner drags its end.
pub fn lanes(l: &Layout, run: &Run, p: Option<Ms>, job: Option<Span>, t: &Text) -> String {
    parts_markup(&lane_parts(l, run, p, job, t))
}

/// The parts of [`lane_parts`] as [`lanes`] writes them: one `<g class="part">` each.
pub fn parts_markup(parts: &[Vec<El>]) -> String {
    parts.iter().map(|part| format!(r#"<g class="part">{}</g>"#, markup(part))).collect()
}

/// [`lanes`] as elements, in parts: each worker's lane, the servers' strips, the lock service, the storage
/// (each one `<g class="part">` in [`lanes`]). A drag moves a few of them; a view that keeps the others
/// redraws only those, and of those sets only the values that moved ([`crate::present::svg::changes`]).
pub fn lane_parts(l: &Layout, run: &Run, p: Option<Ms>, job: Option<Span>, t: &Text) -> Vec<Vec<El>> {
    // One builder for all: the label boxes are shared, so a later part's labels keep clear of an earlier's.
    let mut s = Svg::new(l);
    let mut parts = Vec::new();
    if let Some(span) = job {
        band(&mut s, l, span, l.top(Lane::Worker(0)) + ACT_Y, "job", t.job);
    }
    for w in 0..run.trace.workers.len() {
        worker_lane(&mut s, l, run, w, p, t);
        parts.push(s.part());
    }
    server_strips(&mut s, l, run, p, t);
    parts.push(s.part());
    lock_lane(&mut s, l, run, p, t);
    parts.push(s.part());
    storage_lane(&mut s, l, run, p, t);
    parts.push(s.part());
    parts
}

/// A worker lane's rows, from its top: what it believes (its token's bar), then what it does (a pause, a
/// request, a write in the network, a release).
const BELIEF_Y: f64 = 4.0;
const ACT_Y: f64 = 18.0;

/// Worker `w`'s lane: what it believed and when it was wrong, its waits, its pauses, its requests, writes in
/// the network, releases and crash.
fn worker_lane(s: &mut Svg, l: &Layout, run: &Run, w: usize, p: Option<Ms>, t: &Text) {
    let lane = &run.trace.workers[w];
    let top = l.top(Lane::Worker(w));
    let (belief_y, act_y) = (top + BELIEF_Y, top + ACT_Y);
    let class_w = worker_class(w);
    for &(span, token) in &lane.believing {
        if let Some(span) = shown(span, p) {
            s.bar(l, span, p, belief_y, 10.0, "belief");
            if run.trace.tokens {
                let label = token.to_string();
                s.text(
                    &format!("belief-label {class_w}"),
                    l.x(span.from) + 4.0,
                    belief_y + 9.0,
                    "start",
                    &label,
                );
            }
        }
    }
    for span in lane.mistaken.iter().filter_map(|&m| shown(m, p)) {
        s.bar(l, span, p, belief_y, 10.0, "mistaken");
    }
    for span in lane.waiting.iter().filter_map(|&m| shown(m, p)) {
        s.bar(l, span, p, act_y + 6.0, 14.0, "waiting");
    }
    for &span in &lane.paused {
        band(s, l, span, act_y, "paused", t.paused);
    }
    for e in &run.trace.events {
        let x = l.x(e.at);
        match e.kind {
            EventKind::Write { worker, arrives, .. } if worker == w && arrives > e.at => {
                band(s, l, Span { from: e.at, to: Some(arrives) }, act_y, "inflight", t.in_flight);
            }
            _ if !visible(e.at, p) => {}
            EventKind::Request { worker } if worker == w => {
                s.el(
                    "circle",
                    &format!("request {class_w}"),
                    &[("cx", x), ("cy", act_y + 13.0)],
                    &[("r", "4")],
                );
            }
            EventKind::Release { worker, .. } if worker == w => {
                s.path(&format!("release {class_w}"), x, act_y + 4.0, "v18 m-5 0 h10");
            }
            EventKind::Crash { worker } if worker == w => {
                s.path("crash", x, act_y + 13.0, "m-6 -6 l12 12 m0 -12 l-12 12");
                s.text("crash-label", x + 10.0, act_y + 17.0, "start", t.crashed);
            }
            _ => {}
        }
    }
}

/// The servers of a replicated service: whose key each held, its clock's jumps, a crash, a promotion.
fn server_strips(s: &mut Svg, l: &Layout, run: &Run, p: Option<Ms>, t: &Text) {
    for (n, node) in run.trace.nodes.iter().enumerate() {
        let top = l.top(Lane::Node(n));
        // On a narrow figure the strip's name sits at its left end: its keys start after it.
        let name_x = if l.names_inside() { name_inside_end(l, n, t) } else { 0.0 };
        // A clock jump is the reader's input: a band from the jump to the time the clock now reads, under its keys.
        for &(at, by) in &node.jumps {
            s.bar(l, Span { from: at, to: Some(at + by) }, None, top + 1.0, 14.0, "paused");
            s.text("node-label", l.x(at + by) + 12.0, top + 12.0, "start", &(t.jumped)(by));
        }
        for &(span, w) in &node.keys {
            if let Some(span) = shown(span, p) {
                let x = l.x(span.from).max(name_x);
                s.rect(&format!("lease {}", worker_class(w)), x, top + 3.0, l.x_end(span.to, p) - x, 10.0);
            }
        }
        if let Some(at) = node.down.filter(|&at| visible(at, p)) {
            s.path("crash", l.x(at), top + 8.0, "m-5 -5 l10 10 m0 -10 l-10 10");
            s.text("node-label", l.x(at) + 8.0, top + 12.0, "start", t.crashed);
        }
        if let Some((at, kept)) = node.promoted.filter(|pr| visible(pr.0, p)) {
            s.line("jump-mark", l.x(at), top, l.x(at), top + NODE_H);
            s.text("node-label", l.x(at) - 3.0, top + 12.0, "end", t.promoted[usize::from(!kept)]);
        }
    }
}

/// The lock service lane's rows, from its top: the holds (a second row, [`HOLD_ROW`] lower, for the earlier
/// of two holders), then the row of labels under them (where a lease ends, when the lock is free again).
const HOLD_Y: f64 = 6.0;
const HOLD_ROW: f64 = 20.0;
const LOCK_LABEL_Y: f64 = LOCK_H - 2.0;

/// The lock service: who holds the lock when, with the token and where the lease ends; when it could not
/// be had; keepalives; two holders at once.
fn lock_lane(s: &mut Svg, l: &Layout, run: &Run, p: Option<Ms>, t: &Text) {
    let top = l.top(Lane::Lock);
    let double = run.outcome.double_grant;
    let unavailable = run.trace.unavailable.iter().map(|&u| (u, false));
    for (span, election) in unavailable.chain(run.trace.elections.iter().map(|&e| (e, true))) {
        let Some(span) = shown(span, p) else { continue };
        s.bar(l, span, p, top + HOLD_Y, 40.0, "unavailable");
        // In the label row under the lane, not over the holds the gap interrupts.
        let (from, y) = (l.x(span.from), top + LOCK_LABEL_Y);
        if election {
            let to = l.x_end(span.to, p);
            s.label(
                "expiry-label",
                t.electing,
                &[(from, y, "start"), (to, y, "end"), (to + 4.0, y, "start")],
            );
        } else if let Some(to) = span.to.filter(|&to| visible(to, p)) {
            let label = (t.lock_free)(to);
            let x = l.x(to);
            s.label("expiry-label", &label, &[(x, y, "middle"), (x + 4.0, y, "start"), (x - 4.0, y, "end")]);
        }
    }
    // Each hold's bar and row. The earlier grant of a double grant is drawn on a second row, on until its
    // promise ended, so the two holds overlap. A grant lost in a failover stays promised until its holder
    // lets go, whenever the new grant came (a real recording's promotion and grant are a few ms apart).
    // Past the service's record of it (its key deleted or overwritten, or lost with the primary) the
    // promise is drawn as what it then was: believed, not held.
    let holds: Vec<(usize, Span, f64)> = (run.trace.leases.iter().enumerate())
        .filter_map(|(i, lease)| {
            let promised_on = double.filter(|d| {
                d.earlier == lease.worker
                    && match lease.end {
                        LeaseEnd::Lost => true,
                        LeaseEnd::Overwritten(_) | LeaseEnd::DeletedByOther(_) => lease.held.to == Some(d.at),
                        _ => false,
                    }
            });
            let (span, row) = match promised_on {
                Some(d) => (Span { from: lease.held.from, to: d.until }, 1.0),
                None => (lease.held, 0.0),
            };
            shown(span, p).map(|span| (i, span, row))
        })
        .collect();
    for &(i, span, row) in &holds {
        let lease = &run.trace.leases[i];
        let y = top + HOLD_Y + row * HOLD_ROW;
        let class_w = worker_class(lease.worker);
        let believed = lease.held.to.filter(|_| row > 0.0);
        let held = Span { to: believed.or(span.to), ..span };
        s.bar(l, held, p, y, 18.0, &format!("lease {class_w}"));
        if let Some(from) = believed.filter(|&to| visible(to, p)) {
            s.bar(l, Span { from, ..span }, p, y, 18.0, "mistaken");
        }
        // Inside its bar where it fits, else its token (or name) alone; beside a bar too short for either
        // (B's 1 s after a lock-delay) where the row is free; never half in and half out.
        let name = &run.trace.workers[lease.worker].name;
        let (long, short) = if run.trace.tokens {
            (format!("{name} · {}", lease.token), lease.token.to_string())
        } else {
            (name.clone(), name.clone())
        };
        let (x0, x1) = (l.x(held.from), l.x_end(held.to, p));
        let need = |label: &str| text_width(label) * 1.12 + 8.0;
        let next = (holds.iter())
            .filter(|h| h.2 == row && h.1.from > span.from)
            .map(|h| l.x(h.1.from))
            .fold(l.width - EDGE, f64::min);
        let placed = if x1 - x0 >= need(&long) {
            Some((x0 + 5.0, long))
        } else if x1 - x0 >= need(&short) {
            Some((x0 + 5.0, short))
        } else {
            [long, short].into_iter().find(|label| x1 + need(label) <= next).map(|label| (x1 + 4.0, label))
        };
        if let Some((x, label)) = placed {
            s.text(&format!("lease-label {class_w}"), x, y + 13.0, "start", &label);
        }
        let marked = lease.end == LeaseEnd::Expired || i == 0;
        let end = marked_end(run, lease);
        if marked && end <= l.axis.t_end {
            let x = l.x(end);
            let (class, label) = if lease.enforced {
                ("expiry", (t.lease_ends)(end))
            } else {
                ("expiry off", (t.lease_would_end)(end))
            };
            s.group(class.to_owned(), |s| {
                s.line("", x, l.top(Lane::Worker(0)) - 2.0, x, top + LOCK_H - 12.0);
                // Centred under its line; beside it where another label is there already.
                let y = top + LOCK_LABEL_Y;
                s.label(
                    "expiry-label",
                    &label,
                    &[(x, y, "middle"), (x - 4.0, y, "end"), (x + 4.0, y, "start")],
                );
            });
        }
    }
    // Keepalives and a new leader's re-arming: why a lease's end moved.
    for e in run.trace.events.iter().filter(|e| visible(e.at, p)) {
        if let EventKind::Renew { .. } = e.kind {
            s.line("renew", l.x(e.at), top + 1.0, l.x(e.at), top + 27.0);
        }
    }
    if let Some(d) = double.filter(|d| visible(d.at, p)) {
        // Two holders until either lets go: the earlier grant's promise ends, or the later holder's hold.
        let later = run.trace.leases.iter().find(|l| l.worker == d.later && l.held.from == d.at);
        let span = Span { from: d.at, to: sooner(d.until, later.and_then(|l| l.held.to)) };
        let (x, w) = (l.x(span.from), l.x_end(span.to, p) - l.x(span.from));
        s.rect("overlap", x, top + 2.0, w.max(3.0), 46.0);
        // Above the band when wide; beside it when narrow, where the lane's name sits above the lane; in the
        // label row under the lane when server strips sit right above it. Wherever it keeps clear of the
        // lease's end and the other labels.
        let (mid, right, below) = (x + w.max(3.0) / 2.0, x + w.max(3.0) + 4.0, top + LOCK_LABEL_Y);
        let spots = if l.wide && l.nodes == 0 {
            [
                (mid, top + 1.0, "middle"),
                (right, top + 42.0, "start"),
                (mid, below, "middle"),
                (x - 4.0, below, "end"),
            ]
        } else if l.wide {
            [
                (mid, below, "middle"),
                (x + 4.0, below, "start"),
                (x - 4.0, below, "end"),
                (right, below, "start"),
            ]
        } else {
            [
                (right, top + 42.0, "start"),
                (x - 4.0, top + 42.0, "end"),
                (mid, below, "middle"),
                (x - 4.0, below, "end"),
            ]
        };
        s.label("overlap-label", t.two_holders, &spots);
    }
}

/// The storage: each write arriving with its token, accepted or rejected and why, the tokens registered
/// with it, and the highest token it has seen.
fn storage_lane(s: &mut Svg, l: &Layout, run: &Run, p: Option<Ms>, t: &Text) {
    let top = l.top(Lane::Storage);
    let writes: Vec<_> = run.trace.writes.iter().filter(|wr| visible(wr.at, p)).collect();
    let notes: Vec<String> = writes
        .iter()
        .map(|wr| {
            let token = wr.token.map_or_else(String::new, |t| t.to_string() + " ");
            match (wr.accepted, wr.highest_before, wr.overwrote()) {
                (false, Some(h), _) => format!("{} {token}< {h}", t.rejected),
                (false, None, _) => t.rejected.to_owned(),
                (true, _, Some(h)) => format!("{token}{}{}", t.accepted, (t.overwrites)(h)),
                (true, _, None) => format!("{token}{}", t.accepted),
            }
        })
        .collect();
    // Each mark where its write arrived, moved apart where two would touch (writes a second apart on a
    // phone); each note under its mark, in the figure, on a row of its own where two would meet.
    let marks = spread(&writes.iter().map(|wr| l.x(wr.at)).collect::<Vec<_>>(), 24.0, 13.0, l.width - 13.0);
    let sizes: Vec<(f64, f64)> = marks
        .iter()
        .zip(&notes)
        .map(|(&x, n)| {
            let b = s.fit(x, 0.0, "middle", n).2;
            ((b[0] + b[2]) / 2.0, b[2] - b[0])
        })
        .collect();
    for (((wr, note), row), &x) in writes.iter().zip(&notes).zip(stagger(&sizes, 8.0)).zip(&marks) {
        let (mark, class) = match (wr.accepted, wr.overwrote()) {
            (true, None) => ("✓", "write accepted"),
            (true, Some(_)) => ("✓", "write accepted overwrote"),
            (false, _) => ("✗", "write rejected"),
        };
        s.group(format!("{class} {}", worker_class(wr.worker)), |s| {
            s.line("write-arrow", l.x(wr.sent), l.top(Lane::Worker(wr.worker)) + 30.0, l.x(wr.at), top + 8.0);
            s.els
                .push(El::new("circle", vec![("cx", px(x)), ("cy", px(top + 20.0)), ("r", "11".to_owned())]));
            s.text("write-mark", x, top + 25.0, "middle", mark);
            s.text("write-token", x, top + 48.0 + row as f64 * 15.0, "middle", note);
        });
    }
    // Each registration's label beside its mark, or else just after the label placed last: the registration
    // before, when two come within a label's width (as on a phone when A wakes at once).
    for e in run.trace.events.iter().filter(|e| visible(e.at, p)) {
        if let EventKind::Register { worker, token } = e.kind {
            let x = l.x(e.at);
            s.group(format!("register {}", worker_class(worker)), |s| {
                s.line("register-mark", x, top + 2.0, x, top + 14.0);
                let y = top + 10.0;
                s.label(
                    "register-label",
                    &(t.registered)(token),
                    &[
                        (x - 4.0, y, "end"),
                        (x + 4.0, y, "start"),
                        (s.boxes.last().map_or(x, |b| b[2]) + 8.0, y, "start"),
                    ],
                );
            });
        }
    }
    let highest = run.trace.events.iter().filter(|e| visible(e.at, p)).fold(None, |h, e| match e.kind {
        EventKind::Register { token, .. } => h.max(Some(token)),
        EventKind::Store { .. } => WriteRecord::from_event(e).and_then(|w| w.highest_after()).max(h),
        _ => h,
    });
    if let Some(h) = highest {
        // In the lane's corner; lower, in the figure's margin, where a third row of notes reaches it (a phone).
        let (x, y) = (l.axis.x1, top + STORAGE_H);
        s.label("highest", &format!("{}{h}", t.highest), &[(x, y - 4.0, "end"), (x, y + 4.0, "end")]);
    }
}

/// A band of the learner's input (a pause, a write in the network) on a worker's lane, always drawn whole.
fn band(s: &mut Svg, l: &Layout, span: Span, y: f64, class: &str, label: &str) {
    s.bar(l, span, None, y, 26.0, class);
    // Clear of a request's dot (r 4) at the band's start: at 6 px it touched the label's first letter.
    let x = l.x(span.from) + 9.0;
    if l.x_end(span.to, None) - x > 8.0 * label.chars().count() as f64 {
        s.text(&format!("{class}-label"), x, y + 17.0, "start", label);
    }
}

/// Where the figure marks a lease's end: where it stood when it mattered, as the narration tells it. A
/// lease that ran out ends where the service took it back (a real etcd revokes it seconds after its TTL,
/// and the lane holds it until then); one its holder gave back ends where it stood when the holder woke
/// (the keepalive sent on waking, just before the release, moved an end that no longer mattered).
fn marked_end(run: &Run, lease: &Lease) -> Ms {
    if lease.end == LeaseEnd::Expired {
        return lease.held.to.map_or(lease.nominal_expiry, |to| to.max(lease.nominal_expiry));
    }
    let held = |at: Ms| at >= lease.held.from && lease.held.to.is_none_or(|to| at <= to);
    let woke = run.trace.events.iter().rev().find_map(|e| match e.kind {
        EventKind::Wake { worker } if worker == lease.worker && held(e.at) => Some(e.at),
        _ => None,
    });
    let Some(woke) = woke else { return lease.nominal_expiry };
    let mut end = lease.nominal_expiry;
    for e in &run.trace.events {
        match e.kind {
            EventKind::Grant { worker, token, expires, .. }
                if worker == lease.worker && token == lease.token && e.at == lease.held.from =>
            {
                end = expires.unwrap_or(end)
            }
            EventKind::Renew { worker, token, expires }
                if worker == lease.worker && token == lease.token && e.at < woke =>
            {
                end = expires
            }
            _ => {}
        }
    }
    end
}

/// The legend's items (HTML `<li>`s), each with a swatch drawn with the timeline's own classes. The purple
/// band is the dragged input's: a GC pause, or (Redlock) a server's clock jump; a scenario in which nothing
/// pauses and no clock jumps does not list it.
pub fn legend(t: &Text, who: Who) -> String {
    let band = who.band(t);
    let items = [
        ("belief", 2, 10, t.believes),
        ("mistaken", 2, 10, t.false_belief),
        ("paused", 1, 12, band.as_deref().unwrap_or("")),
        ("waiting", 3, 8, t.waiting),
        ("lease w-a", 2, 10, t.holds),
    ];
    let mut out = String::new();
    for (class, y, h, label) in items.into_iter().filter(|i| band.is_some() || i.0 != "paused") {
        let _ = write!(
            out,
            r#"<li><svg width="26" height="14" viewBox="0 0 26 14" aria-hidden="true"><rect class="{class}" x="1" y="{y}" width="24" height="{h}" rx="3"/></svg>{}</li>"#,
            esc(label)
        );
    }
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::present::geom::MIN_AXIS;
    use crate::present::params::Lang;
    use crate::present::text::{panels, text};
    use crate::scenarios::{Inputs, ScenarioId};
    use crate::sim;

    fn draw_in(id: ScenarioId, f: impl FnOnce(&mut Inputs), p: Option<Ms>) -> String {
        let mut i = id.defaults();
        f(&mut i);
        let run = sim::run(&id.build(&i));
        lanes(&Layout::new(1_000.0, &run, MIN_AXIS), &run, p, None, text(Lang::En))
    }

    /// The start of a rect's markup: its class, where it starts, its top and its width, from `from` to `to`.
    fn rect(l: &Layout, class: &str, (from, to): (Ms, Ms), y: f64) -> String {
        format!(r#"class="{class}" x="{}" y="{}" width="{}""#, px(l.x(from)), px(y), px(l.x(to) - l.x(from)))
    }

    fn draw(pause: Ms, fencing: bool, p: Option<Ms>) -> String {
        draw_in(
            ScenarioId::GcPause,
            |i| {
                i.pause = pause;
                i.fencing = fencing;
            },
            p,
        )
    }

    #[test]
    fn a_handle_names_where_its_band_ends_only_when_the_run_got_there() {
        let id = ScenarioId::CheckThenPause;
        let said = |ttl: Ms, lang: Lang| {
            let i = Inputs { ttl, pause: 3_000, ..id.defaults() };
            let run = sim::run(&id.build(&i));
            let l = Layout::new(1_000.0, &run, MIN_AXIS);
            handle(&l, Who::Catalogue(id), &i, &run, text(lang)).unwrap().text
        };
        // A checks at 2 s and pauses 3 s: it wakes at 5 s.
        assert_eq!(said(10_000, Lang::En), "pause 3 s, A wakes at 5 s");
        // Its 2 s lease has run out by the check: it gives up and never pauses, so it never wakes (nor says so).
        assert_eq!(said(2_000, Lang::En), "3 s");
        assert_eq!(said(2_000, Lang::Ja), "3秒");
    }

    #[test]
    fn the_handle_target_is_as_tall_as_a_worker_lane() {
        assert!(GRIP.contains(&format!(r#"height="{}""#, px(WORKER_H + 8.0))));
    }

    #[test]
    fn a_third_worker_gets_its_own_lane() {
        let l = Layout::sized(1_000.0, 0, MIN_AXIS, 3, 0);
        assert!(l.top(Lane::Worker(2)) > l.top(Lane::Worker(1)));
        assert!(l.top(Lane::Lock) > l.top(Lane::Worker(2)) + WORKER_H - 1.0);
        let svg = draw_in(ScenarioId::UnsafeRelease, |_| {}, None);
        assert_eq!(svg.matches(r#"class="lease w-c""#).count(), 1);
        // C's 1 s hold is too short for "C · 35" at this width: its token alone, inside its bar.
        assert!(svg.contains(r#"class="lease-label w-c""#) && svg.contains(">35</text>"), "{svg}");
    }

    #[test]
    fn a_double_grant_is_two_holds_overlapping_with_the_overlap_marked() {
        let svg = draw_in(ScenarioId::CheckThenSet, |_| {}, None);
        // A's grant (1 s) on the second row: held until B's SET overwrote its key at 1.5 s, then believed
        // until A let go at 2 s; B's from 1.5 s.
        let l = Layout::sized(1_000.0, 0, MIN_AXIS, 2, 0);
        let second_row = l.top(Lane::Lock) + 26.0;
        assert!(svg.contains(&rect(&l, "lease w-a", (1_000, 1_500), second_row)), "{svg}");
        assert!(svg.contains(&rect(&l, "mistaken", (1_500, 2_000), second_row)), "{svg}");
        assert!(svg.contains(&format!(r#"class="overlap" x="{}""#, px(l.x(1_500)))));
        assert!(svg.contains(">two holders</text>"));
        assert!(!draw_in(ScenarioId::CheckThenSet, |i| i.atomic = true, None).contains("overlap"));
        // Two holders only while both hold: in unsafe-release B's grant runs from 10 s to 16 s, but C, granted
        // at 12 s when A's DEL deleted B's key, lets go at 13 s.
        let run = sim::run(&ScenarioId::UnsafeRelease.build(&ScenarioId::UnsafeRelease.defaults()));
        let l = Layout::new(1_000.0, &run, MIN_AXIS);
        let svg = lanes(&l, &run, None, None, text(Lang::En));
        assert!(svg.contains(&rect(&l, "overlap", (12_000, 13_000), l.top(Lane::Lock) + 2.0)), "{svg}");
        // B's grant is promised to 16 s, but the lock service's record of it went with its key at 12 s: past
        // that, the second row draws it as believed, not held.
        assert!(svg.contains(&rect(&l, "mistaken", (12_000, 16_000), l.top(Lane::Lock) + 26.0)), "{svg}");
        assert_eq!(
            draw_in(ScenarioId::GcPause, |i| i.pause = 15_000, None).matches(r#"class="mistaken""#).count(),
            1
        );
    }

    #[test]
    fn a_delayed_write_is_drawn_in_the_network_and_a_crash_is_marked() {
        assert!(draw_in(ScenarioId::NetworkDelay, |_| {}, Some(0)).contains(r#"class="inflight""#));
        let svg = draw_in(ScenarioId::Crash, |_| {}, None);
        assert!(svg.contains(r#"class="crash""#) && svg.contains(">crash</text>"));
        let svg = draw_in(ScenarioId::LockDelay, |_| {}, None);
        assert!(svg.contains(r#"class="unavailable""#) && svg.contains(">lock-delay ends 25 s</text>"));
        let svg = draw_in(ScenarioId::RegisterToken, |_| {}, None);
        assert!(svg.contains(">34 registered</text>") && svg.contains(">highest token seen: 34</text>"));
    }

    #[test]
    fn replicated_services_draw_their_servers() {
        let t = text(Lang::En);
        // Redlock: five strips; A's keys on N1–N3, B's on N3–N5; N3's jump is a band to where its clock reads;
        // no token anywhere, the lane says who holds a majority.
        let run = sim::run(&ScenarioId::Redlock.build(&ScenarioId::Redlock.defaults()));
        let l = Layout::new(1_000.0, &run, MIN_AXIS);
        assert_eq!(l.nodes, 5);
        assert!(l.top(Lane::Node(4)) < l.top(Lane::Lock) && l.top(Lane::Node(0)) > l.top(Lane::Worker(1)));
        let svg = lanes(&l, &run, None, None, t);
        assert_eq!(svg.matches(r#"class="lease w-a" x"#).count(), 3 + 1, "{svg}");
        assert_eq!(svg.matches(r#"class="lease w-b" x"#).count(), 3 + 1);
        let band = rect(&l, "paused", (2_000, 11_000), l.top(Lane::Node(2)) + 1.0);
        assert!(svg.contains(&band) && svg.contains(">clock +9 s</text>"));
        assert!(svg.contains(">A</text>") && !svg.contains("· 3") && !svg.contains(">33"));
        let names = lane_names(&l, &run, Who::Catalogue(ScenarioId::Redlock), t);
        assert!(["N1", "N5", "Majority"].iter().all(|n| names.contains(&format!(">{n}</text>"))));
        // The lab's figure marks its first paint, on its first name; a recording's figure does not.
        let marked = lab_lane_names(&l, &run, Who::Catalogue(ScenarioId::Redlock), t);
        assert_eq!(marked.matches("elementtiming").count(), 1);
        assert!(marked.starts_with(r#"<text elementtiming="figure" class="lane-label""#), "{marked}");
        assert_eq!(marked.replacen(r#" elementtiming="figure""#, "", 1), names);
        assert!(!whole(&run, Who::Catalogue(ScenarioId::Redlock), 720.0, MIN_AXIS, "", t)
            .contains("elementtiming"));

        // Failover: the primary's crash, the replica promoted empty, A's lost grant drawn on until it let go.
        let run = sim::run(&ScenarioId::Failover.build(&Inputs::default()));
        let l = Layout::new(1_000.0, &run, MIN_AXIS);
        let svg = lanes(&l, &run, None, None, t);
        assert!(svg.contains(">promoted, empty</text>") && svg.contains(">crash</text>"), "{svg}");
        assert!(svg.contains(&format!(
            r#"class="lease w-a" x="{}" y="{}""#,
            px(l.x(0)),
            px(l.top(Lane::Lock) + 26.0)
        )));
        let names = lane_names(&l, &run, Who::Catalogue(ScenarioId::Failover), t);
        assert!(names.contains(">Primary</text>") && names.contains(">Replica</text>"));
        // So does a recorded real failover, whose promotion and grant are a few ms apart.
        let recorded = crate::present::recordings::all()
            .into_iter()
            .find(|r| r.scenario == ScenarioId::Failover && !r.inputs.sync);
        let real = recorded.expect("a recorded failover").run();
        let lr = Layout::new(1_000.0, &real, MIN_AXIS);
        let a_row_1 = format!(
            r#"class="lease w-a" x="{}" y="{}""#,
            px(lr.x(real.trace.leases[0].held.from)),
            px(lr.top(Lane::Lock) + 26.0)
        );
        assert!(lanes(&lr, &real, None, None, t).contains(&a_row_1));
        let kept = sim::run(&ScenarioId::Failover.build(&Inputs { sync: true, ..Inputs::default() }));
        assert!(lanes(&l, &kept, None, None, t).contains(">promoted, with the key</text>"));

        // etcd: one lane for the group, a gap without a leader, the re-armed lease's end.
        let run =
            sim::run(&ScenarioId::Etcd.build(&Inputs { leader_crash: 5_000, ..ScenarioId::Etcd.defaults() }));
        let l = Layout::new(1_000.0, &run, MIN_AXIS);
        assert_eq!(l.nodes, 0);
        let svg = lanes(&l, &run, None, None, t);
        assert!(svg.contains(">no leader</text>") && svg.contains(r#"class="renew""#), "{svg}");
        assert!(lane_names(&l, &run, Who::Catalogue(ScenarioId::Etcd), t).contains(">etcd</text>"));
        // The purple band is the dragged input's.
        assert!(legend(t, Who::Catalogue(ScenarioId::Redlock)).contains(">N3's clock jump</li>"));
        assert!(legend(t, Who::Catalogue(ScenarioId::GcPause)).contains(">GC pause</li>"));
        assert!(legend(t, Who::Catalogue(ScenarioId::Etcd)).contains(">GC pause</li>"));
        // Nothing pauses in a failover or a job that runs long: no purple band to explain.
        for id in [ScenarioId::Failover, ScenarioId::UnsafeRelease, ScenarioId::Crash] {
            assert!(!legend(t, Who::Catalogue(id)).contains(r#"class="paused""#), "{id:?}");
            let run = sim::run(&id.build(&id.defaults()));
            let l = Layout::new(1_000.0, &run, MIN_AXIS);
            assert!(!lanes(&l, &run, None, None, t).contains(r#"class="paused""#), "{id:?}");
        }
    }

    #[test]
    fn px_rounds_to_tenths() {
        assert_eq!(px(12.34), "12.3");
        assert_eq!(px(12.35), "12.4");
        assert_eq!(px(0.0), "0.0");
        assert_eq!(px(-3.26), "-3.3");
        assert_eq!(px(700.0), "700.0");
    }

    #[test]
    fn the_rejected_write_shows_its_reason() {
        let svg = draw(15_000, true, None);
        assert_eq!(svg.matches(r#"class="write rejected w-a""#).count(), 1);
        assert!(svg.contains(">rejected 33 &lt; 34</text>"), "{svg}");
        assert!(svg.contains(">highest token seen: 34</text>"));
        let svg = draw(15_000, false, None);
        assert!(svg.contains(">33 accepted (overwrites 34)</text>"));
    }

    #[test]
    fn the_playhead_hides_what_has_not_happened() {
        let svg = draw(15_000, true, Some(12_000));
        assert!(svg.contains("34 accepted") && !svg.contains("rejected"));
        let svg = draw(15_000, true, Some(0));
        assert!(!svg.contains("class=\"write") && !svg.contains("waiting"));
        // The pause band is input: drawn whole, even at the start.
        let l = Layout::sized(1_000.0, 16_000, MIN_AXIS, 2, 0);
        let width = px(l.x(15_000) - l.x(0));
        assert!(svg.contains(&format!(
            r#"class="paused" x="{}" y="{}" width="{width}""#,
            px(l.x(0)),
            px(l.top(Lane::Worker(0)) + 18.0)
        )));
    }

    #[test]
    fn axis_labels_every_second_only_when_there_is_room() {
        let t = text(Lang::En);
        let wide = axis(&Layout::sized(1_400.0, 0, MIN_AXIS, 2, 0), t);
        let narrow = axis(&Layout::sized(360.0, 0, MIN_AXIS, 2, 0), t);
        assert_eq!(wide.matches("tick-label").count(), 31);
        assert_eq!(narrow.matches("tick-label").count(), 7);
        assert_eq!(narrow.matches("<line class=\"grid").count(), 31);
        assert!(narrow.contains(">0 s</text>"));
    }

    #[test]
    fn a_lease_end_is_marked_where_the_narration_puts_it() {
        // A new leader re-armed A's lease to 17 s; A woke at 15 s, its keepalive moved the end to 25 s and
        // it released at once: the end that mattered, and that the narration names, is 17 s.
        let (svg, said) = {
            let id = ScenarioId::Etcd;
            let i = Inputs { leader_crash: 5_000, ..id.defaults() };
            let sc = id.build(&i);
            let run = sim::run(&sc);
            let said = panels(Lang::En).narrate(&sc, &run);
            (lanes(&Layout::new(1_000.0, &run, MIN_AXIS), &run, None, None, text(Lang::En)), said)
        };
        assert!(said.contains("the new leader restarted A's lease, to 17 s"), "{said}");
        assert!(svg.contains(">lease ends 17 s</text>") && !svg.contains("lease ends 25 s"), "{svg}");
        // Re-armed, then run out during a longer pause: 17 s too.
        let svg = draw_in(ScenarioId::Etcd, |i| (i.leader_crash, i.pause) = (5_000, 20_000), None);
        assert!(svg.contains(">lease ends 17 s</text>"), "{svg}");
        // Without a crash, and in the base scenario, the grant's own end.
        assert!(draw_in(ScenarioId::Etcd, |_| {}, None).contains(">lease ends 10 s</text>"));
        assert!(draw(4_000, true, None).contains(">lease ends 10 s</text>"));
        // Redlock: A lost its majority at 2 s, when N3's key went; the mark stays where its validity ended.
        assert!(draw_in(ScenarioId::Redlock, |_| {}, None).contains(">lease ends 9.898 s</text>"));
    }

    #[test]
    fn a_recorded_lease_is_marked_where_the_service_took_it_back() {
        // Real etcd revokes an expired lease a little after its TTL (it looks every 500 ms of real time): the
        // mark and the lane end together, where the service took the lease back.
        let t = text(Lang::En);
        let recorded: Vec<_> = crate::present::recordings::all()
            .into_iter()
            .filter(|r| r.backend == "etcd" && r.scenario == ScenarioId::GcPause)
            .collect();
        assert!(!recorded.is_empty());
        for r in recorded {
            let run = r.run();
            let svg = whole(&run, Who::Catalogue(r.scenario), 720.0, MIN_AXIS, "etcd", t);
            let a = run.trace.leases.iter().find(|l| l.worker == 0).unwrap();
            assert_eq!(a.end, LeaseEnd::Expired);
            let to = a.held.to.unwrap();
            assert!(to > a.nominal_expiry, "{a:?}");
            assert!(svg.contains(&format!(">lease ends {} s</text>", seconds(to))), "{svg}");
            assert!(!svg.contains(&format!("lease ends {} s", seconds(a.nominal_expiry))), "{svg}");
        }
    }
}
