//! What can be wrong with a script, and how to say it in English and Japanese.

use std::fmt;

use super::limits;
use crate::sim::Ms;

/// A bad script: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The line, from 1 (0: the script as a whole).
    pub line: usize,
    /// The column in characters, from 1 (0: the whole line).
    pub col: usize,
    /// What is wrong.
    pub problem: Problem,
}

/// What is wrong, as data: the page and `locksim` say it in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A character no token starts with.
    Character(char),
    /// Something else stands where one of `expected` should: `found` (empty at the end of the line), and
    /// the valid word nearest to it, if one is near.
    Expected {
        /// What would have been right.
        expected: Expect,
        /// What was there.
        found: String,
        /// The nearest valid word.
        nearest: Option<&'static str>,
    },
    /// A number without its unit, or with a unit that is not `s` or `ms`, or too many decimals.
    Duration(String),
    /// A duration over [`limits::DURATION`], or a value outside its stated range.
    OutOfRange {
        /// The value, in ms (or as a count).
        value: u64,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A setting given twice.
    Twice(String),
    /// A worker named twice, or a named value defined twice.
    Duplicate(String),
    /// `{name}` used before any `{name=…}` gives it a value.
    Undefined(String),
    /// `drag NAME` or `reach NAME:` naming nothing the script defines.
    Unknown(String),
    /// A setting that only one lock service has (`reach` without `service redlock`).
    NotForService(&'static str),
    /// The script is longer than [`limits::CHARS`].
    TooLong(usize),
    /// More than [`limits::WORKERS`] workers.
    TooManyWorkers,
    /// No worker at all.
    NoWorkers,
    /// A program of more than [`limits::STEPS`] steps.
    TooManySteps(String),
    /// More named values than a scenario holds.
    TooManyNamed,
    /// A name longer than [`limits::NAME`].
    LongName,
}

impl Error {
    /// The message in English: `line 3, column 9: expected a step, found "aquire" (did you mean "acquire"?)`.
    pub fn en(&self) -> String {
        format!("{}{}", self.place(false), self.problem.en())
    }

    /// The message in Japanese.
    pub fn ja(&self) -> String {
        format!("{}{}", self.place(true), self.problem.ja())
    }

    fn place(&self, ja: bool) -> String {
        match (self.line, self.col, ja) {
            (0, _, _) => String::new(),
            (l, 0, false) => format!("line {l}: "),
            (l, c, false) => format!("line {l}, column {c}: "),
            (l, 0, true) => format!("{l}行目: "),
            (l, c, true) => format!("{l}行目 {c}文字目: "),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en())
    }
}

fn found_en(found: &str) -> String {
    if found.is_empty() {
        "the end of the line".to_owned()
    } else {
        format!("\"{found}\"")
    }
}

fn found_ja(found: &str) -> String {
    if found.is_empty() {
        "行末".to_owned()
    } else {
        format!("「{found}」")
    }
}

fn secs(ms: Ms) -> String {
    super::print::duration(ms)
}

impl Problem {
    /// In English.
    pub fn en(&self) -> String {
        match self {
            Problem::Character(c) => format!("unexpected character \"{c}\""),
            Problem::Expected { expected, found, nearest } => {
                let near = nearest.map_or(String::new(), |w| format!(" (did you mean \"{w}\"?)"));
                format!("expected {}, found {}{near}", expected.en(), found_en(found))
            }
            Problem::Duration(text) => {
                format!(
                    "\"{text}\" is not a duration: write seconds or milliseconds, like 15s, 1.5s or 500ms"
                )
            }
            Problem::OutOfRange { value, min, max } => {
                format!("{} is out of range: from {} to {}", secs(*value), secs(*min), secs(*max))
            }
            Problem::Twice(w) => format!("\"{w}\" is set twice"),
            Problem::Duplicate(n) => format!("\"{n}\" is defined twice"),
            Problem::Undefined(n) => {
                format!("{{{n}}} has no value yet: write {{{n}=15s}} where it is first used")
            }
            Problem::Unknown(n) => format!("\"{n}\" is not defined in this script"),
            Problem::NotForService(w) => format!("\"{w}\" needs \"service redlock\""),
            Problem::TooLong(n) => format!(
                "the script has {n} characters; at most {} are allowed ({} too many)",
                limits::CHARS,
                n.saturating_sub(limits::CHARS)
            ),
            Problem::TooManyWorkers => format!("at most {} workers", limits::WORKERS),
            Problem::NoWorkers => "no worker: add a line such as \"A: acquire, write, release\"".to_owned(),
            Problem::TooManySteps(w) => format!("{w} has more than {} steps", limits::STEPS),
            Problem::TooManyNamed => format!("at most {} named values", crate::sim::MAX_PARAMS),
            Problem::LongName => format!("a name has at most {} characters", limits::NAME),
        }
    }

    /// In Japanese.
    pub fn ja(&self) -> String {
        match self {
            Problem::Character(c) => format!("使えない文字「{c}」があります"),
            Problem::Expected { expected, found, nearest } => {
                let near = nearest.map_or(String::new(), |w| format!("（「{w}」のことですか？）"));
                format!("{}が必要なところに{}があります{near}", expected.ja(), found_ja(found))
            }
            Problem::Duration(text) => {
                format!(
                    "「{text}」は時間として読めません。15s、1.5s、500ms のように秒かミリ秒で書いてください"
                )
            }
            Problem::OutOfRange { value, min, max } => {
                format!("{}は範囲外です（{}から{}まで）", secs(*value), secs(*min), secs(*max))
            }
            Problem::Twice(w) => format!("「{w}」が二度設定されています"),
            Problem::Duplicate(n) => format!("「{n}」が二度定義されています"),
            Problem::Undefined(n) => {
                format!(
                    "{{{n}}}にはまだ値がありません。最初に使うところで {{{n}=15s}} のように書いてください"
                )
            }
            Problem::Unknown(n) => format!("「{n}」はこのスクリプトで定義されていません"),
            Problem::NotForService(w) => format!("「{w}」は「service redlock」のときだけ使えます"),
            Problem::TooLong(n) => format!(
                "スクリプトが{n}文字あります。{}文字までです（{}文字多すぎます）",
                limits::CHARS,
                n.saturating_sub(limits::CHARS)
            ),
            Problem::TooManyWorkers => format!("ワーカーは{}つまでです", limits::WORKERS),
            Problem::NoWorkers => {
                "ワーカーがいません。「A: acquire, write, release」のような行を加えてください".to_owned()
            }
            Problem::TooManySteps(w) => format!("{w} の手順が{}を超えています", limits::STEPS),
            Problem::TooManyNamed => format!("名前付きの値は{}つまでです", crate::sim::MAX_PARAMS),
            Problem::LongName => format!("名前は{}文字までです", limits::NAME),
        }
    }
}

/// What the parser expected at a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// A line's first word.
    SettingOrWorker,
    /// A step of a program.
    Step,
    /// A duration or a named value.
    Duration,
    /// `off`, a duration or a named value.
    OffOrDuration,
    /// `on` or `off`.
    OnOff,
    /// `compare` or `plain`.
    Release,
    /// A whole number.
    Number,
    /// A name.
    Name,
    /// `,` between steps or parts.
    Comma,
    /// Nothing more on the line.
    End,
    /// A lock service.
    Service,
    /// A server, `N1` to `N5`.
    Server,
    /// `=` or `}`.
    EqualsOrClose,
    /// `}`.
    Close,
    /// `..` in a range.
    Range,
    /// A worker's name.
    Worker,
    /// `:` after a worker's name.
    Colon,
    /// This one keyword.
    Word(&'static str),
}

impl Expect {
    fn en(self) -> String {
        match self {
            Expect::SettingOrWorker => "a setting or a worker (\"A: …\")".into(),
            Expect::Step => "a step".into(),
            Expect::Duration => "a duration (15s, 500ms) or a named value ({pause=15s})".into(),
            Expect::OffOrDuration => "off or a duration".into(),
            Expect::OnOff => "on or off".into(),
            Expect::Release => "compare or plain".into(),
            Expect::Number => "a whole number".into(),
            Expect::Name => "a name".into(),
            Expect::Comma => "\",\"".into(),
            Expect::End => "the end of the line".into(),
            Expect::Service => "a lock service (single, failover, redlock, consensus)".into(),
            Expect::Server => "a server (N1, N2, …)".into(),
            Expect::EqualsOrClose => "\"=\" or \"}\"".into(),
            Expect::Close => "\"}\"".into(),
            Expect::Range => "\"..\"".into(),
            Expect::Worker => "a worker's name (A, B, …)".into(),
            Expect::Colon => "\":\"".into(),
            Expect::Word(w) => format!("\"{w}\""),
        }
    }

    fn ja(self) -> String {
        match self {
            Expect::SettingOrWorker => "設定かワーカー（「A: …」）".into(),
            Expect::Step => "手順".into(),
            Expect::Duration => "時間（15s、500ms）か名前付きの値（{pause=15s}）".into(),
            Expect::OffOrDuration => "off か時間".into(),
            Expect::OnOff => "on か off".into(),
            Expect::Release => "compare か plain".into(),
            Expect::Number => "整数".into(),
            Expect::Name => "名前".into(),
            Expect::Comma => "「,」".into(),
            Expect::End => "行末".into(),
            Expect::Service => "ロックサービス（single、failover、redlock、consensus）".into(),
            Expect::Server => "サーバー（N1、N2、…）".into(),
            Expect::EqualsOrClose => "「=」か「}」".into(),
            Expect::Close => "「}」".into(),
            Expect::Range => "「..」".into(),
            Expect::Worker => "ワーカーの名前（A、B、…）".into(),
            Expect::Colon => "「:」".into(),
            Expect::Word(w) => format!("「{w}」"),
        }
    }
}
