//! Text made safe inside HTML or SVG markup: the one escape that the figure, the page's markup and the app
//! all use.

/// `s` with `&`, `<`, `>` and `"` escaped, safe as element text or a double-quoted attribute value.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
