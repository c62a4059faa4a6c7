//! The browser app's entry point: mount. Everything else is in the library.
//!
//! No panic hook: it would bring message formatting into the bundle, and with `panic = "abort"` a panic
//! ends the app either way.

// Talc instead of Rust's default dlmalloc: smaller in the bundle (and faster). The app is single-threaded.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    // Into `#app`, where the page built at build time stands (the app takes it over); a page without one gets
    // the app in its body.
    #[cfg(target_arch = "wasm32")]
    match fencing_lab::app::mount_point() {
        Some(at) => std::mem::forget(leptos::mount::mount_to(at, fencing_lab::app::App)),
        None => leptos::mount::mount_to_body(fencing_lab::app::App),
    }
}
