//! What arrives from outside a running debate (the UI or a test): questions, evidence, a
//! raised spending cap, people's turns, pause and offline states, and the Resume of a debate
//! held at a failed call. Consumed at call boundaries and recorded there, so a replay takes
//! the same path.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use super::super::event::{CallKey, Input};
use std::collections::HashMap;

#[derive(Default)]
pub struct Inputs {
    pub(super) pending: RefCell<VecDeque<Input>>,
    /// People's turns by the call that waits for them.
    pub(super) human: RefCell<HashMap<CallKey, String>>,
    paused: Cell<bool>,
    /// The browser is offline: a pause of its own, lifted by the `online` event, so that it
    /// never undoes (or is undone by) the user's own pause.
    offline: Cell<bool>,
    /// Held at a failed call until the user resumes.
    halted: Cell<bool>,
    /// Paused at the spending cap until a higher one comes.
    at_cap: Cell<bool>,
    /// Who waits to hear that the debate is held (a tournament's runner), woken when it is.
    hold_watchers: RefCell<Vec<Waker>>,
    /// Bumped by everything that may let a waiting call go on: an input, a pause lifted, a
    /// call that finished and freed part of the spending cap.
    generation: Cell<u64>,
    wakers: RefCell<Vec<Waker>>,
}

impl Inputs {
    pub fn new() -> Rc<Self> {
        Rc::new(Self::default())
    }

    pub fn push(&self, input: Input) {
        match input {
            Input::HumanTurn { call, text } => {
                self.human.borrow_mut().insert(call, text);
            }
            other => self.pending.borrow_mut().push_back(other),
        }
        self.wake();
    }

    pub fn set_paused(&self, paused: bool) {
        self.paused.set(paused);
        self.wake();
    }

    pub fn set_offline(&self, offline: bool) {
        self.offline.set(offline);
        self.wake();
    }

    /// The user's Resume for a debate held at a failed call: that call is tried again.
    pub fn release(&self) {
        self.set_halted(false);
        self.wake();
    }

    /// Questions and evidence sent but not yet taken by a call (the debate stopped first):
    /// the session hands them to the debate's next run, so nothing the user sent is lost.
    pub fn take_unconsumed(&self) -> Vec<Input> {
        self.pending.borrow_mut().drain(..).collect()
    }

    pub fn is_halted(&self) -> bool {
        self.halted.get()
    }

    pub(super) fn set_halted(&self, halted: bool) {
        self.halted.set(halted);
        self.wake_hold_watchers();
    }

    pub(super) fn set_at_cap(&self, at_cap: bool) {
        self.at_cap.set(at_cap);
        self.wake_hold_watchers();
    }

    fn wake_hold_watchers(&self) {
        if self.halted.get() || self.at_cap.get() {
            for w in self.hold_watchers.borrow_mut().drain(..) {
                w.wake();
            }
        }
    }

    /// Resolves once the debate is held for the user (at its cap, or at a call that failed
    /// for good): woken by the debate itself, never by polling on a timer, which a
    /// background tab slows to once a minute.
    pub fn held(self: &Rc<Self>) -> impl Future<Output = ()> {
        Held {
            inputs: self.clone(),
        }
    }

    /// Whether the debate waits for a higher spending cap, with nothing running.
    pub fn is_at_cap(&self) -> bool {
        self.at_cap.get()
    }

    pub fn is_paused(&self) -> bool {
        self.paused.get() || self.offline.get()
    }

    pub(super) fn pause_reason(&self) -> &'static str {
        if self.offline.get() {
            "You are offline. The debate goes on by itself when the connection returns."
        } else {
            "Paused by the user."
        }
    }

    pub(super) fn generation(&self) -> u64 {
        self.generation.get()
    }

    /// Wakes every waiting call so it looks again.
    pub(super) fn wake(&self) {
        self.generation.set(self.generation.get() + 1);
        for w in self.wakers.borrow_mut().drain(..) {
            w.wake();
        }
    }

    pub(super) fn wait_for<T>(
        self: &Rc<Self>,
        f: impl Fn(&Inputs) -> Option<T>,
    ) -> WaitFor<T, impl Fn(&Inputs) -> Option<T>> {
        WaitFor {
            inputs: self.clone(),
            f,
        }
    }

    /// Resolves at the next change after generation `seen`.
    pub(super) fn changed_since(self: &Rc<Self>, seen: u64) -> impl Future<Output = ()> {
        self.wait_for(move |i| (i.generation() != seen).then_some(()))
    }
}

struct Held {
    inputs: Rc<Inputs>,
}

impl Future for Held {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.inputs.is_halted() || self.inputs.is_at_cap() {
            return Poll::Ready(());
        }
        let mut watchers = self.inputs.hold_watchers.borrow_mut();
        if !watchers.iter().any(|w| w.will_wake(cx.waker())) {
            watchers.push(cx.waker().clone());
        }
        Poll::Pending
    }
}

pub(super) struct WaitFor<T, F: Fn(&Inputs) -> Option<T>> {
    inputs: Rc<Inputs>,
    f: F,
}

impl<T, F: Fn(&Inputs) -> Option<T>> Future for WaitFor<T, F> {
    type Output = T;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        match (self.f)(&self.inputs) {
            Some(v) => Poll::Ready(v),
            None => {
                let mut wakers = self.inputs.wakers.borrow_mut();
                if !wakers.iter().any(|w| w.will_wake(cx.waker())) {
                    wakers.push(cx.waker().clone());
                }
                Poll::Pending
            }
        }
    }
}
