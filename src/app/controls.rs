//! The toggles (lease expiry, fencing), the pause readout and the language switch.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::dom;
use super::{effect, say, Lab};
use crate::present::markup;
use crate::present::params::Lang;
use crate::scenarios::{Key, ScenarioId};
use crate::sim::{Ms, Scenario};

/// The scenario's switches (markup from [`markup::toggles`], drawn afresh for a new scenario, language or
/// lease length, not for each flip: a flip redrawn would take the reader's focus away), the readout of its
/// dragged value, and what the two safety devices protect. One element whose content is markup, one effect,
/// one listener for every switch: a view per part would cost the bundle more.
#[component]
pub fn Toggles(lab: Lab) -> impl IntoView {
    let on_change = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        // A slider's change ends its drag (on_input has taken its value): the hand lets go.
        if input.type_() != "checkbox" {
            return lab.settle();
        }
        // Redlock's fencing is shown, focusable and explained, but cannot be turned on.
        if input.get_attribute("aria-disabled").is_some() {
            return input.set_checked(false);
        }
        let id = input.id();
        if lab.script.with_untracked(Option::is_some) {
            // A script's switch edits its line of the script.
            let setting = if id == "lease" { "expiry" } else { id.as_str() };
            return lab.script_switch(setting, input.checked());
        }
        if let Some(key) = Key::from_name(&id) {
            lab.set(key, key.spec().switched(input.checked()));
        }
    };
    // A script's slider edits its named value where the script defines it.
    let on_input = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        let i = input.id().strip_prefix("value-").and_then(|i| i.parse::<usize>().ok());
        if let (Some(i), Ok(v)) = (i, input.value().parse::<Ms>()) {
            // A step of the slider's drag: the words wait for the hand (`rest`).
            lab.restless();
            lab.script_value(i, v);
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if super::data_of(&ev, "data-edit-script").is_some() {
            lab.edit_script();
        }
    };
    let root = NodeRef::<html::Div>::new();
    let framed = StoredValue::new(None::<(ScenarioId, Lang, Ms, Ms)>);
    // A script's controls, drawn for its settings and named values (not for each value's change).
    let script_framed = StoredValue::new(None::<(Lang, Scenario)>);
    effect(move || {
        // Drawn once the reader's hand rests (`rest`).
        if !lab.calm() {
            return;
        }
        let (id, i, lang) = (lab.scenario.get(), lab.inputs.get(), lab.lang.get());
        let Some(root) = root.get() else { return };
        let t = lab.text();
        if let Some(sc) = lab.script.with(|s| s.as_ref().map(|s| s.scenario.clone())) {
            framed.set_value(None);
            // A script that never read has no settings to show: only the way back to its editor.
            let Some(sc) = sc else {
                script_framed.set_value(None);
                let row = markup::edit_row(t);
                if root.inner_html() != row {
                    root.set_inner_html(&row);
                }
                return;
            };
            // What the frame shows: the settings and the names and ranges of the values, not the values.
            let mut shape = sc.clone();
            shape.params.iter_mut().for_each(|p| p.value = 0);
            shape.workers.clear();
            let key = (lang, shape);
            if script_framed.with_value(|f| f.as_ref() != Some(&key)) {
                script_framed.set_value(Some(key));
                let focused = focused_id(&root);
                root.set_inner_html(&markup::script_toggles(&sc, t));
                refocus(&root, focused);
            }
            return;
        }
        script_framed.set_value(None);
        // The hints say the lease's length and the leader crash's time.
        if framed.get_value() != Some((id, lang, i.ttl, i.leader_crash)) {
            framed.set_value(Some((id, lang, i.ttl, i.leader_crash)));
            // A switch whose flip redraws the markup (the leader crash: its hint names the time) keeps the
            // reader's focus: the new switch of the same id takes it.
            let focused = focused_id(&root);
            root.set_inner_html(&markup::toggles(id, &i, t));
            refocus(&root, focused);
        }
        // Flips from elsewhere (an embedding page, the history) reach the checkboxes here.
        for key in id.keys() {
            let el = dom::find(&root, &dom::by_id(key.spec().name));
            if let Some(input) = el.and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                input.set_checked(key.spec().get(&i) != 0);
            }
        }
    });
    // The values' readouts and a script's sliders follow each step, as the band does (the words around
    // them wait for the hand).
    effect(move || {
        let Some(root) = root.get() else { return };
        let t = lab.text();
        // A script's: its sliders and its dragged value (read in place, not copied out).
        let scripted = lab.script.with(|s| {
            let sc = s.as_ref()?.scenario.as_ref();
            for (n, p) in sc.iter().flat_map(|sc| sc.params.iter().enumerate()) {
                let el = dom::find(&root, &dom::value_readout(n));
                if let Some(input) = el.and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                    let (value, shown) = (p.value.to_string(), (t.playhead)(p.value));
                    if input.value() != value {
                        input.set_value(&value);
                    }
                    super::set(&input, "aria-valuetext", &shown);
                    if let Some(out) = input.next_element_sibling() {
                        out.set_text_content(Some(&shown));
                    }
                }
            }
            Some(sc.and_then(|sc| sc.dragged()).map(|p| p.value))
        });
        let dragged = scripted.unwrap_or_else(|| {
            lab.scenario.get().dragged().map(|key| lab.inputs.with(|i| key.spec().get(i)))
        });
        if let Some(v) = dragged {
            say(&root, dom::OUTPUT, &(t.playhead)(v));
        }
    });
    view! { <div class="controls" node_ref=root on:change=on_change on:input=on_input on:click=on_click></div> }
}

/// The id of the element under `root` that has the focus, if it has one.
fn focused_id(root: &web_sys::Element) -> Option<String> {
    let doc = web_sys::window().and_then(|w| w.document())?;
    let a = doc.active_element().filter(|a| root.contains(Some(a)))?;
    Some(a.id()).filter(|id| !id.is_empty())
}

/// The focus back on the element of id `id` under `root` (a redrawn control of the same id).
fn refocus(root: &web_sys::Element, id: Option<String>) {
    let again = id.and_then(|f| dom::find(root, &dom::by_id(&f)));
    if let Some(el) = again.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// English / 日本語, as two pressed-state buttons.
#[component]
pub fn LangSwitch(lab: Lab) -> impl IntoView {
    let root = NodeRef::<html::Div>::new();
    effect(move || {
        let (lang, t) = (lab.lang.get(), lab.text());
        let Some(root) = root.get() else { return };
        root.set_attribute("aria-label", t.language).ok();
        // Redrawn only when the language changes, so the focus moves with the reader's choice.
        let focused = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .is_some_and(|a| root.contains(Some(&a)));
        root.set_inner_html(&markup::lang_buttons(lang));
        if focused {
            let pressed = root.query_selector(dom::PRESSED).ok().flatten();
            pressed.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()).map(|b| b.focus());
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(lang) = super::data_of(&ev, "data-lang").and_then(|l| Lang::from_tag(&l)) {
            lab.lang.set(lang);
        }
    };
    view! { <div class="lang-switch" role="group" node_ref=root on:click=on_click></div> }
}
