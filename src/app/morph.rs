//! Changing only what moved: the binding of `morph.js`, which brings an element's children in line with
//! new markup attribute by attribute instead of replacing them (see the file for why).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/app/morph.js")]
extern "C" {
    /// Makes `el`'s children those of `html` (parsed as SVG children if `svg`), touching only what differs.
    pub fn morph(el: &web_sys::Element, html: &str, svg: bool);
}
