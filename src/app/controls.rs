//! The toggles (lease expiry, fencing), the pause readout and the language switch.

use leptos::prelude::*;

use super::Lab;
use crate::geom::seconds;
use crate::params::Lang;

/// Lease and fencing switches: real checkboxes with `role="switch"`, so keyboard and screen readers work.
#[component]
pub fn Toggles(lab: Lab) -> impl IntoView {
    let inputs = lab.inputs;
    let switch = move |id: &'static str,
                       name: fn(&Lab) -> &'static str,
                       hint: Signal<String>,
                       get: fn(&crate::sim::Inputs) -> bool,
                       set: fn(&mut crate::sim::Inputs, bool)| {
        view! {
            <label class="switch" for=id>
                <input
                    id=id
                    type="checkbox"
                    role="switch"
                    prop:checked=move || inputs.with(get)
                    aria-checked=move || inputs.with(get).to_string()
                    aria-describedby=format!("{id}-hint")
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        inputs.update(|i| set(i, on));
                    }
                />
                <span class="track" aria-hidden="true"></span>
                <span class="switch-name">{move || name(&lab)}</span>
                <span class="switch-hint" id=format!("{id}-hint")>{hint}</span>
            </label>
        }
    };
    let ttl = move || inputs.with(|i| i.ttl);
    view! {
        <div class="toggles">
            {switch(
                "lease",
                |lab| lab.text().lease,
                Signal::derive(move || (lab.text().lease_hint)(ttl())),
                |i| i.lease,
                |i, on| i.lease = on,
            )}
            {switch(
                "fencing",
                |lab| lab.text().fencing,
                Signal::derive(move || lab.text().fencing_hint.to_owned()),
                |i| i.fencing,
                |i, on| i.fencing = on,
            )}
            <p class="pause-readout">
                <span class="swatch pause-swatch" aria-hidden="true"></span>
                {move || lab.text().pause}
                <output for="pause-handle">
                    {move || format!("{} {}", seconds(inputs.with(|i| i.pause)), lab.text().seconds_unit)}
                </output>
            </p>
        </div>
    }
}

/// English / 日本語, as two pressed-state buttons.
#[component]
pub fn LangSwitch(lab: Lab) -> impl IntoView {
    let button = move |lang: Lang, label: &'static str| {
        view! {
            <button
                type="button"
                lang=lang.tag()
                aria-pressed=move || (lab.lang.get() == lang).to_string()
                on:click=move |_| lab.lang.set(lang)
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="lang-switch" role="group" aria-label=move || lab.text().language>
            {button(Lang::En, "English")}
            {button(Lang::Ja, "日本語")}
        </div>
    }
}
