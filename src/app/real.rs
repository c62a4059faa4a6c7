//! "Seen on real systems": the runs `scripts/record.sh` recorded on real Redis and etcd for the current
//! scenario and switches, replayed through the core and drawn with the timeline's own figure code.
//!
//! Redrawn only when the scenario, its switches or the language change (dragging does not), by one effect.

use leptos::html;
use leptos::prelude::*;

use super::{effect, Lab};
use crate::breakit::settings;
use crate::markup;
use crate::params::Lang;
use crate::recordings::{self, Recording};
use crate::scenarios::{Inputs, ScenarioId};

/// The panel, under the verdict once it is told.
#[component]
pub fn Real(lab: Lab) -> impl IntoView {
    let all = StoredValue::new_local(recordings::all());
    let drawn = StoredValue::new_local(None::<((ScenarioId, Inputs), Lang, bool)>);
    let body = NodeRef::<html::Section>::new();
    effect(move || {
        let (id, inputs) = (lab.scenario.get(), lab.inputs.get());
        // A drag does not redraw the panel; a switch does, and so does turning a leader crash on or off.
        let key = (settings(id, &inputs), lab.lang.get(), inputs.leader_crash != 0);
        let Some(el) = body.get() else { return };
        if drawn.get_value() == Some(key) {
            return;
        }
        drawn.set_value(Some(key));
        let html = all.with_value(|all: &Vec<Recording>| {
            let shown: Vec<_> = all.iter().filter(|r| r.matches(id, &inputs)).map(|r| (r, r.run())).collect();
            markup::real_runs(&shown, lab.text())
        });
        // Redrawn whole; the reader's unfolding stays.
        let (t, open) = (lab.text(), el.query_selector("details[open]").ok().flatten().is_some());
        el.set_inner_html(&format!(
            "<details{}><summary>{}</summary><p>{}</p>{html}</details>",
            if open { " open" } else { "" },
            markup::esc(t.real_heading),
            markup::esc(t.real_intro)
        ));
    });
    // One element, its content markup: a view per part would cost the bundle more than the panel.
    view! { <section class="real" node_ref=body></section> }
}
