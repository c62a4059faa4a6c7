//! The SVG timeline: one lane per actor, drawn from the trace, and the draggable right edge of A's pause.
//!
//! The SVG's user units are CSS pixels (its viewBox follows its measured width), so text stays legible
//! from a phone to a wide screen and a pointer's x maps straight onto the time axis.

use leptos::html;
use leptos::prelude::*;
use leptos::svg;
use wasm_bindgen::prelude::*;

use super::Lab;
use crate::figure::{self, px as f, Layout, AXIS_H, WORKER_H};
use crate::geom::{pause_at, slider_key};
use crate::sim::{Ms, MAX_PAUSE};
use crate::story::A;

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
                <g class="axis" aria-hidden="true" inner_html=move || figure::axis(&layout.get(), lab.text())></g>
                <g class="lane-labels" inner_html=move || figure::lane_names(&layout.get(), lab.text())></g>
                <g
                    class="lanes"
                    inner_html=move || {
                        let (l, p) = (layout.get(), lab.shown_until());
                        lab.run.with(|run| figure::lanes(&l, run, p, lab.text()))
                    }
                ></g>
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
    view! { <ul class="legend" inner_html=move || figure::legend(lab.text())></ul> }
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
            <rect class="grab" x=move || f(x() - 22.0) y=move || f(top() - 4.0) width="44" height=f(WORKER_H + 8.0)></rect>
            <rect class="focus-ring" x=move || f(x() - 9.0) y=move || f(top() + 12.0) width="18" height="38" rx="5"></rect>
            <rect class="grip" x=move || f(x() - 4.0) y=move || f(top() + 16.0) width="8" height="30" rx="3"></rect>
            <path class="grip-arrows" d=move || format!("M{} {} l-5 -4 v8 z M{} {} l5 -4 v8 z", f(x() - 8.0), f(top() + 31.0), f(x() + 8.0), f(top() + 31.0))></path>
        </g>
    }
}
