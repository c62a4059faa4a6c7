//! Playing a run: a playhead sweeps the timeline and events appear as they happen.
//!
//! With `prefers-reduced-motion` the playhead jumps from event to event instead of sweeping.

use gloo_timers::callback::Interval;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::dom;
use super::{data_of, effect, say, set, url};
use crate::present::geom::seconds;
use crate::present::lesson::Phase;
use crate::present::markup;
use crate::sim::{Ms, Run};

/// Sim-time per real second while sweeping: the 30 s axis plays in 6 s.
const SPEED: Ms = 5;
/// Frame period of the sweep.
const FRAME_MS: u32 = 40;
/// Pause between events when stepping (reduced motion).
const STEP_MS: u32 = 900;

/// The distinct event times of a run, in order.
fn event_times(run: &Run) -> Vec<Ms> {
    let mut t: Vec<Ms> = run.trace.events.iter().map(|e| e.at).collect();
    t.dedup();
    t
}

/// The playhead and its timer. `playhead: None` shows the whole run.
#[derive(Clone, Copy)]
pub struct Player {
    /// Where the playhead stands; `None`: the end, everything shown.
    pub playhead: RwSignal<Option<Ms>>,
    /// Whether the timer is running.
    pub playing: RwSignal<bool>,
    timer: StoredValue<Option<Interval>, LocalStorage>,
    run: Memo<Run>,
}

impl Player {
    /// A stopped player for `run`, showing everything.
    pub fn new(run: Memo<Run>) -> Player {
        Player {
            playhead: RwSignal::new(None),
            playing: RwSignal::new(false),
            timer: StoredValue::new_local(None),
            run,
        }
    }

    fn end(&self) -> Ms {
        self.run.with_untracked(|r| r.trace.end)
    }

    /// Stops the timer, leaving the playhead where it is. Sets only what changes: a needless set would
    /// redraw the timeline.
    pub fn stop(&self) {
        self.timer.set_value(None);
        if self.playing.get_untracked() {
            self.playing.set(false);
        }
    }

    /// Stops and shows the whole run.
    pub fn show_all(&self) {
        self.stop();
        if self.playhead.get_untracked().is_some() {
            self.playhead.set(None);
        }
    }

    /// Plays from the playhead (from the start if it stands at the end).
    pub fn play(self) {
        let end = self.end();
        let start = self.playhead.get_untracked().filter(|&t| t < end).unwrap_or(0);
        self.playhead.set(Some(start));
        self.playing.set(true);
        let reduced = url::prefers_reduced_motion();
        let period = if reduced { STEP_MS } else { FRAME_MS };
        let tick = move || {
            let now = self.playhead.get_untracked().unwrap_or(0);
            let next = if reduced { self.next_event(now) } else { Some(now + SPEED * FRAME_MS as Ms) };
            // The end's own event gets its step too before the whole run is shown (reduced motion
            // jumped from the one before it straight to the whole run).
            let end = self.end();
            match next.filter(|&t| now < end && t <= end) {
                Some(t) => self.playhead.set(Some(t)),
                None => self.show_all(),
            }
        };
        self.timer.set_value(Some(Interval::new(period, tick)));
    }

    fn current(&self) -> Ms {
        self.playhead.get_untracked().unwrap_or_else(|| self.end())
    }

    fn next_event(&self, after: Ms) -> Option<Ms> {
        self.run.with_untracked(|r| event_times(r).into_iter().find(|&t| t > after))
    }

    /// Moves to the next event (or the end).
    pub fn step_forward(&self) {
        self.stop();
        let next = self.next_event(self.current()).filter(|&t| t < self.end());
        self.playhead.set(next);
    }

    /// Moves to the previous event (or the start).
    pub fn step_back(&self) {
        self.stop();
        let now = self.current();
        let prev = self.run.with_untracked(|r| event_times(r).into_iter().rev().find(|&t| t < now));
        self.playhead.set(Some(prev.unwrap_or(0)));
    }
}

/// Play / pause, previous and next event, jump to the end, and a scrubber: one element whose content is
/// markup, one effect, one listener per kind of event (a view per part would cost the bundle more).
#[component]
pub fn Playback() -> impl IntoView {
    let lab = super::lab();
    let player = lab.player;
    let playhead = player.playhead;
    let playing = player.playing;
    let end = move || lab.run.with(|r| r.trace.end);
    on_cleanup(move || player.stop());
    let root = NodeRef::<html::Div>::new();
    // The player's state: only what changed, as this runs for every step of a drag.
    let draw = move |root: &web_sys::Element| {
        // While the reader predicts, the prediction's own button starts the run, and the player is hidden:
        // nothing else is read, so a drag meanwhile does not come here at all.
        let (predicting, t) = (matches!(lab.phase.get(), Phase::Predicting(_)), lab.text());
        if root.has_attribute("hidden") != predicting {
            root.toggle_attribute_with_force("hidden", predicting).ok();
        }
        if predicting {
            return;
        }
        let (at, on, end) = (playhead.get().unwrap_or_else(end), playing.get(), end());
        if let Ok(Some(play)) = root.query_selector(dom::PLAY) {
            let pressed = if on { "true" } else { "false" };
            if play.get_attribute("aria-pressed").as_deref() != Some(pressed)
                || play.child_element_count() == 0
            {
                play.set_attribute("aria-pressed", pressed).ok();
                play.set_inner_html(&markup::play_button(on, t));
            }
        }
        if let Some(scrub) = root.query_selector(dom::SCRUB).ok().flatten() {
            // On its 0.1 s steps the slider could not reach an end such as 11.05 s: its last step is now at
            // or past the end, and a value there shows the whole run.
            set(&scrub, "max", &(end + 99).to_string());
            set(&scrub, "aria-valuetext", &(t.playhead)(at));
            let scrub = scrub.unchecked_into::<web_sys::HtmlInputElement>();
            if scrub.value() != at.to_string() {
                scrub.set_value(&at.to_string());
            }
        }
        say(root, dom::TIME, &format!("{} / {}", seconds(at), (t.playhead)(end)));
    };
    // The frame follows the language only, its state drawn in at once.
    effect(move || {
        let t = lab.text();
        let Some(root) = root.get() else { return };
        root.set_inner_html(&markup::playback_frame(t));
        root.set_attribute("aria-label", t.scrub).ok();
        untrack(|| draw(&root));
    });
    // Like the words around the figure, the player follows a drag or typing once the hand rests (`rest`):
    // each step is then the figure's work alone.
    effect(move || {
        if let Some(root) = root.get().filter(|_| lab.calm()) {
            draw(&root);
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| match data_of(&ev, "data-action").as_deref() {
        Some("play") if playing.get_untracked() => player.stop(),
        Some("play") => player.play(),
        Some("back") => player.step_back(),
        Some("forward") => player.step_forward(),
        Some("end") => player.show_all(),
        _ => {}
    };
    let on_input = move |ev: web_sys::Event| {
        player.stop();
        let t: Ms = event_target_value(&ev).parse().unwrap_or(0);
        playhead.set((t < end()).then_some(t));
    };
    view! { <div class="playback" role="group" node_ref=root on:click=on_click on:input=on_input></div> }
}
