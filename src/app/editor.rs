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

use super::{dom, effect};
use crate::present::history::{changed, Group, History};
use crate::present::pace::Pace;
use crate::present::params::Lang;
use crate::present::text::{panels, Panels};
use crate::scenarios::ScenarioId;

/// A short script to start from: three workers, one named value to drag.
fn template(p: &Panels) -> String {
    format!(
        "{}\nvalue pause 15s\nlease 10s\nA: acquire, pause {{pause}}, write, release\nB: idle 1s, acquire, work 1s, write, release\nC: idle 2s, acquire, write, release\n",
        p.editor_template
    )
}

/// The catalogue scenario `id` at its defaults: its script as written, with its comments.
fn script_of(id: ScenarioId) -> String {
    id.source().to_owned()
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
pub fn Editor() -> impl IntoView {
    let lab = super::lab();
    let area = NodeRef::<html::Textarea>::new();
    let gutter = NodeRef::<html::Pre>::new();
    // Where the script started (a template, a scenario, the text it opened with): what Reset goes back to.
    let start = StoredValue::new(None::<String>);
    // Every text shown, in one history; how texts group into steps; the texts typed that the page has not
    // shown back yet (a state the page told before the last keys must not take them away).
    let history = StoredValue::new(None::<History>);
    let steps = StoredValue::new(Steps::default());
    let typed_texts = StoredValue::new(Vec::<String>::new());
    let ask = move |kind: &str, payload: &str| lab.ask_page(kind, payload);
    let p = move || panels(lab.lang.get());
    // The script as the page last told it. The mirror read the text then (`Mirror::state`): its problem, or
    // the shape of its scenario, is this text's, so the editor does not read it again.
    let told = Memo::new(move |_| {
        lab.script.with(|s| {
            s.as_ref().map(|s| {
                let shape =
                    s.scenario.as_ref().map(|sc| (sc.workers.len(), sc.params.len(), sc.switches.len()));
                (s.text.clone(), s.problem.clone(), shape)
            })
        })
    });
    let shown = move || lab.editing.get() && told.with(Option::is_some);
    let problem = Memo::new(move |_| told.with(|s| s.as_ref().and_then(|(_, p, _)| p.clone())));
    // The line numbers follow each key; the line marked wrong, with the message, once typing pauses.
    let lines = RwSignal::new(1);
    let bad = Memo::new(move |_| problem.with(|p| p.as_ref().map(|e| e.line).filter(|&l| l > 0)));
    let said = Memo::new(move |_| {
        let lang = lab.lang.get();
        let p = panels(lang);
        told.with(|s| match s {
            Some((text, Some(e), shape)) => {
                let mut said = if lang == Lang::Ja { e.ja.clone() } else { e.en.clone() };
                // Over the limit, the link keeps what can be reopened, and says so.
                if super::scripting::over_limit(text) {
                    said.push_str(if lang == Lang::Ja { "。" } else { ". " });
                    said.push_str(if shape.is_some() { p.editor_link_kept } else { p.editor_link_none });
                }
                said
            }
            Some((_, None, Some((w, v, s)))) => (p.editor_reads)(*w, *v, *s),
            _ => String::new(),
        })
    });
    // A text the page tells (a drag, a switch, Reset, Start from, a link): into the box, as a step of the
    // history, unless it is one the reader typed before newer keys.
    effect(move || {
        if !lab.editing.get() {
            return;
        }
        let Some(text) = told.with(|s| s.as_ref().map(|(text, ..)| text.clone())) else { return };
        if start.with_value(Option::is_none) {
            start.set_value(Some(text.clone()));
        }
        if history.with_value(Option::is_none) {
            history.set_value(Some(History::new(text.clone())));
        }
        lines.set(count(&text));
        let Some(area) = area.get() else { return };
        let shown = area.value();
        // A text typed earlier, told back after newer keys: the box keeps the newest.
        let stale = typed_texts.with_value(|t| t.last() == Some(&shown) && t.contains(&text));
        if shown == text {
            typed_texts.update_value(Vec::clear);
        } else if !stale {
            // The page rewrote the text: the box follows, the caret where it was.
            let group = steps.try_update_value(|s| s.page(held())).flatten();
            history.update_value(|h| h.iter_mut().for_each(|h| h.record(text.clone(), group)));
            let (from, to) = (area.selection_start().ok().flatten(), area.selection_end().ok().flatten());
            area.set_value(&text);
            let _ = area.set_selection_range(from.unwrap_or(0), to.unwrap_or(0));
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
        lines.set(count(&text));
        ask("script", &text);
    };
    // Typing, paced like a drag (`present::pace`): the first text of a frame is told to the page's lab at
    // once, later ones of the same frame wait for it and only the newest is told.
    let typed = StoredValue::new(Pace::<String>::default());
    let on_input = move |ev: web_sys::Event| {
        let Some(area) = area.get_untracked() else { return };
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
        lines.set(count(&text));
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
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        let Some(redo) = undo_key(&ev) else { return };
        let Some(area) = area.get_untracked() else { return };
        ev.prevent_default();
        walk(&area, redo);
    };
    // The browser's own Undo and Redo (its menu, a context menu, a gesture).
    let on_beforeinput = move |ev: web_sys::InputEvent| {
        let Some(redo) = history_walk(Some(ev.input_type().as_str())) else { return };
        let Some(area) = area.get_untracked() else { return };
        ev.prevent_default();
        walk(&area, redo);
    };
    // The line numbers scroll with the text.
    let on_scroll = move |_| {
        if let (Some(area), Some(gutter)) = (area.get_untracked(), gutter.get_untracked()) {
            gutter.set_scroll_top(area.scroll_top());
        }
    };
    let begin = move |text: String| {
        start.set_value(Some(text.clone()));
        ask("script", &text);
    };
    // Opened from its button, the editor takes the focus: the button hides while the editor is open, and the
    // focus it had went nowhere (noted here, until the focus lands anywhere). A link that opens the editor
    // leaves the page's focus as it is.
    let left_button = StoredValue::new(false);
    let _ = window_event_listener(leptos::ev::focusout, move |e| {
        let from = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let to_nothing = e.related_target().is_none();
        left_button.set_value(to_nothing && from.is_some_and(|f| f.id() == dom::EDIT_SCRIPT));
    });
    let _ = window_event_listener(leptos::ev::focusin, move |_| left_button.set_value(false));
    effect(move || {
        let Some(area) = area.get() else { return };
        let nowhere =
            document().active_element().is_none_or(|a| Some(a) == document().body().map(Into::into));
        if nowhere && left_button.get_value() {
            let _ = area.focus();
        }
    });
    // Closed, it gives the focus back to its button, once the page shows it again.
    let close = move |_| {
        ask("edit", "0");
        request_animation_frame(|| {
            if let Some(b) = document().get_element_by_id(dom::EDIT_SCRIPT) {
                let _ = b.unchecked_into::<web_sys::HtmlElement>().focus();
            }
        });
    };
    let reset = move |_| {
        if let Some(text) = start.get_value() {
            ask("script", &text);
        }
    };
    let from = move |ev: web_sys::Event| {
        let Some(select) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) else {
            return;
        };
        if let Some(id) = ScenarioId::parse(&select.value()) {
            begin(script_of(id));
            select.set_value("");
        }
    };
    let scenarios = move || {
        ScenarioId::ALL
            .map(|id| view! { <option value=id.id()>{move || (p().text.scenario)(id).title}</option> })
    };
    view! {
        // Nothing of it in the page while closed (an embed never has one).
        <section class="editor" aria-labelledby="editor-title" hidden=move || !shown()>
            <Show when=shown>
            <h2 id="editor-title">{move || p().editor_heading}</h2>
            <div class="editor-start">
                <button type="button" data-editor="new" on:click=move |_| begin(template(p()))>
                    {move || p().editor_new}
                </button>
                <label class="editor-from">
                    {move || p().editor_from} " "
                    <select data-editor="from" on:change=from>
                        <option value="">"—"</option>
                        {scenarios().into_iter().collect_view()}
                    </select>
                </label>
                <button type="button" data-editor="reset" on:click=reset>{move || p().editor_reset}</button>
                <button type="button" data-editor="close" on:click=close>
                    {move || p().editor_close}
                </button>
            </div>
            <div class="editor-box">
                <pre class="gutter" aria-hidden="true" node_ref=gutter>
                    <For each=move || 1..=lines.get() key=|n| *n let:n>
                        <span class:bad=move || bad.get() == Some(n)>{n}</span>
                        "\n"
                    </For>
                </pre>
                <textarea id="script-text" aria-label=move || p().editor_label
                    aria-describedby="script-problem script-help" spellcheck="false" autocapitalize="off"
                    autocomplete="off" wrap="off" rows="12" node_ref=area
                    aria-invalid=move || if problem.with(Option::is_some) { "true" } else { "false" }
                    on:input=on_input on:keydown=on_keydown on:beforeinput=on_beforeinput on:scroll=on_scroll>
                </textarea>
            </div>
            <p id="script-problem" class="script-problem" class:bad=move || problem.with(Option::is_some)
                role="alert">{move || said.get()}</p>
            <p id="script-help" class="script-help">{move || p().editor_help}</p>
            </Show>
        </section>
    }
}

/// How many lines `text` has (an empty text has one).
fn count(text: &str) -> usize {
    text.split('\n').count()
}

/// Whether an input of this type is the browser's own Undo (`Some(false)`) or Redo (`Some(true)`).
fn history_walk(input_type: Option<&str>) -> Option<bool> {
    match input_type {
        Some("historyUndo") => Some(false),
        Some("historyRedo") => Some(true),
        _ => None,
    }
}
