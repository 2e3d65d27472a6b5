//! Persists a debate as it happens: every finished event at once, the text of a turn in
//! flight at most about once a second, in the order they happened (one writer task per
//! debate awaits each write before the next). The whole log is also kept in memory
//! (`Kept`) while the debate runs, so a failed write loses nothing on screen or in an
//! export.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::channel::mpsc;
use futures::StreamExt;

use crate::engine::clock::Clock;
use crate::engine::context::Observer;
use crate::engine::event::{Event, EventKind};
use crate::engine::CallKey;
use crate::store::{DebateSummary, InFlight, Store, StoredDebate};
use std::collections::HashMap;

/// How often the text of a streaming turn is saved.
pub const IN_FLIGHT_EVERY_MS: u64 = 1_000;

pub enum Write {
    /// Boxed: an event is far larger than a turn's text in flight.
    Event(Box<Event>),
    InFlight(InFlight),
}

pub type Listener = Rc<dyn Fn(&str, &super::runner::Update)>;

/// A debate as this tab knows it: every event so far and the text of the calls in flight.
/// It is what `Session::load` answers for a debate running here, and for one whose store
/// failed, until the tab closes.
pub struct Kept {
    pub events: RefCell<Vec<Event>>,
    /// Seat, streamed text so far and when it was last saved, per call in flight.
    pub live: RefCell<HashMap<CallKey, (String, String, u64)>>,
    /// A write failed: the store holds a consistent beginning of the log and nothing after
    /// it, so this copy is the only whole one.
    pub unsaved: Cell<bool>,
}

impl Kept {
    pub fn new(events: Vec<Event>, unsaved: bool) -> Self {
        Kept {
            events: RefCell::new(events),
            live: RefCell::new(HashMap::new()),
            unsaved: Cell::new(unsaved),
        }
    }

    pub fn summary(&self, id: &str) -> DebateSummary {
        let mut s = DebateSummary::new(id);
        for e in self.events.borrow().iter() {
            s.apply(e);
        }
        s
    }

    pub fn snapshot(&self, id: &str) -> StoredDebate {
        StoredDebate {
            summary: self.summary(id),
            events: self.events.borrow().clone(),
            in_flight: self
                .live
                .borrow()
                .keys()
                .zip(self.live.borrow().values())
                .map(|(call, (seat, text, _))| InFlight {
                    call: call.clone(),
                    seat: seat.clone(),
                    text: text.clone(),
                })
                .collect(),
        }
    }
}

/// The observer given to the engine: keeps the log in memory, forwards everything to the
/// UI listener and queues writes for the store.
pub struct Recorder {
    pub debate: String,
    /// The session's connections, for the key to keep out of a turn's text saved while
    /// it streams (a finished turn's is redacted by the router).
    pub connections: Rc<RefCell<Vec<crate::session::Connection>>>,
    pub tx: mpsc::UnboundedSender<Write>,
    pub clock: Rc<dyn Clock>,
    pub listener: Rc<RefCell<Option<Listener>>>,
    pub kept: Rc<Kept>,
}

impl Recorder {
    /// The key of the connection `seat` runs on in this debate, if it has one.
    fn key_of(&self, seat: &str) -> Option<String> {
        use crate::engine::config::Participant;
        let events = self.kept.events.borrow();
        let config = crate::engine::event::config_of(&events)?;
        let Participant::Model { connection, .. } = &config.seat(seat)?.participant else {
            return None;
        };
        let conns = self.connections.borrow();
        let key = &conns.iter().find(|c| &c.id == connection)?.api_key;
        (!key.trim().is_empty()).then(|| key.clone())
    }

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
                self.kept.live.borrow_mut().insert(
                    call.clone(),
                    (seat.clone(), String::new(), self.clock.now_ms()),
                );
            }
            EventKind::TurnFinished { call, .. } | EventKind::TurnFailed { call, .. } => {
                self.kept.live.borrow_mut().remove(call);
            }
            _ => {}
        }
        self.kept.events.borrow_mut().push(event.clone());
        let _ = self
            .tx
            .unbounded_send(Write::Event(Box::new(event.clone())));
        self.notify(&super::runner::Update::Event(Box::new(event.clone())));
    }

    fn on_delta(&self, call: &CallKey, seat: &str, delta: &str) {
        let now = self.clock.now_ms();
        let save = {
            let mut live = self.kept.live.borrow_mut();
            let entry = live
                .entry(call.clone())
                .or_insert_with(|| (seat.to_string(), String::new(), now));
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
        if let Some(mut rec) = save {
            if let Some(key) = self.key_of(seat) {
                rec.text = crate::llm::redact::redact_streaming(&rec.text, &key);
            }
            let _ = self.tx.unbounded_send(Write::InFlight(rec));
        }
        self.notify(&super::runner::Update::Delta {
            call: call.clone(),
            seat: seat.to_string(),
            delta: delta.to_string(),
        });
    }
}

/// Drains the queue into the store. At the first failed write the user is told why, and
/// nothing more is written: the stored log stays a consistent beginning of the debate
/// (resumable, with no gap), while the debate goes on in memory (`Kept`), where the screen
/// and the exports read it.
pub async fn run_writer(
    id: String,
    store: Rc<dyn Store>,
    mut summary: DebateSummary,
    mut rx: mpsc::UnboundedReceiver<Write>,
    kept: Rc<Kept>,
    on_error: Rc<dyn Fn(String)>,
    on_done: Box<dyn FnOnce()>,
) {
    let fail = |e: crate::store::StoreError| {
        kept.unsaved.set(true);
        on_error(format!(
            "Saving this debate stopped: {e}. The debate goes on in this tab, and Export (Markdown or JSON) still holds all of it; the saved copy ends where saving stopped. Export before you close this tab."
        ));
    };
    while let Some(w) = rx.next().await {
        if kept.unsaved.get() {
            continue;
        }
        let result = match w {
            Write::Event(e) => {
                summary.apply(&e);
                let mut r = store.append(&id, &e).await;
                if r.is_ok() {
                    r = store.put_summary(&summary).await;
                }
                if let EventKind::TurnFinished { call, .. } | EventKind::TurnFailed { call, .. } =
                    &e.kind
                {
                    let _ = store.clear_in_flight(&id, call).await;
                }
                r
            }
            Write::InFlight(rec) => store.put_in_flight(&id, &rec).await,
        };
        if let Err(e) = result {
            fail(e);
        }
    }
    on_done();
}
