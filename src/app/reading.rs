//! The reading beside the widget: short sections that work on their own for readers who never touch it.

use leptos::prelude::*;

use super::Lab;

/// Every section of the reading, in the current language.
#[component]
pub fn Reading(lab: Lab) -> impl IntoView {
    view! {
        <article class="reading" aria-labelledby="reading-title">
            <h2 id="reading-title">{move || lab.text().reading_heading}</h2>
            {move || {
                lab.text()
                    .reading
                    .iter()
                    .map(|(heading, paragraphs)| {
                        view! {
                            <section>
                                <h3>{*heading}</h3>
                                {paragraphs.iter().map(|p| view! { <p>{*p}</p> }).collect_view()}
                            </section>
                        }
                    })
                    .collect_view()
            }}
        </article>
    }
}
