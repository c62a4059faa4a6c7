//! The SVG timeline: one lane per actor, drawn from the trace, and the draggable right edge of A's pause.
//!
//! The SVG's user units are CSS pixels (its viewBox follows its measured width), so text stays legible
//! from a phone to a wide screen and a pointer's x maps straight onto the time axis.
//!
//! A skeleton of static markup whose parts effects fill in (the axis, the lane names and the legend from
//! memos of their markup, the lanes part by part) and one set of listeners on the wrapper serves: a
//! reactive view per attribute (the handle alone has a dozen) would cost the bundle far more. The handle and
//! the SVG stay the same elements across redraws, so a drag keeps its pointer capture and the keyboard its
//! focus.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::Element;

use super::dom;
use super::{effect, set};
use crate::present::figure::{self, px as f, Layout, Who};
use crate::present::geom::{drag_at, slider_key, MIN_AXIS, SHORT_AXIS};
use crate::present::pace::Pace;
use crate::present::svg::{self, El};
use crate::present::text::fill;
use crate::sim::Ms;

/// Brings the lanes from the parts `drawn` to `parts` (one `<g class="part">` each), redrawing only the
/// parts that changed: a drag moves one worker's lane and the lock's, not the others, and the browser then
/// styles, lays out and paints only those again. A part whose elements stay and only move or stretch has
/// just those values set ([`svg::changes`]): no markup written or parsed, no element made anew.
fn fill_parts(el: &Element, drawn: &mut Vec<Vec<El>>, parts: Vec<Vec<El>>) {
    if drawn.len() != parts.len() {
        el.set_inner_html(&figure::parts_markup(&parts));
        *drawn = parts;
        return;
    }
    let children = el.children();
    for (i, (old, new)) in drawn.iter_mut().zip(parts).enumerate() {
        let Some(g) = children.item(i as u32) else { continue };
        match svg::changes(old, &new).map(|c| encode(&c)) {
            Some(Some(c)) if c.is_empty() => {}
            Some(Some(c)) if super::set_values(&g, &c) => {}
            _ => g.set_inner_html(&svg::markup(&new)),
        }
        *old = new;
    }
}

/// `changes` as `setValues` in page.js reads them: index, name and value, separated by U+001F; `None` if
/// a value holds that character (a script may name a worker anything).
fn encode(changes: &[svg::Change]) -> Option<String> {
    let mut out = String::new();
    for (at, name, value) in changes {
        if value.contains('\u{1f}') {
            return None;
        }
        let sep = if out.is_empty() { "" } else { "\u{1f}" };
        out += &format!("{sep}{at}\u{1f}{name}\u{1f}{value}");
    }
    Some(out)
}

/// A script's scenario, drawn by what it says, or else the catalogue's scenario `id`.
fn who_of(id: crate::scenarios::ScenarioId, script: Option<&crate::sim::Scenario>) -> Who<'_> {
    script.map_or(Who::Catalogue(id), Who::Script)
}

/// A drag of the handle in progress.
#[derive(Clone, Copy, Debug, Default)]
struct Drag {
    /// Whether the pointer holds the handle.
    active: bool,
    /// The SVG's left edge in the viewport, measured when the drag began.
    left: f64,
    /// The pointer's positions, paced to frames.
    pace: Pace<f64>,
    /// Whether the browser reports this drag's moves as `pointerrawupdate`.
    raw: bool,
}

/// The timeline figure.
#[component]
pub fn Timeline(
    /// The width of the figure's box, if the page built at build time measured it: the first frame is then
    /// drawn at the width it will keep.
    width: Option<f64>,
) -> impl IntoView {
    let lab = super::lab();
    let width = RwSignal::new(width.unwrap_or(800.0));
    let wrap = NodeRef::<html::Div>::new();
    // Follow the box's own width (window resizes, iframes laid out late, fonts arriving).
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn Fn()>)>);
    // Each part of the lanes as last drawn: what a step brings each part from.
    let drawn_parts = StoredValue::new_local(Vec::<Vec<El>>::new());
    // The skeleton's elements: the SVG, the handle, the playhead, the axis, the lane names, the legend, the
    // lanes. The skeleton is drawn once, by the first effect to need it, and its elements found once: they
    // stay for the figure's life.
    let elements = StoredValue::new_local(None::<[Element; 7]>);
    let elements_of = move |wrap: &Element| {
        if elements.with_value(Option::is_none) {
            wrap.set_inner_html(&figure::skeleton());
            let find = |selector: &str| wrap.query_selector(selector).ok().flatten();
            let found =
                [dom::SVG, dom::HANDLE, dom::PLAYHEAD, dom::AXIS, dom::LANE_LABELS, dom::LEGEND, dom::LANES]
                    .map(find);
            elements.set_value(found.iter().all(Option::is_some).then(|| found.map(Option::unwrap)));
        }
        elements.get_value()
    };
    effect(move || {
        let Some(el) = wrap.get() else { return };
        let measured = el.clone();
        let measure = Closure::<dyn Fn()>::new(move || {
            let w = measured.client_width() as f64;
            if w > 0.0 && w != width.get_untracked() {
                width.set(w);
            }
        });
        if let Ok(ro) = web_sys::ResizeObserver::new(measure.as_ref().unchecked_ref()) {
            ro.observe(&el);
            observer.set_value(Some((ro, measure)));
        }
    });
    on_cleanup(move || {
        observer.try_with_value(|o| o.as_ref().map(|(ro, _)| ro.disconnect()));
    });

    // A script on screen (its last good reading), drawn by what it says; else the catalogue's scenario.
    let script = Memo::new(move |_| lab.script_scenario());
    let layout = Memo::new(move |_| {
        let t = lab.text();
        script.with(|sc| {
            // Room to drag to the end of the input's range; a run with nothing to drag fills the width.
            let drags = sc.as_ref().map_or(lab.scenario.get().dragged().is_some(), |sc| sc.drag.is_some());
            let min = if drags { MIN_AXIS } else { SHORT_AXIS };
            lab.run.with(|r| Layout::named(width.get(), r, who_of(lab.scenario.get(), sc.as_ref()), min, t))
        })
    });
    // The axis and the legend change with the layout and the scenario, not with each step of a drag.
    let axis = Memo::new(move |_| figure::axis(&layout.get(), lab.text()));
    let legend = Memo::new(move |_| {
        script.with(|sc| figure::legend(lab.text(), who_of(lab.scenario.get(), sc.as_ref())))
    });
    let names = Memo::new(move |_| {
        script.with(|sc| {
            let who = who_of(lab.scenario.get(), sc.as_ref());
            layout.with(|l| lab.run.with(|run| figure::lab_lane_names(l, run, who, lab.text())))
        })
    });
    // The SVG's size, as its viewBox: it changes with the layout's size, not with each step of a drag.
    let view_box = Memo::new(move |_| layout.with(|l| format!("0 0 {} {}", f(l.width), f(l.height()))));
    // Each of these is set when it changes, and only then (a memo each): each set is a call out of the wasm.
    effect(move || {
        let vb = view_box.get();
        let Some([svg, ..]) = wrap.get().and_then(|w| elements_of(&w)) else { return };
        let mut size = vb.split(' ').skip(2);
        set(&svg, "width", size.next().unwrap_or_default());
        set(&svg, "height", size.next().unwrap_or_default());
        set(&svg, "viewBox", &vb);
    });
    effect(move || {
        let t = lab.text();
        if let Some([svg, ..]) = wrap.get().and_then(|w| elements_of(&w)) {
            set(&svg, "aria-label", t.figure_label);
        }
    });
    for (part, markup) in [(3, axis), (4, names), (5, legend)] {
        effect(move || {
            let markup = markup.get();
            if let Some(els) = wrap.get().and_then(|w| elements_of(&w)) {
                els[part].set_inner_html(&markup);
            }
        });
    }
    // Where the dragged value's band starts and what range it has: what a pointer or a key sets it by.
    let dragged = StoredValue::new(None::<(Ms, Ms, Ms, Ms)>);

    effect(move || {
        let (l, id, i, t) = (layout.get(), lab.scenario.get(), lab.inputs.get(), lab.text());
        let Some(wrap) = wrap.get() else { return };
        let Some([_, handle, playhead, _, _, _, lanes]) = elements_of(&wrap) else { return };
        let sc = script.get();
        let who = who_of(id, sc.as_ref());
        let job = figure::job(who, &i);
        let p = lab.shown_until();
        lab.run.with(|run| {
            drawn_parts
                .update_value(|cache| fill_parts(&lanes, cache, figure::lane_parts(&l, run, p, job, t)));
        });

        // The handle: an ARIA slider over the scenario's dragged input; hidden when it has none.
        let placed = lab.run.with(|run| figure::handle(&l, who, &i, run, t));
        let _ = handle.toggle_attribute_with_force("hidden", placed.is_none());
        dragged.set_value(placed.as_ref().map(|h| (h.min, h.max, h.now, h.origin)));
        if let Some(h) = placed {
            set(&handle, "aria-label", &h.label);
            set(&handle, "aria-valuemin", &h.min.to_string());
            set(&handle, "aria-valuemax", &h.max.to_string());
            set(&handle, "aria-valuenow", &h.now.to_string());
            set(&handle, "aria-valuetext", &h.text);
            if let Some(g) = handle.first_element_child() {
                set(&g, "transform", &h.transform);
            }
        }

        let at = lab.player.playhead.get();
        let shown = at.is_some() && (lab.phase.get().revealed() || lab.player.playing.get());
        let _ = playhead.toggle_attribute_with_force("hidden", !shown);
        set(&playhead, "transform", &fill("translate({} 0)", &[&f(l.x(at.unwrap_or(0)))]));
        set(&playhead, "y2", &f(l.height() - 6.0));
    });

    // The handle's input, delegated to the wrapper: the key of its keyboard, and a drag by any pointer. Both
    // set the dragged value as the figure last placed it (its range, its band's start).
    let on_handle = |ev: &web_sys::Event| {
        let target = ev.target().and_then(|t| t.dyn_into::<Element>().ok());
        target.and_then(|t| t.closest(dom::HANDLE).ok().flatten())
    };
    // A drag is paced to the screen ([`Pace`]): at most one position applied per frame besides the first.
    // The SVG's left edge is measured when the drag starts, not on every move (a forced layout).
    let drag = StoredValue::new(Drag::default());
    let apply = move |x: f64| {
        let Some((min, max, _, origin)) = dragged.get_value() else { return };
        let t = layout.get_untracked().axis.t(x - drag.with_value(|d| d.left));
        lab.drag_value(drag_at(t, origin, (min, max)));
    };
    let flush = move || {
        if let Some(x) = drag.try_update_value(|d| d.pace.flush()).flatten() {
            apply(x);
        }
    };
    // A pointer's step: the figure follows it, the words once the hand rests (`rest`).
    let apply = move |x: f64| {
        lab.restless();
        apply(x);
    };
    let moved = move |x: f64| {
        let Some(step) = drag.try_update_value(|d| d.active.then(|| d.pace.push(x))).flatten() else {
            return;
        };
        if let Some(x) = step.apply {
            apply(x);
        }
        if step.ask {
            request_animation_frame(move || {
                if let Some(x) = drag.try_update_value(|d| d.pace.frame()).flatten() {
                    apply(x);
                }
            });
        }
    };
    // Where the browser has them, a drag follows `pointerrawupdate`: it comes as soon as the pointer moves,
    // where `pointermove` waits for the next frame (up to 16 ms, most of a slow phone's budget). The moves
    // are still paced to frames; `pointermove` is then ignored for the rest of the drag.
    effect(move || {
        let Some(el) = wrap.get() else { return };
        let raw = Closure::<dyn Fn(web_sys::PointerEvent)>::new(move |ev: web_sys::PointerEvent| {
            let active = drag.try_update_value(|d| {
                d.raw |= d.active;
                d.active
            });
            if active == Some(true) {
                moved(ev.client_x() as f64);
            }
        });
        let _ = el.add_event_listener_with_callback("pointerrawupdate", raw.as_ref().unchecked_ref());
        // Lives as long as the wrapper.
        raw.forget();
    });
    let stop = move |ev: web_sys::PointerEvent| {
        if drag.with_value(|d| d.active) {
            flush();
        }
        drag.update_value(|d| *d = Drag::default());
        lab.settle();
        if let Some(h) = on_handle(&ev) {
            let _ = h.class_list().remove_1("dragging");
        }
    };
    view! {
        <div
            class="timeline"
            node_ref=wrap
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || on_handle(&ev).is_none() {
                    return;
                }
                let Some((min, max, value, _)) = dragged.get_value() else { return };
                if let Some(v) = slider_key(&ev.key(), ev.shift_key(), value, (min, max)) {
                    ev.prevent_default();
                    // A key held down repeats: a drag by keyboard.
                    lab.restless();
                    lab.drag_value(v);
                    // The next key builds on this one even before the figure is drawn again.
                    dragged.update_value(|d| d.iter_mut().for_each(|d| d.2 = v));
                }
            }
            on:pointerdown=move |ev: web_sys::PointerEvent| {
                let Some(h) = on_handle(&ev).filter(|_| ev.button() == 0) else { return };
                ev.prevent_default();
                // Capture: moves and the release come to the handle wherever the pointer goes.
                let _ = h.set_pointer_capture(ev.pointer_id());
                if let Ok(h) = h.clone().dyn_into::<web_sys::SvgElement>() {
                    let _ = h.focus();
                }
                let _ = h.class_list().add_1("dragging");
                let svg = wrap.get_untracked().and_then(|w| w.query_selector(dom::SVG).ok().flatten());
                let left = svg.map_or(0.0, |s| s.get_bounding_client_rect().left());
                drag.set_value(Drag { active: true, left, ..Drag::default() });
                apply(ev.client_x() as f64);
            }
            on:pointermove=move |ev: web_sys::PointerEvent| {
                if !drag.with_value(|d| d.raw) {
                    moved(ev.client_x() as f64);
                }
            }
            on:pointerup=stop
            on:pointercancel=stop
        ></div>
    }
}
