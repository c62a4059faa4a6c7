//! Playing a run: a playhead sweeps the timeline and events appear as they happen.
//!
//! With `prefers-reduced-motion` the playhead jumps from event to event instead of sweeping.

use gloo_timers::callback::Interval;
use leptos::prelude::*;

use super::{url, Lab};
use crate::geom::seconds;
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
            match next.filter(|&t| t < self.end()) {
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

/// A 14 px icon from an SVG path: no icon font, so it renders the same everywhere.
fn icon(d: &'static str) -> impl IntoView {
    view! {
        <svg class="icon" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
            <path d=d fill="currentColor"></path>
        </svg>
    }
}

/// Play / pause, previous and next event, a scrubber and "jump to the end".
#[component]
pub fn Playback(lab: Lab) -> impl IntoView {
    let player = lab.player;
    let playhead = player.playhead;
    let playing = player.playing;
    let end = move || lab.run.with(|r| r.trace.end);
    on_cleanup(move || player.stop());

    view! {
        <div class="playback" role="group" aria-label=move || lab.text().scrub>
            <button
                type="button"
                class="play"
                aria-pressed=move || playing.get().to_string()
                on:click=move |_| if playing.get_untracked() { player.stop() } else { player.play() }
            >
                {move || if playing.get() { icon("M4 2h3v10H4zM9 2h3v10H9z") } else { icon("M4 2l9 5-9 5z") }}
                <span class="label">{move || if playing.get() { lab.text().stop } else { lab.text().play }}</span>
            </button>
            <button type="button" on:click=move |_| player.step_back() aria-label=move || lab.text().step_back>
                {icon("M2 2h2v10H2zM13 2v10L5 7z")}
            </button>
            <button type="button" on:click=move |_| player.step_forward() aria-label=move || lab.text().step_forward>
                {icon("M1 2v10l8-5zM10 2h2v10h-2z")}
            </button>
            <input
                type="range"
                class="scrub"
                min="0"
                max=move || end().to_string()
                step="100"
                aria-label=move || lab.text().scrub
                aria-valuetext=move || (lab.text().playhead)(playhead.get().unwrap_or_else(end))
                prop:value=move || playhead.get().unwrap_or_else(end).to_string()
                on:input=move |ev| {
                    player.stop();
                    let t: Ms = event_target_value(&ev).parse().unwrap_or(0);
                    playhead.set((t < end()).then_some(t));
                }
            />
            <output class="time">
                {move || {
                    let unit = lab.text().seconds_unit;
                    format!("{} / {} {unit}", seconds(playhead.get().unwrap_or_else(end)), seconds(end()))
                }}
            </output>
            <button type="button" on:click=move |_| player.show_all() aria-label=move || lab.text().to_end>
                {icon("M1 2v10l6-5zM7 2v10l6-5zM12 2h2v10h-2z")}
            </button>
        </div>
    }
}
