//! IndexedDB persistence. Five object stores: `debates` (one summary row per debate, key
//! `id`), `events` (key `[debate, seq]`), `in_flight` (key `[debate, call]`), since
//! version 2 `tournaments` (one summary row per tournament, key `id`) and since version 3
//! `tournament_events` (a tournament's log, one record per event, key `[tournament, seq]`:
//! appended, never rewritten; version 2 kept the whole log in one row). Records hold
//! their payload as a JSON string, so the schema of what we store is serde's, versioned by
//! the event schema; `DB_VERSION` versions only the object stores themselves.
//!
//! A write counts once its transaction has completed, not when its request succeeded:
//! browsers report a full quota when the transaction commits. Opening never waits forever:
//! a database held open at an older version by another tab (`blocked`), or one that does
//! not answer within `OPEN_LIMIT_MS`, is an error that says what to do; and this tab lets
//! go of its own connection when a newer Agora elsewhere needs to upgrade it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    IdbDatabase, IdbKeyRange, IdbObjectStoreParameters, IdbOpenDbRequest, IdbRequest,
    IdbTransaction, IdbTransactionMode,
};

use super::{
    newest_first, newest_tournaments_first, read_tournament, DebateSummary, InFlight, Store,
    StoreError, StoreResult, StoredDebate, TournamentSummary,
};
use crate::engine::event::{migrate, migrate_one, Event};
use crate::engine::tournament::progress::TournamentEvent;
use crate::engine::CallKey;

pub const DB_VERSION: u32 = 3;
const DEBATES: &str = "debates";
const EVENTS: &str = "events";
const IN_FLIGHT: &str = "in_flight";
const TOURNAMENTS: &str = "tournaments";
const TOURNAMENT_EVENTS: &str = "tournament_events";
/// The longest the page is kept busy reading one piece of a stored log.
const READ_SLICE_MS: f64 = 8.0;
/// How long opening the database may take before Agora goes on without it.
pub const OPEN_LIMIT_MS: i32 = 10_000;

pub struct IdbStore {
    db: IdbDatabase,
    /// Set when another tab's newer Agora asked for the database and this tab closed it.
    closed: Rc<Cell<bool>>,
    _on_version_change: Closure<dyn FnMut()>,
}

/// Words for a failed transaction; a full quota gets its own, since it is the likely one.
fn dom_err(context: &str, e: Option<web_sys::DomException>) -> StoreError {
    match e {
        Some(e) if e.name() == "QuotaExceededError" => {
            StoreError::Full(format!("{}: {}", e.name(), e.message()))
        }
        Some(e) => StoreError::Failed(format!("{context}: {} ({})", e.message(), e.name())),
        None => StoreError::Failed(format!("{context}: the browser gave no reason")),
    }
}

/// Waits for a transaction to commit. Its handler is set at once (before any event can
/// fire) and removed when this is dropped, so it is never called after it is gone. A failed
/// request's `error` is always followed by the transaction's `abort`, which carries the
/// reason, so `complete` and `abort` are all it listens to.
struct Committed {
    tx: IdbTransaction,
    rx: oneshot::Receiver<Result<(), StoreError>>,
    _handler: Closure<dyn FnMut(web_sys::Event)>,
}

impl Committed {
    fn watch(tx: &IdbTransaction) -> Self {
        let (send, rx) = oneshot::channel();
        let send = RefCell::new(Some(send));
        let t = tx.clone();
        let handler = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
            if let Some(s) = send.borrow_mut().take() {
                let _ = s.send(match ev.type_().as_str() {
                    "complete" => Ok(()),
                    _ => Err(dom_err("saving failed", t.error())),
                });
            }
        });
        tx.set_oncomplete(Some(handler.as_ref().unchecked_ref()));
        tx.set_onabort(Some(handler.as_ref().unchecked_ref()));
        Committed {
            tx: tx.clone(),
            rx,
            _handler: handler,
        }
    }

    async fn wait(mut self) -> Result<(), StoreError> {
        (&mut self.rx).await.unwrap_or_else(|_| {
            Err(StoreError::Failed(
                "IndexedDB transaction was dropped".into(),
            ))
        })
    }
}

impl Drop for Committed {
    fn drop(&mut self) {
        self.tx.set_oncomplete(None);
        self.tx.set_onabort(None);
    }
}

/// Resolves after `ms` (a browser timer: the store has no clock of its own).
fn after(ms: i32) -> impl std::future::Future<Output = ()> {
    let (tx, rx) = oneshot::channel::<()>();
    let cb = Closure::once_into_js(move || {
        let _ = tx.send(());
    });
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), ms);
    }
    async move {
        let _ = rx.await;
    }
}

fn js_err(context: &str, e: JsValue) -> String {
    let detail = Reflect::get(&e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string());
    format!(
        "{context}: {}",
        detail.unwrap_or_else(|| "unknown browser error".into())
    )
}

/// Resolves with the request's result once it succeeds, or its error.
async fn done(req: &IdbRequest) -> Result<JsValue, String> {
    let (tx, rx) = oneshot::channel::<Result<JsValue, String>>();
    let tx = std::rc::Rc::new(std::cell::RefCell::new(Some(tx)));
    let (t1, t2) = (tx.clone(), tx);
    let r1 = req.clone();
    let ok = Closure::once(move |_: web_sys::Event| {
        if let Some(tx) = t1.borrow_mut().take() {
            let _ = tx.send(r1.result().map_err(|e| js_err("IndexedDB", e)));
        }
    });
    let r2 = req.clone();
    let fail = Closure::once(move |_: web_sys::Event| {
        if let Some(tx) = t2.borrow_mut().take() {
            let e = r2
                .error()
                .ok()
                .flatten()
                .map(|d| d.message())
                .unwrap_or_default();
            let _ = tx.send(Err(format!("IndexedDB request failed: {e}")));
        }
    });
    req.set_onsuccess(Some(ok.as_ref().unchecked_ref()));
    req.set_onerror(Some(fail.as_ref().unchecked_ref()));
    let out = rx
        .await
        .unwrap_or_else(|_| Err("IndexedDB request was dropped".into()));
    req.set_onsuccess(None);
    req.set_onerror(None);
    out
}

fn record(fields: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in fields {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

/// A debate's row in `debates`.
fn summary_row(summary: &DebateSummary) -> Result<JsValue, String> {
    let json = serde_json::to_string(summary).map_err(|e| e.to_string())?;
    Ok(record(&[
        ("id", summary.id.as_str().into()),
        ("json", json.into()),
    ]))
}

/// An event's row in `events`, keyed `[debate, seq]`.
fn event_row(id: &str, event: &Event) -> Result<JsValue, String> {
    let json = serde_json::to_string(event).map_err(|e| e.to_string())?;
    Ok(record(&[
        ("debate", id.into()),
        ("seq", JsValue::from_f64(event.seq.into())),
        ("json", json.into()),
    ]))
}

fn json_of(v: &JsValue) -> Option<String> {
    Reflect::get(v, &"json".into())
        .ok()
        .and_then(|j| j.as_string())
}

fn range(id: &str, low: JsValue, high: JsValue) -> Result<IdbKeyRange, String> {
    let lo = Array::of2(&JsValue::from_str(id), &low);
    let hi = Array::of2(&JsValue::from_str(id), &high);
    IdbKeyRange::bound(&lo, &hi).map_err(|e| js_err("key range", e))
}

fn event_range(id: &str) -> Result<IdbKeyRange, String> {
    range(
        id,
        JsValue::from_f64(0.0),
        JsValue::from_f64(f64::from(u32::MAX)),
    )
}

fn in_flight_range(id: &str) -> Result<IdbKeyRange, String> {
    range(id, JsValue::from_str(""), JsValue::from_str("\u{ffff}"))
}

impl IdbStore {
    /// Opens (creating or upgrading) the database named `name`; an error says what to do.
    pub async fn open(name: &str) -> Result<Self, String> {
        let window = web_sys::window().ok_or("no window")?;
        let factory = window
            .indexed_db()
            .map_err(|e| js_err("IndexedDB is unavailable", e))?
            .ok_or("IndexedDB is unavailable in this browser (private mode?)")?;
        let req: IdbOpenDbRequest = factory
            .open_with_u32(name, DB_VERSION)
            .map_err(|e| js_err("opening IndexedDB", e))?;
        let upgrade = Closure::<dyn FnMut(web_sys::IdbVersionChangeEvent)>::new(
            move |ev: web_sys::IdbVersionChangeEvent| {
                let Some(target) = ev.target() else { return };
                let Ok(req) = target.dyn_into::<IdbRequest>() else {
                    return;
                };
                let Ok(db) = req.result().and_then(|r| r.dyn_into::<IdbDatabase>()) else {
                    return;
                };
                let names = db.object_store_names();
                let make = |store: &str, key: JsValue| {
                    if !names.contains(store) {
                        let params = IdbObjectStoreParameters::new();
                        params.set_key_path(&key);
                        let _ = db.create_object_store_with_optional_parameters(store, &params);
                    }
                };
                make(DEBATES, JsValue::from_str("id"));
                make(EVENTS, Array::of2(&"debate".into(), &"seq".into()).into());
                make(
                    IN_FLIGHT,
                    Array::of2(&"debate".into(), &"call".into()).into(),
                );
                // Version 2 added the first, version 3 the second: an upgrade adds only
                // what is missing.
                make(TOURNAMENTS, JsValue::from_str("id"));
                make(
                    TOURNAMENT_EVENTS,
                    Array::of2(&"tournament".into(), &"seq".into()).into(),
                );
            },
        );
        req.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
        // One answer settles the open: opened, failed, blocked by another tab, or too slow.
        // A database that opens after Agora gave up on it is closed again at once.
        let (send, answer) = oneshot::channel::<Result<IdbDatabase, String>>();
        let send = RefCell::new(Some(send));
        let settle: Rc<dyn Fn(Result<IdbDatabase, String>)> =
            Rc::new(move |r| match send.borrow_mut().take() {
                Some(s) => {
                    let _ = s.send(r);
                }
                None => {
                    if let Ok(db) = r {
                        db.close();
                    }
                }
            });
        let on = |f: Box<dyn Fn() -> Result<IdbDatabase, String>>| {
            let settle = settle.clone();
            Closure::<dyn FnMut()>::new(move || settle(f()))
        };
        let r = req.clone();
        let opened = on(Box::new(move || {
            r.result()
                .and_then(|db| db.dyn_into::<IdbDatabase>())
                .map_err(|e| js_err("opening IndexedDB", e))
        }));
        let r = req.clone();
        let failed = on(Box::new(move || {
            Err(dom_err("opening IndexedDB", r.error().ok().flatten()).into())
        }));
        let blocked = on(Box::new(|| {
            Err("Agora's stored debates are held open by another tab running an older Agora. Close or reload the other Agora tabs, then reload this page".into())
        }));
        let too_slow = on(Box::new(|| {
            Err(format!("The browser's database did not open within {} seconds. Close other Agora tabs and reload this page; if that does not help, restart the browser", OPEN_LIMIT_MS / 1000))
        }));
        req.set_onsuccess(Some(opened.as_ref().unchecked_ref()));
        req.set_onerror(Some(failed.as_ref().unchecked_ref()));
        req.set_onblocked(Some(blocked.as_ref().unchecked_ref()));
        let timer = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                too_slow.as_ref().unchecked_ref(),
                OPEN_LIMIT_MS,
            )
            .ok();
        let result = answer
            .await
            .unwrap_or_else(|_| Err("IndexedDB did not answer".into()));
        let handlers = (upgrade, opened, failed, blocked, too_slow);
        let db = match result {
            Ok(db) => {
                req.set_onupgradeneeded(None);
                req.set_onsuccess(None);
                req.set_onerror(None);
                req.set_onblocked(None);
                // The timer goes with its handler: a handler dropped while its timer still
                // ran was called 10 s later and threw "closure invoked … after being dropped".
                if let Some(t) = timer {
                    window.clear_timeout_with_handle(t);
                }
                drop(handlers);
                db
            }
            Err(e) => {
                // The request may still answer (once the other tab lets go): its handlers
                // stay to close what it opens.
                std::mem::forget(handlers);
                return Err(e);
            }
        };
        // A newer Agora in another tab needs to upgrade the database: let go of it rather
        // than block it. Writes from here on fail with a message saying to reload.
        let closed = Rc::new(Cell::new(false));
        let on_version_change = Closure::<dyn FnMut()>::new({
            let (db, closed) = (db.clone(), closed.clone());
            move || {
                db.close();
                closed.set(true);
            }
        });
        db.set_onversionchange(Some(on_version_change.as_ref().unchecked_ref()));
        Ok(IdbStore {
            db,
            closed,
            _on_version_change: on_version_change,
        })
    }

    fn transaction(
        &self,
        names: &[&str],
        mode: IdbTransactionMode,
    ) -> Result<IdbTransaction, String> {
        if self.closed.get() {
            return Err("a newer Agora opened in another tab took over the stored debates; reload this tab to save again".into());
        }
        let list: Array = names.iter().map(|n| JsValue::from_str(n)).collect();
        self.db
            .transaction_with_str_sequence_and_mode(&list, mode)
            .map_err(|e| js_err("IndexedDB transaction", e))
    }

    fn store(
        &self,
        name: &str,
        mode: IdbTransactionMode,
    ) -> Result<web_sys::IdbObjectStore, String> {
        self.transaction(&[name], mode)?
            .object_store(name)
            .map_err(|e| js_err("IndexedDB transaction", e))
    }

    /// One request on one store in its own transaction; done once it has committed.
    async fn write(
        &self,
        name: &str,
        what: &str,
        request: impl FnOnce(&web_sys::IdbObjectStore) -> Result<IdbRequest, JsValue>,
    ) -> StoreResult<()> {
        let tx = self.transaction(&[name], IdbTransactionMode::Readwrite)?;
        let committed = Committed::watch(&tx);
        tx.object_store(name)
            .and_then(|s| request(&s))
            .map_err(|e| js_err(what, e))?;
        committed.wait().await
    }

    /// Writes one record.
    async fn put(&self, name: &str, value: JsValue) -> StoreResult<()> {
        self.write(name, "saving", |s| s.put(&value)).await
    }

    /// Deletes one record.
    async fn delete_key(&self, name: &str, key: JsValue) -> StoreResult<()> {
        self.write(name, "deleting", |s| s.delete(&key)).await
    }

    /// The record keyed `key`, if there is one.
    async fn get(&self, name: &str, key: &str) -> StoreResult<Option<JsValue>> {
        let req = self
            .store(name, IdbTransactionMode::Readonly)?
            .get(&JsValue::from_str(key))
            .map_err(|e| js_err("reading", e))?;
        let row = done(&req).await?;
        Ok((!row.is_undefined() && !row.is_null()).then_some(row))
    }

    async fn get_all(&self, name: &str, range: Option<&IdbKeyRange>) -> StoreResult<Vec<JsValue>> {
        let store = self.store(name, IdbTransactionMode::Readonly)?;
        let req = match range {
            Some(r) => store.get_all_with_key(r),
            None => store.get_all(),
        }
        .map_err(|e| js_err("reading", e))?;
        let all = done(&req).await?;
        Ok(Array::from(&all).iter().collect())
    }
}

impl Store for IdbStore {
    fn put_summary<'a>(
        &'a self,
        summary: &'a DebateSummary,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move { self.put(DEBATES, summary_row(summary)?).await })
    }

    fn append<'a>(&'a self, id: &'a str, event: &'a Event) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move { self.put(EVENTS, event_row(id, event)?).await })
    }

    fn put_in_flight<'a>(
        &'a self,
        id: &'a str,
        rec: &'a InFlight,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let json = serde_json::to_string(rec).map_err(|e| e.to_string())?;
            self.put(
                IN_FLIGHT,
                record(&[
                    ("debate", id.into()),
                    ("call", rec.call.to_string().into()),
                    ("json", json.into()),
                ]),
            )
            .await
        })
    }

    fn clear_in_flight<'a>(
        &'a self,
        id: &'a str,
        call: &'a CallKey,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let key = Array::of2(&id.into(), &call.to_string().into());
            self.delete_key(IN_FLIGHT, key.into()).await
        })
    }

    fn list(&self) -> LocalBoxFuture<'_, StoreResult<Vec<DebateSummary>>> {
        Box::pin(async move {
            let rows = self.get_all(DEBATES, None).await?;
            // A row that no longer parses is skipped rather than hiding the whole history.
            let mut list: Vec<DebateSummary> = rows
                .iter()
                .filter_map(json_of)
                .filter_map(|j| serde_json::from_str(&j).ok())
                .collect();
            newest_first(&mut list);
            Ok(list)
        })
    }

    fn load<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<Option<StoredDebate>>> {
        Box::pin(async move {
            let Some(row) = self.get(DEBATES, id).await? else {
                return Ok(None);
            };
            let summary: DebateSummary = json_of(&row)
                .and_then(|j| serde_json::from_str(&j).ok())
                .ok_or("the stored debate's summary is unreadable")?;
            // Refuses a log from a newer Agora before reading any of it.
            migrate(summary.schema, Vec::new())?;
            let rows = self.get_all(EVENTS, Some(&event_range(id)?)).await?;
            // Read a slice at a time, letting the page breathe in between: a debate of
            // hundreds of turns must not block it (BENCHMARKS.md, "Opening a long debate").
            let mut events = Vec::with_capacity(rows.len());
            let mut slice_start = js_sys::Date::now();
            for (i, json) in rows.iter().filter_map(json_of).enumerate() {
                events.push(migrate_one(summary.schema, i, json)?);
                if js_sys::Date::now() - slice_start > READ_SLICE_MS {
                    after(0).await;
                    slice_start = js_sys::Date::now();
                }
            }
            // In sequence order already: IndexedDB returns records by key, `[debate, seq]`.
            let in_flight = self
                .get_all(IN_FLIGHT, Some(&in_flight_range(id)?))
                .await?
                .iter()
                .filter_map(json_of)
                .filter_map(|j| serde_json::from_str(&j).ok())
                .collect();
            Ok(Some(StoredDebate {
                summary,
                events,
                in_flight,
            }))
        })
    }

    fn put_debate<'a>(
        &'a self,
        summary: &'a DebateSummary,
        events: &'a [Event],
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let tx = self.transaction(&[DEBATES, EVENTS], IdbTransactionMode::Readwrite)?;
            let committed = Committed::watch(&tx);
            let store = |n: &str| tx.object_store(n).map_err(|e| js_err("IndexedDB", e));
            let events_store = store(EVENTS)?;
            for e in events {
                events_store
                    .put(&event_row(&summary.id, e)?)
                    .map_err(|e| js_err("saving", e))?;
            }
            store(DEBATES)?
                .put(&summary_row(summary)?)
                .map_err(|e| js_err("saving", e))?;
            committed.wait().await
        })
    }

    fn first_event<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<Option<Event>>> {
        Box::pin(async move {
            let tx = self.transaction(&[DEBATES, EVENTS], IdbTransactionMode::Readonly)?;
            let store = |n: &str| tx.object_store(n).map_err(|e| js_err("IndexedDB", e));
            let summary = store(DEBATES)?
                .get(&JsValue::from_str(id))
                .map_err(|e| js_err("reading", e))?;
            let first = store(EVENTS)?
                .get(&Array::of2(&JsValue::from_str(id), &JsValue::from_f64(0.0)))
                .map_err(|e| js_err("reading", e))?;
            let (summary, first) = (done(&summary).await?, done(&first).await?);
            let Some(schema) = json_of(&summary)
                .and_then(|j| serde_json::from_str::<DebateSummary>(&j).ok())
                .map(|s| s.schema)
            else {
                return Ok(None);
            };
            match json_of(&first) {
                Some(json) => Ok(migrate_one(schema, 0, json).map(Some)?),
                None => Ok(None),
            }
        })
    }

    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let tx =
                self.transaction(&[DEBATES, EVENTS, IN_FLIGHT], IdbTransactionMode::Readwrite)?;
            let committed = Committed::watch(&tx);
            let get = |n: &str| tx.object_store(n).map_err(|e| js_err("IndexedDB", e));
            get(DEBATES)?
                .delete(&JsValue::from_str(id))
                .map_err(|e| js_err("deleting", e))?;
            get(EVENTS)?
                .delete(event_range(id)?.as_ref())
                .map_err(|e| js_err("deleting", e))?;
            get(IN_FLIGHT)?
                .delete(in_flight_range(id)?.as_ref())
                .map_err(|e| js_err("deleting", e))?;
            committed.wait().await
        })
    }

    fn append_tournament<'a>(
        &'a self,
        summary: &'a TournamentSummary,
        seq: u32,
        event: &'a TournamentEvent,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let event_json = serde_json::to_string(event).map_err(|e| e.to_string())?;
            let summary_json = serde_json::to_string(summary).map_err(|e| e.to_string())?;
            let tx = self.transaction(
                &[TOURNAMENTS, TOURNAMENT_EVENTS],
                IdbTransactionMode::Readwrite,
            )?;
            let committed = Committed::watch(&tx);
            let store = |n: &str| tx.object_store(n).map_err(|e| js_err("IndexedDB", e));
            // `add`, not `put`: a record already stored is refused, never overwritten.
            store(TOURNAMENT_EVENTS)?
                .add(&record(&[
                    ("tournament", summary.id.as_str().into()),
                    ("seq", JsValue::from_f64(seq.into())),
                    ("json", event_json.into()),
                ]))
                .map_err(|e| js_err("saving", e))?;
            store(TOURNAMENTS)?
                .put(&record(&[
                    ("id", summary.id.as_str().into()),
                    ("json", summary_json.into()),
                ]))
                .map_err(|e| js_err("saving", e))?;
            committed.wait().await
        })
    }

    fn tournaments(&self) -> LocalBoxFuture<'_, StoreResult<Vec<TournamentSummary>>> {
        Box::pin(async move {
            let rows = self.get_all(TOURNAMENTS, None).await?;
            // A row that does not parse (version 2 kept whole logs here) is left out.
            let mut list: Vec<TournamentSummary> = rows
                .iter()
                .filter_map(json_of)
                .filter_map(|j| serde_json::from_str(&j).ok())
                .collect();
            newest_tournaments_first(&mut list);
            Ok(list)
        })
    }

    fn tournament<'a>(
        &'a self,
        id: &'a str,
    ) -> LocalBoxFuture<'a, StoreResult<Option<Vec<TournamentEvent>>>> {
        Box::pin(async move {
            let rows = self
                .get_all(TOURNAMENT_EVENTS, Some(&event_range(id)?))
                .await?;
            if rows.is_empty() {
                return Ok(None);
            }
            // In sequence order: IndexedDB returns records by key, `[tournament, seq]`.
            let json: Vec<String> = rows.iter().filter_map(json_of).collect();
            read_tournament(json.iter().map(String::as_str)).map(Some)
        })
    }

    fn delete_tournament<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let tx = self.transaction(
                &[TOURNAMENTS, TOURNAMENT_EVENTS],
                IdbTransactionMode::Readwrite,
            )?;
            let committed = Committed::watch(&tx);
            let get = |n: &str| tx.object_store(n).map_err(|e| js_err("IndexedDB", e));
            get(TOURNAMENTS)?
                .delete(&JsValue::from_str(id))
                .map_err(|e| js_err("deleting", e))?;
            get(TOURNAMENT_EVENTS)?
                .delete(event_range(id)?.as_ref())
                .map_err(|e| js_err("deleting", e))?;
            committed.wait().await
        })
    }
}
