//! A scenario the reader wrote, on the page: the lab reads it with the page's second module (`later`),
//! draws its last good reading, and turns a drag, a slider or a switch into an edit of the text, so that
//! the text, the link and the figure always say the same.

use leptos::prelude::*;

use super::Lab;
use crate::present::scripted::{read_reply, Script};
use crate::sim::{Ms, Scenario};

/// Whether `text` is longer than a script may be (the link then does not carry it).
pub fn over_limit(text: &str) -> bool {
    text.len() > crate::script::limits::CHARS && text.chars().count() > crate::script::limits::CHARS
}

impl Lab {
    /// Whether a script is on screen.
    pub fn scripted(&self) -> bool {
        self.script.with(Option::is_some)
    }

    /// Whether a script is on screen that never read: there is no run on screen, and nothing states an
    /// outcome (the run memo falls back to the catalogue's scenario, which is not what the reader sees).
    pub fn unread(&self) -> bool {
        self.script.with(|s| s.as_ref().is_some_and(|s| s.scenario.is_none()))
    }

    /// The scenario a script on screen reads as (its last good reading), if there is one.
    pub fn script_scenario(&self) -> Option<Scenario> {
        self.script.with(|s| s.as_ref().and_then(|s| s.scenario.clone()))
    }

    /// The script on screen becomes `text`: read by the module if it is here (a text that cannot be read
    /// keeps the last scenario that could, and says what is wrong), else kept to be read when it comes.
    pub fn set_script(&self, text: String) {
        let now = self.script.get_untracked();
        if now.as_ref().is_some_and(|s| s.text == text && (s.scenario.is_some() || s.problem.is_some())) {
            return;
        }
        let next = match self.bench("parse", &[&text]) {
            Some(reply) => {
                now.unwrap_or_else(|| Script::unread(String::new())).read(text, read_reply(&reply))
            }
            None => {
                self.need_bench();
                Script { text, ..now.unwrap_or_else(|| Script::unread(String::new())) }
            }
        };
        // The app's watch on the script asks a prediction in play again (`app::App`).
        self.script.set(Some(next));
    }

    /// Back to the catalogue's scenario: the script and its editor close.
    pub fn leave_script(&self) {
        if self.scripted() {
            self.script.set(None);
        }
        if self.editing.get_untracked() {
            self.editing.set(false);
        }
    }

    /// The state as the page's link carries it, and the script it cannot: a script over the language's
    /// limit would make a link that does not reopen (a server refuses a long address), so the link keeps the
    /// last script that read, or else the scenario the script started from (the editor says so:
    /// [`over_limit`]), and the text itself goes whole into the history entry (`url::write`).
    pub fn link(&self, embed: bool) -> (crate::present::params::Query, Option<String>) {
        let mut q = self.query(embed);
        let whole = q.script.take_if(|t| over_limit(t));
        if whole.is_some() {
            q.script = self.script.with(|s| s.as_ref().map(|s| s.read.clone())).filter(|t| !t.is_empty());
        }
        (q, whole)
    }

    /// Opens the editor on the scenario on screen: a script stays as it is; a scenario of the catalogue is
    /// written out as its script, at the state on screen. Waits for the module if it is not here yet.
    pub fn edit_script(&self) {
        if self.script.with_untracked(Option::is_none) {
            let q = crate::present::params::Query { script: None, ..self.query(false) };
            match self.bench("print", &[&q.to_query_string()]) {
                Some(text) => {
                    self.new_entry.set_value(true);
                    self.set_script(text);
                }
                None => {
                    self.wants_edit.set_value(true);
                    return self.need_bench();
                }
            }
        }
        self.editing.set(true);
    }

    /// Sets the script's named value `i` to `value`, in its text (where the script defines it).
    pub fn script_value(&self, i: usize, value: Ms) {
        // A text that does not read is the reader's to fix: a control does not rewrite it under them.
        let Some((text, name, off)) = self.script.with_untracked(|s| {
            let s = s.as_ref().filter(|s| s.problem.is_none())?;
            let p = s.scenario.as_ref()?.params.get(i)?;
            (p.value != value).then(|| (s.text.clone(), p.name.clone(), p.off))
        }) else {
            return;
        };
        let Some(text) =
            self.bench("set_value", &[&text, &name, &value.to_string(), if off { "1" } else { "0" }])
        else {
            return;
        };
        // The edit changes that number only, and the text then reads as the same scenario with only that
        // value changed (tests/script.rs holds it for every catalogue state): a script that reads keeps its
        // reading, so a drag does not wait for the second module to read it again.
        let kept = self.script.with_untracked(|s| {
            let s = s.as_ref().filter(|s| s.problem.is_none())?;
            let mut sc = s.scenario.clone()?;
            sc.params.get_mut(i)?.value = value;
            Some(Script { read: text.clone(), text: text.clone(), scenario: Some(sc), problem: None })
        });
        match kept {
            // The app's watch on the script asks a prediction in play again.
            Some(script) => self.script.set(Some(script)),
            None => self.set_script(text),
        }
    }

    /// Sets the dragged value: the catalogue's dragged input, or the script's dragged named value.
    pub fn drag_value(&self, value: Ms) {
        match self.script.with_untracked(|s| s.as_ref().map(|s| s.scenario.as_ref().and_then(|sc| sc.drag))) {
            Some(Some(i)) => self.script_value(usize::from(i), value),
            Some(None) => {}
            None => {
                if let Some(key) = self.scenario.get_untracked().dragged() {
                    self.set(key, value);
                }
            }
        }
    }

    /// Turns the script's setting `setting` (`expiry`, `fencing`, or `switch NAME`) on or off, in its text.
    pub fn script_switch(&self, setting: &str, on: bool) {
        let Some(text) = self
            .script
            .with_untracked(|s| s.as_ref().filter(|s| s.problem.is_none()).map(|s| s.text.clone()))
        else {
            return;
        };
        if let Some(text) = self.bench("set_switch", &[&text, setting, if on { "1" } else { "0" }]) {
            self.set_script(text);
        }
    }

    /// The narration of the run on screen, in the page's language, told by the module (its words are
    /// there): `None` until the module is here. A script's is of its last good reading.
    pub fn narration(&self) -> Option<String> {
        self.told_by_module("narrate")
    }

    /// The verdict's lesson for the run on screen, in the page's language, told by the module with the
    /// narration (its words are there, and a script's run may need plainer ones): "" until it is here.
    pub fn lesson(&self) -> String {
        self.told_by_module("lesson").unwrap_or_default()
    }

    /// What the module's export `name` says of the run on screen, in the page's language.
    fn told_by_module(&self, name: &str) -> Option<String> {
        let script = self.script.with(|s| s.as_ref().map(|s| s.read.clone()));
        let q = crate::present::params::Query { script, ..self.query(false) };
        self.bench(name, &[&q.to_query_string(), self.lang.get().tag()])
    }

    /// Shows the run of the script with these named values (`(index, value)`): its text rewritten where
    /// it defines them, asked of the page's lab from the second module's mirror (which has the parser).
    pub fn load_values(&self, values: &[(usize, Ms)]) {
        let Some((mut text, sc)) = self
            .script
            .with_untracked(|s| s.as_ref().and_then(|s| Some((s.text.clone(), s.scenario.clone()?))))
        else {
            return;
        };
        for &(i, v) in values {
            if let Some(p) = sc.params.get(i) {
                if let Some(t) = crate::script::set_value(&text, &p.name, v, p.off) {
                    text = t;
                }
            }
        }
        self.ask_page("script", &text);
    }
}
