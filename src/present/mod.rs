//! The presentation: what a reader is told and shown about a run, as plain data and strings, in English and
//! Japanese. Built on the core, the catalogue and the language; the app, `locksim` and the real runs draw
//! from it.

pub mod breakit;
pub mod claims;
pub mod course;
// Native only: lock fences in a book (`mdbook-lock`).
#[cfg(not(target_arch = "wasm32"))]
pub mod fences;
pub mod figure;
pub mod geom;
pub mod history;
pub mod html;
pub mod json;
pub mod lesson;
pub mod markup;
pub mod pace;
pub mod page;
pub mod params;
pub mod program;
pub mod recordings;
// `locksim render`, the mdBook preprocessor and the Share panel's animated figure (in the page's second
// module: the first load never carries it).
pub mod render;
pub mod report;
pub mod scripted;

pub mod svg;
pub mod text;
pub mod told;
pub mod why;

/// The whitespace-separated words of `text`, each with the column (in characters, from 0) it starts at: for
/// messages that point at one word of a line (a course's `goal` and `scenario` lines, a book's fence), found
/// by place rather than by searching for its text, which a word repeated or inside another would mislead.
pub(crate) fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut word: Option<(usize, usize)> = None;
    for (col, (at, c)) in text.char_indices().chain([(text.len(), ' ')]).enumerate() {
        match (c.is_whitespace(), word) {
            (false, None) => word = Some((at, col)),
            (true, Some((from, start))) => {
                out.push((start, &text[from..at]));
                word = None;
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn words_carry_their_columns_in_characters() {
        assert_eq!(
            super::words("  reach\treach  番号 x"),
            [(2, "reach"), (8, "reach"), (15, "番号"), (18, "x")]
        );
        assert!(super::words(" \t ").is_empty());
    }
}
