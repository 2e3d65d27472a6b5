//! A per-connection cap on calls in flight: calls beyond it wait their turn, in order.
//! Pure (no browser types), so the engine's tests run formats under the same limits.
//! A small local server handles one request at a time; without this, parallel calls would
//! cut each other off.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

pub struct Limiter {
    free: Cell<u32>,
    next_ticket: Cell<u64>,
    queue: RefCell<VecDeque<(u64, Option<Waker>)>>,
}

impl Limiter {
    pub fn new(permits: u32) -> Rc<Self> {
        Rc::new(Limiter {
            free: Cell::new(permits.max(1)),
            next_ticket: Cell::new(0),
            queue: RefCell::new(VecDeque::new()),
        })
    }

    pub fn acquire(self: &Rc<Self>) -> Acquire {
        let ticket = self.next_ticket.get();
        self.next_ticket.set(ticket + 1);
        self.queue.borrow_mut().push_back((ticket, None));
        Acquire {
            limiter: self.clone(),
            ticket,
            done: false,
        }
    }

    /// A permit now, or `None` when every one is taken or others are already waiting (a
    /// check that must not queue behind the stream it checks).
    pub fn try_acquire(self: &Rc<Self>) -> Option<Permit> {
        if self.free.get() == 0 || !self.queue.borrow().is_empty() {
            return None;
        }
        self.free.set(self.free.get() - 1);
        Some(Permit(self.clone()))
    }

    /// A place: waiting in line for it, or (`wait == false`) only if one is free now.
    pub async fn place(self: &Rc<Self>, wait: bool) -> Option<Permit> {
        if wait {
            Some(self.acquire().await)
        } else {
            self.try_acquire()
        }
    }

    fn release(&self) {
        self.free.set(self.free.get() + 1);
        if let Some((_, Some(w))) = self.queue.borrow().front() {
            w.wake_by_ref();
        }
    }
}

pub struct Acquire {
    limiter: Rc<Limiter>,
    ticket: u64,
    done: bool,
}

pub struct Permit(Rc<Limiter>);

impl Drop for Permit {
    fn drop(&mut self) {
        self.0.release();
    }
}

impl Future for Acquire {
    type Output = Permit;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Permit> {
        let l = self.limiter.clone();
        let mut q = l.queue.borrow_mut();
        let first = q.front().map(|(t, _)| *t) == Some(self.ticket);
        if first && l.free.get() > 0 {
            q.pop_front();
            l.free.set(l.free.get() - 1);
            // The next in line may also fit.
            if l.free.get() > 0 {
                if let Some((_, Some(w))) = q.front() {
                    w.wake_by_ref();
                }
            }
            self.done = true;
            return Poll::Ready(Permit(l.clone()));
        }
        if let Some(slot) = q.iter_mut().find(|(t, _)| *t == self.ticket) {
            slot.1 = Some(cx.waker().clone());
        }
        Poll::Pending
    }
}

impl Drop for Acquire {
    fn drop(&mut self) {
        if !self.done {
            // Given up while waiting (Stop): leave the queue and let the next one try.
            let mut q = self.limiter.queue.borrow_mut();
            q.retain(|(t, _)| *t != self.ticket);
            if let Some((_, Some(w))) = q.front() {
                w.wake_by_ref();
            }
        }
    }
}
