//! Cancellation shared between the caller that decides to stop and the transport or scripted
//! model that must stop reading. Single-threaded: browser futures are not `Send`.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

#[derive(Clone, Default)]
pub struct CancelToken(Rc<Inner>);

#[derive(Default)]
struct Inner {
    cancelled: Cell<bool>,
    wakers: RefCell<Vec<Waker>>,
    listeners: RefCell<Vec<Box<dyn FnOnce()>>>,
}

impl CancelToken {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        if self.0.cancelled.replace(true) {
            return;
        }
        for w in self.0.wakers.borrow_mut().drain(..) {
            w.wake();
        }
        let listeners: Vec<_> = self.0.listeners.borrow_mut().drain(..).collect();
        for l in listeners {
            l();
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.get()
    }

    /// Runs `f` once when cancelled (at once if already cancelled); the browser transport
    /// uses it to call `AbortController.abort()`.
    pub fn on_cancel(&self, f: impl FnOnce() + 'static) {
        if self.is_cancelled() {
            f();
        } else {
            self.0.listeners.borrow_mut().push(Box::new(f));
        }
    }

    /// A child token that is cancelled with its parent but can also be cancelled alone.
    pub fn child(&self) -> CancelToken {
        let child = CancelToken::new();
        let c = child.clone();
        self.on_cancel(move || c.cancel());
        child
    }

    /// Resolves when the token is cancelled.
    pub fn cancelled(&self) -> Cancelled {
        Cancelled(self.clone())
    }
}

pub struct Cancelled(CancelToken);

impl Future for Cancelled {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0.is_cancelled() {
            Poll::Ready(())
        } else {
            self.0 .0.wakers.borrow_mut().push(cx.waker().clone());
            Poll::Pending
        }
    }
}
