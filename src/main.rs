//! The browser app's entry point: install the panic hook and mount. Everything else is in the library.

fn main() {
    #[cfg(target_arch = "wasm32")]
    {
        console_error_panic_hook::set_once();
        leptos::mount::mount_to_body(fencing_lab::app::App);
    }
}
