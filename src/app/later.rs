//! The page's second module (`src/bin/workbench.rs`, built by Trunk beside the page's): the later panels
//! ("Seen on real systems", "Where does it change?", "Break it"), the script editor, and the scenario
//! language (reading a script, writing one, editing a value in it, narrating any program). It is fetched
//! from the page's own origin when first needed: when the first prediction is told, when the reader opens
//! a scenario as a script, or when a link or an embedding page brings one. The page before its first
//! interaction carries none of it.
//!
//! Both ends of one contract live here. The page's lab owns the state. It loads the module ([`Lab::need_bench`]),
//! calls its functions ([`Lab::bench`]), hands it the slots it draws in and a function to ask the page for a
//! change ([`connect`]), then tells it every state: a link's query (the script in it), the lesson's
//! phase and whether the editor is open. The module keeps a mirror
//! of the lab from those states ([`mirror`]) and mounts its panels and the editor on it, so they are the
//! same components reading the same signals as anywhere else.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::{data_of, dom, effect, Lab};
use crate::present::lesson::Phase;
use crate::present::markup;
use crate::present::params::{Lang, Query};
use crate::present::scripted::{Problem, Script};
use crate::present::text::Text;
use crate::sim;

#[wasm_bindgen(module = "/src/app/page.js")]
extern "C" {
    /// Imports the module and starts its WebAssembly, with its style sheet (`files`: see [`files`]); the
    /// promise gives its exports.
    #[wasm_bindgen(js_name = load)]
    fn load_module(files: &str) -> js_sys::Promise;
}

/// The module's files, as the build names them (`<meta name="fencing-lab-workbench">`, written by the
/// post-build hooks with their hashed names): its JS, its wasm and its style sheet, space-separated.
fn files() -> Option<String> {
    let doc = web_sys::window()?.document()?;
    doc.query_selector(dom::WORKBENCH_FILES).ok().flatten()?.get_attribute("content")
}

/// Where the module stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Bench {
    /// Not asked for yet.
    Idle,
    /// On its way.
    Loading,
    /// It could not be fetched or started.
    Failed,
    /// Its exports.
    Ready(JsValue),
}

/// The lesson's phase as the module needs it: whether the verdict is told.
fn phase_name(phase: Phase) -> &'static str {
    if phase.revealed() {
        "revealed"
    } else {
        "predicting"
    }
}

/// Calls the module's export `name` with `args`; its result.
fn call(module: &JsValue, name: &str, args: &[JsValue]) -> Option<JsValue> {
    let f = js_sys::Reflect::get(module, &name.into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
    let args: js_sys::Array = args.iter().collect();
    f.apply(&JsValue::NULL, &args).ok()
}

impl Lab {
    /// Fetches the module if it is not here or on its way (again, after a failure).
    pub fn need_bench(&self) {
        if !matches!(self.bench.get_untracked(), Bench::Idle | Bench::Failed) {
            return;
        }
        let Some(files) = files() else { return self.bench.set(Bench::Failed) };
        self.bench.set(Bench::Loading);
        let promise = wasm_bindgen_futures::JsFuture::from(load_module(&files));
        let bench = self.bench;
        wasm_bindgen_futures::spawn_local(async move {
            bench.set(match promise.await {
                Ok(module) => Bench::Ready(module),
                Err(_) => Bench::Failed,
            });
        });
    }

    /// The module's function `name` called with `args`, its text; `None` until the module is here.
    pub fn bench(&self, name: &str, args: &[&str]) -> Option<String> {
        let module = match self.bench.get_untracked() {
            Bench::Ready(m) => m,
            _ => return None,
        };
        let args: Vec<JsValue> = args.iter().map(|a| JsValue::from_str(a)).collect();
        call(&module, name, &args)?.as_string()
    }
}

impl Lab {
    /// Asks the page's lab for a change (`kind`, `payload`: see [`ask`]): from the module's mirror, through
    /// the function the page gave it; in the page's lab itself, at once.
    pub fn ask_page(&self, kind: &str, payload: &str) {
        match self.owner.with_value(|o| o.clone()) {
            Some(owner) => {
                let _ = owner.call2(&JsValue::NULL, &kind.into(), &payload.into());
            }
            None => ask(*self, kind.to_owned(), payload.to_owned()),
        }
    }
}

/// What the module may ask of the page's lab: a run of the current scenario to show (a link's query), a new
/// text for the script (the editor), the editor opened or closed.
fn ask(lab: Lab, kind: String, payload: String) {
    match kind.as_str() {
        "run" => {
            let q = Query::parse(&payload);
            if q.scenario == lab.scenario.get_untracked() && q.inputs != lab.inputs.get_untracked() {
                lab.inputs.set(q.inputs);
            }
        }
        "script" => lab.set_script(payload),
        // A key typed in the editor: the figure follows it, the words once the typing pauses.
        "typed" => {
            lab.restless();
            lab.set_script(payload);
        }
        "edit" => lab.editing.set(payload == "1"),
        // A course's step: its run hidden for a prediction, or shown whole for an exercise.
        "phase" => lab.phase.set(phase_of(&payload)),
        _ => {}
    }
}

/// Connects the page's lab to the module once it is here: starts it with the slots it draws in (the later
/// panels' under the lab, the editor's beside the figure; none when embedded) and the function to ask the
/// page, then tells it every state on the next animation frame after it (built then), so that a drag never
/// waits for the module (and it hears of a drag once per frame), and the panels show the run the figure
/// shows in the same frame.
pub fn connect(lab: Lab) {
    // A link to a course (`course=`) or the projector (`present=`): both are the module's.
    if !super::url::later().is_empty() {
        lab.need_bench();
    }
    let asked =
        Closure::<dyn Fn(String, String)>::new(move |kind: String, payload: String| ask(lab, kind, payload));
    let asked = StoredValue::new_local(asked);
    let started = StoredValue::new(false);
    let untold = StoredValue::new_local(None::<Box<dyn FnOnce() -> [JsValue; 3]>>);
    effect(move || {
        // Told once the reader's hand rests (`rest`): the panels and the editor's message wait with the words.
        let Bench::Ready(module) = lab.bench.get() else { return };
        if !lab.calm() {
            return;
        }
        let (q, phase, editing) = (lab.query(false), lab.phase.get(), lab.editing.get());
        let state = move || {
            [
                JsValue::from_str(&q.to_query_string()),
                JsValue::from_str(phase_name(phase)),
                JsValue::from_bool(editing),
            ]
        };
        if !started.get_value() {
            started.set_value(true);
            let doc = web_sys::window().and_then(|w| w.document());
            let slot = |s: &str| {
                doc.as_ref()
                    .and_then(|d| d.query_selector(s).ok().flatten())
                    .map_or(JsValue::NULL, JsValue::from)
            };
            let owner: JsValue = asked.with_value(|a| a.as_ref().clone());
            let mut args =
                vec![slot(dom::LATER_PANELS), slot(dom::EDITOR_SLOT), slot(dom::SHARE_BODY), owner];
            args.extend(state());
            call(&module, "start", &args);
            return;
        }
        if untold
            .try_update_value(|u| u.replace(Box::new(state) as Box<dyn FnOnce() -> [JsValue; 3]>))
            .flatten()
            .is_none()
        {
            request_animation_frame(move || {
                if let Some(state) = untold.try_update_value(Option::take).flatten() {
                    call(&module, "state", &state());
                }
            });
        }
    });
    // A script read before the module came (a link's, an embedding page's) is read once it is here.
    effect(move || {
        if !matches!(lab.bench.get(), Bench::Ready(_)) {
            return;
        }
        let unread = lab.script.with_untracked(|s| {
            s.as_ref().filter(|s| s.scenario.is_none() && s.problem.is_none()).map(|s| s.text.clone())
        });
        if let Some(text) = unread {
            lab.set_script(text);
        }
        if lab.wants_edit.get_value() {
            lab.wants_edit.set_value(false);
            lab.edit_script();
        }
    });
}

/// Where the module stands, in the part of `root` at `selector`, for a reader waiting for it (`said`: what
/// to say while it loads, and if it could not; `None` when no one waits): nothing once it is here.
pub fn status(root: &web_sys::Element, selector: &str, state: &Bench, said: Option<[&str; 2]>, t: &Text) {
    let html = match (state, said) {
        (Bench::Loading, Some([loading, _])) => markup::later_status(false, loading, t),
        (Bench::Failed, Some([_, failed])) => markup::later_status(true, failed, t),
        _ => String::new(),
    };
    super::fill(root, selector, &html);
}

/// The later panels' place under the lab: a loading line while the module comes once the first
/// prediction is told, and if it fails, the reason and a button to try again; the lab above keeps working
/// either way. The module mounts its panels in the slot.
#[component]
pub fn Later() -> impl IntoView {
    let lab = super::lab();
    let root = NodeRef::<html::Div>::new();
    effect(move || {
        let (t, state, revealed) = (lab.text(), lab.bench.get(), lab.phase.get().revealed());
        let Some(root) = root.get() else { return };
        let said = revealed.then_some([t.later_loading, t.later_failed]);
        status(&root, dom::LATER_STATUS, &state, said, t);
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if data_of(&ev, "data-retry").is_some() {
            lab.need_bench();
        }
    };
    view! {
        <div class="later" node_ref=root on:click=on_click>
            <div class="later-status"></div>
            <div class="later-panels"></div>
        </div>
    }
}

/// The module's side: a mirror of the page's lab, kept by the states the page tells.
pub struct Mirror {
    lab: Lab,
}

fn phase_of(name: &str) -> Phase {
    if name == "revealed" {
        Phase::Revealed(None)
    } else {
        Phase::Predicting(None)
    }
}

thread_local! {
    /// The last text read here, and its reading.
    static LAST_READ: std::cell::RefCell<Option<(String, Result<sim::Scenario, Problem>)>> =
        const { std::cell::RefCell::new(None) };
}

/// Reads `text` as a script, in this module (the parser is its). Each text the reader types is asked for
/// here up to three times: for the page's lab, for this mirror when the page tells it the state, and for
/// the narration; the later ones take the first's reading.
pub fn read(text: &str) -> Result<sim::Scenario, Problem> {
    LAST_READ.with_borrow_mut(|last| match last {
        Some((read, reading)) if read == text => reading.clone(),
        _ => {
            let reading = crate::present::scripted::parse(text);
            *last = Some((text.to_owned(), reading.clone()));
            reading
        }
    })
}

/// The script of state `query`, read here as the page read it.
fn script_of(query: &Query) -> Option<Script> {
    let text = query.script.clone()?;
    Some(Script::unread(String::new()).read(text.clone(), read(&text)))
}

/// The mirror of the page's lab in this state, asking `owner` for the changes it makes.
pub fn mirror(owner: js_sys::Function, query: &str, phase: &str, editing: bool) -> Mirror {
    let q = Query::parse(query);
    let (scenario_id, inputs) = (RwSignal::new(q.scenario), RwSignal::new(q.inputs));
    let script = RwSignal::new(script_of(&q));
    let run = Memo::new(move |_| {
        let scripted = script.with(|s| s.as_ref().and_then(|s| s.scenario.clone()));
        sim::run(&scripted.unwrap_or_else(|| scenario_id.get().build(&inputs.get())))
    });
    let lab = Lab {
        scenario: scenario_id,
        inputs,
        lang: RwSignal::new(q.lang.unwrap_or(Lang::En)),
        run,
        player: super::playback::Player::new(run),
        phase: RwSignal::new(phase_of(phase)),
        embed: false,
        link_problems: RwSignal::new(Vec::new()),
        message_problems: RwSignal::new(Vec::new()),
        new_entry: StoredValue::new(false),
        owner: StoredValue::new_local(Some(owner)),
        script,
        editing: RwSignal::new(editing),
        bench: RwSignal::new_local(Bench::Idle),
        wants_edit: StoredValue::new(false),
        calm: RwSignal::new(true),
    };
    Mirror { lab }
}

impl Mirror {
    /// The mirrored lab, for the panels.
    pub fn lab(&self) -> Lab {
        self.lab
    }

    /// The page's next state: only what changed is set, so the panels redraw what they must.
    pub fn state(&self, query: &str, phase: &str, editing: bool) {
        let q = Query::parse(query);
        let lab = self.lab;
        if lab.scenario.get_untracked() != q.scenario {
            lab.scenario.set(q.scenario);
        }
        if lab.inputs.get_untracked() != q.inputs {
            lab.inputs.set(q.inputs);
        }
        if let Some(lang) = q.lang.filter(|l| *l != lab.lang.get_untracked()) {
            lab.lang.set(lang);
        }
        let phase = phase_of(phase);
        if lab.phase.get_untracked().revealed() != phase.revealed() {
            lab.phase.set(phase);
        }
        // A text that does not read keeps the last that did, as in the page's lab.
        let script = match (q.script.clone(), lab.script.get_untracked()) {
            (Some(text), Some(now)) => Some(now.read(text.clone(), read(&text))),
            _ => script_of(&q),
        };
        if lab.script.with_untracked(|s| *s != script) {
            lab.script.set(script);
        }
        if lab.editing.get_untracked() != editing {
            lab.editing.set(editing);
        }
    }
}

/// The panels, on the mirror: shown while the verdict is told, as they were in the page.
#[component]
pub fn Panels() -> impl IntoView {
    let lab = super::lab();
    let revealed = Memo::new(move |_| lab.phase.get().revealed());
    let dragged = Memo::new(move |_| super::challenge::Dragged::of(&lab));
    view! {
        {move || revealed.get().then(|| view! { <super::real::Real/> })}
        // The challenge names the verdict of long values; a new scenario (or a script's new dragged value, or
        // its range), a new challenge over it.
        {move || {
            dragged.get().filter(|_| revealed.get()).map(|dragged| view! { <super::challenge::Challenge dragged/> })
        }}
        {move || revealed.get().then(|| view! { <super::breakit::BreakIt/> })}
        // The course through the source: drawn above the figure (`course`).
        {move || revealed.get().then(|| view! {
            <p class="course-entry">
                <button type="button" on:click=move |_| super::course::take(lab)>
                    {move || (crate::present::course::ui(lab.lang.get()).entry)(crate::present::course::builtin_steps())}
                </button>
            </p>
        })}
    }
}
