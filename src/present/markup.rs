//! The page's display-only parts as HTML markup, drawn from plain data: the scenario picker, the answer
//! choices, the verdict badge, notices, the outcome strip, the map of "Break it", the real runs and the
//! reading.
//!
//! Pure (no web), like the figure: the view sets this markup and listens for clicks and changes on its
//! container (one listener, reading `data-*` attributes). Markup from data keeps the bundle small — no
//! view types per element — and lets native tests read what the reader sees.

use std::fmt::Write;

use crate::present::breakit::Plane;
use crate::present::figure;
use crate::present::geom::{seconds, MIN_AXIS, SHORT_AXIS};
use crate::present::params::{Problem, FSI, PDI};
use crate::present::recordings::Recording;
use crate::present::text::{fill, fill_with, Text};
use crate::scenarios::search::Bound;
use crate::scenarios::{Group, Inputs, Key, Kind, ScenarioId};
use crate::sim::Run;
use crate::sim::{Ms, OutcomeKind, Segment};

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

/// The picker: a heading per group and a button per scenario (`data-scenario-id`, `aria-pressed`).
pub fn picker(current: ScenarioId, t: &Text) -> String {
    let mut out = String::new();
    for g in Group::ALL {
        let name = esc((t.group)(g));
        let _ = write!(
            out,
            r#"<div class="scenario-group" role="group" aria-label="{name}"><h3 aria-hidden="true">{name}</h3><ul>"#
        );
        for id in ScenarioId::ALL.into_iter().filter(|s| s.group() == g) {
            let s = (t.scenario)(id);
            let _ = write!(
                out,
                r#"<li><button type="button" class="scenario" data-scenario-id="{}" aria-pressed="{}"><span class="scenario-title">{}</span><span class="scenario-blurb">{}</span></button></li>"#,
                id.id(),
                id == current,
                esc(s.title),
                esc(s.blurb)
            );
        }
        out.push_str("</ul></div>");
    }
    out
}

/// The controls above the timeline: the scenario's switches ([`switches`]), the readout of its dragged value
/// (its `<output>` for the view to fill), and, where both safety devices are switches, what each protects.
pub fn toggles(scenario: ScenarioId, inputs: &Inputs, t: &Text) -> String {
    let mut out =
        format!(r#"<div class="toggles"><div class="switches">{}</div>"#, switches(scenario, inputs, t));
    if let Some(key) = scenario.dragged() {
        let _ = write!(
            out,
            r#"<p class="pause-readout"><span class="swatch pause-swatch" aria-hidden="true"></span>{}<output for="pause-handle"></output></p>"#,
            esc((t.drag_label)(key))
        );
    }
    out.push_str("</div>");
    let keys = scenario.keys();
    if keys.contains(&Key::Lease) && keys.contains(&Key::Fencing) {
        let _ = write!(out, r#"<p class="devices">{}</p>"#, esc(t.devices));
    }
    out
}

/// The scenario's switches: real checkboxes with `role="switch"`, each named by its label alone
/// (`aria-labelledby`) and described by its hint; the state word beside the name is for the eye only.
pub fn switches(scenario: ScenarioId, inputs: &Inputs, t: &Text) -> String {
    let mut out = String::new();
    for &key in scenario.keys().iter().filter(|k| k.spec().is_switch()) {
        let (id, on) = (key.spec().name, key.spec().get(inputs) != 0);
        let checked = if on { " checked" } else { "" };
        let _ = write!(
            out,
            r#"<label class="switch" for="{id}"><input id="{id}" type="checkbox" role="switch" aria-labelledby="{id}-name" aria-describedby="{id}-hint"{checked}><span class="track" aria-hidden="true"></span><span class="switch-name"><span id="{id}-name">{}</span><span class="switch-state on" aria-hidden="true">{}</span><span class="switch-state off" aria-hidden="true">{}</span></span><span class="switch-hint" id="{id}-hint">{}</span></label>"#,
            esc((t.switch_name)(key)),
            esc((t.switch_state)(true)),
            esc((t.switch_state)(false)),
            esc(&t.hint(key, inputs))
        );
    }
    if scenario == ScenarioId::Redlock {
        // Shown but unavailable, with the reason: the reader looks for fencing and learns why it is missing.
        let _ = write!(
            out,
            r#"<label class="switch" for="fencing"><input id="fencing" type="checkbox" role="switch" aria-labelledby="fencing-name" aria-describedby="fencing-hint" aria-disabled="true"><span class="track" aria-hidden="true"></span><span class="switch-name"><span id="fencing-name">{}</span></span><span class="switch-hint" id="fencing-hint">{}</span></label>"#,
            esc((t.switch_name)(Key::Fencing)),
            esc(t.no_fencing)
        );
    }
    out
}

/// The answer choices of a scenario's prediction, as radios named `prediction` whose values are outcome
/// names; `pick` is checked.
pub fn choices(scenario: ScenarioId, pick: Option<OutcomeKind>, t: &Text) -> String {
    let mut out = String::new();
    for &(kind, label) in (t.scenario)(scenario).choices {
        let checked = if pick == Some(kind) { " checked" } else { "" };
        let _ = write!(
            out,
            r#"<label class="choice"><input type="radio" name="prediction" value="{}"{checked}><span>{}</span></label>"#,
            kind.name(),
            esc(label)
        );
    }
    out
}

/// The verdict: its icon and title (focusable, so focus can move to it), its lesson, and whether the lock
/// service ever had two holders.
pub fn verdict(kind: OutcomeKind, double_grant: bool, t: &Text) -> String {
    format!(
        r#"<p class="badge" id="verdict-title" tabindex="-1"><span class="icon" aria-hidden="true">{}</span>{}</p><p class="lesson">{}</p><p class="fact">{}</p>"#,
        icon(kind),
        esc(t.outcome_title(kind)),
        esc(t.outcome_lesson(kind)),
        esc((t.double_grant_fact)(double_grant))
    )
}

/// A notice: its heading and one item per problem, its key and value each isolated
/// ([`Problem::isolated`]) so a right-to-left override in a value cannot reverse the sentence around it.
/// Empty without problems.
pub fn notice(heading: &str, problems: &[Problem], t: &Text) -> String {
    if problems.is_empty() {
        return String::new();
    }
    let mut out = format!(r#"<div class="notice" role="alert"><p>{}</p><ul>"#, esc(heading));
    for p in problems {
        // The isolate marks become `<bdi>`: the same isolation, and the text a reader copies stays clean.
        let line = esc(&(t.problem)(&p.isolated())).replace(FSI, "<bdi>").replace(PDI, "</bdi>");
        let _ = write!(out, "<li>{line}</li>");
    }
    out.push_str("</ul></div>");
    out
}

/// `t` as a CSS percentage of a strip from 0 to `max` (integer arithmetic: no float formatting in the bundle).
pub fn percent(t: Ms, max: Ms) -> String {
    let thousandths = t * 100_000 / max.max(1);
    format!("{}.{:03}%", thousandths / 1_000, thousandths % 1_000)
}

/// The outcome map as an SVG strip of segments, each with its verdict's title, and the true boundary at
/// `truth`. Positions are SVG percentages, not inline styles, which the page's CSP forbids in markup.
pub fn strip(map: &[Segment], max: Ms, truth: Option<Ms>, t: &Text) -> String {
    let mut out = String::from(r#"<svg class="segments" width="100%" height="100%" aria-hidden="true">"#);
    for seg in map {
        let title = esc(t.outcome_title(seg.kind));
        // A nested viewport per segment clips its label to the segment.
        let _ = write!(
            out,
            r#"<svg class="segment" data-kind="{}" x="{}" width="{}" height="100%"><title>{title}</title><rect width="100%" height="100%"/><text x="6" y="22">{title}</text></svg>"#,
            seg.kind.name(),
            percent(seg.from, max),
            percent(seg.to + 1 - seg.from, max)
        );
    }
    if let Some(at) = truth {
        let x = percent(at, max);
        let _ = write!(out, r#"<line class="truth" x1="{x}" x2="{x}" y1="-6" y2="100%"/>"#);
    }
    out.push_str("</svg>");
    out
}

/// The frame of "Where does it change?" over values `min..=max`, the marker at `guess`, for the view to fill
/// in: the question, the strip with the marker (a native range input), the check and its result.
pub fn challenge(t: &Text, min: Ms, max: Ms, guess: Ms) -> String {
    format!(
        r#"<h2 id="challenge-title">{}</h2><p class="question"></p><div class="strip-wrap"><div class="strip" role="img"></div><input type="range" class="ghost" min="{min}" max="{max}" step="100" value="{guess}"><div class="strip-axis" aria-hidden="true"><span>{}</span><span class="ghost-label"></span><span class="axis-end"></span></div></div><div class="challenge-actions"><button type="button" class="primary" data-check="">{}</button><p class="boundary-result" aria-live="polite"></p></div>"#,
        esc(t.boundary_heading),
        seconds(min),
        esc(t.check)
    )
}

/// The frame of "Break it", for the view to fill in: the reader's find, the map, the search and its report.
pub fn break_it(t: &Text, map: bool) -> String {
    format!(
        r#"<h2 id="break-title">{}</h2><p>{}</p><p class="found" aria-live="polite"></p><div class="plane-wrap"></div><div class="search-actions"><button type="button" class="primary" data-search="">{}</button><progress hidden aria-label="{}"></progress></div><p class="search-result" aria-live="polite"></p><div class="show-it"></div>"#,
        esc(t.break_heading),
        esc(t.break_intro[usize::from(!map)]),
        esc(t.search),
        esc(t.searching)
    )
}

/// The map of "Break it": a caption naming its axes, an ARIA grid of one cell per run (`data-cell`, a
/// roving `tabindex` starting at `here`, the current run's cell, or the first) and a legend of the
/// verdicts it shows.
pub fn plane(p: &Plane, here: Option<usize>, t: &Text) -> String {
    let name = |b: &Bound| t.range(b);
    let mut caption = fill(t.plane_cols, &[&name(&p.dims[p.dims.len() - 1])]);
    if p.dims.len() == 2 {
        caption += &fill(t.plane_rows, &[&name(&p.dims[0])]);
    }
    let columns = p.columns();
    let mut out = format!(
        r#"<p id="plane-caption" class="plane-caption">{}</p><div class="plane" role="grid" aria-labelledby="plane-caption">"#,
        esc(&caption)
    );
    for (i, &kind) in p.kinds.iter().enumerate() {
        if i % columns == 0 {
            out.push_str(if i == 0 { r#"<div role="row">"# } else { r#"</div><div role="row">"# });
        }
        let label = format!("{} → {}", t.values(&p.values(i)), t.outcome_title(kind));
        let _ = write!(
            out,
            r#"<span role="gridcell" class="cell{}" data-cell="{i}" data-kind="{}" tabindex="{}" aria-label="{}">{}</span>"#,
            if Some(i) == here { r#" here" aria-current="true"# } else { "" },
            kind.name(),
            if i == here.unwrap_or(0) { 0 } else { -1 },
            esc(&label),
            icon(kind)
        );
    }
    out.push_str(r#"</div></div><ul class="plane-legend">"#);
    for kind in OutcomeKind::ALL.into_iter().filter(|k| p.kinds.contains(k)) {
        let _ = write!(
            out,
            r#"<li><span class="cell swatch" data-kind="{}" aria-hidden="true">{}</span>{}</li>"#,
            kind.name(),
            icon(kind),
            esc(t.outcome_title(kind))
        );
    }
    out.push_str("</ul>");
    out
}

/// The real runs recorded for the current scenario and switches, each with its replayed run: a caption that
/// says what ran and compares the verdicts, and the figure.
pub fn real_runs(runs: &[(&Recording, Run)], t: &Text) -> String {
    if runs.is_empty() {
        return format!("<p>{}</p>", esc(t.real_none));
    }
    let mut out = String::new();
    for (r, run) in runs {
        // The dragged value, and every other timing the recording changed (B's work, say): what it ran.
        let defaults = r.scenario.defaults();
        let timings = r.scenario.keys().iter().chain(r.scenario.extras()).filter(|k| {
            let spec = k.spec();
            matches!(spec.kind, Kind::Ms { .. })
                && (Some(**k) == r.scenario.dragged() || spec.get(&r.inputs) != spec.get(&defaults))
        });
        let values: Vec<(Key, Ms)> = timings.map(|&k| (k, k.spec().get(&r.inputs))).collect();
        let values =
            if values.is_empty() { String::new() } else { t.value_sep.to_owned() + &t.values(&values) };
        let system = format!("{} {}", if r.backend == "redis" { "Redis" } else { "etcd" }, r.version);
        let caption = fill_with(t.real_caption, &|name| match name {
            "system" => system.clone(),
            "date" => r.recorded.to_owned(),
            "values" => values.clone(),
            "real" => t.outcome_title(run.outcome.kind).to_owned(),
            "simulated" => t.outcome_title(r.simulated).to_owned(),
            "same" => t.real_same[usize::from(run.outcome.kind != r.simulated)].to_owned(),
            _ => seconds(r.max_jitter_ms),
        });
        let min_axis = if r.scenario.dragged().is_some() { MIN_AXIS } else { SHORT_AXIS };
        let _ = write!(
            out,
            r#"<figure class="real-run" data-backend="{}" data-outcome="{}"><figcaption>{}</figcaption><div class="real-figure">{}</div></figure>"#,
            esc(r.backend),
            run.outcome.kind.name(),
            esc(&caption),
            figure::whole(run, r.scenario, 720.0, min_axis, &system, t),
        );
    }
    out
}

/// The reading: a section per heading, each linked (`data-play-scenario`) to the scenarios that show it.
pub fn reading(t: &Text) -> String {
    let mut out = format!(r#"<h2 id="reading-title">{}</h2>"#, esc(t.reading_heading));
    for &(heading, paragraphs, scenarios) in t.reading {
        let _ = write!(out, "<section><h3>{}</h3>", esc(heading));
        for p in paragraphs {
            let _ = write!(out, "<p>{}</p>", esc(p));
        }
        for &id in scenarios {
            let _ = write!(
                out,
                r#"<button type="button" class="play-it" data-play-scenario="{}">{} → {}</button>"#,
                id.id(),
                esc(t.play_it),
                esc((t.scenario)(id).title)
            );
        }
        out.push_str("</section>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::params::{Lang, Query};
    use crate::present::text::text;

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc(r#"<a & "b">"#), "&lt;a &amp; &quot;b&quot;&gt;");
    }

    #[test]
    fn the_picker_lists_every_scenario_once_and_marks_the_current_one() {
        let html = picker(ScenarioId::Crash, text(Lang::En));
        for id in ScenarioId::ALL {
            assert_eq!(html.matches(&format!(r#"data-scenario-id="{}""#, id.id())).count(), 1);
        }
        assert_eq!(html.matches(r#"aria-pressed="true""#).count(), 1);
        assert!(html.contains(r#"data-scenario-id="crash" aria-pressed="true""#));
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
    fn notices_escape_and_isolate_hostile_values() {
        let q = Query::parse("?pause=%3Cb%3E&lease=%E2%80%AE00051");
        let html = notice("h", &q.problems, text(Lang::En));
        assert!(html.contains("&lt;b&gt;") && !html.contains("<b>"));
        // The value is isolated, not the line: the sentence keeps its own direction around it.
        assert!(html.contains("<li>lease: “<bdi>\u{202e}00051</bdi>” is not one of"), "{html}");
        assert_eq!(html.matches("<bdi>").count(), 2);
        assert_eq!(notice("h", &[], text(Lang::En)), "");
    }

    #[test]
    fn the_strip_places_segments_by_percent() {
        let map = [
            Segment { from: 0, to: 9_999, kind: OutcomeKind::Safe },
            Segment { from: 10_000, to: 30_000, kind: OutcomeKind::Stalled },
        ];
        let html = strip(&map, 30_000, Some(10_000), text(Lang::En));
        assert!(html.contains(r#"data-kind="safe" x="0.000%" width="33.333%""#), "{html}");
        assert!(html.contains(r#"class="truth" x1="33.333%""#));
        assert!(!html.contains("style="), "inline styles break the CSP");
        assert_eq!(percent(28_000, 28_000), "100.000%");
    }

    #[test]
    fn the_reading_links_sections_to_scenarios() {
        let html = reading(text(Lang::En));
        assert!(html.contains(r#"data-play-scenario="register-token""#));
        assert!(html.matches("<section>").count() >= 6);
    }
}
