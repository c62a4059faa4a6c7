//! "Seen on real systems": the runs `scripts/record.sh` recorded on real lock services for the current
//! scenario and switches, replayed through the core and drawn with the timeline's own figure code.
//!
//! The recordings are not part of the first load: the panel fetches `recordings.txt` from the page's own
//! origin when the reader first opens it, says that it is loading, and if the request fails says so with a
//! button to try again. Once loaded, the recordings of the state on screen are a keyed list: a drag that
//! keeps them keeps their figures, and the language changes only their words.
//!
//! "Open a run" reads a file of the reader's own (`locksim check --json`, `locksim real --json`), chosen or
//! dropped on the panel, in the page (nothing is uploaded) and draws it the same way, with its verdicts and
//! its narration. It is no part of the lab's state, so it never reaches the link; a file that does not read
//! says why, and the runs drawn before stay.

use std::sync::Arc;

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::dom;
use crate::present::markup;
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
pub fn Real() -> impl IntoView {
    let lab = super::lab();
    let p = move || panels(lab.lang.get());
    let all = RwSignal::new_local(Vec::<Recording>::new());
    let load = RwSignal::new(Load::Idle);
    // The recordings of the scenario and switches on screen: a drag that keeps them keeps their figures.
    let shown = Memo::new(move |_| {
        let (id, inputs) = (lab.scenario.get(), lab.inputs.get());
        all.with(|all| (0..all.len()).filter(|&n| all[n].matches(id, &inputs)).collect::<Vec<_>>())
    });
    // The runs the reader opened, keyed by the file they came from (`opens` counts the files read), and why
    // the last file did not read, if it did not (the runs opened before stay).
    let opened = RwSignal::new_local(Vec::<Opened>::new());
    let opens = RwSignal::new(0_u32);
    let problem = RwSignal::new(None::<OpenProblem>);
    let body = NodeRef::<html::Section>::new();
    // Opening the panel (its summary) or "Try again" asks for the recordings, once at a time.
    let ask = move || {
        if matches!(load.get_untracked(), Load::Idle | Load::Failed) {
            load.set(Load::Loading);
            leptos::task::spawn_local(async move {
                match fetch().await {
                    Some(recordings) => {
                        all.set(recordings);
                        load.set(Load::Loaded);
                    }
                    None => load.set(Load::Failed),
                }
            });
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if is_summary(&ev) {
            ask();
        }
    };
    // "Open a run": the file chosen, or dropped anywhere on the panel, is read here and drawn.
    let read = move |file: Option<web_sys::File>| {
        let Some(file) = file else { return };
        leptos::task::spawn_local(async move {
            let text =
                wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string());
            match text.as_deref().map(recordings::open) {
                Some(Ok(runs)) => {
                    opened.set(runs);
                    problem.set(None);
                    opens.update(|n| *n += 1);
                }
                Some(Err(p)) => problem.set(Some(p)),
                None => problem.set(Some(OpenProblem::NotJson)),
            }
        });
    };
    let on_change = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
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
    // One recording's figure: its run replayed once, its words in the page's language.
    let recorded = move |n: usize| {
        let r = all.with_untracked(|all| all[n].clone());
        let run = Arc::new(r.run());
        let (backend, outcome) = (r.backend, run.outcome.kind.name());
        let r = Arc::new(r);
        let (r2, run2) = (Arc::clone(&r), Arc::clone(&run));
        view! {
            <figure class="real-run" data-backend=backend data-outcome=outcome>
                <figcaption>{move || markup::real_caption(&r, &run, p())}</figcaption>
                <div class="real-figure" inner_html=move || markup::recorded_figure(&r2, &run2, p().text)></div>
            </figure>
        }
    };
    let opened_run = move |(_, n): (u32, usize)| {
        let o = opened.with_untracked(|o| o[n].clone());
        let (sc, run) = (Arc::new(o.recording.built()), Arc::new(o.recording.run()));
        let r = &o.recording;
        let (backend, id, outcome) = (r.backend, r.scenario.id(), run.outcome.kind.name());
        let o = Arc::new(o);
        let (o2, run2, run3) = (Arc::clone(&o), Arc::clone(&run), Arc::clone(&run));
        view! {
            <figure class="opened-run" data-backend=backend data-scenario=id data-outcome=outcome>
                <figcaption>{move || markup::opened_caption(&o, &run, p())}</figcaption>
                <div class="real-figure"
                    inner_html=move || markup::recorded_figure(&o2.recording, &run2, p().text)></div>
                <p class="open-told">{move || p().narrate(&sc, &run3)}</p>
            </figure>
        }
    };
    let status = move || {
        match load.get() {
        Load::Idle | Load::Loaded => None,
        Load::Loading => Some(view! { <p class="real-status" role="status">{move || p().real_loading}</p> }.into_any()),
        Load::Failed => Some(
            view! {
                <p class="real-status" role="alert">
                    {move || p().real_failed} " "
                    <button type="button" data-retry="" on:click=move |_| ask()>{move || p().text.retry}</button>
                </p>
            }
            .into_any(),
        ),
    }
    };
    view! {
        <section class="real" node_ref=body on:click=on_click on:dragover=on_dragover on:drop=on_drop>
            <details>
                <summary>{move || p().real_heading}</summary>
                <p>{move || p().real_intro}</p>
                // "Open a run": a file of the reader's own, chosen or dropped (anywhere on the panel), read in
                // the page.
                <div class="open-run">
                    <label class="open-label">
                        {move || p().open_label} " "
                        <input type="file" accept=".json,application/json" data-open-run="" on:change=on_change/>
                    </label>
                    <p class="open-hint">{move || p().open_hint}</p>
                    <div class="open-body">
                        {move || problem.get().map(|e| view! {
                            <p class="open-status" role="alert">{move || (p().open_bad)(&e)}</p>
                        })}
                        <For each=move || { let n = opens.get(); (0..opened.with(Vec::len)).map(move |i| (n, i)) }
                            key=|k| *k children=opened_run/>
                    </div>
                </div>
                <div class="real-body">
                    {status}
                    <For each=move || shown.get() key=|n| *n children=recorded/>
                    {move || (load.get() == Load::Loaded && shown.with(Vec::is_empty))
                        .then(|| view! { <p>{move || p().real_none}</p> })}
                </div>
            </details>
        </section>
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
