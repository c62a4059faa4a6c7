//! The verdict for the current state and its narration, in a live region; before that, the prediction.

use leptos::prelude::*;

use super::{url, Lab};
use crate::lesson::{judge, Phase, CHOICES};
use crate::sim::OutcomeKind;
use crate::story::Story;

/// A shape per verdict, so colour is never the only cue.
fn icon(kind: OutcomeKind) -> &'static str {
    match kind {
        OutcomeKind::Safe | OutcomeKind::Fenced => "✓",
        OutcomeKind::Stalled => "⧗",
        OutcomeKind::UnfencedGap => "!",
        OutcomeKind::Corrupted => "✗",
    }
}

/// The prediction form, the run being watched, or the verdict with how the prediction fared.
#[component]
pub fn Verdict(lab: Lab) -> impl IntoView {
    let kind = move || lab.run.with(|r| r.outcome.kind);
    let phase = lab.phase;
    let story = move || {
        let ttl = lab.inputs.with(|i| i.ttl);
        lab.run.with(|r| Story::of(r, ttl))
    };
    let predicting = move || match phase.get() {
        Phase::Predicting(pick) => Some(view! { <Predict lab pick/> }),
        _ => None,
    };
    let watching = move || match phase.get() {
        Phase::Playing(guess) => Some(view! {
            <p class="watching">{move || lab.text().watching}</p>
            <p class="your-guess">"→ " {move || lab.text().choice(guess)}</p>
        }),
        _ => None,
    };
    let told = move || {
        phase.get().revealed().then(|| {
            let judged = move || {
                judge(phase.get(), kind()).map(|right| {
                    let line = if right {
                        lab.text().right.to_owned()
                    } else {
                        let picked = match phase.get() {
                            Phase::Revealed(Some(g)) => lab.text().choice(g),
                            _ => "",
                        };
                        (lab.text().wrong)(picked)
                    };
                    view! { <p class="judged" class:right=right>{line}</p> }
                })
            };
            view! {
                {judged}
                <p class="badge" id="verdict-title">
                    <span class="icon" aria-hidden="true">{move || icon(kind())}</span>
                    {move || lab.text().outcome_title(kind())}
                </p>
                <p class="lesson">{move || lab.text().outcome_lesson(kind())}</p>
            }
        })
    };
    let again = move || {
        matches!(phase.get(), Phase::Revealed(_)).then(|| {
            view! {
                <button type="button" class="again" on:click=move |_| phase.set(Phase::Predicting(None))>
                    {move || lab.text().predict_again}
                </button>
            }
        })
    };
    view! {
        <section
            class="verdict"
            data-kind=move || if phase.get().revealed() { kind().name() } else { "hidden" }
            aria-label=move || lab.text().verdict
        >
            {predicting}
            {watching}
            {told}
            // Always in the page, so screen readers hear it change; empty until the verdict may be told.
            <p class="narration" id="narration" aria-live="polite">
                {move || phase.get().revealed().then(|| (lab.text().narrate)(&story()))}
            </p>
            {again}
        </section>
    }
}

/// "What happens to A's write?": one radio per verdict, then play.
#[component]
fn Predict(lab: Lab, pick: Option<OutcomeKind>) -> impl IntoView {
    let phase = lab.phase;
    let prompt = move || lab.inputs.with(|i| (lab.text().predict_prompt)(i.pause, i.lease, i.fencing));
    let options = CHOICES
        .into_iter()
        .map(|choice| {
            view! {
                <label class="choice">
                    <input
                        type="radio"
                        name="prediction"
                        value=choice.name()
                        prop:checked=pick == Some(choice)
                        on:change=move |_| phase.set(Phase::Predicting(Some(choice)))
                    />
                    <span>{move || lab.text().choice(choice)}</span>
                </label>
            }
        })
        .collect_view();
    let play = move |_| {
        if let Phase::Predicting(Some(guess)) = phase.get_untracked() {
            phase.set(Phase::Playing(guess));
            lab.player.play();
        }
    };
    let skip = move |_| {
        url::remember_skip();
        lab.player.show_all();
        phase.set(Phase::Revealed(None));
    };
    view! {
        <fieldset class="predict">
            <legend>{move || lab.text().predict_heading}</legend>
            <p class="prompt">{prompt}</p>
            <div class="choices">{options}</div>
            <div class="predict-actions">
                <button type="button" class="primary" disabled=pick.is_none() on:click=play>
                    {move || lab.text().play_and_see}
                </button>
                <button type="button" class="link" on:click=skip>
                    {move || lab.text().skip}
                </button>
            </div>
        </fieldset>
    }
}
