//! The lab figure's words and interface attributes: the set-up and its question (the catalogue's, or a
//! script's own), the script's status line, and the `data-*` attributes that say which run is on screen
//! (its outcome, whether the lock was granted twice, the scenario, whether the reader's hand rests), for a
//! host or a test to read. One effect: a reactive view per attribute or text would cost the bundle more.

use leptos::prelude::*;

use super::{dom, effect, say, set};
use crate::present::lesson::{asks_seed_question, Phase};
use crate::present::params::Lang;
use crate::present::scripted::Script;

/// Keeps the words and attributes of `figure` (the app's `<figure class="lab">`) in step with the lab.
pub fn follow(figure: NodeRef<leptos::html::Figure>) {
    let lab = super::lab();
    effect(move || {
        let (id, t) = (lab.scenario.get(), lab.text());
        let Some(fig) = figure.get() else { return };
        if lab.unread() {
            let _ = fig.remove_attribute("data-outcome");
            let _ = fig.remove_attribute("data-double-grant");
        } else {
            let (kind, double) = lab.run.with(|r| (r.outcome.kind, r.outcome.double_grant.is_some()));
            set(&fig, "data-outcome", kind.name());
            set(&fig, "data-double-grant", if double { "true" } else { "false" });
        }
        set(&fig, "data-scenario", if lab.scripted() { "script" } else { id.id() });
        // The words once the reader's hand rests (`rest`); the root says which, for a host or a test to wait on.
        let calm = lab.calm();
        set(&fig, "data-hand", if calm { "rest" } else { "moving" });
        if !calm {
            return;
        }
        let script = lab.script.get();
        // The source's own question, about A waking after 15 s: said only on that state (the style sheet
        // does not show an empty line).
        let seed = script.is_none() && asks_seed_question(id, &lab.inputs.get());
        say(&fig, dom::SEED_QUESTION, if seed { t.question } else { "" });
        // A script: its own set-up and question; while it is being read, its frame and a line saying so; if
        // it cannot be read, what is wrong (the editor marks the line).
        let sc = script.as_ref().and_then(|s| s.scenario.as_ref());
        let (setup, prompt) = match (&script, sc) {
            (Some(_), Some(sc)) => {
                let dragged = sc.dragged().map(|p| (p.name.as_str(), p.value));
                (t.script_setup(sc), (t.script_prompt)(dragged))
            }
            (Some(_), None) => (String::new(), String::new()),
            (None, _) => lab.inputs.with(|i| (t.setup(id, i), t.prompt(id, i))),
        };
        // A script that never read has nothing to draw: it says so in the figure's place, never an empty box.
        let status = match &script {
            Some(s) if s.scenario.is_none() && s.problem.is_none() => t.reading_script.to_owned(),
            Some(Script { problem: Some(p), scenario, .. }) => {
                let said = if lab.editing.get() && !lab.embed {
                    ""
                } else if lab.lang.get() == Lang::Ja {
                    &p.ja
                } else {
                    &p.en
                };
                match (scenario, said) {
                    (Some(_), "") => String::new(),
                    (Some(_), said) => (t.script_broken)(said),
                    (None, said) => (t.script_unread)(said),
                }
            }
            _ => String::new(),
        };
        say(&fig, dom::SCRIPT_STATUS, &status);
        // A script not read yet keeps the figure's frame; one that never read has nothing to draw, and its
        // message and the editor come first.
        let unread = script.as_ref().filter(|_| sc.is_none()).map(|s| s.problem.is_some());
        let _ = fig.class_list().toggle_with_force("reading-script", unread == Some(false));
        let _ = fig.class_list().toggle_with_force("unread-script", unread == Some(true));
        let _ = fig.class_list().toggle_with_force("editing", lab.editing.get() && !lab.embed);
        say(&fig, dom::SETUP, &setup);
        // The prediction's question, while the reader predicts.
        let predicting = matches!(lab.phase.get(), Phase::Predicting(_));
        say(&fig, dom::PROMPT, &prompt);
        if let Some(q) = dom::find(&fig, dom::PROMPT).filter(|q| q.has_attribute("hidden") == predicting) {
            let _ = q.toggle_attribute_with_force("hidden", !predicting);
        }
    });
}
