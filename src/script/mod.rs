//! Lock scripts: the scenario language. A script is a scenario written out, one setting or worker per line,
//! that the core can run: [`parse`] turns text into a [`Scenario`], [`print`] writes any scenario back, and
//! `parse(print(sc)) == sc` for every scenario the catalogue builds (tested over their inputs).
//!
//! ```text
//! # the source's widget: A pauses right after taking the lock
//! lease 10s
//! fencing on
//! A: acquire, pause {pause=15s}, write, release
//! B: idle 1s, acquire, work 1s, write, release
//! ```
//!
//! Every construct is documented, with the script of each catalogue scenario, in `docs/scripts.md`. A bad
//! script is an [`Error`]: its line and column, what was expected, the nearest valid word, in English and
//! Japanese. Limits ([`limits`]) keep every script small and every run finite.

mod edit;
mod error;
mod lex;
mod parse;
mod print;

pub use edit::{set_named_switch, set_switch, set_value};
pub use error::{place, Error, Expect, Problem};
pub use parse::{nearest, parse};
pub use print::{duration, print};

/// The limits a script is held to, so that a script from a link can never make the page slow.
pub mod limits {
    use crate::sim::Ms;

    /// The longest script, in characters.
    pub const CHARS: usize = 4_000;
    /// Most workers.
    pub const WORKERS: usize = 4;
    /// Most steps in one worker's program.
    pub const STEPS: usize = 32;
    /// The longest duration anywhere (10 minutes).
    pub const DURATION: Ms = 600_000;
    /// The shortest time between two attempts of `try-acquire`.
    pub const RETRY: Ms = 10;
    /// The largest first token.
    pub const FIRST_TOKEN: u64 = 1_000_000_000;
    /// The longest name of a worker or a named value.
    pub const NAME: usize = 24;
}
