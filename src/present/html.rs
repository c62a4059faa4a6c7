//! Markup built so that it escapes by construction: [`Html`] writes elements whose attribute values and
//! text go through [`esc`] on the way in, so nothing a reader, a link or a translation supplies can become
//! markup. The figure's SVG has its own model (`svg::El`), written out with the same escaping.

/// `s` with `&`, `<`, `>` and `"` escaped, safe as element text or a double-quoted attribute value.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Markup under construction.
#[derive(Default)]
pub struct Html(String);

/// An element's attributes: `(name, value)`, the value escaped; an empty value writes the name alone (a
/// boolean attribute such as `checked`), an empty name leaves the pair out (an attribute not wanted here).
pub type Attrs<'a> = &'a [(&'static str, &'a str)];

impl Html {
    /// `<tag attrs>`: what follows until [`Html::close`] is its content.
    pub fn open(&mut self, tag: &'static str, attrs: Attrs) -> &mut Html {
        self.start(tag, attrs);
        self
    }

    /// `</tag>`.
    pub fn close(&mut self, tag: &'static str) -> &mut Html {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
        self
    }

    /// `<tag attrs>text</tag>`.
    pub fn text_el(&mut self, tag: &'static str, attrs: Attrs, text: &str) -> &mut Html {
        self.open(tag, attrs).text(text).close(tag)
    }

    /// An element with no content and no end tag (`input`), or an empty SVG element (`<line …/>`).
    pub fn void(&mut self, tag: &'static str, attrs: Attrs) -> &mut Html {
        self.start(tag, attrs);
        if matches!(tag, "line" | "rect" | "path") {
            self.0.insert(self.0.len() - 1, '/');
        }
        self
    }

    fn start(&mut self, tag: &'static str, attrs: Attrs) {
        self.0.push('<');
        self.0.push_str(tag);
        for &(name, value) in attrs.iter().filter(|(n, _)| !n.is_empty()) {
            self.0.push(' ');
            self.0.push_str(name);
            if !value.is_empty() {
                self.0.push_str("=\"");
                self.0.push_str(&esc(value));
                self.0.push('"');
            }
        }
        self.0.push('>');
    }

    /// Text, escaped.
    pub fn text(&mut self, s: &str) -> &mut Html {
        self.0.push_str(&esc(s));
        self
    }

    /// Markup that another builder of this crate made (the figure's SVG): already escaped.
    pub fn built(&mut self, markup: &str) -> &mut Html {
        self.0.push_str(markup);
        self
    }

    /// The markup.
    pub fn finish(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attribute_values_are_escaped_by_construction() {
        let mut h = Html::default();
        h.open("p", &[("title", r#"a "quote" & <b>"#), ("hidden", ""), ("", "left out")])
            .text("<script>")
            .close("p");
        h.void("input", &[("value", "<x>")]);
        h.void("line", &[("x1", "1")]);
        assert_eq!(
            h.finish(),
            r#"<p title="a &quot;quote&quot; &amp; &lt;b&gt;" hidden>&lt;script&gt;</p><input value="&lt;x&gt;"><line x1="1"/>"#
        );
    }
}
