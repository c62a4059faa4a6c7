//! "Where does it change?": the reader drags a ghost marker to where the verdict flips, then the core's
//! outcome map shows the true boundary. The map is recomputed when lease or fencing change, not on drags.

use leptos::html;
use leptos::prelude::*;

use super::Lab;
use crate::geom::{pause_at, slider_key};
use crate::lesson::boundary;
use crate::sim::{outcome_map, Inputs, Ms, Scenario, MAX_PAUSE};

/// `t` as a CSS percentage of the 0–30 s strip (integer arithmetic: no float formatting in the bundle).
fn percent(t: Ms) -> String {
    let thousandths = t * 100_000 / MAX_PAUSE;
    format!("{}.{:03}%", thousandths / 1_000, thousandths % 1_000)
}

/// The challenge, with its own strip of the 0–30 s pause range.
#[component]
pub fn Challenge(lab: Lab) -> impl IntoView {
    // Everything but the pause: the map does not depend on where the band is dragged.
    let settings = Memo::new(move |_| Inputs { pause: 0, ..lab.inputs.get() });
    let map = Memo::new(move |_| outcome_map(&Scenario::base(&settings.get()), MAX_PAUSE));
    let target = move || map.with(|m| boundary(m));
    let guess = RwSignal::new(5_000);
    let checked = RwSignal::new(false);
    let dragging = RwSignal::new(false);
    let strip = NodeRef::<html::Div>::new();

    let from_pointer = move |ev: &web_sys::PointerEvent| {
        if let Some(el) = strip.get_untracked() {
            let rect = el.get_bounding_client_rect();
            let t = (ev.client_x() as f64 - rect.left()) / rect.width().max(1.0) * MAX_PAUSE as f64;
            guess.set(pause_at(t, 0));
        }
    };

    let segments = move || {
        checked.get().then(|| {
            map.get()
                .into_iter()
                .map(|seg| {
                    let width = percent(seg.to + 1 - seg.from);
                    view! {
                        <div
                            class="segment"
                            data-kind=seg.kind.name()
                            style:left=percent(seg.from)
                            style:width=width
                            title=move || lab.text().outcome_title(seg.kind)
                        >
                            <span>{move || lab.text().outcome_title(seg.kind)}</span>
                        </div>
                    }
                })
                .collect_view()
        })
    };
    let truth = move || {
        checked.get().then(|| {
            target()
                .map(|(t, _)| view! { <div class="truth" style:left=percent(t) aria-hidden="true"></div> })
        })
    };
    let result = move || {
        checked.get().then(|| match target() {
            Some((t, _)) => (lab.text().boundary_result)(guess.get(), t),
            None => lab.text().boundary_none.to_owned(),
        })
    };
    let question = move || match target() {
        Some((_, kind)) => (lab.text().boundary_question)(kind),
        None => lab.text().boundary_none.to_owned(),
    };

    view! {
        <section class="challenge" aria-labelledby="challenge-title">
            <h2 id="challenge-title">{move || lab.text().boundary_heading}</h2>
            <p>{question}</p>
            <div class="strip-wrap">
                <div class="strip" node_ref=strip role="img" aria-label=move || lab.text().outcome_map>
                    {segments}
                    {truth}
                    <div
                        class="ghost"
                        class:dragging=move || dragging.get()
                        role="slider"
                        tabindex="0"
                        aria-label=move || lab.text().ghost_name
                        aria-valuemin="0"
                        aria-valuemax=MAX_PAUSE.to_string()
                        aria-valuenow=move || guess.get().to_string()
                        aria-valuetext=move || (lab.text().ghost_value)(guess.get())
                        style:left=move || percent(guess.get())
                        on:keydown=move |ev: web_sys::KeyboardEvent| {
                            if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
                                return;
                            }
                            if let Some(v) = slider_key(&ev.key(), ev.shift_key(), guess.get_untracked()) {
                                ev.prevent_default();
                                guess.set(v);
                            }
                        }
                        on:pointerdown=move |ev: web_sys::PointerEvent| {
                            ev.prevent_default();
                            if let Some(el) = ev.current_target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok()) {
                                let _ = el.set_pointer_capture(ev.pointer_id());
                                let _ = el.focus();
                            }
                            dragging.set(true);
                        }
                        on:pointermove=move |ev: web_sys::PointerEvent| {
                            if dragging.get_untracked() {
                                from_pointer(&ev);
                            }
                        }
                        on:pointerup=move |_| dragging.set(false)
                        on:pointercancel=move |_| dragging.set(false)
                    >
                        <span class="ghost-label">{move || (lab.text().ghost_value)(guess.get())}</span>
                    </div>
                </div>
                <div class="strip-axis" aria-hidden="true">
                    <span>"0"</span>
                    <span>"10"</span>
                    <span>"20"</span>
                    <span>{move || format!("30 {}", lab.text().seconds_unit)}</span>
                </div>
            </div>
            <div class="challenge-actions">
                <button type="button" class="primary" on:click=move |_| checked.set(true)>
                    {move || lab.text().check}
                </button>
                <p class="boundary-result" aria-live="polite">{result}</p>
            </div>
        </section>
    }
}
