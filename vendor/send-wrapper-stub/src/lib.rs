//! A stand-in for `send_wrapper` 0.6 with the surface Leptos uses, for this app's single-threaded wasm.
//!
//! The real crate records the creating thread's id and checks it on every access, drop and poll. On
//! `wasm32-unknown-unknown` without the `atomics` feature there is only one thread, so every check passes;
//! but each one calls `std::thread::current()`, which brings thread-handle code into the bundle (what it
//! weighs: the README's table of the vendor directory). Here the checks are gone and so is that code. Anything else refuses to compile.
#![cfg_attr(not(all(target_arch = "wasm32", not(target_feature = "atomics"))), allow(unused))]

#[cfg(not(all(target_arch = "wasm32", not(target_feature = "atomics"))))]
compile_error!("this send_wrapper stand-in is sound only on single-threaded wasm32");

use std::fmt;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

/// A value that may be moved to other threads only because there are none.
pub struct SendWrapper<T> {
    data: ManuallyDrop<T>,
}

impl<T> SendWrapper<T> {
    /// Wraps `data`.
    pub fn new(data: T) -> SendWrapper<T> {
        SendWrapper { data: ManuallyDrop::new(data) }
    }

    /// Always true: the one thread is the creating thread.
    pub fn valid(&self) -> bool {
        true
    }

    /// The wrapped value.
    pub fn take(self) -> T {
        let mut this = ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped again.
        unsafe { ManuallyDrop::take(&mut this.data) }
    }
}

// SAFETY: single-threaded target (checked above): the value never reaches another thread.
unsafe impl<T> Send for SendWrapper<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for SendWrapper<T> {}

impl<T> Deref for SendWrapper<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.data
    }
}

impl<T> DerefMut for SendWrapper<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.data
    }
}

impl<T> Drop for SendWrapper<T> {
    fn drop(&mut self) {
        // SAFETY: dropped once, here; `take` forgets the wrapper instead.
        unsafe { ManuallyDrop::drop(&mut self.data) }
    }
}

impl<T: fmt::Debug> fmt::Debug for SendWrapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SendWrapper").field("data", &*self.data).finish()
    }
}

impl<T: Clone> Clone for SendWrapper<T> {
    fn clone(&self) -> Self {
        Self::new((*self.data).clone())
    }
}

#[cfg(feature = "futures")]
mod futures {
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use futures_core::Stream;

    use super::SendWrapper;

    impl<F: Future> Future for SendWrapper<F> {
        type Output = F::Output;

        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            // SAFETY: the wrapped future is never moved out of a pinned wrapper.
            unsafe { self.map_unchecked_mut(|w| &mut *w.data) }.poll(cx)
        }
    }

    impl<S: Stream> Stream for SendWrapper<S> {
        type Item = S::Item;

        fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            // SAFETY: as above.
            unsafe { self.map_unchecked_mut(|w| &mut *w.data) }.poll_next(cx)
        }

        fn size_hint(&self) -> (usize, Option<usize>) {
            self.data.size_hint()
        }
    }
}
