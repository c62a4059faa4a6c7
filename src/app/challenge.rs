//! "Where does it change?": the reader slides a marker to where they think the verdict flips, then the core's
//! outcome map over the scenario's dragged input shows the true boundary.
//!
//! The marker is a native range input over the strip (keyboard, touch and screen readers for free). The
//! map is a memo of the scenario and its switches, the dragged value at its smallest: dragging the main
//! band does not redo it.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::Lab;
use crate::present::geom::seconds;
use crate::present::lesson::boundary;
use crate::present::markup;
use crate::present::text::{panels, Varied};
use crate::scenarios::Key;
use crate::sim::{outcome_map_within, Ms, MAP_WORK};

/// What the challenge varies: the catalogue scenario's dragged input, or a script's dragged named value
/// (its name and range).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dragged {
    Input(Key),
    Named(String, Ms, Ms),
}

impl Dragged {
    /// What the lab on screen drags, if anything.
    pub fn of(lab: &Lab) -> Option<Dragged> {
        match lab.script_scenario() {
            Some(sc) => sc.dragged().map(|p| Dragged::Named(p.name.clone(), p.min, p.max)),
            None if lab.scripted() => None,
            None => lab.scenario.get().dragged().map(Dragged::Input),
        }
    }

    fn range(&self) -> (Ms, Ms) {
        match self {
            Dragged::Input(key) => key.spec().range(),
            Dragged::Named(_, min, max) => (*min, *max),
        }
    }

    fn varied(&self) -> Varied<'_> {
        match self {
            Dragged::Input(key) => Varied::Input(*key),
            Dragged::Named(name, ..) => Varied::Named(name),
        }
    }
}

/// The challenge over the dragged value, with its own strip of the value's range.
#[component]
pub fn Challenge(dragged: Dragged) -> impl IntoView {
    let lab = super::lab();
    let (min, max) = dragged.range();
    let p = move || panels(lab.lang.get());
    // A start on the marker's own 0.1 s steps.
    let guess = RwSignal::new(min + (max - min) / 6 / 100 * 100);
    let checked = RwSignal::new(false);
    // The map for the current settings (everything but the dragged value), and its boundary.
    let settings = Memo::new(move |_| {
        let mut settings = match lab.script_scenario() {
            Some(sc) => sc,
            None => lab.scenario.get().build(&lab.inputs.get()),
        };
        settings.set_drag(min);
        settings
    });
    // None when it would hold the page too long: the challenge then says so instead of asking.
    let map = Memo::new(move |_| settings.with(|s| outcome_map_within(s, min..=max, MAP_WORK)));
    let mapped = move || map.with(Option::is_some);
    let b = Memo::new(move |_| map.with(|m| m.as_deref().and_then(boundary)));
    let question = move || {
        let t = p();
        match (mapped(), b.get()) {
            (false, _) => t.boundary_too_long.to_owned(),
            (true, None) => t.boundary_none.to_owned(),
            (true, Some(b)) => (t.boundary_question)(dragged.varied(), b.kind),
        }
    };
    let result = move || {
        let t = p();
        match (checked.get(), b.get()) {
            (false, _) => String::new(),
            (true, Some(b)) => (t.boundary_result)(guess.get(), &b),
            (true, None) => t.boundary_none.to_owned(),
        }
    };
    // The strip, a figure part drawn whole once the reader has checked.
    let strip = move || {
        if !checked.get() {
            return String::new();
        }
        map.with(|m| m.as_ref().map(|m| markup::strip(m, (min, max), b.get().map(|b| b.at), p().text)))
            .unwrap_or_default()
    };
    let on_input = move |ev: web_sys::Event| {
        let value =
            ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).map(|i| i.value());
        guess.set(value.and_then(|v| v.parse().ok()).unwrap_or(min));
    };
    view! {
        <section class="challenge" aria-labelledby="challenge-title">
            <h2 id="challenge-title">{move || p().boundary_heading}</h2>
            <p class="question">{question}</p>
            <div class="strip-wrap" hidden=move || !mapped()>
                <div class="strip" role="img" aria-label=move || (p().outcome_map)(min, max) inner_html=strip></div>
                <input type="range" class="ghost" min=min max=max step="100" value=guess.get_untracked()
                    aria-valuetext=move || (p().ghost_value)(guess.get()) aria-label=move || p().ghost_name
                    on:input=on_input/>
                <div class="strip-axis" aria-hidden="true">
                    <span>{seconds(min)}</span>
                    <span class="ghost-label">{move || (p().ghost_value)(guess.get())}</span>
                    <span class="axis-end">{move || (p().text.playhead)(max)}</span>
                </div>
            </div>
            <div class="challenge-actions" hidden=move || !mapped()>
                <button type="button" class="primary" on:click=move |_| checked.set(true)>{move || p().check}</button>
                <p class="boundary-result" aria-live="polite">{result}</p>
            </div>
        </section>
    }
}
