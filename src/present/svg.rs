//! A figure's SVG as data: elements with their attributes and texts, written out as markup by one function
//! (for the built page, `locksim render` and a part drawn afresh) and compared by another, so that a drag's
//! step sets only the values that moved and nothing reads markup back.

use crate::present::html::esc;

/// One element: its tag, its attributes in the order written, its text or its children (not both). Values and
/// texts are kept unescaped: writing escapes them, and a change sets them as they are.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct El {
    /// Its tag.
    pub tag: &'static str,
    /// Its attributes, `(name, value)`, in the order written.
    pub attrs: Vec<(&'static str, String)>,
    /// Its text.
    pub text: String,
    /// Its children.
    pub kids: Vec<El>,
}

impl El {
    /// An element without text or children.
    pub fn new(tag: &'static str, attrs: Vec<(&'static str, String)>) -> El {
        El { tag, attrs, ..El::default() }
    }

    /// The value of attribute `name`, if it has one.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|a| a.0 == name).map(|a| a.1.as_str())
    }

    /// Appends its markup to `out`. A `text` or a `g` is closed by its end tag, any other element closes
    /// itself.
    pub fn write(&self, out: &mut String) {
        out.push('<');
        out.push_str(self.tag);
        for (name, value) in &self.attrs {
            out.push(' ');
            out.push_str(name);
            out.push_str("=\"");
            out.push_str(&esc(value));
            out.push('"');
        }
        if !matches!(self.tag, "text" | "g") {
            out.push_str("/>");
            return;
        }
        out.push('>');
        out.push_str(&esc(&self.text));
        for kid in &self.kids {
            kid.write(out);
        }
        out.push_str("</");
        out.push_str(self.tag);
        out.push('>');
    }
}

/// The markup of `els`, one after another.
pub fn markup(els: &[El]) -> String {
    let mut out = String::new();
    els.iter().for_each(|el| el.write(&mut out));
    out
}

/// A value to set: the element's index among the part's elements in document order (as
/// `querySelectorAll('*')` lists them under the part), the attribute's name (`""`: the element's text), and
/// the value.
pub type Change = (usize, &'static str, String);

/// The changes that bring elements `old` to `new`, or `None` when more than values changed (an element or
/// an attribute came, went or was renamed): the part is then drawn afresh.
pub fn changes(old: &[El], new: &[El]) -> Option<Vec<Change>> {
    let mut out = Vec::new();
    let mut at = 0;
    compare(old, new, &mut at, &mut out).then_some(out)
}

/// Adds to `out` the changes from `old` to `new`, numbering elements from `at`; whether only values changed.
fn compare(old: &[El], new: &[El], at: &mut usize, out: &mut Vec<Change>) -> bool {
    if old.len() != new.len() {
        return false;
    }
    for (a, b) in old.iter().zip(new) {
        if a.tag != b.tag || a.attrs.len() != b.attrs.len() {
            return false;
        }
        for ((name, x), (same, y)) in a.attrs.iter().zip(&b.attrs) {
            if name != same {
                return false;
            }
            if x != y {
                out.push((*at, name, y.clone()));
            }
        }
        if a.text != b.text {
            out.push((*at, "", b.text.clone()));
        }
        *at += 1;
        if !compare(&a.kids, &b.kids, at, out) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: &str) -> El {
        El::new("rect", vec![("class", "paused".into()), ("x", x.into())])
    }

    fn text(x: &str, s: &str) -> El {
        El { text: s.into(), ..El::new("text", vec![("x", x.into())]) }
    }

    fn group(kids: Vec<El>) -> El {
        El { kids, ..El::new("g", vec![("class", "expiry".into())]) }
    }

    #[test]
    fn markup_escapes_values_and_texts_and_closes_by_tag() {
        let els = [rect("1.0"), group(vec![text("2.0", "33 < 34 & \"x\"")])];
        assert_eq!(
            markup(&els),
            r#"<rect class="paused" x="1.0"/><g class="expiry"><text x="2.0">33 &lt; 34 &amp; &quot;x&quot;</text></g>"#
        );
        assert_eq!(markup(&[group(vec![])]), r#"<g class="expiry"></g>"#);
    }

    #[test]
    fn changes_are_the_values_and_texts_that_moved_numbered_in_document_order() {
        let old = [rect("1.0"), group(vec![rect("2.0"), text("3.0", "lease ends 10 s")])];
        let new = [rect("1.0"), group(vec![rect("2.5"), text("3.0", "lease ends 12 s < 13")])];
        assert_eq!(
            changes(&old, &new),
            Some(vec![(2, "x", "2.5".into()), (3, "", "lease ends 12 s < 13".into())])
        );
        assert_eq!(changes(&new, &new), Some(vec![]));
        assert_eq!(changes(&[text("1", "")], &[text("1", "A")]), Some(vec![(0, "", "A".into())]));
    }

    #[test]
    fn a_changed_shape_has_no_changes() {
        let r = rect("1.0");
        let one = std::slice::from_ref(&r);
        // An element more or fewer, at the top or inside a group.
        assert_eq!(changes(one, &[r.clone(), r.clone()]), None);
        assert_eq!(changes(&[group(vec![r.clone()])], &[group(vec![])]), None);
        // An element renamed, an attribute more, an attribute renamed.
        assert_eq!(changes(one, &[El { tag: "line", ..r.clone() }]), None);
        let mut more = r.clone();
        more.attrs.push(("y", "2".into()));
        assert_eq!(changes(one, &[more]), None);
        let mut renamed = r.clone();
        renamed.attrs[1].0 = "cx";
        assert_eq!(changes(one, &[renamed]), None);
    }
}
