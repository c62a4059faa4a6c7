//! The script editor's one editing history: every text the reader saw in the editor, in order, whoever
//! made it (a key typed, a paste, or the page: a switch, a drag, a slider, Reset, Start from). Undo and
//! redo walk it back and forth, so they give back exactly the texts that were on screen. A run of typing
//! and a whole drag are each one step: the editor says which texts join the step before ([`Group`]).
//! Plain data, so the rule is tested natively; the editor (`app::editor`) records and applies.

/// Which texts make one step: texts recorded with the same group one after another are one step (the
/// newest is kept). `None` is a step of its own.
pub type Group = Option<u64>;

/// The most steps kept: the oldest go first.
pub const STEPS: usize = 200;

/// The texts the editor showed, and where the reader stands among them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    /// The texts, oldest first; never empty.
    texts: Vec<String>,
    /// The one on screen.
    at: usize,
    /// The group of the newest step, while it may still grow (not after an undo or redo).
    open: Group,
}

impl History {
    /// A history that starts with `text` on screen.
    pub fn new(text: String) -> History {
        History { texts: vec![text], at: 0, open: None }
    }

    /// The text on screen.
    pub fn now(&self) -> &str {
        &self.texts[self.at]
    }

    /// `text` is on screen now. A new step (what was undone is dropped, as in every editor), unless it is
    /// the same text, or it joins the step before: the same `group` as that step, and nothing undone since.
    pub fn record(&mut self, text: String, group: Group) {
        if text == self.texts[self.at] {
            return;
        }
        let joins = group.is_some() && group == self.open && self.at + 1 == self.texts.len() && self.at > 0;
        if joins {
            self.texts[self.at] = text;
            // A step that came back to the text before it is no step at all.
            if self.texts[self.at - 1] == self.texts[self.at] {
                self.texts.pop();
                self.at -= 1;
                self.open = None;
            }
            return;
        }
        self.texts.truncate(self.at + 1);
        self.texts.push(text);
        if self.texts.len() > STEPS {
            self.texts.remove(0);
        }
        self.at = self.texts.len() - 1;
        self.open = group;
    }

    /// One step back: the text to show, if there is one before.
    pub fn undo(&mut self) -> Option<&str> {
        self.open = None;
        self.at = self.at.checked_sub(1)?;
        Some(&self.texts[self.at])
    }

    /// One step forward again: the text to show, if one was undone.
    pub fn redo(&mut self) -> Option<&str> {
        self.open = None;
        if self.at + 1 >= self.texts.len() {
            return None;
        }
        self.at += 1;
        Some(&self.texts[self.at])
    }
}

/// Where `to` differs from `from`, in UTF-16 units of `to` (a text box's selection): the start and the end
/// of the changed stretch, where the caret goes after an undo or redo.
pub fn changed(from: &str, to: &str) -> (u32, u32) {
    let head = from.chars().zip(to.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a.len_utf8()).sum();
    let (from_rest, to_rest) = (&from[head..], &to[head..]);
    let tail: usize = from_rest
        .chars()
        .rev()
        .zip(to_rest.chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let units = |s: &str| s.encode_utf16().count() as u32;
    let start = units(&to[..head]);
    (start, start + units(&to_rest[..to_rest.len() - tail]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_page_edits_are_steps_of_the_same_history_as_typing() {
        // The reproduction: type at the end, the page flips fencing, undo twice, redo twice.
        let mut h = History::new("fencing on\n".into());
        h.record("fencing on\n#".into(), Some(1));
        h.record("fencing on\n# hello".into(), Some(1));
        h.record("fencing off\n# hello".into(), None);
        assert_eq!(h.undo(), Some("fencing on\n# hello"));
        assert_eq!(h.undo(), Some("fencing on\n"), "a run of typing is one step");
        assert_eq!(h.undo(), None);
        assert_eq!(h.redo(), Some("fencing on\n# hello"));
        assert_eq!(h.redo(), Some("fencing off\n# hello"));
        assert_eq!(h.redo(), None);
    }

    #[test]
    fn a_drag_is_one_step_and_an_undo_closes_the_step() {
        let mut h = History::new("a 1".into());
        h.record("a 2".into(), Some(7));
        h.record("a 3".into(), Some(7));
        assert_eq!(h.undo(), Some("a 1"));
        assert_eq!(h.redo(), Some("a 3"));
        // After an undo or redo, the same group starts a new step.
        h.record("a 4".into(), Some(7));
        assert_eq!(h.undo(), Some("a 3"));
        // A new text after an undo drops what was undone.
        h.record("b".into(), None);
        assert_eq!(h.redo(), None);
        assert_eq!(h.undo(), Some("a 3"));
        // A drag that comes back where it started is no step.
        let mut h = History::new("x 1".into());
        h.record("x 2".into(), Some(1));
        h.record("x 1".into(), Some(1));
        assert_eq!(h.now(), "x 1");
        assert_eq!(h.undo(), None);
    }

    #[test]
    fn the_oldest_steps_go_first() {
        let mut h = History::new("0".into());
        for i in 1..=STEPS + 10 {
            h.record(i.to_string(), None);
        }
        let mut oldest = String::new();
        while let Some(t) = h.undo() {
            oldest = t.to_owned();
        }
        assert_eq!(oldest, (STEPS + 10 - (STEPS - 1)).to_string());
    }

    #[test]
    fn the_caret_goes_to_what_changed() {
        assert_eq!(changed("abc", "abXc"), (2, 3));
        assert_eq!(changed("abXc", "abc"), (2, 2));
        assert_eq!(changed("same", "same"), (4, 4));
        // Counted in UTF-16 units, as a text box counts: 日 is one, 𝄞 two.
        assert_eq!(changed("日𝄞a", "日𝄞ba"), (3, 4));
        assert_eq!(changed("", "fencing off"), (0, 11));
    }

    /// What a reader or the page does to the editor.
    #[derive(Clone, Debug)]
    enum Act {
        /// Keys typed at the end: joins the run of typing before it unless `pause`.
        Type(char, bool),
        /// A paste.
        Paste(String),
        /// The page rewrites the text (a switch, Reset): a step of its own.
        Page(u8),
        /// One position of a drag: `start` begins a new drag.
        Drag(u8, bool),
        Undo,
        Redo,
    }

    fn act() -> impl Strategy<Value = Act> {
        prop_oneof![
            (prop::char::range('a', 'e'), any::<bool>()).prop_map(|(c, p)| Act::Type(c, p)),
            "[a-c]{0,3}".prop_map(Act::Paste),
            any::<u8>().prop_map(Act::Page),
            (0u8..4, any::<bool>()).prop_map(|(v, s)| Act::Drag(v, s)),
            Just(Act::Undo),
            Just(Act::Undo),
            Just(Act::Redo),
        ]
    }

    proptest! {
        /// Random typing, page edits, drags, undo and redo: an undo or redo never shows a text that was not
        /// on screen before, redo after undo gives back the text undone, and undoing all the way ends on the
        /// first text.
        #[test]
        fn undo_and_redo_only_show_texts_that_were_on_screen(acts in prop::collection::vec(act(), 0..80)) {
            let first = "A: acquire".to_owned();
            let mut h = History::new(first.clone());
            let mut screen = first.clone();
            let mut seen = vec![first.clone()];
            let (mut group, mut last_typed) = (0u64, false);
            for a in acts {
                let (text, g) = match &a {
                    Act::Undo | Act::Redo => {
                        let before = screen.clone();
                        let back = if matches!(a, Act::Undo) { h.undo() } else { h.redo() };
                        if let Some(t) = back {
                            screen = t.to_owned();
                            prop_assert!(seen.contains(&screen), "{screen:?} was never on screen");
                            prop_assert_ne!(&screen, &before, "a step that changes nothing");
                            let again = if matches!(a, Act::Undo) { h.redo() } else { h.undo() };
                            prop_assert_eq!(again, Some(before.as_str()));
                            let forth = if matches!(a, Act::Undo) { h.undo() } else { h.redo() };
                            prop_assert_eq!(forth, Some(screen.as_str()));
                        }
                        last_typed = false;
                        prop_assert_eq!(h.now(), screen.as_str());
                        continue;
                    }
                    Act::Type(c, pause) => {
                        if *pause || !last_typed {
                            group += 1;
                        }
                        last_typed = true;
                        (format!("{screen}{c}"), Some(group))
                    }
                    Act::Paste(s) => (format!("{screen}{s}"), None),
                    Act::Page(n) => (format!("{screen}\n# {n}"), None),
                    Act::Drag(v, start) => {
                        if *start || last_typed {
                            group += 1;
                        }
                        last_typed = false;
                        let base = screen.rsplit_once(" @").map_or(screen.as_str(), |(b, _)| b).to_owned();
                        (format!("{base} @{v}"), Some(group))
                    }
                };
                if !matches!(a, Act::Type(..)) {
                    last_typed = false;
                }
                screen = text.clone();
                seen.push(text.clone());
                h.record(text, g);
                prop_assert_eq!(h.now(), screen.as_str());
            }
            while h.undo().is_some() {}
            prop_assert_eq!(h.now(), first.as_str());
        }
    }
}
