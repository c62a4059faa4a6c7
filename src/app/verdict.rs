//! The verdict for the current state and its narration, in a live region.

use leptos::prelude::*;

use super::Lab;
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

/// The outcome badge, its lesson, and what happened in words.
#[component]
pub fn Verdict(lab: Lab) -> impl IntoView {
    let kind = move || lab.run.with(|r| r.outcome.kind);
    let story = move || {
        let ttl = lab.inputs.with(|i| i.ttl);
        lab.run.with(|r| Story::of(r, ttl))
    };
    view! {
        <section class="verdict" data-kind=move || kind().name() aria-labelledby="verdict-title">
            <h2 class="visually-hidden">{move || lab.text().verdict}</h2>
            <p class="badge" id="verdict-title">
                <span class="icon" aria-hidden="true">
                    {move || icon(kind())}
                </span>
                {move || lab.text().outcome_title(kind())}
            </p>
            <p class="lesson">{move || lab.text().outcome_lesson(kind())}</p>
            <p class="narration" id="narration" aria-live="polite">
                {move || (lab.text().narrate)(&story())}
            </p>
        </section>
    }
}
