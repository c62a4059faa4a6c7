//! Browser tests: the app mounts in headless Chromium, and its controls re-run the core.
//! Run by scripts/test.sh as `cargo test --target wasm32-unknown-unknown --test web`.
#![cfg(target_arch = "wasm32")]

use fencing_lab::app::App;
use leptos::mount::mount_to;
use leptos::task::tick;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, KeyboardEvent, KeyboardEventInit};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts a fresh app, opened with the query `query`, in its own container and returns the container.
fn open(query: &str) -> Element {
    let window = web_sys::window().unwrap();
    // Apps mounted by earlier tests rewrote the URL; each test opens its own.
    window.history().unwrap().replace_state_with_url(&JsValue::NULL, "", Some(query)).unwrap();
    // These tests look at the verdict; the prediction flow has tests of its own (tests/e2e).
    window.session_storage().unwrap().unwrap().set_item("fencing-lab:skip-prediction", "1").unwrap();
    let document = window.document().unwrap();
    let host = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    let handle = mount_to(host.clone().unchecked_into(), App);
    // Keep it mounted for the rest of the test; each test uses its own container.
    std::mem::forget(handle);
    host
}

fn find(host: &Element, selector: &str) -> Element {
    host.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}"))
}

fn outcome(host: &Element) -> String {
    find(host, "figure.lab").get_attribute("data-outcome").unwrap()
}

fn slider_value(host: &Element) -> String {
    find(host, "[role=slider]").get_attribute("aria-valuenow").unwrap()
}

fn press(el: &Element, key: &str, shift: bool) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

#[wasm_bindgen_test]
async fn mounts_with_the_default_state() {
    let host = open("?lang=en");
    tick().await;
    assert_eq!(outcome(&host), "safe");
    let slider = find(&host, "[role=slider]");
    assert_eq!(slider_value(&host), "4000");
    assert_eq!(slider.get_attribute("aria-valuemax").as_deref(), Some("30000"));
    assert!(slider.get_attribute("aria-valuetext").unwrap().contains("4 s"));
    assert_eq!(find(&host, "#lease").get_attribute("role").as_deref(), Some("switch"));
    // The narration's words come with the page's second module, which these tests do not serve: the line
    // says so (loading, then that it could not), in the page's language.
    let told = find(&host, "#narration").text_content().unwrap();
    assert!(told.starts_with("Loading the account") || told.starts_with("The account of this run"), "{told}");
}

#[wasm_bindgen_test]
async fn slider_keys_move_the_pause_and_change_the_outcome() {
    let host = open("?");
    tick().await;
    let slider = find(&host, "[role=slider]");
    press(&slider, "ArrowRight", false);
    tick().await;
    assert_eq!(slider_value(&host), "4100");
    press(&slider, "PageUp", false);
    press(&slider, "ArrowRight", true);
    tick().await;
    assert_eq!(slider_value(&host), "6100");
    press(&slider, "End", false);
    tick().await;
    assert_eq!(slider_value(&host), "30000");
    assert_eq!(outcome(&host), "fenced");
    // Keys it does not handle change nothing.
    press(&slider, "q", false);
    press(&slider, "ArrowRight", false);
    tick().await;
    assert_eq!(slider_value(&host), "30000");
    press(&slider, "Home", false);
    tick().await;
    assert_eq!((slider_value(&host).as_str(), outcome(&host).as_str()), ("0", "safe"));
}

#[wasm_bindgen_test]
async fn toggles_rerun_the_core() {
    let host = open("?");
    tick().await;
    press(&find(&host, "[role=slider]"), "End", false);
    tick().await;
    assert_eq!(outcome(&host), "fenced");
    let fencing: HtmlInputElement = find(&host, "#fencing").unchecked_into();
    fencing.click();
    tick().await;
    assert!(!fencing.checked());
    assert_eq!(outcome(&host), "corrupted");
    let lease: HtmlElement = find(&host, "#lease").unchecked_into();
    lease.click();
    tick().await;
    assert_eq!(outcome(&host), "stalled");
    assert_eq!(find(&host, ".verdict").get_attribute("data-kind").as_deref(), Some("stalled"));
}

#[wasm_bindgen_test]
async fn opens_the_state_in_the_url_and_keeps_it_in_step() {
    let host = open("?pause=15000&fencing=off&lang=en");
    tick().await;
    assert_eq!(outcome(&host), "corrupted");
    assert_eq!(slider_value(&host), "15000");
    press(&find(&host, "[role=slider]"), "ArrowLeft", true);
    // The URL is rewritten once the state has rested for 150 ms.
    gloo_timers::future::TimeoutFuture::new(300).await;
    let search = web_sys::window().unwrap().location().search().unwrap();
    assert_eq!(search, "?scenario=gc-pause&pause=14000&lease=on&fencing=off&lang=en");
}

#[wasm_bindgen_test]
async fn the_picker_plays_another_scenario_from_its_defaults() {
    let host = open("?lang=en");
    tick().await;
    let figure = find(&host, "figure.lab");
    assert_eq!(figure.get_attribute("data-scenario").as_deref(), Some("gc-pause"));
    let entry: HtmlElement = find(&host, "[data-scenario-id=check-then-set]").unchecked_into();
    entry.click();
    tick().await;
    assert_eq!(figure.get_attribute("data-scenario").as_deref(), Some("check-then-set"));
    assert_eq!(outcome(&host), "double-grant");
    assert_eq!(figure.get_attribute("data-double-grant").as_deref(), Some("true"));
    assert_eq!(
        find(&host, "[data-scenario-id=check-then-set]").get_attribute("aria-current").as_deref(),
        Some("true")
    );
    assert!(!find(&host, "[data-scenario-id=gc-pause]").has_attribute("aria-current"));
    assert_eq!(find(&host, ".picker-current").text_content().as_deref(), Some("Check, then set"));
    // No dragged input here: the handle hides, the switches are the scenario's own.
    assert!(find(&host, "#pause-handle").has_attribute("hidden"));
    assert!(host.query_selector("#lease").unwrap().is_none());
    let atomic: HtmlInputElement = find(&host, "#atomic").unchecked_into();
    atomic.click();
    tick().await;
    assert_eq!(outcome(&host), "safe");
    assert_eq!(figure.get_attribute("data-double-grant").as_deref(), Some("false"));
    // A scenario with a dragged delay: the handle drives `delay` over its own range.
    let entry: HtmlElement = find(&host, "[data-scenario-id=network-delay]").unchecked_into();
    entry.click();
    tick().await;
    let slider = find(&host, "[role=slider]");
    assert_eq!(slider.get_attribute("aria-valuemax").as_deref(), Some("28000"));
    assert_eq!(slider_value(&host), "13000");
    assert_eq!(outcome(&host), "fenced");
    press(&slider, "Home", false);
    tick().await;
    assert_eq!(outcome(&host), "safe");
}

#[wasm_bindgen_test]
async fn bad_parameters_show_a_notice_and_the_default_state() {
    let host = open("?pause=banana&lease=maybe&lang=en");
    tick().await;
    assert_eq!(outcome(&host), "safe");
    let notice = find(&host, "[role=alert]").text_content().unwrap();
    assert!(notice.contains("pause") && notice.contains("banana") && notice.contains("lease"), "{notice}");
}

#[wasm_bindgen_test]
async fn language_switch_changes_the_page() {
    let host = open("?lang=en");
    tick().await;
    let ja: HtmlElement = find(&host, ".lang-switch button[lang=ja]").unchecked_into();
    ja.click();
    tick().await;
    assert!(find(&host, "h1").text_content().unwrap().contains("フェンシング"));
    let html_lang =
        web_sys::window().unwrap().document().unwrap().document_element().unwrap().get_attribute("lang");
    assert_eq!(html_lang.as_deref(), Some("ja"));
    let told = find(&host, "#narration").text_content().unwrap();
    assert!(told.starts_with("この実行の経過を読み込"), "{told}");
}

#[wasm_bindgen_test]
async fn every_selector_the_app_relies_on_finds_its_element() {
    // The names the app finds its markup by (src/app/dom.rs): each of those on the first screen finds one,
    // in both languages, so no effect writes into nothing, or into a section's root instead.
    for query in ["?lang=en", "?lang=ja&scenario=redlock"] {
        let host = open(query);
        tick().await;
        for selector in fencing_lab::app::dom::ALWAYS {
            assert!(host.query_selector(selector).unwrap().is_some(), "{query}: nothing matches {selector}");
        }
    }
}
