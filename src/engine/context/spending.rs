//! The spending cap with calls in flight. A live call may start only while what was spent
//! plus the worst case of the calls already in flight stays under the cap; its own worst
//! case (its prompt plus its whole output limit, at its seat's price) is then reserved
//! until it ends. So a round of parallel calls cannot overshoot the cap as a whole: at most
//! the calls already running when spending crossed it. A call that finds no room waits
//! while others run (they may leave room), and when nothing runs the debate pauses, once,
//! until the user raises the cap.

use std::cell::{Cell, RefCell};

use super::super::config::DebateConfig;
use super::super::cost::{seat_price, Ledger};
use super::super::event::{Event, Usage};
use super::super::model::ChatRequest;
use super::super::tokens;

#[derive(Default)]
pub(super) struct Budget {
    /// The cap in force: the configured one, or the last one given as an input.
    pub cap: Cell<Option<f64>>,
    /// Worst cases of the live calls in flight, by reservation id.
    reserved: RefCell<Vec<(u64, f64)>>,
    next_id: Cell<u64>,
    /// The debate is recorded as paused at its cap (one `Paused` for all waiting calls).
    pub paused_at_cap: Cell<bool>,
}

/// What the budget says about one live call about to start.
pub(super) enum Room {
    /// Go: `Some(id)` is the reservation to release when the call ends.
    Go(Option<u64>),
    /// Wait for calls in flight to end.
    WaitForOthers,
    /// Nothing runs and the cap is spent: pause until it is raised.
    Spent { cap: f64, spent: f64 },
}

/// The most a call can cost: its prompt and its whole output limit.
pub(super) fn worst_case(config: &DebateConfig, req: &ChatRequest) -> f64 {
    let usage = Usage {
        input_tokens: req
            .messages
            .iter()
            .map(|m| tokens::estimate(&m.content))
            .sum(),
        output_tokens: req.max_tokens,
        estimated: true,
    };
    seat_price(config, &req.seat).map_or(0.0, |p| p.cost(&usage))
}

impl Budget {
    pub fn new(cap: Option<f64>) -> Self {
        Budget {
            cap: Cell::new(cap),
            ..Default::default()
        }
    }

    pub fn in_flight(&self) -> usize {
        self.reserved.borrow().len()
    }

    /// Checks for room and, when there is, reserves `worst`.
    pub fn try_start(&self, config: &DebateConfig, events: &[Event], worst: f64) -> Room {
        let Some(cap) = self.cap.get() else {
            return Room::Go(None);
        };
        let spent = Ledger::from_events(config, events).total;
        let reserved: f64 = self.reserved.borrow().iter().map(|(_, r)| r).sum();
        if spent + reserved < cap {
            let id = self.next_id.get();
            self.next_id.set(id + 1);
            self.reserved.borrow_mut().push((id, worst));
            Room::Go(Some(id))
        } else if self.in_flight() > 0 {
            Room::WaitForOthers
        } else {
            Room::Spent { cap, spent }
        }
    }

    pub fn release(&self, id: u64) {
        self.reserved.borrow_mut().retain(|(r, _)| *r != id);
    }
}
