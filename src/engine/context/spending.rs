//! The spending cap with calls in flight. A live call starts only if its own worst case
//! fits: what was spent, plus the worst cases reserved by the calls in flight, plus its own
//! (its prompt and its whole output limit, as its provider would bill them, at its seat's
//! price) stays within the cap. Its worst case is then reserved until it ends. So the cap
//! holds exactly, however many calls a round runs at once, up to what a provider bills
//! beyond its own limits. A call that finds no room waits while others run (they may leave
//! room), and when nothing runs the debate pauses, once, until the user raises the cap.

use std::cell::{Cell, RefCell};

use super::super::config::DebateConfig;
use super::super::cost::{decimal, dollars, seat_price, Spent, NOISE};
use super::super::event::Event;
use super::super::model::{Ceiling, ChatRequest};

#[derive(Default)]
pub(super) struct Budget {
    /// The cap in force: the configured one, or the last one given as an input.
    pub cap: Cell<Option<f64>>,
    /// Worst cases of the live calls in flight, by reservation id.
    reserved: RefCell<Vec<(u64, f64)>>,
    next_id: Cell<u64>,
    /// The cap the debate is recorded as paused at (one `Paused` for all waiting calls; a
    /// cap raised but still short pauses again, saying so).
    pub paused_at: Cell<Option<f64>>,
}

/// What the budget says about one live call about to start.
pub(super) enum Room {
    /// Go: `Some(id)` is the reservation to release when the call ends.
    Go(Option<u64>),
    /// Wait for calls in flight to end.
    WaitForOthers,
    /// Nothing runs and the next call does not fit: pause until the cap is raised.
    Spent {
        cap: f64,
        spent: f64,
        /// The most the next call could cost.
        next: f64,
    },
}

impl Room {
    /// What the debate says when it pauses at its cap: what was spent, what the next call
    /// could cost at most, and the cap that would let it start.
    pub fn paused_reason(cap: f64, spent: f64, next: f64) -> String {
        let needed = spent + next;
        if spent >= cap {
            format!(
                "The spending cap of {} is reached ({} spent). The next call could cost up to {}: raise the cap to at least {} to go on.",
                dollars(cap),
                dollars(spent),
                dollars_up(next),
                dollars_up(needed)
            )
        } else {
            format!(
                "The next call could cost up to {}, and {} of the spending cap of {} is spent: it would pass the cap. Raise the cap by {} (to at least {}) to go on.",
                dollars_up(next),
                dollars(spent),
                dollars(cap),
                dollars_up(needed - cap),
                dollars_up(needed)
            )
        }
    }
}

/// An amount a cap must reach, rounded up at the precision `dollars` shows (cents from a
/// dollar on, hundredths of a cent below), so the cap it names is enough.
fn dollars_up(usd: f64) -> String {
    let places = if usd >= 1.0 { 2 } else { 4 };
    let scale = 10f64.powi(places);
    // Within float noise of a step is that step (`try_start` allows the same noise).
    let up = ((usd - NOISE) * scale).ceil().max(1.0) / scale;
    format!("${}", decimal(up, places as u32))
}

/// The most a call can cost: all it sends and its whole output limit, as its provider
/// bills them (`ChatModel::ceiling`), at its seat's price.
pub(super) fn worst_case(config: &DebateConfig, req: &ChatRequest, ceiling: Ceiling) -> f64 {
    seat_price(config, &req.seat).map_or(0.0, |p| p.cost(&ceiling.usage()))
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

    /// Checks that `worst` fits beside what was spent and what the calls in flight hold
    /// and, when it does, reserves it.
    pub fn try_start(&self, config: &DebateConfig, events: &[Event], worst: f64) -> Room {
        let Some(cap) = self.cap.get() else {
            return Room::Go(None);
        };
        let spent = Spent::from_events(config, events).total;
        let reserved: f64 = self.reserved.borrow().iter().map(|(_, r)| r).sum();
        if spent + reserved + worst <= cap + NOISE {
            let id = self.next_id.get();
            self.next_id.set(id + 1);
            self.reserved.borrow_mut().push((id, worst));
            Room::Go(Some(id))
        } else if self.in_flight() > 0 {
            Room::WaitForOthers
        } else {
            Room::Spent {
                cap,
                spent,
                next: worst,
            }
        }
    }

    pub fn release(&self, id: u64) {
        self.reserved.borrow_mut().retain(|(r, _)| *r != id);
    }
}

#[cfg(test)]
mod tests {
    use super::{dollars_up, Room};

    #[test]
    fn the_cap_a_pause_names_is_rounded_up_so_it_is_enough() {
        assert_eq!(dollars_up(0.023_26), "$0.0233");
        assert_eq!(dollars_up(0.023_3), "$0.0233");
        assert_eq!(dollars_up(1.001), "$1.01");
        assert_eq!(dollars_up(0.000_01), "$0.0001");
        // Float noise above a step is that step; anything more is the next one.
        assert_eq!(dollars_up(0.021 + 0.005), "$0.0260");
        assert_eq!(dollars_up(0.0233 + 1e-9), "$0.0234");
        let past = Room::paused_reason(0.02, 0.021, 0.005);
        assert!(
            past.contains("cap of $0.0200 is reached ($0.0210 spent)"),
            "{past}"
        );
        assert!(
            past.contains("up to $0.0050") && past.contains("at least $0.0260"),
            "{past}"
        );
        let short = Room::paused_reason(0.02, 0.018, 0.005_2);
        assert!(
            short.contains("Raise the cap by $0.0032 (to at least $0.0232)"),
            "{short}"
        );
    }
}
