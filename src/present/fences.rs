//! Lock fences in Markdown: a ```` ```lock ```` block holding a lock script becomes the lab's figure for that
//! run (its verdict and narration with it, [`render::html`]) and a link that opens the lab in the same
//! state (`?script=`). The mdBook preprocessor `mdbook-lock` runs this on every chapter; a script that does
//! not read is an error naming its line and column in the chapter.
//!
//! The fence's info string takes options after `lock`: `lang=ja`, `theme=dark`, `animate`, `width=720`.

use crate::present::params::{encode, Lang};
use crate::present::render::{self, Drawn, Options, Theme};
use crate::script;

/// What a whole book sets (`[preprocessor.lock]` in `book.toml`).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The lab's address: the link is this with `?script=…` (`lab-url`). No link without it.
    pub lab_url: Option<String>,
    /// The figure's width unless a fence says (`width`): a book's text column.
    pub width: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { lab_url: None, width: WIDTH }
    }
}

/// A figure's width in a book unless told: mdBook's text column (750 px), where the wide layout still fits.
pub const WIDTH: f64 = 750.0;

/// What is wrong with a fence, and where in the chapter: its line and column from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenceError {
    /// The line in the chapter.
    pub line: usize,
    /// The column in the chapter (0: the whole line).
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// A short stable name for `key` (a chapter's path): figures' ids stay unique when a book prints every
/// chapter on one page.
fn short_hash(key: &str) -> String {
    let h =
        key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    format!("{:08x}", h & 0xffff_ffff)
}

/// `content` (a chapter's Markdown) with each lock fence replaced by its figure; `key` (the chapter's path)
/// names the figures' ids. The first fence that does not read is the error.
pub fn chapter(content: &str, key: &str, settings: &Settings) -> Result<String, FenceError> {
    let mut out = String::with_capacity(content.len());
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let mut i = 0;
    let mut n = 0;
    while i < lines.len() {
        let line = lines[i];
        let Some(fence) = Fence::open(line) else {
            out.push_str(line);
            i += 1;
            continue;
        };
        // The script: every line up to the closing fence (or the end), less the fence's indentation.
        let mut body = String::new();
        let mut j = i + 1;
        while j < lines.len() && !fence.closes(lines[j]) {
            body.push_str(strip_indent(lines[j], fence.indent));
            j += 1;
        }
        // The info string's first word names the language (CommonMark), whatever blank follows it.
        if fence.info.split_whitespace().next() != Some("lock") {
            // Another fence: kept as it is, closing line too.
            for l in &lines[i..(j + 1).min(lines.len())] {
                out.push_str(l);
            }
            i = j + 1;
            continue;
        }
        n += 1;
        let at = |col: usize, message: String| FenceError { line: i + 1, col, message };
        let mut o = Options {
            width: settings.width,
            id: format!("lock-{}-{n}", short_hash(key)),
            ..Options::default()
        };
        // Each option at its own place in the line (the info string is the line's from its `lock` on).
        let info_col = line.find(fence.info).map_or(0, |c| line[..c].chars().count());
        let mut seen: Vec<&str> = Vec::new();
        for (place, opt) in super::words(fence.info).into_iter().skip(1) {
            let (name, value) = opt.split_once('=').unwrap_or((opt, ""));
            let col = info_col + place + 1;
            if seen.contains(&name) {
                return Err(at(col, format!("\"{name}\" is given twice")));
            }
            seen.push(name);
            match (name, value) {
                ("lang", v) => {
                    o.lang = Lang::from_tag(v).ok_or_else(|| at(col, format!("lang={v}: en or ja")))?
                }
                ("theme", v) => {
                    o.theme = Theme::parse(v).ok_or_else(|| at(col, format!("theme={v}: light or dark")))?
                }
                ("animate", "") => o.animate = true,
                ("width", v) => {
                    let w = v.parse::<u32>().ok().filter(|w| (280..=4_000).contains(w));
                    o.width = f64::from(w.ok_or_else(|| at(col, format!("width={v}: 280 to 4000 px")))?);
                }
                _ => {
                    return Err(at(
                        col,
                        format!("unknown option \"{opt}\" (lang=en|ja, theme=light|dark, animate, width=PX)"),
                    ))
                }
            }
        }
        let sc = script::parse(&body).map_err(|e| {
            let message = if o.lang == Lang::Ja { e.problem.ja() } else { e.problem.en() };
            // The script's first line is the chapter's line after the fence.
            match e.line {
                0 => FenceError { line: i + 1, col: 0, message },
                l => FenceError {
                    line: i + 1 + l,
                    // Less indented than the fence, a line lost fewer spaces than its indentation.
                    col: match lines.get(i + l) {
                        Some(line) if e.col > 0 => {
                            e.col + line.len() - strip_indent(line, fence.indent).len()
                        }
                        _ => 0,
                    },
                    message,
                },
            }
        })?;
        let link = settings.lab_url.as_deref().map(|base| {
            let sep = if base.contains('?') { '&' } else { '?' };
            format!("{base}{sep}script={}&lang={}", encode(body.trim_end()), o.lang.tag())
        });
        // An HTML block of its own: a blank line before and after, none inside.
        out.push('\n');
        out.push_str(&render::html(Drawn::Script(&sc), &o, link.as_deref()));
        out.push_str("\n\n");
        i = j + 1;
    }
    Ok(out)
}

/// An opening code fence: its character, length, indentation and info string.
struct Fence<'a> {
    ch: char,
    len: usize,
    indent: usize,
    info: &'a str,
}

impl<'a> Fence<'a> {
    fn open(line: &'a str) -> Option<Fence<'a>> {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent > 3 {
            return None;
        }
        let rest = &line[indent..];
        let ch = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
        let len = rest.len() - rest.trim_start_matches(ch).len();
        if len < 3 {
            return None;
        }
        let info = rest[len..].trim();
        if ch == '`' && info.contains('`') {
            return None;
        }
        Some(Fence { ch, len, indent, info })
    }

    fn closes(&self, line: &str) -> bool {
        let t = line.trim_start_matches(' ');
        if line.len() - t.len() > 3 {
            return false;
        }
        let run = t.len() - t.trim_start_matches(self.ch).len();
        run >= self.len && t[run..].trim().is_empty()
    }
}

/// `line` less up to `indent` leading spaces (CommonMark's rule for a fence's content).
fn strip_indent(line: &str, indent: usize) -> &str {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    &line[spaces.min(indent)..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_fences_and_text_stay_as_they_are() {
        let md = "# Title\n\n```rust\nfn main() {}\n```\n\n~~~\nlock\n~~~\n";
        assert_eq!(chapter(md, "a.md", &Settings::default()).unwrap(), md);
    }

    #[test]
    fn a_fence_closes_only_with_as_long_a_run() {
        let f = Fence::open("````lock lang=ja\n").unwrap();
        assert_eq!((f.ch, f.len, f.info), ('`', 4, "lock lang=ja"));
        assert!(!f.closes("```\n") && f.closes("````\n") && f.closes("  `````  \n"));
        assert!(Fence::open("    ```lock\n").is_none());
    }
}
