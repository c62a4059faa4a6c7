//! The page's display-only parts as HTML markup, drawn from plain data: the scenario picker, the answer
//! choices, the verdict badge, notices, the outcome strip, the map of "Break it", the real runs and the
//! reading.
//!
//! Pure (no web), like the figure: the view sets this markup and listens for clicks and changes on its
//! container (one listener, reading `data-*` attributes). Markup from data keeps the bundle small — no
//! view types per element — and lets native tests read what the reader sees. Every element is written by
//! [`Html`], which escapes text and attribute values as they go in.

use crate::present::breakit::Plane;
use crate::present::figure;
use crate::present::geom::{seconds, MIN_AXIS, SHORT_AXIS};
use crate::present::html::Html;
use crate::present::params::{Lang, Problem, FSI, PDI};
use crate::present::recordings::{Opened, Recording};
use crate::present::text::{fill, fill_with, Panels, Reading, Text};
use crate::scenarios::search::Bound;
use crate::scenarios::{Group, Inputs, Key, Kind, ScenarioId};
use crate::sim::{Ms, Outcome, OutcomeKind, Segment};
use crate::sim::{Run, Scenario};

pub use crate::present::html::esc;

/// A shape per verdict, so colour is never the only cue.
pub fn icon(kind: OutcomeKind) -> &'static str {
    match kind {
        OutcomeKind::Safe | OutcomeKind::Fenced => "✓",
        OutcomeKind::Stalled => "⧗",
        OutcomeKind::Orphaned => "∞",
        OutcomeKind::UnfencedGap => "!",
        OutcomeKind::DoubleGrant => "‼",
        OutcomeKind::Corrupted => "✗",
    }
}

/// The picker's list: a heading per group and a link per scenario to its own state (`data-scenario-id`,
/// `aria-current` on the one shown). A link works before the app starts and opens in a new tab; the app
/// picks the scenario in place instead.
pub fn picker(current: ScenarioId, lang: Lang, t: &Text) -> String {
    let mut h = Html::default();
    for g in Group::ALL {
        let name = (t.group)(g);
        h.open("div", &[("class", "scenario-group"), ("role", "group"), ("aria-label", name)]);
        h.text_el("h3", &[("aria-hidden", "true")], name);
        h.open("ul", &[]);
        for id in ScenarioId::ALL.into_iter().filter(|s| s.group() == g) {
            let s = (t.scenario)(id);
            let href = format!("?scenario={}&lang={}", id.id(), lang.tag());
            let attrs = [
                ("href", href.as_str()),
                ("class", "scenario"),
                ("data-scenario-id", id.id()),
                (if id == current { "aria-current" } else { "" }, "true"),
            ];
            h.open("li", &[]);
            h.open("a", &attrs);
            h.text_el("span", &[("class", "scenario-title")], s.title);
            h.text_el("span", &[("class", "scenario-blurb")], s.blurb);
            h.close("a");
            h.close("li");
        }
        h.close("ul");
        h.close("div");
    }
    h.finish()
}

/// The language switch: English / 日本語, as two pressed-state buttons.
pub fn lang_buttons(lang: Lang) -> String {
    let mut h = Html::default();
    for (l, label) in [(Lang::En, "English"), (Lang::Ja, "日本語")] {
        let pressed = if l == lang { "true" } else { "false" };
        let attrs =
            [("type", "button"), ("lang", l.tag()), ("data-lang", l.tag()), ("aria-pressed", pressed)];
        h.text_el("button", &attrs, label);
    }
    h.finish()
}

/// The controls above the timeline: the scenario's switches ([`switches`]), the readout of its dragged value
/// (its `<output>` for the view to fill), and, where both safety devices are switches, what each protects.
pub fn toggles(scenario: ScenarioId, inputs: &Inputs, t: &Text) -> String {
    let mut h = Html::default();
    h.open("div", &[("class", "toggles")]);
    h.open("div", &[("class", "switches")]);
    h.built(&switches(scenario, inputs, t));
    h.close("div");
    if let Some(key) = scenario.dragged() {
        h.open("p", &[("class", "pause-readout")]);
        h.text_el("span", &[("class", "swatch pause-swatch"), ("aria-hidden", "true")], "");
        h.text((t.drag_label)(key));
        h.text_el("output", &[("for", "pause-handle")], &(t.playhead)(key.spec().get(inputs)));
        h.close("p");
    }
    h.close("div");
    let keys = scenario.keys();
    if keys.contains(&Key::Lease) && keys.contains(&Key::Fencing) {
        h.text_el("p", &[("class", "devices")], t.devices);
    }
    edit_button(&mut h, t);
    h.finish()
}

/// "Edit as script" alone: all a script that does not read has under its message.
pub fn edit_row(t: &Text) -> String {
    let mut h = Html::default();
    edit_button(&mut h, t);
    h.finish()
}

/// "Edit as script": the scenario on screen, opened as a script beside the figure.
fn edit_button(h: &mut Html, t: &Text) {
    h.open("p", &[("class", "edit-row")]);
    // Its id keeps the reader's focus on it when the controls are drawn again (`app::controls`).
    let attrs = [("type", "button"), ("class", "link"), ("id", "edit-script"), ("data-edit-script", "")];
    h.text_el("button", &attrs, t.edit_script);
    h.close("p");
}

/// The controls of a script's scenario: its expiry, fencing and named switches as switches (each edits its
/// line of the script), the readout of its dragged named value, a slider over each of its other named values (each
/// edits the value where the script defines it), and the way back to the editor.
pub fn script_toggles(sc: &Scenario, t: &Text) -> String {
    let mut h = Html::default();
    let inputs = Inputs { ttl: sc.ttl, lease: sc.lease, fencing: sc.fencing, ..Inputs::default() };
    h.open("div", &[("class", "toggles")]);
    h.open("div", &[("class", "switches")]);
    switch(&mut h, "lease", (t.switch_name)(Key::Lease), Some(sc.lease), &t.hint(Key::Lease, &inputs), t);
    let fencing = sc.tokens().then_some(sc.fencing);
    let hint = if sc.tokens() { t.hint(Key::Fencing, &inputs) } else { t.no_fencing.to_owned() };
    switch(&mut h, "fencing", (t.switch_name)(Key::Fencing), fencing, &hint, t);
    for s in &sc.switches {
        switch(&mut h, &format!("switch-{}", s.name), &s.name, Some(s.on), &(t.named_switch)(&s.name), t);
    }
    h.close("div");
    if let Some(p) = sc.dragged() {
        h.open("p", &[("class", "pause-readout")]);
        h.text_el("span", &[("class", "swatch pause-swatch"), ("aria-hidden", "true")], "");
        h.text(&format!("{}: ", p.name));
        h.text_el("output", &[("for", "pause-handle")], &(t.playhead)(p.value));
        h.close("p");
    }
    h.close("div");
    let others: Vec<(usize, &crate::sim::Param)> =
        sc.params.iter().enumerate().filter(|(i, _)| sc.drag.map(usize::from) != Some(*i)).collect();
    if !others.is_empty() {
        h.open("div", &[("class", "values")]);
        for (i, p) in others {
            let (id, min, max, value) =
                (format!("value-{i}"), p.min.to_string(), p.max.to_string(), p.value.to_string());
            h.open("label", &[("class", "value"), ("for", &id)]);
            h.text_el("span", &[("class", "value-name")], &p.name);
            let attrs = [
                ("type", "range"),
                ("id", &id),
                ("min", &min),
                ("max", &max),
                ("step", "100"),
                ("value", &value),
                ("aria-label", &(t.value_slider)(&p.name)),
                ("aria-valuetext", &(t.playhead)(p.value)),
            ];
            h.void("input", &attrs);
            h.text_el("output", &[("for", &id)], &(t.playhead)(p.value));
            h.close("label");
        }
        h.close("div");
    }
    edit_button(&mut h, t);
    h.finish()
}

/// The answer choices for a script's question: one radio per verdict, each named by its title; `pick` is
/// checked.
pub fn script_choices(pick: Option<OutcomeKind>, t: &Text) -> String {
    let mut h = Html::default();
    for kind in OutcomeKind::ALL {
        h.open("label", &[("class", "choice")]);
        let checked = if pick == Some(kind) { "checked" } else { "" };
        h.void("input", &[("type", "radio"), ("name", "prediction"), ("value", kind.name()), (checked, "")]);
        h.text_el("span", &[], t.outcome_title(kind));
        h.close("label");
    }
    h.finish()
}

/// One switch: a real checkbox with `role="switch"`, named by its label alone (`aria-labelledby`) and
/// described by its hint; the state words beside the name are for the eye only. `on: None` is a switch
/// shown but unavailable (`aria-disabled`), with no state words.
fn switch(h: &mut Html, id: &str, name: &str, on: Option<bool>, hint: &str, t: &Text) {
    let (name_id, hint_id) = (format!("{id}-name"), format!("{id}-hint"));
    h.open("label", &[("class", "switch"), ("for", id)]);
    h.void(
        "input",
        &[
            ("id", id),
            ("type", "checkbox"),
            ("role", "switch"),
            ("aria-labelledby", &name_id),
            ("aria-describedby", &hint_id),
            (if on == Some(true) { "checked" } else { "" }, ""),
            (if on.is_none() { "aria-disabled" } else { "" }, "true"),
        ],
    );
    h.text_el("span", &[("class", "track"), ("aria-hidden", "true")], "");
    h.open("span", &[("class", "switch-name")]);
    h.text_el("span", &[("id", &name_id)], name);
    if on.is_some() {
        h.text_el("span", &[("class", "switch-state on"), ("aria-hidden", "true")], (t.switch_state)(true));
        h.text_el("span", &[("class", "switch-state off"), ("aria-hidden", "true")], (t.switch_state)(false));
    }
    h.close("span");
    h.text_el("span", &[("class", "switch-hint"), ("id", &hint_id)], hint);
    h.close("label");
}

/// The scenario's switches ([`switch`]); Redlock's fencing is shown but unavailable, with the reason.
pub fn switches(scenario: ScenarioId, inputs: &Inputs, t: &Text) -> String {
    let mut h = Html::default();
    for &key in scenario.keys().iter().filter(|k| k.spec().is_switch()) {
        let on = key.spec().get(inputs) != 0;
        switch(&mut h, key.spec().name, (t.switch_name)(key), Some(on), &t.hint(key, inputs), t);
    }
    if scenario == ScenarioId::Redlock {
        // Shown but unavailable, with the reason: the reader looks for fencing and learns why it is missing.
        switch(&mut h, "fencing", (t.switch_name)(Key::Fencing), None, t.no_fencing, t);
    }
    h.finish()
}

/// The answer choices of a scenario's prediction, as radios named `prediction` whose values are outcome
/// names; `pick` is checked.
pub fn choices(scenario: ScenarioId, pick: Option<OutcomeKind>, t: &Text) -> String {
    let mut h = Html::default();
    for &(kind, label) in (t.scenario)(scenario).choices {
        h.open("label", &[("class", "choice")]);
        let checked = if pick == Some(kind) { "checked" } else { "" };
        h.void("input", &[("type", "radio"), ("name", "prediction"), ("value", kind.name()), (checked, "")]);
        h.text_el("span", &[], label);
        h.close("label");
    }
    h.finish()
}

/// The verdict: its icon and title (focusable, so focus can move to it), its lesson, and whether the lock
/// service ever had two holders.
pub fn verdict(o: &Outcome, lesson: &str, t: &Text) -> String {
    let kind = o.kind;
    let mut h = Html::default();
    h.open("p", &[("class", "badge"), ("id", "verdict-title"), ("tabindex", "-1")]);
    h.text_el("span", &[("class", "icon"), ("aria-hidden", "true")], icon(kind));
    h.text(t.outcome_title(kind));
    h.close("p");
    h.text_el("p", &[("class", "lesson")], lesson);
    h.text_el("p", &[("class", "fact")], (t.double_grant_fact)(o.double_grant.is_some()));
    h.finish()
}

/// The notices about a link: what was not understood (the default used), then the keys given more than
/// once, under a heading of their own since their last value was used, not the default.
pub fn link_notice(problems: &[Problem], t: &Text) -> String {
    notice(t.notice, problems, false, t) + &notice(t.repeated_notice, problems, true, t)
}

/// A notice: its heading and one item per problem (those of a key given more than once, or the others, as
/// `repeated` says), its key and value each isolated ([`Problem::isolated`]) so a right-to-left override in
/// a value cannot reverse the sentence around it. Empty without such problems.
pub fn notice(heading: &str, problems: &[Problem], repeated: bool, t: &Text) -> String {
    let mut problems =
        problems.iter().filter(|p| matches!(p, Problem::Repeated { .. }) == repeated).peekable();
    if problems.peek().is_none() {
        return String::new();
    }
    let mut h = Html::default();
    h.open("div", &[("class", "notice"), ("role", "alert")]);
    h.text_el("p", &[], heading);
    h.open("ul", &[]);
    for p in problems {
        // The isolate marks become `<bdi>`: the same isolation, and the text a reader copies stays
        // clean. The parts between them are escaped like any text.
        let line = (t.problem)(&p.isolated());
        h.open("li", &[]);
        for (i, part) in line.split([FSI, PDI]).enumerate() {
            if i % 2 == 1 {
                h.text_el("bdi", &[], part);
            } else {
                h.text(part);
            }
        }
        h.close("li");
    }
    h.close("ul");
    h.close("div");
    h.finish()
}

/// `t` as a CSS percentage of a strip from 0 to `max` (integer arithmetic: no float formatting in the bundle).
pub fn percent(t: Ms, max: Ms) -> String {
    let thousandths = t * 100_000 / max.max(1);
    format!("{}.{:03}%", thousandths / 1_000, thousandths % 1_000)
}

/// The outcome map as an SVG strip of segments, each with its verdict's title, and the true boundary at
/// `truth`. Positions are SVG percentages, not inline styles, which the page's CSP forbids in markup.
pub fn strip(map: &[Segment], (min, max): (Ms, Ms), truth: Option<Ms>, t: &Text) -> String {
    let span = max - min;
    let mut h = Html::default();
    let svg = [("class", "segments"), ("width", "100%"), ("height", "100%"), ("aria-hidden", "true")];
    h.open("svg", &svg);
    for seg in map {
        let title = t.outcome_title(seg.kind);
        let (x, width) = (percent(seg.from - min, span), percent(seg.to + 1 - seg.from, span));
        // A nested viewport per segment clips its label to the segment.
        let attrs = [
            ("class", "segment"),
            ("data-kind", seg.kind.name()),
            ("x", &x),
            ("width", &width),
            ("height", "100%"),
        ];
        h.open("svg", &attrs);
        h.text_el("title", &[], title);
        h.void("rect", &[("width", "100%"), ("height", "100%")]);
        h.text_el("text", &[("x", "6"), ("y", "22")], title);
        h.close("svg");
    }
    if let Some(at) = truth {
        let x = percent(at - min, span);
        h.void("line", &[("class", "truth"), ("x1", &x), ("x2", &x), ("y1", "-6"), ("y2", "100%")]);
    }
    h.close("svg");
    h.finish()
}

/// What "Break it" says it searches: the catalogue's disturbances with a map of them, a scenario with
/// nothing to vary, or a script's named values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intro {
    /// The catalogue's disturbances, with their map.
    Mapped = 0,
    /// Nothing to vary: one schedule.
    Fixed = 1,
    /// A script's named values.
    Script = 2,
    /// A script on screen that never read: nothing to search.
    Unread = 3,
}

/// The caption of the map of "Break it": what its columns (and rows) vary, over what range.
pub fn plane_caption(p: &Plane, pt: &Panels) -> String {
    let name = |b: &Bound| pt.range(b);
    let mut caption = fill(pt.plane_cols, &[&name(&p.dims[p.dims.len() - 1])]);
    if p.dims.len() == 2 {
        caption += &fill(pt.plane_rows, &[&name(&p.dims[0])]);
    }
    caption
}

/// A cell of the map, as a screen reader names it: its values and its verdict.
pub fn cell_label(p: &Plane, i: usize, pt: &Panels) -> String {
    format!("{} → {}", pt.values(&p.values(i)), pt.text.outcome_title(p.kinds[i]))
}

/// The caption of a recording: the system and when it ran, how fast, the dragged value and every other
/// timing the recording changed (B's work, say), and its verdict beside the simulation's.
pub fn real_caption(r: &Recording, run: &Run, pt: &Panels) -> String {
    let t = pt.text;
    let defaults = r.scenario.defaults();
    let timings = r.scenario.keys().iter().chain(r.scenario.extras()).filter(|k| {
        let spec = k.spec();
        matches!(spec.kind, Kind::Ms { .. })
            && (Some(**k) == r.scenario.dragged() || spec.get(&r.inputs) != spec.get(&defaults))
    });
    let values: Vec<(Key, Ms)> = timings.map(|&k| (k, k.spec().get(&r.inputs))).collect();
    let values =
        if values.is_empty() { String::new() } else { pt.value_sep.to_owned() + &pt.values(&values) };
    let system = system(r);
    fill_with(pt.real_caption, &|name| match name {
        "system" => system.clone(),
        "date" => r.recorded.to_owned(),
        "speed" => (pt.real_speed)(r.speed),
        "values" => values.clone(),
        "real" => t.outcome_title(run.outcome.kind).to_owned(),
        "simulated" => t.outcome_title(r.simulated).to_owned(),
        "same" => pt.real_same[usize::from(run.outcome.kind != r.simulated)].to_owned(),
        _ => seconds(r.max_jitter_ms),
    })
}

/// The system a recording ran on, as its caption names it: "Redis 7.0.15".
fn system(r: &Recording) -> String {
    let name = match r.backend {
        "redis" => "Redis",
        "zookeeper" => "ZooKeeper",
        other => other,
    };
    format!("{name} {}", r.version)
}

/// A recorded run's figure, drawn as the timeline draws a run (720 wide, the system named in its title).
pub fn recorded_figure(r: &Recording, run: &Run, t: &Text) -> String {
    let min_axis = if r.scenario.dragged().is_some() { MIN_AXIS } else { SHORT_AXIS };
    let mut h = Html::default();
    h.built(&figure::whole(run, figure::Who::Catalogue(r.scenario), 720.0, min_axis, &system(r), t));
    h.finish()
}

/// The reading in `lang`: its heading (with id `heading_id`: the page holds both languages) and a section
/// per heading, each linked to the scenarios that show it: links to their states (`data-play-scenario`),
/// which the app plays in place.
pub fn reading(r: &Reading, t: &Text, heading_id: &str, lang: Lang) -> String {
    let mut h = Html::default();
    h.text_el("h2", &[("id", heading_id)], r.heading);
    for &(heading, paragraphs, scenarios) in r.sections {
        h.open("section", &[]);
        h.text_el("h3", &[], heading);
        for p in paragraphs {
            h.text_el("p", &[], p);
        }
        for &id in scenarios {
            let label = format!("{} → {}", r.play_it, (t.scenario)(id).title);
            let href = format!("?scenario={}&lang={}", id.id(), lang.tag());
            h.text_el("a", &[("href", &href), ("class", "play-it"), ("data-play-scenario", id.id())], &label);
        }
        h.close("section");
    }
    h.finish()
}

/// The picker's frame: a disclosure whose summary names the scenario on screen (one line, so the lab starts
/// on the first screen of a phone), opening the list ([`picker`]).
pub fn picker_frame(current: ScenarioId, lang: Lang, t: &Text) -> String {
    let mut h = Html::default();
    h.open("details", &[]);
    h.open("summary", &[]);
    h.text_el("span", &[("class", "picker-heading")], t.scenarios);
    h.text_el("span", &[("class", "picker-current")], (t.scenario)(current).title);
    h.close("summary");
    h.open("div", &[("class", "scenario-groups")]);
    h.built(&picker(current, lang, t));
    h.close("div");
    h.close("details");
    h.finish()
}

/// The id of the prediction's question, which stands between the set-up and the figure, so that a phone's
/// first screen holds the set-up, the question and the figure's top.
pub const PROMPT_ID: &str = "prompt";

/// The verdict section as it stands while the reader predicts scenario `id` (`pick`: the answer picked so
/// far): the prediction form with its choices (its question stands above the figure, [`PROMPT_ID`]), and,
/// hidden until they apply, the line shown while the run plays, the live region (judgement, the verdict of
/// the run on screen as [`verdict`] draws it (`told`), narration) and "predict again". Buttons carry
/// `data-act`. The view draws this frame once per language and shows and fills its parts as the lesson goes on.
pub fn verdict_predicting(id: ScenarioId, pick: Option<OutcomeKind>, told: &str, t: &Text) -> String {
    let mut h = Html::default();
    h.open("fieldset", &[("class", "predict"), ("aria-describedby", PROMPT_ID)]);
    h.text_el("legend", &[], t.predict_heading);
    h.open("div", &[("class", "choices")]);
    h.built(&choices(id, pick, t));
    h.close("div");
    h.open("div", &[("class", "predict-actions")]);
    // Playing needs an answer first.
    let play = [
        ("type", "button"),
        ("class", "primary"),
        ("data-act", "play"),
        (if pick.is_none() { "disabled" } else { "" }, ""),
    ];
    h.text_el("button", &play, t.play_and_see);
    h.text_el("button", &[("type", "button"), ("class", "link"), ("data-act", "skip")], t.skip);
    h.close("div");
    h.close("fieldset");
    h.open("p", &[("class", "watching"), ("tabindex", "-1"), ("hidden", "")]);
    h.text(t.watching);
    h.text_el("span", &[("class", "your-guess")], " → ");
    h.close("p");
    h.open("div", &[("aria-live", "polite")]);
    h.text_el("p", &[("class", "judged")], "");
    h.open("div", &[("class", "told"), ("hidden", "")]);
    h.built(told);
    h.close("div");
    h.text_el("p", &[("class", "narration"), ("id", "narration")], "");
    h.close("div");
    h.text_el(
        "button",
        &[("type", "button"), ("class", "again"), ("data-act", "again"), ("hidden", "")],
        t.predict_again,
    );
    h.finish()
}

/// A 14 px icon drawn by one SVG path.
fn path_icon(h: &mut Html, d: &str) {
    let svg = [
        ("class", "icon"),
        ("width", "14"),
        ("height", "14"),
        ("viewBox", "0 0 14 14"),
        ("aria-hidden", "true"),
    ];
    h.open("svg", &svg);
    h.void("path", &[("d", d), ("fill", "currentColor")]);
    h.close("svg");
}

/// Playback's frame: play / pause ([`play_button`] fills it), previous and next event, jump to the end, a
/// scrubber and the time. One listener serves every button (`data-action`).
pub fn playback_frame(t: &Text) -> String {
    let mut h = Html::default();
    h.text_el("button", &[("type", "button"), ("class", "play"), ("data-action", "play")], "");
    h.open("span", &[("class", "steps")]);
    for (action, label, d) in [
        ("back", t.step_back, "M2 2h2v10H2zM13 2v10L5 7z"),
        ("forward", t.step_forward, "M1 2v10l8-5zM10 2h2v10h-2z"),
        ("end", t.to_end, "M1 2v10l6-5zM7 2v10l6-5zM12 2h2v10h-2z"),
    ] {
        h.open("button", &[("type", "button"), ("data-action", action), ("aria-label", label)]);
        path_icon(&mut h, d);
        h.close("button");
    }
    h.close("span");
    let scrub =
        [("type", "range"), ("class", "scrub"), ("min", "0"), ("step", "100"), ("aria-label", t.scrub)];
    h.void("input", &scrub);
    h.text_el("output", &[("class", "time")], "");
    h.finish()
}

/// The play button's content: pause while `playing`, else play.
pub fn play_button(playing: bool, t: &Text) -> String {
    let (d, label) = if playing { ("M4 2h3v10H4zM9 2h3v10H9z", t.stop) } else { ("M4 2l9 5-9 5z", t.play) };
    let mut h = Html::default();
    path_icon(&mut h, d);
    h.text_el("span", &[("class", "label")], label);
    h.finish()
}

/// The caption of a run the reader opened: whose client ran it (or the lab's), on what, how fast, and its
/// verdict beside the simulation's.
pub fn opened_caption(o: &Opened, run: &Run, pt: &Panels) -> String {
    let t = pt.text;
    let r = &o.recording;
    let system = system(r);
    let who = match &o.client {
        Some(c) => fill(pt.open_client, &[c]),
        None => pt.open_lab.to_owned(),
    };
    fill_with(pt.open_caption, &|name| match name {
        "who" => who.clone(),
        "system" => system.clone(),
        "speed" => (pt.real_speed)(r.speed),
        "real" => t.outcome_title(run.outcome.kind).to_owned(),
        _ => t.outcome_title(r.simulated).to_owned(),
    })
}

/// Where the page's second module stands for a part that waits for it (the later panels, the share panel's
/// body): `said` while it loads, or, `failed`, that it could not come, with a button to try again.
pub fn later_status(failed: bool, said: &str, t: &Text) -> String {
    let mut h = Html::default();
    if failed {
        h.open("p", &[("class", "later-note"), ("role", "alert")]);
        h.text(said);
        h.text(" ");
        h.text_el("button", &[("type", "button"), ("data-retry", "")], t.retry);
        h.close("p");
    } else {
        h.text_el("p", &[("class", "later-note"), ("role", "status")], said);
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::params::{Lang, Query};
    use crate::present::text::text;

    /// A script's named switch is a switch beside expiry and fencing, in its state, named and explained in
    /// both languages; the page's handler edits the script's `switch` line by the control's id.
    #[test]
    fn a_script_s_named_switch_is_a_control() {
        let sc =
            crate::script::parse("switch atomic on\nA: {atomic? acquire | acquire without expiry}, crash")
                .unwrap();
        for lang in [Lang::En, Lang::Ja] {
            let html = script_toggles(&sc, text(lang));
            let at = html.find(r#"id="switch-atomic""#).expect("the control");
            let input = &html[html[..at].rfind('<').unwrap()..at + html[at..].find('>').unwrap()];
            assert!(input.contains(r#"role="switch""#) && input.contains("checked"), "{input}");
            assert!(html.contains(r#"<span id="switch-atomic-name">atomic</span>"#), "{html}");
            assert!(html.contains("{atomic? "), "{html}");
        }
        let off = crate::script::parse("switch atomic off\nA: {atomic? acquire | crash}").unwrap();
        let html = script_toggles(&off, text(Lang::En));
        let at = html.find(r#"id="switch-atomic""#).unwrap();
        assert!(!html[at..at + html[at..].find('>').unwrap()].contains("checked"));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc(r#"<a & "b">"#), "&lt;a &amp; &quot;b&quot;&gt;");
    }

    #[test]
    fn the_picker_lists_every_scenario_once_and_marks_the_current_one() {
        let html = picker(ScenarioId::Crash, Lang::Ja, text(Lang::Ja));
        for id in ScenarioId::ALL {
            assert_eq!(html.matches(&format!(r#"data-scenario-id="{}""#, id.id())).count(), 1);
        }
        assert_eq!(html.matches(r#"aria-current="true""#).count(), 1);
        assert!(html.contains(r#"href="?scenario=crash&amp;lang=ja" class="scenario" data-scenario-id="crash" aria-current="true""#), "{html}");
    }

    #[test]
    fn switches_are_the_scenarios_own_named_by_their_label() {
        let i = ScenarioId::UnsafeRelease.defaults();
        let html = switches(ScenarioId::UnsafeRelease, &i, text(Lang::En));
        assert_eq!(html.matches(r#"role="switch""#).count(), 2);
        // The scenario opens with a plain DEL: the compare-and-delete switch is off, as its safety device is.
        assert!(html.contains(r#"<input id="release" type="checkbox" role="switch" aria-labelledby="release-name" aria-describedby="release-hint">"#), "{html}");
        assert!(html.contains(r#"id="fencing""#) && !html.contains(r#"id="lease""#));
    }

    #[test]
    fn choices_are_one_radio_per_reachable_outcome_with_the_pick_checked() {
        let html = choices(ScenarioId::SetnxExpire, Some(OutcomeKind::Orphaned), text(Lang::Ja));
        assert_eq!(html.matches(r#"name="prediction""#).count(), 2);
        assert!(html.contains(r#"value="orphaned" checked"#) && !html.contains(r#"value="safe" checked"#));
    }

    #[test]
    fn a_repeated_key_gets_a_notice_of_its_own_naming_the_value_used() {
        let q = Query::parse("?pause=abc&delay=1&pause=x&fencing=on&fencing=off&lease=no");
        let en = link_notice(&q.problems, text(Lang::En));
        assert!(
            en.contains("default was used instead:</p><ul><li>pause: “<bdi>x</bdi>” is not a whole"),
            "{en}"
        );
        assert!(en.contains("<li>lease: “<bdi>no</bdi>” is not one of"), "{en}");
        assert!(en.contains("its last value:</p><ul><li>fencing: “<bdi>off</bdi>”</li></ul>"), "{en}");
        let ja = link_notice(&q.problems, text(Lang::Ja));
        assert!(
            ja.contains("最後の値を使いました：</p><ul><li>fencing：「<bdi>off</bdi>」</li></ul>"),
            "{ja}"
        );
    }

    #[test]
    fn notices_escape_and_isolate_hostile_values() {
        let q = Query::parse("?pause=%3Cb%3E&lease=%E2%80%AE00051");
        let html = notice("h", &q.problems, false, text(Lang::En));
        assert!(html.contains("&lt;b&gt;") && !html.contains("<b>"));
        // The value is isolated, not the line: the sentence keeps its own direction around it.
        assert!(html.contains("<li>lease: “<bdi>\u{202e}00051</bdi>” is not one of"), "{html}");
        assert_eq!(html.matches("<bdi>").count(), 2);
        assert_eq!(notice("h", &[], false, text(Lang::En)), "");
    }

    #[test]
    fn the_strip_places_segments_by_percent() {
        let map = [
            Segment { from: 0, to: 9_999, kind: OutcomeKind::Safe },
            Segment { from: 10_000, to: 30_000, kind: OutcomeKind::Stalled },
        ];
        let html = strip(&map, (0, 30_000), Some(10_000), text(Lang::En));
        assert!(html.contains(r#"data-kind="safe" x="0.000%" width="33.333%""#), "{html}");
        assert!(html.contains(r#"class="truth" x1="33.333%""#));
        assert!(!html.contains("style="), "inline styles break the CSP");
        assert_eq!(percent(28_000, 28_000), "100.000%");
    }

    #[test]
    fn the_reading_links_sections_to_scenarios() {
        let html =
            reading(crate::present::text::reading(Lang::En), text(Lang::En), "reading-title", Lang::En);
        assert!(html.contains(r#"data-play-scenario="register-token""#));
        assert!(html.matches("<section>").count() >= 6);
    }
}
