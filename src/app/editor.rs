//! The script editor, beside the figure (drawn by the page's second module, on its mirror of the lab): a
//! labelled text box with line numbers, what is wrong with the text marked at its line and announced, and
//! where to start from (a short template, any scenario of the catalogue, where this script started). The
//! figure follows each key, paced to the screen (the page's lab reads each text and keeps drawing the last
//! one that read); the verdict, the narration and what is wrong follow once typing pauses (`app::rest`).
//!
//! The editor keeps one editing history ([`History`]) of every text it showed, typed or made by the page
//! (a switch, a drag, a slider, Reset, Start from): Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y (Cmd on macOS, and
//! the browser's own Undo and Redo) walk it, never the text box's own history, which a text set by the
//! page would break.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{dom, effect, say, set, Lab};
use crate::present::history::{changed, Group, History};
use crate::present::html::Html;
use crate::present::pace::Pace;
use crate::present::params::Lang;
use crate::present::text::{panels, Panels};
use crate::scenarios::ScenarioId;
use crate::script;

/// The editor's frame, for the view to fill in.
fn frame(p: &Panels) -> String {
    let t = p.text;
    let mut h = Html::default();
    h.text_el("h2", &[("id", "editor-title")], p.editor_heading);
    h.open("div", &[("class", "editor-start")]);
    h.text_el("button", &[("type", "button"), ("data-editor", "new")], p.editor_new);
    h.open("label", &[("class", "editor-from")]);
    h.text(p.editor_from);
    h.text(" ");
    h.open("select", &[("data-editor", "from")]);
    h.text_el("option", &[("value", "")], "—");
    for id in ScenarioId::ALL {
        h.text_el("option", &[("value", id.id())], (t.scenario)(id).title);
    }
    h.close("select");
    h.close("label");
    h.text_el("button", &[("type", "button"), ("data-editor", "reset")], p.editor_reset);
    h.text_el("button", &[("type", "button"), ("data-editor", "close")], p.editor_close);
    h.close("div");
    h.open("div", &[("class", "editor-box")]);
    h.text_el("pre", &[("class", "gutter"), ("aria-hidden", "true")], "");
    let area = [
        ("id", "script-text"),
        ("aria-label", p.editor_label),
        ("aria-describedby", "script-problem script-help"),
        ("spellcheck", "false"),
        ("autocapitalize", "off"),
        ("autocomplete", "off"),
        ("wrap", "off"),
        ("rows", "12"),
    ];
    h.text_el("textarea", &area, "");
    h.close("div");
    h.text_el("p", &[("id", "script-problem"), ("class", "script-problem"), ("role", "alert")], "");
    h.text_el("p", &[("id", "script-help"), ("class", "script-help")], p.editor_help);
    h.finish()
}

/// The line numbers of a text of `lines` lines, `bad` marked.
fn gutter(lines: usize, bad: Option<usize>) -> String {
    let mut h = Html::default();
    for n in 1..=lines.max(1) {
        let class = if Some(n) == bad { "bad" } else { "" };
        h.text_el("span", &[("class", class)], &n.to_string());
        h.text("\n");
    }
    h.finish()
}

/// A short script to start from: three workers, one named value to drag.
fn template(p: &Panels) -> String {
    format!(
        "{}\nvalue pause 15s\nlease 10s\nA: acquire, pause {{pause}}, write, release\nB: idle 1s, acquire, work 1s, write, release\nC: idle 2s, acquire, write, release\n",
        p.editor_template
    )
}

/// The catalogue scenario `id` at its defaults, as a script.
fn script_of(id: ScenarioId) -> String {
    script::print(&id.build(&id.defaults()))
}

/// The line numbers scroll with the text (a scroll does not bubble: the box's own listener).
fn follow_scroll(root: &web_sys::Element) {
    let (Some(area), Some(gutter)) = (dom::find(root, dom::EDITOR_TEXT), dom::find(root, dom::GUTTER)) else {
        return;
    };
    let scrolled = area.clone();
    let follow =
        wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || gutter.set_scroll_top(scrolled.scroll_top()));
    let _ = area.add_event_listener_with_callback("scroll", follow.as_ref().unchecked_ref());
    // Lives as long as the box (a new frame, a new box and listener).
    follow.forget();
}

/// How the editor groups the texts it records into steps ([`Group`]): a run of keys of one kind (typing,
/// deleting) with no pause of a second, and a whole drag, are one step each.
#[derive(Clone, Copy, Debug, Default)]
struct Steps {
    /// The last group given.
    n: u64,
    /// The kind of the last key typed, while its run goes on.
    typing: Option<u8>,
    /// When it was typed (the event's time stamp, ms).
    at: f64,
    /// Whether a drag or a slider was held when the page last rewrote the text.
    held: bool,
}

/// The longest pause within one run of typing, in ms.
const RUN_MS: f64 = 1_000.0;

impl Steps {
    /// The group of a text typed by an input of `kind` (its `inputType`) at `at`.
    fn typed(&mut self, kind: &str, at: f64) -> Group {
        let k = match kind {
            "insertText" | "insertCompositionText" | "insertLineBreak" => 1,
            "deleteContentBackward" | "deleteContentForward" => 2,
            // A paste, a cut, a drop: a step of its own.
            _ => {
                *self = Steps { n: self.n, ..Steps::default() };
                return None;
            }
        };
        if self.typing != Some(k) || at - self.at > RUN_MS {
            self.n += 1;
        }
        *self = Steps { n: self.n, typing: Some(k), at, held: false };
        Some(self.n)
    }

    /// The group of a text the page wrote, while a drag or a slider is `held` or not: a drag's texts,
    /// and the one when it lets go, are one step.
    fn page(&mut self, held: bool) -> Group {
        let was = self.held;
        if held && !was {
            self.n += 1;
        }
        *self = Steps { n: self.n, held, ..Steps::default() };
        (held || was).then_some(self.n)
    }
}

/// Whether the reader holds the figure's band or a slider (a drag in progress).
fn held() -> bool {
    let doc = web_sys::window().and_then(|w| w.document());
    doc.and_then(|d| d.query_selector(dom::HAND_MOVING).ok().flatten()).is_some()
}

/// The key for undo (`Some(false)`) or redo (`Some(true)`): Ctrl or Cmd with Z, with Shift Z, or Y.
fn undo_key(ev: &web_sys::KeyboardEvent) -> Option<bool> {
    if !(ev.ctrl_key() || ev.meta_key()) || ev.alt_key() {
        return None;
    }
    // The letter the layout types, else where the key is (a layout without Latin letters).
    let key = ev.key().to_ascii_lowercase();
    let key = match key.as_str() {
        "z" | "y" => key,
        _ if !key.is_ascii() => ev.code().trim_start_matches("Key").to_ascii_lowercase(),
        _ => return None,
    };
    match key.as_str() {
        "z" => Some(ev.shift_key()),
        "y" if !ev.shift_key() => Some(true),
        _ => None,
    }
}

/// The editor, while the lab's `editing` is on.
#[component]
pub fn Editor(
    /// The mirror of the page's lab.
    lab: Lab,
) -> impl IntoView {
    let root = NodeRef::<html::Section>::new();
    // Where the script started (a template, a scenario, the text it opened with): what Reset goes back to.
    let start = StoredValue::new(None::<String>);
    let framed = StoredValue::new(None::<Lang>);
    // The line numbers as last drawn (how many, which marked): most keys change neither.
    let numbered = StoredValue::new(None::<(usize, Option<usize>)>);
    // Every text shown, in one history; how texts group into steps; the texts typed that the page has not
    // shown back yet (a state the page told before the last keys must not take them away).
    let history = StoredValue::new(None::<History>);
    let steps = StoredValue::new(Steps::default());
    let typed_texts = StoredValue::new(Vec::<String>::new());
    let ask = move |kind: &str, payload: &str| lab.ask_page(kind, payload);
    let number = move |root: &web_sys::Element, lines: usize, bad: Option<usize>| {
        if numbered.get_value() != Some((lines, bad)) {
            numbered.set_value(Some((lines, bad)));
            if let Some(g) = dom::find(root, dom::GUTTER) {
                g.set_inner_html(&gutter(lines, bad));
            }
        }
    };
    effect(move || {
        let (editing, lang) = (lab.editing.get(), lab.lang.get());
        // The mirror read the text when the page told it (`Mirror::state`): its problem, or the shape of
        // its scenario, is this text's, so the editor does not read it again.
        let script = lab.script.with(|s| {
            s.as_ref().map(|s| {
                let shape = s.scenario.as_ref().map(|sc| (sc.workers.len(), sc.params.len()));
                (s.text.clone(), s.problem.clone(), shape)
            })
        });
        let Some(root) = root.get() else { return };
        let _ = root.toggle_attribute_with_force("hidden", !editing || script.is_none());
        let Some((text, problem, shape)) = script.filter(|_| editing) else { return };
        let p = panels(lang);
        if framed.get_value() != Some(lang) {
            framed.set_value(Some(lang));
            numbered.set_value(None);
            root.set_inner_html(&frame(p));
            follow_scroll(&root);
        }
        if start.with_value(Option::is_none) {
            start.set_value(Some(text.clone()));
        }
        let area = dom::find(&root, dom::EDITOR_TEXT)
            .and_then(|a| a.dyn_into::<web_sys::HtmlTextAreaElement>().ok());
        if history.with_value(Option::is_none) {
            history.set_value(Some(History::new(text.clone())));
        }
        if let Some(area) = &area {
            let shown = area.value();
            // A text typed earlier, told back after newer keys: the box keeps the newest.
            let stale = typed_texts.with_value(|t| t.last() == Some(&shown) && t.contains(&text));
            if shown == text {
                typed_texts.update_value(Vec::clear);
            } else if !stale {
                // The page rewrote the text (a drag, a switch, Reset, Start from): a step of the history,
                // and the box follows, the caret where it was.
                let group = steps.try_update_value(|s| s.page(held())).flatten();
                history.update_value(|h| h.iter_mut().for_each(|h| h.record(text.clone(), group)));
                let (from, to) = (area.selection_start().ok().flatten(), area.selection_end().ok().flatten());
                area.set_value(&text);
                let _ = area.set_selection_range(from.unwrap_or(0), to.unwrap_or(0));
            }
        }
        let bad = problem.as_ref().map(|e| e.line).filter(|&l| l > 0);
        number(&root, text.split('\n').count(), bad);
        let said = match (&problem, shape) {
            (Some(e), _) => {
                let mut said = if lang == Lang::Ja { e.ja.clone() } else { e.en.clone() };
                // Over the limit, the link keeps what can be reopened, and says so.
                if super::scripting::over_limit(&text) {
                    said.push_str(if lang == Lang::Ja { "。" } else { ". " });
                    said.push_str(if shape.is_some() { p.editor_link_kept } else { p.editor_link_none });
                }
                said
            }
            (None, Some((w, v))) => (p.editor_reads)(w, v),
            (None, None) => String::new(),
        };
        if say(&root, dom::SCRIPT_PROBLEM, &said) {
            if let Some(el) = dom::find(&root, dom::SCRIPT_PROBLEM) {
                let _ = el.class_list().toggle_with_force("bad", problem.is_some());
            }
        }
        if let Some(area) = area {
            set(&area, "aria-invalid", if problem.is_some() { "true" } else { "false" });
        }
    });
    // Undo and redo: the text of the step before or after, shown at once and told to the page, the changed
    // stretch selected.
    let walk = move |area: &web_sys::HtmlTextAreaElement, redo: bool| {
        let next = history
            .try_update_value(|h| {
                let h = h.as_mut()?;
                if redo { h.redo() } else { h.undo() }.map(str::to_owned)
            })
            .flatten();
        let Some(text) = next else { return };
        let (from, to) = changed(&area.value(), &text);
        area.set_value(&text);
        let _ = area.set_selection_range(from, to);
        steps.update_value(|s| *s = Steps { n: s.n, ..Steps::default() });
        typed_texts.update_value(Vec::clear);
        if let Some(root) = root.get_untracked() {
            let bad = numbered.get_value().and_then(|(_, bad)| bad);
            number(&root, text.split('\n').count(), bad);
        }
        ask("script", &text);
    };
    // Typing, paced like a drag (`present::pace`): the first text of a frame is told to the page's lab at
    // once, later ones of the same frame wait for it and only the newest is told.
    let typed = StoredValue::new(Pace::<String>::default());
    let on_input = move |ev: web_sys::Event| {
        let Some(area) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) else {
            return;
        };
        let kind = js_sys::Reflect::get(&ev, &"inputType".into()).ok().and_then(|k| k.as_string());
        // The browser's own Undo or Redo (its menu, a context menu) that it did not offer to cancel first
        // (Chromium fires no `beforeinput` for them): the page's one history says what the text becomes.
        if let Some(redo) = history_walk(kind.as_deref()) {
            walk(&area, redo);
            // Nothing to walk to: the text the browser changed goes back to the history's.
            if let Some(now) = history.with_value(|h| h.as_ref().map(|h| h.now().to_owned())) {
                if area.value() != now {
                    area.set_value(&now);
                }
            }
            return;
        }
        let text = area.value();
        let group = steps.try_update_value(|s| s.typed(&kind.unwrap_or_default(), ev.time_stamp())).flatten();
        history.update_value(|h| h.iter_mut().for_each(|h| h.record(text.clone(), group)));
        typed_texts.update_value(|t| {
            if t.len() >= 64 {
                t.remove(0);
            }
            t.push(text.clone());
        });
        // The line numbers follow each key; the line marked wrong, with the message, once typing pauses.
        if let Some(root) = root.get_untracked() {
            let bad = numbered.get_value().and_then(|(_, bad)| bad);
            number(&root, text.split('\n').count(), bad);
        }
        let Some(step) = typed.try_update_value(|p| p.push(text)) else { return };
        if let Some(text) = step.apply {
            ask("typed", &text);
        }
        if step.ask {
            request_animation_frame(move || {
                if let Some(text) = typed.try_update_value(|p| p.frame()).flatten() {
                    ask("typed", &text);
                }
            });
        }
    };
    let area_of =
        |ev: &web_sys::Event| ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok());
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        let Some(redo) = undo_key(&ev) else { return };
        let Some(area) = area_of(&ev) else { return };
        ev.prevent_default();
        walk(&area, redo);
    };
    // The browser's own Undo and Redo (its menu, a context menu, a gesture).
    let on_beforeinput = move |ev: web_sys::Event| {
        let kind = js_sys::Reflect::get(&ev, &"inputType".into()).ok().and_then(|k| k.as_string());
        let Some(redo) = history_walk(kind.as_deref()) else { return };
        let Some(area) = area_of(&ev) else { return };
        ev.prevent_default();
        walk(&area, redo);
    };
    let listening = StoredValue::new(false);
    effect(move || {
        let Some(root) = root.get() else { return };
        if !listening.get_value() {
            listening.set_value(true);
            let f = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(on_beforeinput);
            let _ = root.add_event_listener_with_callback("beforeinput", f.as_ref().unchecked_ref());
            // Lives as long as the editor, mounted for the page's lifetime.
            f.forget();
        }
    });
    let begin = move |text: String| {
        start.set_value(Some(text.clone()));
        ask("script", &text);
    };
    let on_click = move |ev: web_sys::MouseEvent| match super::data_of(&ev, "data-editor").as_deref() {
        Some("new") => begin(template(panels(lab.lang.get_untracked()))),
        Some("reset") => {
            if let Some(text) = start.get_value() {
                ask("script", &text);
            }
        }
        Some("close") => ask("edit", "0"),
        _ => {}
    };
    let on_change = move |ev: web_sys::Event| {
        let Some(select) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) else {
            return;
        };
        if let Some(id) = ScenarioId::parse(&select.value()) {
            begin(script_of(id));
            select.set_value("");
        }
    };
    view! {
        <section class="editor" aria-labelledby="editor-title" hidden node_ref=root
            on:input=on_input on:click=on_click on:change=on_change on:keydown=on_keydown></section>
    }
}

/// Whether an input of this type is the browser's own Undo (`Some(false)`) or Redo (`Some(true)`).
fn history_walk(input_type: Option<&str>) -> Option<bool> {
    match input_type {
        Some("historyUndo") => Some(false),
        Some("historyRedo") => Some(true),
        _ => None,
    }
}
