//! "Seen on real systems": the runs `scripts/record.sh` recorded on real Redis and etcd for the current
//! scenario and switches, replayed through the core and drawn with the timeline's own figure code.
//!
//! Redrawn only when the recordings it shows or the language change (dragging does not), by one effect.

use leptos::html;
use leptos::prelude::*;

use super::dom;
use super::{effect, Lab};
use crate::present::markup;
use crate::present::params::Lang;
use crate::present::recordings::{self, Recording};

/// The panel, under the verdict once it is told.
#[component]
pub fn Real(lab: Lab) -> impl IntoView {
    let all = StoredValue::new_local(recordings::all());
    let drawn = StoredValue::new_local(None::<(Vec<usize>, Lang)>);
    let body = NodeRef::<html::Section>::new();
    effect(move || {
        let (id, inputs, lang) = (lab.scenario.get(), lab.inputs.get(), lab.lang.get());
        // Redrawn only when the recordings to show or the language change: a drag changes neither.
        let shown: Vec<usize> = all.with_value(|all: &Vec<Recording>| {
            (0..all.len()).filter(|&n| all[n].matches(id, &inputs)).collect()
        });
        let Some(el) = body.get() else { return };
        if drawn.with_value(|d| d.as_ref().is_some_and(|(s, l)| *s == shown && *l == lang)) {
            return;
        }
        let html = all.with_value(|all: &Vec<Recording>| {
            let runs: Vec<_> = shown.iter().map(|&n| (&all[n], all[n].run())).collect();
            markup::real_runs(&runs, lab.text())
        });
        drawn.set_value(Some((shown, lang)));
        // Redrawn whole; the reader's unfolding stays.
        let (t, open) = (lab.text(), el.query_selector(dom::OPEN_DETAILS).ok().flatten().is_some());
        el.set_inner_html(&markup::real_panel(open, &html, t));
    });
    // One element, its content markup: a view per part would cost the bundle more than the panel.
    view! { <section class="real" node_ref=body></section> }
}
