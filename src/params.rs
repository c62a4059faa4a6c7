//! Settings from outside: URL query parameters and `locksim` flags, parsed into [`Inputs`].
//!
//! One parser serves both. The page is lenient (a bad value falls back to the default and the page says so);
//! the command line is strict (a bad value is an error).

use std::fmt;

use crate::sim::{Inputs, Ms, MAX_PAUSE};

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

/// The scenarios a link can name. Only the base scenario of SPEC.md exists so far.
pub const SCENARIOS: [&str; 1] = ["base"];

/// Why a setting was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The value is not a whole number.
    NotANumber {
        /// The setting.
        key: String,
        /// What was given.
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
        allowed: &'static [&'static str],
    },
    /// No such setting.
    UnknownKey(String),
}

impl Problem {
    /// The setting the problem is about.
    pub fn key(&self) -> &str {
        match self {
            Problem::NotANumber { key, .. }
            | Problem::OutOfRange { key, .. }
            | Problem::NotOneOf { key, .. }
            | Problem::UnknownKey(key) => key,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotANumber { key, value } => write!(f, "{key}=\"{value}\" is not a whole number"),
            Problem::OutOfRange { key, value, min, max } => {
                write!(f, "{key}=\"{value}\" is outside {min}..{max}")
            }
            Problem::NotOneOf { key, value, allowed } => {
                write!(f, "{key}=\"{value}\" is not one of {}", allowed.join(", "))
            }
            Problem::UnknownKey(key) => write!(f, "unknown setting \"{key}\""),
        }
    }
}

/// The largest value each numeric input takes: enough for every lesson, small enough to draw.
fn range(key: &str) -> Option<(u64, u64)> {
    Some(match key {
        "pause" | "pause_start" | "b_request" | "b_work" => (0, MAX_PAUSE),
        "ttl" => (1, 60_000),
        "first_token" => (0, 1_000_000_000),
        _ => return None,
    })
}

fn number(key: &str, value: &str) -> Result<u64, Problem> {
    let (min, max) = range(key).expect("numeric key");
    let n: u64 =
        value.trim().parse().map_err(|_| Problem::NotANumber { key: key.into(), value: value.into() })?;
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(Problem::OutOfRange { key: key.into(), value: value.into(), min, max })
    }
}

fn on_off(key: &str, value: &str) -> Result<bool, Problem> {
    match value.trim() {
        "on" | "1" | "true" => Ok(true),
        "off" | "0" | "false" => Ok(false),
        _ => Err(Problem::NotOneOf { key: key.into(), value: value.into(), allowed: &["on", "off"] }),
    }
}

/// Sets one simulation input from its name (`pause`, `lease`, `fencing`, `ttl`, `pause_start`, `b_request`,
/// `b_work`, `first_token`) and text value. On a problem `inputs` is left as it was.
pub fn set_input(inputs: &mut Inputs, key: &str, value: &str) -> Result<(), Problem> {
    let ms = |v: &str| -> Result<Ms, Problem> { number(key, v) };
    match key {
        "pause" => inputs.pause = ms(value)?,
        "lease" => inputs.lease = on_off(key, value)?,
        "fencing" => inputs.fencing = on_off(key, value)?,
        "ttl" => inputs.ttl = ms(value)?,
        "pause_start" => inputs.pause_start = ms(value)?,
        "b_request" => inputs.b_request = ms(value)?,
        "b_work" => inputs.b_work = ms(value)?,
        "first_token" => inputs.first_token = number(key, value)?,
        _ => return Err(Problem::UnknownKey(key.into())),
    }
    Ok(())
}

/// The page's state as a link carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The simulation inputs.
    pub inputs: Inputs,
    /// `lang`, if the link names one.
    pub lang: Option<Lang>,
    /// `embed=1`: only the widget.
    pub embed: bool,
    /// What was wrong with the link; each bad value fell back to its default.
    pub problems: Vec<Problem>,
}

impl Query {
    /// Reads decoded `key=value` pairs. Unknown keys are ignored (links pick up tracking parameters);
    /// a bad value keeps the default and is reported.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(pairs: impl IntoIterator<Item = (K, V)>) -> Query {
        let mut q = Query { inputs: Inputs::default(), lang: None, embed: false, problems: Vec::new() };
        for (key, value) in pairs {
            let (key, value) = (key.as_ref(), value.as_ref());
            let result =
                match key {
                    "lang" => Lang::from_tag(value).map(|l| q.lang = Some(l)).ok_or_else(|| {
                        Problem::NotOneOf { key: key.into(), value: value.into(), allowed: &["ja", "en"] }
                    }),
                    "embed" => on_off(key, value).map(|e| q.embed = e),
                    "scenario" if SCENARIOS.contains(&value.trim()) => Ok(()),
                    "scenario" => {
                        Err(Problem::NotOneOf { key: key.into(), value: value.into(), allowed: &SCENARIOS })
                    }
                    _ => match set_input(&mut q.inputs, key, value) {
                        Err(Problem::UnknownKey(_)) => Ok(()),
                        other => other,
                    },
                };
            q.problems.extend(result.err());
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

    /// The query string that reopens this state: the three inputs the page exposes, then `lang` and `embed`.
    pub fn to_query_string(&self) -> String {
        let on = |b: bool| if b { "on" } else { "off" };
        let mut s = format!(
            "?pause={}&lease={}&fencing={}",
            self.inputs.pause,
            on(self.inputs.lease),
            on(self.inputs.fencing)
        );
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
        assert_eq!(q.inputs, Inputs::default());
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
    fn bad_values_fall_back_and_are_reported() {
        let q = Query::parse("?pause=banana&lease=maybe&fencing=on&lang=fr");
        assert_eq!(q.inputs, Inputs::default());
        let keys: Vec<_> = q.problems.iter().map(Problem::key).collect();
        assert_eq!(keys, ["pause", "lease", "lang"]);
        let q = Query::parse("?pause=30001");
        assert_eq!(q.inputs.pause, Inputs::default().pause);
        assert_eq!(q.problems[0].to_string(), "pause=\"30001\" is outside 0..30000");
        let q = Query::parse("?pause=-5");
        assert!(matches!(q.problems[0], Problem::NotANumber { .. }));
        let q = Query::parse("?pause=99999999999999999999999");
        assert_eq!(q.problems.len(), 1);
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
        assert_eq!(q.to_query_string(), "?pause=10500&lease=on&fencing=off&lang=en");
        assert_eq!(Query::parse(&q.to_query_string()), q);
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
        assert_eq!(inputs, Inputs::default());
        set_input(&mut inputs, "b_work", "2500").unwrap();
        assert_eq!(inputs.b_work, 2_500);
    }
}
