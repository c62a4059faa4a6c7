//! Playing a run: a playhead sweeps the timeline and events appear as they happen.
//!
//! With `prefers-reduced-motion` the playhead jumps from event to event instead of sweeping.

use gloo_timers::callback::Interval;
use leptos::prelude::*;

use super::{data_of, tx, url, Lab};
use crate::geom::seconds;
use crate::lesson::Phase;
use crate::markup;
use crate::sim::{Ms, Run};
use crate::text::Text;

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
fn icon(d: &str) -> String {
    format!(
        r#"<svg class="icon" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true"><path d="{d}" fill="currentColor"/></svg>"#
    )
}

/// Previous event, next event, jump to the end: markup for the current language, one listener for all.
fn steps(t: &Text) -> String {
    let button = |action: &str, label: &str, d: &str| {
        format!(
            r#"<button type="button" data-action="{action}" aria-label="{}">{}</button>"#,
            markup::esc(label),
            icon(d)
        )
    };
    button("back", t.step_back, "M2 2h2v10H2zM13 2v10L5 7z")
        + &button("forward", t.step_forward, "M1 2v10l8-5zM10 2h2v10h-2z")
        + &button("end", t.to_end, "M1 2v10l6-5zM7 2v10l6-5zM12 2h2v10h-2z")
}

/// Play / pause, previous and next event, jump to the end, and a scrubber.
#[component]
pub fn Playback(lab: Lab) -> impl IntoView {
    let player = lab.player;
    let playhead = player.playhead;
    let playing = player.playing;
    let end = move || lab.run.with(|r| r.trace.end);
    on_cleanup(move || player.stop());
    let on_step = move |ev: web_sys::MouseEvent| match data_of(&ev, "data-action").as_deref() {
        Some("back") => player.step_back(),
        Some("forward") => player.step_forward(),
        Some("end") => player.show_all(),
        _ => {}
    };

    view! {
        // While the reader predicts, the prediction's own button starts the run.
        <div
            class="playback"
            role="group"
            aria-label=tx(lab, |t| t.scrub)
            hidden=move || matches!(lab.phase.get(), Phase::Predicting(_))
        >
            <button
                type="button"
                class="play"
                aria-pressed=move || playing.get().to_string()
                on:click=move |_| if playing.get_untracked() { player.stop() } else { player.play() }
                inner_html=move || {
                    let (d, label) = if playing.get() {
                        ("M4 2h3v10H4zM9 2h3v10H9z", lab.text().stop)
                    } else {
                        ("M4 2l9 5-9 5z", lab.text().play)
                    };
                    format!(r#"{}<span class="label">{}</span>"#, icon(d), markup::esc(label))
                }
            ></button>
            <span class="steps" on:click=on_step inner_html=move || steps(lab.text())></span>
            <input
                type="range"
                class="scrub"
                min="0"
                max=move || end().to_string()
                step="100"
                aria-label=tx(lab, |t| t.scrub)
                aria-valuetext=move || (lab.text().playhead)(playhead.get().unwrap_or_else(end))
                prop:value=move || playhead.get().unwrap_or_else(end).to_string()
                on:input=move |ev| {
                    player.stop();
                    let t: Ms = event_target_value(&ev).parse().unwrap_or(0);
                    playhead.set((t < end()).then_some(t));
                }
            />
            <output class="time">
                {move || format!("{} / {}", seconds(playhead.get().unwrap_or_else(end)), (lab.text().playhead)(end()))}
            </output>
        </div>
    }
}
