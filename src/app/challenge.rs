//! "Where does it change?": the reader slides a marker to where they think the verdict flips, then the core's
//! outcome map over the scenario's dragged input shows the true boundary.
//!
//! The marker is a native range input over the strip (keyboard, touch and screen readers for free). The
//! map is computed once per scenario and switch setting and kept: dragging the main band does not redo it.

use leptos::prelude::*;

use super::{tx, Lab};
use crate::geom::seconds;
use crate::lesson::{boundary, Boundary};
use crate::markup;
use crate::scenarios::{Inputs, Key, ScenarioId};
use crate::sim::{outcome_map, Segment};

/// The outcome map of the settings it was computed for.
type Cached = ((ScenarioId, Inputs), Vec<Segment>);

/// The challenge over the dragged input `key`, with its own strip of the input's range.
#[component]
pub fn Challenge(lab: Lab, key: Key) -> impl IntoView {
    let spec = key.spec();
    let (min, max) = spec.range();
    let cache = StoredValue::new_local(None::<Cached>);
    // The map for the current settings (everything but the dragged value), and its boundary.
    let with_map = move |f: &mut dyn FnMut(&[Segment], Option<Boundary>)| {
        let mut settings = lab.inputs.get();
        let _ = spec.set(&mut settings, min);
        let settings = (lab.scenario.get(), settings);
        if cache.with_value(|c| c.as_ref().map(|c| c.0)) != Some(settings) {
            let map = outcome_map(&settings.0.build(&settings.1), min..=max);
            cache.set_value(Some((settings, map)));
        }
        cache.with_value(|c| {
            let map = c.as_ref().map_or(&[][..], |c| &c.1[..]);
            f(map, boundary(map));
        });
    };
    // A start on the marker's own 0.1 s steps.
    let guess = RwSignal::new(min + (max - min) / 6 / 100 * 100);
    let checked = RwSignal::new(false);
    let question = move || {
        let mut out = String::new();
        with_map(&mut |_, b| {
            out = match b {
                Some(b) => (lab.text().boundary_question)(key, b.kind),
                None => lab.text().boundary_none.to_owned(),
            }
        });
        out
    };
    let strip = move || {
        let mut out = String::new();
        if checked.get() {
            with_map(&mut |map, b| out = markup::strip(map, max, b.map(|b| b.at), lab.text()));
        }
        out
    };
    let result = move || {
        let mut out = String::new();
        if checked.get() {
            with_map(&mut |_, b| {
                out = match b {
                    Some(b) => (lab.text().boundary_result)(guess.get(), &b),
                    None => lab.text().boundary_none.to_owned(),
                }
            });
        }
        out
    };

    view! {
        <section class="challenge" aria-labelledby="challenge-title">
            <h2 id="challenge-title">{tx(lab, |t| t.boundary_heading)}</h2>
            <p>{question}</p>
            <div class="strip-wrap">
                <div class="strip" role="img" aria-label=move || (lab.text().outcome_map)(key, max) inner_html=strip></div>
                <input
                    type="range"
                    class="ghost"
                    min=min.to_string()
                    max=max.to_string()
                    step="100"
                    aria-label=tx(lab, |t| t.ghost_name)
                    aria-valuetext=move || (lab.text().ghost_value)(guess.get())
                    prop:value=move || guess.get().to_string()
                    on:input=move |ev| guess.set(event_target_value(&ev).parse().unwrap_or(min))
                />
                <div class="strip-axis" aria-hidden="true">
                    <span>{seconds(min)}</span>
                    <span class="ghost-label">{move || (lab.text().ghost_value)(guess.get())}</span>
                    <span>{move || (lab.text().playhead)(max)}</span>
                </div>
            </div>
            <div class="challenge-actions">
                <button type="button" class="primary" on:click=move |_| checked.set(true)>
                    {tx(lab, |t| t.check)}
                </button>
                <p class="boundary-result" aria-live="polite">{result}</p>
            </div>
        </section>
    }
}
