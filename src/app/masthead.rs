//! The masthead (the page's title, its tagline, the language buttons) and the two notices under it: what
//! was wrong with the link the page opened with, and with an embedding page's last message.

use leptos::html;
use leptos::prelude::*;

use super::{controls, dom, effect, say};
use crate::present::markup;

/// The masthead and the notices, their words set by one effect.
#[component]
pub fn Masthead() -> impl IntoView {
    let lab = super::lab();
    let (masthead, link_notice, message_notice) =
        (NodeRef::<html::Header>::new(), NodeRef::<html::Div>::new(), NodeRef::<html::Div>::new());
    effect(move || {
        let t = lab.text();
        if let Some(m) = masthead.get() {
            say(&m, dom::TITLE, t.title);
            say(&m, dom::TAGLINE, t.tagline);
        }
        if let Some(el) = link_notice.get() {
            el.set_inner_html(&lab.link_problems.with(|p| markup::link_notice(p, t)));
        }
        if let Some(el) = message_notice.get() {
            el.set_inner_html(&lab.message_problems.with(|p| markup::notice(t.message_notice, p, false, t)));
        }
    });
    view! {
        <header class="masthead" node_ref=masthead>
            <h1></h1>
            <p class="tagline"></p>
            <controls::LangSwitch/>
        </header>
        <div node_ref=link_notice></div>
        <div node_ref=message_notice></div>
    }
}
