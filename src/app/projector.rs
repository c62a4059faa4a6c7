//! The projector: a run walked through one moment at a time, full-window in large type, for a lecture (a
//! link's `present=K`, or the Share panel's button). A step is a moment at which the run's narration tells
//! something ([`told::moments`]): the figure drawn up to it with the playhead there, and what happened then
//! as the caption, in the narration's own words; the last step adds the verdict. → / Space / Page Down go
//! on (a presenter's remote sends Page Down), ← / Page Up back, Home / End to the ends, Esc leaves, and
//! focus goes back where it was. The link keeps the step (`present=K`, from 1).
//!
//! It shows the state the page was in when it opened, and the rest of the page is inert meanwhile, so
//! nothing changes it under the projector. In the page's second module: the first load carries only its
//! button and the check of a link for `present=`.

use std::cell::RefCell;

use leptos::html;
use leptos::mount::UnmountHandle;
use leptos::prelude::*;
use leptos::tachys::view::any_view::AnyViewState;
use wasm_bindgen::JsCast;

use super::later::read;
use crate::present::figure::{self, px, Who, AXIS_H};
use crate::present::params::{Lang, Query};
use crate::present::text::{panels, Panels};
use crate::present::told;
use crate::sim::{self, Ms, Run, Scenario};

thread_local! {
    /// The open projector: what unmounts it, and what to give back when it closes.
    static OPEN: RefCell<Option<Opened>> = const { RefCell::new(None) };
}

struct Opened {
    _view: (Owner, UnmountHandle<AnyViewState>),
    host: web_sys::Element,
    /// The page's elements made inert while it is open.
    inert: Vec<web_sys::Element>,
    /// What had focus before.
    focus: Option<web_sys::HtmlElement>,
}

/// What the projector shows: one run of one state.
struct Show {
    run: Run,
    query: Query,
    /// The scenario run: the script's, when the state is a script (`query.script`), else the catalogue's.
    scenario: Scenario,
    moments: Vec<(Ms, Vec<told::Told>)>,
    said: &'static Panels,
    /// The figure's width in CSS px: the page's narrow layout on a phone, its wide one elsewhere (the
    /// projector scales it to the window, type and all).
    width: f64,
}

impl Show {
    fn who(&self) -> Who<'_> {
        match self.query.script {
            Some(_) => Who::Script(&self.scenario),
            None => Who::Catalogue(self.query.scenario),
        }
    }

    /// The figure's viewBox and drawn groups at step `k` (from 1), the playhead at its moment.
    fn figure(&self, k: usize) -> (String, String) {
        let (t, who) = (self.said.text, self.who());
        let l = figure::lab_layout(self.width, &self.run, who, t);
        let job = if self.query.script.is_some() { None } else { figure::job(who, &self.query.inputs) };
        let at = self.moments.get(k.wrapping_sub(1)).map(|m| m.0);
        let mut groups = figure::lab_groups(&l, &self.run, who, at, job, t);
        if let Some(at) = at {
            let x = px(l.x(at.min(l.axis.t_end)));
            groups += &format!(
                r#"<line class="playhead" x1="{x}" x2="{x}" y1="{}" y2="{}"/>"#,
                px(AXIS_H - 6.0),
                px(l.height() - 6.0)
            );
        }
        (format!("0 0 {} {}", px(l.width), px(l.height())), groups)
    }

    /// What happened at step `k`'s moment, in the narration's words: each fact, and the reason that explains
    /// it where one does.
    fn caption(&self, k: usize) -> String {
        let Some((_, facts)) = self.moments.get(k.wrapping_sub(1)) else { return String::new() };
        self.said.tell(&self.scenario, &self.run, facts)
    }
}

/// The step the page's link gives (`present=`, its last), as given.
fn linked_step() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let given = search.trim_start_matches('?').split('&').rev().find_map(|p| p.strip_prefix("present="))?;
    Some(String::from(js_sys::decode_uri_component(given).unwrap_or_else(|_| given.into())))
}

/// Opens the projector on state `query` (a link's) at the step the page's link gives (a bad one opens at the
/// nearest step, and says so), or else the first. A script that does not read opens nothing: the page
/// already says why.
pub fn open(query: &str) {
    let given = linked_step();
    close();
    let Some(window) = web_sys::window() else { return };
    let Some(doc) = window.document() else { return };
    let Some(body) = doc.body() else { return };
    let query = Query::parse(query);
    let scenario = match &query.script {
        Some(text) => match read(text) {
            Ok(sc) => sc,
            Err(_) => return,
        },
        None => query.scenario.build(&query.inputs),
    };
    let run = sim::run(&scenario);
    let said = panels(query.lang.unwrap_or(Lang::En));
    let inner = window.inner_width().ok().and_then(|w| w.as_f64()).unwrap_or(960.0);
    let moments = told::moments(&run);
    let n = moments.len();
    let asked = given.as_deref().map(|g| g.trim().parse::<usize>().ok());
    let start = asked.flatten().unwrap_or(1).clamp(1, n.max(1));
    let note = given
        .filter(|_| n > 0 && asked != Some(Some(start)))
        .map(|given| (said.projector_bad_step)(&given, n, start));
    let show = Show {
        run,
        query,
        scenario,
        moments,
        said,
        width: if inner < 600.0 { inner.max(320.0) } else { 960.0 },
    };

    // The rest of the page is inert while the projector is open: the keyboard and a screen reader stay in it.
    let mut inert = Vec::new();
    let children = body.children();
    for i in 0..children.length() {
        if let Some(el) = children.item(i).filter(|el| !el.has_attribute("inert")) {
            let _ = el.set_attribute("inert", "");
            inert.push(el);
        }
    }
    let Ok(host) = doc.create_element("div") else { return };
    let _ = body.append_child(&host);
    let focus = doc.active_element().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    let Ok(host_el) = host.clone().dyn_into::<web_sys::HtmlElement>() else { return };
    // On an owner of its own, not the share panel's button's: it lives until it is closed.
    let view = super::apart(|| {
        leptos::mount::mount_to(host_el, move || view! { <Projector show start note/> }.into_any())
    });
    OPEN.with_borrow_mut(|o| *o = Some(Opened { _view: view, host, inert, focus }));
}

/// Closes the projector, if it is open: the page as it was, focus where it was, the link without a step.
fn close() {
    let Some(opened) = OPEN.with_borrow_mut(Option::take) else { return };
    for el in &opened.inert {
        let _ = el.remove_attribute("inert");
    }
    opened.host.remove();
    if let Some(el) = &opened.focus {
        let _ = el.focus();
    }
    keep_step(None);
}

/// Writes the step into the link (`present=K`), or takes it out, keeping the rest of the query.
fn keep_step(k: Option<usize>) {
    let Some(window) = web_sys::window() else { return };
    let location = window.location();
    let search = location.search().unwrap_or_default();
    let mut pairs: Vec<String> = (search.trim_start_matches('?').split('&'))
        .filter(|p| !p.is_empty() && !p.starts_with("present="))
        .map(str::to_owned)
        .collect();
    pairs.extend(k.map(|k| format!("present={k}")));
    let query = if pairs.is_empty() { String::new() } else { format!("?{}", pairs.join("&")) };
    let url =
        format!("{}{query}{}", location.pathname().unwrap_or_default(), location.hash().unwrap_or_default());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

#[component]
fn Projector(show: Show, start: usize, note: Option<String>) -> impl IntoView {
    let n = show.moments.len();
    let said = show.said;
    let t = said.text;
    let (kind, lesson) = (show.run.outcome.kind, said.lesson(&show.run));
    let show = StoredValue::new_local(show);
    let step = RwSignal::new(start);
    let root = NodeRef::<html::Div>::new();
    let figure = Memo::new(move |_| show.with_value(|s| s.figure(step.get())));
    let caption = Memo::new(move |_| show.with_value(|s| s.caption(step.get())));
    let at = move || show.with_value(|s| s.moments.get(step.get().wrapping_sub(1)).map_or(0, |m| m.0));
    let go = move |k: usize| step.set(k.clamp(1, n.max(1)));
    Effect::new(move || {
        if n > 0 {
            keep_step(Some(step.get()));
        }
    });
    // Focus into the dialog once it is in the page, so its keys work at once.
    Effect::new(move || {
        if let Some(el) = root.get() {
            let _ = el.focus();
        }
    });
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let k = step.get_untracked();
        // Space on a button presses it; elsewhere it goes on, Shift+Space back.
        let on_button = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlButtonElement>().ok()).is_some();
        match ev.key().as_str() {
            "ArrowRight" | "PageDown" => go(k + 1),
            " " if !on_button && ev.shift_key() => go(k.saturating_sub(1)),
            " " if !on_button => go(k + 1),
            "ArrowLeft" | "PageUp" => go(k.saturating_sub(1)),
            "Home" => go(1),
            "End" => go(n),
            // Tab goes round the dialog's buttons: the page behind is inert, and a focus that left for the
            // document's body would leave its keys (Escape among them) unheard.
            "Tab" => {
                let Some(root) = root.get_untracked() else { return };
                let Ok(buttons) = root.query_selector_all("button") else { return };
                let at = |i: u32| buttons.item(i).and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok());
                let (first, last) = (at(0), at(buttons.length().saturating_sub(1)));
                let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
                let is = |b: &Option<web_sys::HtmlElement>| {
                    b.as_ref().zip(active.as_ref()).is_some_and(|(b, a)| js_sys::Object::is(b, a))
                };
                let on_root = active.as_ref().is_some_and(|a| js_sys::Object::is(a, &root));
                let to = match ev.shift_key() {
                    true if is(&first) || on_root => last,
                    false if is(&last) => first,
                    _ => return,
                };
                if let Some(to) = to {
                    let _ = to.focus();
                }
            }
            // After this handler: closing unmounts the view it belongs to.
            "Escape" => {
                gloo_timers::callback::Timeout::new(0, close).forget();
            }
            _ => return,
        }
        ev.prevent_default();
    };
    let [back, next, leave] = said.projector_buttons;
    view! {
        <div
            class="projector"
            role="dialog"
            aria-modal="true"
            aria-label=said.projector_label
            tabindex="-1"
            node_ref=root
            on:keydown=on_key
        >
            <figure class="lab projector-figure">
                <div class="timeline">
                    <svg
                        role="img"
                        aria-label=t.figure_label
                        viewBox=move || figure.with(|f| f.0.clone())
                        preserveAspectRatio="xMidYMid meet"
                        inner_html=move || figure.with(|f| f.1.clone())
                    ></svg>
                </div>
            </figure>
            {note.map(|note| view! { <p class="projector-note" role="alert">{note}</p> })}
            <p class="projector-caption" aria-live="polite">
                {move || if n == 0 { said.projector_empty.to_owned() } else { caption.get() }}
            </p>
            <p class="verdict projector-verdict" data-kind=kind.name() hidden=move || step.get() != n || n == 0>
                <strong>{t.outcome_title(kind)}</strong>
                " "
                {lesson}
            </p>
            <div class="projector-bar">
                // aria-disabled, not disabled: a disabled button would drop the focus out of the dialog.
                <button type="button" on:click=move |_| go(step.get_untracked().saturating_sub(1))
                    aria-disabled=move || (step.get() <= 1).to_string()>{back}</button>
                <span class="projector-step" aria-live="polite">
                    {move || if n == 0 { String::new() } else { (said.projector_step)(step.get(), n, at()) }}
                </span>
                <button type="button" on:click=move |_| go(step.get_untracked() + 1)
                    aria-disabled=move || (step.get() >= n).to_string()>{next}</button>
                <button type="button" class="projector-leave"
                    on:click=move |_| {
                        gloo_timers::callback::Timeout::new(0, close).forget();
                    }>{leave}</button>
                <span class="projector-keys">{said.projector_keys}</span>
            </div>
        </div>
    }
}
