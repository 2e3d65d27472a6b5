//! Persists a debate as it happens: every finished event at once, the text of a turn in
//! flight at most about once a second, in the order they happened (one writer task per
//! debate awaits each write before the next).

use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::mpsc;
use futures::StreamExt;

use crate::engine::clock::Clock;
use crate::engine::context::Observer;
use crate::engine::event::{Event, EventKind};
use crate::engine::CallKey;
use crate::store::{DebateSummary, InFlight, Store};

/// How often the text of a streaming turn is saved.
pub const IN_FLIGHT_EVERY_MS: u64 = 1_000;

pub enum Write {
    Event(Event),
    InFlight(InFlight),
}

pub type Listener = Rc<dyn Fn(&str, &super::runner::Update)>;

/// The observer given to the engine: forwards everything to the UI listener and queues
/// writes for the store.
pub struct Recorder {
    pub debate: String,
    pub tx: mpsc::UnboundedSender<Write>,
    pub clock: Rc<dyn Clock>,
    pub listener: Rc<RefCell<Option<Listener>>>,
    /// Streamed text so far and when it was last saved, per call in flight.
    pub live: RefCell<crate::engine::small_map::SmallMap<CallKey, (String, String, u64)>>,
}

impl Recorder {
    fn notify(&self, u: &super::runner::Update) {
        let l = self.listener.borrow().clone();
        if let Some(l) = l {
            l(&self.debate, u);
        }
    }
}

impl Observer for Recorder {
    fn on_event(&self, event: &Event) {
        match &event.kind {
            EventKind::TurnStarted { call, seat, .. } => {
                self.live.borrow_mut().insert(
                    call.clone(),
                    (seat.clone(), String::new(), self.clock.now_ms()),
                );
            }
            EventKind::TurnFinished { call, .. } | EventKind::TurnFailed { call, .. } => {
                self.live.borrow_mut().remove(call);
            }
            _ => {}
        }
        let _ = self.tx.unbounded_send(Write::Event(event.clone()));
        self.notify(&super::runner::Update::Event(event.clone()));
    }

    fn on_delta(&self, call: &CallKey, seat: &str, delta: &str) {
        let now = self.clock.now_ms();
        let save = {
            let mut live = self.live.borrow_mut();
            let entry =
                live.entry_or_insert_with(call.clone(), || (seat.to_string(), String::new(), now));
            entry.1.push_str(delta);
            if now.saturating_sub(entry.2) >= IN_FLIGHT_EVERY_MS {
                entry.2 = now;
                Some(InFlight {
                    call: call.clone(),
                    seat: entry.0.clone(),
                    text: entry.1.clone(),
                })
            } else {
                None
            }
        };
        if let Some(rec) = save {
            let _ = self.tx.unbounded_send(Write::InFlight(rec));
        }
        self.notify(&super::runner::Update::Delta {
            call: call.clone(),
            seat: seat.to_string(),
            delta: delta.to_string(),
        });
    }
}

/// Drains the queue into the store. A failed write is reported once per kind of failure
/// and the debate goes on: losing storage must not lose the debate on screen.
pub async fn run_writer(
    id: String,
    store: Rc<dyn Store>,
    mut summary: DebateSummary,
    mut rx: mpsc::UnboundedReceiver<Write>,
    on_error: Rc<dyn Fn(String)>,
) {
    let mut reported = false;
    let mut report = |e: String| {
        if !reported {
            reported = true;
            on_error(format!("Saving this debate failed: {e}. It stays on screen; export it before closing the tab."));
        }
    };
    while let Some(w) = rx.next().await {
        match w {
            Write::Event(e) => {
                summary.apply(&e);
                if let Err(err) = store.append(&id, &e).await {
                    report(err);
                }
                if let EventKind::TurnFinished { call, .. } | EventKind::TurnFailed { call, .. } =
                    &e.kind
                {
                    let _ = store.clear_in_flight(&id, call).await;
                }
                if let Err(err) = store.put_summary(&summary).await {
                    report(err);
                }
            }
            Write::InFlight(rec) => {
                if let Err(err) = store.put_in_flight(&id, &rec).await {
                    report(err);
                }
            }
        }
    }
}
