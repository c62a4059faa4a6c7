//! Fencing Lab: an interactive explanation of distributed locks, leases and fencing tokens.
//!
//! Data flows one way: controls → [`params`] / [`sim::Inputs`] → [`sim`] → trace → outcome → view.
//! Everything but `app` is plain Rust and is tested natively; `app` is the Leptos view, built for wasm only.
#![warn(missing_docs)]

pub mod params;
pub mod report;
pub mod sim;
