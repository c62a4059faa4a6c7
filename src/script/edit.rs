//! Edits a control makes to a script, keeping everything else as the reader wrote it (order, comments,
//! spacing): a named value's new value where the script defines it, a switch's state on its line.

use super::lex::{tokens, Tok};
use super::print::duration;
use crate::sim::Ms;

/// A token's place in its line, in characters: from, to.
fn span(col: usize, tok: &Tok) -> (usize, usize) {
    let len = match tok {
        Tok::Word(w) | Tok::Num(w) => w.chars().count(),
        Tok::Punct('.') => 2,
        Tok::Punct(_) => 1,
    };
    (col - 1, col - 1 + len)
}

/// `line` with its characters `from..to` replaced by `with`.
fn splice(line: &str, (from, to): (usize, usize), with: &str) -> String {
    let start: String = line.chars().take(from).collect();
    let end: String = line.chars().skip(to).collect();
    format!("{start}{with}{end}")
}

fn is(tok: Option<&Tok>, word: &str) -> bool {
    matches!(tok, Some(Tok::Word(w)) if w.eq_ignore_ascii_case(word))
}

/// `text` with named value `name` set to `ms` (`off` where 0 means off: a leader crash) where the script
/// defines it: on its `value` line, or in its `{name=…}`. `None` if the script defines no such value.
pub fn set_value(text: &str, name: &str, ms: Ms, off: bool) -> Option<String> {
    let value = if off && ms == 0 { "off".to_owned() } else { duration(ms) };
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    for (n, line) in lines.iter_mut().enumerate() {
        let Ok(toks) = tokens(line, n + 1) else { continue };
        let word = |i: usize| toks.get(i).map(|t| &t.tok);
        let named = |i: usize| matches!(word(i), Some(Tok::Word(w)) if w == name);
        let at = if is(word(0), "value") && named(1) {
            Some(2)
        } else {
            (0..toks.len())
                .find(|&i| {
                    word(i) == Some(&Tok::Punct('{')) && named(i + 1) && word(i + 2) == Some(&Tok::Punct('='))
                })
                .map(|i| i + 3)
        };
        let Some(t) = at.and_then(|i| toks.get(i)) else { continue };
        if matches!(t.tok, Tok::Num(_) | Tok::Word(_)) {
            *line = splice(line, span(t.col, &t.tok), &value);
            return Some(lines.join("\n"));
        }
    }
    None
}

/// `text` with setting `setting` (`expiry`, `fencing`, …: one that takes `on` or `off`) set: its line
/// rewritten, or, if the script leaves it to its default, a line added before the first worker.
pub fn set_switch(text: &str, setting: &str, on: bool) -> String {
    let word = if on { "on" } else { "off" };
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let mut first_worker = None;
    for (n, line) in lines.iter_mut().enumerate() {
        let Ok(toks) = tokens(line, n + 1) else { continue };
        if is(toks.first().map(|t| &t.tok), setting) {
            if let Some(t) = toks.get(1).filter(|t| matches!(t.tok, Tok::Word(_))) {
                *line = splice(line, span(t.col, &t.tok), word);
                return lines.join("\n");
            }
        }
        let worker = matches!(toks.get(1).map(|t| &t.tok), Some(Tok::Punct(':')));
        if worker && first_worker.is_none() {
            first_worker = Some(n);
        }
    }
    lines.insert(first_worker.unwrap_or(0), format!("{setting} {word}"));
    lines.join("\n")
}

/// `text` with named switch `name` set on its `switch` line; `None` if the script declares no such switch.
pub fn set_named_switch(text: &str, name: &str, on: bool) -> Option<String> {
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    for (n, line) in lines.iter_mut().enumerate() {
        let Ok(toks) = tokens(line, n + 1) else { continue };
        let word = |i: usize| toks.get(i).map(|t| &t.tok);
        if is(word(0), "switch") && matches!(word(1), Some(Tok::Word(w)) if w == name) {
            let t = toks.get(2).filter(|t| matches!(t.tok, Tok::Word(_)))?;
            *line = splice(line, span(t.col, &t.tok), if on { "on" } else { "off" });
            return Some(lines.join("\n"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::parse;

    const SCRIPT: &str = "# three workers\nvalue pause 15s, range 0s..30s\nfencing on\n\
                          A: acquire, pause {pause}, write, release\n\
                          B: idle {b=1s}, acquire, write   # late\nC: idle 2s, acquire, write\n";

    #[test]
    fn a_value_is_set_where_it_is_defined_and_nothing_else_moves() {
        let edited = set_value(SCRIPT, "pause", 9_500, false).unwrap();
        assert_eq!(edited, SCRIPT.replace("value pause 15s", "value pause 9.5s"));
        let edited = set_value(SCRIPT, "b", 250, false).unwrap();
        assert_eq!(edited, SCRIPT.replace("{b=1s}", "{b=250ms}"));
        assert_eq!(parse(&edited).unwrap().params[1].value, 250);
        assert_eq!(set_value(SCRIPT, "nope", 1, false), None);
        // Where 0 means "it does not happen", it is written so.
        let crash = "service consensus, election 1s, leader-crash {crash=5s}\nA: acquire\n";
        assert_eq!(set_value(crash, "crash", 0, true).unwrap(), crash.replace("{crash=5s}", "{crash=off}"));
    }

    #[test]
    fn a_switch_is_set_on_its_line_or_added_before_the_workers() {
        assert_eq!(set_switch(SCRIPT, "fencing", false), SCRIPT.replace("fencing on", "fencing off"));
        let added = set_switch(SCRIPT, "expiry", false);
        assert_eq!(added, SCRIPT.replace("fencing on\n", "fencing on\nexpiry off\n"));
        let sc = parse(&added).unwrap();
        assert!(!sc.lease && sc.fencing);
        assert_eq!(set_switch("A: acquire", "fencing", false), "fencing off\nA: acquire");
    }
}
