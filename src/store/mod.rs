//! Persistence of debates: IndexedDB in the browser (`idb`), memory in tests (`memory`).
//! What is stored is the event log plus a summary row for the history list, and the text
//! of the turn in flight (written about once a second); and each tournament's own log.
//! API keys are never stored here.

#[cfg(target_arch = "wasm32")]
pub mod idb;
pub mod memory;

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};

use crate::engine::config::FormatId;
use crate::engine::event::{Event, EventKind, Outcome, SCHEMA_VERSION};
use crate::engine::CallKey;

/// A row of the history list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DebateSummary {
    pub id: String,
    pub topic: String,
    /// `None` only before the log's first event is in.
    #[serde(default)]
    pub format: Option<FormatId>,
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
                self.format = Some(config.format());
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
            format: None,
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

    /// Writes a tournament's whole log (JSON) over the one stored: a tournament's log is
    /// one event per debate and verdict, small beside its debates.
    fn put_tournament<'a>(
        &'a self,
        id: &'a str,
        json: &'a str,
    ) -> LocalBoxFuture<'a, StoreResult<()>>;
    /// Every stored tournament: its id and its log's JSON.
    fn tournaments(&self) -> LocalBoxFuture<'_, StoreResult<Vec<(String, String)>>>;
    /// One tournament's log (JSON), if it is stored.
    fn tournament<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<Option<String>>>;
    /// Deletes a tournament's log; its debates stay in History.
    fn delete_tournament<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>>;

    /// Stores a whole debate (an import, a restored backup, a fork): its events and its
    /// summary. IndexedDB writes them in one transaction, all or nothing; this default
    /// writes them one by one (the caller removes a debate half written).
    fn put_debate<'a>(
        &'a self,
        summary: &'a DebateSummary,
        events: &'a [Event],
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            for e in events {
                self.append(&summary.id, e).await?;
            }
            self.put_summary(summary).await
        })
    }

    /// A debate's first event (how it started), without reading the rest of its log: enough
    /// to tell whether a restored debate is already here.
    fn first_event<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<Option<Event>>> {
        Box::pin(async move {
            Ok(self
                .load(id)
                .await?
                .and_then(|d| d.events.into_iter().next()))
        })
    }
}

/// Sorts history newest first (by creation time, then by id for a stable order).
pub fn newest_first(list: &mut [DebateSummary]) {
    crate::engine::sort::sort_by(list, |a, b| {
        b.created_ms
            .cmp(&a.created_ms)
            .then_with(|| b.id.cmp(&a.id))
    });
}

/// What the history screen's search box and filters ask for. Empty fields keep everything.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HistoryFilter {
    /// Words that must all appear in the topic, in any case and order.
    pub text: String,
    /// One format, or `None` for any.
    pub format: Option<FormatId>,
    /// `finished`, `stopped`, `failed`, `unfinished`, or empty for any.
    pub status: String,
    /// Started at or after this time (ms since the epoch).
    pub from_ms: Option<u64>,
    /// Started before this time.
    pub until_ms: Option<u64>,
}

impl HistoryFilter {
    pub fn keeps(&self, d: &DebateSummary) -> bool {
        let topic = d.topic.to_lowercase();
        let words_ok = self
            .text
            .to_lowercase()
            .split_whitespace()
            .all(|w| topic.contains(w));
        let status = match d.outcome {
            Some(Outcome::Completed) => "finished",
            Some(Outcome::Stopped) => "stopped",
            Some(Outcome::Failed) => "failed",
            None => "unfinished",
        };
        words_ok
            && (self.format.is_none() || self.format == d.format)
            && (self.status.is_empty() || self.status == status)
            && self.from_ms.is_none_or(|t| d.created_ms >= t)
            && self.until_ms.is_none_or(|t| d.created_ms < t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        id: &str,
        topic: &str,
        format: FormatId,
        created_ms: u64,
        outcome: Option<Outcome>,
    ) -> DebateSummary {
        DebateSummary {
            topic: topic.into(),
            format: Some(format),
            created_ms,
            outcome,
            ..DebateSummary::new(id)
        }
    }

    #[test]
    fn search_and_filters_find_the_right_debates() {
        let list = [
            row(
                "a",
                "Should Cities ban cars?",
                FormatId::Classic,
                1_000,
                Some(Outcome::Completed),
            ),
            row(
                "b",
                "Is nuclear power essential?",
                FormatId::Duelogic,
                2_000,
                None,
            ),
            row(
                "c",
                "Ÿes: ÉCOLES et voitures",
                FormatId::Classic,
                3_000,
                Some(Outcome::Failed),
            ),
        ];
        let ids = |f: &HistoryFilter| -> Vec<&str> {
            list.iter()
                .filter(|d| f.keeps(d))
                .map(|d| d.id.as_str())
                .collect()
        };
        assert_eq!(ids(&HistoryFilter::default()), ["a", "b", "c"]);
        // Every word, any case, any order, Unicode case folding included.
        let text = |t: &str| HistoryFilter {
            text: t.into(),
            ..Default::default()
        };
        assert_eq!(ids(&text("cars cities")), ["a"]);
        assert_eq!(ids(&text("écoles")), ["c"]);
        assert_eq!(ids(&text("cars nuclear")), Vec::<&str>::new());
        let format = HistoryFilter {
            format: Some(FormatId::Classic),
            ..Default::default()
        };
        assert_eq!(ids(&format), ["a", "c"]);
        // A row stored before schema 3 named its format by label; it still filters.
        let old: DebateSummary = serde_json::from_str(
            r#"{"id":"d","topic":"t","format":"Crux","created_ms":1,"updated_ms":1,"turns":0,"schema":2}"#,
        )
        .unwrap();
        assert_eq!(old.format, Some(FormatId::Crux));
        let status = |s: &str| HistoryFilter {
            status: s.into(),
            ..Default::default()
        };
        assert_eq!(ids(&status("unfinished")), ["b"]);
        assert_eq!(ids(&status("failed")), ["c"]);
        let dates = HistoryFilter {
            from_ms: Some(2_000),
            until_ms: Some(3_000),
            ..Default::default()
        };
        assert_eq!(ids(&dates), ["b"]);
    }
}
