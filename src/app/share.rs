//! "Share / embed": the link to the exact state and a ready iframe snippet that sizes itself.

use js_sys::Reflect;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::{download, tx, Lab};

/// The page's address without its query: where links and the iframe point.
fn base_url() -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// The iframe and the few lines a host page needs to follow the embed's height.
fn snippet(src: &str) -> String {
    // A sandbox must allow scripts and the same origin: the page's module script and the integrity check
    // of its style sheet fail from an opaque origin.
    format!(
        "<iframe id=\"fencing-lab\" src=\"{src}\" title=\"Fencing Lab\" loading=\"lazy\" \
         sandbox=\"allow-scripts allow-same-origin allow-popups\" \
         style=\"width:100%;max-width:960px;height:620px;border:0\"></iframe>\n\
         <script>addEventListener(\"message\",function(e){{var f=document.getElementById(\"fencing-lab\");\
         if(f&&e.source===f.contentWindow&&e.data&&e.data.type===\"fencing-lab:resize\")\
         f.style.height=e.data.height+\"px\"}});</script>"
    )
}

/// Copy state: nothing yet, copied, or the browser refused (the text is then selected for the reader).
#[derive(Clone, Copy, PartialEq)]
enum Copy {
    Idle,
    Done,
    Failed,
}

/// Selects the text of the field `id`, so the reader can copy it by hand.
fn select(id: &str) {
    let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id)) else {
        return;
    };
    if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        input.select();
    } else if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        area.select();
    }
}

fn copy_button(lab: Lab, value: Signal<String>, field: &'static str) -> impl IntoView {
    let state = RwSignal::new(Copy::Idle);
    let copy = move |_| {
        state.set(Copy::Idle);
        let Some(navigator) = web_sys::window().map(|w| w.navigator()) else { return };
        // `navigator.clipboard` is missing outside secure contexts (a teacher's LAN server, say).
        let clipboard =
            Reflect::get(&navigator, &JsValue::from_str("clipboard")).unwrap_or(JsValue::UNDEFINED);
        if clipboard.is_undefined() {
            select(field);
            return state.set(Copy::Failed);
        }
        let promise = navigator.clipboard().write_text(&value.get_untracked());
        // "Copied" only once the browser says so.
        let done = Closure::<dyn FnMut(JsValue)>::new(move |_| state.set(Copy::Done));
        let failed = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            select(field);
            state.set(Copy::Failed);
        });
        let _ = promise.then2(&done, &failed);
        // One of them runs once, later; a click's worth of memory is not worth tracking.
        done.forget();
        failed.forget();
    };
    view! {
        <button type="button" on:click=copy>
            {move || if state.get() == Copy::Done { lab.text().copied } else { lab.text().copy }.to_owned()}
        </button>
        <span class="copy-status" role="status">
            // A `String` ("" for none), not an `Option`, as every reactive text (see `tx`).
            {move || if state.get() == Copy::Failed { lab.text().copy_failed } else { "" }.to_owned()}
        </span>
    }
}

/// The share panel, folded by default.
#[component]
pub fn Share(lab: Lab) -> impl IntoView {
    let base = base_url();
    let link = Signal::derive({
        let base = base.clone();
        move || format!("{base}{}", lab.query(false).to_query_string())
    });
    let embed = Signal::derive(move || snippet(&format!("{base}{}", lab.query(true).to_query_string())));
    view! {
        <details class="share">
            <summary>{tx(lab, |t| t.share)}</summary>
            <label for="share-link">{tx(lab, |t| t.share_link)}</label>
            <div class="share-row">
                <input id="share-link" type="text" readonly prop:value=link/>
                {copy_button(lab, link, "share-link")}
            </div>
            <label for="share-embed">{tx(lab, |t| t.share_embed)}</label>
            <div class="share-row">
                <textarea id="share-embed" readonly rows="4" prop:value=embed></textarea>
                {copy_button(lab, embed, "share-embed")}
            </div>
            <div class="share-row downloads">
                <button type="button" on:click=move |_| download::save_svg()>{tx(lab, |t| t.download_svg)}</button>
                <button type="button" on:click=move |_| download::save_png()>{tx(lab, |t| t.download_png)}</button>
            </div>
        </details>
    }
}
