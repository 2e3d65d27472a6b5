//! Persistence of debates: IndexedDB in the browser (`idb`), memory in tests (`memory`).
//! What is stored is the event log plus a summary row for the history list, and the text
//! of the turn in flight (written about once a second); and each tournament's own log, one
//! record per event, with a summary row for the tournaments list. API keys are never stored
//! here.

#[cfg(target_arch = "wasm32")]
pub mod idb;
pub mod memory;
pub mod opening;

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};

use crate::engine::config::FormatId;
use crate::engine::event::{Event, EventKind, Outcome, SCHEMA_VERSION};
use crate::engine::tournament::progress::{Tournament, TournamentEvent};
use crate::engine::tournament::schedule::judge_calls;
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

/// Why the store could not do what was asked.
#[derive(Clone, Debug, PartialEq)]
pub enum StoreError {
    /// The browser's storage for this site is full (the error's name and message): the
    /// likely failure of a long debate's writes, told apart so a screen can say what to do.
    Full(String),
    /// Anything else, in words.
    Failed(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Full(detail) => {
                write!(f, "the browser's storage for this site is full ({detail})")
            }
            StoreError::Failed(words) => f.write_str(words),
        }
    }
}

impl From<String> for StoreError {
    fn from(words: String) -> Self {
        StoreError::Failed(words)
    }
}

impl From<&str> for StoreError {
    fn from(words: &str) -> Self {
        StoreError::Failed(words.to_string())
    }
}

impl From<StoreError> for String {
    fn from(e: StoreError) -> Self {
        e.to_string()
    }
}

pub type StoreResult<T> = Result<T, StoreError>;

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

    /// Appends event `seq` to tournament `id`'s log and puts its summary row. The log is
    /// appended, never rewritten: a tournament of a thousand debates writes one small
    /// record per event, and a `seq` already stored is refused rather than overwritten.
    fn append_tournament<'a>(
        &'a self,
        summary: &'a TournamentSummary,
        seq: u32,
        event: &'a TournamentEvent,
    ) -> LocalBoxFuture<'a, StoreResult<()>>;
    /// Every stored tournament's summary, newest first.
    fn tournaments(&self) -> LocalBoxFuture<'_, StoreResult<Vec<TournamentSummary>>>;
    /// One tournament's log, read once, in order; `None` when it is not stored.
    fn tournament<'a>(
        &'a self,
        id: &'a str,
    ) -> LocalBoxFuture<'a, StoreResult<Option<Vec<TournamentEvent>>>>;
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

/// A row of the tournaments list: what the list shows, without reading the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSummary {
    pub id: String,
    pub name: String,
    pub format: FormatId,
    pub contestants: u32,
    pub motions: u32,
    pub debates: u32,
    pub debates_done: u32,
    /// Verdicts to give (every judge allowed on every debate), and those given.
    pub verdicts: u32,
    pub verdicts_in: u32,
    /// Why its last run stopped, if it did and nothing ran since.
    #[serde(default)]
    pub stopped: Option<String>,
    pub updated_ms: u64,
}

impl TournamentSummary {
    pub fn of(id: &str, t: &Tournament, updated_ms: u64) -> Self {
        let (debates_done, verdicts_in) = t.counts();
        TournamentSummary {
            id: id.into(),
            name: t.spec.name.clone(),
            format: t.spec.format,
            contestants: t.spec.contestants.len() as u32,
            motions: t.spec.motions.len() as u32,
            debates: t.matches.len() as u32,
            debates_done: debates_done as u32,
            verdicts: judge_calls(&t.matches) as u32,
            verdicts_in: verdicts_in as u32,
            stopped: t.stopped.clone(),
            updated_ms,
        }
    }

    pub fn finished(&self) -> bool {
        self.debates_done == self.debates && self.verdicts_in == self.verdicts
    }
}

/// Sorts history newest first (by creation time, then by id for a stable order).
pub fn newest_first(list: &mut [DebateSummary]) {
    list.sort_by(|a, b| {
        b.created_ms
            .cmp(&a.created_ms)
            .then_with(|| b.id.cmp(&a.id))
    });
}

/// Sorts tournaments newest first (by last change, then by id).
pub fn newest_tournaments_first(list: &mut [TournamentSummary]) {
    list.sort_by(|a, b| {
        b.updated_ms
            .cmp(&a.updated_ms)
            .then_with(|| b.id.cmp(&a.id))
    });
}

/// A tournament's stored records (JSON, in order) as its log; a record that cannot be read
/// is named, so a corrupt log is said to be one rather than folded short.
pub fn read_tournament<'a>(
    records: impl Iterator<Item = &'a str>,
) -> StoreResult<Vec<TournamentEvent>> {
    records
        .enumerate()
        .map(|(i, json)| {
            serde_json::from_str(json).map_err(|e| {
                format!(
                    "record {} of this tournament's log cannot be read ({e})",
                    i + 1
                )
                .into()
            })
        })
        .collect()
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
