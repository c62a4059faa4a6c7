//! "Share / embed": the link to the exact state and a ready iframe snippet that sizes itself, the figure to
//! download (still or animated) and the projector (`app::projector`): all three in the page's second
//! module, fetched when first asked, or at once for a link that opens the projector (`present=`).
//!
//! Static markup for the page's language that one effect fills in and one listener serves (`data-*`
//! attributes): a view per part would cost the bundle more.

use js_sys::Reflect;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::Element;

use super::dom;
use super::later::Bench;
use super::{data_of, effect, say, Lab};
use crate::present::markup;
use crate::present::params::Lang;

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
    // of its style sheet fail from an opaque origin. Nothing more: the embed opens no window (the README and
    // the page's static text name the same two).
    format!(
        "<iframe id=\"fencing-lab\" src=\"{src}\" title=\"Fencing Lab\" loading=\"lazy\" \
         sandbox=\"allow-scripts allow-same-origin\" \
         style=\"width:100%;max-width:960px;height:620px;border:0\"></iframe>\n\
         <script>addEventListener(\"message\",function(e){{var f=document.getElementById(\"fencing-lab\");\
         if(f&&e.source===f.contentWindow&&e.data&&e.data.type===\"fencing-lab:resize\")\
         f.style.height=e.data.height+\"px\"}});</script>"
    )
}

/// The field `id`: its text, selected for the reader with `select`.
fn field(id: &str, select: bool) -> String {
    let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id)) else {
        return String::new();
    };
    if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        if select {
            input.select();
        }
        input.value()
    } else if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        if select {
            area.select();
        }
        area.value()
    } else {
        String::new()
    }
}

/// The share panel, folded by default.
#[component]
pub fn Share(lab: Lab) -> impl IntoView {
    let root = NodeRef::<html::Details>::new();
    let framed = StoredValue::new(None::<Lang>);
    // Folded, the panel follows nothing: a drag meanwhile does not come here.
    let open = RwSignal::new(false);
    // The download (`svg`, `png`, `animated`) or the projector (`present`) asked for, until it is done: a
    // link's projector at once. (A string: a signal of another type would cost the first load its own copy
    // of the signal's code.)
    let wanted = RwSignal::new(super::url::presenting().then(|| "present".to_owned()));
    let base = base_url();
    effect(move || {
        let (lang, t) = (lab.lang.get(), lab.text());
        let Some(root) = root.get() else { return };
        if framed.get_value() != Some(lang) {
            framed.set_value(Some(lang));
            root.set_inner_html(&markup::share_frame(t));
        }
        if !open.get() {
            return;
        }
        let link = format!("{base}{}", lab.query(false).to_query_string());
        let embed = snippet(&format!("{base}{}", lab.query(true).to_query_string()));
        // Written only when they change: this runs for every step of a drag.
        if let Some(el) = root.query_selector(dom::SHARE_LINK).ok().flatten() {
            if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>().filter(|i| i.value() != link) {
                input.set_value(&link);
            }
        }
        if let Some(el) = root.query_selector(dom::SHARE_EMBED).ok().flatten() {
            if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>().filter(|a| a.value() != embed) {
                area.set_value(&embed);
            }
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        // Opening the panel fills it at once (its `toggle` event comes a task later): a click on its summary,
        // by pointer or keyboard, opens it unless it is open.
        let on_summary = ev
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|t| t.closest(dom::SUMMARY).ok().flatten());
        if on_summary.is_some() {
            let opening = root.get_untracked().is_some_and(|d| !d.open());
            if open.get_untracked() != opening {
                open.set(opening);
            }
        }
        if let Some(kind) = data_of(&ev, "data-download") {
            lab.need_bench();
            return wanted.set(Some(kind));
        }
        let Some(id) = data_of(&ev, "data-copy") else { return };
        let Some(button) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
        let status = button.next_element_sibling();
        let tell = move |done: bool| {
            let t = lab.text();
            button.set_text_content(Some(if done { t.copied } else { t.copy }));
            if let Some(s) = &status {
                s.set_text_content(Some(if done { "" } else { t.copy_failed }));
            }
        };
        let Some(navigator) = web_sys::window().map(|w| w.navigator()) else { return };
        // `navigator.clipboard` is missing outside secure contexts (a teacher's LAN server, say).
        let clipboard =
            Reflect::get(&navigator, &JsValue::from_str("clipboard")).unwrap_or(JsValue::UNDEFINED);
        if clipboard.is_undefined() {
            field(&id, true);
            return tell(false);
        }
        let promise = navigator.clipboard().write_text(&field(&id, false));
        // "Copied" only once the browser says so.
        let tell = std::rc::Rc::new(tell);
        let (ok, no) = (tell.clone(), tell);
        let done = Closure::<dyn FnMut(JsValue)>::new(move |_| ok(true));
        let failed = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            field(&id, true);
            no(false);
        });
        let _ = promise.then2(&done, &failed);
        // One of them runs once, later; a click's worth of memory is not worth tracking.
        done.forget();
        failed.forget();
    };
    let on_toggle = move |_| {
        let now = root.get_untracked().is_some_and(|d| d.open());
        if open.get_untracked() != now {
            open.set(now);
        }
    };
    // The figure saved by the page's second module (app::download, there: the first load does without it),
    // once it is here; meanwhile a loading line, and if it could not come, a message (the button retries).
    effect(move || {
        let Some(kind) = wanted.get() else { return };
        let (bench, t) = (lab.bench.get(), lab.text());
        let Some(root) = root.get() else { return };
        let status = match bench {
            Bench::Ready(_) => {
                let query = lab.query(false).to_query_string();
                lab.bench(if kind == "present" { "present" } else { "download" }, &[&kind, &query]);
                wanted.set(None);
                ""
            }
            Bench::Failed => {
                // Said open, where the buttons are: a link's projector asked before any click.
                root.set_open(true);
                t.download_failed
            }
            _ => t.download_loading,
        };
        say(&root, dom::DOWNLOAD_STATUS, status);
    });
    view! { <details class="share" node_ref=root on:click=on_click on:toggle=on_toggle></details> }
}
