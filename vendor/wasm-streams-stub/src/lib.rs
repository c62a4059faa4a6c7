//! A stand-in for `wasm-streams` 0.5, for Fencing Lab's browser build only.
//!
//! Leptos always depends on `server_fn` with its `browser` feature, which streams request and response
//! bodies through `wasm_streams::ReadableStream`. The real crate exports `IntoUnderlyingSource`,
//! `IntoUnderlyingSink` and `IntoUnderlyingByteSource` to JavaScript with `#[wasm_bindgen]`; exports
//! are roots, so the linker keeps them and their JS glue (what they weigh: the README's table of the vendor
//! directory) even though a client-side app with no server functions never calls them. This crate offers
//! the same surface `server_fn` uses (`from_stream`, `from_raw`, `into_raw`, `into_stream`) with no exports. Nothing here runs in Fencing
//! Lab: no request or response is ever streamed (the page makes no request at all after load).

use futures_util::stream::{self, Stream};
use wasm_bindgen::JsValue;

/// The readable side, under the same path as the real crate.
pub mod readable {
    pub use super::ReadableStream;

    /// The raw web-sys types.
    pub mod sys {
        pub use web_sys::ReadableStream;
    }
}

/// A web `ReadableStream`, seen from Rust.
pub struct ReadableStream {
    raw: web_sys::ReadableStream,
}

impl ReadableStream {
    /// Wraps a raw stream.
    pub fn from_raw(raw: web_sys::ReadableStream) -> Self {
        Self { raw }
    }

    /// A stream of `stream`'s items. Stand-in: never called in this app, so it stops the app rather than
    /// hand a caller an empty stream it would take for a real, finished one.
    pub fn from_stream<St>(stream: St) -> Self
    where
        St: Stream<Item = Result<JsValue, JsValue>> + 'static,
    {
        drop(stream);
        unsupported()
    }

    /// The raw web stream.
    pub fn into_raw(self) -> web_sys::ReadableStream {
        self.raw
    }

    /// The items of the web stream. Stand-in: never called in this app; it stops the app rather than
    /// return an empty stream.
    pub fn into_stream(self) -> impl Stream<Item = Result<JsValue, JsValue>> + Unpin + 'static {
        drop(self.raw);
        unsupported::<stream::Empty<Result<JsValue, JsValue>>>()
    }
}

/// Streaming is not built into Fencing Lab: a call means a dependency started streaming, which must be
/// seen at once (the app aborts), not read as an empty body.
#[cold]
fn unsupported<T>() -> T {
    panic!("wasm-streams stand-in: Fencing Lab streams nothing; see vendor/wasm-streams-stub")
}
