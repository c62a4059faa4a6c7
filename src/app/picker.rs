//! The scenario picker: every way a lock fails that the source names, grouped as the source groups them,
//! behind one line that names the scenario on screen (so the lab starts on a phone's first screen).

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::dom;
use super::{data_of, effect, say};
use crate::present::markup;
use crate::present::text::Text;
use crate::scenarios::ScenarioId;

/// A disclosure (markup from [`markup::picker_frame`]) whose links pick a scenario in place; one click
/// listener for all of them.
#[component]
pub fn Picker() -> impl IntoView {
    let lab = super::lab();
    let root = NodeRef::<html::Nav>::new();
    let on_click = move |ev: web_sys::MouseEvent| {
        // A click that asks for a new tab or window is the browser's: the link goes there.
        if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key() || ev.button() != 0 {
            return;
        }
        let Some(id) = data_of(&ev, "data-scenario-id").as_deref().and_then(ScenarioId::parse) else {
            return;
        };
        ev.prevent_default();
        lab.choose(id);
        // The list closes on the scenario picked, and the reader's focus stays on the line that now names it.
        let Some(root) = root.get_untracked() else { return };
        if let Some(details) = dom::find(&root, dom::DETAILS) {
            let _ = details.remove_attribute("open");
        }
        let summary = dom::find(&root, dom::SUMMARY).and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(summary) = summary {
            let _ = summary.focus();
        }
    };
    // The markup follows the language only, so an open list keeps its state and the reader's focus.
    effect(move || {
        let (lang, t) = (lab.lang.get(), lab.text());
        let Some(root) = root.get() else { return };
        root.set_attribute("aria-label", t.scenarios).ok();
        let open = dom::find(&root, dom::OPEN_DETAILS).is_some();
        let current = lab.scenario.get_untracked();
        root.set_inner_html(&markup::picker_frame(current, lang, t));
        if let (true, Some(details)) = (open, dom::find(&root, dom::DETAILS)) {
            let _ = details.set_attribute("open", "");
        }
        mark(&root, current, untrack(|| lab.scripted()), t);
    });
    // The chosen entry, marked in place, and the line naming it; while the hand moves (a script typed reads
    // `lab.script` on every key) once it rests.
    effect(move || {
        if !lab.calm() {
            return;
        }
        let (current, scripted, t) = (lab.scenario.get(), lab.scripted(), lab.text());
        if let Some(root) = root.get() {
            mark(&root, current, scripted, t);
        }
    });
    view! { <nav class="picker" node_ref=root on:click=on_click></nav> }
}

/// Marks the entry of `current` (none while a script is on screen: it is the reader's own) and names it in
/// the list's summary; compare-then-write, so a key typed in a script changes nothing here.
fn mark(root: &web_sys::Element, current: ScenarioId, scripted: bool, t: &Text) {
    say(root, dom::PICKER_CURRENT, if scripted { t.script_title } else { (t.scenario)(current).title });
    let Ok(links) = root.query_selector_all(dom::SCENARIO_ENTRY) else { return };
    for i in 0..links.length() {
        if let Some(a) = links.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
            let here = !scripted && a.get_attribute("data-scenario-id").as_deref() == Some(current.id());
            if here != a.has_attribute("aria-current") {
                let _ = if here {
                    a.set_attribute("aria-current", "true")
                } else {
                    a.remove_attribute("aria-current")
                };
            }
        }
    }
}
