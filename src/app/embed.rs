//! Talking to a host page when embedded in an iframe.
//!
//! Posts `{type: "fencing-lab:resize", height}` when the content height changes and
//! `{type: "fencing-lab:state", pause, lease, fencing, outcome}` on every change of state. Accepts
//! `{type: "fencing-lab:set", pause?, lease?, fencing?, lang?}`, validated like URL parameters: a bad field
//! is ignored, shown in the page's notice, and reported back as `{type: "fencing-lab:error", problems}`.

use js_sys::{Array, Object, Reflect};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::Lab;
use crate::params::{set_input, Lang, Problem};

fn parent() -> Option<web_sys::Window> {
    let window = web_sys::window()?;
    let parent = window.parent().ok().flatten()?;
    // A top-level page is its own parent.
    (!Object::is(&parent, &window)).then_some(parent)
}

fn post(parent: &web_sys::Window, fields: &[(&str, JsValue)]) {
    let msg = Object::new();
    for (k, v) in fields {
        let _ = Reflect::set(&msg, &JsValue::from_str(k), v);
    }
    // Nothing secret is sent: any host may embed the page.
    let _ = parent.post_message(&msg, "*");
}

/// A message field as the text a URL would carry: numbers and booleans become `15000`, `on`, `off`.
fn as_text(v: &JsValue) -> Option<String> {
    if v.is_undefined() || v.is_null() {
        None
    } else if let Some(b) = v.as_bool() {
        Some(if b { "on" } else { "off" }.into())
    } else if v.as_f64().is_some() {
        // JavaScript's own number formatting: 15000 → "15000", 1.5 → "1.5".
        Some(String::from(js_sys::Number::from(v.clone()).to_string_with_radix(10).unwrap_or_default()))
    } else {
        Some(v.as_string().unwrap_or_else(|| format!("{v:?}")))
    }
}

/// Wires the page to its host, if it has one.
pub fn connect(lab: Lab, problems: RwSignal<Vec<Problem>>) {
    let Some(host) = parent() else { return };

    let state_host = host.clone();
    Effect::new(move |_| {
        let i = lab.inputs.get();
        let outcome = lab.run.with(|r| r.outcome.kind.name());
        let on = |b: bool| JsValue::from_str(if b { "on" } else { "off" });
        post(
            &state_host,
            &[
                ("type", "fencing-lab:state".into()),
                ("pause", (i.pause as f64).into()),
                ("lease", on(i.lease)),
                ("fencing", on(i.fencing)),
                ("outcome", outcome.into()),
            ],
        );
    });

    // Height: after every layout change of the document.
    let resize_host = host.clone();
    let last_height = std::cell::Cell::new(0);
    let on_resize = Closure::<dyn Fn()>::new(move || {
        let Some(doc) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element())
        else {
            return;
        };
        let height = doc.get_bounding_client_rect().height().ceil() as i32;
        if height != last_height.replace(height) {
            post(&resize_host, &[("type", "fencing-lab:resize".into()), ("height", height.into())]);
        }
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            observer.observe(&root);
        }
        // Both live as long as the page.
        std::mem::forget(observer);
    }
    on_resize.forget();

    let on_message = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
        let data = ev.data();
        let field = |k: &str| Reflect::get(&data, &JsValue::from_str(k)).ok().and_then(|v| as_text(&v));
        if !data.is_object() || field("type").as_deref() != Some("fencing-lab:set") {
            return;
        }
        let mut inputs = lab.inputs.get_untracked();
        let mut found = Vec::new();
        for key in ["pause", "lease", "fencing"] {
            // set_input leaves `inputs` as it was on a bad value.
            if let Some(Err(p)) = field(key).map(|value| set_input(&mut inputs, key, &value)) {
                found.push(p);
            }
        }
        if let Some(tag) = field("lang") {
            match Lang::from_tag(&tag) {
                Some(lang) => lab.lang.set(lang),
                None => {
                    found.push(Problem::NotOneOf { key: "lang".into(), value: tag, allowed: &["ja", "en"] })
                }
            }
        }
        lab.inputs.set(inputs);
        if !found.is_empty() {
            let list: Array = found.iter().map(|p| JsValue::from_str(&p.to_string())).collect();
            post(&host, &[("type", "fencing-lab:error".into()), ("problems", list.into())]);
        }
        problems.set(found);
    });
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    }
    on_message.forget();
}
