//! A store that is still opening: the app builds its session on this at once, so the setup
//! screen is usable before IndexedDB has answered (130–170 ms on a first visit,
//! BENCHMARKS.md "Load time"), and every read or write waits for the open instead.

use std::rc::Rc;

use futures::future::{FutureExt, LocalBoxFuture, Shared};

use super::{DebateSummary, InFlight, Store, StoreResult, StoredDebate, TournamentSummary};
use crate::engine::event::Event;
use crate::engine::tournament::progress::TournamentEvent;
use crate::engine::CallKey;

/// Every call waits for the store being opened, then goes to it. The open is started by
/// whoever polls it first: the app polls it at once.
#[derive(Clone)]
pub struct OpeningStore {
    opened: Shared<LocalBoxFuture<'static, Rc<dyn Store>>>,
}

impl OpeningStore {
    pub fn new(open: impl std::future::Future<Output = Rc<dyn Store>> + 'static) -> Self {
        OpeningStore {
            opened: open.boxed_local().shared(),
        }
    }

    /// The store once open (what every call awaits; the app awaits it to start the open).
    pub async fn opened(&self) -> Rc<dyn Store> {
        self.opened.clone().await
    }
}

impl Store for OpeningStore {
    fn put_summary<'a>(
        &'a self,
        summary: &'a DebateSummary,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move { self.opened().await.put_summary(summary).await })
    }
    fn append<'a>(&'a self, id: &'a str, event: &'a Event) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move { self.opened().await.append(id, event).await })
    }
    fn put_in_flight<'a>(
        &'a self,
        id: &'a str,
        rec: &'a InFlight,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move { self.opened().await.put_in_flight(id, rec).await })
    }
    fn clear_in_flight<'a>(
        &'a self,
        id: &'a str,
        call: &'a CallKey,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move { self.opened().await.clear_in_flight(id, call).await })
    }
    fn list(&self) -> LocalBoxFuture<'_, StoreResult<Vec<DebateSummary>>> {
        Box::pin(async move { self.opened().await.list().await })
    }
    fn load<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<Option<StoredDebate>>> {
        Box::pin(async move { self.opened().await.load(id).await })
    }
    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move { self.opened().await.delete(id).await })
    }
    fn append_tournament<'a>(
        &'a self,
        summary: &'a TournamentSummary,
        seq: u32,
        event: &'a TournamentEvent,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let store = self.opened().await;
            store.append_tournament(summary, seq, event).await
        })
    }
    fn tournaments(&self) -> LocalBoxFuture<'_, StoreResult<Vec<TournamentSummary>>> {
        Box::pin(async move { self.opened().await.tournaments().await })
    }
    fn tournament<'a>(
        &'a self,
        id: &'a str,
    ) -> LocalBoxFuture<'a, StoreResult<Option<Vec<TournamentEvent>>>> {
        Box::pin(async move { self.opened().await.tournament(id).await })
    }
    fn delete_tournament<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move { self.opened().await.delete_tournament(id).await })
    }
    // A whole debate in IndexedDB's one transaction, not the default's one write at a time.
    fn put_debate<'a>(
        &'a self,
        summary: &'a DebateSummary,
        events: &'a [Event],
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move { self.opened().await.put_debate(summary, events).await })
    }
    fn first_event<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<Option<Event>>> {
        Box::pin(async move { self.opened().await.first_event(id).await })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::memory::MemoryStore;
    use futures::channel::oneshot;
    use futures::executor::block_on;
    use futures::task::LocalSpawnExt;

    /// A debate written before the store has opened lands in it once it has, in order.
    #[test]
    fn writes_made_while_opening_wait_for_the_open_and_land_in_order() {
        let (open, opened) = oneshot::channel::<()>();
        let inner: Rc<dyn Store> = Rc::new(MemoryStore::new());
        let into = inner.clone();
        let store = OpeningStore::new(async move {
            let _ = opened.await;
            into
        });
        let summary = DebateSummary::new("d-1");
        let mut pool = futures::executor::LocalPool::new();
        let s = store.clone();
        let sum = summary.clone();
        pool.spawner()
            .spawn_local(async move {
                s.put_summary(&sum).await.unwrap();
            })
            .unwrap();
        pool.run_until_stalled();
        assert!(
            block_on(inner.list()).unwrap().is_empty(),
            "nothing before the open"
        );
        open.send(()).unwrap();
        pool.run_until_stalled();
        let listed = block_on(store.list()).unwrap();
        assert_eq!(
            listed.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(),
            ["d-1"]
        );
    }
}
