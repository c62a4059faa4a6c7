//! "Where does it change?": the reader slides a marker to where they think the verdict flips, then the core's
//! outcome map over the scenario's dragged input shows the true boundary.
//!
//! The marker is a native range input over the strip (keyboard, touch and screen readers for free). The
//! map is computed once per scenario and switch setting and kept: dragging the main band does not redo it.
//! Static markup that one effect fills in and two listeners serve: each reactive view closure of its own
//! type would cost the bundle more than the whole challenge.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::dom;
use super::{data_of, effect, say, Lab};
use crate::present::lesson::boundary;
use crate::present::markup;
use crate::present::params::Lang;
use crate::present::text::{panels, Varied};
use crate::scenarios::Key;
use crate::sim::{outcome_map, Ms, Scenario, Segment};

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

/// The outcome map of the scenario it was computed for (the dragged value at its smallest: a drag does not
/// change it), and the language and check the strip was last drawn with.
type Cached = (Scenario, Vec<Segment>, Option<(Lang, bool)>);

/// The challenge over the dragged value, with its own strip of the value's range.
#[component]
pub fn Challenge(lab: Lab, dragged: Dragged) -> impl IntoView {
    let (min, max) = dragged.range();
    let cache = StoredValue::new_local(None::<Cached>);
    // A start on the marker's own 0.1 s steps.
    let guess = StoredValue::new(min + (max - min) / 6 / 100 * 100);
    let checked = StoredValue::new(false);
    let changed = Trigger::new();
    let root = NodeRef::<html::Section>::new();
    let framed = StoredValue::new(None::<Lang>);
    let dragged = StoredValue::new(dragged);

    effect(move || {
        changed.track();
        // The map for the current settings (everything but the dragged value), and its boundary.
        let mut settings = match lab.script_scenario() {
            Some(sc) => sc,
            None => lab.scenario.get().build(&lab.inputs.get()),
        };
        settings.set_drag(min);
        let lang = lab.lang.get();
        let t = panels(lang);
        let Some(root) = root.get() else { return };
        // The frame in the page's language; the marker keeps the reader's guess.
        if framed.get_value() != Some(lang) {
            framed.set_value(Some(lang));
            root.set_inner_html(&markup::challenge(t, min, max, guess.get_value()));
        }
        if cache.with_value(|c| c.as_ref().map(|c| c.0 != settings)).unwrap_or(true) {
            let map = outcome_map(&settings, min..=max);
            cache.set_value(Some((settings, map, None)));
        }
        let (guess, checked) = (guess.get_value(), checked.get_value());
        cache.update_value(|c| {
            let redraw = c.as_mut().is_some_and(|c| c.2.replace((lang, checked)) != Some((lang, checked)));
            let map = c.as_ref().map_or(&[][..], |c| &c.1[..]);
            let b = boundary(map);
            let question = dragged.with_value(|d| b.map(|b| (t.boundary_question)(d.varied(), b.kind)));
            say(&root, dom::QUESTION, &question.unwrap_or_else(|| t.boundary_none.to_owned()));
            let result = match (checked, b) {
                (false, _) => String::new(),
                (true, Some(b)) => (t.boundary_result)(guess, &b),
                (true, None) => t.boundary_none.to_owned(),
            };
            say(&root, dom::BOUNDARY_RESULT, &result);
            say(&root, dom::GHOST_LABEL, &(t.ghost_value)(guess));
            say(&root, dom::AXIS_END, &(t.text.playhead)(max));
            let strip = root.query_selector(dom::STRIP).ok().flatten();
            if let Some(strip) = strip.filter(|_| redraw) {
                strip.set_attribute("aria-label", &(t.outcome_map)(min, max)).ok();
                let drawn = if checked {
                    markup::strip(map, (min, max), b.map(|b| b.at), t.text)
                } else {
                    String::new()
                };
                strip.set_inner_html(&drawn);
            }
            if let Some(ghost) = root.query_selector(dom::GHOST).ok().flatten() {
                ghost.set_attribute("aria-valuetext", &(t.ghost_value)(guess)).ok();
                ghost.set_attribute("aria-label", t.ghost_name).ok();
            }
        });
    });
    let on_input = move |ev: web_sys::Event| {
        let value =
            ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).map(|i| i.value());
        guess.set_value(value.and_then(|v| v.parse().ok()).unwrap_or(min));
        changed.notify();
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if data_of(&ev, "data-check").is_some() {
            checked.set_value(true);
            changed.notify();
        }
    };

    // One element, its content markup: a view per part would cost the bundle more than the challenge.
    view! {
        <section class="challenge" aria-labelledby="challenge-title" node_ref=root on:input=on_input on:click=on_click></section>
    }
}
