//! The presentation: what a reader is told and shown about a run, as plain data and strings, in English and
//! Japanese. Built on the core, the catalogue and the language; the app, `locksim` and the real runs draw
//! from it.

pub mod breakit;
pub mod claims;
pub mod course;
// Native only: lock fences in a book (`mdbook-lock`).
#[cfg(not(target_arch = "wasm32"))]
pub mod fences;
pub mod figure;
pub mod geom;
pub mod history;
pub mod html;
pub mod json;
pub mod lesson;
pub mod markup;
pub mod pace;
pub mod page;
pub mod params;
pub mod program;
pub mod recordings;
// `locksim render`, the mdBook preprocessor and the Share panel's animated figure (in the page's second
// module: the first load never carries it).
pub mod render;
pub mod report;
pub mod scripted;
pub mod story;
pub mod svg;
pub mod text;
pub mod told;
