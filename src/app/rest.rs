//! The reader's hand, moving or at rest. While the reader drags the band (by pointer or arrow keys) or
//! types a script, each step redraws the figure and nothing else; the words around it (the set-up and its
//! question, the verdict, the switches, the later panels and the editor's message, the link, an embedding
//! page's state) are drawn once the steps pause, or the pointer lets go. On a slow phone a step is then the
//! figure's work alone, and the next step does not wait behind text rewritten on every step.

use std::cell::{Cell, OnceCell};

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::Lab;

/// How often a moving hand is looked at: the steps have paused once a whole tick passed without one, so
/// the words follow 150 to 300 ms after the last step (longer than the gap between a typist's keys).
const TICK_MS: i32 = 150;

// The page's one hand (the later module's mirror has none: its hand never moves). Plain cells, not
// signals: a step only marks it, and the pending tick looks.
thread_local! {
    static TICK: OnceCell<js_sys::Function> = const { OnceCell::new() };
    static TICKING: Cell<bool> = const { Cell::new(false) };
    static STEPPED: Cell<bool> = const { Cell::new(false) };
}

impl Lab {
    /// Whether the words may be drawn now. Tracked: an effect that returns while the hand moves runs again
    /// once it rests.
    pub fn calm(&self) -> bool {
        self.calm.get()
    }

    /// A memo's markup, drawn once the hand rests: `now()` then, and while it moves the value it had (`prev`),
    /// so nothing it shows is redrawn for each step.
    pub fn rested(&self, prev: Option<&String>, now: impl FnOnce() -> String) -> String {
        if self.calm() {
            now()
        } else {
            prev.cloned().unwrap_or_default()
        }
    }

    /// A step of a drag, a key typed: the words wait until the steps pause. (No timer is made or cleared per
    /// step.)
    pub fn restless(&self) {
        if !TICK.with(|t| t.get().is_some()) {
            return;
        }
        STEPPED.set(true);
        if !TICKING.replace(true) {
            arm();
        }
        if self.calm.get_untracked() {
            self.calm.set(false);
        }
    }

    /// The hand let go: the words follow now.
    pub fn settle(&self) {
        STEPPED.set(false);
        if !self.calm.get_untracked() {
            self.calm.set(true);
        }
    }
}

fn arm() {
    TICK.with(|t| {
        if let (Some(tick), Some(window)) = (t.get(), web_sys::window()) {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(tick, TICK_MS);
        }
    });
}

/// Gives the page's lab its hand: a step since the last tick keeps it moving, a whole tick without one
/// rests it.
pub fn connect(lab: Lab) {
    let tick = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
        if STEPPED.replace(false) {
            arm();
        } else {
            TICKING.set(false);
            lab.settle();
        }
    });
    TICK.with(|t| t.set(tick.into_js_value().unchecked_into()).ok());
}
