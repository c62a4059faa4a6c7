//! Taking over the page built at build time (`present::page`, in `index.html`): the app's first frame
//! replaces it in place, with nothing lost of what the reader did before the app started.
//!
//! Before the app starts, links, disclosures, the switches and the prediction's choices work (buttons wait,
//! disabled). So [`begin`] reads off the built page the answer picked, the switches flipped, the disclosures
//! opened, the element focused and the figure's width; pins the page's height (so a reader scrolled down
//! stays where they are); and removes it. The app then starts from that state and draws its first frame
//! within the same task, before the browser paints: no frame without a page, and the same boxes in the
//! same places. [`end`] gives the focus back and lets the height go.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::dom;
use crate::sim::OutcomeKind;

/// What the reader did to the built page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Early {
    /// The answer picked.
    pub choice: Option<OutcomeKind>,
    /// Each switch the reader flipped: its id (an input's link name) and whether it is on now.
    pub switches: Vec<(String, bool)>,
    /// The disclosures open ([`dom::DISCLOSURES`]).
    pub open: Vec<&'static str>,
    /// Where the focus was, as a selector the app's page answers to.
    pub focus: Option<String>,
    /// The figure's box width, in CSS px.
    pub width: Option<f64>,
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// The element the app mounts in (`#app`), if the page has one.
pub fn mount_point() -> Option<HtmlElement> {
    document()?.get_element_by_id("app")?.dyn_into().ok()
}

/// Reads the built page, pins its height and removes it; nothing if there is none (a test that mounts the
/// app alone).
pub fn begin() -> Early {
    let Some(doc) = document() else { return Early::default() };
    let Some(built) = doc.query_selector(dom::BUILT).ok().flatten() else { return Early::default() };
    let find = |s: &str| dom::find(&built, s);
    let checked = find(dom::BUILT_PREDICTION).and_then(|i| i.dyn_into::<web_sys::HtmlInputElement>().ok());
    let mut switches = Vec::new();
    if let Ok(inputs) = built.query_selector_all(dom::BUILT_SWITCHES) {
        for i in 0..inputs.length() {
            let input = inputs.item(i).and_then(|n| n.dyn_into::<web_sys::HtmlInputElement>().ok());
            // Only a switch the reader flipped: the page may have been built at another state than a link's.
            if let Some(input) = input.filter(|i| i.checked() != i.default_checked()) {
                switches.push((input.id(), input.checked()));
            }
        }
    }
    let focused = doc.active_element().filter(|a| built.contains(Some(a)));
    let early = Early {
        choice: checked.and_then(|c| OutcomeKind::from_name(&c.value())),
        switches,
        open: dom::DISCLOSURES.into_iter().filter(|d| find(&dom::opened(d)).is_some()).collect(),
        focus: focused.as_ref().and_then(dom::standing_for),
        width: find(dom::TIMELINE).map(|t| t.client_width() as f64).filter(|w| *w > 0.0),
    };
    // The page keeps its height until the app's frame is in: a reader scrolled down is not moved.
    if let Some(app) = mount_point() {
        // Whole pixels, written without float formatting (which would bring its code into the wasm).
        let height = built.get_bounding_client_rect().height().ceil() as u32;
        let _ = app.style().set_property("min-height", &format!("{height}px"));
    }
    built.remove();
    early
}

/// Once the app's first frame is in `root`: the disclosures open again, the focus back where it was, the
/// height free.
pub fn end(early: &Early, root: &Element) {
    for d in &early.open {
        if let Some(el) = root.query_selector(d).ok().flatten() {
            let _ = el.set_attribute("open", "");
        }
    }
    if let Some(el) = early.focus.as_deref().and_then(|s| root.query_selector(s).ok().flatten()) {
        // The handle is an SVG element; everything else the reader can focus is HTML.
        let _ = match el.dyn_into::<HtmlElement>() {
            Ok(el) => el.focus(),
            Err(el) => el.unchecked_into::<web_sys::SvgElement>().focus(),
        };
    }
    if let Some(app) = mount_point() {
        let _ = app.style().remove_property("min-height");
    }
}
