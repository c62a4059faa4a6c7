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
    /// A duration over [`limits::DURATION`], or a value outside its stated range (durations, in ms).
    OutOfRange {
        /// The value, in ms (or as a count).
        value: u64,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A duration with more digits than any in its range: as written.
    HugeDuration {
        /// The duration as written.
        text: String,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A count (a first token, a number of servers) outside its range: the number as written.
    Count {
        /// The number as written (it may be too large for any integer).
        value: String,
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
    /// A setting or step that has no meaning with a lock service: (what, the service). Redlock: `expiry off`,
    /// `acquire without expiry`, `get`, `set`, `release plain`, `lock-delay`, `register on`; consensus: `get`,
    /// `set`, `release plain`; failover: `lock-delay`.
    NotWith(&'static str, &'static str),
    /// `reach NAME:` naming a worker past the third.
    ReachWorker(String),
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
    /// `{name? …}` naming no switch a `switch` line declared before it.
    NoSwitch(String),
    /// More named switches than a scenario holds.
    TooManySwitches,
    /// A worker's program with a second `{switch? …}`.
    TwoChoices(String),
}

impl Error {
    /// The message in English: `line 3, column 9: expected a step, found "aquire" (did you mean "acquire"?)`.
    pub fn en(&self) -> String {
        format!("{}{}", place(self.line, self.col, false), self.problem.en())
    }

    /// The message in Japanese.
    pub fn ja(&self) -> String {
        format!("{}{}", place(self.line, self.col, true), self.problem.ja())
    }
}

/// Where a message points (line and column from 1, 0 for none), as it opens the message in English or in
/// Japanese: a script's errors and a course's say it the same way.
pub fn place(line: usize, col: usize, ja: bool) -> String {
    match (line, col, ja) {
        (0, _, _) => String::new(),
        (l, 0, false) => format!("line {l}: "),
        (l, c, false) => format!("line {l}, column {c}: "),
        (l, 0, true) => format!("{l}行目："),
        (l, c, true) => format!("{l}行目 {c}文字目："),
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

fn secs(ms: Ms) -> String {
    super::print::duration(ms)
}

/// The name of a character a reader cannot see, or cannot see alone (a control, a format character, a
/// combining mark), if it is one: quoted, it would show as `""` or join the quote.
fn invisible(c: char) -> Option<&'static str> {
    let name = match c {
        '\u{0}' => "NULL",
        '\u{ad}' => "SOFT HYPHEN",
        '\u{301}' => "COMBINING ACUTE ACCENT",
        '\u{34f}' => "COMBINING GRAPHEME JOINER",
        '\u{61c}' => "ARABIC LETTER MARK",
        '\u{200b}' => "ZERO WIDTH SPACE",
        '\u{200c}' => "ZERO WIDTH NON-JOINER",
        '\u{200d}' => "ZERO WIDTH JOINER",
        '\u{200e}' => "LEFT-TO-RIGHT MARK",
        '\u{200f}' => "RIGHT-TO-LEFT MARK",
        '\u{202a}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202b}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202c}' => "POP DIRECTIONAL FORMATTING",
        '\u{202d}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202e}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2060}' => "WORD JOINER",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{feff}' => "ZERO WIDTH NO-BREAK SPACE",
        '\u{fffc}' => "OBJECT REPLACEMENT CHARACTER",
        c if c.is_control() => "a control character",
        '\u{300}'..='\u{36f}'
        | '\u{1ab0}'..='\u{1aff}'
        | '\u{1dc0}'..='\u{1dff}'
        | '\u{20d0}'..='\u{20ff}' => "a combining mark",
        '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}' => "a variation selector",
        '\u{2061}'..='\u{2064}' | '\u{206a}'..='\u{206f}' | '\u{e0000}'..='\u{e007f}' => "a format character",
        _ => return None,
    };
    Some(name)
}

/// A character as a message shows it: quoted if it can be seen, else by its code point and name.
fn character(c: char, ja: bool) -> String {
    match (invisible(c), ja) {
        (Some(name), _) => format!("U+{:04X} ({name})", u32::from(c)),
        (None, false) => format!("\"{c}\""),
        (None, true) => format!("「{c}」"),
    }
}

impl Problem {
    /// In English.
    pub fn en(&self) -> String {
        match self {
            Problem::Character(c) => format!("unexpected character {}", character(*c, false)),
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
            Problem::HugeDuration { text, min, max } => {
                format!("{text} is out of range: from {} to {}", secs(*min), secs(*max))
            }
            Problem::Count { value, min, max } => {
                format!("{value} is out of range: a whole number from {min} to {max}")
            }
            Problem::Twice(w) => format!("\"{w}\" is set twice"),
            Problem::Duplicate(n) => format!("\"{n}\" is defined twice"),
            Problem::Undefined(n) => {
                format!("{{{n}}} has no value yet: write {{{n}=15s}} where it is first used")
            }
            Problem::Unknown(n) => format!("\"{n}\" is not defined in this script"),
            Problem::NotForService(w) => format!("\"{w}\" needs \"service redlock\""),
            Problem::NotWith(w, service) => {
                let why = match (*w, *service) {
                    ("expiry off" | "acquire without expiry", _) => "its keys always expire (SET NX PX)",
                    ("get" | "set", "redlock") => "a client takes a majority with SET NX only",
                    ("get" | "set", _) => {
                        "a worker waits its turn in the lock's queue; no write takes it over"
                    }
                    ("release plain", _) => "a worker deletes only its own key",
                    ("lock-delay", _) => "Redis has no lock-delay",
                    ("fencing on", _) => "its values are random: a write carries no token to check",
                    _ => "its values are random: there is no token to register",
                };
                format!("\"{w}\" does not work with \"service {service}\": {why}")
            }
            Problem::ReachWorker(n) => format!("\"reach\" names one of the first three workers, not \"{n}\""),
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
            Problem::NoSwitch(n) => {
                format!("{{{n}? …}} needs a switch: write \"switch {n} on\" (or off) on a line before it")
            }
            Problem::TooManySwitches => format!("at most {} named switches", crate::sim::MAX_SWITCHES),
            Problem::TwoChoices(w) => format!("{w} already has a {{switch? …}}: a program has at most one"),
        }
    }

    /// In Japanese.
    pub fn ja(&self) -> String {
        match self {
            Problem::Character(c) => format!("使えない文字{}があります", character(*c, true)),
            Problem::Expected { expected, found, nearest } => {
                let near = nearest.map_or(String::new(), |w| format!("（「{w}」のことですか？）"));
                match (expected, found.is_empty()) {
                    (_, true) => format!("{}を書くところで行が終わっています", expected.ja()),
                    (Expect::End, _) => format!("ここで行が終わるはずですが、「{found}」が続いています"),
                    _ => format!("{}を書くところに「{found}」があります{near}", expected.ja()),
                }
            }
            Problem::Duration(text) => {
                format!(
                    "「{text}」は時間として読めません。15s、1.5s、500ms のように秒かミリ秒で書いてください"
                )
            }
            Problem::OutOfRange { value, min, max } => {
                format!("{}は範囲外です（{}から{}まで）", secs(*value), secs(*min), secs(*max))
            }
            Problem::HugeDuration { text, min, max } => {
                format!("{text}は範囲外です（{}から{}まで）", secs(*min), secs(*max))
            }
            Problem::Count { value, min, max } => format!("{value}は範囲外です（{min}から{max}までの整数）"),
            Problem::Twice(w) => format!("「{w}」が二度設定されています"),
            Problem::Duplicate(n) => format!("「{n}」が二度定義されています"),
            Problem::Undefined(n) => {
                format!(
                    "{{{n}}}にはまだ値がありません。最初に使うところで {{{n}=15s}} のように書いてください"
                )
            }
            Problem::Unknown(n) => format!("「{n}」はこのスクリプトで定義されていません"),
            Problem::NotForService(w) => format!("「{w}」は「service redlock」のときだけ使えます"),
            Problem::NotWith(w, service) => {
                let why = match (*w, *service) {
                    ("expiry off" | "acquire without expiry", _) => {
                        "Redlock のキーは必ず期限切れになります（SET NX PX）"
                    }
                    ("get" | "set", "redlock") => "Redlock は SET NX だけで過半数のサーバを取ります",
                    ("get" | "set", _) => {
                        "ワーカーはロックの列で順番を待ちます。書き込みで横取りはできません"
                    }
                    ("release plain", _) => "ワーカーは自分のキーだけを消してロックを返します",
                    ("lock-delay", _) => "Redis にはロック遅延がありません",
                    ("fencing on", _) => "Redlock の値はランダムで、書き込みに確かめる番号がありません",
                    _ => "Redlock の値はランダムで、登録する番号がありません",
                };
                format!("「{w}」は「service {service}」では使えません。{why}")
            }
            Problem::ReachWorker(n) => {
                format!("「reach」に書けるのは最初の3つのワーカーだけです（「{n}」は書けません）")
            }
            Problem::TooLong(n) => format!(
                "スクリプトが{n}文字あります。{}文字までです（{}文字多すぎます）",
                limits::CHARS,
                n.saturating_sub(limits::CHARS)
            ),
            Problem::TooManyWorkers => format!("ワーカーは{}台までです", limits::WORKERS),
            Problem::NoWorkers => {
                "ワーカーがいません。「A: acquire, write, release」のような行を加えてください".to_owned()
            }
            Problem::TooManySteps(w) => format!("{w} の手順が{}を超えています", limits::STEPS),
            Problem::TooManyNamed => format!("名前付きの値は{}つまでです", crate::sim::MAX_PARAMS),
            Problem::LongName => format!("名前は{}文字までです", limits::NAME),
            Problem::NoSwitch(n) => {
                format!(
                    "{{{n}? …}}にはスイッチが必要です。前の行に「switch {n} on」（か off）と書いてください"
                )
            }
            Problem::TooManySwitches => format!("名前付きのスイッチは{}つまでです", crate::sim::MAX_SWITCHES),
            Problem::TwoChoices(w) => {
                format!("{w} にはもう {{switch? …}} があります。一つのプログラムに一つまでです")
            }
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
    /// `?` after a switch's name at the start of a choice.
    Question,
    /// `,` or `|` in a choice's first part.
    CommaOrBar,
    /// `,` or `}` in a choice's second part.
    CommaOrClose,
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
            Expect::Question => "\"?\"".into(),
            Expect::CommaOrBar => "\",\" or \"|\"".into(),
            Expect::CommaOrClose => "\",\" or \"}\"".into(),
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
            Expect::Server => "サーバ（N1、N2、…）".into(),
            Expect::EqualsOrClose => "「=」か「}」".into(),
            Expect::Question => "「?」".into(),
            Expect::CommaOrBar => "「,」か「|」".into(),
            Expect::CommaOrClose => "「,」か「}」".into(),
            Expect::Close => "「}」".into(),
            Expect::Range => "「..」".into(),
            Expect::Worker => "ワーカーの名前（A、B、…）".into(),
            Expect::Colon => "「:」".into(),
            Expect::Word(w) => format!("「{w}」"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::script::parse;

    fn said(text: &str) -> (String, String) {
        let e = parse(text).unwrap_err();
        (e.en(), e.ja())
    }

    #[test]
    fn counts_are_said_as_counts_and_durations_as_durations() {
        let (en, ja) = said("service redlock, servers 200\nA: acquire");
        assert!(en.ends_with("200 is out of range: a whole number from 1 to 5"), "{en}");
        assert!(ja.ends_with("200は範囲外です（1から5までの整数）"), "{ja}");
        let (en, _) = said("service redlock, servers 0\nA: acquire");
        assert!(en.ends_with("0 is out of range: a whole number from 1 to 5"), "{en}");
        // A number too large for any integer is repeated as written, not as a duration.
        let (en, _) = said("first-token 18446744073709551616000\nA: acquire");
        assert!(
            en.ends_with("18446744073709551616000 is out of range: a whole number from 0 to 1000000000"),
            "{en}"
        );
        let (en, ja) = said("lease 601s\nA: acquire");
        // A lease has one range, said the same at either end.
        assert!(en.ends_with("601s is out of range: from 1ms to 600s"), "{en}");
        assert!(ja.ends_with("601sは範囲外です（1msから600sまで）"), "{ja}");
        // More digits than any duration: out of range as written, not "not a duration".
        let (en, ja) = said("lease 99999999999999999999s\nA: acquire");
        assert!(en.ends_with("column 7: 99999999999999999999s is out of range: from 1ms to 600s"), "{en}");
        assert!(ja.ends_with("99999999999999999999sは範囲外です（1msから600sまで）"), "{ja}");
        let (en, _) = said("A: acquire, pause 12345678901234ms");
        assert!(en.ends_with("12345678901234ms is out of range: from 0s to 600s"), "{en}");
        let (en, _) = said("A: acquire, pause 1234567890123x");
        assert!(en.contains("\"1234567890123x\" is not a duration"), "{en}");
        let (en, ja) = said("lease 0s\nA: acquire");
        assert!(en.ends_with("line 1, column 7: 0s is out of range: from 1ms to 600s"), "{en}");
        assert!(ja.ends_with("0sは範囲外です（1msから600sまで）"), "{ja}");
    }

    #[test]
    fn an_invisible_character_is_named_by_its_code_point() {
        for (c, name) in [
            ('\u{200b}', "U+200B (ZERO WIDTH SPACE)"),
            ('\u{202e}', "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
            ('\u{301}', "U+0301 (COMBINING ACUTE ACCENT)"),
            ('\u{0}', "U+0000 (NULL)"),
            ('\u{7}', "U+0007 (a control character)"),
        ] {
            let (en, ja) = said(&format!("A: acquire{c}"));
            assert_eq!(en, format!("line 1, column 11: unexpected character {name}"));
            assert!(ja.contains(&format!("使えない文字{name}があります")), "{ja}");
        }
        let (en, ja) = said("A: acquire @");
        assert!(en.ends_with("unexpected character \"@\"") && ja.contains("「@」"), "{en} {ja}");
    }
}
