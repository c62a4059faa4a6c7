//! "Break it": the reader hunts for a failure by hand (the page says when the current run is one), then the
//! core searches every schedule within stated bounds, a slice at a time, and "Show it" loads what it found.
//! Beside it, a map of the verdict over the scenario's disturbances, a cell per run, that loads a run on
//! click or Enter. A script is searched over its named values (no map: they can be many).
//!
//! The section is a view over the lab's signals: the map's cells are a keyed list (a switch that changes
//! some verdicts redraws only those cells) whose mark of the current run moves through a [`Selector`], so
//! a drag touches two cells, not the map.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use leptos::reactive::computed::Selector;

use super::dom;
use super::{data_of, effect, Lab};
use crate::present::breakit::{page_search, script_settings, settings, Finding, Hunt, Plane, ScriptSearch};
use crate::present::markup::{self, Intro};
use crate::present::text::panels;
use crate::scenarios::{Inputs, Key, ScenarioId};
use crate::sim::{Ms, OutcomeKind, Scenario};

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
    Running(Subject),
    /// Finished for these settings (a counterexample shown keeps them).
    Done(Subject, Finding),
    /// Cancelled by a change of the settings before it finished: the page says so.
    Stopped,
}

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The section, shown once the first prediction has been told.
#[component]
pub fn BreakIt() -> impl IntoView {
    let lab = super::lab();
    let p = move || panels(lab.lang.get());
    let status = RwSignal::new_local(Status::Idle);
    // Bumped by every new search and every cancel: a slice of an older one stops.
    let generation = StoredValue::new(0_u32);
    let progress = RwSignal::new((0_u64, 1_u64));
    let root = NodeRef::<html::Section>::new();
    let subject = Memo::new(move |_| Subject::of(&lab));
    let settings = Memo::new(move |_| subject.with(Subject::settings));
    // The map of the settings on screen (a drag of a disturbance keeps it).
    let plane = Memo::new(move |_| match settings.get() {
        Subject::Catalogue(id, inputs) => Plane::new(id, &inputs),
        Subject::Script(_) => None,
    });
    // A script that never read has no run on screen: nothing to map, search or report (the run memo's
    // fallback is the catalogue's scenario, which the reader does not see).
    let unread = Memo::new(move |_| lab.unread());
    let intro = Memo::new(move |_| match &*subject.read() {
        _ if unread.get() => Intro::Unread,
        Subject::Script(sc) if !sc.params.is_empty() => Intro::Script,
        _ if plane.with(Option::is_some) => Intro::Mapped,
        _ => Intro::Fixed,
    });
    // The cell of the run on screen, and the grid's one tab stop: the current cell unless the reader moved
    // it with the keys.
    let here = Memo::new(move |_| match &*subject.read() {
        Subject::Catalogue(_, inputs) => plane.with(|p| p.as_ref().and_then(|p| p.cell_of(inputs))),
        Subject::Script(_) => None,
    });
    let tab_stop = RwSignal::new(0);
    effect(move || {
        let here = here.get();
        let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
        let inside = root
            .get_untracked()
            .zip(active)
            .is_some_and(|(root, a)| root.contains(Some(&a)) && a.has_attribute("data-cell"));
        if !inside {
            tab_stop.set(here.unwrap_or(0));
        }
    });
    // A selector's effect lives as long as the cells that hold it, which can outlast the section's own
    // signals by a tick when the section goes: it reads them with `try_`.
    let is_here = Selector::new(move || here.try_get().flatten());
    let is_tab_stop = Selector::new(move || tab_stop.try_get().unwrap_or(0));
    // Any change of what a search runs retires the one under way, and the page says so.
    effect(move || {
        let now = subject.get();
        let running = status.with_untracked(|s| matches!(s, Status::Running(exact) if *exact != now));
        if running {
            generation.update_value(|g| *g += 1);
            status.set(Status::Stopped);
        }
    });
    let kind = Memo::new(move |_| lab.run.with(|r| r.outcome.kind));
    let found = move || match kind.get() {
        k if k.unsafe_data() => "safety",
        k if k.liveness_lost() => "liveness",
        _ => "none",
    };
    // The report of a search finished for the settings on screen (a counterexample shown keeps them).
    let report = move || {
        let t = p();
        status.with(|s| match s {
            Status::Done(at, finding) if *at == settings.get() => {
                let said = match finding {
                    Finding::Catalogue(r) => t.report(r),
                    Finding::Script(r) => t.script_report(r),
                };
                (said, finding.found())
            }
            // In the live region: a search that vanished would leave the reader waiting for it.
            Status::Stopped => (t.search_stopped.to_owned(), [false; 2]),
            _ => (String::new(), [false; 2]),
        })
    };
    let report = Memo::new(move |_| report());
    let running = move || status.with(|s| matches!(s, Status::Running(..)));

    let start = move |_| {
        if unread.get_untracked() {
            return;
        }
        let subject = subject.get_untracked();
        let hunt = match &subject {
            Subject::Catalogue(id, inputs) => Hunt::Catalogue(page_search(*id, inputs)),
            Subject::Script(sc) => Hunt::Script(ScriptSearch::new(sc)),
        };
        let hunt = Rc::new(RefCell::new(hunt));
        generation.update_value(|g| *g += 1);
        let key = subject.settings();
        progress.set(hunt.borrow().progress());
        status.set(Status::Running(subject));
        slice(hunt, generation.get_value(), Search { generation, status, progress }, key, now());
    };
    let show = move |safety: bool| {
        let shown = status.with_untracked(|s| match s {
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
        let values = plane.with_untracked(|p| p.as_ref().map(|p| p.values(cell)));
        let mut inputs = lab.inputs.get_untracked();
        for (key, v) in values.unwrap_or_default() {
            let _ = key.spec().set(&mut inputs, v);
        }
        lab.load(inputs);
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(cell) = data_of(&ev, "data-cell").and_then(|c| c.parse().ok()) {
            load(cell);
        }
    };
    // Arrow keys, Home and End move the grid's one tab stop; Enter and Space load the cell's run.
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let Some(cell) = data_of(&ev, "data-cell").and_then(|c| c.parse::<usize>().ok()) else { return };
        let size = plane.with_untracked(|p| p.as_ref().map(|p| (p.kinds.len(), p.columns())));
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
        tab_stop.set(to);
        let el = root.get_untracked().and_then(|root| dom::find(&root, &dom::cell(to)));
        if let Some(el) = el.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
            let _ = el.focus();
        }
    };
    on_cleanup(move || generation.update_value(|g| *g += 1));

    // A row of the map: its cells keyed by place, verdict and values, so a new map of the same shape
    // keeps the cells whose run it did not change.
    let row = move |(r, columns): (usize, usize)| {
        let cells = move || {
            plane.with(|p| {
                let Some(p) = p else { return Vec::new() };
                let end = ((r + 1) * columns).min(p.kinds.len());
                (r * columns..end).map(|i| (i, p.kinds[i], p.values(i))).collect::<Vec<_>>()
            })
        };
        let (is_here, is_tab_stop) = (is_here.clone(), is_tab_stop.clone());
        let cell = move |(i, kind, _): (usize, OutcomeKind, Vec<(Key, Ms)>)| {
            let (is_here, is_here2, is_tab_stop) = (is_here.clone(), is_here.clone(), is_tab_stop.clone());
            view! {
                <span role="gridcell" class="cell" class:here=move || is_here.selected(&Some(i))
                    aria-current=move || is_here2.selected(&Some(i)).then_some("true")
                    data-cell=i data-kind=kind.name()
                    tabindex=move || if is_tab_stop.selected(&i) { "0" } else { "-1" }
                    aria-label=move || plane.with(|pl| pl.as_ref().map(|pl| markup::cell_label(pl, i, p())))>
                    {markup::icon(kind)}
                </span>
            }
        };
        view! { <div role="row"><For each=cells key=|c| c.clone() children=cell/></div> }
    };
    let map = move || {
        let rows = move || {
            plane.with(|p| {
                let Some(p) = p else { return Vec::new() };
                let columns = p.columns().max(1);
                (0..p.kinds.len().div_ceil(columns)).map(|r| (r, columns)).collect::<Vec<_>>()
            })
        };
        let legend = move || {
            plane.with(|pl| {
                let shown = |k: &OutcomeKind| pl.as_ref().is_some_and(|pl| pl.kinds.contains(k));
                OutcomeKind::ALL.into_iter().filter(shown).collect::<Vec<_>>()
            })
        };
        let swatch = move |kind: OutcomeKind| {
            view! {
                <li>
                    <span class="cell swatch" data-kind=kind.name() aria-hidden="true">{markup::icon(kind)}</span>
                    {move || p().text.outcome_title(kind)}
                </li>
            }
        };
        plane.with(Option::is_some).then(|| {
            view! {
                <p id="plane-caption" class="plane-caption">
                    {move || plane.with(|pl| pl.as_ref().map(|pl| markup::plane_caption(pl, p())))}
                </p>
                <div class="plane" role="grid" aria-labelledby="plane-caption">
                    <For each=rows key=|r| *r children=row.clone()/>
                </div>
                <ul class="plane-legend"><For each=legend key=|k| *k children=swatch/></ul>
            }
        })
    };
    let buttons = move || {
        let found = report.with(|r| r.1);
        [(true, found[0]), (false, found[1])]
            .into_iter()
            .filter(|f| f.1)
            .map(move |(safety, _)| {
                view! {
                    <button type="button" data-show=if safety { "safety" } else { "liveness" }
                        on:click=move |_| show(safety)>
                        {move || p().show_it[usize::from(!safety)]}
                    </button>
                }
            })
            .collect_view()
    };
    view! {
        <section class="break-it" aria-labelledby="break-title" data-found=found node_ref=root
            on:click=on_click on:keydown=on_key>
            <h2 id="break-title">{move || p().break_heading}</h2>
            <p>{move || p().break_intro[intro.get() as usize]}</p>
            <div hidden=unread>
                <p class="found" aria-live="polite">{move || p().found(kind.get())}</p>
                <div class="plane-wrap">{map}</div>
                <div class="search-actions">
                    <button type="button" class="primary" data-search="" on:click=start>{move || p().search}</button>
                    <progress hidden=move || !running() aria-label=move || p().searching
                        max=move || progress.get().1 value=move || progress.get().0></progress>
                </div>
                <p class="search-result" aria-live="polite">{move || report.with(|r| r.0.clone())}</p>
                <div class="show-it">{buttons}</div>
            </div>
        </section>
    }
}

/// What the slices of a search report to.
#[derive(Clone, Copy)]
struct Search {
    generation: StoredValue<u32>,
    status: RwSignal<Status, LocalStorage>,
    progress: RwSignal<(u64, u64)>,
}

/// Runs the search for one slice of time, then yields to the page and comes back, until it is done or a
/// newer generation retired it.
fn slice(search: Rc<RefCell<Hunt>>, mine: u32, to: Search, key: Subject, started: f64) {
    Timeout::new(0, move || {
        if to.generation.try_get_value() != Some(mine) {
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
        to.progress.set(search.borrow().progress());
        if finished {
            let finding = search.borrow().finding((now() - started).round() as u64);
            to.status.set(Status::Done(key, finding));
        } else {
            slice(search, mine, to, key, started);
        }
    })
    .forget();
}
