//! The Leptos view. Signals live here at the edge; everything they feed is plain data from the core.
//!
//! controls (picker, switches, the dragged band, playback, embed messages) → scenario + `Inputs` signals →
//! `sim::run` memo → timeline, verdict, narration. The lesson phase decides only what is visible, never
//! the outcome.

mod breakit;
mod challenge;
mod controls;
pub mod course;
pub mod dom;
pub mod download;
pub mod editor;
mod embed;
pub mod later;
mod masthead;
mod picker;
mod playback;
pub mod projector;
mod question;
mod real;
mod rest;
pub mod scripting;
pub mod share;
mod takeover;
mod timeline;
mod url;
mod verdict;

pub use takeover::mount_point;

use leptos::prelude::*;

use crate::present::lesson::{self, Phase, Step};
use crate::present::markup;
use crate::present::params::{Lang, Problem, Query};
use crate::present::scripted::Script;
use crate::present::text::{text, Text};
use crate::scenarios::{Inputs, Key, ScenarioId};
use crate::sim::{self, Ms, Run};
use playback::Player;

/// The reactive state every part of the page reads.
#[derive(Clone, Copy)]
pub struct Lab {
    /// The scenario being played.
    pub scenario: RwSignal<ScenarioId>,
    /// The simulation inputs the controls set.
    pub inputs: RwSignal<Inputs>,
    /// The page's language.
    pub lang: RwSignal<Lang>,
    /// The run for the current scenario and inputs, recomputed only when they change.
    pub run: Memo<Run>,
    /// The playhead.
    pub player: Player,
    /// Predicting, watching, or told.
    pub phase: RwSignal<Phase>,
    /// Whether the page is embedded (`embed=1`).
    pub embed: bool,
    /// What was wrong with the link the page was opened with.
    pub link_problems: RwSignal<Vec<Problem>>,
    /// What was wrong with the last message from the embedding page.
    pub message_problems: RwSignal<Vec<Problem>>,
    /// Whether the next write of the URL adds a history entry: the reader picked a scenario.
    pub new_entry: StoredValue<bool>,
    /// In the later panels' module, the page's own lab, which owns the state: a run loaded there is asked
    /// of it ([`Lab::load`]) and comes back as the next state (`later`). `None` in the page's lab itself.
    pub owner: StoredValue<Option<js_sys::Function>, LocalStorage>,
    /// A scenario the reader wrote, when one is on screen: then it is what runs, and `scenario` and `inputs`
    /// are where the page goes back to.
    pub script: RwSignal<Option<Script>>,
    /// Whether the script editor is open.
    pub editing: RwSignal<bool>,
    /// The page's second module: the later panels, the editor and the scenario language (`later`).
    pub bench: RwSignal<later::Bench, LocalStorage>,
    /// The reader asked to edit the scenario as a script before the module was here.
    pub wants_edit: StoredValue<bool>,
    /// Whether the reader's hand rests: no drag or typing in progress (`rest`).
    pub calm: RwSignal<bool>,
}

impl Lab {
    /// The strings of the current language.
    pub fn text(&self) -> &'static Text {
        text(self.lang.get())
    }

    /// How far into the run the timeline may show: nothing past the start while the reader predicts.
    pub fn shown_until(&self) -> Option<Ms> {
        match self.phase.get() {
            Phase::Predicting(_) => Some(0),
            _ => self.player.playhead.get(),
        }
    }

    /// The state as a link carries it.
    pub fn query(&self, embed: bool) -> Query {
        Query {
            scenario: self.scenario.get(),
            inputs: self.inputs.get(),
            lang: Some(self.lang.get()),
            embed,
            problems: Vec::new(),
            given: Vec::new(),
            script: self.script.with(|s| s.as_ref().map(|s| s.text.clone())),
        }
    }

    /// Moves the lesson on.
    pub fn step(&self, step: Step) {
        let next = self.phase.get_untracked().after(step);
        if next != self.phase.get_untracked() {
            self.phase.set(next);
        }
    }

    /// Sets one input, if it changes anything.
    pub fn set(&self, key: Key, value: u64) {
        let mut inputs = self.inputs.get_untracked();
        if key.spec().set(&mut inputs, value).is_ok() && inputs != self.inputs.get_untracked() {
            self.inputs.set(inputs);
        }
    }

    /// Plays another scenario from its own defaults (a script on screen gives way to it).
    pub fn pick(&self, id: ScenarioId) {
        let scripted = self.script.with_untracked(Option::is_some);
        if scripted {
            self.leave_script();
        }
        if id == self.scenario.get_untracked() && !scripted {
            return;
        }
        // (The inputs watcher below shows the new run whole.)
        let skipping = url::prediction_skipped();
        self.scenario.set(id);
        self.inputs.set(lesson::opening(id, !skipping));
        self.step(Step::ScenarioChanged { skipping });
    }

    /// Shows a run of the current scenario with these inputs (a failure found, a cell of a map). The page's
    /// lab sets them; the later panels' mirror asks the page's lab to.
    pub fn load(&self, inputs: Inputs) {
        match self.owner.with_value(|o| o.clone()) {
            Some(owner) => {
                let q = Query { inputs, lang: None, ..self.query(false) };
                let _ = owner.call2(&wasm_bindgen::JsValue::NULL, &"run".into(), &q.to_query_string().into());
            }
            None => self.inputs.set(inputs),
        }
    }

    /// The reader picks a scenario (the picker, the reading): played from its defaults, in a new history
    /// entry, so Back returns to the scenario before. (An embedding host's `set` uses [`Lab::pick`]: its
    /// history is the host's.)
    pub fn choose(&self, id: ScenarioId) {
        if id != self.scenario.get_untracked() || self.script.with_untracked(Option::is_some) {
            // The entry left behind holds what is on screen now, an edit not yet settled included, so Back
            // brings back its text, figure and verdict together.
            self.settle();
            url::write(&self.link(self.embed), false);
            self.new_entry.set_value(true);
            self.pick(id);
        }
    }
}

/// The lab the app's root provides (the page's, or in the second module its mirror): what every component
/// draws and changes.
pub fn lab() -> Lab {
    use_context::<Lab>().unwrap()
}

/// An effect, its closure boxed: every effect of the app then shares one instantiation of Leptos' effect
/// machinery (an async task per type) instead of generating it once per closure.
pub fn effect(run: impl Fn() + 'static) {
    let run: Box<dyn Fn()> = Box::new(run);
    Effect::new(move |_| run());
}

/// Runs `make` under a new reactive owner of its own, not the caller's, and returns both: what it makes (a
/// panel mounted from a button's handler) lives until the pair is dropped, not until the part of the page
/// that held the button is redrawn. (Leptos makes an owner, a mount's too, a child of the current one: a
/// panel made under a button's owner is disposed with it, its DOM left behind with dead handlers.)
pub fn apart<T>(make: impl FnOnce() -> T) -> (Owner, T) {
    let caller = Owner::current();
    if let Some(caller) = caller.clone() {
        caller.unset();
    }
    let owner = Owner::new();
    if let Some(caller) = &caller {
        caller.set();
    }
    let made = owner.with(make);
    (owner, made)
}

/// Sets the markup of the part of `root` at `selector`, unless it already holds it.
pub fn fill(root: &web_sys::Element, selector: &str, html: &str) {
    if let Some(el) = dom::find(root, selector).filter(|el| el.inner_html() != html) {
        el.set_inner_html(html);
    }
}

/// The `data-*` attribute `name` of the element an event came from, or of its nearest ancestor with one:
/// how one listener serves every button of a piece of markup.
pub fn data_of(ev: &web_sys::Event, name: &str) -> Option<String> {
    let target = wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(ev.target()?).ok()?;
    target.closest(&dom::with_attr(name)).ok().flatten()?.get_attribute(name)
}

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/app/page.js")]
extern "C" {
    /// Sets the text of the element under `root` that `selector` finds, unless it already says that. The
    /// effects that fill in markup run on every drag: an unchanged text rewritten would still be DOM work,
    /// and news again in a live region. (Compared in the page's JS: one call.)
    #[wasm_bindgen(js_name = sayText)]
    pub fn say(root: &web_sys::Element, selector: &str, text: &str);
    /// Sets attribute `name` of `el`, unless it already says that: the effects that set attributes run on
    /// every step of a drag.
    #[wasm_bindgen(js_name = setAttr)]
    pub fn set(el: &web_sys::Element, name: &str, value: &str);
    /// Sets the values of the figure's part `root` that `changes` lists (index, name, value, separated by
    /// U+001F: one call for a part's step); `false`, and nothing set, if the part has not those elements.
    #[wasm_bindgen(js_name = setValues)]
    pub fn set_values(root: &web_sys::Element, changes: &str) -> bool;
}

/// Brings the figure into view with focus on it, after a control elsewhere loaded a run into it.
pub fn show_figure() {
    let doc = web_sys::window().and_then(|w| w.document());
    if let Some(el) = doc.and_then(|d| d.query_selector(dom::FIGURE).ok().flatten()) {
        el.scroll_into_view();
        let _ = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).map(|e| e.focus());
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    // The page built at build time gives way, and what the reader did to it carries over.
    let early = takeover::begin();
    let early_width = early.width;
    url::mark_started();
    let query = url::read();
    let lang = RwSignal::new(query.lang.or_else(url::browser_lang).unwrap_or(Lang::En));
    let phase = RwSignal::new(if url::prediction_skipped() {
        Phase::Revealed(None)
    } else {
        Phase::Predicting(early.choice)
    });
    let mut first = query.inputs;
    // The first prediction is the source's own question: what if A wakes after 15 s? Unless the link sets
    // the pause (a bad value opens where no value does, as the notice says).
    if !query.given.contains(&Key::Pause) {
        first.pause = lesson::opening(query.scenario, !phase.get_untracked().revealed()).pause;
    }
    // Switches flipped before the app started.
    for (name, on) in &early.switches {
        if let Some(key) = Key::from_name(name).filter(|k| query.scenario.keys().contains(k)) {
            let _ = key.spec().set(&mut first, key.spec().switched(*on));
        }
    }
    let scenario = RwSignal::new(query.scenario);
    let inputs = RwSignal::new(first);
    let script = RwSignal::new(query.script.clone().map(Script::unread));
    // A script on screen runs its last good reading; else the catalogue's scenario with its inputs.
    let run = Memo::new(move |_| {
        let scripted = script.with(|s| s.as_ref().and_then(|s| s.scenario.clone()));
        sim::run(&scripted.unwrap_or_else(|| scenario.get().build(&inputs.get())))
    });
    let lab = Lab {
        scenario,
        inputs,
        lang,
        run,
        player: Player::new(run),
        phase,
        embed: query.embed,
        link_problems: RwSignal::new(query.problems),
        message_problems: RwSignal::new(Vec::new()),
        new_entry: StoredValue::new(false),
        owner: StoredValue::new_local(None),
        script,
        editing: RwSignal::new(false),
        bench: RwSignal::new_local(later::Bench::Idle),
        wants_edit: StoredValue::new(false),
        calm: RwSignal::new(true),
    };
    // A link's script is read once the module is here (it is asked for now), and opens the editor.
    if let Some(text) = query.script {
        lab.set_script(text);
        lab.editing.set(!lab.embed);
    }
    // Every component below reads the lab from here (`lab()`).
    provide_context(lab);
    later::connect(lab);
    rest::connect(lab);

    url::follow(lab);
    effect(move || {
        url::set_document_lang(lang.get());
        url::set_title(&format!("{} — {}", lab.text().title, lab.text().tagline));
    });
    // Any change of the inputs shows the new run whole, and a prediction in play is asked again (not on the
    // first run: that would cut a play short).
    Effect::watch(
        move || (scenario.track(), inputs.track(), script.with(|s| s.as_ref().map(|s| s.scenario.clone()))),
        move |_, _, _| {
            lab.player.show_all();
            lab.step(Step::InputsChanged);
        },
        false,
    );
    // A prediction is told once its run has played to the end (or the reader jumped there).
    effect(move || {
        if matches!(phase.get(), Phase::Playing(_))
            && !lab.player.playing.get()
            && lab.player.playhead.get().is_none()
        {
            lab.step(Step::Finished);
        }
    });
    embed::connect(lab);
    url::mark_embedded(lab.embed);
    url::on_reading_link(move |id| {
        lab.choose(id);
        show_figure();
    });
    let root = NodeRef::<leptos::html::Div>::new();
    leptos::prelude::request_animation_frame(move || {
        if let Some(root) = root.get_untracked() {
            takeover::end(&early, &root);
        }
    });
    let figure = NodeRef::<leptos::html::Figure>::new();
    question::follow(figure);

    view! {
        <div class="app" node_ref=root>
            <masthead::Masthead/>
            {(!lab.embed).then(|| view! { <picker::Picker/> })}
            // The set-up, the question, then the figure: on a phone's first screen. The switches follow the
            // figure they change, and the answers the switches.
            <figure class="lab" node_ref=figure aria-labelledby="lab-question" tabindex="-1">
                <p class="script-status" role="status"></p>
                <div id="lab-question" class="question">
                    <p class="seed-question"></p>
                    <p class="setup"></p>
                </div>
                <p class="prompt" id=markup::PROMPT_ID></p>
                <timeline::Timeline width=early_width/>
                // The script editor's place, beside the figure (the second module draws it there).
                <div class="editor-slot"></div>
                <controls::Toggles/>
                <playback::Playback/>
                <verdict::Verdict/>
            </figure>
            // Embedded: only the widget and its verdict.
            {(!lab.embed)
                .then(|| {
                    view! {
                        // "Seen on real systems", "Where does it change?" and "Break it": a module of their own,
                        // loaded once the first prediction is told (they would give it away before).
                        <later::Later/>
                        <share::Share/>
                    }
                })}
        </div>
    }
}
