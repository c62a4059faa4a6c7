//! The page as a reader first sees it, built at build time (`src/bin/prerender.rs` writes it into
//! `dist/index.html`) by the functions the app draws with: the masthead, the picker, the set-up, the
//! question and its choices, the figure at t = 0, the switches as they stand, and the reading in both
//! languages. The figure appears before the first byte of WebAssembly, and without JavaScript at all.
//!
//! The app's part ([`app`]) is what the app's first frame holds at the page's own starting state
//! ([`First::page`]); the app takes it over in place (`app::takeover`), and an end-to-end test holds the two
//! equal. Where they may differ, they differ on purpose: until the app starts, every button is disabled
//! (links, disclosures, switches and choices work without it), the handle says it is unavailable, and the
//! figure is drawn twice, at a phone's width and a wide screen's, each scaled to its box until the app
//! draws it at the box's own width.

use crate::present::figure::{self, Layout, Who};
use crate::present::geom::MIN_AXIS;
use crate::present::html::Html;
use crate::present::lesson::{self, SEED_QUESTION_PAUSE};
use crate::present::markup;
use crate::present::params::Lang;
use crate::present::text::{notes, reading, text, Text};
use crate::scenarios::{Inputs, ScenarioId};
use crate::sim::{self, Run};

/// The widths the figure is drawn at before the app measures its box: a 360 px phone's, and the widest the
/// page lays out (1180 px less its margins), which every screen from about 1240 px wide shows exactly.
pub const WIDTHS: [(&str, f64); 2] = [("narrow", 320.0), ("wide", 1082.0)];

/// The state a page is built at.
#[derive(Clone, Debug, PartialEq)]
pub struct First {
    /// Its language.
    pub lang: Lang,
    /// Its scenario.
    pub scenario: ScenarioId,
    /// Its inputs.
    pub inputs: Inputs,
}

impl First {
    /// The state the page opens in when the link says nothing: the source's own widget and question (A
    /// wakes after 15 s), predicting, in English.
    pub fn page() -> First {
        let inputs = Inputs { pause: SEED_QUESTION_PAUSE, ..ScenarioId::GcPause.defaults() };
        First { lang: Lang::En, scenario: ScenarioId::GcPause, inputs }
    }

    fn run(&self) -> Run {
        sim::run(&self.scenario.build(&self.inputs))
    }
}

/// The whole `<main>`: the notes a reader sees before the app starts (or if it cannot), the app's part
/// (`#app`), and the reading in both languages (the page's `lang` shows one).
pub fn main(first: &First) -> String {
    let mut h = Html::default();
    h.open("main", &[("class", "page")]);
    h.built(&notes_markup());
    h.open("div", &[("id", "app")]);
    h.built(&app(first));
    h.close("div");
    for lang in [Lang::En, Lang::Ja] {
        let t = text(lang);
        let attrs = [("class", "reading"), ("lang", lang.tag()), ("aria-labelledby", reading_id(lang))];
        h.open("article", &attrs);
        h.built(&markup::reading(reading(lang), t, reading_id(lang), lang));
        h.close("article");
    }
    h.close("main");
    h.finish()
}

/// The id of the reading's heading in `lang` (both are in the page).
pub fn reading_id(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "reading-title",
        Lang::Ja => "reading-title-ja",
    }
}

/// What the page says before the app has drawn the state a link asks for, and what it says when the app
/// cannot start (no JavaScript, or an iframe whose sandbox withholds the same origin): in both languages,
/// the page's `lang` and classes show the one that applies (`style/main.css`, the boot script).
fn notes_markup() -> String {
    let mut h = Html::default();
    h.open("div", &[("class", "page-notes")]);
    for lang in [Lang::En, Lang::Ja] {
        let n = notes(lang);
        h.text_el("p", &[("class", "note-loading"), ("lang", lang.tag()), ("role", "status")], n.loading);
        h.text_el("p", &[("class", "note-no-app"), ("lang", lang.tag())], n.needs_scripts);
    }
    h.close("div");
    h.finish()
}

/// The app's part of the page at `first`, as the app's first frame draws it: `<div class="app">` with the
/// masthead, the notices, the picker, the lab, the later panels' slot and the share panel.
pub fn app(first: &First) -> String {
    let t = text(first.lang);
    let (id, i) = (first.scenario, &first.inputs);
    let run = first.run();
    let mut h = Html::default();
    h.open("div", &[("class", "app prerendered")]);

    h.open("header", &[("class", "masthead")]);
    h.text_el("h1", &[], t.title);
    h.text_el("p", &[("class", "tagline")], t.tagline);
    h.open("div", &[("class", "lang-switch"), ("role", "group"), ("aria-label", t.language)]);
    h.built(&markup::lang_buttons(first.lang));
    h.close("div");
    h.close("header");
    // The notices of a bad link and of a bad message from an embedding page: none.
    h.text_el("div", &[], "");
    h.text_el("div", &[], "");

    h.open("nav", &[("class", "picker"), ("aria-label", t.scenarios)]);
    h.built(&markup::picker_frame(id, first.lang, t));
    h.close("nav");

    let (kind, double) = (run.outcome.kind, run.outcome.double_grant.is_some());
    let figure_attrs = [
        ("class", "lab"),
        ("aria-labelledby", "lab-question"),
        ("tabindex", "-1"),
        ("data-outcome", kind.name()),
        ("data-double-grant", if double { "true" } else { "false" }),
        ("data-scenario", id.id()),
        // As the app's first frame says: no drag or typing has begun.
        ("data-hand", "rest"),
    ];
    h.open("figure", &figure_attrs);
    h.text_el("p", &[("class", "script-status"), ("role", "status")], "");
    h.open("div", &[("id", "lab-question"), ("class", "question")]);
    // The source's question only on its own state; elsewhere empty, as the app leaves it (`:empty` hides it).
    let seed = if lesson::asks_seed_question(id, i) { t.question } else { "" };
    h.text_el("p", &[("class", "seed-question")], seed);
    h.text_el("p", &[("class", "setup")], &t.setup(id, i));
    h.close("div");
    h.text_el("p", &[("class", "prompt"), ("id", markup::PROMPT_ID)], &t.prompt(id, i));
    h.open("div", &[("class", "timeline")]);
    for (class, width) in WIDTHS {
        h.built(&timeline(first, &run, class, width, t));
    }
    h.open("ul", &[("class", "legend")]);
    h.built(&figure::legend(t, Who::Catalogue(id)));
    h.close("ul");
    h.close("div");
    h.text_el("div", &[("class", "editor-slot")], "");
    h.open("div", &[("class", "controls")]);
    h.built(&markup::toggles(id, i, t));
    h.close("div");
    h.open("div", &[("class", "playback"), ("role", "group"), ("aria-label", t.scrub), ("hidden", "")]);
    h.built(&markup::playback_frame(t));
    h.close("div");
    h.open("section", &[("class", "verdict"), ("aria-label", t.verdict), ("data-kind", "hidden")]);
    // The verdict told, hidden, as the app's first frame has it: its lesson comes with the later module.
    h.built(&markup::verdict_predicting(id, None, &markup::verdict(&run.outcome, "", t), t));
    h.close("section");
    h.close("figure");

    h.open("div", &[("class", "later")]);
    h.text_el("div", &[("class", "later-status")], "");
    h.text_el("div", &[("class", "later-panels")], "");
    h.close("div");
    h.open("details", &[("class", "share")]);
    h.text_el("summary", &[], t.share);
    h.text_el("div", &[("class", "share-body")], "");
    h.text_el("div", &[("class", "share-status")], "");
    h.close("details");
    h.close("div");
    disable_buttons(&h.finish())
}

/// `markup` with every button disabled: before the app starts, each waits for it.
fn disable_buttons(markup: &str) -> String {
    let mut out = String::with_capacity(markup.len() + 256);
    let mut rest = markup;
    while let Some(at) = rest.find("<button") {
        let end = rest[at..].find('>').map_or(rest.len(), |e| at + e);
        out.push_str(&rest[..end]);
        if !rest[at..end].split_whitespace().any(|attr| attr == "disabled") {
            out.push_str(" disabled");
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The figure at t = 0 drawn at `width`, scaled to its box (`class` says which box: `narrow` or `wide`).
fn timeline(first: &First, run: &Run, class: &str, width: f64, t: &Text) -> String {
    let id = first.scenario;
    let who = Who::Catalogue(id);
    let l = Layout::named(width, run, who, MIN_AXIS, t);
    let (w, ht) = (figure::px(l.width), figure::px(l.height()));
    let view = format!("0 0 {w} {ht}");
    let class = format!("pre-{class}");
    let attrs = [
        ("class", class.as_str()),
        ("role", "group"),
        ("width", "100%"),
        ("height", ht.as_str()),
        ("viewBox", view.as_str()),
        ("preserveAspectRatio", "xMinYMin meet"),
        ("aria-label", t.figure_label),
    ];
    let mut h = Html::default();
    h.open("svg", &attrs);
    h.built(&figure::lab_groups(&l, run, who, Some(0), figure::job(who, &first.inputs), t));
    if let Some(handle) = figure::handle(&l, who, &first.inputs, run, t) {
        let (min, max, now) = (handle.min.to_string(), handle.max.to_string(), handle.now.to_string());
        let attrs = [
            ("class", "handle"),
            ("role", "slider"),
            ("tabindex", "0"),
            ("aria-orientation", "horizontal"),
            ("aria-label", &handle.label),
            ("aria-valuemin", &min),
            ("aria-valuemax", &max),
            ("aria-valuenow", &now),
            ("aria-valuetext", &handle.text),
            // The app drags it; until it starts, nothing can.
            ("aria-disabled", "true"),
        ];
        h.open("g", &attrs);
        h.open("g", &[("transform", &handle.transform)]);
        h.built(figure::GRIP);
        h.close("g");
        h.close("g");
    }
    h.close("svg");
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_the_figure_the_question_its_choices_and_both_readings() {
        let first = First::page();
        let page = main(&first);
        let t = text(Lang::En);
        // The figure at t = 0, twice (a phone's width and a wide screen's), with A's pause band to 15 s.
        assert_eq!(page.matches(r#"<g class="lanes">"#).count(), 2);
        assert_eq!(page.matches(r#"class="paused-label""#).count(), 2);
        assert!(page.contains(r#"data-outcome="fenced""#) && page.contains(r#"data-scenario="gc-pause""#));
        assert!(page.contains(t.question) && page.contains(&t.prompt(first.scenario, &first.inputs)));
        assert!(page.contains(r#"aria-valuenow="15000""#));
        for kind in ["safe", "fenced", "corrupted", "unfenced-gap", "stalled"] {
            assert!(page.contains(&format!(r#"name="prediction" value="{kind}""#)), "{kind}");
        }
        assert!(page.contains(r#"<article class="reading" lang="en""#));
        assert!(page.contains(r#"<article class="reading" lang="ja""#));
        assert!(page.contains(reading(Lang::Ja).heading));
        // Nothing the app has not started for can be pressed: its buttons wait, its handle says so.
        // (The languages, "Edit as script", playback's, the prediction's; the share panel's come later.)
        let buttons = page.matches("<button").count();
        assert!(buttons >= 10, "{buttons}");
        assert_eq!(
            page.matches(" disabled>").count() + page.matches(" disabled ").count(),
            buttons,
            "every button is disabled"
        );
        assert_eq!(page.matches(r#"aria-disabled="true""#).count(), 2);
        // Only the app's own handle carries the slider's id, once it is there.
        assert!(!page.contains(r#"id="pause-handle""#));
    }

    #[test]
    fn a_button_is_disabled_once() {
        assert_eq!(
            disable_buttons(r#"<button type="button">a</button><button disabled>b</button><p>c</p>"#),
            r#"<button type="button" disabled>a</button><button disabled>b</button><p>c</p>"#
        );
    }

    #[test]
    fn the_page_at_another_state_draws_that_state() {
        let first =
            First { lang: Lang::Ja, scenario: ScenarioId::Redlock, inputs: ScenarioId::Redlock.defaults() };
        let page = app(&first);
        assert!(page.contains(r#"data-scenario="redlock""#) && page.contains(text(Lang::Ja).title));
        assert!(page.contains(r#"<p class="seed-question"></p>"#));
    }
}
