//! Writes the page as a reader first sees it into a built `index.html`: the body becomes
//! `present::page::main` at the page's own starting state, drawn by the functions the app draws with. Run by
//! Trunk's post-build hook on the staging directory's `index.html` (Trunk.toml), so the figure is there
//! before the first byte of WebAssembly, and without JavaScript at all.
//!
//! `prerender FILE` rewrites FILE in place; `prerender -` prints the body to standard output.

use std::process::ExitCode;

use fencing_lab::present::page::{main as page, First};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: prerender FILE (an index.html to write the page into) | prerender - (print it)");
        return ExitCode::from(2);
    };
    let body = page(&First::page());
    if path == "-" {
        println!("{body}");
        return ExitCode::SUCCESS;
    }
    let html = match std::fs::read_to_string(&path) {
        Ok(html) => html,
        Err(e) => {
            eprintln!("prerender: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(html) = with_body(&html, &body) else {
        eprintln!("prerender: {path} has no <body>");
        return ExitCode::FAILURE;
    };
    if let Err(e) = std::fs::write(&path, html) {
        eprintln!("prerender: {path}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// `html` with the content of its `<body>` replaced by `body` (a minified page may leave `</body>` out).
fn with_body(html: &str, body: &str) -> Option<String> {
    let open = html.find("<body")?;
    let start = open + html[open..].find('>')? + 1;
    let end = html[start..].find("</body>").map_or(html.len(), |e| start + e);
    Some(format!("{}{body}{}", &html[..start], &html[end..]))
}

#[cfg(test)]
mod tests {
    use super::with_body;

    #[test]
    fn the_body_is_replaced_whatever_the_minifier_left() {
        assert_eq!(
            with_body("<html><body class=x><p>old</p></body></html>", "NEW").unwrap(),
            "<html><body class=x>NEW</body></html>"
        );
        assert_eq!(with_body("<html><body><p>old", "NEW").unwrap(), "<html><body>NEW");
        assert_eq!(with_body("<html><p>no body", "NEW"), None);
    }
}
