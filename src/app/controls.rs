//! The toggles (lease expiry, fencing), the pause readout and the language switch.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::dom;
use super::{effect, say};
use crate::present::markup;
use crate::present::params::Lang;
use crate::scenarios::Key;
use crate::sim::Ms;

/// The scenario's switches (markup from [`markup::toggles`]), the readout of its dragged value, and what the
/// two safety devices protect. One element whose content is markup, one listener for every switch: a view
/// per part would cost the bundle more.
#[component]
pub fn Toggles() -> impl IntoView {
    let lab = super::lab();
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
            // A script's switch edits its line of the script, and shows the run on screen: set again from
            // the script once its new text reads (the controls are drawn anew), as it was if it does not.
            let wanted = input.checked();
            input.set_checked(!wanted);
            let setting = match id.strip_prefix("switch-") {
                Some(name) => format!("switch {name}"),
                None if id == "lease" => "expiry".into(),
                None => id,
            };
            return lab.script_switch(&setting, wanted);
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
    // The controls' markup, drawn once the reader's hand rests (while it moves, the memo keeps what it was).
    // For the catalogue, the switches as they are with every hint they give (a flip draws them again and
    // the switch of the same id keeps the reader's focus); for a script, its settings and the names and
    // ranges of its values, not the values (a slider drawn again under the reader's hand would let go of
    // it): those follow each step below. A script that never read has no settings to show: only the way
    // back to its editor.
    let frame = Memo::new(move |prev: Option<&String>| {
        lab.rested(prev, || {
            let t = lab.text();
            lab.script.with(|s| match s.as_ref().map(|s| s.scenario.as_ref()) {
                Some(None) => markup::edit_row(t),
                Some(Some(sc)) => {
                    let mut shape = sc.clone();
                    shape.params.iter_mut().for_each(|p| p.value = p.min);
                    markup::script_toggles(&shape, t)
                }
                None => markup::toggles(lab.scenario.get(), &lab.inputs.get(), t),
            })
        })
    });
    // The values' readouts and a script's sliders follow each step, as the band does (the words around
    // them wait for the hand).
    let readouts = move |root: &web_sys::Element| {
        let t = lab.text();
        // A script's: its sliders and its dragged value (read in place, not copied out).
        let scripted = lab.script.with(|s| {
            let sc = s.as_ref()?.scenario.as_ref();
            for (n, p) in sc.iter().flat_map(|sc| sc.params.iter().enumerate()) {
                let el = dom::find(root, &dom::value_readout(n));
                if let Some(input) = el.and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                    let (value, shown) = (p.value.to_string(), (t.playhead)(p.value));
                    if input.value() != value {
                        input.set_value(&value);
                    }
                    super::set(&input, "aria-valuetext", &shown);
                    // Most steps move one value: a readout rewritten unchanged would still be laid out.
                    if let Some(out) = input
                        .next_element_sibling()
                        .filter(|o| o.text_content().as_deref() != Some(shown.as_str()))
                    {
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
            say(root, dom::OUTPUT, &(t.playhead)(v));
        }
    };
    effect(move || {
        let html = frame.get();
        let Some(root) = root.get() else { return };
        let focused = focused_id(&root);
        root.set_inner_html(&html);
        refocus(&root, focused);
        untrack(|| readouts(&root));
    });
    effect(move || {
        if let Some(root) = root.get() {
            readouts(&root);
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
pub fn LangSwitch() -> impl IntoView {
    let lab = super::lab();
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
