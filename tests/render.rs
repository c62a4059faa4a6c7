//! `locksim render`: the page's figure for a run, standalone. It must be the page's own markup (the built
//! page's figure at the same state, the app's at the end of the run), a well-formed SVG document with its
//! legend and verdict, and hold nothing that reaches outside it.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::locksim;

use fencing_lab::present::figure::{self, Who};
use fencing_lab::present::page::{self, First};
use fencing_lab::present::params::Lang;
use fencing_lab::present::text::{text, Text};
use fencing_lab::scenarios::ScenarioId;
use fencing_lab::sim;

/// The part of `markup` from the first `open` to the end of the element it opens (`<g …>…</g>`, counting
/// nested `<g>`s).
fn element<'a>(markup: &'a str, open: &str) -> &'a str {
    let start = markup.find(open).unwrap_or_else(|| panic!("no {open} in {markup}"));
    let mut depth = 0;
    let mut i = start;
    loop {
        let next_open = markup[i..].find("<g").map(|o| i + o);
        let next_close = markup[i..].find("</g>").map(|c| i + c).expect("closed");
        match next_open {
            Some(o) if o < next_close => {
                depth += 1;
                i = o + 2;
            }
            _ => {
                depth -= 1;
                i = next_close + 4;
                if depth == 0 {
                    return &markup[start..i];
                }
            }
        }
    }
}

/// The three groups the page's figure draws: the axis, the lane names, the lanes.
fn groups(markup: &str) -> String {
    [r#"<g class="axis""#, r#"<g class="lane-labels">"#, r#"<g class="lanes">"#]
        .iter()
        .map(|open| element(markup, open))
        .collect()
}

/// What a well-formed XML document needs, checked by a strict parser, and the root's name.
fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed: {e}\n{svg}"))
}

/// Nothing that reaches outside the file: no script, no link, no address but the SVG namespace's.
fn self_contained(markup: &str) {
    let lower = markup.to_lowercase();
    assert!(!lower.contains("<script"), "a script");
    assert!(!lower.contains("href="), "a link");
    assert!(!lower.contains("url(http") && !lower.contains("@import"), "an external style");
    let without_ns = lower.replace(r#"xmlns="http://www.w3.org/2000/svg""#, "");
    assert!(!without_ns.contains("http"), "an address");
    assert!(!lower.contains("var(") && !lower.contains("color-mix"), "a colour left to the page");
}

#[test]
fn the_render_at_the_start_is_the_built_pages_figure() {
    // The page's own first screen: the seed's question, A waking after 15 s, drawn at its widest.
    let first = First::page();
    let built = page::app(&first);
    let wide = &built[built.find(r#"<svg class="pre-wide""#).expect("the wide figure")..];
    let wide = &wide[..wide.find("</svg>").unwrap()];
    let (code, svg, err) = locksim(&["render", "--pause", "15000", "--at", "0"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(groups(&svg), groups(wide));
    assert!(svg.contains(r#"data-outcome="fenced""#) && svg.contains(r#"data-scenario="gc-pause""#));
}

#[test]
fn the_render_of_a_run_is_the_pages_figure_at_its_end() {
    // Every scenario at its defaults, in both languages: the groups the app's timeline draws once the run
    // is shown whole (its layout at the render's width), and the page's legend.
    for id in ScenarioId::ALL {
        for lang in [Lang::En, Lang::Ja] {
            let t: &Text = text(lang);
            let i = id.defaults();
            let run = sim::run(&id.build(&i));
            let who = Who::Catalogue(id);
            let l = figure::lab_layout(1_082.0, &run, who, t);
            let page = figure::lab_groups(&l, &run, who, None, figure::job(who, &i), t);
            let (code, svg, err) = locksim(&["render", "--scenario", id.id(), "--lang", lang.tag()]);
            assert_eq!(code, 0, "{err}");
            assert_eq!(groups(&svg), page, "{id:?} {lang:?}");
            let doc = parse(&svg);
            let root = doc.root_element();
            assert_eq!(root.tag_name().name(), "svg");
            assert_eq!(root.attribute("data-outcome"), Some(run.outcome.kind.name()));
            // The legend, item by item, and the verdict's title.
            let legend = figure::legend(t, who);
            for item in legend.split("<li>").skip(1) {
                let label = item.split("</svg>").nth(1).unwrap().trim_end_matches("</li>");
                assert!(
                    svg.contains(&format!(r#"class="key-label" x="32" y="11">{label}</text>"#)),
                    "{label}"
                );
            }
            assert!(svg.contains(&format!(">{}</text>", t.outcome_title(run.outcome.kind))), "{id:?}");
            self_contained(&svg);
        }
    }
}

#[test]
fn a_render_is_well_formed_in_every_form() {
    for args in [
        &["render", "--pause", "15000", "--theme", "dark"][..],
        &["render", "--scenario", "redlock", "--lang", "ja", "--animate"],
        &["render", "--scenario", "unsafe-release", "--width", "360"],
    ] {
        let (code, svg, err) = locksim(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        parse(&svg);
        self_contained(&svg);
    }
    // The HTML fragment: one element, the figure, the verdict, the narration; nothing outside it.
    let (code, html, _) = locksim(&["render", "--pause", "15000", "--html"]);
    assert_eq!(code, 0);
    let doc = parse(html.trim());
    assert_eq!(doc.root_element().tag_name().name(), "div");
    assert!(html.contains(r#"<section class="verdict" aria-label="Verdict" data-kind="fenced">"#), "{html}");
    assert!(html.contains(r#"<ul class="legend">"#) && html.contains(r#"<p class="narration">"#));
    assert!(html.contains("15 s"), "the narration tells the run's own numbers");
    self_contained(&html);
    // The dark theme's colours are the page's dark ones.
    let (_, dark, _) = locksim(&["render", "--theme", "dark"]);
    assert!(dark.contains("#fencing-lab .backdrop { fill: #1f1c26; }"), "the dark panel");
}

#[test]
fn an_animated_render_plays_in_event_order_and_holds_still_for_reduced_motion() {
    let (_, svg, _) = locksim(&["render", "--pause", "15000", "--animate"]);
    let (_, still, _) = locksim(&["render", "--pause", "15000"]);
    assert!(svg.contains(r#"<line class="playhead""#) && svg.contains("@keyframes fencing-lab-play"));
    assert!(svg.contains(
        "@media (prefers-reduced-motion: reduce) { #fencing-lab * { animation: none !important; } }"
    ));
    // B's accepted write (11 s) appears before A's rejected one (15 s).
    let at = |class: &str| {
        let mark = svg.find(class).unwrap_or_else(|| panic!("{class}"));
        let open = svg[..mark].rfind(r#"<g class="fencing-lab-t"#).unwrap();
        let k: usize =
            svg[open + r#"<g class="fencing-lab-t"#.len()..].split('"').next().unwrap().parse().unwrap();
        let rule = format!("@keyframes fencing-lab-t{k} {{ 0% {{ visibility: hidden; }} ");
        let from = svg.find(&rule).unwrap() + rule.len();
        svg[from..].split('%').next().unwrap().parse::<f64>().unwrap()
    };
    let (b, a) = (at(r#"class="write accepted w-b""#), at(r#"class="write rejected w-a""#));
    assert!(0.0 < b && b < a && a < 100.0, "{b} {a}");
    // Bars grow behind the playhead: clipped by the sweep, not shown at a moment.
    assert!(svg.contains(r#"<rect clip-path="url(#fencing-lab-sweep)" class="lease w-a""#));
    assert!(still.contains(r#"<rect class="lease w-a""#) && !still.contains("animation"));
}

#[test]
fn a_script_renders_and_a_bad_one_is_exit_2_with_its_line() {
    let dir = std::env::temp_dir().join(format!("locksim-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("three.lock");
    std::fs::write(
        &good,
        "lease 10s\nA: acquire, pause {pause=15s}, write, release\nB: idle 1s, acquire, work 1s, write, release\n\
         C: idle 2s, acquire, work 1s, write, release\n",
    )
    .unwrap();
    let (code, svg, err) = locksim(&["render", "--script", good.to_str().unwrap(), "--pause", "12000"]);
    assert_eq!(code, 0, "{err}");
    parse(&svg);
    assert!(svg.contains(r#"data-scenario="script""#) && svg.contains(">Worker C</text>"), "{svg}");
    let bad = dir.join("bad.lock");
    std::fs::write(&bad, "lease 10s\nA: acquire, wirte\n").unwrap();
    let (code, out, err) = locksim(&["render", "--script", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("line 2, column 13: expected a step"), "{err}");
    let (code, _, err) = locksim(&["render", "--script", bad.to_str().unwrap(), "--lang", "ja"]);
    assert_eq!(code, 2);
    assert!(err.contains("2行目 13文字目"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_render_flags_are_usage_errors() {
    for args in [
        &["render", "--theme", "blue"][..],
        &["render", "--width", "10"],
        &["render", "--animate", "--at", "100"],
        &["render", "--id", "1x"],
        &["render", "--lang", "fr"],
    ] {
        let (code, out, _) = locksim(args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
    }
}

/// The sample book's chapter (docs/book), its fences as a teacher wrote them.
fn sample_chapter() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/book/src/fencing.md")).unwrap()
}

/// The scripts of a chapter's lock fences, in order, with their info strings.
fn lock_fences(md: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = md.lines();
    while let Some(line) = lines.next() {
        if let Some(info) = line.strip_prefix("```lock") {
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            out.push((info.trim().to_owned(), body.join("\n") + "\n"));
        }
    }
    out
}

#[test]
fn a_lock_fence_becomes_the_figure_its_verdict_and_a_link_to_the_lab() {
    use fencing_lab::present::fences::{chapter, Settings};
    use fencing_lab::present::params::Query;
    use fencing_lab::present::render::{html, Drawn, Options};

    let md = sample_chapter();
    let fences = lock_fences(&md);
    assert_eq!(fences.len(), 3, "the sample chapter's three fences");
    // The first is a catalogue state as locksim prints it.
    let (_, printed, _) = locksim(&["--scenario", "gc-pause", "--pause", "15000", "--print-script"]);
    assert_eq!(fences[0].1, printed, "the sample's first fence is the printed gc-pause state");
    assert_eq!(fences[2].0, "lang=ja");

    let settings = Settings { lab_url: Some("https://lab.example/locks/".into()), width: 750.0 };
    let out = chapter(&md, "fencing.md", &settings).unwrap();
    // Each fence is gone, replaced by its figure: the fragment `render::html` writes for its script, with
    // a link that carries the same script back to the lab.
    assert!(!out.contains("```lock"));
    assert!(out.contains("## Three workers in line\n\nA script of our own"), "the prose is kept");
    for (n, (info, script)) in fences.iter().enumerate() {
        let sc = fencing_lab::script::parse(script).unwrap();
        let lang = if info == "lang=ja" { Lang::Ja } else { Lang::En };
        let id = out.split(r#"<div id=""#).nth(n + 1).unwrap().split('"').next().unwrap().to_owned();
        let o = Options { lang, width: 750.0, id, ..Options::default() };
        let start = out.find(&format!(r#"<div id="{}""#, o.id)).unwrap();
        let figure = &out[start..start + out[start..].find("</div>\n").unwrap() + "</div>".len()];
        let href =
            figure.split(r#"<a href=""#).nth(1).unwrap().split('"').next().unwrap().replace("&amp;", "&");
        assert!(href.starts_with("https://lab.example/locks/?script="), "{href}");
        let q = Query::parse(href.split_once('?').unwrap().1);
        assert_eq!(q.script.as_deref(), Some(script.trim_end()), "the link opens the same script");
        assert_eq!(q.lang, Some(lang));
        assert_eq!(figure, html(Drawn::Script(&sc), &o, Some(&href)), "fence {n}");
        // An HTML block of its own in Markdown: no blank line inside, a blank line around it.
        assert!(!figure.contains("\n\n") && out[..start].ends_with("\n\n"));
        self_contained(&figure.replace(&format!(r#"<a href="{}">"#, href.replace('&', "&amp;")), ""));
    }
    assert!(out.contains(r#"lang="ja" data-outcome="corrupted""#), "the Japanese fence, without fencing");
    assert!(out.contains("ラボで開く"));
    // Ids differ between chapters, so a book printed on one page keeps them unique.
    let other = chapter(&md, "other.md", &settings).unwrap();
    assert_ne!(other.split(r#"<div id=""#).nth(1), out.split(r#"<div id=""#).nth(1));
}

#[test]
fn a_fence_that_does_not_read_names_its_line_and_column_in_the_chapter() {
    use fencing_lab::present::fences::{chapter, Settings};
    let md = "# T\n\nText.\n\n```lock\nlease 10s\nA: acquire, wirte\n```\n";
    let e = chapter(md, "t.md", &Settings::default()).unwrap_err();
    assert_eq!((e.line, e.col), (7, 13), "{e:?}");
    assert!(e.message.contains("expected a step"), "{e:?}");
    // Indented fences count their indentation; options are checked too.
    let e = chapter("  ```lock\n  A: acquire, wirte\n  ```\n", "t.md", &Settings::default()).unwrap_err();
    assert_eq!((e.line, e.col), (2, 15));
    // A line less indented than its fence lost only the spaces it had.
    let e = chapter("  ```lock\n A: acquire, wirte\n  ```\n", "t.md", &Settings::default()).unwrap_err();
    assert_eq!((e.line, e.col), (2, 14));
    // A tab after `lock` is a blank like a space: the fence is the lab's, and its script is read.
    let e = chapter("```lock\tlang=ja\nA: acquire, frob\n```\n", "t.md", &Settings::default()).unwrap_err();
    assert_eq!((e.line, e.col), (2, 13), "{e:?}");
    assert!(chapter("```locks\nA: acquire, frob\n```\n", "t.md", &Settings::default()).is_ok());
    let e = chapter("\n```lock colour=red\nA: acquire\n```\n", "t.md", &Settings::default()).unwrap_err();
    assert_eq!((e.line, e.col), (2, 9));
    assert!(e.message.contains("unknown option"), "{e:?}");
    // A word the fence repeats is found where it is repeated, and an option given twice is refused.
    let e = chapter("```lock animate lock\nA: acquire\n```\n", "t.md", &Settings::default()).unwrap_err();
    assert_eq!((e.line, e.col), (1, 17), "{e:?}");
    let e = chapter("```lock lang=en lang=ja\nA: acquire\n```\n", "t.md", &Settings::default()).unwrap_err();
    assert_eq!((e.line, e.col, e.message.as_str()), (1, 17, "\"lang\" is given twice"), "{e:?}");
}

/// Runs `mdbook-lock` as mdBook does: `[context, book]` as JSON on standard input.
fn preprocess(chapter: &str) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let input = serde_json::json!([
        {
            "root": "/tmp/book",
            "config": {
                "book": {"title": "T", "src": "src"},
                "preprocessor": {"lock": {"lab-url": "http://127.0.0.1:8080/"}}
            },
            "renderer": "html",
            "mdbook_version": "0.5.4"
        },
        {"items": [{"Chapter": {
            "name": "Leases", "content": chapter, "number": [1], "sub_items": [],
            "path": "fencing.md", "source_path": "fencing.md", "parent_names": []
        }}]}
    ]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_mdbook-lock"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_preprocessor_speaks_mdbooks_protocol() {
    let supports =
        std::process::Command::new(env!("CARGO_BIN_EXE_mdbook-lock")).args(["supports", "html"]).status();
    assert!(supports.unwrap().success());
    let (code, out, err) = preprocess(&sample_chapter());
    assert_eq!(code, 0, "{err}");
    let book: serde_json::Value = serde_json::from_str(&out).expect("the book back as JSON");
    let content = book["items"][0]["Chapter"]["content"].as_str().unwrap();
    assert_eq!(content.matches(r#"<div id="lock-"#).count(), 3);
    assert_eq!(content.matches(r#"<a href="http://127.0.0.1:8080/?script="#).count(), 3);
    assert!(content.contains(r#"data-outcome="fenced""#) && content.contains(r#"data-outcome="corrupted""#));
    // A bad fence fails the build, naming the chapter, the line and the column.
    let (code, out, err) = preprocess("# Leases\n\n```lock\nA: acquire, wirte\n```\n");
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains(r#"chapter "Leases" (fencing.md), line 4, column 13: expected a step"#), "{err}");
}

#[test]
fn render_help_lists_its_own_flags() {
    let (code, out, _) = locksim(&["render", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Usage: locksim render"), "{out}");
    for flag in ["--theme", "--animate", "--html", "--at", "--width", "--id", "--script", "--pause"] {
        assert!(out.contains(flag), "{flag}");
    }
    let (_, out, _) = locksim(&["--help"]);
    assert!(out.contains("render writes the page's figure"), "{out}");
}

/// One narration for every run: a scenario's own script is told as its catalogue state is, in both
/// languages, and a script of the reader's own by the same rule (its facts, and the reasons that explain them).
#[test]
fn a_script_is_told_as_its_catalogue_state_and_by_the_same_rule_as_any_other() {
    let dir = std::env::temp_dir().join(format!("locksim-told-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let narration = |html: &str| {
        let at = html.find(r#"class="narration""#).expect("a narration");
        html[at..].split_once('>').unwrap().1.split_once("</").unwrap().0.to_owned()
    };
    for lang in ["en", "ja"] {
        let etcd = dir.join("etcd.lock");
        std::fs::write(&etcd, ScenarioId::Etcd.source()).unwrap();
        let etcd = etcd.to_str().unwrap();
        let (_, script, err) =
            locksim(&["render", "--html", "--lang", lang, "--script", etcd, "--pause", "12000"]);
        let (_, catalogue, _) =
            locksim(&["render", "--html", "--lang", lang, "--scenario", "etcd", "--pause", "12000"]);
        assert_eq!(narration(&script), narration(&catalogue), "{err}");
        let keepalive = if lang == "ja" {
            "リース延長の要求を送れませんでした"
        } else {
            "had sent no keepalive"
        };
        assert!(narration(&script).contains(keepalive), "{script}");
        // One more worker: a script of its own, told by the same rule, with C's facts too.
        let four = dir.join("four.lock");
        std::fs::write(&four, format!("{}C: idle 2s, acquire, write\n", ScenarioId::Etcd.source())).unwrap();
        let (_, own, _) = locksim(&["render", "--html", "--lang", lang, "--script", four.to_str().unwrap()]);
        let (own, theirs) = (narration(&own), narration(&script));
        assert!(own.contains(keepalive) && own.contains("C ") && !theirs.contains("C "), "{own}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
