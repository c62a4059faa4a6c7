//! Talking to a host page when embedded in an iframe.
//!
//! Posts `{type: "fencing-lab:resize", height}` when the content height changes and
//! `{type: "fencing-lab:state", scenario, outcome, doubleGrant, …inputs}` on every change of state (the
//! scenario's inputs, named as in links). Accepts `{type: "fencing-lab:set", scenario?, lang?, …inputs}`
//! from the embedding page only, validated like URL parameters: a bad field is ignored (the current value
//! stays), shown in the page's notice, and reported back as `{type: "fencing-lab:error", problems}`.

use js_sys::{Array, Object, Reflect};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::later::Bench;
use super::{effect, Lab};
use crate::present::params::{
    parse_lang, parse_scenario, set_input, shorten, unavailable, Lang, Problem, MAX_PROBLEMS,
};
use crate::present::scripted::read_reply;
use crate::present::text::text;

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
    if v.is_undefined() {
        None
    } else if v.is_null() {
        // Sent, so answered: `null` is not a value any field takes.
        Some("null".into())
    } else if let Some(b) = v.as_bool() {
        // As sent: `true` reads as a switch's "on", and a bad one is repeated as `true`.
        Some(if b { "true" } else { "false" }.into())
    } else if v.as_f64().is_some() {
        // JavaScript's own number formatting: 15000 → "15000", 1.5 → "1.5".
        Some(String::from(js_sys::Number::from(v.clone()).to_string_with_radix(10).unwrap_or_default()))
    } else if let Some(s) = v.as_string() {
        Some(s)
    } else {
        // Objects, arrays (cyclic ones too), symbols: named by their type, never stringified.
        Some(format!("({})", v.js_typeof().as_string().unwrap_or_default()))
    }
}

/// Answers a `set` that had `found` wrong: an `error` message to the host naming every field (it sent them
/// all), and the page's notice about the last message (at most [`MAX_PROBLEMS`] of them).
fn answer(lab: Lab, host: &web_sys::Window, mut found: Vec<Problem>) {
    if !found.is_empty() {
        // The page's own English sentences, so the host sees the allowed values; each value was cut short on
        // its own, and is isolated so a right-to-left override in it cannot reverse the sentence.
        let en = text(Lang::En).problem;
        let list: Array = found.iter().map(|p| JsValue::from_str(&en(&p.isolated()))).collect();
        post(host, &[("type", "fencing-lab:error".into()), ("problems", list.into())]);
    }
    // The notice about this message replaces the one about the last message, not the link's.
    found.truncate(MAX_PROBLEMS);
    if found != lab.message_problems.get_untracked() {
        lab.message_problems.set(found);
    }
}

/// Wires the page to its host, if it has one.
pub fn connect(lab: Lab) {
    let Some(host) = parent() else { return };
    // A script from the host waiting for the module that reads it.
    let waiting = RwSignal::new(None::<String>);
    let error_host = host.clone();

    let state_host = host.clone();
    effect(move || {
        // Told once the reader's hand rests (`rest`): the host hears where a drag or typing stopped.
        if !lab.calm() {
            return;
        }
        let (id, i) = (lab.scenario.get(), lab.inputs.get());
        let mut fields: Vec<(&str, JsValue)> = vec![("type", "fencing-lab:state".into())];
        if !lab.unread() {
            let (outcome, double) =
                lab.run.with(|r| (r.outcome.kind.name(), r.outcome.double_grant.is_some()));
            fields.extend([("outcome", outcome.into()), ("doubleGrant", double.into())]);
        }
        // A script: its text and its named values, by their names.
        if let Some(script) = lab.script.get() {
            fields.insert(1, ("scenario", "script".into()));
            fields.push(("script", script.text.into()));
            let values = Object::new();
            for p in script.scenario.iter().flat_map(|sc| &sc.params) {
                let v: JsValue = if p.off && p.value == 0 { "off".into() } else { (p.value as f64).into() };
                let _ = Reflect::set(&values, &JsValue::from_str(&p.name), &v);
            }
            fields.push(("values", values.into()));
            return post(&state_host, &fields);
        }
        fields.insert(1, ("scenario", id.id().into()));
        for key in id.keys().iter().chain(id.extras()) {
            let spec = key.spec();
            let value: JsValue = match spec.kind {
                // Switches as words; a time that may be off (a leader crash) as "off" or its number.
                crate::scenarios::Kind::Words(_) => spec.text(&i).into(),
                crate::scenarios::Kind::At { .. } if spec.get(&i) == 0 => "off".into(),
                _ => (spec.get(&i) as f64).into(),
            };
            fields.push((spec.name, value));
        }
        post(&state_host, &fields);
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
        // Only the page that embeds this one may steer it, not a sibling frame.
        let from_host = ev.source().is_some_and(|s| Object::is(&s, &host));
        let data = ev.data();
        let field = |k: &str| Reflect::get(&data, &JsValue::from_str(k)).ok().and_then(|v| as_text(&v));
        if !from_host || !data.is_object() || field("type").as_deref() != Some("fencing-lab:set") {
            return;
        }
        // Every field is applied or named in the reply: a field no set takes, and an input beside a
        // script (or sent to a script on screen without a scenario), which is not kept for later.
        let names: Vec<String> =
            Object::keys(data.unchecked_ref::<Object>()).iter().filter_map(|k| k.as_string()).collect();
        let script = field("script");
        let to_script = script.is_some() || (lab.scripted() && field("scenario").is_none());
        let mut found = Vec::new();
        for name in names.iter().filter(|n| !matches!(n.as_str(), "type" | "scenario" | "lang" | "script")) {
            match crate::scenarios::Key::from_name(name).filter(|k| k.spec().name == name) {
                Some(_) if to_script => found.push(Problem::BesideScript(shorten(name))),
                Some(_) => {}
                None => found.push(Problem::UnknownKey(shorten(name))),
            }
        }
        if script.is_some() && field("scenario").is_some() {
            found.push(Problem::BesideScript("scenario".into()));
        }
        // A script: read first (the module may still be on its way); a bad one changes nothing and is
        // answered with what is wrong.
        if let Some(text) = script {
            if let Some(tag) = field("lang") {
                match parse_lang(&tag) {
                    Ok(lang) if lang != lab.lang.get_untracked() => lab.lang.set(lang),
                    Ok(_) => {}
                    Err(p) => found.push(p),
                }
            }
            answer(lab, &host, found);
            waiting.set(Some(crate::present::params::line_feeds(&text)));
            return lab.need_bench();
        }
        let mut scenario = lab.scenario.get_untracked();
        if let Some(v) = field("scenario") {
            match parse_scenario(&v) {
                Ok(id) => scenario = id,
                Err(p) => found.push(p),
            }
        }
        // Another scenario opens as a link to it would (`Lab::pick`).
        let mut inputs = if scenario == lab.scenario.get_untracked() {
            lab.inputs.get_untracked()
        } else {
            crate::present::lesson::opening(scenario, !super::url::prediction_skipped())
        };
        for key in scenario.keys().iter().chain(scenario.extras()).filter(|_| !to_script) {
            let name = key.spec().name;
            // set_input leaves `inputs` as it was on a bad value.
            if let Some(Err(p)) = field(name).map(|value| set_input(&mut inputs, name, &value)) {
                found.push(p);
            }
        }
        // Redlock's fencing turned on: refused with a notice, as a link's is; any other input the scenario
        // does not read is not applied, and said so.
        for name in &names {
            let Some(k) = crate::scenarios::Key::from_name(name).filter(|k| k.spec().name == name) else {
                continue;
            };
            match field(name).and_then(|v| unavailable(scenario, name, &v)) {
                Some(p) => found.push(p),
                None if !to_script && !scenario.uses(k) => found.push(Problem::Unused(shorten(name))),
                None => {}
            }
        }
        if let Some(tag) = field("lang") {
            match parse_lang(&tag) {
                Ok(lang) if lang != lab.lang.get_untracked() => lab.lang.set(lang),
                Ok(_) => {}
                Err(p) => found.push(p),
            }
        }
        // Only what changed is set: a language-only message leaves a play in progress alone.
        if scenario != lab.scenario.get_untracked() || (field("scenario").is_some() && lab.scripted()) {
            lab.pick(scenario);
        }
        if inputs != lab.inputs.get_untracked() {
            lab.inputs.set(inputs);
        }
        answer(lab, &host, found);
    });
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    }
    on_message.forget();
    // A script a message brought, once the module is here to read it.
    effect(move || {
        let ready = matches!(lab.bench.get(), Bench::Ready(_));
        let Some(text) = waiting.get().filter(|_| ready) else { return };
        waiting.set(None);
        match lab.bench("parse", &[&text]).as_deref().map(read_reply) {
            Some(Ok(_)) => {
                lab.set_script(text);
                if !lab.message_problems.with_untracked(Vec::is_empty) {
                    lab.message_problems.set(Vec::new());
                }
            }
            Some(Err(p)) => {
                let said = format!("script: {}", p.en);
                post(
                    &error_host,
                    &[("type", "fencing-lab:error".into()), ("problems", Array::of1(&said.into()).into())],
                );
            }
            None => {}
        }
    });
}
