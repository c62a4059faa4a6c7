//! The Leptos view. Signals live here at the edge; everything they feed is plain data from the core.
//!
//! controls (toggles, pause handle, playback, embed messages) → `Inputs` signal → `sim::run` memo →
//! timeline, verdict, narration. The lesson phase decides only what is visible, never the outcome.

mod challenge;
mod controls;
mod embed;
mod playback;
mod reading;
mod share;
mod timeline;
mod url;
mod verdict;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;

use crate::lesson::Phase;
use crate::params::{Lang, Query};
use crate::sim::{self, Inputs, Ms, Run, Scenario};
use crate::text::{text, Text};
use playback::Player;

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
    /// The playhead.
    pub player: Player,
    /// Predicting, watching, or told.
    pub phase: RwSignal<Phase>,
    /// Whether the page is embedded (`embed=1`).
    pub embed: bool,
}

impl Lab {
    /// The strings of the current language.
    pub fn text(&self) -> &'static Text {
        text(self.lang.get())
    }

    /// How far into the run the timeline may show: nothing past the start while the reader predicts.
    pub fn shown_until(&self) -> Option<Ms> {
        match self.phase.get() {
            Phase::Predicting(_) => Some(0),
            _ => self.player.playhead.get(),
        }
    }

    /// The state as a link carries it.
    pub fn query(&self, embed: bool) -> Query {
        Query { inputs: self.inputs.get(), lang: Some(self.lang.get()), embed, problems: Vec::new() }
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let query = url::read();
    let lang = RwSignal::new(query.lang.or_else(url::browser_lang).unwrap_or(Lang::En));
    let inputs = RwSignal::new(query.inputs);
    let run = Memo::new(move |_| sim::run(&Scenario::base(&inputs.get())));
    let phase = RwSignal::new(if url::prediction_skipped() {
        Phase::Revealed(None)
    } else {
        Phase::Predicting(None)
    });
    let lab = Lab { inputs, lang, run, player: Player::new(run), phase, embed: query.embed };
    let problems = RwSignal::new(query.problems);

    // The URL follows the state, but only once a drag settles: Chromium throttles bursts of replaceState.
    let pending_write = StoredValue::new_local(None::<Timeout>);
    Effect::new(move |_| {
        let query = lab.query(lab.embed);
        pending_write.set_value(Some(Timeout::new(URL_SETTLE_MS, move || url::write(&query))));
    });
    Effect::new(move |_| {
        url::set_document_lang(lang.get());
        url::set_title(&format!("{} — {}", lab.text().title, lab.text().tagline));
    });
    // Any change of the inputs shows the new run whole (not on the first run: that would cut a play short).
    Effect::watch(move || inputs.track(), move |_, _, _| lab.player.show_all(), false);
    // A prediction is told once its run has played to the end (or the reader jumped there).
    Effect::new(move |_| {
        if let Phase::Playing(guess) = phase.get() {
            if !lab.player.playing.get() && lab.player.playhead.get().is_none() {
                phase.set(Phase::Revealed(Some(guess)));
            }
        }
    });
    embed::connect(lab, problems);

    let notice = move || {
        let list = problems.get();
        (!list.is_empty()).then(|| {
            view! {
                <div class="notice" role="alert">
                    <p>{move || lab.text().notice}</p>
                    <ul>
                        {list
                            .into_iter()
                            .map(|p| view! { <li>{move || (lab.text().problem)(&p)}</li> })
                            .collect_view()}
                    </ul>
                </div>
            }
        })
    };

    view! {
        <main class="page" class:embed=lab.embed>
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
                // While the reader predicts, the prediction's own button starts the run.
                <Show when=move || !matches!(lab.phase.get(), Phase::Predicting(_))>
                    <playback::Playback lab/>
                </Show>
                <verdict::Verdict lab/>
            </figure>
            // Embedded: only the widget and its verdict.
            {(!lab.embed)
                .then(|| {
                    view! {
                        // The second challenge names the verdict of long pauses: not before the first is told.
                        <Show when=move || lab.phase.get().revealed()>
                            <challenge::Challenge lab/>
                        </Show>
                        <share::Share lab/>
                        <reading::Reading lab/>
                    }
                })}
        </main>
    }
}
