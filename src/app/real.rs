//! "Seen on real systems": the runs `scripts/record.sh` recorded on real lock services for the current
//! scenario and switches, replayed through the core and drawn with the timeline's own figure code.
//!
//! The recordings are not part of the first load: the panel fetches `recordings.txt` from the page's own
//! origin when the reader first opens it, says that it is loading, and if the request fails says so with a
//! button to try again. Once loaded, the body is redrawn only when the recordings it shows or the language
//! change (dragging does not).
//!
//! "Open a run" reads a file of the reader's own (`locksim check --json`, `locksim real --json`), chosen or
//! dropped on the panel, in the page (nothing is uploaded) and draws it the same way, with its verdicts and
//! its narration. It is no part of the lab's state, so it never reaches the link; a file that does not read
//! says why, and the runs drawn before stay.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::dom;
use super::{data_of, effect, Lab};
use crate::present::markup;
use crate::present::params::Lang;
use crate::present::recordings::{self, OpenProblem, Opened, Recording};
use crate::present::text::panels;

/// Where the recordings stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Load {
    /// Not asked for yet.
    Idle,
    Loading,
    Loaded,
    Failed,
}

/// The panel, under the verdict once it is told.
#[component]
pub fn Real(lab: Lab) -> impl IntoView {
    let all: Rc<RefCell<Vec<Recording>>> = Rc::default();
    let all = StoredValue::new_local(all);
    let load = RwSignal::new(Load::Idle);
    let framed = StoredValue::new_local(None::<Lang>);
    let drawn = StoredValue::new_local(None::<(Vec<usize>, Lang)>);
    let body = NodeRef::<html::Section>::new();
    // The runs the reader opened, and why the last file did not read (if it did not); `opens` counts the
    // files read, so that each one redraws.
    let opened: Rc<RefCell<(Vec<Opened>, Option<OpenProblem>)>> = Rc::default();
    let opened = StoredValue::new_local(opened);
    let opens = RwSignal::new(0_u32);
    let drawn_open = StoredValue::new_local(None::<(u32, Lang)>);
    effect(move || {
        let (id, inputs, lang, state) = (lab.scenario.get(), lab.inputs.get(), lab.lang.get(), load.get());
        let opens = opens.get();
        let Some(el) = body.get() else { return };
        let t = panels(lang);
        // The frame follows the language only, so a click on its summary is never cut short by a redraw.
        if framed.get_value() != Some(lang) {
            framed.set_value(Some(lang));
            drawn.set_value(None);
            drawn_open.set_value(None);
            let open = dom::find(&el, dom::OPEN_DETAILS).is_some();
            el.set_inner_html(&markup::real_panel(open, t));
        }
        if drawn_open.get_value() != Some((opens, lang)) {
            if let Some(target) = dom::find(&el, dom::OPEN_BODY) {
                let opened = opened.get_value();
                let opened = opened.borrow();
                let runs: Vec<_> = opened.0.iter().map(|o| (o, o.recording.run())).collect();
                target.set_inner_html(&markup::opened_runs(&runs, opened.1.as_ref(), t));
                drawn_open.set_value(Some((opens, lang)));
            }
        }
        let Some(inner) = dom::find(&el, dom::REAL_BODY) else { return };
        if state != Load::Loaded {
            drawn.set_value(None);
            let html = if state == Load::Idle {
                String::new()
            } else {
                markup::real_status(state == Load::Failed, t)
            };
            inner.set_inner_html(&html);
            return;
        }
        let all = all.get_value();
        let all = all.borrow();
        let shown: Vec<usize> = (0..all.len()).filter(|&n| all[n].matches(id, &inputs)).collect();
        if drawn.with_value(|d| d.as_ref().is_some_and(|(s, l)| *s == shown && *l == lang)) {
            return;
        }
        let runs: Vec<_> = shown.iter().map(|&n| (&all[n], all[n].run())).collect();
        inner.set_inner_html(&markup::real_runs(&runs, t));
        drawn.set_value(Some((shown, lang)));
    });
    // Opening the panel (its summary) or "Try again" asks for the recordings, once at a time.
    let on_click = move |ev: web_sys::MouseEvent| {
        let asked = data_of(&ev, "data-retry").is_some() || is_summary(&ev);
        if asked && matches!(load.get_untracked(), Load::Idle | Load::Failed) {
            load.set(Load::Loading);
            let all = all.get_value();
            leptos::task::spawn_local(async move {
                match fetch().await {
                    Some(recordings) => {
                        *all.borrow_mut() = recordings;
                        load.set(Load::Loaded);
                    }
                    None => load.set(Load::Failed),
                }
            });
        }
    };
    // "Open a run": the file chosen, or dropped anywhere on the panel, is read here and drawn.
    let read = move |file: Option<web_sys::File>| {
        let Some(file) = file else { return };
        let opened = opened.get_value();
        leptos::task::spawn_local(async move {
            let text =
                wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string());
            {
                let mut opened = opened.borrow_mut();
                match text.as_deref().map(recordings::open) {
                    Some(Ok(runs)) => *opened = (runs, None),
                    Some(Err(problem)) => opened.1 = Some(problem),
                    None => opened.1 = Some(OpenProblem::NotJson),
                }
            }
            opens.update(|n| *n += 1);
        });
    };
    let on_change = move |ev: web_sys::Event| {
        let input = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        let Some(input) = input.filter(|i| i.has_attribute("data-open-run")) else { return };
        read(input.files().and_then(|f| f.get(0)));
        // The same file chosen again reads again.
        input.set_value("");
    };
    let on_dragover = move |ev: web_sys::DragEvent| ev.prevent_default();
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if let (Some(el), Some(t)) = (body.get_untracked(), ev.data_transfer()) {
            // Dropped on a closed panel: it opens, where the run is drawn.
            if let Some(details) = dom::find(&el, dom::DETAILS) {
                let _ = details.set_attribute("open", "");
            }
            read(t.files().and_then(|f| f.get(0)));
        }
    };
    // One element, its content markup: a view per part would cost the bundle more than the panel.
    view! {
        <section class="real" node_ref=body on:click=on_click on:change=on_change on:dragover=on_dragover
            on:drop=on_drop></section>
    }
}

fn is_summary(ev: &web_sys::MouseEvent) -> bool {
    let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    target.is_some_and(|t| t.closest(dom::SUMMARY).ok().flatten().is_some())
}

/// The recordings from the page's own origin; `None` if the request fails. The file's text lives as long as
/// the page (it is leaked once, on the first successful load): the recordings borrow their words from it.
async fn fetch() -> Option<Vec<Recording>> {
    let window = web_sys::window()?;
    let response =
        wasm_bindgen_futures::JsFuture::from(window.fetch_with_str("recordings.txt")).await.ok()?;
    let response: web_sys::Response = response.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    let text = wasm_bindgen_futures::JsFuture::from(response.text().ok()?).await.ok()?.as_string()?;
    Some(recordings::parse(Box::leak(text.into_boxed_str())))
}
