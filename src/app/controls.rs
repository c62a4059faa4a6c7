//! The toggles (lease expiry, fencing), the pause readout and the language switch.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{effect, tx, Lab};
use crate::markup;
use crate::params::Lang;
use crate::scenarios::{Key, ScenarioId};
use crate::sim::Ms;

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
        if let Some(key) = Key::from_name(&input.id()) {
            lab.set(key, u64::from(input.checked()));
        }
    };
    let root = NodeRef::<html::Div>::new();
    let framed = StoredValue::new(None::<(ScenarioId, Lang, Ms)>);
    effect(move || {
        let (id, i, lang) = (lab.scenario.get(), lab.inputs.get(), lab.lang.get());
        let Some(root) = root.get() else { return };
        let t = lab.text();
        if framed.get_value() != Some((id, lang, i.ttl)) {
            framed.set_value(Some((id, lang, i.ttl)));
            root.set_inner_html(&markup::toggles(id, &i, t));
        }
        // Flips from elsewhere (an embedding page, the history) reach the checkboxes here.
        for key in id.keys() {
            let el = root.query_selector(&format!("#{}", key.spec().name)).ok().flatten();
            if let Some(input) = el.and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                input.set_checked(key.spec().get(&i) != 0);
            }
        }
        if let (Some(key), Ok(Some(out))) = (id.dragged(), root.query_selector("output")) {
            out.set_text_content(Some(&(t.playhead)(key.spec().get(&i))));
        }
    });
    view! { <div class="controls" node_ref=root on:change=on_change></div> }
}

/// English / 日本語, as two pressed-state buttons.
#[component]
pub fn LangSwitch(lab: Lab) -> impl IntoView {
    let button = move |lang: Lang, label: &'static str| {
        view! {
            <button
                type="button"
                lang=lang.tag()
                aria-pressed=move || (lab.lang.get() == lang).to_string()
                on:click=move |_| lab.lang.set(lang)
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="lang-switch" role="group" aria-label=tx(lab, |t| t.language)>
            {button(Lang::En, "English")}
            {button(Lang::Ja, "日本語")}
        </div>
    }
}
