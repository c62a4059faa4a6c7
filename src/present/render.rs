//! A run drawn for somewhere other than the page: a teacher's slides, a README, a book. `locksim render`
//! and the mdBook preprocessor (`mdbook-lock`) write with this.
//!
//! The figure is the page's own: its groups come from [`figure::lab_groups`] (what the built page and the
//! app draw), its legend from [`figure::legend`], its verdict and narration from the page's texts, and its
//! look from the page's style sheet (`style/main.css`, read at build time): the rules whose classes the
//! figure uses, with the theme's colours written in (no custom properties, no `color-mix`), scoped to the
//! figure's id so that two figures on one page, or a book's own styles, never meet. The result has no
//! script and no external reference.
//!
//! An animated figure (`animate`) plays the run as the page's playback does: a playhead sweeps at the
//! page's speed, the bars grow behind it (a clip that follows it), and every other mark appears at the
//! moment the page's playback first shows it (found by drawing the run at each event's time). Its last frame
//! is the still figure; under `prefers-reduced-motion: reduce` it holds still there.
//!
//! The page's first load never carries it: in the browser, only the second module's Share download does.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::present::figure::{self, px, Layout, Who, AXIS_H};
use crate::present::geom::text_width;
use crate::present::html::{esc, Html};
use crate::present::markup;
use crate::present::params::Lang;
use crate::present::svg::{self, El};
use crate::present::text::{panels, text, Text};
use crate::scenarios::{Inputs, ScenarioId};
use crate::sim::{self, Ms, OutcomeKind, Run, Scenario, Span};

/// The page's style sheet: the rendered figure takes its rules and colours from it.
const PAGE_CSS: &str = include_str!("../../style/main.css");

/// The rules of what only a rendered figure has: its backdrop, and the legend and verdict drawn in SVG
/// (the page has them in HTML). In the page's variables, written in like the page's own rules.
const RENDER_CSS: &str = "\
.backdrop { fill: var(--panel); }
.key-label { fill: var(--muted); font-size: 11px; }
.verdict-icon { fill: var(--kind); }
.verdict-mark { fill: #fff; font-size: 13px; font-weight: 800; }
.verdict-title { fill: var(--ink); font-size: 15px; font-weight: 750; }
.verdict-lesson { fill: var(--ink); font-size: 12.5px; font-weight: 600; }
.verdict-fact { fill: var(--muted); font-size: 11.5px; }
.lab .verdict { margin-top: 10px; }
.open-lab { margin: 8px 0 0; font-size: 0.9rem; }
.open-lab a { color: var(--focus); }
";

/// Simulated ms per real ms while the run plays: the page's playback speed (`app/playback.rs`), a 30 s
/// axis in 6 s.
pub const SPEED: Ms = 5;
/// How long an animated figure holds its last frame before it plays again, in real ms.
pub const HOLD_MS: Ms = 3_000;
/// The width a figure is drawn at unless told: the page's widest ([`crate::present::page::WIDTHS`]).
pub const WIDTH: f64 = 1_082.0;

/// The colours: the page's light scheme or its dark one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// The page's colours in a light scheme.
    Light,
    /// The page's colours under `prefers-color-scheme: dark`.
    Dark,
}

impl Theme {
    /// `light` or `dark`.
    pub fn parse(s: &str) -> Option<Theme> {
        match s {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }
}

/// What to draw: a state of the catalogue, or a script's scenario.
#[derive(Clone, Copy, Debug)]
pub enum Drawn<'a> {
    /// A catalogue scenario with its inputs.
    Catalogue(ScenarioId, &'a Inputs),
    /// A script's scenario (its named values already set).
    Script(&'a Scenario),
}

/// How to draw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The language of every word.
    pub lang: Lang,
    /// The colours.
    pub theme: Theme,
    /// The figure's width in CSS px (below 600 px, the page's narrow layout).
    pub width: f64,
    /// Whether the run plays (CSS animation).
    pub animate: bool,
    /// The playhead, as the page's playback shows it at this time (`None`: the whole run).
    pub at: Option<Ms>,
    /// The figure's id, which scopes its styles and animations: unique on a page holding several.
    pub id: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            lang: Lang::En,
            theme: Theme::Light,
            width: WIDTH,
            animate: false,
            at: None,
            id: "fencing-lab".to_owned(),
        }
    }
}

/// Whether `id` can scope a figure: a letter, then letters, digits, `-` and `_`.
pub fn valid_id(id: &str) -> bool {
    id.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A run with what drawing it needs.
struct Drawing<'a> {
    run: Run,
    who: Who<'a>,
    job: Option<Span>,
    l: Layout,
    t: &'static Text,
    scenario: &'static str,
    narration: String,
    /// The verdict's lesson, in words the run bears out.
    lesson: &'static str,
}

impl<'a> Drawing<'a> {
    fn new(what: Drawn<'a>, o: &Options) -> Drawing<'a> {
        let t = text(o.lang);
        let (run, who, job, scenario, narration) = match what {
            Drawn::Catalogue(id, i) => {
                let sc = id.build(i);
                let run = sim::run(&sc);
                let said = panels(o.lang).narrate(&sc, &run);
                let who = Who::Catalogue(id);
                (run, who, figure::job(who, i), id.id(), said)
            }
            Drawn::Script(sc) => {
                let run = sim::run(sc);
                let said = panels(o.lang).narrate(sc, &run);
                (run, Who::Script(sc), None, "script", said)
            }
        };
        let l = figure::lab_layout(o.width, &run, who, t);
        let lesson = panels(o.lang).lesson(&run);
        Drawing { run, who, job, l, t, scenario, narration, lesson }
    }

    fn kind(&self) -> OutcomeKind {
        self.run.outcome.kind
    }

    fn double(&self) -> bool {
        self.run.outcome.double_grant.is_some()
    }

    /// The attributes the page's figure root carries: the outcome, the double grant, the scenario.
    fn data(&self) -> [(&'static str, &'static str); 3] {
        [
            ("data-outcome", self.kind().name()),
            ("data-double-grant", if self.double() { "true" } else { "false" }),
            ("data-scenario", self.scenario),
        ]
    }

    /// The page's figure: its groups (animated, or at the playhead), and the playhead where one shows.
    fn groups(&self, o: &Options) -> (String, String) {
        let (l, run, t) = (&self.l, &self.run, self.t);
        let playhead = |x: f64| {
            format!(
                r#"<line class="playhead" x1="{x}" x2="{x}" y1="{}" y2="{}"/>"#,
                px(AXIS_H - 6.0),
                px(l.height() - 6.0),
                x = px(x)
            )
        };
        if o.animate {
            let (lanes, css) = animated_lanes(l, run, self.job, t, &o.id);
            let groups = format!(
                r#"<g class="axis" aria-hidden="true">{}</g><g class="lane-labels">{}</g><g class="lanes">{}</g>"#,
                figure::axis(l, t),
                figure::lab_lane_names(l, run, self.who, t),
                svg::markup(&lanes)
            );
            let sweep = format!(
                r#"<clipPath id="{id}-sweep"><rect class="{id}-sweep" x="0" y="0" width="{}" height="{}"/></clipPath>"#,
                px(l.width),
                px(l.height()),
                id = o.id
            );
            (format!("{sweep}{groups}{}", playhead(l.x(0))), css)
        } else {
            let groups = figure::lab_groups(l, run, self.who, o.at, self.job, t);
            let line = o.at.map(|at| playhead(l.x(at.min(l.axis.t_end)))).unwrap_or_default();
            (groups + &line, String::new())
        }
    }
}

/// The run's figure as a standalone SVG document: the page's figure, its legend and its verdict (title,
/// lesson, the double-grant fact), on the theme's background, its narration as its description.
pub fn svg(what: Drawn, o: &Options) -> String {
    let d = Drawing::new(what, o);
    let (l, t) = (&d.l, d.t);
    let (groups, motion) = d.groups(o);
    let (key, key_h) = legend_svg(&figure::legend(t, d.who), l.width, l.height() + 4.0);
    let (verdict, verdict_h) = verdict_svg(&d, l.height() + 4.0 + key_h + 10.0);
    let (w, h) = (px(l.width), px(l.height() + 4.0 + key_h + 10.0 + verdict_h + 12.0));
    let title = format!("{} — {}", t.figure_label, t.outcome_title(d.kind()));
    let body = format!(
        r#"<title>{}</title><desc>{}</desc><rect class="backdrop" width="100%" height="100%"/>{groups}{key}{verdict}"#,
        esc(&title),
        esc(&d.narration)
    );
    // The figure's text size, as `.timeline svg` sets it on the page.
    let css = style(&body, o.theme, d.kind(), &o.id, 12.0) + &motion;
    let view = format!("0 0 {w} {h}");
    let mut attrs: Vec<(&'static str, &str)> = vec![
        ("xmlns", "http://www.w3.org/2000/svg"),
        ("id", &o.id),
        ("class", "fencing-lab"),
        ("role", "img"),
        ("lang", o.lang.tag()),
        ("width", &w),
        ("height", &h),
        ("viewBox", &view),
    ];
    attrs.extend(d.data());
    let mut out = Html::default();
    out.open("svg", &attrs);
    out.text_el("style", &[], "");
    let open = out.finish();
    // The style sheet goes in as it is: `esc` would turn its `>` and quotes into entities.
    let open = open.replacen("<style></style>", &format!("<style>{css}</style>"), 1);
    format!("{open}{body}</svg>\n")
}

/// The run as a self-contained HTML fragment: a `<div>` holding its style, the page's figure (the SVG and
/// its legend), the verdict as the page shows it, and the narration. `link`: an address to add as an "Open
/// in the lab" link (the mdBook preprocessor's; `locksim render --html` adds none).
pub fn html(what: Drawn, o: &Options, link: Option<&str>) -> String {
    let d = Drawing::new(what, o);
    let (l, t) = (&d.l, d.t);
    let (groups, motion) = d.groups(o);
    let view = format!("0 0 {} {}", px(l.width), px(l.height()));
    let mut h = Html::default();
    let mut root: Vec<(&'static str, &str)> =
        vec![("id", &o.id), ("class", "fencing-lab"), ("lang", o.lang.tag())];
    root.extend(d.data());
    h.open("div", &root);
    h.text_el("style", &[], "");
    h.open("figure", &[("class", "lab"), ("aria-label", t.figure_label)]);
    h.open("div", &[("class", "timeline")]);
    let svg_attrs = [
        ("role", "img"),
        ("aria-label", t.figure_label),
        ("width", "100%"),
        ("viewBox", &view),
        ("preserveAspectRatio", "xMinYMin meet"),
    ];
    h.open("svg", &svg_attrs);
    h.built(&groups);
    h.close("svg");
    h.open("ul", &[("class", "legend")]);
    h.built(&figure::legend(t, d.who));
    h.close("ul");
    h.close("div");
    h.open("section", &[("class", "verdict"), ("aria-label", t.verdict), ("data-kind", d.kind().name())]);
    // The page's verdict, less the id and focus stop the page's single verdict has.
    h.built(&markup::verdict(&d.run.outcome, d.lesson, t).replacen(
        r#" id="verdict-title" tabindex="-1""#,
        "",
        1,
    ));
    h.text_el("p", &[("class", "narration")], &d.narration);
    h.close("section");
    if let Some(href) = link {
        h.open("p", &[("class", "open-lab")]);
        h.text_el("a", &[("href", href)], open_in_lab(o.lang));
        h.close("p");
    }
    h.close("figure");
    h.close("div");
    let body = h.finish();
    // The page's text size (a browser's default), whatever the host page's root says.
    let css = style(&body, o.theme, d.kind(), &o.id, 16.0) + &motion;
    body.replacen("<style></style>", &format!("<style>{css}</style>"), 1)
}

/// The words of the link to the lab.
pub fn open_in_lab(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Open in the lab",
        Lang::Ja => "ラボで開く",
    }
}

/// The page's legend (its `<li>` items, each a swatch and a label) laid out in SVG in rows from `top`, as
/// wide as `width`: the markup and its height.
fn legend_svg(items: &str, width: f64, top: f64) -> (String, f64) {
    let (mut x, mut y, row) = (8.0, 0.0, 18.0);
    let mut out = String::new();
    for item in items.split("<li>").filter_map(|i| i.strip_suffix("</li>")) {
        let Some((swatch, label)) = item.split_once("</svg>") else { continue };
        let w = 32.0 + text_width(&label.replace("&amp;", "&")) * 0.9 + 16.0;
        if x > 8.0 && x + w > width - 8.0 {
            (x, y) = (8.0, y + row);
        }
        let _ = write!(
            out,
            r#"<g transform="translate({} {})">{swatch}</svg><text class="key-label" x="32" y="11">{label}</text></g>"#,
            px(x),
            px(top + y)
        );
        x += w;
    }
    (format!(r#"<g class="key">{out}</g>"#), y + row)
}

/// The verdict drawn in SVG from `top`: the page's icon and title, its lesson and the double-grant fact,
/// wrapped to the figure's width. The markup and its height.
fn verdict_svg(d: &Drawing, top: f64) -> (String, f64) {
    let (t, kind) = (d.t, d.kind());
    let width = d.l.width - 16.0;
    let mut out = String::from(r#"<g class="verdict-line">"#);
    // The page's badge: a round icon, a square one for corrupted data.
    let shape = if kind == OutcomeKind::Corrupted {
        format!(r#"<rect class="verdict-icon" x="8" y="{}" width="22" height="22" rx="4"/>"#, px(top))
    } else {
        format!(r#"<circle class="verdict-icon" cx="19" cy="{}" r="11"/>"#, px(top + 11.0))
    };
    out += &shape;
    let _ = write!(
        out,
        r#"<text class="verdict-mark" x="19" y="{}" text-anchor="middle">{}</text>"#,
        px(top + 15.5),
        markup::icon(kind)
    );
    let _ = write!(
        out,
        r#"<text class="verdict-title" x="38" y="{}">{}</text>"#,
        px(top + 16.5),
        esc(t.outcome_title(kind))
    );
    let mut y = top + 40.0;
    for line in wrap(d.lesson, width / 1.05) {
        let _ = write!(out, r#"<text class="verdict-lesson" x="8" y="{}">{}</text>"#, px(y), esc(&line));
        y += 17.0;
    }
    for line in wrap((t.double_grant_fact)(d.double()), width) {
        let _ = write!(out, r#"<text class="verdict-fact" x="8" y="{}">{}</text>"#, px(y), esc(&line));
        y += 16.0;
    }
    out += "</g>";
    (out, y - 12.0 - top)
}

/// `text` in lines no wider than `max` px (by the figure's estimate): broken at spaces where it has them,
/// anywhere in a language written without them.
fn wrap(text: &str, max: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for c in text.chars() {
        line.push(c);
        if text_width(&line) > max {
            let cut = line.rfind(' ').filter(|&i| i > 0).unwrap_or(line.len() - c.len_utf8());
            let rest = line[cut..].trim_start().to_owned();
            line.truncate(cut);
            lines.push(std::mem::take(&mut line));
            line = rest;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The lanes of an animated figure (its parts), and the CSS that plays them: the last frame's marks (the
/// still figure's), each bar clipped by the sweep, each other mark shown from the first event time at which
/// the page's playback draws it.
fn animated_lanes(l: &Layout, run: &Run, job: Option<Span>, t: &Text, id: &str) -> (Vec<El>, String) {
    let mut times: Vec<Ms> = run.trace.events.iter().map(|e| e.at).collect();
    times.sort_unstable();
    times.dedup();
    let frames: Vec<Vec<Vec<El>>> =
        times.iter().map(|&at| figure::lane_parts(l, run, Some(at), job, t)).collect();
    let end = run.trace.end;
    let mut shown_at: BTreeMap<Ms, usize> = BTreeMap::new();
    let mut lanes = Vec::new();
    for (i, part) in figure::lane_parts(l, run, None, job, t).iter().enumerate() {
        let mut marks = Vec::new();
        for (n, unit) in part.iter().enumerate() {
            // The how-manieth of its equals this mark is: a frame shows it once it has that many.
            let nth = part[..=n].iter().filter(|u| *u == unit).count();
            if is_bar(unit) {
                let mut bar = unit.clone();
                bar.attrs.insert(0, ("clip-path", format!("url(#{id}-sweep)")));
                marks.push(bar);
                continue;
            }
            let first = frames
                .iter()
                .position(|f| f.get(i).is_some_and(|p| p.iter().filter(|u| *u == unit).count() >= nth));
            let at = first.map_or(end, |k| times[k]);
            if at == 0 {
                marks.push(unit.clone());
            } else {
                let n = shown_at.len();
                let k = *shown_at.entry(at).or_insert(n);
                marks.push(group(format!("{id}-t{k}"), vec![unit.clone()]));
            }
        }
        lanes.push(group("part".to_owned(), marks));
    }

    let sweep = end as f64 / SPEED as f64;
    let cycle = sweep + HOLD_MS as f64;
    let pct = |ms: f64| format!("{:.3}%", ms / cycle * 100.0);
    let (done, gone) = (pct(sweep), pct(sweep + 1.0));
    let scale = |at: Ms| format!("{:.5}", l.x(at) / l.width);
    let travel = px(l.x(end) - l.x(0));
    let mut css = format!(
        "#{id} .playhead {{ visibility: hidden; animation: {id}-play {cycle:.0}ms linear infinite; }}\n\
         @keyframes {id}-play {{ 0% {{ visibility: visible; transform: translateX(0px); }} {done} {{ visibility: \
         visible; transform: translateX({travel}px); }} {gone}, 100% {{ visibility: hidden; transform: \
         translateX({travel}px); }} }}\n\
         #{id} .{id}-sweep {{ transform-origin: 0 0; animation: {id}-sweep {cycle:.0}ms linear infinite; }}\n\
         @keyframes {id}-sweep {{ 0% {{ transform: scaleX({}); }} {done} {{ transform: scaleX({}); }} {gone}, \
         100% {{ transform: scaleX(1); }} }}\n",
        scale(0),
        scale(end),
    );
    for (at, k) in shown_at {
        let _ = writeln!(
            css,
            "#{id} .{id}-t{k} {{ animation: {id}-t{k} {cycle:.0}ms step-end infinite; }}\n\
             @keyframes {id}-t{k} {{ 0% {{ visibility: hidden; }} {} {{ visibility: visible; }} 100% {{ visibility: visible; }} }}",
            pct(at as f64 / SPEED as f64)
        );
    }
    let _ = writeln!(
        css,
        "@media (prefers-reduced-motion: reduce) {{ #{id} * {{ animation: none !important; }} }}"
    );
    (lanes, css)
}

/// Whether a mark of the lanes is a bar that grows with the playhead (clipped to it on the page).
fn is_bar(unit: &El) -> bool {
    let first = unit.attr("class").and_then(|c| c.split(' ').next()).unwrap_or_default();
    unit.tag == "rect"
        && ["lease", "belief", "mistaken", "waiting", "unavailable", "overlap"].contains(&first)
}

/// A `<g>` of class `class` around `kids`.
fn group(class: String, kids: Vec<El>) -> El {
    El { kids, ..El::new("g", vec![("class", class)]) }
}

/// The figure's style sheet: the page's rules that apply to `markup` (every class a selector names is in
/// it), the rendered figure's own, each scoped to `#id`, with the theme's colours (and the verdict's
/// colour for `kind`) written in, its text `font_px` and the page's `rem` sizes in px (a host page's root
/// size, such as mdBook's 62.5 %, must not shrink them).
fn style(markup: &str, theme: Theme, kind: OutcomeKind, id: &str, font_px: f64) -> String {
    let sheet = rules(&strip_comments(PAGE_CSS));
    let mut vars: BTreeMap<String, String> = BTreeMap::new();
    let mut font = String::new();
    for item in &sheet {
        match item {
            Item::Rule(sel, body) if sel == ":root" => {
                for (name, value) in declarations(body) {
                    if name.starts_with("--") {
                        vars.insert(name, value);
                    } else if name == "font-family" {
                        font = value;
                    }
                }
            }
            Item::Media(query, inner)
                if query.contains("prefers-color-scheme: dark") && theme == Theme::Dark =>
            {
                for item in inner {
                    if let Item::Rule(sel, body) = item {
                        if sel == ":root" {
                            vars.extend(declarations(body).into_iter().filter(|(n, _)| n.starts_with("--")));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // The verdict's colour, as the page's `.verdict[data-kind=…]` rule sets it.
    let kind_rule = format!(r#".verdict[data-kind="{}"]"#, kind.name());
    for item in &sheet {
        if let Item::Rule(sel, body) = item {
            if *sel == kind_rule {
                vars.extend(declarations(body));
            }
        }
    }
    let used = classes(markup);
    let mut css = format!(
        "#{id} {{ font-family: {font}; font-size: {font_px}px; line-height: 1.55; color: {}; }}\n",
        vars.get("--ink").map_or("inherit", String::as_str)
    );
    let own = rules(RENDER_CSS);
    for item in sheet.iter().chain(&own) {
        let Item::Rule(sel, body) = item else { continue };
        let decls = declarations(body);
        if decls.iter().all(|(n, _)| n.starts_with("--")) {
            continue;
        }
        let kept: Vec<String> = split_top(sel, ',')
            .into_iter()
            .map(str::trim)
            .filter(|s| {
                let named = selector_classes(s);
                !named.is_empty() && named.iter().all(|c| used.contains(*c))
            })
            .map(|s| format!("#{id} {s}"))
            .collect();
        if kept.is_empty() {
            continue;
        }
        let body: Vec<String> =
            decls.iter().map(|(n, v)| format!("{n}: {}", rem_to_px(&resolve(v, &vars)))).collect();
        let _ = writeln!(css, "{} {{ {}; }}", kept.join(", "), body.join("; "));
    }
    css
}

/// A rule or an `@media` block of a style sheet.
enum Item {
    Rule(String, String),
    Media(String, Vec<Item>),
}

fn strip_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(at) = rest.find("/*") {
        out.push_str(&rest[..at]);
        rest = rest[at + 2..].find("*/").map_or("", |e| &rest[at + 2 + e + 2..]);
    }
    out.push_str(rest);
    out
}

/// Where the `close` that balances the first `open` at or after `from` stands in `s` (`s.len()` if none).
fn matching(s: &str, from: usize, open: char, close: char) -> usize {
    let mut depth = 0;
    for (i, c) in s[from..].char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return from + i;
            }
        }
    }
    s.len()
}

/// The rules and `@media` blocks of a style sheet without comments.
fn rules(css: &str) -> Vec<Item> {
    let mut out = Vec::new();
    let mut rest = css;
    while let Some(open) = rest.find('{') {
        let prelude = rest[..open].trim().to_owned();
        let close = matching(rest, open, '{', '}');
        let body = &rest[open + 1..close.min(rest.len())];
        if prelude.starts_with("@media") {
            out.push(Item::Media(prelude, rules(body)));
        } else {
            out.push(Item::Rule(prelude.split_whitespace().collect::<Vec<_>>().join(" "), body.to_owned()));
        }
        rest = rest.get(close + 1..).unwrap_or("");
    }
    out
}

/// A rule's declarations: `(property, value)`.
fn declarations(body: &str) -> Vec<(String, String)> {
    split_top(body, ';')
        .into_iter()
        .filter_map(|d| d.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.split_whitespace().collect::<Vec<_>>().join(" ")))
        .filter(|(n, v)| !n.is_empty() && !v.is_empty())
        .collect()
}

/// `s` split at `sep` outside brackets and parentheses.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let (mut parts, mut depth, mut from) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&s[from..i]);
                from = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[from..]);
    parts
}

/// The classes a selector names (`.lease.w-a` → `lease`, `w-a`).
fn selector_classes(selector: &str) -> Vec<&str> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let mut out = Vec::new();
    let mut rest = selector;
    while let Some(at) = rest.find('.') {
        let after = &rest[at + 1..];
        let end = after.find(|c: char| !ident(c)).unwrap_or(after.len());
        if end > 0 {
            out.push(&after[..end]);
        }
        rest = &after[end..];
    }
    out
}

/// Every class the markup's elements carry.
fn classes(markup: &str) -> std::collections::BTreeSet<&str> {
    markup
        .split(r#"class=""#)
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .flat_map(str::split_whitespace)
        .collect()
}

/// A value with the theme's variables written in and every `color-mix(in srgb, …)` mixed.
fn resolve(value: &str, vars: &BTreeMap<String, String>) -> String {
    let mut v = value.to_owned();
    // Variables may name variables (`--kind: var(--ok)`): a few rounds.
    for _ in 0..3 {
        while let Some(at) = v.find("var(") {
            let Some(close) = v[at..].find(')') else { break };
            let name = v[at + 4..at + close].trim();
            let value = vars.get(name).cloned().unwrap_or_else(|| "inherit".to_owned());
            v.replace_range(at..at + close + 1, &value);
        }
    }
    while let Some(at) = v.find("color-mix(") {
        let close = matching(&v, at, '(', ')');
        let inner = &v[at + "color-mix(".len()..close.min(v.len())];
        let mixed = mix(inner).unwrap_or_else(|| "currentColor".to_owned());
        v.replace_range(at..(close + 1).min(v.len()), &mixed);
    }
    v
}

/// `value` with each length in `rem` written in px, a root of 16 px (the page's).
fn rem_to_px(value: &str) -> String {
    let words: Vec<String> = (value.split(' '))
        .map(|w| match w.strip_suffix("rem").and_then(|n| n.parse::<f64>().ok()) {
            Some(n) => format!("{}px", (n * 16.0 * 10.0).round() / 10.0),
            None => w.to_owned(),
        })
        .collect();
    words.join(" ")
}

/// `in srgb, A P%, B` mixed as CSS mixes it (premultiplied alpha): an `rgba(…)`.
fn mix(args: &str) -> Option<String> {
    let parts = split_top(args, ',');
    let [space, a, b] = parts.as_slice() else { return None };
    if space.trim() != "in srgb" {
        return None;
    }
    let (a, p) = a.trim().rsplit_once(' ')?;
    let p: f64 = p.trim_end_matches('%').parse::<f64>().ok()? / 100.0;
    let (ca, cb) = (rgba(a.trim())?, rgba(b.trim())?);
    let alpha = ca[3] * p + cb[3] * (1.0 - p);
    if alpha <= 0.0 {
        return Some("transparent".to_owned());
    }
    let ch = |i: usize| ((ca[i] * ca[3] * p + cb[i] * cb[3] * (1.0 - p)) / alpha).round() as u8;
    Some(format!("rgba({},{},{},{})", ch(0), ch(1), ch(2), (alpha * 1000.0).round() / 1000.0))
}

/// A colour the page's sheet uses (`#rgb`, `#rrggbb`, `transparent`) as red, green, blue and alpha.
fn rgba(c: &str) -> Option<[f64; 4]> {
    if c == "transparent" {
        return Some([0.0; 4]);
    }
    let hex = c.strip_prefix('#')?;
    let digit = |i: usize, n: usize| u8::from_str_radix(hex.get(i..i + n)?, 16).ok().map(f64::from);
    match hex.len() {
        3 => Some([digit(0, 1)? * 17.0, digit(1, 1)? * 17.0, digit(2, 1)? * 17.0, 1.0]),
        6 => Some([digit(0, 2)?, digit(2, 2)?, digit(4, 2)?, 1.0]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_mix_as_css_mixes_them() {
        assert_eq!(mix("in srgb, #0072b2 22%, #ffffff").unwrap(), "rgba(199,224,238,1)");
        assert_eq!(mix("in srgb, #c4470a 30%, transparent").unwrap(), "rgba(196,71,10,0.3)");
        let vars = BTreeMap::from([
            ("--a".to_owned(), "#000".to_owned()),
            ("--k".to_owned(), "var(--a)".to_owned()),
        ]);
        assert_eq!(resolve("1px solid var(--k)", &vars), "1px solid #000");
        assert_eq!(rem_to_px("0.82rem"), "13.1px");
        assert_eq!(rem_to_px("2px 0.5rem 1rem"), "2px 8px 16px");
    }

    #[test]
    fn rules_are_kept_for_the_classes_the_markup_uses() {
        let css = style(r#"<rect class="lease w-a"/>"#, Theme::Light, OutcomeKind::Safe, "f", 12.0);
        assert!(css.contains("#f .lease.w-a { fill: rgba(199,224,238,1)"), "{css}");
        assert!(!css.contains(".handle") && !css.contains("var(") && !css.contains("color-mix"), "{css}");
        let dark = style(r#"<rect class="lease w-a"/>"#, Theme::Dark, OutcomeKind::Safe, "f", 12.0);
        assert!(dark.contains("stroke: #56b4e9"), "{dark}");
    }

    #[test]
    fn an_animated_figures_last_frame_is_the_still_figure() {
        use crate::present::params::Lang;
        let t = text(Lang::En);
        for id in ScenarioId::ALL {
            let i = id.defaults();
            let run = sim::run(&id.build(&i));
            let who = Who::Catalogue(id);
            let l = figure::lab_layout(720.0, &run, who, t);
            let job = figure::job(who, &i);
            let (animated, css) = animated_lanes(&l, &run, job, t, "f");
            // Each mark unwrapped from its moment, each bar without its clip: the still figure's lanes.
            let unwrapped: Vec<Vec<El>> = (animated.iter())
                .map(|part| {
                    assert_eq!(part.attr("class"), Some("part"));
                    (part.kids.iter())
                        .map(|u| match u.attr("class") {
                            Some(c) if u.tag == "g" && c.starts_with("f-t") => u.kids[0].clone(),
                            _ => El {
                                attrs: u.attrs.iter().filter(|a| a.0 != "clip-path").cloned().collect(),
                                ..u.clone()
                            },
                        })
                        .collect()
                })
                .collect();
            assert_eq!(unwrapped, figure::lane_parts(&l, &run, None, job, t), "{id:?}");
            let animated = svg::markup(&animated);
            // Every moment a mark waits for has its keyframes.
            for wrapped in animated.split(r#"<g class="f-t"#).skip(1) {
                let k = wrapped.split('"').next().unwrap();
                assert!(css.contains(&format!("@keyframes f-t{k} ")), "{id:?}: f-t{k}");
            }
        }
    }

    #[test]
    fn long_lines_wrap_at_spaces_or_anywhere_in_japanese() {
        let lines = wrap("one two three four five six seven eight", 60.0);
        assert!(lines.len() > 1 && lines.iter().all(|l| !l.starts_with(' ')), "{lines:?}");
        assert_eq!(lines.join(" "), "one two three four five six seven eight");
        let ja = wrap("古いロックの書き込みが新しい作業を上書きした", 60.0);
        assert!(ja.len() > 1);
        assert_eq!(ja.concat(), "古いロックの書き込みが新しい作業を上書きした");
    }
}
