//! The prediction, then the verdict for the current state and its narration, in a live region.
//!
//! Every part is always in the page and shown or hidden by the lesson's phase, so screen readers hear the
//! live region change and focus can move to what replaced the button the reader pressed.

use gloo_timers::callback::Timeout;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::dom;
use super::later::Bench;
use super::{data_of, effect, say, url, Lab};
use crate::present::lesson::{judge, Phase, Step};
use crate::present::markup;
use crate::present::params::Lang;
use crate::scenarios::ScenarioId;
use crate::sim::OutcomeKind;

/// Focuses the first element under `.verdict` matching `selector`, once the page has shown it.
fn focus(selector: &'static str) {
    Timeout::new(0, move || {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(&format!("{} {selector}", dom::VERDICT)).ok().flatten());
        if let Some(el) = el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    })
    .forget();
}

/// The prediction form, the run being watched, or the verdict with how the prediction fared: one element
/// whose content is markup for the page's language, one effect, one listener per kind of event (a view per
/// part would cost the bundle more).
#[component]
pub fn Verdict(lab: Lab) -> impl IntoView {
    let phase = lab.phase;
    let root = NodeRef::<html::Section>::new();
    // What the frame, the choices and the verdict were last drawn for.
    let drawn = StoredValue::new_local((None::<Lang>, None::<(ScenarioId, Lang, bool, bool)>, String::new()));
    // What the verdict was last drawn for: a run with the same verdict (a step of a drag, a key typed in a
    // script) redraws only the narration, and while the verdict is hidden a run with another does not
    // redraw it either (it is drawn when told).
    type Told = Option<(OutcomeKind, bool)>;
    let judged_for = std::cell::Cell::new(None::<(ScenarioId, Lang, Phase, Told, bool)>);
    effect(move || {
        // Drawn once the reader's hand rests (`rest`).
        if !lab.calm() {
            return;
        }
        let (id, lang, now) = (lab.scenario.get(), lab.lang.get(), phase.get());
        let (predicting, revealed) = (matches!(now, Phase::Predicting(_)), now.revealed());
        let Some(root) = root.get() else { return };
        let t = lab.text();
        let (kind, double) = lab.run.with(|r| (r.outcome.kind, r.outcome.double_grant.is_some()));
        let scripted = lab.scripted();
        let key = (id, lang, now, revealed.then_some((kind, double)), scripted);
        if judged_for.get() != Some(key) {
            judged_for.set(Some(key));
            let find = |selector: &str| root.query_selector(selector).ok().flatten();
            let show = |selector: &str, shown: bool| {
                if let Some(el) = find(selector) {
                    el.toggle_attribute_with_force("hidden", !shown).ok();
                }
            };
            let pick = if let Phase::Predicting(p) = now { p } else { None };
            drawn.update_value(|(frame_lang, choices, told)| {
                if *frame_lang != Some(lang) {
                    *frame_lang = Some(lang);
                    root.set_inner_html(&markup::verdict_predicting(id, pick, kind, double, t));
                    root.set_attribute("aria-label", t.verdict).ok();
                    *choices = Some((id, lang, predicting, false));
                    *told = markup::verdict(kind, double, t);
                }
                // The choices are drawn afresh for a new scenario, language or prediction, not for each pick:
                // focus stays on the reader's choice.
                // A script is offered every verdict: which its program reaches is for the reader to work out.
                if *choices != Some((id, lang, predicting, scripted)) {
                    *choices = Some((id, lang, predicting, scripted));
                    if let Some(el) = find(dom::CHOICES) {
                        let html = if scripted {
                            markup::script_choices(pick, t)
                        } else {
                            markup::choices(id, pick, t)
                        };
                        el.set_inner_html(&html);
                    }
                }
                let verdict = revealed.then(|| markup::verdict(kind, double, t));
                if let Some(verdict) = verdict.filter(|v| v != told) {
                    if let Some(el) = find(dom::TOLD) {
                        el.set_inner_html(&verdict);
                    }
                    *told = verdict;
                }
            });
            root.set_attribute("data-kind", if revealed { kind.name() } else { "hidden" }).ok();
            show(dom::PREDICT, predicting);
            if let Some(play) = find(dom::PLAY_ACT) {
                play.toggle_attribute_with_force("disabled", !matches!(now, Phase::Predicting(Some(_)))).ok();
            }
            // A run that played to its end replaces the "watching" line the reader's focus was on: follow it
            // (before the line is hidden, which takes the focus away).
            let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
            if revealed && active.is_some_and(|a| a.class_name() == "watching") {
                focus(dom::VERDICT_TITLE);
            }
            show(dom::WATCHING, matches!(now, Phase::Playing(_)));
            // An answer in the words it was offered in: the scenario's own, or a script's verdict titles.
            let answer = |g: OutcomeKind| if scripted { t.outcome_title(g) } else { t.choice(id, g) };
            let guess = if let Phase::Playing(g) = now { answer(g) } else { "" };
            say(&root, dom::YOUR_GUESS, &format!(" → {guess}"));
            let judged = judge(now, kind);
            let picked = if let Phase::Revealed(Some(g)) = now { answer(g) } else { "" };
            let verdict_said = match judged {
                Some(true) => t.right.to_owned(),
                Some(false) => (t.wrong)(picked),
                None => String::new(),
            };
            say(&root, dom::JUDGED, &verdict_said);
            if let Some(el) = find(dom::JUDGED) {
                el.class_list().toggle_with_force("right", judged == Some(true)).ok();
            }
            show(dom::TOLD, revealed);
            show(dom::AGAIN, revealed);
        }
        // The narration's words come with the second module (`later`), asked for at the first pick: a line
        // says so while it comes, or that it could not (the panels' status below offers to try again).
        let narration = match (revealed, lab.bench.get()) {
            (false, _) => String::new(),
            (true, Bench::Ready(_)) => lab.narration().unwrap_or_default(),
            (true, Bench::Failed) => t.narration_failed.to_owned(),
            (true, _) => t.narration_loading.to_owned(),
        };
        say(&root, dom::NARRATION, &narration);
    });
    // Focus follows the reader: after a button, to what replaced it.
    let step = move |step: Step| {
        lab.step(step);
        match phase.get_untracked() {
            Phase::Revealed(_) => focus(dom::VERDICT_TITLE),
            Phase::Playing(_) => focus(dom::WATCHING),
            Phase::Predicting(_) => focus(dom::PREDICT_INPUT),
        }
    };
    let on_change = move |ev: web_sys::Event| {
        let value =
            ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).map(|i| i.value());
        if let Some(kind) = value.as_deref().and_then(OutcomeKind::from_name) {
            lab.step(Step::Pick(kind));
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| match data_of(&ev, "data-act").as_deref() {
        Some("play") => {
            if let Phase::Predicting(Some(_)) = phase.get_untracked() {
                step(Step::Play);
                lab.player.play();
            }
        }
        Some("skip") => {
            url::remember_skip();
            lab.player.show_all();
            step(Step::Skip);
        }
        Some("again") => step(Step::Again),
        _ => {}
    };
    view! { <section class="verdict" node_ref=root on:change=on_change on:click=on_click></section> }
}
