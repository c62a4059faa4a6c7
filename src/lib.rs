//! Fencing Lab: an interactive explanation of distributed locks, leases and fencing tokens.
//!
//! The folders are the layers, and imports point down only (`tests/layers.rs` holds them to it):
//!
//! 1. [`sim`], the simulation core: scenario in, trace and verdict out. Pure, deterministic; imports nothing
//!    of the crate.
//! 2. [`scenarios`], the catalogue (each scenario a lock script and a card, the input table, the search over
//!    a scenario's disturbances), and [`script`], the scenario language. They build on the core only.
//! 3. [`present`], everything a reader is told and shown: the URL's parameters, the figure's markup, the
//!    narration, the texts in both languages. Plain Rust, tested natively.
//! 4. The programs: `app` (the Leptos view, wasm only), [`real`] (runs on real lock services, native
//!    only) and the `locksim` command (`src/bin`).
//!
//! Data flows one way: controls → [`present::params`] → [`scenarios`] → [`sim`] (scenario → trace →
//! outcome) → [`present::told`] and [`present::why`] → [`present::text`] → view.
#![warn(missing_docs)]

pub mod present;
#[cfg(not(target_arch = "wasm32"))]
pub mod real;
pub mod scenarios;
pub mod script;
pub mod sim;

#[cfg(target_arch = "wasm32")]
pub mod app;
