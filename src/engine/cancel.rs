//! Cancellation shared between the caller that decides to stop and the transport or scripted
//! model that must stop reading. Single-threaded: browser futures are not `Send`.
//!
//! Listeners are removed when their guard drops, so a debate of a thousand calls does not
//! leave a thousand dead closures (or AbortControllers) on its Stop token.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use std::task::{Context, Poll, Waker};

#[derive(Clone, Default)]
pub struct CancelToken(Rc<Inner>);

type Listener = (u64, Box<dyn FnOnce()>);

#[derive(Default)]
struct Inner {
    cancelled: Cell<bool>,
    wakers: RefCell<Vec<Waker>>,
    next_id: Cell<u64>,
    listeners: RefCell<Vec<Listener>>,
}

/// Keeps a listener registered; dropping it removes the listener (if it has not run).
#[must_use = "the listener is removed when this guard is dropped"]
pub struct Listening {
    token: Weak<Inner>,
    id: u64,
}

impl Drop for Listening {
    fn drop(&mut self) {
        if let Some(inner) = self.token.upgrade() {
            inner
                .listeners
                .borrow_mut()
                .retain(|(id, _)| *id != self.id);
        }
    }
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
        for (_, l) in listeners {
            l();
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.get()
    }

    /// Runs `f` once when cancelled (at once if already cancelled) for as long as the
    /// returned guard lives; the browser transport uses it to call `AbortController.abort()`.
    pub fn on_cancel(&self, f: impl FnOnce() + 'static) -> Listening {
        let id = self.0.next_id.get();
        self.0.next_id.set(id + 1);
        if self.is_cancelled() {
            f();
        } else {
            self.0.listeners.borrow_mut().push((id, Box::new(f)));
        }
        Listening {
            token: Rc::downgrade(&self.0),
            id,
        }
    }

    /// A child token that is cancelled with its parent but can also be cancelled alone. The
    /// link to the parent lasts as long as the returned guard.
    pub fn child(&self) -> (CancelToken, Listening) {
        let child = CancelToken::new();
        let c = child.clone();
        let guard = self.on_cancel(move || c.cancel());
        (child, guard)
    }

    /// Listeners waiting on this token (for tests that check nothing piles up).
    pub fn listeners(&self) -> usize {
        self.0.listeners.borrow().len()
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
            let mut wakers = self.0 .0.wakers.borrow_mut();
            // One waker per waiting future: re-polls replace rather than pile up.
            if !wakers.iter().any(|w| w.will_wake(cx.waker())) {
                wakers.push(cx.waker().clone());
            }
            Poll::Pending
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_listeners_do_not_pile_up_and_live_ones_run() {
        let stop = CancelToken::new();
        for _ in 0..1000 {
            let (_child, _guard) = stop.child();
        }
        assert_eq!(stop.listeners(), 0);
        let (child, _guard) = stop.child();
        stop.cancel();
        assert!(child.is_cancelled());
    }
}
