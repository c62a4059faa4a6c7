//! A course on the page (`docs/courses.md`): drawn by the second module above the figure, from a link
//! (`course=builtin`, a course's text, or the path of a course file on this site), an embedding page, or
//! "Take the course" under the lab. Each step puts its run on the figure through the page's lab (as a
//! script) and asks for a prediction (the page's own, counted) or an exercise the core grades
//! (`present::course::grade`); the panel only shows what the core decided.
//!
//! Progress and marks are kept in `localStorage` per course (`fencing-lab:course:ID`), so a course resumes
//! where the reader left it; the summary's link carries the marks (`course-done=`). An embedding page hears
//! `{type: "fencing-lab:progress", course, step, steps, correct, score, marks}` at every step and answer,
//! and may send `{type: "fencing-lab:course", step}` to set the step (1 to the number of steps, or one more
//! for the summary).

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{dom, effect, Lab};
use crate::present::course::{self, Answer, Course, Goal, Graded, Mark, Ui};
use crate::present::lesson::Phase;
use crate::present::params::{encode, Lang};
use crate::present::text::{panels, text};
use crate::script;
use crate::sim;

thread_local! {
    /// The course on the page: its section and its mount, replaced by another course.
    static MOUNTED: RefCell<Option<(web_sys::Element, Box<dyn std::any::Any>)>> = const { RefCell::new(None) };
}

/// The value of query parameter `name` in the page's link.
fn param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()?.get(name)
}

/// Opens the course the link names, if it names one.
pub fn start(lab: Lab) {
    if let Some(src) = param("course") {
        open(lab, src, param("course-done"));
    }
}

/// Sets (or, with `None`, removes) query parameter `name` of the page's link, keeping the rest.
fn set_param(name: &str, value: Option<&str>) {
    let Some(window) = web_sys::window() else { return };
    let loc = window.location();
    let search = loc.search().unwrap_or_default();
    let mut pairs: Vec<String> =
        search.trim_start_matches('?').split('&').filter(|p| !p.is_empty()).map(str::to_owned).collect();
    pairs.retain(|p| p.split('=').next() != Some(name));
    if let Some(v) = value {
        pairs.push(format!("{name}={}", encode(v)));
    }
    let url = format!(
        "{}{}{}{}",
        loc.pathname().unwrap_or_default(),
        if pairs.is_empty() { "" } else { "?" },
        pairs.join("&"),
        loc.hash().unwrap_or_default()
    );
    if let Ok(h) = window.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// "Take the course" under the lab: the built-in course, named in the link so a reload resumes it.
pub fn take(lab: Lab) {
    set_param("course-done", None);
    set_param("course", Some("builtin"));
    open(lab, "builtin".into(), None);
    focus_step();
}

/// Where the course comes from.
enum Source {
    Text(String),
    Path(String),
    Bad,
}

fn source(src: &str) -> Source {
    let s = src.trim();
    if s == "builtin" {
        Source::Text(course::BUILTIN.to_owned())
    } else if s.contains('\n') {
        Source::Text(crate::present::params::line_feeds(src))
    } else if !s.is_empty() && !s.contains(':') && !s.starts_with("//") && !s.contains('\\') {
        // A path on this site: no scheme, no other host (and the page's policy allows only its origin).
        Source::Path(s.to_owned())
    } else {
        Source::Bad
    }
}

/// What the panel shows before a course is read.
#[derive(Clone, PartialEq)]
enum Load {
    Loading,
    Ready(Course),
    /// A message in both languages (`Ui` words or the course's error).
    Failed(String, String),
}

/// Mounts the course from `src` above the figure (replacing a course already there).
fn open(lab: Lab, src: String, done: Option<String>) {
    let Some(window) = web_sys::window() else { return };
    let Some(doc) = window.document() else { return };
    let Some(figure) = doc.query_selector(dom::FIGURE).ok().flatten() else { return };
    MOUNTED.with_borrow_mut(|m| {
        if let Some((el, _)) = m.take() {
            el.remove();
        }
    });
    let Ok(section) = doc.create_element("section") else { return };
    section.set_class_name("course");
    let _ = section.set_attribute("aria-labelledby", "course-step-title");
    let _ = figure.before_with_node_1(&section);
    // On an owner of its own: opened from "Take the course", whose part of the page is redrawn as the
    // course's first step hides the verdict, the course must not be disposed with it.
    let handle = super::apart(|| {
        let load = RwSignal::new(Load::Loading);
        let read = move |text: &str| match course::parse(text) {
            Ok(c) => Load::Ready(c),
            Err(e) => Load::Failed((course::EN.unread)(&e.en()), (course::JA.unread)(&e.ja())),
        };
        match source(&src) {
            Source::Text(t) => load.set(read(&t)),
            Source::Bad => load.set(Load::Failed(course::EN.bad_source.into(), course::JA.bad_source.into())),
            Source::Path(path) => {
                let failed = Load::Failed((course::EN.unfetched)(&path), (course::JA.unfetched)(&path));
                let fetched = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(&path));
                wasm_bindgen_futures::spawn_local(async move {
                    let text = async {
                        let resp: web_sys::Response = fetched.await.ok()?.dyn_into().ok()?;
                        if !resp.ok() {
                            return None;
                        }
                        wasm_bindgen_futures::JsFuture::from(resp.text().ok()?).await.ok()?.as_string()
                    };
                    load.set(match text.await {
                        Some(t) => read(&t),
                        None => failed,
                    });
                });
            }
        }
        let el: web_sys::HtmlElement = section.clone().unchecked_into();
        leptos::mount::mount_to(el, move || view! { <Panel lab load src=src.clone() done=done.clone()/> })
    });
    MOUNTED.with_borrow_mut(|m| *m = Some((section, Box::new(handle))));
}

/// The course's progress as kept: the step, then the marks.
fn storage_key(id: &str) -> String {
    format!("fencing-lab:course:{id}")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn restore(c: &Course) -> (usize, Vec<Mark>) {
    let n = c.steps.len();
    let kept = storage().and_then(|s| s.get_item(&storage_key(&c.id)).ok().flatten()).unwrap_or_default();
    let (step, marks) = kept.split_once(':').unwrap_or(("0", ""));
    (step.parse::<usize>().unwrap_or(0).min(n), Mark::read(marks, n))
}

fn keep(id: &str, step: usize, marks: &[Mark]) {
    if let Some(s) = storage() {
        let _ = s.set_item(&storage_key(id), &format!("{step}:{}", Mark::write(marks)));
    }
}

/// The embedding page, if there is one.
fn host() -> Option<web_sys::Window> {
    let window = web_sys::window()?;
    let parent = window.parent().ok().flatten()?;
    (!js_sys::Object::is(&parent, &window)).then_some(parent)
}

/// Tells the embedding page where the reader is: `correct` after an answer (`None` on a new step).
fn tell_host(c: &Course, step: usize, marks: &[Mark], correct: Option<bool>) {
    let Some(host) = host() else { return };
    let msg = js_sys::Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = js_sys::Reflect::set(&msg, &k.into(), &v);
    };
    set("type", "fencing-lab:progress".into());
    set("course", c.id.as_str().into());
    set("step", ((step + 1) as f64).into());
    set("steps", (c.steps.len() as f64).into());
    set("correct", correct.map_or(JsValue::NULL, JsValue::from_bool));
    set("score", (course::score(marks) as f64).into());
    set("marks", Mark::write(marks).into());
    let _ = host.post_message(&msg, "*");
}

/// Moves focus to the step's heading, once drawn: after a step changes, a screen reader reads it.
fn focus_step() {
    request_animation_frame(|| {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("course-step-title"))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(el) = el {
            let _ = el.focus();
        }
    });
}

/// Runs `f` once the page's hand rests and this module's mirror has heard of it: the figure says
/// `data-hand="rest"`, then two animation frames (the page tells the mirror on the next one). A check
/// pressed right after a key moved the band grades the run the key made.
fn when_told(f: impl FnOnce() + 'static) {
    let rest = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(dom::FIGURE).ok().flatten())
        .and_then(|f| f.get_attribute("data-hand"))
        .is_none_or(|h| h == "rest");
    if rest {
        request_animation_frame(move || request_animation_frame(f));
    } else {
        gloo_timers::callback::Timeout::new(50, move || when_told(f)).forget();
    }
}

/// The page's judgement of the prediction just told: `Some(right)` if the reader predicted.
fn judged() -> Option<bool> {
    let doc = web_sys::window()?.document()?;
    let el = doc.query_selector(&format!("{} {}", dom::VERDICT, dom::JUDGED)).ok().flatten()?;
    let said = el.text_content().unwrap_or_default();
    (!said.trim().is_empty()).then(|| el.class_list().contains("right"))
}

/// The whole panel: loading, the course's error, or the course.
#[component]
fn Panel(lab: Lab, load: RwSignal<Load>, src: String, done: Option<String>) -> impl IntoView {
    let lang = lab.lang;
    move || match load.get() {
        Load::Loading => {
            view! { <p class="course-status" role="status">{course::ui(lang.get()).loading}</p> }.into_any()
        }
        Load::Failed(en, ja) => view! {
            <p class="course-status course-error" role="alert">
                {move || if lang.get() == Lang::Ja { ja.clone() } else { en.clone() }}
            </p>
        }
        .into_any(),
        Load::Ready(c) => view! { <Steps lab course=c src=src.clone() done=done.clone()/> }.into_any(),
    }
}

/// What the reader was told about the current step.
#[derive(Clone, Debug, PartialEq)]
enum Said {
    Nothing,
    Graded(Graded, String),
    Predicted(bool),
    /// A prediction of a run the reader changed first: not judged.
    Changed,
    Answer(Answer),
    OffScreen,
}

/// The course's steps and its summary.
#[component]
fn Steps(lab: Lab, course: Course, src: String, done: Option<String>) -> impl IntoView {
    let n = course.steps.len();
    let c = StoredValue::new(course);
    let src = StoredValue::new(src);
    let (start, kept) = c.with_value(restore);
    // A summary from a link shows its marks, not the reader's own.
    let shared = done.as_deref().map(|d| Mark::read(d, n));
    let step = RwSignal::new(if shared.is_some() { n } else { start });
    let marks = RwSignal::new(shared.clone().unwrap_or(kept));
    let shared = RwSignal::new(shared.is_some());
    let said = RwSignal::new(Said::Nothing);
    // A prediction step counts the reveal that follows the prediction asked for on entering it.
    let asked = StoredValue::new(false);
    let ui = move || course::ui(lab.lang.get());

    // Entering a step: its run on the figure, hidden for a prediction; progress kept and told.
    let enter = move |i: usize| {
        said.set(Said::Nothing);
        asked.set_value(false);
        step.set(i);
        if !shared.get_untracked() {
            c.with_value(|c| {
                marks.with_untracked(|m| {
                    keep(&c.id, i, m);
                    tell_host(c, i, m, None);
                })
            });
        }
        let Some((script, goal)) = c.with_value(|c| c.steps.get(i).map(|s| (s.script.clone(), s.goal)))
        else {
            return;
        };
        lab.ask_page("script", &script);
        lab.ask_page("phase", if goal == Goal::Predict { "predicting" } else { "revealed" });
    };
    // The step the course opens at.
    if step.get_untracked() < n {
        enter(step.get_untracked());
    }

    // A step's mark is its first decided one: right (at the first try or after a wrong one) or the answer
    // shown; a wrong try marks it tried (kept like the rest, so a reload does not forget it).
    let mark = move |m: Mark, right: bool| {
        let i = step.get_untracked();
        marks.update(|all| {
            if let Some(slot) = all.get_mut(i).filter(|s| matches!(s, Mark::Open | Mark::Tried)) {
                *slot = m;
            }
        });
        c.with_value(|c| {
            marks.with_untracked(|all| {
                keep(&c.id, i, all);
                tell_host(c, i, all, Some(right));
            })
        });
    };

    // A prediction, judged by the page when its run is told.
    effect(move || {
        let phase = lab.phase.get();
        let i = step.get();
        let predicting = c.with_value(|c| c.steps.get(i).is_some_and(|s| s.goal == Goal::Predict));
        if !predicting || shared.get_untracked() {
            return;
        }
        if matches!(phase, Phase::Predicting(_)) {
            asked.set_value(true);
        } else if phase.revealed() && asked.get_value() {
            asked.set_value(false);
            // Only a prediction of the run as the step gives it counts (the page judged the run on screen).
            let given = c.with_value(|c| c.steps.get(i).map(|s| s.scenario.clone()));
            if lab.script_scenario() != given {
                return said.set(Said::Changed);
            }
            if let Some(right) = judged() {
                said.set(Said::Predicted(right));
                mark(if right { Mark::First } else { Mark::Shown }, right);
            }
        }
    });

    // The embedding page may set the step.
    if let Some(host) = host() {
        let on_message = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let from_host = ev.source().is_some_and(|s| js_sys::Object::is(&s, &host));
            let data = ev.data();
            let get = |k: &str| js_sys::Reflect::get(&data, &k.into()).unwrap_or(JsValue::UNDEFINED);
            if !from_host || get("type").as_string().as_deref() != Some("fencing-lab:course") {
                return;
            }
            match get("step").as_f64() {
                Some(s) if s.fract() == 0.0 && s >= 1.0 && s <= (n + 1) as f64 => {
                    shared.set(false);
                    let s = s as usize - 1;
                    if s < n {
                        enter(s);
                    } else {
                        step.set(n);
                    }
                }
                _ => {
                    let msg = js_sys::Object::new();
                    let _ = js_sys::Reflect::set(&msg, &"type".into(), &"fencing-lab:error".into());
                    let problem = format!("step: expected a whole number from 1 to {}", n + 1);
                    let _ =
                        js_sys::Reflect::set(&msg, &"problems".into(), &js_sys::Array::of1(&problem.into()));
                    let _ = host.post_message(&msg, "*");
                }
            }
        });
        if let Some(w) = web_sys::window() {
            let _ = w.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
        }
        // Lives as long as the course: once it is left, its signals are gone, and a message that reached
        // them would trap.
        let listener = StoredValue::new_local(Some(on_message));
        on_cleanup(move || {
            let gone = listener.try_update_value(Option::take).flatten();
            if let Some((w, f)) = web_sys::window().zip(gone) {
                let _ = w.remove_event_listener_with_callback("message", f.as_ref().unchecked_ref());
            }
        });
    }

    let check = move |_| {
        when_told(move || {
            let i = step.get_untracked();
            let Some(now) = lab.script_scenario() else { return said.set(Said::OffScreen) };
            let graded = c.with_value(|c| course::grade(&c.steps[i], &now));
            let told = panels(lab.lang.get_untracked()).narrate(&now, &sim::run(&now));
            if graded.right() {
                let first = marks.with_untracked(|m| m.get(i) == Some(&Mark::Open));
                mark(if first { Mark::First } else { Mark::Hinted }, true);
            } else {
                mark(Mark::Tried, false);
            }
            said.set(Said::Graded(graded, told));
        })
    };
    let show_answer = move |_| {
        let answer = c.with_value(|c| course::answer(&c.steps[step.get_untracked()]));
        mark(Mark::Shown, false);
        said.set(Said::Answer(answer));
    };
    // The answer's state on the figure: the step's script with its switches and values.
    let show_it = move |_| {
        let Said::Answer(answer) = said.get_untracked() else { return };
        let i = step.get_untracked();
        let mut text = c.with_value(|c| c.steps[i].script.clone());
        let (devices, switches, values) = match &answer {
            Answer::State(s) => (s.devices, s.switches.clone(), s.values.clone()),
            Answer::Prove(p) => (p.devices, Vec::new(), Vec::new()),
            _ => return,
        };
        text = script::set_switch(&text, "expiry", devices.lease);
        text = script::set_switch(&text, "fencing", devices.fencing);
        for (name, on) in switches {
            text = script::set_named_switch(&text, &name, on).unwrap_or(text);
        }
        for (name, v) in values {
            text = script::set_value(&text, &name, v, false).unwrap_or(text);
        }
        lab.ask_page("script", &text);
    };
    let reset = move |_| {
        let i = step.get_untracked();
        if let Some(script) = c.with_value(|c| c.steps.get(i).map(|s| s.script.clone())) {
            lab.ask_page("script", &script);
        }
        said.set(Said::Nothing);
    };
    let go = move |i: usize| {
        if i < n {
            enter(i);
        } else {
            step.set(n);
            c.with_value(|c| marks.with_untracked(|m| keep(&c.id, n, m)));
        }
        focus_step();
    };
    let again = move |_| {
        set_param("course-done", None);
        shared.set(false);
        marks.set(vec![Mark::Open; n]);
        go(0);
    };
    let take_own = move |_| {
        set_param("course-done", None);
        shared.set(false);
        let (start, kept) = c.with_value(restore);
        marks.set(kept);
        go(start.min(n.saturating_sub(1)));
    };
    let leave = move |_| {
        set_param("course", None);
        set_param("course-done", None);
        MOUNTED.with_borrow_mut(|m| {
            if let Some((el, _)) = m.take() {
                el.remove();
            }
        });
    };
    // The summary's link: the course as it came and the marks.
    let link = move || {
        let loc = web_sys::window().map(|w| w.location());
        let base = loc
            .map(|l| l.origin().unwrap_or_default() + &l.pathname().unwrap_or_default())
            .unwrap_or_default();
        format!(
            "{base}?course={}&course-done={}&lang={}",
            src.with_value(|s| encode(s)),
            Mark::write(&marks.get()),
            lab.lang.get().tag()
        )
    };
    let copy = move |_| {
        if let Some(w) = web_sys::window() {
            let _ = w.navigator().clipboard().write_text(&link());
        }
    };

    let feedback = move || -> String {
        let (ui, lang) = (ui(), lab.lang.get());
        let t = text(lang);
        match said.get() {
            Said::Nothing => String::new(),
            Said::OffScreen => ui.off_screen.to_owned(),
            Said::Changed => ui.changed_first.to_owned(),
            Said::Predicted(true) => ui.predicted_right.to_owned(),
            Said::Predicted(false) => ui.predicted_wrong.to_owned(),
            Said::Graded(g, told) => {
                let first = match &g {
                    Graded::Right => ui.right.to_owned(),
                    Graded::Outcome(k) => (ui.not_yet)(t.outcome_title(*k)),
                    Graded::Switched => ui.switched.to_owned(),
                    Graded::Broken(p) => {
                        let b = p.broken.as_ref().map(|s| (s.outcome, course::state_words(s, lang)));
                        let (k, at) = b.unwrap_or((sim::OutcomeKind::Safe, String::new()));
                        format!(
                            "{} {}",
                            (ui.broken)(t.outcome_title(k), &at),
                            (ui.searched)(&course::bounds_text(&p.bounds, lang))
                        )
                    }
                    Graded::TooMany(on, few) => (ui.too_many)(*on, *few),
                };
                // What the reader's run did, in the narration's words (a prove exercise: the search said).
                match g {
                    Graded::Broken(_) | Graded::TooMany(..) | Graded::Switched => first,
                    _ => format!("{first} {told}"),
                }
            }
            Said::Answer(a) => match a {
                Answer::Predict(k) => (ui.answer_predict)(t.outcome_title(k)),
                Answer::State(s) => {
                    (ui.answer_state)(t.outcome_title(s.outcome), &course::state_words(&s, lang))
                }
                Answer::Prove(p) => format!(
                    "{} {}",
                    (ui.answer_prove)(&(ui.devices)(p.devices.lease, p.devices.fencing)),
                    (ui.searched)(&course::bounds_text(&p.bounds, lang))
                ),
                Answer::None => String::new(),
            },
        }
    };
    let wrong = move || marks.with(|m| matches!(m.get(step.get()), Some(Mark::Tried | Mark::Hinted)));
    let current = move || c.with_value(|c| c.steps.get(step.get()).cloned());
    let answer_shown = move || matches!(said.get(), Said::Answer(Answer::State(_) | Answer::Prove(_)));
    let off_screen = move || said.get() == Said::OffScreen;

    view! {
        <header class="course-head">
            <p class="course-name">
                <span class="course-label">{move || ui().course}</span>
                " "
                {move || c.with_value(|c| c.title.get(lab.lang.get()).to_owned())}
            </p>
            <p class="course-progress">
                {move || if step.get() < n { (ui().step_of)(step.get() + 1, n) } else { ui().summary.to_owned() }}
                " · "
                {move || (ui().score)(course::score(&marks.get()), n)}
            </p>
        </header>
        {move || match current() {
            Some(s) => {
                let lang = lab.lang.get();
                let ui = ui();
                let predict = s.goal == Goal::Predict;
                let i = step.get();
                view! {
                    <h2 id="course-step-title" tabindex="-1">{s.title.get(lang).to_owned()}</h2>
                    <p class="course-text">{s.text.get(lang).to_owned()}</p>
                    {(!s.cite.get(lang).is_empty()).then(|| view! {
                        <p class="course-cite">{ui.source}{s.cite.get(lang).to_owned()}</p>
                    })}
                    <p class="course-task"><strong>{ui.task}</strong>{s.task.get(lang).to_owned()}</p>
                    {predict.then(|| view! { <p class="course-how">{ui.predict_how}</p> })}
                    <div class="course-actions">
                        {(!predict).then(|| view! {
                            <button type="button" class="course-check" on:click=check>{ui.check}</button>
                            <button type="button" class="course-answer" on:click=show_answer>{ui.show_answer}</button>
                        })}
                    </div>
                    <p class="course-feedback" role="status" aria-live="polite">
                        {feedback}
                        {move || answer_shown().then(|| view! {
                            " "<button type="button" class="course-show" on:click=show_it>{course::ui(lab.lang.get()).show_it}</button>
                        })}
                        {move || off_screen().then(|| view! {
                            " "<button type="button" class="course-reset" on:click=reset>{course::ui(lab.lang.get()).reset}</button>
                        })}
                    </p>
                    {move || (wrong() && !s.hint.get(lab.lang.get()).is_empty()).then(|| view! {
                        <p class="course-hint"><strong>{course::ui(lab.lang.get()).hint}</strong>{s.hint.get(lab.lang.get()).to_owned()}</p>
                    })}
                    <nav class="course-nav" aria-label=ui.course>
                        <button type="button" class="course-prev" disabled=i == 0 on:click=move |_| go(i.saturating_sub(1))>{ui.previous}</button>
                        <button type="button" class="course-next" on:click=move |_| go(i + 1)>
                            {if i + 1 < n { ui.next } else { ui.to_summary }}
                        </button>
                        <button type="button" class="course-leave" on:click=leave>{ui.leave}</button>
                    </nav>
                }
                .into_any()
            }
            None => {
                let lang = lab.lang.get();
                let ui: &'static Ui = course::ui(lang);
                let all = marks.get();
                let rows: Vec<_> = c.with_value(|c| {
                    c.steps.iter().zip(&all).enumerate().map(|(i, (s, m))| {
                        view! {
                            <li data-mark=m.letter().to_string()>
                                <span class="course-step-name">{format!("{}. {}", i + 1, s.title.get(lang))}</span>
                                " — "
                                <span class="course-mark">{m.said(ui)}</span>
                            </li>
                        }
                    }).collect()
                });
                view! {
                    <h2 id="course-step-title" tabindex="-1">
                        {if shared.get() { ui.shared } else { ui.summary }}
                    </h2>
                    <p class="course-score">{(ui.score)(course::score(&all), n)}</p>
                    <ol class="course-summary">{rows}</ol>
                    {move || (!shared.get()).then(|| view! {
                        <p class="course-share">
                            <label>
                                {course::ui(lab.lang.get()).share}
                                <input type="text" readonly class="course-link" prop:value=link/>
                            </label>
                            <button type="button" on:click=copy>{course::ui(lab.lang.get()).copy}</button>
                        </p>
                    })}
                    <nav class="course-nav" aria-label=ui.course>
                        {if shared.get() {
                            view! { <button type="button" class="course-take" on:click=take_own>{ui.take}</button> }.into_any()
                        } else {
                            view! {
                                <button type="button" class="course-prev" on:click=move |_| go(n - 1)>{ui.previous}</button>
                                <button type="button" class="course-again" on:click=again>{ui.again}</button>
                            }
                            .into_any()
                        }}
                        <button type="button" class="course-leave" on:click=leave>{ui.leave}</button>
                    </nav>
                }
                .into_any()
            }
        }}
    }
}
