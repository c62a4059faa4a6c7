//! The scenario picker: every way a lock fails that the source names, grouped as the source groups them.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::dom;
use super::{data_of, effect, Lab};
use crate::present::markup;
use crate::present::params::Lang;
use crate::scenarios::ScenarioId;

/// Buttons with `aria-pressed`, one per scenario, under a heading per group (markup from
/// [`markup::picker`]); one click listener for all of them.
#[component]
pub fn Picker(lab: Lab) -> impl IntoView {
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(id) = data_of(&ev, "data-scenario-id").as_deref().and_then(ScenarioId::parse) {
            lab.choose(id);
        }
    };
    // The markup follows the language only; the chosen entry is marked in place, so the reader's focus
    // stays on the button they pressed.
    let root = NodeRef::<html::Nav>::new();
    let drawn = StoredValue::new(None::<Lang>);
    effect(move || {
        let (current, lang, t) = (lab.scenario.get(), lab.lang.get(), lab.text());
        let Some(root) = root.get() else { return };
        if drawn.get_value() != Some(lang) {
            drawn.set_value(Some(lang));
            root.set_inner_html(&markup::picker_frame(current, t));
        }
        let Ok(buttons) = root.query_selector_all(dom::SCENARIO_ENTRY) else { return };
        for i in 0..buttons.length() {
            if let Some(b) = buttons.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                let pressed = b.get_attribute("data-scenario-id").as_deref() == Some(current.id());
                let _ = b.set_attribute("aria-pressed", if pressed { "true" } else { "false" });
            }
        }
    });
    view! { <nav class="picker" aria-labelledby="picker-title" node_ref=root on:click=on_click></nav> }
}
