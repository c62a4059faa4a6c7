//! `mdbook-lock`: an mdBook preprocessor. A ```` ```lock ```` fence holding a lock script becomes the lab's
//! figure for that run, its verdict and narration, and an "Open in the lab" link to the same script
//! (`fencing_lab::present::fences`). A script that does not read fails the book's build, naming the
//! chapter, the line and the column.
//!
//! In `book.toml`:
//!
//! ```toml
//! [preprocessor.lock]
//! lab-url = "https://example.org/fencing-lab/"   # the link's base; no link without it
//! width = 750                                    # the figures' width in px (optional)
//! ```
//!
//! mdBook runs `mdbook-lock supports RENDERER` (every renderer is fine: the figure is HTML, which Markdown
//! carries), then `mdbook-lock` with the book as JSON on standard input, and reads the book back from
//! standard output.

use std::process::ExitCode;

/// The browser build compiles this binary only to check it; it has no command line.
#[cfg(target_arch = "wasm32")]
fn main() -> ExitCode {
    ExitCode::from(2)
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    native::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::process::ExitCode;

    use fencing_lab::present::fences::{self, Settings};
    use mdbook_preprocessor::book::{Book, BookItem};
    use mdbook_preprocessor::errors::Result;
    use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

    /// The preprocessor, named as `book.toml` names it: `[preprocessor.lock]`.
    struct Lock;

    impl Preprocessor for Lock {
        fn name(&self) -> &str {
            "lock"
        }

        fn run(&self, ctx: &PreprocessorContext, book: Book) -> Result<Book> {
            let settings = settings(ctx)?;
            let mut book = book;
            let mut failed = None;
            book.for_each_mut(|item| {
                let BookItem::Chapter(ch) = item else { return };
                if failed.is_some() {
                    return;
                }
                let path = ch.source_path.as_ref().or(ch.path.as_ref());
                let key = path.map_or_else(|| ch.name.clone(), |p| p.display().to_string());
                match fences::chapter(&ch.content, &key, &settings) {
                    Ok(content) => ch.content = content,
                    Err(e) => {
                        let place = if e.col == 0 {
                            format!("line {}", e.line)
                        } else {
                            format!("line {}, column {}", e.line, e.col)
                        };
                        failed = Some(format!(
                            "lock fence in chapter \"{}\" ({key}), {place}: {}",
                            ch.name, e.message
                        ));
                    }
                }
            });
            match failed {
                Some(msg) => Err(mdbook_preprocessor::errors::Error::msg(msg)),
                None => Ok(book),
            }
        }
    }

    /// `[preprocessor.lock]`'s settings.
    fn settings(ctx: &PreprocessorContext) -> Result<Settings> {
        let lab_url = ctx.config.get::<String>("preprocessor.lock.lab-url")?;
        let width = match ctx.config.get::<u32>("preprocessor.lock.width")? {
            None => fences::WIDTH,
            Some(w) if (280..=4_000).contains(&w) => f64::from(w),
            Some(w) => {
                let msg = format!("[preprocessor.lock] width = {w}: 280 to 4000 px");
                return Err(mdbook_preprocessor::errors::Error::msg(msg));
            }
        };
        Ok(Settings { lab_url, width })
    }

    pub fn main() -> ExitCode {
        let args: Vec<String> = std::env::args().collect();
        if args.get(1).map(String::as_str) == Some("supports") {
            return ExitCode::SUCCESS;
        }
        let result = mdbook_preprocessor::parse_input(std::io::stdin())
            .and_then(|(ctx, book)| Lock.run(&ctx, book))
            .and_then(|book| Ok(serde_json::to_writer(std::io::stdout(), &book)?));
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("mdbook-lock: {e:#}");
                ExitCode::FAILURE
            }
        }
    }
}
