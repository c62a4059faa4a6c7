//! "Share / embed": the link to the exact state and a ready iframe snippet that sizes itself, the figure to
//! download (still or animated) and the projector (`app::projector`).
//!
//! The page carries only the panel's summary ([`Share`]): its body ([`ShareBody`]) is the second module's,
//! fetched when the panel first opens (a loading line meanwhile, and if it could not come, a message and a
//! button to try again), or at once for a link that opens the projector (`present=`).

use js_sys::Reflect;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::dom;
use super::later::Bench;
use super::{effect, say};

/// The share panel, folded by default: its summary, the slot the second module draws its body in, and
/// where that stands.
#[component]
pub fn Share() -> impl IntoView {
    let lab = super::lab();
    let root = NodeRef::<html::Details>::new();
    let open = RwSignal::new(false);
    let presenting = super::url::presenting();
    effect(move || {
        let (t, state, asked) = (lab.text(), lab.bench.get(), open.get() || presenting);
        let Some(root) = root.get() else { return };
        say(&root, dom::SUMMARY, t.share);
        super::later::status(
            &root,
            dom::SHARE_STATUS,
            &state,
            asked.then_some([t.share_loading, t.share_failed]),
            t,
        );
        // A link's projector that could not come: said open, where the panel's status is.
        if presenting && state == Bench::Failed {
            root.set_open(true);
        }
    });
    let on_toggle = move |_| {
        let now = root.get_untracked().is_some_and(|d| d.open());
        if now {
            lab.need_bench();
        }
        if open.get_untracked() != now {
            open.set(now);
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if super::data_of(&ev, "data-retry").is_some() {
            lab.need_bench();
        }
    };
    view! {
        <details class="share" node_ref=root on:toggle=on_toggle on:click=on_click>
            <summary></summary>
            <div class="share-body"></div>
            <div class="share-status"></div>
        </details>
    }
}

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

/// Copies the text of `field` (the link or the snippet), and says whether the browser let it: "Copied" on
/// the button once it says so, or else the text selected and how to copy it by hand.
fn copy(field: web_sys::HtmlElement, done: RwSignal<Option<bool>>) {
    let text = Reflect::get(&field, &"value".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let select = move || {
        let _ = Reflect::get(&field, &"select".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .map(|f| f.call0(&field));
    };
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else { return };
    // `navigator.clipboard` is missing outside secure contexts (a teacher's LAN server, say).
    let clipboard = Reflect::get(&navigator, &JsValue::from_str("clipboard")).unwrap_or(JsValue::UNDEFINED);
    if clipboard.is_undefined() {
        select();
        return done.set(Some(false));
    }
    let promise = navigator.clipboard().write_text(&text);
    let ok = Closure::<dyn FnMut(JsValue)>::new(move |_| done.set(Some(true)));
    let failed = Closure::<dyn FnMut(JsValue)>::new(move |_| {
        select();
        done.set(Some(false));
    });
    let _ = promise.then2(&ok, &failed);
    // One of them runs once, later; a click's worth of memory is not worth tracking.
    ok.forget();
    failed.forget();
}

/// The panel's body, drawn by the second module on its mirror of the lab: the link and the snippet (each
/// with its copy button and status), the downloads and the projector.
#[component]
pub fn ShareBody() -> impl IntoView {
    let lab = super::lab();
    let base = base_url();
    // A course the reader is taking stays in what they share (the recipient resumes it at their own step).
    let course = super::url::course_pairs();
    // Its words come with this module, not the page's first load.
    let t = move || crate::present::text::panels(lab.lang.get());
    // The state as the page's own link carries it: a script over the limit would make a link that does not
    // reopen, so it is the last script that read, as in the address bar (the editor says so).
    let query = move |embed| lab.link(embed).0.to_query_string();
    let link = {
        let (base, course) = (base.clone(), course.clone());
        move || format!("{base}{}{course}", query(false))
    };
    let embed = move || snippet(&format!("{base}{}{course}", query(true)));
    // A link that opens the projector: at once, on the state it names.
    if super::url::presenting() {
        super::projector::open(&query(false));
    }
    let save = move |kind: &'static str| {
        use super::download;
        match kind {
            "png" => download::save_png(),
            "animated" => download::save_animated(&query(false)),
            "present" => super::projector::open(&query(false)),
            _ => download::save_svg(),
        }
    };
    let row = move |id: &'static str, field: AnyView, done: RwSignal<Option<bool>>| {
        view! {
            <label for=id id=format!("{id}-label")>
                {move || if id == "share-link" { t().share_link } else { t().share_embed }}
            </label>
            <div class="share-row">
                {field}
                // Named by its word and its field's ("Copy Link"): two buttons both named "Copy" are one to a
                // screen reader's list of buttons.
                <button type="button" data-copy=id id=format!("{id}-copy")
                    aria-labelledby=format!("{id}-copy {id}-label") on:click=move |_| {
                    let el = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id));
                    if let Some(el) = el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                        copy(el, done);
                    }
                }>{move || if done.get() == Some(true) { t().copied } else { t().copy }}</button>
                <span class="copy-status" role="status">
                    {move || if done.get() == Some(false) { t().copy_failed } else { "" }}
                </span>
            </div>
        }
    };
    let (link_done, embed_done) = (RwSignal::new(None), RwSignal::new(None));
    let link_field = view! { <input id="share-link" type="text" readonly prop:value=link/> }.into_any();
    let embed_field =
        view! { <textarea id="share-embed" readonly rows="4" prop:value=embed></textarea> }.into_any();
    let button = move |kind: &'static str| {
        let label = move || match kind {
            "svg" => t().download_svg,
            "png" => t().download_png,
            "animated" => t().download_animated,
            _ => t().present,
        };
        view! { <button type="button" data-download=kind on:click=move |_| save(kind)>{label}</button> }
    };
    view! {
        {row("share-link", link_field, link_done)}
        {row("share-embed", embed_field, embed_done)}
        <div class="share-row downloads">
            {button("svg")} {button("png")} {button("animated")} {button("present")}
        </div>
    }
}
