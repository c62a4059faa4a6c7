//! "Download figure": the timeline as a standalone SVG (and a PNG drawn from it) for teachers' slides, in
//! the current language and colour scheme.
//!
//! The SVG is the page's own figure, cloned, with each element's computed style written inline (so the
//! file needs no style sheet) and a background in the page's colour; the drag handle is left out.
//!
//! The animated SVG is `locksim render --animate`'s, drawn by the same code for the state on screen, in
//! the page's language and colour scheme: a file both give alike, whichever a teacher used.

use super::dom;
use super::later::read;
use crate::present::params::{Lang, Query};
use crate::present::render::{self, Drawn, Options, Theme};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, SvgElement};

/// The properties that make the figure look as it does on the page.
const STYLES: [&str; 10] = [
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "opacity",
    "font-size",
    "font-weight",
    "font-family",
    "paint-order",
    "display",
];

fn document() -> Option<Document> {
    web_sys::window()?.document()
}

/// The figure as SVG markup, or `None` if the page has none.
pub fn svg() -> Option<String> {
    let window = web_sys::window()?;
    let original = document()?.query_selector(dom::TIMELINE_SVG).ok()??;
    let clone: Element = original.clone_node_with_deep(true).ok()?.dyn_into().ok()?;
    let from = original.query_selector_all(dom::EVERY).ok()?;
    let to = clone.query_selector_all(dom::EVERY).ok()?;
    for i in 0..from.length().min(to.length()) {
        let (Some(a), Some(b)) = (from.item(i), to.item(i)) else { continue };
        let (Ok(a), Ok(b)) = (a.dyn_into::<Element>(), b.dyn_into::<SvgElement>()) else { continue };
        let Ok(Some(computed)) = window.get_computed_style(&a) else { continue };
        for p in STYLES {
            if let Ok(v) = computed.get_property_value(p) {
                let _ = b.style().set_property(p, &v);
            }
        }
    }
    if let Ok(Some(handle)) = clone.query_selector(dom::HANDLE) {
        handle.remove();
    }
    let _ = clone.set_attribute("xmlns", "http://www.w3.org/2000/svg");
    // The page's background behind everything, so dark and light schemes both read on a slide.
    let background = window
        .get_computed_style(&original.closest(dom::ANY_FIGURE).ok()??)
        .ok()??
        .get_property_value("background-color")
        .unwrap_or_default();
    let markup = clone.outer_html();
    let (open, rest) = markup.split_once('>')?;
    Some(format!(r#"{open}><rect width="100%" height="100%" fill="{background}"/>{rest}"#))
}

/// A data URL of the figure as SVG.
fn svg_url() -> Option<String> {
    let svg = svg()?;
    Some(format!("data:image/svg+xml;charset=utf-8,{}", String::from(js_sys::encode_uri_component(&svg))))
}

/// Saves `url` as the file `name`.
fn save(url: &str, name: &str) {
    let Some(a) = document().and_then(|d| d.create_element("a").ok()) else { return };
    let _ = a.set_attribute("href", url);
    let _ = a.set_attribute("download", name);
    if let Ok(a) = a.dyn_into::<web_sys::HtmlElement>() {
        a.click();
    }
}

/// Downloads the figure as SVG.
pub fn save_svg() {
    if let Some(url) = svg_url() {
        save(&url, "fencing-lab.svg");
    }
}

/// The run of state `query` (a link's) as `locksim render --animate` draws it, in the scheme the reader's
/// browser prefers; `None` if the state's script does not read.
pub fn animated(query: &str) -> Option<String> {
    let q = Query::parse(query);
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches());
    let o = Options {
        lang: q.lang.unwrap_or(Lang::En),
        theme: if dark { Theme::Dark } else { Theme::Light },
        animate: true,
        ..Options::default()
    };
    Some(match &q.script {
        Some(text) => render::svg(Drawn::Script(&read(text).ok()?), &o),
        None => render::svg(Drawn::Catalogue(q.scenario, &q.inputs), &o),
    })
}

/// Downloads the run of state `query` as an animated SVG.
pub fn save_animated(query: &str) {
    if let Some(svg) = animated(query) {
        let url =
            format!("data:image/svg+xml;charset=utf-8,{}", String::from(js_sys::encode_uri_component(&svg)));
        save(&url, "fencing-lab-animated.svg");
    }
}

/// Downloads the figure as a PNG at twice its size on the page, drawn from the SVG.
pub fn save_png() {
    let (Some(url), Some(doc)) = (svg_url(), document()) else { return };
    let Ok(image) = web_sys::HtmlImageElement::new() else { return };
    let drawn = image.clone();
    let onload = Closure::once_into_js(move || {
        let (w, h) = (drawn.natural_width(), drawn.natural_height());
        let Some(canvas) =
            doc.create_element("canvas").ok().and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        canvas.set_width(w * 2);
        canvas.set_height(h * 2);
        let context = canvas.get_context("2d").ok().flatten();
        if let Some(ctx) = context.and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok()) {
            let _ = ctx.draw_image_with_html_image_element_and_dw_and_dh(
                &drawn,
                0.0,
                0.0,
                (w * 2) as f64,
                (h * 2) as f64,
            );
            if let Ok(png) = canvas.to_data_url_with_type("image/png") {
                save(&png, "fencing-lab.png");
            }
        }
    });
    image.set_onload(Some(onload.unchecked_ref()));
    image.set_src(&url);
}
