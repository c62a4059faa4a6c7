//! "Break it": the reader hunts for a failure by hand (the page says when the current run is one), then the
//! core searches every schedule within stated bounds, a slice at a time, and "Show it" loads what it found.
//! Beside it, a map of the verdict over the scenario's disturbances, a cell per run, that loads a run on
//! click or Enter. A script is searched over its named values (no map: they can be many).
//!
//! The section is static markup that one effect fills in and one listener serves (`data-*` attributes):
//! each reactive view closure of its own type would cost the bundle more than all of this.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::dom;
use super::{data_of, effect, say, Lab};
use crate::present::breakit::{page_search, script_settings, settings, Finding, Hunt, Plane, ScriptSearch};
use crate::present::markup::{self, Intro};
use crate::present::params::Lang;
use crate::present::text::panels;
use crate::scenarios::{Inputs, ScenarioId};
use crate::sim::{Ms, Scenario};

/// How long one slice of a search may hold the main thread: input waits at most this long.
const SLICE_MS: f64 = 6.0;
/// Runs between two looks at the clock (a few hundred microseconds).
const CHUNK: u64 = 500;

/// What is searched: the catalogue's scenario with its inputs, or a script's scenario.
#[derive(Clone, Debug, PartialEq)]
enum Subject {
    Catalogue(ScenarioId, Inputs),
    Script(Scenario),
}

impl Subject {
    /// The lab's, as it stands.
    fn of(lab: &Lab) -> Subject {
        match lab.script_scenario() {
            Some(sc) => Subject::Script(sc),
            None => Subject::Catalogue(lab.scenario.get(), lab.inputs.get()),
        }
    }

    /// What its search and map depend on: every value they vary at its first (showing what a search found
    /// changes only those, so the search still stands).
    fn settings(&self) -> Subject {
        match self {
            Subject::Catalogue(id, inputs) => {
                let (id, inputs) = settings(*id, inputs);
                Subject::Catalogue(id, inputs)
            }
            Subject::Script(sc) => Subject::Script(script_settings(sc)),
        }
    }
}

/// Where the search stands.
enum Status {
    Idle,
    /// Under way for exactly this; any change retires it.
    Running(Subject, Rc<RefCell<Hunt>>),
    /// Finished for these settings (a counterexample shown keeps them).
    Done(Subject, Finding),
    /// Cancelled by a change of the settings before it finished: the page says so.
    Stopped,
}

/// The section's state between renders.
struct State {
    status: Status,
    /// Bumped by every new search and every cancel: a slice of an older one stops.
    generation: u32,
    /// The map and what it was drawn for.
    plane: Option<(Subject, Option<Plane>)>,
    drawn: Option<(Subject, Lang)>,
    /// The language the section's frame was drawn in, and what it says it searches.
    framed: Option<(Lang, Intro)>,
}

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The section, shown once the first prediction has been told.
#[component]
pub fn BreakIt(lab: Lab) -> impl IntoView {
    let state = StoredValue::new_local(State {
        status: Status::Idle,
        generation: 0,
        plane: None,
        drawn: None,
        framed: None,
    });
    let changed = Trigger::new();
    let root = NodeRef::<html::Section>::new();

    effect(move || {
        changed.track();
        let (subject, lang) = (Subject::of(&lab), lab.lang.get());
        let kind = lab.run.with(|r| r.outcome.kind);
        let Some(root) = root.get() else { return };
        let t = panels(lang);
        let key = subject.settings();
        state.update_value(|s| {
            if matches!(&s.status, Status::Running(exact, _) if *exact != subject) {
                s.generation += 1;
                s.status = Status::Stopped;
            }
            if s.plane.as_ref().is_none_or(|p| p.0 != key) {
                let plane = match &subject {
                    Subject::Catalogue(id, inputs) => Plane::new(*id, inputs),
                    Subject::Script(_) => None,
                };
                s.plane = Some((key.clone(), plane));
            }
            let plane = s.plane.as_ref().and_then(|p| p.1.as_ref());
            let intro = match &subject {
                Subject::Script(sc) if !sc.params.is_empty() => Intro::Script,
                _ if plane.is_some() => Intro::Mapped,
                _ => Intro::Fixed,
            };
            // The frame (headings, buttons) in the page's language; a new frame needs a new map.
            if s.framed != Some((lang, intro)) {
                s.framed = Some((lang, intro));
                s.drawn = None;
                root.set_inner_html(&markup::break_it(t, intro));
            }
            let here = match &subject {
                Subject::Catalogue(_, inputs) => plane.and_then(|p| p.cell_of(inputs)),
                Subject::Script(_) => None,
            };
            if s.drawn.as_ref() != Some(&(key.clone(), lang)) {
                s.drawn = Some((key.clone(), lang));
                let html = plane.map(|p| markup::plane(p, here, t)).unwrap_or_default();
                if let Some(wrap) = dom::find(&root, dom::PLANE_WRAP) {
                    wrap.set_inner_html(&html);
                }
            } else {
                mark_here(&root, here);
            }

            let found = match kind {
                k if k.unsafe_data() => "safety",
                k if k.liveness_lost() => "liveness",
                _ => "none",
            };
            root.set_attribute("data-found", found).ok();
            say(&root, dom::FOUND, &t.found(kind));

            let progress = dom::find(&root, dom::PROGRESS);
            let (result, buttons) = match &s.status {
                Status::Running(_, hunt) => {
                    let (done, total) = hunt.borrow().progress();
                    if let Some(progress) = &progress {
                        progress.set_attribute("max", &total.to_string()).ok();
                        progress.set_attribute("value", &done.to_string()).ok();
                    }
                    (String::new(), String::new())
                }
                Status::Done(at, finding) if *at == key => {
                    let said = match finding {
                        Finding::Catalogue(r) => t.report(r),
                        Finding::Script(r) => t.script_report(r),
                    };
                    (said, markup::show_buttons(finding.found(), t))
                }
                // In the live region: a search that vanished would leave the reader waiting for it.
                Status::Stopped => (t.search_stopped.to_owned(), String::new()),
                _ => (String::new(), String::new()),
            };
            if let Some(progress) = progress {
                progress.toggle_attribute_with_force("hidden", !matches!(s.status, Status::Running(..))).ok();
            }
            // The buttons go with the report: redrawn only when it changes, not on every drag.
            if say(&root, dom::SEARCH_RESULT, &result) {
                if let Some(show) = dom::find(&root, dom::SHOW_IT) {
                    show.set_inner_html(&buttons);
                }
            }
        });
    });

    let start = move || {
        let subject = untrack(|| Subject::of(&lab));
        let hunt = match &subject {
            Subject::Catalogue(id, inputs) => Hunt::Catalogue(page_search(*id, inputs)),
            Subject::Script(sc) => Hunt::Script(ScriptSearch::new(sc)),
        };
        let hunt = Rc::new(RefCell::new(hunt));
        let generation = state.with_value(|s| s.generation) + 1;
        let key = subject.settings();
        state.update_value(|s| {
            s.generation = generation;
            s.status = Status::Running(subject, hunt.clone());
        });
        changed.notify();
        slice(hunt, generation, state, changed, key, now());
    };
    let show = move |which: &str| {
        let safety = which == "safety";
        let shown = state.with_value(|s| match &s.status {
            Status::Done(_, Finding::Catalogue(r)) => {
                let c = if safety { &r.safety } else { &r.liveness };
                c.as_ref().map(|c| lab.load(c.apply(&lab.inputs.get_untracked())))
            }
            Status::Done(_, Finding::Script(r)) => {
                let f = if safety { &r.safety } else { &r.liveness };
                let values: Option<Vec<(usize, Ms)>> = f
                    .as_ref()
                    .map(|f| r.axes.iter().map(|a| a.param).zip(f.values.iter().copied()).collect());
                values.map(|v| lab.load_values(&v))
            }
            _ => None,
        });
        if shown.is_some() {
            super::show_figure();
        }
    };
    let load = move |cell: usize| {
        let values =
            state.with_value(|s| s.plane.as_ref().and_then(|p| p.1.as_ref()).map(|p| p.values(cell)));
        let mut inputs = lab.inputs.get_untracked();
        for (key, v) in values.unwrap_or_default() {
            let _ = key.spec().set(&mut inputs, v);
        }
        lab.load(inputs);
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if data_of(&ev, "data-search").is_some() {
            start();
        } else if let Some(which) = data_of(&ev, "data-show") {
            show(&which);
        } else if let Some(cell) = data_of(&ev, "data-cell").and_then(|c| c.parse().ok()) {
            load(cell);
        }
    };
    // Arrow keys, Home and End move the grid's one tab stop; Enter and Space load the cell's run.
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let Some(cell) = data_of(&ev, "data-cell").and_then(|c| c.parse::<usize>().ok()) else { return };
        let size = state.with_value(|s| {
            s.plane.as_ref().and_then(|p| p.1.as_ref()).map(|p| (p.kinds.len(), p.columns()))
        });
        let Some((cells, columns)) = size else { return };
        let row_start = cell / columns * columns;
        let row_end = (row_start + columns).min(cells) - 1;
        let to = match ev.key().as_str() {
            "ArrowRight" => (cell + 1).min(row_end),
            "ArrowLeft" => cell.saturating_sub(1).max(row_start),
            "ArrowDown" if cell + columns < cells => cell + columns,
            "ArrowUp" if cell >= columns => cell - columns,
            "ArrowDown" | "ArrowUp" => cell,
            // Ctrl+Home and Ctrl+End: the first and last cell of the grid, as grids do.
            "Home" if ev.ctrl_key() => 0,
            "End" if ev.ctrl_key() => cells - 1,
            "Home" => row_start,
            "End" => row_end,
            "Enter" | " " => {
                ev.prevent_default();
                return load(cell);
            }
            _ => return,
        };
        ev.prevent_default();
        if let Some(root) = root.get_untracked() {
            if let Ok(Some(el)) = root.query_selector(&dom::cell(to)) {
                set_tab_stop(&root, &el);
                el.dyn_into::<HtmlElement>().map(|e| e.focus()).ok();
            }
        }
    };
    on_cleanup(move || state.update_value(|s| s.generation += 1));

    // One element, its content markup: a view per part would cost the bundle more than the section.
    view! {
        <section class="break-it" aria-labelledby="break-title" node_ref=root on:click=on_click on:keydown=on_key></section>
    }
}

/// Runs the search for one slice of time, then yields to the page and comes back, until it is done or a
/// newer generation retired it.
fn slice(
    search: Rc<RefCell<Hunt>>,
    mine: u32,
    state: StoredValue<State, LocalStorage>,
    changed: Trigger,
    key: Subject,
    started: f64,
) {
    Timeout::new(0, move || {
        if state.try_with_value(|s| s.generation) != Some(mine) {
            return;
        }
        let t0 = now();
        let finished = {
            let mut s = search.borrow_mut();
            loop {
                if s.run(CHUNK) {
                    break true;
                }
                if now() - t0 >= SLICE_MS {
                    break false;
                }
            }
        };
        if finished {
            let finding = search.borrow().finding((now() - started).round() as u64);
            state.update_value(|s| s.status = Status::Done(key, finding));
        } else {
            slice(search, mine, state, changed, key, started);
        }
        changed.notify();
    })
    .forget();
}

/// Marks the cell of the current run (`here`, `aria-current`), and makes it the grid's tab stop unless
/// focus is already inside the grid.
fn mark_here(root: &Element, here: Option<usize>) {
    if let Ok(Some(old)) = root.query_selector(dom::HERE) {
        old.class_list().remove_1("here").ok();
        old.remove_attribute("aria-current").ok();
    }
    let Some(cell) = here.and_then(|h| root.query_selector(&dom::cell(h)).ok().flatten()) else {
        return;
    };
    cell.class_list().add_1("here").ok();
    cell.set_attribute("aria-current", "true").ok();
    let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
    if !active.is_some_and(|a| root.contains(Some(&a)) && a.has_attribute("data-cell")) {
        set_tab_stop(root, &cell);
    }
}

fn set_tab_stop(root: &Element, cell: &Element) {
    if let Ok(Some(old)) = root.query_selector(dom::CELL_TAB_STOP) {
        old.set_attribute("tabindex", "-1").ok();
    }
    cell.set_attribute("tabindex", "0").ok();
}
