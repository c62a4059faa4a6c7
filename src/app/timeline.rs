//! The SVG timeline: one lane per actor, drawn from the trace, and the draggable right edge of A's pause.
//!
//! The SVG's user units are CSS pixels (its viewBox follows its measured width), so text stays legible
//! from a phone to a wide screen and a pointer's x maps straight onto the time axis.

use leptos::html;
use leptos::prelude::*;
use leptos::svg;
use wasm_bindgen::prelude::*;

use super::{effect, tx, Lab};
use crate::figure::{self, px as f, Lane, Layout, AXIS_H, WORKER_H};
use crate::geom::{drag_at, slider_key, MIN_AXIS, SHORT_AXIS};
use crate::scenarios::{Key, JUMP_NODE};
use crate::sim::Span;

/// The timeline figure.
#[component]
pub fn Timeline(lab: Lab) -> impl IntoView {
    let width = RwSignal::new(800.0);
    let wrap = NodeRef::<html::Div>::new();
    // Follow the box's own width (window resizes, iframes laid out late, fonts arriving).
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn Fn()>)>);
    effect(move || {
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

    let layout = Memo::new(move |_| {
        // Room to drag to the end of the input's range; a run with nothing to drag fills the width.
        let min = if lab.scenario.get().dragged().is_some() { MIN_AXIS } else { SHORT_AXIS };
        lab.run.with(|r| Layout::new(width.get(), r, min))
    });
    let svg_ref = NodeRef::<svg::Svg>::new();

    view! {
        <div class="timeline" node_ref=wrap>
            <svg
                node_ref=svg_ref
                role="group"
                aria-label=tx(lab, |t| t.figure_label)
                width=move || f(layout.get().width)
                height=move || f(layout.get().height())
                viewBox=move || format!("0 0 {} {}", f(layout.get().width), f(layout.get().height()))
            >
                <g class="axis" aria-hidden="true" inner_html=move || figure::axis(&layout.get(), lab.text())></g>
                <g
                    class="lane-labels"
                    inner_html=move || lab.run.with(|r| figure::lane_names(&layout.get(), r, lab.scenario.get(), lab.text()))
                ></g>
                <g
                    class="lanes"
                    inner_html=move || {
                        let (l, p) = (layout.get(), lab.shown_until());
                        // A's job is input, not trace: its band runs from the start to the dragged end.
                        let job = (lab.scenario.get().dragged() == Some(Key::Work))
                            .then(|| Span { from: 0, to: Some(lab.inputs.with(|i| i.work)) });
                        lab.run.with(|run| figure::lanes(&l, run, p, job, lab.text()))
                    }
                ></g>
                <Handle lab layout svg_ref/>
                <line
                    class="playhead"
                    hidden=move || lab.player.playhead.get().is_none() || !(lab.phase.get().revealed() || lab.player.playing.get())
                    transform=move || format!("translate({} 0)", f(layout.get().x(lab.player.playhead.get().unwrap_or(0))))
                    x1="0"
                    x2="0"
                    y1=f(AXIS_H - 6.0)
                    y2=move || f(layout.get().height() - 6.0)
                ></line>
            </svg>
            <Legend lab/>
        </div>
    }
}

/// What each mark means, drawn with the same classes as the timeline.
#[component]
fn Legend(lab: Lab) -> impl IntoView {
    view! { <ul class="legend" inner_html=move || figure::legend(lab.text())></ul> }
}

/// The right edge of the band the reader drags on A's lane (a pause, a write's time in the network, a job):
/// an ARIA slider moved by pointer (mouse, touch, pen) or keyboard.
#[component]
fn Handle(lab: Lab, layout: Memo<Layout>, svg_ref: NodeRef<svg::Svg>) -> impl IntoView {
    // The scenario's dragged input; a scenario without one hides the handle.
    let key = move || lab.scenario.get().dragged().unwrap_or(Key::Pause);
    let range = move || key().spec().range();
    let dragging = RwSignal::new(false);
    let value = move || lab.inputs.with(|i| key().spec().get(i));
    let origin = move || lab.inputs.with(|i| lab.scenario.get().drag_origin(i));
    let from_pointer = move |ev: &web_sys::PointerEvent| {
        let Some(svg) = svg_ref.get_untracked() else { return };
        let left = svg.get_bounding_client_rect().left();
        let t = layout.get_untracked().axis.t(ev.client_x() as f64 - left);
        let origin = lab.inputs.with_untracked(|i| lab.scenario.get_untracked().drag_origin(i));
        let key = lab.scenario.get_untracked().dragged().unwrap_or(Key::Pause);
        lab.set(key, drag_at(t, origin, key.spec().range()));
    };
    let x = move || layout.get().x(origin() + value());
    // A clock jump is dragged on its server's strip, centred on it; everything else on A's lane.
    let top = move || match key() {
        Key::Jump => layout.get().top(Lane::Node(JUMP_NODE)) - 23.0,
        _ => layout.get().top(Lane::Worker(0)),
    };

    view! {
        <g
            class="handle"
            class:dragging=move || dragging.get()
            id="pause-handle"
            role="slider"
            tabindex="0"
            hidden=move || lab.scenario.get().dragged().is_none()
            aria-label=move || (lab.text().handle_name)(key()).to_owned()
            aria-valuemin=move || range().0.to_string()
            aria-valuemax=move || range().1.to_string()
            aria-valuenow=move || value().to_string()
            aria-valuetext=move || (lab.text().handle_value)(key(), value(), origin() + value())
            aria-orientation="horizontal"
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
                    return;
                }
                if let Some(v) = slider_key(&ev.key(), ev.shift_key(), value(), range()) {
                    ev.prevent_default();
                    lab.set(key(), v);
                }
            }
            on:pointerdown=move |ev: web_sys::PointerEvent| {
                if ev.button() != 0 {
                    return;
                }
                ev.prevent_default();
                // Capture: moves and the release come to the handle wherever the pointer goes.
                if let Some(g) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::SvgElement>().ok()) {
                    let _ = g.set_pointer_capture(ev.pointer_id());
                    let _ = g.focus();
                }
                dragging.set(true);
                from_pointer(&ev);
            }
            on:pointermove=move |ev: web_sys::PointerEvent| {
                if dragging.get_untracked() {
                    from_pointer(&ev);
                }
            }
            on:pointerup=move |_| dragging.set(false)
            on:pointercancel=move |_| dragging.set(false)
        >
            // Drawn around (0, 0) and moved as one: a single attribute follows the drag.
            <g transform=move || format!("translate({} {})", f(x()), f(top()))>
                <rect class="grab" x="-22" y="-4" width="44" height=f(WORKER_H + 8.0)></rect>
                <rect class="focus-ring" x="-9" y="12" width="18" height="38" rx="5"></rect>
                <rect class="grip" x="-4" y="16" width="8" height="30" rx="3"></rect>
                <path class="grip-arrows" d="M-8 31 l-5 -4 v8 z M8 31 l5 -4 v8 z"></path>
            </g>
        </g>
    }
}
