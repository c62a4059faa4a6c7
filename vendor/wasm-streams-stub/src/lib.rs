//! A stand-in for `wasm-streams` 0.5, for Fencing Lab's browser build only.
//!
//! Leptos always depends on `server_fn` with its `browser` feature, which streams request and response
//! bodies through `wasm_streams::ReadableStream`. The real crate exports `IntoUnderlyingSource`,
//! `IntoUnderlyingSink` and `IntoUnderlyingByteSource` to JavaScript with `#[wasm_bindgen]`; exports
//! are roots, so the linker keeps them and their JS glue (about 2.5 kB gzip) even though a client-side
//! app with no server functions never calls them. This crate offers the same surface `server_fn` uses
//! (`from_stream`, `from_raw`, `into_raw`, `into_stream`) with no exports. Nothing here runs in Fencing
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

    /// A stream of `stream`'s items. Stand-in: an empty web stream (never called in this app).
    pub fn from_stream<St>(stream: St) -> Self
    where
        St: Stream<Item = Result<JsValue, JsValue>> + 'static,
    {
        drop(stream);
        let raw = web_sys::ReadableStream::new().unwrap_or_else(|_| unreachable!("ReadableStream exists"));
        Self { raw }
    }

    /// The raw web stream.
    pub fn into_raw(self) -> web_sys::ReadableStream {
        self.raw
    }

    /// The items of the web stream. Stand-in: none (never called in this app).
    pub fn into_stream(self) -> impl Stream<Item = Result<JsValue, JsValue>> + Unpin + 'static {
        drop(self.raw);
        stream::empty()
    }
}
