//! What turns one drawing of a figure's part into the next in place: the attributes and texts that changed,
//! when the two have the same elements. A drag step mostly moves and stretches what is there (a band's
//! width, a label's x); setting those few values spares the browser parsing the part's markup again and
//! styling its new elements.
//!
//! Reads only the markup this crate writes (`figure::Svg`, [`super::html::Html`]): double-quoted
//! attribute values, text escaped by [`super::html::esc`], no comments, no whitespace between elements.

use std::fmt::Write;

/// The changes that turn markup `old` into `new`, for the page's JS (`patchPart` in app/page.js), or `None`
/// when they differ in more than attribute values and elements' texts (an element added, removed or
/// renamed, an attribute added or removed): then the part is drawn afresh. Unchanged markup gives no
/// changes.
///
/// Each change is the element's index among the part's elements in document order (the order of
/// `querySelectorAll("*")`), the attribute's name (empty for the element's text) and the value, separated
/// by U+0001 and ended by U+0002. A value that is escaped (`&amp;`, …) or holds a separator (a reader's
/// script may name things so) is left to a fresh drawing too: the JS would have to unescape it.
///
/// Both are read in step, cut at their quotes: the pieces between quotes are attribute values, the others
/// tags and texts. (No token lists: this runs in the page, where every kilobyte counts.)
pub fn patch(old: &str, new: &str) -> Option<String> {
    let (mut olds, mut news) = (old.split('"'), new.split('"'));
    let mut out = String::new();
    // Elements begun so far, the attribute that the next value is of, and whether the next piece is a value.
    let (mut els, mut attr, mut value) = (0usize, "", false);
    let mut push = |el: usize, name: &str, v: &str| {
        let plain = !v.bytes().any(|b| matches!(b, b'&' | 1 | 2));
        plain.then(|| {
            let _ = write!(out, "{el}\u{1}{name}\u{1}{v}\u{2}");
        })
    };
    loop {
        let (x, y) = match (olds.next(), news.next()) {
            (None, None) => return Some(out),
            (Some(x), Some(y)) => (x, y),
            _ => return None,
        };
        if value {
            if x != y {
                push(els.checked_sub(1)?, attr, y)?;
            }
        } else {
            if x != y {
                let (at, text) = text_change(x, y)?;
                push((els + starts(&y[..at])).checked_sub(1)?, "", text)?;
            }
            els += starts(y);
            attr = y.strip_suffix('=').map_or("", |y| &y[y.rfind(' ').map_or(0, |at| at + 1)..]);
        }
        value = !value;
    }
}

/// The number of start tags in `s`.
fn starts(s: &str) -> usize {
    s.as_bytes().windows(2).filter(|w| w[0] == b'<' && w[1] != b'/').count()
}

/// Where `y`'s text begins and the text, when `x` and `y` (the same stretch of two markups, outside
/// attribute values) differ only in the text that is an element's whole content: `…<text …>33</text>…`.
/// (Texts are escaped: neither holds `<` or `>`.)
fn text_change<'a>(x: &str, y: &'a str) -> Option<(usize, &'a str)> {
    let (xb, yb) = (x.as_bytes(), y.as_bytes());
    let same = xb.iter().zip(yb).take_while(|(a, b)| a == b).count();
    // The text runs from the end of the tag before it to the start of the tag after it.
    let from = yb[..same].iter().rposition(|&b| b == b'>')? + 1;
    let x_to = from + xb[from..].iter().position(|&b| b == b'<')?;
    let y_to = from + yb[from..].iter().position(|&b| b == b'<')?;
    // The tag before is a start tag: not `</…>` nor `<…/>` (one begun in an earlier stretch had attributes).
    let opened = !yb[..from].ends_with(b"/>")
        && yb[..from].iter().rposition(|&b| b == b'<').is_none_or(|at| yb[at + 1] != b'/');
    let closed = yb[y_to..].starts_with(b"</");
    (opened && closed && xb[x_to..] == yb[y_to..]).then(|| (from, &y[from..y_to]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::html::esc;

    #[derive(Debug, PartialEq)]
    enum Token<'a> {
        /// A start tag (`empty`: written `<name …/>`), its attributes as written (values still escaped).
        Start {
            name: &'a str,
            attrs: Vec<(&'a str, &'a str)>,
            empty: bool,
        },
        End(&'a str),
        Text(&'a str),
    }

    /// The markup's tokens, or `None` for markup this crate does not write.
    fn tokens(s: &str) -> Option<Vec<Token<'_>>> {
        let mut out = Vec::new();
        let mut rest = s;
        while !rest.is_empty() {
            if let Some(tag) = rest.strip_prefix('<') {
                let end = tag.find('>')?;
                let (inner, after) = (&tag[..end], &tag[end + 1..]);
                rest = after;
                if let Some(name) = inner.strip_prefix('/') {
                    out.push(Token::End(name));
                    continue;
                }
                let (inner, empty) = inner.strip_suffix('/').map_or((inner, false), |i| (i, true));
                let name_end = inner.find(' ').unwrap_or(inner.len());
                let (name, mut attrs_s) = (&inner[..name_end], &inner[name_end..]);
                let mut attrs = Vec::new();
                while let Some(a) = attrs_s.strip_prefix(' ') {
                    let stop = a.find([' ', '=']).unwrap_or(a.len());
                    let (attr, after) = (&a[..stop], &a[stop..]);
                    if let Some(v) = after.strip_prefix("=\"") {
                        let close = v.find('"')?;
                        attrs.push((attr, &v[..close]));
                        attrs_s = &v[close + 1..];
                    } else {
                        // A boolean attribute: the name alone.
                        attrs.push((attr, ""));
                        attrs_s = after;
                    }
                }
                if name.is_empty() || !attrs_s.is_empty() {
                    return None;
                }
                out.push(Token::Start { name, attrs, empty });
            } else {
                let end = rest.find('<').unwrap_or(rest.len());
                out.push(Token::Text(&rest[..end]));
                rest = &rest[end..];
            }
        }
        Some(out)
    }

    /// A change read back: (element, attribute or "" for its text, value).
    type Op = (usize, String, String);

    /// An element of a markup: (name, attributes, sole text).
    type Element = (String, Vec<(String, String)>, String);

    /// `patch`'s changes read back.
    fn ops(old: &str, new: &str) -> Option<Vec<Op>> {
        let ops = patch(old, new)?;
        let op = |op: &str| {
            let [el, name, value] = op.split('\u{1}').collect::<Vec<_>>()[..] else { panic!("{op:?}") };
            (el.parse().unwrap(), name.to_string(), value.to_string())
        };
        Some(ops.strip_suffix('\u{2}').map_or(vec![], |ops| ops.split('\u{2}').map(op).collect()))
    }

    fn op(el: usize, name: &str, value: &str) -> Op {
        (el, name.to_string(), value.to_string())
    }

    #[test]
    fn changed_values_become_changes_in_element_order() {
        let old = r#"<rect class="paused" x="14.0" width="144.0"/><g class="expiry"><line x1="110.0"/><text class="l" x="110.0">lease ends 10 s</text></g>"#;
        let new = r#"<rect class="paused" x="14.0" width="150.5"/><g class="expiry"><line x1="112.0"/><text class="l" x="110.0">lease ends 12 s</text></g>"#;
        assert_eq!(
            patch(old, new).as_deref(),
            Some("0\u{1}width\u{1}150.5\u{2}2\u{1}x1\u{1}112.0\u{2}3\u{1}\u{1}lease ends 12 s\u{2}")
        );
        assert_eq!(patch(new, new).as_deref(), Some(""));
        // An element's text, empty before or after, in any element of a stretch without attributes.
        assert_eq!(ops("<g><text></text></g>", "<g><text>A</text></g>"), Some(vec![op(1, "", "A")]));
        assert_eq!(ops("<text>A</text>", "<text></text>"), Some(vec![op(0, "", "")]));
    }

    #[test]
    fn a_different_shape_is_drawn_afresh() {
        let rect = r#"<rect class="paused" x="14.0"/>"#;
        // An element more, an element renamed, an attribute more.
        assert_eq!(patch(rect, &format!("{rect}{rect}")), None);
        assert_eq!(patch(rect, r#"<line class="paused" x="14.0"/>"#), None);
        assert_eq!(patch(rect, r#"<rect class="paused" x="14.0" y="2"/>"#), None);
        // A text beside an element is not the element's whole content.
        assert_eq!(patch("<g>A<rect/></g>", "<g>B<rect/></g>"), None);
        // Markup this crate does not write.
        assert_eq!(patch(rect, "<rect x='1'/>"), None);
        assert_eq!(patch(rect, "<rect x=\"1"), None);
    }

    #[test]
    fn an_escaped_value_or_one_that_holds_a_separator_is_drawn_afresh() {
        let label = |s: &str| format!(r#"<text aria-label="{}">{}</text>"#, esc(s), esc(s));
        assert_eq!(ops(&label("A"), &label("B")), Some(vec![op(0, "aria-label", "B"), op(0, "", "B")]));
        assert_eq!(patch(&label("A"), &label("A < B")), None);
        assert_eq!(patch(&label("A"), &label("A & B")), None);
        assert_eq!(patch(&label("A"), &label("A\u{2}B")), None);
        // Unchanged, an escaped value is no matter.
        assert_eq!(
            ops(r#"<text x="1">33 &lt; 34</text>"#, r#"<text x="2">33 &lt; 34</text>"#),
            Some(vec![op(0, "x", "2")])
        );
    }

    /// `old`'s elements in document order, with `ops` applied.
    fn applied(old: &str, ops: &[Op]) -> Vec<Element> {
        let mut els = Vec::new();
        let toks = tokens(old).unwrap();
        for (i, t) in toks.iter().enumerate() {
            if let Token::Start { name, attrs, .. } = t {
                let text = match toks.get(i + 1) {
                    Some(Token::Text(t)) => t.to_string(),
                    _ => String::new(),
                };
                let attrs: Vec<_> = attrs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
                els.push((name.to_string(), attrs, text));
            }
        }
        for (el, name, value) in ops {
            if name.is_empty() {
                els[*el].2 = value.clone();
            } else {
                els[*el].1.iter_mut().find(|(n, _)| n == name).unwrap().1 = value.clone();
            }
        }
        els
    }

    #[test]
    fn every_step_of_every_scenarios_drag_patches_to_what_a_fresh_drawing_says() {
        use crate::present::figure::{lane_parts, Layout};
        use crate::present::geom::MIN_AXIS;
        use crate::present::params::Lang;
        use crate::present::text::text;
        use crate::scenarios::ScenarioId;
        let t = text(Lang::Ja);
        let (mut patched, mut fresh) = (0, 0);
        for id in ScenarioId::ALL {
            let Some(key) = id.dragged() else { continue };
            let (lo, hi) = key.spec().range();
            let draw = |v: u64, p| {
                let mut i = id.defaults();
                key.spec().set(&mut i, v).unwrap();
                let run = crate::sim::run(&id.build(&i));
                lane_parts(&Layout::new(640.0, &run, MIN_AXIS), &run, p, None, t)
            };
            for p in [None, Some(6_000)] {
                let mut before = draw(lo, p);
                for v in (lo..=hi).step_by(((hi - lo) / 97).max(1) as usize) {
                    let after = draw(v, p);
                    for (old, new) in before.iter().zip(&after) {
                        match ops(old, new) {
                            Some(ps) => {
                                assert_eq!(
                                    applied(old, &ps),
                                    applied(new, &[]),
                                    "{id:?} at {v}:\n{old}\n{new}"
                                );
                                patched += usize::from(!ps.is_empty());
                            }
                            None => fresh += 1,
                        }
                    }
                    before = after;
                }
            }
        }
        // Most steps move what is there; some add or remove a mark.
        assert!(patched > 4 * fresh, "{patched} patched, {fresh} drawn afresh");
    }
}
