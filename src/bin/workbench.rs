//! The later panels' module ("Seen on real systems", "Where does it change?", "Break it"), loaded by the page
//! once the first prediction is told (see `app::later`, which holds both ends of the contract). Its exports
//! are the contract: `start` mounts the panels on a mirror of the page's lab, `state` keeps the mirror in
//! step.

#[cfg(target_arch = "wasm32")]
mod module {
    use std::cell::RefCell;

    use fencing_lab::app::later::{mirror, Mirror, Panels};
    use leptos::prelude::*;
    use wasm_bindgen::prelude::*;

    // Talc, as in the page's module: smaller than Rust's default allocator.
    #[global_allocator]
    static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

    thread_local! {
        static MIRROR: RefCell<Option<Mirror>> = const { RefCell::new(None) };
    }

    /// Mounts the panels in `slot` on a mirror of the page's lab in state `query` and `phase`; `owner` is
    /// the page's function that shows a run the panels load.
    #[wasm_bindgen]
    pub fn start(slot: web_sys::HtmlElement, owner: js_sys::Function, query: String, phase: String) {
        let m = mirror(owner, &query, &phase);
        let lab = m.lab();
        MIRROR.with(|cell| *cell.borrow_mut() = Some(m));
        // Mounted for the page's lifetime: the handle is never dropped.
        std::mem::forget(leptos::mount::mount_to(slot, move || view! { <Panels lab/> }));
    }

    /// The page's lab changed: its state as a link's query, and the lesson's phase.
    #[wasm_bindgen]
    pub fn state(query: String, phase: String) {
        MIRROR.with(|cell| {
            if let Some(m) = cell.borrow().as_ref() {
                m.state(&query, &phase);
            }
        });
    }
}

fn main() {}
