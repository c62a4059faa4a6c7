//! The later panels: "Seen on real systems", "Where does it change?" and "Break it", which open once the
//! first prediction is told. They are a WebAssembly module of their own (`src/bin/workbench.rs`, built by
//! Trunk beside the page's), fetched from the page's own origin when first needed: the page before its
//! first interaction carries none of their code, strings or recordings.
//!
//! Both ends of one contract live here. The page's lab owns the state; it hands the module a slot in the
//! page, a function to ask it for a run ([`Lab::load`]), and then every state as a link's query with the
//! lesson's phase ([`publish`]). The module keeps a mirror of the lab from those states ([`mirror`]) and
//! mounts the panels on it, so they are the same components reading the same signals as anywhere else.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::{data_of, effect, Lab};
use crate::present::lesson::Phase;
use crate::present::markup;
use crate::present::params::{Lang, Query};
use crate::sim;

#[wasm_bindgen(module = "/src/app/load.js")]
extern "C" {
    /// Imports the module at `js` and starts its WebAssembly from `wasm`; the promise gives its exports.
    #[wasm_bindgen(js_name = load)]
    fn load_module(js: &str, wasm: &str) -> js_sys::Promise;
}

/// The module's two files, as the build names them (`<meta name="fencing-lab-workbench">`, written by the
/// post-build hook with their hashed names).
fn files() -> Option<(String, String)> {
    let doc = web_sys::window()?.document()?;
    let meta = doc.query_selector("meta[name=fencing-lab-workbench]").ok().flatten()?;
    let content = meta.get_attribute("content")?;
    let (js, wasm) = content.split_once(' ')?;
    Some((js.to_owned(), wasm.to_owned()))
}

/// Where loading the module stands.
#[derive(Clone, Debug, PartialEq)]
enum Load {
    Idle,
    Loading,
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

/// Calls the module's export `name` with `args`.
fn call(module: &JsValue, name: &str, args: &[JsValue]) {
    let Ok(f) = js_sys::Reflect::get(module, &name.into()) else { return };
    let Ok(f) = f.dyn_into::<js_sys::Function>() else { return };
    let args: js_sys::Array = args.iter().collect();
    let _ = f.apply(&JsValue::NULL, &args);
}

/// The page's side: the slot the panels go in, the module loaded once the first prediction is told, then
/// every state published to it. A loading line while it comes, and if it fails, the reason and a button
/// to try again; the lab above keeps working either way.
#[component]
pub fn Later(
    /// The page's lab.
    lab: Lab,
) -> impl IntoView {
    let root = NodeRef::<html::Div>::new();
    let slot = NodeRef::<html::Div>::new();
    let load = RwSignal::new_local(Load::Idle);
    let start = move || {
        let Some((js, wasm)) = files() else { return load.set(Load::Failed) };
        load.set(Load::Loading);
        let promise = wasm_bindgen_futures::JsFuture::from(load_module(&js, &wasm));
        wasm_bindgen_futures::spawn_local(async move {
            load.set(match promise.await {
                Ok(module) => Load::Ready(module),
                Err(_) => Load::Failed,
            });
        });
    };
    effect(move || {
        if lab.phase.get().revealed() && load.with_untracked(|l| *l == Load::Idle) {
            start();
        }
    });
    // Its requests: a run to show, as a link's query (the module's mirror says only what it shows).
    let ask = Closure::<dyn Fn(String)>::new(move |query: String| {
        let q = Query::parse(&query);
        if q.scenario == lab.scenario.get_untracked() && q.inputs != lab.inputs.get_untracked() {
            lab.inputs.set(q.inputs);
        }
    });
    let ask = StoredValue::new_local(ask);
    let started = StoredValue::new(false);
    // The state the module has not been told yet: told on the next animation frame, after the figure is
    // drawn, so that a drag never waits for the panels (and they hear of a drag once per frame).
    let untold = StoredValue::new(None::<(String, &'static str)>);
    effect(move || {
        let (t, state) = (lab.text(), load.get());
        let (Some(root), Some(slot)) = (root.get(), slot.get()) else { return };
        let status = match state {
            Load::Loading => markup::later_status(false, t),
            Load::Failed => markup::later_status(true, t),
            _ => String::new(),
        };
        if let Some(el) = root.query_selector(".later-status").ok().flatten() {
            if el.inner_html() != status {
                el.set_inner_html(&status);
            }
        }
        let Load::Ready(module) = state else { return };
        let query = lab.query(false).to_query_string();
        let phase = phase_name(lab.phase.get());
        if !started.get_value() {
            started.set_value(true);
            let owner: JsValue = ask.with_value(|a| a.as_ref().clone());
            return call(&module, "start", &[slot.into(), owner, query.into(), phase.into()]);
        }
        if untold.try_update_value(|u| u.replace((query, phase))).flatten().is_none() {
            request_animation_frame(move || {
                if let Some((query, phase)) = untold.try_update_value(Option::take).flatten() {
                    call(&module, "state", &[query.into(), phase.into()]);
                }
            });
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if data_of(&ev, "data-retry").is_some() && load.with_untracked(|l| *l == Load::Failed) {
            start();
        }
    };
    view! {
        <div class="later" node_ref=root on:click=on_click>
            <div class="later-status"></div>
            <div class="later-panels" node_ref=slot></div>
        </div>
    }
}

/// The module's side: a mirror of the page's lab, kept by the states the page publishes.
pub struct Mirror {
    lab: Lab,
}

/// The mirror of the page's lab in state `query` and `phase`, asking `owner` for the runs it shows.
pub fn mirror(owner: js_sys::Function, query: &str, phase: &str) -> Mirror {
    let q = Query::parse(query);
    let (scenario, inputs) = (RwSignal::new(q.scenario), RwSignal::new(q.inputs));
    let run = Memo::new(move |_| sim::run(&scenario.get().build(&inputs.get())));
    let lab = Lab {
        scenario,
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
    };
    Mirror { lab }
}

fn phase_of(name: &str) -> Phase {
    if name == "revealed" {
        Phase::Revealed(None)
    } else {
        Phase::Predicting(None)
    }
}

impl Mirror {
    /// The mirrored lab, for the panels.
    pub fn lab(&self) -> Lab {
        self.lab
    }

    /// The page's next state: only what changed is set, so the panels redraw what they must.
    pub fn state(&self, query: &str, phase: &str) {
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
    }
}

/// The panels, on the mirror: shown while the verdict is told, as they were in the page.
#[component]
pub fn Panels(
    /// The mirror of the page's lab.
    lab: Lab,
) -> impl IntoView {
    let revealed = Memo::new(move |_| lab.phase.get().revealed());
    view! {
        {move || revealed.get().then(|| view! { <super::real::Real lab/> })}
        // The challenge names the verdict of long values; a new scenario, a new challenge over its own input.
        {move || {
            let key = lab.scenario.get().dragged().filter(|_| revealed.get());
            key.map(|key| view! { <super::challenge::Challenge lab key/> })
        }}
        {move || revealed.get().then(|| view! { <super::breakit::BreakIt lab/> })}
    }
}
