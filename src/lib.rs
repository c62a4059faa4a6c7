//! Fencing Lab: an interactive explanation of distributed locks, leases and fencing tokens.
//!
//! Data flows one way: controls → [`params`] → [`sim`] (scenario → trace → outcome) → [`story`] and [`text`]
//! → view. Everything but `app` is plain Rust, tested natively; `app` is the Leptos view, built for wasm only.
#![warn(missing_docs)]

pub mod breakit;
pub mod figure;
pub mod geom;
pub mod lesson;
pub mod markup;
pub mod params;
#[cfg(not(target_arch = "wasm32"))]
pub mod real;
pub mod recordings;
pub mod report;
pub mod scenarios;
pub mod script;
pub mod sim;
pub mod story;
pub mod text;
pub mod told;

#[cfg(target_arch = "wasm32")]
pub mod app;
