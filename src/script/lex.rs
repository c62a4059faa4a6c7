//! Splitting one line of a script into tokens, each with its column (in characters, from 1).

use super::error::{Error, Problem};

/// One token of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A word: a keyword, a worker's or a named value's name (`acquire`, `first-token`, `A`, `pause_start`).
    Word(String),
    /// A number, with the letters right after it (`15s`, `1.5s`, `500ms`, `33`).
    Num(String),
    /// `,` `:` `{` `}` `=`, or `..` (as `.`).
    Punct(char),
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned {
    /// The token.
    pub tok: Tok,
    /// Its column, from 1.
    pub col: usize,
}

/// The lines of `text`, ended by a line feed, a carriage return and line feed, or a carriage return alone
/// (an old Mac's files; a link made from one): each reads as the same line.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    let text = text.strip_suffix('\r').unwrap_or(text);
    text.split('\n').flat_map(|l| l.strip_suffix('\r').unwrap_or(l).split('\r')).filter(|_| !text.is_empty())
}

/// The tokens of `line` (number `n`), its comment left out.
pub fn tokens(line: &str, n: usize) -> Result<Vec<Spanned>, Error> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        let take = |i: &mut usize, ok: &dyn Fn(char) -> bool| {
            let start = *i;
            while *i < chars.len() && ok(chars[*i]) {
                *i += 1;
            }
            chars[start..*i].iter().collect::<String>()
        };
        match c {
            '#' => break,
            c if c.is_whitespace() => i += 1,
            ',' | ':' | '{' | '}' | '=' | '?' | '|' => {
                out.push(Spanned { tok: Tok::Punct(c), col });
                i += 1;
            }
            '.' if chars.get(i + 1) == Some(&'.') => {
                out.push(Spanned { tok: Tok::Punct('.'), col });
                i += 2;
            }
            c if c.is_ascii_digit() => {
                let mut text = take(&mut i, &|c| c.is_ascii_digit());
                // A decimal point only when a digit follows: `0s..30s` and `0..30` stay a range.
                if chars.get(i) == Some(&'.') && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
                    i += 1;
                    text.push('.');
                    text += &take(&mut i, &|c| c.is_ascii_digit());
                }
                // Its unit, and any digits past it: "1e3s" is told whole, not as "1e".
                text += &take(&mut i, &|c| c.is_ascii_alphanumeric());
                out.push(Spanned { tok: Tok::Num(text), col });
            }
            c if c.is_alphabetic() || c == '_' => {
                let word = take(&mut i, &|c| c.is_alphanumeric() || c == '_' || c == '-');
                out.push(Spanned { tok: Tok::Word(word), col });
            }
            other => return Err(Error { line: n, col, problem: Problem::Character(other) }),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::lines;

    #[test]
    fn line_ends_of_every_kind_read_alike() {
        let want = ["a", "", "b", "c"];
        for text in ["a\n\nb\nc", "a\r\n\r\nb\r\nc\r\n", "a\r\rb\rc\r", "a\n\r\nb\rc\n"] {
            assert_eq!(lines(text).collect::<Vec<_>>(), want, "{text:?}");
        }
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("one").collect::<Vec<_>>(), ["one"]);
    }
}
