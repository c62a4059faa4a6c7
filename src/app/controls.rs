//! The toggles (lease expiry, fencing), the pause readout and the language switch.

use leptos::prelude::*;

use super::{effect, tx, Lab};
use crate::params::Lang;
use wasm_bindgen::JsCast;

use crate::markup;
use crate::scenarios::Key;

/// The scenario's switches (markup from [`markup::switches`], drawn afresh for a new scenario, language or
/// lease length) and the readout of its dragged value. One listener serves every switch.
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
    // The markup follows the scenario, the language and the hint's lease length, not each flip: a flip
    // redrawn would take the reader's focus away.
    let ttl = Memo::new(move |_| lab.inputs.with(|i| i.ttl));
    let markup = move || {
        ttl.track();
        lab.inputs.with_untracked(|i| markup::switches(lab.scenario.get(), i, lab.text()))
    };
    // Flips from elsewhere (an embedding page, the history) reach the checkboxes here.
    effect(move || {
        let i = lab.inputs.get();
        let doc = web_sys::window().and_then(|w| w.document());
        for key in lab.scenario.get().keys() {
            let el = doc.as_ref().and_then(|d| d.get_element_by_id(key.spec().name));
            if let Some(input) = el.and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                input.set_checked(key.spec().get(&i) != 0);
            }
        }
    });
    let dragged = move || lab.scenario.get().dragged();
    let keys = move || lab.scenario.get().keys();
    view! {
        <div class="toggles">
            <div class="switches" on:change=on_change inner_html=markup></div>
            <p class="pause-readout" hidden=move || dragged().is_none()>
                <span class="swatch pause-swatch" aria-hidden="true"></span>
                // `String`s ("" for none) here, not `Option`s, as every reactive text (see `tx`).
                {move || dragged().map_or("", |k| (lab.text().drag_label)(k)).to_owned()}
                <output for="pause-handle">
                    {move || dragged().map(|k| (lab.text().playhead)(lab.inputs.with(|i| k.spec().get(i)))).unwrap_or_default()}
                </output>
            </p>
        </div>
        <p class="devices" hidden=move || !(keys().contains(&Key::Lease) && keys().contains(&Key::Fencing))>
            {tx(lab, |t| t.devices)}
        </p>
    }
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
