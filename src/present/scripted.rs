//! A scenario a reader wrote, as the page holds it: the text as typed (what links, embeds and the editor
//! carry), the scenario of its last good reading (what the figure draws meanwhile), and what is wrong with
//! the text now. The page's module draws scripts but does not read them: the later panels' module does
//! (the language's parser is theirs), and hands back a [`Reading`] in one line ([`reply`], [`read_reply`]).

use crate::sim::{codec, Scenario};

/// What is wrong with a script: where, and the message in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Its line, from 1 (0: the script as a whole).
    pub line: usize,
    /// The message in English, with its line and column.
    pub en: String,
    /// The message in Japanese.
    pub ja: String,
}

/// A script on the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    /// The text as the reader typed it (or a link or an embedding page gave it).
    pub text: String,
    /// The scenario of the last reading that succeeded; `None` until one has.
    pub scenario: Option<Scenario>,
    /// The text that reading was of (what the narration tells while `text` cannot be read).
    pub read: String,
    /// What is wrong with `text`, if it cannot be read (the scenario is then an earlier text's).
    pub problem: Option<Problem>,
}

impl Script {
    /// A text not read yet.
    pub fn unread(text: String) -> Script {
        Script { text, scenario: None, read: String::new(), problem: None }
    }

    /// This script with `text`, read as `reading`: its scenario if it reads, else the problem, keeping the
    /// last scenario that did.
    pub fn read(&self, text: String, reading: Result<Scenario, Problem>) -> Script {
        match reading {
            Ok(sc) => Script { read: text.clone(), text, scenario: Some(sc), problem: None },
            Err(p) => {
                Script { text, scenario: self.scenario.clone(), read: self.read.clone(), problem: Some(p) }
            }
        }
    }
}

/// Reads `text` (the later panels' module does: the parser is only there).
pub fn parse(text: &str) -> Result<Scenario, Problem> {
    crate::script::parse(text).map_err(|e| Problem { line: e.line, en: e.en(), ja: e.ja() })
}

/// The result of reading a script, as one line (`ok CODEC`) or three (`error LINE`, then the message in
/// English and in Japanese).
pub fn reply(reading: Result<&Scenario, &Problem>) -> String {
    match reading {
        Ok(sc) => format!("ok {}", codec::encode(sc)),
        Err(p) => format!("error {}\n{}\n{}", p.line, p.en.replace('\n', " "), p.ja.replace('\n', " ")),
    }
}

/// What [`reply`] wrote; a reply it could not have written is a problem of the script as a whole.
pub fn read_reply(line: &str) -> Result<Scenario, Problem> {
    let unreadable = || Problem {
        line: 0,
        en: "the script could not be read".into(),
        ja: "スクリプトを読めません".into(),
    };
    if let Some(rest) = line.strip_prefix("ok ") {
        return codec::decode(rest).ok_or_else(unreadable);
    }
    let mut lines = line.strip_prefix("error ").ok_or_else(unreadable)?.splitn(3, '\n');
    let n = lines.next().and_then(codec::number).ok_or_else(unreadable)?;
    match (lines.next(), lines.next()) {
        (Some(en), Some(ja)) => Err(Problem { line: n, en: en.to_owned(), ja: ja.to_owned() }),
        _ => Err(unreadable()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script;

    #[test]
    fn a_reading_crosses_from_module_to_module_as_it_was() {
        let sc = script::parse("A: acquire, pause {pause=15s}, write\nB: idle 1s, acquire, write").unwrap();
        assert_eq!(read_reply(&reply(Ok(&sc))), Ok(sc));
        let e = script::parse("A: acquire, wirte").unwrap_err();
        let p = Problem { line: e.line, en: e.en(), ja: e.ja() };
        assert_eq!(read_reply(&reply(Err(&p))), Err(p.clone()));
        assert_eq!(p.line, 1);
        assert!(p.en.contains("did you mean \"write\"") && p.ja.contains("write"));
        assert_eq!(read_reply("nonsense").unwrap_err().line, 0);
    }

    #[test]
    fn a_broken_text_keeps_the_last_scenario_that_read() {
        let good = script::parse("A: acquire").unwrap();
        let s = Script::unread("A: acquire".into()).read("A: acquire".into(), Ok(good.clone()));
        let p = Problem { line: 1, en: "x".into(), ja: "x".into() };
        let broken = s.read("A: acq".into(), Err(p.clone()));
        assert_eq!((broken.text.as_str(), broken.read.as_str()), ("A: acq", "A: acquire"));
        assert_eq!((broken.scenario, broken.problem), (Some(good), Some(p)));
    }
}
