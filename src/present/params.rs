//! Settings from outside: URL query parameters and `locksim` flags, parsed into [`Inputs`].
//!
//! One parser serves both. The page is lenient (a bad value falls back to the default and the page says so);
//! the command line is strict (a bad value is an error).

use crate::scenarios::{InputSpec, Inputs, Key, Kind, ScenarioId};

/// A language the page speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    En,
    /// Japanese, the language of the source document.
    Ja,
}

impl Lang {
    /// The BCP 47 tag, also the `lang` query value.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// The language for a tag such as `ja`, `ja-JP` or `en-GB`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "ja" => Some(Lang::Ja),
            _ => None,
        }
    }
}

/// Why a setting was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The value is not a whole number.
    NotANumber {
        /// The setting.
        key: String,
        /// What was given (cut short if long).
        value: String,
    },
    /// The number is outside the allowed range.
    OutOfRange {
        /// The setting.
        key: String,
        /// What was given.
        value: String,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// The value is not one of the allowed words.
    NotOneOf {
        /// The setting.
        key: String,
        /// What was given.
        value: String,
        /// The allowed words.
        allowed: Vec<&'static str>,
    },
    /// No such setting.
    UnknownKey(String),
    /// An input given beside a script, or to a script on screen: a script's values are in its text, so
    /// the input is not applied (and not kept for later).
    BesideScript(String),
    /// An input the scenario on screen does not read, sent by an embedding page: not applied (a link's is
    /// kept for the scenarios that read it, without a notice).
    Unused(String),
    /// The scenario has no such device: Redlock's fencing (the page shows the switch, unavailable).
    Unavailable {
        /// The setting.
        key: String,
        /// What was given.
        value: String,
        /// The scenario's id.
        scenario: &'static str,
    },
    /// A key the page reads, given more than once in a link: the last one is read, and this says with which
    /// value (a bad last value is reported as that, and the default used).
    Repeated {
        /// The setting.
        key: String,
        /// The value used: the last one given.
        value: String,
    },
}

/// Longest piece of a bad key or value a message repeats: a long value must not stretch the page.
const SHOWN: usize = 40;

/// `s` cut to [`SHOWN`] characters, with an ellipsis if it was longer.
pub fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(SHOWN).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

impl Problem {
    /// The setting the problem is about.
    pub fn key(&self) -> &str {
        match self {
            Problem::NotANumber { key, .. }
            | Problem::OutOfRange { key, .. }
            | Problem::NotOneOf { key, .. }
            | Problem::Unavailable { key, .. }
            | Problem::Repeated { key, .. }
            | Problem::UnknownKey(key)
            | Problem::Unused(key)
            | Problem::BesideScript(key) => key,
        }
    }

    /// The same problem with its value isolated (U+2068 … U+2069; an unknown key too), so that a
    /// right-to-left override inside it cannot reverse the sentence around it, wherever it is shown. Isolate
    /// marks inside the value are dropped first: a stray U+2069 must not end the isolation early.
    pub fn isolated(&self) -> Problem {
        let mut p = self.clone();
        let (Problem::NotANumber { value, .. }
        | Problem::OutOfRange { value, .. }
        | Problem::NotOneOf { value, .. }
        | Problem::Unavailable { value, .. }
        | Problem::Repeated { value, .. }
        | Problem::UnknownKey(value)
        | Problem::Unused(value)
        | Problem::BesideScript(value)) = &mut p;
        let inner: String = value.chars().filter(|c| !('\u{2066}'..='\u{2069}').contains(c)).collect();
        *value = format!("{FSI}{inner}{PDI}");
        p
    }

    fn not_one_of(key: &str, value: &str, allowed: &[&'static str]) -> Problem {
        Problem::NotOneOf { key: shorten(key), value: shorten(value), allowed: allowed.to_vec() }
    }
}

/// First strong isolate: opens a stretch of text laid out on its own.
pub const FSI: char = '\u{2068}';
/// Pop directional isolate: closes it.
pub const PDI: char = '\u{2069}';

/// Parses `value` for the input `spec`; on a problem nothing is set. Words are read without regard to case
/// or surrounding spaces, and every switch takes `on`/`off`, `true`/`false` and `1`/`0` alike (a time that may
/// be off, a leader crash, takes `on`/`true` as the switch's time and a number as a time), so a link and an
/// embedding host's message read the same.
fn parse_value(spec: &InputSpec, value: &str) -> Result<u64, Problem> {
    let key = spec.name;
    let v = value.trim().to_ascii_lowercase();
    let v = v.as_str();
    match spec.kind {
        Kind::Words(words) => {
            let on_off = words == ["off", "on"];
            match v {
                _ if v == words[0] => Ok(0),
                _ if v == words[1] => Ok(1),
                "0" | "false" if on_off => Ok(0),
                "1" | "true" if on_off => Ok(1),
                _ => Err(Problem::not_one_of(key, value, &words)),
            }
        }
        Kind::At { .. } if matches!(v, "off" | "false") => Ok(0),
        // "on" (an embedding host's `true`) is the time the page's switch sets.
        Kind::At { on, .. } if matches!(v, "on" | "true") => Ok(on),
        Kind::Ms { .. } | Kind::Count { .. } | Kind::At { .. } => {
            let (min, max) = spec.range();
            let digits = v.strip_prefix('-').unwrap_or(v);
            match v.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                // A negative or huge whole number is out of range, not "not a whole number".
                _ if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                    Err(Problem::OutOfRange { key: key.into(), value: shorten(value), min, max })
                }
                _ => Err(Problem::NotANumber { key: key.into(), value: shorten(value) }),
            }
        }
    }
}

/// Sets one input from its name (as in [`INPUTS`]; `pause-start` is `pause_start`) and text value. On a
/// problem `inputs` is left as it was.
pub fn set_input(inputs: &mut Inputs, key: &str, value: &str) -> Result<(), Problem> {
    let spec = Key::from_name(key).ok_or_else(|| Problem::UnknownKey(shorten(key)))?.spec();
    let v = parse_value(spec, value)?;
    // parse_value checked the range.
    let _ = spec.set(inputs, v);
    Ok(())
}

fn on_off(key: &str, value: &str) -> Result<bool, Problem> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "1" | "true" => Ok(true),
        "off" | "0" | "false" => Ok(false),
        _ => Err(Problem::not_one_of(key, value, &["on", "off"])),
    }
}

/// The language named by a `lang` value.
pub fn parse_lang(value: &str) -> Result<Lang, Problem> {
    Lang::from_tag(value).ok_or_else(|| Problem::not_one_of("lang", value, &["ja", "en"]))
}

/// The scenario named by a `scenario` value, in any case.
pub fn parse_scenario(value: &str) -> Result<ScenarioId, Problem> {
    ScenarioId::parse(&value.trim().to_ascii_lowercase())
        .ok_or_else(|| Problem::not_one_of("scenario", value, &ScenarioId::ids()))
}

/// A device the scenario does not have, asked for by a link or a message: Redlock's fencing turned on. The
/// page shows that switch unavailable; a request to turn it on is refused with a notice, not ignored.
pub fn unavailable(scenario: ScenarioId, key: &str, value: &str) -> Option<Problem> {
    let fencing = Key::Fencing.spec();
    let asks_on = key == fencing.name && parse_value(fencing, value) == Ok(1);
    (scenario == ScenarioId::Redlock && asks_on).then(|| Problem::Unavailable {
        key: fencing.name.into(),
        value: shorten(value),
        scenario: scenario.id(),
    })
}

/// At most this many problems are listed: a link with thousands of bad keys gets a short notice.
pub const MAX_PROBLEMS: usize = 8;

/// The page's state as a link carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The scenario.
    pub scenario: ScenarioId,
    /// The simulation inputs (the scenario's defaults where the link names none).
    pub inputs: Inputs,
    /// `lang`, if the link names one.
    pub lang: Option<Lang>,
    /// `embed=1`: only the widget.
    pub embed: bool,
    /// What was wrong with the link (at most [`MAX_PROBLEMS`]); each bad value fell back to its default.
    pub problems: Vec<Problem>,
    /// The inputs the link set (with a good value).
    pub given: Vec<Key>,
    /// A script the reader wrote (`script=`): when there is one, it is the scenario, and `scenario` and
    /// `inputs` are only where the page goes back to.
    pub script: Option<String>,
}

/// The longest script a query may carry, in bytes: the language's own limit is far lower and says so, with
/// the text's true length (the page's own states carry a pasted text whole, so the editor keeps it); this
/// only keeps a hostile link from filling the page's memory. The page never writes a link with a script
/// over the language's limit (`Lab::link`).
pub const MAX_SCRIPT_BYTES: usize = 1 << 20;

impl Query {
    /// The default state of `scenario`.
    pub fn new(scenario: ScenarioId) -> Query {
        Query {
            scenario,
            inputs: scenario.defaults(),
            lang: None,
            embed: false,
            problems: Vec::new(),
            given: Vec::new(),
            script: None,
        }
    }

    /// Reads decoded `key=value` pairs. Unknown keys and inputs the scenario does not use are ignored
    /// (links pick up tracking parameters); a bad value keeps the default and is reported.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(pairs: impl IntoIterator<Item = (K, V)>) -> Query {
        let pairs: Vec<(K, V)> = pairs.into_iter().collect();
        let mut problems = Vec::new();
        let has_script = pairs.iter().any(|(k, _)| k.as_ref() == "script");
        // The scenario first: its defaults are what the other inputs fall back to. (A script is the whole
        // scenario: a catalogue one beside it is not applied.)
        let scenario = pairs
            .iter()
            .rev()
            .find(|(k, _)| k.as_ref() == "scenario" && !has_script)
            .map_or(Ok(ScenarioId::GcPause), |(_, v)| parse_scenario(v.as_ref()))
            .unwrap_or_else(|p| {
                problems.push(p);
                ScenarioId::GcPause
            });
        let scenario_read = problems.is_empty();
        let mut q = Query { problems, ..Query::new(scenario) };
        // Whether each pair is its key's last, and which keys are given more than once (no hash map: the
        // first load's bytes).
        let (mut seen, mut twice): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
        let mut last: Vec<bool> = pairs
            .iter()
            .rev()
            .map(|(k, _)| {
                let first = !seen.contains(&k.as_ref());
                if first { &mut seen } else { &mut twice }.push(k.as_ref());
                first
            })
            .collect();
        last.reverse();
        for (i, (key, value)) in pairs.iter().enumerate() {
            let (key, value) = (key.as_ref(), value.as_ref());
            // A key given twice: the last one is the one used (as for `scenario`), so what the page opens
            // at and what its notice says are of the same value.
            if !last[i] {
                continue;
            }
            let result = match key {
                "scenario" if has_script => Err(Problem::BesideScript(key.to_owned())),
                "scenario" => Ok(()),
                "lang" => parse_lang(value).map(|l| q.lang = Some(l)),
                "embed" => on_off(key, value).map(|e| q.embed = e),
                "script" => {
                    let mut text = value.to_owned();
                    if text.len() > MAX_SCRIPT_BYTES {
                        let cut =
                            (0..=MAX_SCRIPT_BYTES).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                        text.truncate(cut);
                    }
                    q.script = Some(line_feeds(&text));
                    Ok(())
                }
                _ if has_script && Key::from_name(key).is_some_and(|k| k.spec().name == key) => {
                    Err(Problem::BesideScript(shorten(key)))
                }
                _ => match Key::from_name(key).filter(|&k| k.spec().name == key && scenario.uses(k)) {
                    Some(k) => set_input(&mut q.inputs, key, value).map(|()| q.given.push(k)),
                    None => unavailable(scenario, key, value).map_or(Ok(()), Err),
                },
            };
            // A key given more than once whose last value the page read: the notice says which value.
            let read = matches!(key, "lang" | "embed" | "script")
                || (key == "scenario" && scenario_read)
                || q.given.last().is_some_and(|k| k.spec().name == key);
            let problem = match result {
                Err(p) => Some(p),
                Ok(()) if read && twice.contains(&key) => {
                    Some(Problem::Repeated { key: shorten(key), value: shorten(value) })
                }
                Ok(()) => None,
            };
            if let Some(p) = problem.filter(|_| q.problems.len() < MAX_PROBLEMS) {
                q.problems.push(p);
            }
        }
        q
    }

    /// Reads a raw query string such as `?pause=15000&fencing=off` (percent-decoding it).
    pub fn parse(query: &str) -> Query {
        let query = query.strip_prefix('?').unwrap_or(query);
        let pairs = query.split('&').filter(|p| !p.is_empty()).map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        });
        Query::from_pairs(pairs)
    }

    /// The query string that reopens this state: the scenario, its inputs (the base timing only where it
    /// differs from the default), then `lang` and `embed`.
    pub fn to_query_string(&self) -> String {
        let defaults = self.scenario.defaults();
        let mut s = match &self.script {
            // A script is the whole scenario, its named values written in it.
            Some(text) => format!("?script={}", encode(text)),
            None => format!("?scenario={}", self.scenario.id()),
        };
        let inputs = if self.script.is_some() { &[][..] } else { self.scenario.keys() };
        let extras =
            self.scenario.extras().iter().filter(|k| k.spec().get(&self.inputs) != k.spec().get(&defaults));
        let extras = extras.filter(|_| self.script.is_none());
        for key in inputs.iter().chain(extras) {
            let spec = key.spec();
            s += &format!("&{}={}", spec.name, spec.text(&self.inputs));
        }
        if let Some(lang) = self.lang {
            s += "&lang=";
            s += lang.tag();
        }
        if self.embed {
            s += "&embed=1";
        }
        s
    }
}

/// `text` with every line ended by a line feed (a carriage return and line feed, or a carriage return
/// alone, as a text box would show them): a script's text as the editor holds it.
pub fn line_feeds(text: &str) -> String {
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text.to_owned()
    }
}

/// A query value, escaped only where a link must be: a script stays readable in the address bar (spaces as
/// `+`, a line break as `%0A`, letters of any language as the browser shows them).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            ' ' => out.push('+'),
            'a'..='z' | 'A'..='Z' | '0'..='9' => out.push(c),
            '-' | '_' | '.' | '~' | '!' | '$' | '\'' | '(' | ')' | '*' | ',' | ';' | ':' | '@' | '/'
            | '?' | '{' | '}' | '=' | '[' | ']' => out.push(c),
            c => {
                let mut bytes = [0; 4];
                for b in c.encode_utf8(&mut bytes).bytes() {
                    out.push('%');
                    out.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0').to_ascii_uppercase());
                    out.push(char::from_digit(u32::from(b & 15), 16).unwrap_or('0').to_ascii_uppercase());
                }
            }
        }
    }
    out
}

/// Percent-decoding of one query component (`+` is a space); a malformed escape is kept as it is.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let hex = |i: usize| bytes.get(i).and_then(|&b| (b as char).to_digit(16));
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b'+', ..) => {
                out.push(b' ');
                i += 1;
            }
            (b, ..) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_without_query() {
        let q = Query::parse("");
        assert_eq!((q.scenario, q.inputs), (ScenarioId::GcPause, Inputs::default()));
        assert!(q.problems.is_empty() && !q.embed && q.lang.is_none());
    }

    #[test]
    fn reads_the_three_inputs() {
        let q = Query::parse("?pause=15000&lease=off&fencing=off&lang=ja&embed=1");
        assert_eq!((q.inputs.pause, q.inputs.lease, q.inputs.fencing), (15_000, false, false));
        assert_eq!((q.lang, q.embed), (Some(Lang::Ja), true));
        assert!(q.problems.is_empty());
    }

    #[test]
    fn the_scenario_gives_the_defaults_whatever_the_order() {
        let q = Query::parse("?pause=2000&scenario=check-then-pause");
        assert_eq!((q.scenario, q.inputs.pause), (ScenarioId::CheckThenPause, 2_000));
        let q = Query::parse("?scenario=lock-delay");
        assert_eq!(q.inputs.pause, 15_000);
        let q = Query::parse("?scenario=base&pause=9");
        assert_eq!((q.scenario, q.inputs.pause), (ScenarioId::GcPause, 9));
    }

    #[test]
    fn an_unknown_scenario_falls_back_with_a_notice() {
        let q = Query::parse("?scenario=paxos&pause=15000");
        assert_eq!((q.scenario, q.inputs.pause), (ScenarioId::GcPause, 15_000));
        assert_eq!(q.problems.len(), 1);
        assert_eq!(q.problems[0].key(), "scenario");
    }

    #[test]
    fn inputs_a_scenario_does_not_use_are_ignored_without_a_notice() {
        let q = Query::parse("?scenario=crash&pause=banana&delay=5&fencing=off");
        assert!(q.problems.is_empty());
        assert_eq!(q.inputs, ScenarioId::Crash.defaults());
    }

    #[test]
    fn bad_values_fall_back_and_are_reported() {
        let q = Query::parse("?pause=banana&lease=maybe&fencing=on&lang=fr");
        assert_eq!(q.inputs, Inputs::default());
        let keys: Vec<_> = q.problems.iter().map(Problem::key).collect();
        assert_eq!(keys, ["pause", "lease", "lang"]);
        let q = Query::parse("?pause=30001");
        assert_eq!(q.inputs.pause, Inputs::default().pause);
        assert_eq!(
            q.problems[0],
            Problem::OutOfRange { key: "pause".into(), value: "30001".into(), min: 0, max: 30_000 }
        );
        // A whole number below zero or past u64 is out of range too; "1.5" and "-" are no whole numbers.
        for (value, whole) in [("-5", true), ("99999999999999999999999", true), ("1.5", false), ("-", false)]
        {
            let q = Query::parse(&format!("?pause={value}"));
            assert_eq!(q.inputs.pause, Inputs::default().pause, "{value}");
            assert_eq!(
                matches!(q.problems[..], [Problem::OutOfRange { .. }]),
                whole,
                "{value}: {:?}",
                q.problems
            );
            assert_eq!(
                matches!(q.problems[..], [Problem::NotANumber { .. }]),
                !whole,
                "{value}: {:?}",
                q.problems
            );
        }
    }

    #[test]
    fn long_values_are_cut_and_problems_capped() {
        let long = "9".repeat(2_000);
        let q = Query::parse(&format!("?pause={long}"));
        let Problem::OutOfRange { value, .. } = &q.problems[0] else { panic!("{:?}", q.problems) };
        assert_eq!(value.chars().count(), SHOWN + 1, "{value}");
        // Thousands of pairs (a key given twice is read once): every input of the scenario bad, and more.
        let id = ScenarioId::GcPause;
        let names = id.keys().iter().chain(id.extras()).map(|k| k.spec().name).chain(["lang", "embed"]);
        let mut many: String = (0..3_000).map(|i| format!("lease=x{i}&")).collect();
        many += &names.map(|n| format!("{n}=x&")).collect::<String>();
        assert_eq!(Query::parse(&many).problems.len(), MAX_PROBLEMS);
    }

    #[test]
    fn unknown_keys_are_ignored() {
        let q = Query::parse("?utm_source=x&pause=500");
        assert_eq!(q.inputs.pause, 500);
        assert!(q.problems.is_empty());
    }

    #[test]
    fn round_trips() {
        let q = Query::parse("?fencing=off&pause=10500&lang=en");
        assert_eq!(q.to_query_string(), "?scenario=gc-pause&pause=10500&lease=on&fencing=off&lang=en");
        assert_eq!(Query::parse(&q.to_query_string()).inputs, q.inputs);
        assert_eq!(q.given, [Key::Fencing, Key::Pause]);
    }

    #[test]
    fn a_script_round_trips_and_stays_readable_in_the_link() {
        let text =
            "# 三人のワーカー\nvalue pause 15s, range 0s..30s\nA: acquire, pause {pause}, write & release\n";
        let q =
            Query { script: Some(text.to_owned()), lang: Some(Lang::Ja), ..Query::new(ScenarioId::Crash) };
        let link = q.to_query_string();
        assert!(link.starts_with("?script=%23+%E4%B8%89"), "{link}");
        assert!(
            link.contains("value+pause+15s,+range+0s..30s%0AA:+acquire,+pause+{pause},+write+%26+release"),
            "{link}"
        );
        assert!(link.ends_with("&lang=ja") && !link.contains("scenario=") && !link.contains("lease="));
        let back = Query::parse(&link);
        assert_eq!(back.script.as_deref(), Some(text));
        assert!(back.problems.is_empty());
        // A hostile length is cut, at a character's edge.
        let long = "日".repeat(MAX_SCRIPT_BYTES);
        let cut =
            Query::parse(&Query { script: Some(long), ..Query::new(ScenarioId::GcPause) }.to_query_string());
        assert!(cut.script.unwrap().len() <= MAX_SCRIPT_BYTES);
    }

    #[test]
    fn every_input_of_every_scenario_round_trips() {
        for id in ScenarioId::ALL {
            let mut q = Query::new(id);
            // Every input at its largest value: a change from the default wherever one is possible.
            for key in id.keys().iter().chain(id.extras()) {
                let spec = key.spec();
                let (min, max) = spec.range();
                let v = if spec.get(&q.inputs) == max { min } else { max };
                spec.set(&mut q.inputs, v).unwrap();
            }
            let back = Query::parse(&q.to_query_string());
            assert_eq!((back.scenario, back.inputs), (q.scenario, q.inputs), "{}", q.to_query_string());
        }
        // A leader crash is a time or off; "on" is the time the page's switch sets.
        for (given, value, written) in
            [("off", 0, "off"), ("0", 0, "off"), ("7500", 7_500, "7500"), ("on", 5_000, "5000")]
        {
            let q = Query::parse(&format!("?scenario=etcd&leader_crash={given}"));
            assert_eq!((q.inputs.leader_crash, q.problems.len()), (value, 0), "{given}");
            assert!(
                q.to_query_string().contains(&format!("&leader_crash={written}&")),
                "{}",
                q.to_query_string()
            );
        }
        let bad = Query::parse("?scenario=etcd&leader_crash=maybe&jump=-1");
        assert_eq!((bad.inputs.leader_crash, bad.problems.len()), (0, 1));
        let q = Query::parse("?ttl=60000&pause=15000&first_token=7");
        assert_eq!(
            q.to_query_string(),
            "?scenario=gc-pause&pause=15000&lease=on&fencing=on&ttl=60000&first_token=7"
        );
    }

    #[test]
    fn words_read_alike_in_any_case_and_every_switch_takes_the_same_words() {
        // A leader crash: on, true and TRUE are the switch's time; off, false and OFF are off.
        for (given, value) in [
            ("on", 5_000),
            ("true", 5_000),
            ("TRUE", 5_000),
            (" On ", 5_000),
            ("off", 0),
            ("OFF", 0),
            ("false", 0),
            ("1", 1),
            ("7500", 7_500),
        ] {
            let q = Query::parse(&format!("?scenario=etcd&leader_crash={given}"));
            assert_eq!((q.inputs.leader_crash, q.problems.len()), (value, 0), "{given}");
        }
        // Every on/off switch: the same words, in any case.
        for (given, on) in [("ON", true), ("True", true), ("1", true), ("OFF", false), ("False", false)] {
            let q = Query::parse(&format!("?fencing={given}&lease={given}&embed={given}"));
            assert_eq!((q.inputs.fencing, q.inputs.lease, q.embed, q.problems.len()), (on, on, on, 0));
        }
        let q = Query::parse("?scenario=UNSAFE-Release&release=Compare&lang=JA");
        assert_eq!(
            (q.scenario, q.inputs.compare_release, q.lang),
            (ScenarioId::UnsafeRelease, true, Some(Lang::Ja))
        );
        assert!(q.problems.is_empty());
        assert_eq!(Query::parse("?scenario=Redlock").scenario, ScenarioId::Redlock);
        assert_eq!(Query::parse("?scenario=BASE").scenario, ScenarioId::GcPause);
        // The value a problem repeats is the one given, case and all.
        let q = Query::parse("?fencing=Maybe");
        assert_eq!(q.problems[0], Problem::not_one_of("fencing", "Maybe", &["off", "on"]));
    }

    #[test]
    fn fencing_asked_of_redlock_is_refused_with_a_notice() {
        for on in ["on", "ON", "true", "1"] {
            let q = Query::parse(&format!("?scenario=redlock&fencing={on}"));
            assert_eq!(q.problems.len(), 1, "{on}");
            assert!(
                matches!(&q.problems[0], Problem::Unavailable { key, scenario: "redlock", .. } if key == "fencing")
            );
            assert_eq!(q.inputs, ScenarioId::Redlock.defaults());
        }
        // Off is what Redlock has: nothing to say. Other scenarios that ignore an input stay silent.
        assert!(Query::parse("?scenario=redlock&fencing=off").problems.is_empty());
        assert!(Query::parse("?scenario=crash&fencing=on").problems.is_empty());
        assert_eq!(
            Query::parse("?scenario=redlock&fencing=on").problems,
            [Problem::Unavailable { key: "fencing".into(), value: "on".into(), scenario: "redlock" }]
        );
        assert_eq!(unavailable(ScenarioId::Redlock, "fencing", "off"), None);
        assert!(unavailable(ScenarioId::Redlock, "fencing", "on").is_some());
    }

    #[test]
    fn isolated_problems_wrap_the_value_not_the_sentence() {
        let q = Query::parse("?lease=%E2%80%AEno");
        let shown = q.problems[0].isolated();
        assert_eq!(shown, Problem::not_one_of("lease", "\u{2068}\u{202e}no\u{2069}", &["off", "on"]));
        // An isolate mark in the value cannot close the isolation early.
        let q = Query::parse("?lease=%E2%81%A9%E2%80%AEno");
        assert_eq!(q.problems[0].isolated(), shown);
    }

    #[test]
    fn a_script_with_carriage_returns_reads_as_lines() {
        let q = Query::parse("?script=lease+10s%0DA:+acquire%0D%0AB:+acquire%0D");
        assert_eq!(q.script.as_deref(), Some("lease 10s\nA: acquire\nB: acquire\n"));
    }

    #[test]
    fn a_value_beside_a_script_is_named_as_not_applied() {
        let q = Query::parse("?script=A:+acquire&pause=3000&utm_source=x");
        assert_eq!(q.problems, [Problem::BesideScript("pause".into())]);
        assert_eq!(q.inputs, Inputs::default());
    }

    #[test]
    fn a_scenario_beside_a_script_is_named_as_not_applied() {
        // The script is the whole scenario.
        let q = Query::parse("?scenario=redlock&script=A:+acquire&utm_source=x");
        assert_eq!(q.problems, [Problem::BesideScript("scenario".into())]);
        assert_eq!(q.scenario, ScenarioId::GcPause);
        // A tracking parameter is still passed over in silence, and so is a scenario with no script.
        assert!(Query::parse("?script=A:+acquire&utm_source=x").problems.is_empty());
        assert!(Query::parse("?scenario=redlock").problems.is_empty());
    }

    #[test]
    fn a_links_lease_goes_as_far_as_a_scripts() {
        assert_eq!(Key::Ttl.spec().range(), (1, crate::script::limits::DURATION));
        assert!(Query::parse("?ttl=600000").problems.is_empty());
        assert_eq!(Query::parse("?ttl=600001").problems.len(), 1);
    }

    #[test]
    fn a_key_given_twice_is_read_once_its_last_value() {
        // The notice names the value read: the last one, not the default.
        let q = Query::parse("?scenario=network-delay&delay=abc&delay=9000");
        assert_eq!(q.inputs.delay, 9_000);
        assert_eq!(q.problems, [Problem::Repeated { key: "delay".into(), value: "9000".into() }]);
        // A bad last value is reported as bad, and the default is what the page uses.
        let q = Query::parse("?scenario=network-delay&delay=9000&delay=abc");
        assert_eq!(q.inputs.delay, ScenarioId::NetworkDelay.defaults().delay);
        assert_eq!(q.problems, [Problem::NotANumber { key: "delay".into(), value: "abc".into() }]);
        // Every key the page reads, the scenario and the language too; keys it ignores are not reported.
        let q = Query::parse("?scenario=crash&scenario=etcd&lang=ja&lang=en&utm=1&utm=2&pause=1&pause=2");
        assert_eq!((q.scenario, q.inputs.pause, q.lang), (ScenarioId::Etcd, 2, Some(Lang::En)));
        let keys: Vec<&str> = q.problems.iter().map(Problem::key).collect();
        assert_eq!(keys, ["scenario", "lang", "pause"]);
        assert!(q.problems.iter().all(|p| matches!(p, Problem::Repeated { .. })));
        // A bad scenario given twice is reported once, as bad.
        let q = Query::parse("?scenario=crash&scenario=nope");
        assert!(matches!(&q.problems[..], [Problem::NotOneOf { .. }]), "{:?}", q.problems);
    }

    #[test]
    fn decodes_percent_and_plus() {
        assert_eq!(decode("a%20b+c"), "a b c");
        assert_eq!(decode("%"), "%");
        assert_eq!(decode("%4"), "%4");
        assert_eq!(decode("%zz"), "%zz");
        assert_eq!(decode("%E3%81%82"), "あ");
        assert_eq!(Query::parse("?pause=%31%30%30").inputs.pause, 100);
    }

    #[test]
    fn lang_tags() {
        assert_eq!(Lang::from_tag("ja-JP"), Some(Lang::Ja));
        assert_eq!(Lang::from_tag("EN-gb"), Some(Lang::En));
        assert_eq!(Lang::from_tag("fr"), None);
        assert_eq!(Lang::from_tag(""), None);
    }

    #[test]
    fn set_input_is_strict_and_atomic() {
        let mut inputs = Inputs::default();
        assert!(set_input(&mut inputs, "ttl", "0").is_err());
        assert!(set_input(&mut inputs, "nope", "1").is_err());
        assert!(set_input(&mut inputs, "release", "on").is_err());
        assert_eq!(inputs, Inputs::default());
        set_input(&mut inputs, "b-work", "2500").unwrap();
        set_input(&mut inputs, "release", "compare").unwrap();
        assert_eq!((inputs.b_work, inputs.compare_release), (2_500, true));
    }
}
