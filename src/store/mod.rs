//! Persistence of debates: IndexedDB in the browser (`idb`), memory in tests (`memory`).
//! What is stored is the event log plus a summary row for the history list, and the text
//! of the turn in flight (written about once a second). API keys are never stored here.

#[cfg(target_arch = "wasm32")]
pub mod idb;
pub mod memory;

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};

use crate::engine::event::{Event, EventKind, Outcome, SCHEMA_VERSION};
use crate::engine::CallKey;

/// A row of the history list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DebateSummary {
    pub id: String,
    pub topic: String,
    pub format: String,
    pub created_ms: u64,
    pub updated_ms: u64,
    pub turns: u32,
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// Event schema version the log was written with.
    pub schema: u32,
}

impl DebateSummary {
    /// Brings the row up to date with one more event.
    pub fn apply(&mut self, e: &Event) {
        self.updated_ms = self.updated_ms.max(e.at_ms);
        match &e.kind {
            EventKind::DebateStarted { config, .. } => {
                self.topic = config.topic.clone();
                self.format = config.format().label().to_string();
                self.created_ms = e.at_ms;
                self.schema = SCHEMA_VERSION;
            }
            EventKind::TurnFinished { .. } => self.turns += 1,
            EventKind::Resumed => self.outcome = None,
            EventKind::Finished { outcome, .. } => self.outcome = Some(*outcome),
            _ => {}
        }
    }

    pub fn new(id: &str) -> Self {
        DebateSummary {
            id: id.into(),
            topic: String::new(),
            format: String::new(),
            created_ms: 0,
            updated_ms: 0,
            turns: 0,
            outcome: None,
            schema: SCHEMA_VERSION,
        }
    }
}

/// The text of a turn that was streaming when last saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InFlight {
    pub call: CallKey,
    pub seat: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StoredDebate {
    pub summary: DebateSummary,
    pub events: Vec<Event>,
    pub in_flight: Vec<InFlight>,
}

pub type StoreResult<T> = Result<T, String>;

pub trait Store {
    fn put_summary<'a>(&'a self, summary: &'a DebateSummary)
        -> LocalBoxFuture<'a, StoreResult<()>>;
    fn append<'a>(&'a self, id: &'a str, event: &'a Event) -> LocalBoxFuture<'a, StoreResult<()>>;
    /// Saves (or, with empty text, clears) the in-flight text of a call.
    fn put_in_flight<'a>(
        &'a self,
        id: &'a str,
        rec: &'a InFlight,
    ) -> LocalBoxFuture<'a, StoreResult<()>>;
    fn clear_in_flight<'a>(
        &'a self,
        id: &'a str,
        call: &'a CallKey,
    ) -> LocalBoxFuture<'a, StoreResult<()>>;
    /// Every debate, newest first.
    fn list(&self) -> LocalBoxFuture<'_, StoreResult<Vec<DebateSummary>>>;
    fn load<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<Option<StoredDebate>>>;
    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>>;
}

/// Sorts history newest first (by creation time, then by id for a stable order).
pub fn newest_first(list: &mut [DebateSummary]) {
    list.sort_by(|a, b| {
        b.created_ms
            .cmp(&a.created_ms)
            .then_with(|| b.id.cmp(&a.id))
    });
}
