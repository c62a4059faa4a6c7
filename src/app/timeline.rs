//! The SVG timeline: one lane per actor, drawn from the trace, and the draggable right edge of A's pause.
//!
//! The SVG's user units are CSS pixels (its viewBox follows its measured width), so text stays legible
//! from a phone to a wide screen and a pointer's x maps straight onto the time axis.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use leptos::svg;
use wasm_bindgen::prelude::*;

use super::Lab;
use crate::geom::{pause_at, seconds, slider_key, stagger, text_width, Axis};
use crate::sim::{EventKind, LeaseEnd, Ms, Run, Span, MAX_PAUSE};
use crate::story::A;

/// Vertical layout, in px.
#[derive(Clone, Copy, PartialEq)]
struct Layout {
    width: f64,
    /// Lane labels sit left of the lanes (wide) or above them (narrow).
    wide: bool,
    axis: Axis,
}

const AXIS_H: f64 = 30.0;
const WORKER_H: f64 = 58.0;
const LOCK_H: f64 = 44.0;
const STORAGE_H: f64 = 92.0;
const LABEL_H: f64 = 16.0;

impl Layout {
    fn new(width: f64, trace_end: Ms) -> Layout {
        let wide = width >= 600.0;
        let x0 = if wide { 132.0 } else { 14.0 };
        Layout { width, wide, axis: Axis::new(trace_end, x0, width - 18.0) }
    }

    fn label_gap(&self) -> f64 {
        if self.wide {
            0.0
        } else {
            LABEL_H
        }
    }

    /// Top of lane `i` (0, 1: workers; 2: lock; 3: storage).
    fn lane_top(&self, i: usize) -> f64 {
        let heights = [WORKER_H, WORKER_H, LOCK_H, STORAGE_H];
        AXIS_H + heights[..i].iter().map(|h| h + self.label_gap()).sum::<f64>() + self.label_gap()
    }

    fn lane_height(i: usize) -> f64 {
        [WORKER_H, WORKER_H, LOCK_H, STORAGE_H][i]
    }

    fn height(&self) -> f64 {
        self.lane_top(3) + STORAGE_H + 10.0
    }

    fn x(&self, t: Ms) -> f64 {
        self.axis.x(t)
    }

    /// x of a span's end, clipped to the playhead and to the axis.
    fn x_end(&self, to: Option<Ms>, playhead: Option<Ms>) -> f64 {
        let end = to.unwrap_or(self.axis.t_end).min(self.axis.t_end);
        self.x(playhead.map_or(end, |p| end.min(p)))
    }
}

fn f(v: f64) -> String {
    format!("{v:.1}")
}

/// The part of a span shown with the playhead at `p`: `None` if it has not begun yet.
fn shown(span: Span, p: Option<Ms>) -> Option<Span> {
    p.is_none_or(|p| span.from <= p).then_some(span)
}

fn visible(at: Ms, p: Option<Ms>) -> bool {
    p.is_none_or(|p| at <= p)
}

/// A bar for a span on a lane.
fn bar(l: &Layout, span: Span, p: Option<Ms>, y: f64, h: f64, class: &'static str) -> impl IntoView {
    let x = l.x(span.from);
    let w = (l.x_end(span.to, p) - x).max(0.0);
    view! { <rect class=class x=f(x) y=f(y) width=f(w) height=f(h) rx="3"></rect> }
}

/// The timeline figure.
#[component]
pub fn Timeline(lab: Lab) -> impl IntoView {
    let width = RwSignal::new(800.0);
    let wrap = NodeRef::<html::Div>::new();
    // Follow the box's own width (window resizes, iframes laid out late, fonts arriving).
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn Fn()>)>);
    Effect::new(move |_| {
        let Some(el) = wrap.get() else { return };
        let measured = el.clone();
        let measure = Closure::<dyn Fn()>::new(move || {
            let w = measured.client_width() as f64;
            if w > 0.0 && w != width.get_untracked() {
                width.set(w);
            }
        });
        if let Ok(ro) = web_sys::ResizeObserver::new(measure.as_ref().unchecked_ref()) {
            ro.observe(&el);
            observer.set_value(Some((ro, measure)));
        }
    });
    on_cleanup(move || {
        observer.try_with_value(|o| o.as_ref().map(|(ro, _)| ro.disconnect()));
    });

    let layout = Memo::new(move |_| Layout::new(width.get(), lab.run.with(|r| r.trace.end)));
    let svg_ref = NodeRef::<svg::Svg>::new();

    view! {
        <div class="timeline" node_ref=wrap>
            <svg
                node_ref=svg_ref
                role="group"
                aria-label=move || lab.text().figure_label
                width=move || f(layout.get().width)
                height=move || f(layout.get().height())
                viewBox=move || format!("0 0 {} {}", f(layout.get().width), f(layout.get().height()))
            >
                <Axis lab layout/>
                {move || {
                    let l = layout.get();
                    let p = lab.shown_until();
                    lab.run.with(|run| lanes(&lab, &l, run, p))
                }}
                <Handle lab layout svg_ref/>
                {move || {
                    let l = layout.get();
                    lab.player.playhead.get().filter(|_| lab.phase.get().revealed() || lab.player.playing.get()).map(|p| {
                        let x = f(l.x(p));
                        view! {
                            <line class="playhead" x1=x.clone() x2=x y1=f(AXIS_H - 6.0) y2=f(l.height() - 6.0)></line>
                        }
                    })
                }}
            </svg>
            <Legend lab/>
        </div>
    }
}

/// What each mark means, drawn with the same classes as the timeline.
#[component]
fn Legend(lab: Lab) -> impl IntoView {
    let item = move |swatch: AnyView, label: fn(&Lab) -> &'static str| {
        view! {
            <li>
                <svg width="26" height="14" viewBox="0 0 26 14" aria-hidden="true">{swatch}</svg>
                {move || label(&lab)}
            </li>
        }
    };
    view! {
        <ul class="legend">
            {item(view! { <rect class="belief" x="1" y="2" width="24" height="10" rx="3"></rect> }.into_any(), |l| l.text().believes)}
            {item(view! { <rect class="mistaken" x="1" y="2" width="24" height="10" rx="3"></rect> }.into_any(), |l| l.text().false_belief)}
            {item(view! { <rect class="paused" x="1" y="1" width="24" height="12" rx="3"></rect> }.into_any(), |l| l.text().paused)}
            {item(view! { <rect class="waiting" x="1" y="3" width="24" height="8" rx="3"></rect> }.into_any(), |l| l.text().waiting)}
            {item(view! { <rect class="lease w-a" x="1" y="2" width="24" height="10" rx="3"></rect> }.into_any(), |l| l.text().holds)}
        </ul>
    }
}

/// Second ticks, labels and faint grid lines, and the lane names.
#[component]
fn Axis(lab: Lab, layout: Memo<Layout>) -> impl IntoView {
    move || {
        let l = layout.get();
        let t = lab.text();
        let ticks = l
            .axis
            .ticks(if l.wide { 34.0 } else { 30.0 })
            .map(|(at, labelled)| {
                let x = f(l.x(at));
                // The unit rides on the first label, anchored left, where it has room.
                let first = at == 0;
                let label = labelled.then(|| {
                    let text = if first { format!("{} {}", seconds(at), t.seconds_unit) } else { seconds(at) };
                    let x = if first { f(l.x(at) - 3.0) } else { x.clone() };
                    view! {
                        <text class="tick-label" x=x y="14" text-anchor=if first { "start" } else { "middle" }>
                            {text}
                        </text>
                    }
                });
                let class = if labelled { "grid major" } else { "grid" };
                view! {
                    <line
                        class=class
                        data-t=at.to_string()
                        x1=x.clone()
                        x2=x
                        y1=f(AXIS_H - 10.0)
                        y2=f(l.height() - 8.0)
                    ></line>
                    {label}
                }
            })
            .collect_view();
        let names = [(t.worker)("A"), (t.worker)("B"), t.lock_service.to_owned(), t.storage.to_owned()];
        let labels = names
            .into_iter()
            .enumerate()
            .map(|(i, name)| {
                let top = l.lane_top(i);
                let (x, y) = if l.wide {
                    (8.0, top + Layout::lane_height(i) / 2.0 + 4.0)
                } else {
                    (l.axis.x0, top - 4.0)
                };
                view! { <text class="lane-label" x=f(x) y=f(y)>{name}</text> }
            })
            .collect_view();
        view! {
            <g class="axis" aria-hidden="true">{ticks}</g>
            <g class="lane-labels">{labels}</g>
        }
    }
}

/// Everything drawn from the trace: worker lanes, lock service, storage.
fn lanes(lab: &Lab, l: &Layout, run: &Run, p: Option<Ms>) -> impl IntoView {
    let t = lab.text();
    let mut out = Vec::new();

    for (w, lane) in run.trace.workers.iter().enumerate().take(2) {
        let top = l.lane_top(w);
        let belief_y = top + 4.0;
        let act_y = top + 18.0;
        let class_w = if w == A { "w-a" } else { "w-b" };
        for &(span, token) in &lane.believing {
            if let Some(s) = shown(span, p) {
                out.push(bar(l, s, p, belief_y, 10.0, "belief").into_any());
                out.push(
                    view! {
                        <text class=format!("belief-label {class_w}") x=f(l.x(s.from) + 4.0) y=f(belief_y + 9.0)>
                            {format!("{token}")}
                        </text>
                    }
                    .into_any(),
                );
            }
        }
        for &span in &lane.mistaken {
            if let Some(s) = shown(span, p) {
                out.push(bar(l, s, p, belief_y, 10.0, "mistaken").into_any());
            }
        }
        for &span in &lane.waiting {
            if let Some(s) = shown(span, p) {
                out.push(bar(l, s, p, act_y + 6.0, 14.0, "waiting").into_any());
            }
        }
        // The pause is the learner's input, not an outcome: always drawn whole, so it can be dragged.
        for &s in &lane.paused {
            out.push(bar(l, s, None, act_y, 26.0, "paused").into_any());
            let x = l.x(s.from) + 6.0;
            if l.x_end(s.to, None) - x > 60.0 {
                let label = view! { <text class="paused-label" x=f(x) y=f(act_y + 17.0)>{t.paused}</text> };
                out.push(label.into_any());
            }
        }
        // Point events on the worker's lane.
        for e in run.trace.events.iter().filter(|e| visible(e.at, p)) {
            let x = l.x(e.at);
            match e.kind {
                EventKind::Request { worker } if worker == w => out.push(
                    view! { <circle class=format!("request {class_w}") cx=f(x) cy=f(act_y + 13.0) r="4"></circle> }
                        .into_any(),
                ),
                EventKind::Release { worker, .. } if worker == w => out.push(
                    view! {
                        <path
                            class=format!("release {class_w}")
                            d=format!("M{} {} v18 m-5 0 h10", f(x), f(act_y + 4.0))
                        ></path>
                    }
                    .into_any(),
                ),
                _ => {}
            }
        }
    }

    // The lock service: who holds the lock when, with the token and the lease's end.
    let top = l.lane_top(2);
    for (i, lease) in run.trace.leases.iter().enumerate() {
        let Some(s) = shown(lease.held, p) else { continue };
        let class_w = if lease.worker == A { "w-a" } else { "w-b" };
        out.push(
            bar(l, s, p, top + 8.0, 22.0, if lease.worker == A { "lease w-a" } else { "lease w-b" })
                .into_any(),
        );
        let name = &run.trace.workers[lease.worker].name;
        out.push(
            view! {
                <text class=format!("lease-label {class_w}") x=f(l.x(s.from) + 5.0) y=f(top + 23.0)>
                    {format!("{name} · {}", lease.token)}
                </text>
            }
            .into_any(),
        );
        let mark = lease.end == LeaseEnd::Expired || i == 0;
        if mark && lease.nominal_expiry <= l.axis.t_end {
            let x = f(l.x(lease.nominal_expiry));
            let label = if lease.enforced {
                (t.lease_ends)(lease.nominal_expiry)
            } else {
                (t.lease_would_end)(lease.nominal_expiry)
            };
            let class = if lease.enforced { "expiry" } else { "expiry off" };
            out.push(
                view! {
                    <g class=class>
                        <line x1=x.clone() x2=x.clone() y1=f(l.lane_top(0) - 2.0) y2=f(top + 40.0)></line>
                        <text class="expiry-label" x=x y=f(top + 41.0) text-anchor="middle">{label}</text>
                    </g>
                }
                .into_any(),
            );
        }
    }

    // The storage: each write arriving with its token, accepted or rejected, and the highest token seen.
    let top = l.lane_top(3);
    let writes: Vec<_> = run.trace.writes.iter().filter(|wr| visible(wr.at, p)).collect();
    let notes: Vec<String> = writes
        .iter()
        .map(|wr| {
            let token = wr.token.map_or_else(|| "-".into(), |t| t.to_string());
            match (wr.accepted, wr.highest_before) {
                (false, Some(h)) => format!("{} {token} < {h}", t.rejected),
                (false, None) => t.rejected.to_owned(),
                (true, Some(h)) if wr.token < Some(h) => {
                    format!("{token} {} ({})", t.accepted, (t.overwrites)(h))
                }
                (true, _) => format!("{token} {}", t.accepted),
            }
        })
        .collect();
    let rows = stagger(
        &writes.iter().zip(&notes).map(|(wr, note)| (l.x(wr.at), text_width(note))).collect::<Vec<_>>(),
        8.0,
    );
    let mut highest: Option<u64> = None;
    for ((wr, note), row) in writes.iter().zip(notes).zip(rows) {
        let x = l.x(wr.at);
        let from_y = l.lane_top(wr.worker) + 30.0;
        let class_w = if wr.worker == A { "w-a" } else { "w-b" };
        let overwrote = matches!((wr.token, wr.highest_before), (Some(t), Some(h)) if t < h);
        let (mark, class) = match (wr.accepted, overwrote) {
            (true, false) => ("✓", "write accepted"),
            (true, true) => ("✓", "write accepted overwrote"),
            (false, _) => ("✗", "write rejected"),
        };
        let label_y = top + 48.0 + row as f64 * 15.0;
        out.push(
            view! {
                <g class=format!("{class} {class_w}")>
                    <line class="write-arrow" x1=f(l.x(wr.sent)) x2=f(x) y1=f(from_y) y2=f(top + 8.0)></line>
                    <circle cx=f(x) cy=f(top + 20.0) r="11"></circle>
                    <text class="write-mark" x=f(x) y=f(top + 25.0) text-anchor="middle">{mark}</text>
                    <text class="write-token" x=f(x) y=f(label_y) text-anchor="middle">{note}</text>
                </g>
            }
            .into_any(),
        );
        if wr.accepted {
            highest = highest.max(wr.token);
        }
    }
    if let Some(h) = highest {
        out.push(
            view! {
                <text class="highest" x=f(l.axis.x1) y=f(top + STORAGE_H - 4.0) text-anchor="end">
                    {format!("{}: {h}", t.highest)}
                </text>
            }
            .into_any(),
        );
    }
    out.collect_view()
}

/// The right edge of A's pause band: an ARIA slider moved by pointer (mouse, touch, pen) or keyboard.
#[component]
fn Handle(lab: Lab, layout: Memo<Layout>, svg_ref: NodeRef<svg::Svg>) -> impl IntoView {
    let inputs = lab.inputs;
    let dragging = RwSignal::new(false);
    let pause = move || inputs.with(|i| i.pause);
    let start = move || inputs.with(|i| i.pause_start);
    let set_pause = move |v: Ms| {
        if v != inputs.with_untracked(|i| i.pause) {
            inputs.update(|i| i.pause = v.min(MAX_PAUSE));
        }
    };
    let from_pointer = move |ev: &web_sys::PointerEvent| {
        let Some(svg) = svg_ref.get_untracked() else { return };
        let left = svg.get_bounding_client_rect().left();
        let t = layout.get_untracked().axis.t(ev.client_x() as f64 - left);
        set_pause(pause_at(t, inputs.with_untracked(|i| i.pause_start)));
    };
    let x = move || layout.get().x(start() + pause());
    let top = move || layout.get().lane_top(A);

    view! {
        <g
            class="handle"
            class:dragging=move || dragging.get()
            id="pause-handle"
            role="slider"
            tabindex="0"
            aria-label=move || lab.text().handle_name
            aria-valuemin="0"
            aria-valuemax=MAX_PAUSE.to_string()
            aria-valuenow=move || pause().to_string()
            aria-valuetext=move || (lab.text().handle_value)(pause(), start() + pause())
            aria-orientation="horizontal"
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
                    return;
                }
                if let Some(v) = slider_key(&ev.key(), ev.shift_key(), pause()) {
                    ev.prevent_default();
                    set_pause(v);
                }
            }
            on:pointerdown=move |ev: web_sys::PointerEvent| {
                if ev.button() != 0 {
                    return;
                }
                ev.prevent_default();
                if let Some(el) = svg_ref.get_untracked() {
                    let _ = el.set_pointer_capture(ev.pointer_id());
                }
                dragging.set(true);
                if let Some(g) = ev.current_target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::SvgElement>(t).ok()) {
                    let _ = g.focus();
                }
                from_pointer(&ev);
            }
        >
            <rect class="grab" x=move || f(x() - 22.0) y=move || f(top() - 4.0) width="44" height=f(WORKER_H + 8.0)></rect>
            <rect class="focus-ring" x=move || f(x() - 9.0) y=move || f(top() + 12.0) width="18" height="38" rx="5"></rect>
            <rect class="grip" x=move || f(x() - 4.0) y=move || f(top() + 16.0) width="8" height="30" rx="3"></rect>
            <path class="grip-arrows" d=move || format!("M{} {} l-5 -4 v8 z M{} {} l5 -4 v8 z", f(x() - 8.0), f(top() + 31.0), f(x() + 8.0), f(top() + 31.0))></path>
        </g>
        <DragTracker svg_ref dragging from_pointer/>
    }
}

/// Pointer moves and ups go to the captured SVG, so the drag follows the pointer anywhere on screen.
#[component]
fn DragTracker(
    svg_ref: NodeRef<svg::Svg>,
    dragging: RwSignal<bool>,
    from_pointer: impl Fn(&web_sys::PointerEvent) + Copy + 'static,
) -> impl IntoView {
    let moved = window_event_listener(ev::pointermove, move |ev| {
        if dragging.get_untracked() {
            from_pointer(&ev);
        }
    });
    let end = move |ev: web_sys::PointerEvent| {
        if dragging.get_untracked() {
            dragging.set(false);
            if let Some(el) = svg_ref.get_untracked() {
                let _ = el.release_pointer_capture(ev.pointer_id());
            }
        }
    };
    let up = window_event_listener(ev::pointerup, end);
    let cancel = window_event_listener(ev::pointercancel, end);
    on_cleanup(move || {
        moved.remove();
        up.remove();
        cancel.remove();
    });
}
