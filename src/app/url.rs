//! The page's link: read the state from `location.search`, keep it in step with `history.replaceState`
//! (and `pushState` for a scenario picked).

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::{dom, effect};
use crate::present::params::{Lang, Query};

/// The state the page was opened with, or of the history entry it is at: a script too long for a link is
/// kept whole in its entry's state ([`write`]), so Back, Forward and a reload bring back every character
/// the reader typed (the editor says the link does not hold it).
pub fn read() -> Query {
    let mut q = Query::parse(&read_search());
    if let Some(text) = web_sys::window().and_then(|w| w.history().ok()?.state().ok()?.as_string()) {
        q.script = Some(text);
    }
    q
}

/// Whether the page's link opens the projector (`present=`; `app::projector` reads its step).
pub fn presenting() -> bool {
    later().split('&').any(|p| p.starts_with("present="))
}

/// Calls `apply` with the state of a history entry the reader went back or forward to.
pub fn on_popstate(apply: impl Fn(Query) + 'static) {
    let Some(window) = web_sys::window() else { return };
    let handler = Closure::<dyn Fn()>::new(move || apply(read()));
    let _ = window.add_event_listener_with_callback("popstate", handler.as_ref().unchecked_ref());
    // Lives as long as the page.
    handler.forget();
}

/// Tells the page's static fallback (in `index.html`) that the app started, so it gives way.
pub fn mark_started() {
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.class_list().add_1("app-started");
    }
}

/// Marks the page embedded (`embed=1`): the style sheet then shows only the widget and its verdict (the
/// boot script may have said so already).
pub fn mark_embedded(embedded: bool) {
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.class_list().toggle_with_force("embed", embedded);
    }
}

/// Calls `play` with the scenario of a reading's link the reader clicked ("Play it → …"): the reading is
/// built into the page in both languages, outside the app, so one listener on the document serves it. A
/// click that asks for a new tab or window is the browser's.
pub fn on_reading_link(play: impl Fn(crate::scenarios::ScenarioId) + 'static) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let handler = Closure::<dyn Fn(web_sys::MouseEvent)>::new(move |ev: web_sys::MouseEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key() || ev.button() != 0 {
            return;
        }
        let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let link = target.and_then(|t| t.closest(dom::READING_PLAY).ok().flatten());
        let id = link.and_then(|l| l.get_attribute("data-play-scenario"));
        if let Some(id) = id.as_deref().and_then(crate::scenarios::ScenarioId::parse) {
            ev.prevent_default();
            play(id);
        }
    });
    let _ = document.add_event_listener_with_callback("click", handler.as_ref().unchecked_ref());
    // Lives as long as the page.
    handler.forget();
}

/// The first of the browser's preferred languages that the page speaks.
pub fn browser_lang() -> Option<Lang> {
    let nav = web_sys::window()?.navigator();
    nav.languages().iter().filter_map(|v| v.as_string()).find_map(|tag| Lang::from_tag(&tag))
}

/// Replaces the current history entry's query with `query`'s, keeping the path and hash; with `push`, adds
/// a new entry instead (a scenario picked: Back returns to the one before). A script the link cannot carry
/// ([`super::Lab::link`]) is kept whole in the entry's state.
pub fn write((query, whole): &(Query, Option<String>), push: bool) {
    let Some(window) = web_sys::window() else { return };
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    if let Ok(history) = window.history() {
        let url = format!("{path}{}{}{hash}", query.to_query_string(), later());
        let state = whole.as_deref().map_or(JsValue::NULL, JsValue::from_str);
        let _ = if push {
            history.push_state_with_url(&state, "", Some(&url))
        } else {
            history.replace_state_with_url(&state, "", Some(&url))
        };
    }
}

/// The link's pairs the second module reads (`course=`, `course-done=` for `app::course`, `present=` for
/// `app::projector`) as `&course=…`, empty if none. Kept in every link the page writes, last.
pub fn later() -> String {
    later_pairs(|p| p.starts_with("course") || p.starts_with("present="))
}

/// The course's pairs of [`later`] alone: what the Share panel's link and snippet keep (`docs/courses.md`).
/// Not `present=`: the projector is how this reader shows the state, not part of it.
pub fn course_pairs() -> String {
    later_pairs(|p| p.starts_with("course"))
}

fn later_pairs(keep: impl Fn(&str) -> bool) -> String {
    let search = read_search();
    let pairs = search.strip_prefix('?').unwrap_or(&search).split('&');
    pairs.filter(|p| keep(p)).fold(String::new(), |s, p| s + "&" + p)
}

fn read_search() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// Whether the reader asked the system for less motion.
pub fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Sets `<html lang>` so screen readers and fonts pick the right language.
pub fn set_document_lang(lang: Lang) {
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.set_attribute("lang", lang.tag());
    }
}

/// Sets the document's title.
pub fn set_title(title: &str) {
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        doc.set_title(title);
    }
}

/// The tab's own storage: gone when the tab closes, never shared with other tabs.
fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

const SKIP_KEY: &str = "fencing-lab:skip-prediction";

/// Whether the reader chose, earlier in this tab, to skip predicting.
pub fn prediction_skipped() -> bool {
    session().and_then(|s| s.get_item(SKIP_KEY).ok().flatten()).is_some()
}

/// Remembers for this tab that the reader skips predicting.
pub fn remember_skip() {
    if let Some(s) = session() {
        let _ = s.set_item(SKIP_KEY, "1");
    }
}

/// How long after a change the URL is rewritten.
const URL_SETTLE_MS: u32 = 150;

/// Keeps the address bar in step with `lab`, and `lab` with the page's history.
pub fn follow(lab: super::Lab) {
    // The URL follows the state once the hand rests (`rest`), and a moment after the change, not in the task
    // that made it: a history write costs more than a click's redraw, and Chromium throttles bursts of them.
    // (A new timer replaces, and so cancels, the one before.)
    let pending_write = std::cell::RefCell::new(None::<Timeout>);
    effect(move || {
        if lab.calm() {
            let query = lab.link(lab.embed);
            *pending_write.borrow_mut() = Some(Timeout::new(URL_SETTLE_MS, move || {
                write(&query, lab.new_entry.try_update_value(std::mem::take).unwrap_or(false));
            }));
        }
    });
    // Back and forward within the page's history bring their state back, and a bad value there gets the
    // notice a link's gets (an entry without one clears it).
    on_popstate(move |q: Query| {
        lab.scenario.set(q.scenario);
        lab.inputs.set(q.inputs);
        // A script's entry opens the editor with its text, as its link does.
        match q.script {
            Some(text) => {
                lab.set_script(text);
                lab.editing.set(!lab.embed);
            }
            None => lab.leave_script(),
        }
        if let Some(l) = q.lang {
            lab.lang.set(l);
        }
        if lab.link_problems.with_untracked(|p| *p != q.problems) {
            lab.link_problems.set(q.problems);
        }
    });
}
