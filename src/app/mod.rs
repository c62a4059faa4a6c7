//! The Leptos view. Signals live here at the edge; everything they feed is plain data from the core.
//!
//! controls (toggles, pause handle, playback) → `Inputs` signal → `sim::run` memo → timeline, verdict, narration.

mod controls;
mod playback;
mod timeline;
mod url;
mod verdict;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;

use crate::params::{Lang, Query};
use crate::sim::{self, Inputs, Ms, Run, Scenario};
use crate::text::{text, Text};

/// How long the state must rest before the URL is rewritten.
const URL_SETTLE_MS: u32 = 150;

/// The reactive state every part of the page reads.
#[derive(Clone, Copy)]
pub struct Lab {
    /// The simulation inputs the controls set.
    pub inputs: RwSignal<Inputs>,
    /// The page's language.
    pub lang: RwSignal<Lang>,
    /// The run for the current inputs, recomputed only when they change.
    pub run: Memo<Run>,
    /// Where the playhead stands; `None`: the whole run is shown.
    pub playhead: RwSignal<Option<Ms>>,
}

impl Lab {
    /// The strings of the current language.
    pub fn text(&self) -> &'static Text {
        text(self.lang.get())
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let query = url::read();
    let lang = RwSignal::new(query.lang.or_else(url::browser_lang).unwrap_or(Lang::En));
    let inputs = RwSignal::new(query.inputs);
    let run = Memo::new(move |_| sim::run(&Scenario::base(&inputs.get())));
    let lab = Lab { inputs, lang, run, playhead: RwSignal::new(None) };
    let embed = query.embed;
    let problems = query.problems;

    // The URL follows the state, but only once a drag settles: Chromium throttles bursts of replaceState.
    let pending_write = StoredValue::new_local(None::<Timeout>);
    Effect::new(move |_| {
        let query = Query { inputs: inputs.get(), lang: Some(lang.get()), embed, problems: Vec::new() };
        pending_write.set_value(Some(Timeout::new(URL_SETTLE_MS, move || url::write(&query))));
    });
    Effect::new(move |_| {
        url::set_document_lang(lang.get());
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            doc.set_title(&format!("{} — {}", lab.text().title, lab.text().tagline));
        }
    });

    let notice = (!problems.is_empty()).then(|| {
        view! {
            <div class="notice" role="alert">
                <p>{move || lab.text().notice}</p>
                <ul>
                    {problems
                        .into_iter()
                        .map(|p| view! { <li>{move || (lab.text().problem)(&p)}</li> })
                        .collect_view()}
                </ul>
            </div>
        }
    });

    view! {
        <main class="page" class:embed=embed>
            <header class="masthead">
                <h1>{move || lab.text().title}</h1>
                <p class="tagline">{move || lab.text().tagline}</p>
                <controls::LangSwitch lab/>
            </header>
            {notice}
            <figure
                class="lab"
                data-outcome=move || lab.run.with(|r| r.outcome.kind.name())
                aria-labelledby="lab-question"
            >
                <p id="lab-question" class="question">{move || lab.text().question}</p>
                <controls::Toggles lab/>
                <timeline::Timeline lab/>
                <playback::Playback lab/>
                <verdict::Verdict lab/>
            </figure>
        </main>
    }
}
