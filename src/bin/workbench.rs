//! The page's second module (see `app::later`, which holds both ends of the contract): the later panels
//! ("Seen on real systems", "Where does it change?", "Break it"), the script editor, and the scenario
//! language the page's own module does not carry. Its exports are the contract: `start` mounts the panels
//! and the editor on a mirror of the page's lab and `state` keeps the mirror in step; `parse`, `print`,
//! `set_value`, `set_switch`, `narrate` and `lesson` read, write and tell scripts for the page, in plain text.

#[cfg(target_arch = "wasm32")]
mod module {
    use std::cell::RefCell;

    use fencing_lab::app::editor::Editor;
    use fencing_lab::app::later::{mirror, read, Mirror, Panels};
    use fencing_lab::app::share::ShareBody;
    use fencing_lab::present::params::{Lang, Query};
    use fencing_lab::present::scripted::reply;
    use fencing_lab::present::text;
    use fencing_lab::script;
    use fencing_lab::sim;
    use leptos::prelude::*;
    use wasm_bindgen::prelude::*;

    // Talc, as in the page's module: smaller than Rust's default allocator.
    #[global_allocator]
    static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

    thread_local! {
        static MIRROR: RefCell<Option<Mirror>> = const { RefCell::new(None) };
    }

    /// Mounts the later panels in `panels`, the editor in `editor` and the share panel's body in `share` (any
    /// may be missing: an embedded page has none) on a mirror of the page's lab in this state; `owner` is the
    /// page's function that takes the changes the panels and the editor make.
    #[wasm_bindgen]
    pub fn start(
        panels: Option<web_sys::HtmlElement>,
        editor: Option<web_sys::HtmlElement>,
        share: Option<web_sys::HtmlElement>,
        owner: js_sys::Function,
        query: String,
        phase: String,
        editing: bool,
    ) {
        let m = mirror(owner, &query, &phase, editing);
        let lab = m.lab();
        MIRROR.with(|cell| *cell.borrow_mut() = Some(m));
        // Mounted for the page's lifetime: the handles are never dropped.
        if let Some(at) = panels {
            std::mem::forget(leptos::mount::mount_to(at, move || {
                provide_context(lab);
                view! { <Panels/> }
            }));
        }
        if let Some(at) = editor {
            std::mem::forget(leptos::mount::mount_to(at, move || {
                provide_context(lab);
                view! { <Editor/> }
            }));
        }
        if let Some(at) = share {
            std::mem::forget(leptos::mount::mount_to(at, move || {
                provide_context(lab);
                view! { <ShareBody/> }
            }));
        }
        // A course the link names, above the figure.
        fencing_lab::app::course::start(lab);
    }

    /// The page's lab changed: its state as a link's query (with the script on screen), the lesson's phase
    /// and whether the editor is open.
    #[wasm_bindgen]
    pub fn state(query: String, phase: String, editing: bool) {
        MIRROR.with(|cell| {
            if let Some(m) = cell.borrow().as_ref() {
                m.state(&query, &phase, editing);
            }
        });
    }

    /// A script read: `ok` and its scenario, or `error`, its line and the message in both languages.
    #[wasm_bindgen]
    pub fn parse(text: String) -> String {
        reply(read(&text).as_ref())
    }

    /// The script of the catalogue's state a link's query names.
    #[wasm_bindgen]
    pub fn print(query: String) -> String {
        let q = Query::parse(&query);
        script::print(&q.scenario.build(&q.inputs))
    }

    /// `text` with named value `name` set to `ms` (`off`: "1" where 0 means off); unchanged if the script
    /// defines no such value.
    #[wasm_bindgen]
    pub fn set_value(text: String, name: String, ms: String, off: String) -> String {
        let ms = ms.parse().unwrap_or(0);
        script::set_value(&text, &name, ms, off == "1").unwrap_or(text)
    }

    /// `text` with setting `setting` (or, as `switch NAME`, its named switch) on ("1") or off.
    #[wasm_bindgen]
    pub fn set_switch(text: String, setting: String, on: String) -> String {
        match setting.strip_prefix("switch ") {
            Some(name) => script::set_named_switch(&text, name, on == "1").unwrap_or(text),
            None => script::set_switch(&text, &setting, on == "1"),
        }
    }

    /// The scenario of state `query` (a link's: its script, or its catalogue scenario with its inputs) and its
    /// run; `None` for a script that does not read.
    fn run_of(query: &str) -> Option<(sim::Scenario, sim::Run)> {
        let q = Query::parse(query);
        let sc = match &q.script {
            Some(text) => read(text).ok()?,
            None => q.scenario.build(&q.inputs),
        };
        let run = sim::run(&sc);
        Some((sc, run))
    }

    /// The panels' words in the language tagged `lang` (English for an unknown tag).
    fn said(lang: &str) -> &'static text::Panels {
        text::panels(Lang::from_tag(lang).unwrap_or(Lang::En))
    }

    /// The narration of the run of state `query`, in `lang`.
    #[wasm_bindgen]
    pub fn narrate(query: String, lang: String) -> String {
        run_of(&query).map(|(sc, run)| said(&lang).narrate(&sc, &run)).unwrap_or_default()
    }

    /// The verdict's lesson for the run of state `query`, in `lang`, in words the run bears out (a script's
    /// may need plainer ones than the catalogue's, and they come with this module).
    #[wasm_bindgen]
    pub fn lesson(query: String, lang: String) -> String {
        run_of(&query).map(|(_, run)| said(&lang).lesson(&run).to_owned()).unwrap_or_default()
    }
}

fn main() {}
