//! A small JSON reader for the page's "Open a run": the run files of `locksim check --json` and `locksim real
//! --json`. serde_json's reader would bring its own code into the later module for this one file format;
//! this one reads any JSON text into a plain tree, refuses what is not JSON, and never recurses deeper than
//! [`MAX_DEPTH`], so no file can exhaust the stack.

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`
    Null,
    /// `true`, `false`
    Bool(bool),
    /// A number (as JSON's are: a double).
    Num(f64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object, its members in order.
    Obj(Vec<(String, Json)>),
}

/// The deepest nesting read.
pub const MAX_DEPTH: usize = 32;

impl Json {
    /// The member `name` of an object.
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Obj(members) => members.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A string's text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Num(n) => Some(*n),
            _ => None,
        }
    }

    /// A whole number that fits an `i64` exactly.
    pub fn as_i64(&self) -> Option<i64> {
        let n = self.as_f64()?;
        (n.fract() == 0.0 && n.abs() < 9.0e15).then_some(n as i64)
    }

    /// An array's items.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Arr(items) => Some(items),
            _ => None,
        }
    }

    /// An object's members.
    pub fn as_object(&self) -> Option<&[(String, Json)]> {
        match self {
            Json::Obj(members) => Some(members),
            _ => None,
        }
    }
}

/// The JSON text `text` as a value; `None` if it is not JSON (or nests deeper than [`MAX_DEPTH`]).
pub fn parse(text: &str) -> Option<Json> {
    let mut r = Reader { s: text.as_bytes(), at: 0 };
    let v = r.value(0)?;
    r.space();
    (r.at == r.s.len()).then_some(v)
}

/// A JSON number's value, by hand: exact for whole numbers up to 2^53, close for the rest (a run file's
/// scale, 0.1). std's float parser would bring its tables into the page's later module.
fn number(text: &[u8]) -> Option<f64> {
    let (negative, rest) = match text.split_first()? {
        (b'-', rest) => (true, rest),
        _ => (false, text),
    };
    fn split<'a>(s: &'a [u8], at: &[u8]) -> (&'a [u8], Option<&'a [u8]>) {
        match s.iter().position(|b| at.contains(b)) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        }
    }
    let (mantissa, exponent) = split(rest, b"eE");
    let (whole, fraction) = split(mantissa, b".");
    let digits = |d: &[u8]| -> Option<f64> {
        if d.is_empty() || d.len() > 18 || !d.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(d.iter().fold(0_u64, |n, b| n * 10 + u64::from(b - b'0')) as f64)
    };
    let mut value = digits(whole)?;
    if let Some(f) = fraction {
        value += digits(f)? / 10_f64.powi(i32::try_from(f.len()).ok()?);
    }
    if let Some(e) = exponent {
        let (sign, e) = match e.split_first()? {
            (b'-', e) => (-1, e),
            (b'+', e) => (1, e),
            _ => (1, e),
        };
        let e = digits(e).filter(|e| *e <= 300.0)? as i32;
        value *= 10_f64.powi(sign * e);
    }
    Some(if negative { -value } else { value }).filter(|v| v.is_finite())
}

struct Reader<'a> {
    s: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn space(&mut self) {
        while self.s.get(self.at).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &[u8]) -> bool {
        let found = self.s[self.at..].starts_with(word);
        if found {
            self.at += word.len();
        }
        found
    }

    fn value(&mut self, depth: usize) -> Option<Json> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.space();
        match *self.s.get(self.at)? {
            b'n' => self.eat(b"null").then_some(Json::Null),
            b't' => self.eat(b"true").then_some(Json::Bool(true)),
            b'f' => self.eat(b"false").then_some(Json::Bool(false)),
            b'"' => self.string().map(Json::Str),
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.eat(b"]") {
                    return Some(Json::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.space();
                    if self.eat(b"]") {
                        return Some(Json::Arr(items));
                    }
                    if !self.eat(b",") {
                        return None;
                    }
                }
            }
            b'{' => {
                self.at += 1;
                let mut members = Vec::new();
                self.space();
                if self.eat(b"}") {
                    return Some(Json::Obj(members));
                }
                loop {
                    self.space();
                    let key = self.string()?;
                    self.space();
                    if !self.eat(b":") {
                        return None;
                    }
                    members.push((key, self.value(depth + 1)?));
                    self.space();
                    if self.eat(b"}") {
                        return Some(Json::Obj(members));
                    }
                    if !self.eat(b",") {
                        return None;
                    }
                }
            }
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn number(&mut self) -> Option<Json> {
        let start = self.at;
        while self.s.get(self.at).is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        {
            self.at += 1;
        }
        number(&self.s[start..self.at]).map(Json::Num)
    }

    fn string(&mut self) -> Option<String> {
        if !self.eat(b"\"") {
            return None;
        }
        let mut out = String::new();
        loop {
            let start = self.at;
            while self.s.get(self.at).is_some_and(|&b| b != b'"' && b != b'\\' && b >= 0x20) {
                self.at += 1;
            }
            out.push_str(std::str::from_utf8(&self.s[start..self.at]).ok()?);
            match *self.s.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some(out);
                }
                b'\\' => {
                    let escape = *self.s.get(self.at + 1)?;
                    self.at += 2;
                    out.push(match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hex = |r: &mut Self| {
                                let h = std::str::from_utf8(r.s.get(r.at..r.at + 4)?).ok()?;
                                r.at += 4;
                                u32::from_str_radix(h, 16).ok()
                            };
                            let first = hex(self)?;
                            let code = if (0xD800..0xDC00).contains(&first) && self.eat(b"\\u") {
                                let low = hex(self)?;
                                0x10000 + ((first - 0xD800) << 10) + low.checked_sub(0xDC00)?
                            } else {
                                first
                            };
                            char::from_u32(code).unwrap_or('\u{FFFD}')
                        }
                        _ => return None,
                    });
                }
                // A control character inside a string.
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_json_and_refuses_what_is_not() {
        let v = parse(r#" {"a": [1, -2.5e1, true, null], "b": "x\"\u00e9\ud83d\ude00", "c": {}} "#).unwrap();
        assert_eq!(v.get("a").and_then(|a| a.as_array()).map(<[Json]>::len), Some(4));
        assert_eq!(v.get("a").unwrap().as_array().unwrap()[1], Json::Num(-25.0));
        assert_eq!(v.get("b").and_then(Json::as_str), Some("x\"é😀"));
        assert_eq!(v.get("c"), Some(&Json::Obj(Vec::new())));
        assert_eq!(
            parse("[0.1, 2, 1e3, -7, 12345678901234]"),
            Some(Json::Arr(vec![
                Json::Num(0.1),
                Json::Num(2.0),
                Json::Num(1000.0),
                Json::Num(-7.0),
                Json::Num(12345678901234.0),
            ]))
        );
        assert_eq!(parse("[1.]"), None);
        assert_eq!(parse("[-]"), None);
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "tru", "\"a", "1 2", "[\"\u{1}\"]", "{\"a\":1,}", "NaN"] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
        let deep = "[".repeat(MAX_DEPTH + 2) + &"]".repeat(MAX_DEPTH + 2);
        assert_eq!(parse(&deep), None);
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&ok).is_some());
    }
}
