//! The reading beside the widget: short sections that work on their own for readers who never touch it,
//! each linked to the scenario that shows it.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::dom;
use super::{data_of, effect, Lab};
use crate::present::markup;
use crate::present::text::reading;
use crate::scenarios::ScenarioId;

/// Every section of the reading, in the current language (markup from [`markup::reading`]).
#[component]
pub fn Reading(lab: Lab) -> impl IntoView {
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(id) = data_of(&ev, "data-play-scenario").as_deref().and_then(ScenarioId::parse) {
            lab.choose(id);
            let doc = web_sys::window().and_then(|w| w.document());
            // Take the reader there, focus included, so the next Tab continues in the lab.
            let fig = doc.and_then(|d| d.query_selector(dom::FIGURE).ok().flatten());
            if let Some(fig) = fig.and_then(|f| f.dyn_into::<web_sys::HtmlElement>().ok()) {
                fig.scroll_into_view();
                let _ = fig.focus();
            }
        }
    };
    let root = NodeRef::<html::Article>::new();
    effect(move || {
        let t = lab.text();
        if let Some(el) = root.get() {
            el.set_inner_html(&markup::reading(reading(lab.lang.get()), t));
        }
    });
    view! { <article class="reading" aria-labelledby="reading-title" node_ref=root on:click=on_click></article> }
}
