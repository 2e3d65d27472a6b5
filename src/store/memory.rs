//! An in-memory store with the same behaviour as IndexedDB, for native tests.

use std::cell::RefCell;
use std::collections::BTreeMap;

use futures::future::{ready, LocalBoxFuture};

use super::{
    newest_first, DebateSummary, InFlight, Store, StoreResult, StoredDebate, TournamentSummary,
};
use crate::engine::event::Event;
use crate::engine::tournament::progress::TournamentEvent;
use crate::engine::CallKey;

/// A debate as kept: its summary, its log and the text of its calls in flight.
type Stored = (DebateSummary, Vec<Event>, Vec<InFlight>);

#[derive(Default)]
pub struct MemoryStore {
    debates: RefCell<BTreeMap<String, Stored>>,
    /// Each tournament's summary and its log, a JSON record per event, as IndexedDB keeps
    /// them.
    tournaments: RefCell<BTreeMap<String, (TournamentSummary, Vec<String>)>>,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// A tournament's records as stored, for tests that check none is ever written again.
    pub fn tournament_records(&self, id: &str) -> Vec<String> {
        self.tournaments
            .borrow()
            .get(id)
            .map(|t| t.1.clone())
            .unwrap_or_default()
    }
}

fn ok<'a, T: 'a>(v: T) -> LocalBoxFuture<'a, StoreResult<T>> {
    Box::pin(ready(Ok(v)))
}

impl Store for MemoryStore {
    fn put_summary<'a>(
        &'a self,
        summary: &'a DebateSummary,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        let mut d = self.debates.borrow_mut();
        let entry = d
            .entry(summary.id.clone())
            .or_insert_with(|| (summary.clone(), Vec::new(), Vec::new()));
        entry.0 = summary.clone();
        ok(())
    }

    fn append<'a>(&'a self, id: &'a str, event: &'a Event) -> LocalBoxFuture<'a, StoreResult<()>> {
        let mut d = self.debates.borrow_mut();
        let entry = d
            .entry(id.to_string())
            .or_insert_with(|| (DebateSummary::new(id), Vec::new(), Vec::new()));
        // Keyed by sequence number like IndexedDB: writing the same event twice keeps one.
        match entry.1.iter_mut().find(|e| e.seq == event.seq) {
            Some(e) => *e = event.clone(),
            None => entry.1.push(event.clone()),
        }
        ok(())
    }

    fn put_in_flight<'a>(
        &'a self,
        id: &'a str,
        rec: &'a InFlight,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        if let Some(entry) = self.debates.borrow_mut().get_mut(id) {
            entry.2.retain(|r| r.call != rec.call);
            entry.2.push(rec.clone());
        }
        ok(())
    }

    fn clear_in_flight<'a>(
        &'a self,
        id: &'a str,
        call: &'a CallKey,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        if let Some(entry) = self.debates.borrow_mut().get_mut(id) {
            entry.2.retain(|r| &r.call != call);
        }
        ok(())
    }

    fn list(&self) -> LocalBoxFuture<'_, StoreResult<Vec<DebateSummary>>> {
        let mut v: Vec<DebateSummary> = self
            .debates
            .borrow()
            .values()
            .map(|d| d.0.clone())
            .collect();
        newest_first(&mut v);
        ok(v)
    }

    fn load<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<Option<StoredDebate>>> {
        let found = self.debates.borrow().get(id).map(|(s, e, f)| {
            let mut events = e.clone();
            events.sort_by_key(|e| e.seq);
            StoredDebate {
                summary: s.clone(),
                events,
                in_flight: f.clone(),
            }
        });
        ok(found)
    }

    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>> {
        self.debates.borrow_mut().remove(id);
        ok(())
    }

    fn append_tournament<'a>(
        &'a self,
        summary: &'a TournamentSummary,
        seq: u32,
        event: &'a TournamentEvent,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        let mut all = self.tournaments.borrow_mut();
        let entry = all
            .entry(summary.id.clone())
            .or_insert_with(|| (summary.clone(), Vec::new()));
        // As IndexedDB's `add`: a record already there is refused, never overwritten.
        if seq as usize != entry.1.len() {
            return Box::pin(ready(Err(format!(
                "record {seq} of tournament {} cannot be added after {} records",
                summary.id,
                entry.1.len()
            )
            .into())));
        }
        entry.0 = summary.clone();
        entry
            .1
            .push(serde_json::to_string(event).unwrap_or_default());
        ok(())
    }

    fn tournaments(&self) -> LocalBoxFuture<'_, StoreResult<Vec<TournamentSummary>>> {
        let mut v: Vec<TournamentSummary> = self
            .tournaments
            .borrow()
            .values()
            .map(|t| t.0.clone())
            .collect();
        crate::store::newest_tournaments_first(&mut v);
        ok(v)
    }

    fn tournament<'a>(
        &'a self,
        id: &'a str,
    ) -> LocalBoxFuture<'a, StoreResult<Option<Vec<TournamentEvent>>>> {
        let records = self.tournaments.borrow().get(id).map(|t| t.1.clone());
        Box::pin(ready(
            records
                .map(|r| crate::store::read_tournament(r.iter().map(String::as_str)))
                .transpose(),
        ))
    }

    fn delete_tournament<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>> {
        self.tournaments.borrow_mut().remove(id);
        ok(())
    }
}
