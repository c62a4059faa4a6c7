//! The names the app finds the page's markup by: one place for every selector, so a renamed class is one
//! edit here and in the markup that writes it, and `tests/e2e/selectors.test.mjs` checks that each selector of
//! [`ALWAYS`] finds an element once the app is mounted. A lookup that finds nothing does nothing: no effect
//! ever falls back to writing into a section's root.

/// The button that opens the script editor (its id: where the editor gives the focus back when it closes).
pub const EDIT_SCRIPT: &str = "edit-script";
/// The figure's root: `data-outcome`, `data-scenario`, `data-double-grant`.
pub const FIGURE: &str = "figure.lab";
/// The source's own question, above the base scenario.
pub const SEED_QUESTION: &str = ".seed-question";
/// Where the page says it is reading a script, or what is wrong with it.
pub const SCRIPT_STATUS: &str = ".script-status";
/// The scenario's set-up.
pub const SETUP: &str = ".setup";
/// The masthead's tagline.
pub const TAGLINE: &str = ".tagline";
/// The page's title.
pub const TITLE: &str = "h1";

/// The timeline's SVG, its dragged handle and its playhead.
pub const SVG: &str = "svg";
/// The same SVG, from the document.
pub const TIMELINE_SVG: &str = ".timeline svg";
/// The dragged band's handle.
pub const HANDLE: &str = ".handle";
/// The playhead.
pub const PLAYHEAD: &str = ".playhead";
/// The timeline's parts that one effect fills in.
pub const AXIS: &str = ".axis";
/// The lanes' names.
pub const LANE_LABELS: &str = ".lane-labels";
/// The lanes.
pub const LANES: &str = ".lanes";
/// The legend.
pub const LEGEND: &str = ".legend";
/// The readout of the dragged value.
pub const OUTPUT: &str = "output";

/// Playback: play/pause, the scrubber, the time.
pub const PLAY: &str = ".play";
/// The scrubber.
pub const SCRUB: &str = ".scrub";
/// The time readout.
pub const TIME: &str = ".time";

/// The verdict section and its parts.
pub const VERDICT: &str = ".verdict";
/// The prediction form.
pub const PREDICT: &str = ".predict";
/// The prediction's first choice, where focus goes.
pub const PREDICT_INPUT: &str = ".predict input";
/// The prediction's question.
pub const PROMPT: &str = ".prompt";
/// The answer choices.
pub const CHOICES: &str = ".choices";
/// Their radios.
pub const RADIOS: &str = "input[name=prediction]";
/// The play button of a prediction.
pub const PLAY_ACT: &str = "[data-act=play]";
/// While the run plays.
pub const WATCHING: &str = ".watching";
/// The reader's guess, beside the verdict.
pub const YOUR_GUESS: &str = ".your-guess";
/// Right or wrong.
pub const JUDGED: &str = ".judged";
/// The told verdict.
pub const TOLD: &str = ".told";
/// The narration.
pub const NARRATION: &str = ".narration";
/// The told verdict's lesson.
pub const LESSON: &str = ".told .lesson";
/// Predict again.
pub const AGAIN: &str = ".again";
/// The verdict's title.
pub const VERDICT_TITLE: &str = "#verdict-title";
/// The picker's entries.
pub const SCENARIO_ENTRY: &str = "[data-scenario-id]";
/// The picker's line naming the scenario on screen.
pub const PICKER_CURRENT: &str = ".picker-current";
/// The entry of the scenario on screen.
pub const CURRENT_ENTRY: &str = "[data-scenario-id][aria-current]";
/// The button pressed (the language switch).
pub const PRESSED: &str = "[aria-pressed=true]";

/// Share: where the second module draws the panel's body (the link, the snippet, the downloads).
pub const SHARE_BODY: &str = ".share-body";
/// Where that body stands while it loads, or that it could not.
pub const SHARE_STATUS: &str = ".share-status";
/// An open disclosure (the picker's).
pub const OPEN_DETAILS: &str = "details[open]";
/// The recordings panel's summary: opening it asks for the recordings.
pub const SUMMARY: &str = "summary";

/// The selectors that find an element on the first screen of a mounted app (the others belong to a state:
/// a prediction told, a search run, a panel open).
pub const ALWAYS: &[&str] = &[
    FIGURE,
    SETUP,
    TAGLINE,
    TITLE,
    TIMELINE_SVG,
    HANDLE,
    PLAYHEAD,
    AXIS,
    LANE_LABELS,
    LANES,
    LEGEND,
    OUTPUT,
    PLAY,
    SCRUB,
    TIME,
    VERDICT,
    PROMPT,
    CHOICES,
    NARRATION,
    VERDICT_TITLE,
    SCENARIO_ENTRY,
    PICKER_CURRENT,
    CURRENT_ENTRY,
    PRESSED,
    SHARE_BODY,
    SHARE_STATUS,
];

/// The element under `root` that `selector` finds.
pub fn find(root: &web_sys::Element, selector: &str) -> Option<web_sys::Element> {
    root.query_selector(selector).ok().flatten()
}

/// A disclosure, open or not.
pub const DETAILS: &str = "details";
/// The built page, inside the element the app mounts in.
pub const BUILT: &str = "#app > .prerendered";
/// The disclosures a reader may have opened before the app started.
pub const DISCLOSURES: [&str; 2] = [".picker details", "details.share"];
/// In the built page: the prediction the reader picked before the app started.
pub const BUILT_PREDICTION: &str = "input[name=prediction]:checked";
/// In the built page: the switches the reader may have flipped before the app started.
pub const BUILT_SWITCHES: &str = ".switches input";
/// The timeline's box (in the built page, the width it was drawn at).
pub const TIMELINE: &str = ".timeline";
/// A link in the reading that plays its scenario.
pub const READING_PLAY: &str = ".reading [data-play-scenario]";
/// Any figure, the downloaded one's style source.
pub const ANY_FIGURE: &str = "figure";
/// Every element under a root, in document order.
pub const EVERY: &str = "*";

/// The second module's files (`content`: its JS, wasm and style sheet), written by the post-build hooks.
pub const WORKBENCH_FILES: &str = "meta[name=fencing-lab-workbench]";
/// The later panels' loading line or failure.
pub const LATER_STATUS: &str = ".later-status";
/// Where the second module mounts the later panels.
pub const LATER_PANELS: &str = ".later-panels";
/// Where the second module mounts the editor.
pub const EDITOR_SLOT: &str = ".editor-slot";
/// A hand that moves: the band dragged, or a range input held.
pub const HAND_MOVING: &str = ".dragging, input[type=range]:active";

/// A selector that finds, in the app's page, the element that stands where `el` stood in the built one:
/// by id, by a choice's value, by a picker entry's or a reading link's scenario, or by its place (a
/// disclosure's summary, the handle).
pub fn standing_for(el: &web_sys::Element) -> Option<String> {
    let attr = |name: &str| el.get_attribute(name).filter(|v| !v.is_empty());
    if let Some(id) = attr("id") {
        return Some(by_id(&id));
    }
    if let (Some(name), Some(value)) = (attr("name"), attr("value")) {
        return Some(format!("input[name={name}][value={value}]"));
    }
    if let Some(id) = attr("data-scenario-id") {
        return Some(format!("[data-scenario-id={id}]"));
    }
    if attr("role").as_deref() == Some("slider") {
        return Some(HANDLE.to_owned());
    }
    DISCLOSURES.iter().map(|d| format!("{d} > summary")).find(|s| el.closest(s).ok().flatten().is_some())
}

/// The disclosure `d` when open.
pub fn opened(d: &str) -> String {
    format!("{d}[open]")
}

/// The nearest element with attribute `name`.
pub fn with_attr(name: &str) -> String {
    format!("[{name}]")
}

/// The readout of the script's `n`th named value.
pub fn value_readout(n: usize) -> String {
    format!("#value-{n}")
}

/// The element of id `id`.
pub fn by_id(id: &str) -> String {
    format!("#{id}")
}

/// The map cell of point `i`.
pub fn cell(i: usize) -> String {
    format!("[data-cell=\"{i}\"]")
}
