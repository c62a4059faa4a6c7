//! Playing a run: a playhead sweeps the timeline and events appear as they happen.
//!
//! With `prefers-reduced-motion` the playhead jumps from event to event instead of sweeping.

use gloo_timers::callback::Interval;
use leptos::prelude::*;

use super::{url, Lab};
use crate::geom::seconds;
use crate::sim::Ms;

/// Sim-time per real second while sweeping: the 30 s axis plays in 6 s.
const SPEED: Ms = 5;
/// Frame period of the sweep.
const FRAME_MS: u32 = 40;
/// Pause between events when stepping (reduced motion).
const STEP_MS: u32 = 900;

/// A 14 px icon from an SVG path: no icon font, so it renders the same everywhere.
fn icon(d: &'static str) -> impl IntoView {
    view! {
        <svg class="icon" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
            <path d=d fill="currentColor"></path>
        </svg>
    }
}

/// The distinct event times of the run, in order.
fn event_times(lab: &Lab) -> Vec<Ms> {
    lab.run.with(|r| {
        let mut t: Vec<Ms> = r.trace.events.iter().map(|e| e.at).collect();
        t.dedup();
        t
    })
}

/// Play / pause, previous and next event, a scrubber and "jump to the end".
#[component]
pub fn Playback(lab: Lab) -> impl IntoView {
    let playhead = lab.playhead;
    let end = move || lab.run.with(|r| r.trace.end);
    let timer = StoredValue::new_local(None::<Interval>);
    let playing = RwSignal::new(false);
    let stop = move || {
        timer.set_value(None);
        if playing.get_untracked() {
            playing.set(false);
        }
    };
    // Any change of the inputs shows the new run whole. (Setting only what changes: a needless set would
    // redraw the timeline a second time on every drag step.)
    Effect::new(move |_| {
        lab.inputs.track();
        stop();
        if playhead.get_untracked().is_some() {
            playhead.set(None);
        }
    });

    let next_event = move |after: Ms| event_times(&lab).into_iter().find(|&t| t > after);
    let current = move || playhead.get_untracked().unwrap_or_else(end);
    let play = move || {
        let start = playhead.get_untracked().filter(|&t| t < end()).unwrap_or(0);
        playhead.set(Some(start));
        playing.set(true);
        let reduced = url::prefers_reduced_motion();
        let period = if reduced { STEP_MS } else { FRAME_MS };
        let tick = move || {
            let now = playhead.get_untracked().unwrap_or(0);
            let next = if reduced { next_event(now) } else { Some(now + SPEED * FRAME_MS as Ms) };
            match next.filter(|&t| t < end()) {
                Some(t) => playhead.set(Some(t)),
                None => {
                    stop();
                    playhead.set(None);
                }
            }
        };
        timer.set_value(Some(Interval::new(period, tick)));
    };
    on_cleanup(move || timer.set_value(None));

    let step_forward = move |_| {
        stop();
        playhead.set(next_event(current()).filter(|&t| t < end()));
    };
    let step_back = move |_| {
        stop();
        let now = current();
        playhead.set(Some(event_times(&lab).into_iter().rev().find(|&t| t < now).unwrap_or(0)));
    };

    view! {
        <div class="playback" role="group" aria-label=move || lab.text().scrub>
            <button
                type="button"
                class="play"
                aria-pressed=move || playing.get().to_string()
                on:click=move |_| if playing.get_untracked() { stop() } else { play() }
            >
                {move || if playing.get() { icon("M4 2h3v10H4zM9 2h3v10H9z") } else { icon("M4 2l9 5-9 5z") }}
                <span class="label">{move || if playing.get() { lab.text().stop } else { lab.text().play }}</span>
            </button>
            <button type="button" on:click=step_back aria-label=move || lab.text().step_back>
                {icon("M2 2h2v10H2zM13 2v10L5 7z")}
            </button>
            <button type="button" on:click=step_forward aria-label=move || lab.text().step_forward>
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
                    stop();
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
            <button
                type="button"
                on:click=move |_| {
                    stop();
                    playhead.set(None);
                }
                aria-label=move || lab.text().to_end
            >
                {icon("M1 2v10l6-5zM7 2v10l6-5zM13 2h1v10h-1z")}
            </button>
        </div>
    }
}
