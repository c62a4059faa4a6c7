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
use super::{data_of, effect, fill, say, set, url};
use crate::present::lesson::{judge, Phase, Step};
use crate::present::markup;
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
/// whose content is markup for the page's language, its parts set by an effect each, one listener per kind
/// of event (a view per part would cost the first load more than it has to spare).
#[component]
pub fn Verdict() -> impl IntoView {
    let lab = super::lab();
    let phase = lab.phase;
    let root = NodeRef::<html::Section>::new();
    // The module is asked for at the reader's first pick of an answer (or a verdict told at once): the
    // narration's words are there. Here, not with the later panels, so an embedded page tells it too.
    effect(move || {
        if !matches!(phase.get(), Phase::Predicting(None)) {
            lab.need_bench();
        }
    });
    // Each part is drawn once the reader's hand rests (`Lab::rested`).
    // The answers offered: the scenario's own, or for a script every verdict (which its program reaches is
    // for the reader to work out). The reader's pick is the radio's own state (`checked` below), so a pick
    // redraws nothing and focus stays on the reader's choice.
    let choices = Memo::new(move |prev| {
        lab.rested(prev, || {
            let t = lab.text();
            if lab.scripted() {
                markup::script_choices(None, t)
            } else {
                markup::choices(lab.scenario.get(), None, t)
            }
        })
    });
    // The verdict of the run on screen, while it is told; hidden, it keeps the one last told (at first, the
    // run's own, as the frame draws it).
    let told = Memo::new(move |prev: Option<&String>| {
        lab.rested(prev, || match (phase.get().revealed(), prev) {
            (false, Some(prev)) => prev.clone(),
            // (Its lesson comes with the narration, below: the title keeps the focus when it does.)
            _ => lab.run.with(|r| markup::verdict(&r.outcome, "", lab.text())),
        })
    });
    // The verdict's lesson, told with the narration by the second module: none until it is here.
    let lesson = move || {
        let ready = phase.get().revealed() && matches!(lab.bench.get(), Bench::Ready(_));
        if ready {
            lab.lesson()
        } else {
            String::new()
        }
    };
    // The rest of the section: which parts show, the reader's guess, right or wrong, the narration.
    let draw = move |root: &web_sys::Element| {
        let (id, now, t) = (lab.scenario.get(), phase.get(), lab.text());
        let (predicting, revealed) = (matches!(now, Phase::Predicting(_)), now.revealed());
        let kind = lab.run.with(|r| r.outcome.kind);
        let scripted = lab.scripted();
        let show = |selector: &str, shown: bool| {
            if let Some(el) = dom::find(root, selector) {
                el.toggle_attribute_with_force("hidden", !shown).ok();
            }
        };
        set(root, "data-kind", if revealed { kind.name() } else { "hidden" });
        show(dom::PREDICT, predicting);
        if let Some(play) = dom::find(root, dom::PLAY_ACT) {
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
        say(root, dom::YOUR_GUESS, &format!(" → {guess}"));
        let judged = judge(now, kind);
        let picked = if let Phase::Revealed(Some(g)) = now { answer(g) } else { "" };
        let verdict_said = match judged {
            Some(true) => t.right.to_owned(),
            Some(false) => (t.wrong)(picked),
            None => String::new(),
        };
        say(root, dom::JUDGED, &verdict_said);
        if let Some(el) = dom::find(root, dom::JUDGED) {
            el.class_list().toggle_with_force("right", judged == Some(true)).ok();
        }
        show(dom::TOLD, revealed);
        show(dom::AGAIN, revealed);
        // The narration's words come with the second module (`later`), asked for at the first pick: a line
        // says so while it comes, or that it could not (the panels' status below offers to try again).
        let narration = match (revealed, lab.bench.get()) {
            (false, _) => String::new(),
            (true, Bench::Ready(_)) => lab.narration().unwrap_or_default(),
            (true, Bench::Failed) => t.narration_failed.to_owned(),
            (true, _) => t.narration_loading.to_owned(),
        };
        say(root, dom::LESSON, &lesson());
        say(root, dom::NARRATION, &narration);
    };
    // The frame follows the language only, its parts drawn in at once.
    effect(move || {
        let t = lab.text();
        let Some(root) = root.get() else { return };
        let (id, now) = (lab.scenario.get_untracked(), phase.get_untracked());
        let pick = if let Phase::Predicting(p) = now { p } else { None };
        // (The verdict told is filled in below.)
        root.set_inner_html(&markup::verdict_predicting(id, pick, "", t));
        root.set_attribute("aria-label", t.verdict).ok();
        untrack(|| {
            fill(&root, dom::CHOICES, &choices.get());
            fill(&root, dom::TOLD, &told.get());
            checked(&root, now);
            draw(&root);
        });
    });
    effect(move || {
        let html = choices.get();
        if let Some(root) = root.get() {
            fill(&root, dom::CHOICES, &html);
            checked(&root, phase.get_untracked());
        }
    });
    effect(move || {
        let html = told.get();
        if let Some(root) = root.get() {
            fill(&root, dom::TOLD, &html);
            say(&root, dom::LESSON, &untrack(lesson));
        }
    });
    // The radios follow the lesson: the pick checked, none when it is asked again.
    effect(move || {
        let now = phase.get();
        if let Some(root) = root.get() {
            checked(&root, now);
        }
    });
    effect(move || {
        // Drawn once the reader's hand rests (`rest`).
        if !lab.calm() {
            return;
        }
        if let Some(root) = root.get() {
            draw(&root);
        }
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

/// Checks the radio of the reader's pick while they predict, and none otherwise.
fn checked(root: &web_sys::Element, now: Phase) {
    let pick = if let Phase::Predicting(p) = now { p } else { None };
    let Ok(radios) = root.query_selector_all(dom::RADIOS) else { return };
    for i in 0..radios.length() {
        if let Some(r) = radios.item(i).and_then(|n| n.dyn_into::<web_sys::HtmlInputElement>().ok()) {
            let on = pick.is_some_and(|p| r.value() == p.name());
            if r.checked() != on {
                r.set_checked(on);
            }
        }
    }
}
