//! "Share / embed": the link to the exact state and a ready iframe snippet that sizes itself.

use leptos::prelude::*;

use super::Lab;

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
    format!(
        "<iframe id=\"fencing-lab\" src=\"{src}\" title=\"Fencing Lab\" loading=\"lazy\" \
         style=\"width:100%;max-width:960px;height:620px;border:0\"></iframe>\n\
         <script>addEventListener(\"message\",function(e){{var f=document.getElementById(\"fencing-lab\");\
         if(f&&e.source===f.contentWindow&&e.data&&e.data.type===\"fencing-lab:resize\")\
         f.style.height=e.data.height+\"px\"}});</script>"
    )
}

fn copy_button(lab: Lab, value: Signal<String>) -> impl IntoView {
    let copied = RwSignal::new(false);
    view! {
        <button
            type="button"
            on:click=move |_| {
                if let Some(w) = web_sys::window() {
                    let _ = w.navigator().clipboard().write_text(&value.get_untracked());
                    copied.set(true);
                }
            }
        >
            {move || if copied.get() { lab.text().copied } else { lab.text().copy }}
        </button>
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
            <summary>{move || lab.text().share}</summary>
            <label for="share-link">{move || lab.text().share_link}</label>
            <div class="share-row">
                <input id="share-link" type="text" readonly prop:value=link/>
                {copy_button(lab, link)}
            </div>
            <label for="share-embed">{move || lab.text().share_embed}</label>
            <div class="share-row">
                <textarea id="share-embed" readonly rows="4" prop:value=embed></textarea>
                {copy_button(lab, embed)}
            </div>
        </details>
    }
}
