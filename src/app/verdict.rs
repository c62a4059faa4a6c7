//! The prediction, then the verdict for the current state and its narration, in a live region.
//!
//! Every part is always in the page and shown or hidden by the lesson's phase, so screen readers hear the
//! live region change and focus can move to what replaced the button the reader pressed.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{effect, tx, url, Lab};
use crate::lesson::{judge, Phase, Step};
use crate::markup;
use crate::sim::OutcomeKind;
use crate::story::Story;

/// Focuses the first element under `.verdict` matching `selector`, once the page has shown it.
fn focus(selector: &'static str) {
    Timeout::new(0, move || {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(&format!(".verdict {selector}")).ok().flatten());
        if let Some(el) = el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    })
    .forget();
}

/// The prediction form, the run being watched, or the verdict with how the prediction fared.
#[component]
pub fn Verdict(lab: Lab) -> impl IntoView {
    let kind = move || lab.run.with(|r| r.outcome.kind);
    let phase = lab.phase;
    let predicting = Memo::new(move |_| matches!(phase.get(), Phase::Predicting(_)));
    let revealed = Memo::new(move |_| phase.get().revealed());
    let pick = move || match phase.get() {
        Phase::Predicting(p) => p,
        _ => None,
    };
    // Focus follows the reader: after a button, to what replaced it.
    let step = move |step: Step| {
        lab.step(step);
        match phase.get_untracked() {
            Phase::Revealed(_) => focus("#verdict-title"),
            Phase::Playing(_) => focus(".watching"),
            Phase::Predicting(_) => focus(".predict input"),
        }
    };
    // A run that played to its end replaces the "watching" line the reader's focus was on: follow it.
    effect(move || {
        if revealed.get() {
            let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
            if active.is_some_and(|a| a.class_name() == "watching") {
                focus("#verdict-title");
            }
        }
    });
    let on_choice = move |ev: web_sys::Event| {
        let value =
            ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).map(|i| i.value());
        if let Some(kind) = value.as_deref().and_then(OutcomeKind::from_name) {
            lab.step(Step::Pick(kind));
        }
    };
    let play = move |_| {
        if let Phase::Predicting(Some(_)) = phase.get_untracked() {
            step(Step::Play);
            lab.player.play();
        }
    };
    let skip = move |_| {
        url::remember_skip();
        lab.player.show_all();
        step(Step::Skip);
    };
    let guess = move || match phase.get() {
        Phase::Playing(g) => lab.text().choice(lab.scenario.get(), g).to_owned(),
        _ => String::new(),
    };
    // Both "" when there is nothing to say, not `None` (every reactive text is a `String`, see `tx`): an
    // empty text node still leaves the paragraph `:empty`, which the style sheet hides.
    let judged = move || match judge(phase.get(), kind()) {
        Some(true) => lab.text().right.to_owned(),
        Some(false) => {
            let picked = match phase.get() {
                Phase::Revealed(Some(g)) => lab.text().choice(lab.scenario.get(), g),
                _ => "",
            };
            (lab.text().wrong)(picked)
        }
        None => String::new(),
    };
    let narration = move || {
        if !revealed.get() {
            return String::new();
        }
        let (id, inputs) = (lab.scenario.get(), lab.inputs.get());
        lab.run.with(|r| lab.text().narrate(&Story::of(r, id, &inputs)))
    };

    view! {
        <section
            class="verdict"
            data-kind=move || if revealed.get() { kind().name() } else { "hidden" }.to_owned()
            aria-label=tx(lab, |t| t.verdict)
        >
            <fieldset class="predict" hidden=move || !predicting.get()>
                <legend>{tx(lab, |t| t.predict_heading)}</legend>
                <p class="prompt">{move || lab.inputs.with(|i| ((lab.text().scenario)(lab.scenario.get()).prompt)(i))}</p>
                // Drawn afresh for a new scenario, language or prediction, not for each pick (focus stays put).
                <div
                    class="choices"
                    on:change=on_choice
                    inner_html=move || {
                        predicting.track();
                        let pick = match phase.get_untracked() {
                            Phase::Predicting(p) => p,
                            _ => None,
                        };
                        markup::choices(lab.scenario.get(), pick, lab.text())
                    }
                ></div>
                <div class="predict-actions">
                    <button type="button" class="primary" disabled=move || pick().is_none() on:click=play>
                        {tx(lab, |t| t.play_and_see)}
                    </button>
                    <button type="button" class="link" on:click=skip>
                        {tx(lab, |t| t.skip)}
                    </button>
                </div>
            </fieldset>
            <p class="watching" tabindex="-1" hidden=move || !matches!(phase.get(), Phase::Playing(_))>
                {tx(lab, |t| t.watching)}
                <span class="your-guess">" → " {guess}</span>
            </p>
            // Always in the page, so screen readers hear the judgement and the narration as they change.
            <div aria-live="polite">
                <p class="judged" class:right=move || judge(phase.get(), kind()) == Some(true)>{judged}</p>
                <div
                    class="told"
                    hidden=move || !revealed.get()
                    inner_html=move || {
                        lab.run.with(|r| markup::verdict(r.outcome.kind, r.outcome.double_grant.is_some(), lab.text()))
                    }
                ></div>
                <p class="narration" id="narration">{narration}</p>
            </div>
            <button type="button" class="again" hidden=move || !revealed.get() on:click=move |_| step(Step::Again)>
                {tx(lab, |t| t.predict_again)}
            </button>
        </section>
    }
}
