//! IndexedDB persistence. Three object stores: `debates` (one summary row per debate, key
//! `id`), `events` (key `[debate, seq]`) and `in_flight` (key `[debate, call]`). Records hold
//! their payload as a JSON string, so the schema of what we store is serde's, versioned by
//! the event schema; `DB_VERSION` versions only the object stores themselves.

use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    IdbDatabase, IdbKeyRange, IdbObjectStoreParameters, IdbOpenDbRequest, IdbRequest,
    IdbTransactionMode,
};

use super::{newest_first, DebateSummary, InFlight, Store, StoreResult, StoredDebate};
use crate::engine::event::{migrate, Event};
use crate::engine::CallKey;

pub const DB_VERSION: u32 = 1;
const DEBATES: &str = "debates";
const EVENTS: &str = "events";
const IN_FLIGHT: &str = "in_flight";

pub struct IdbStore {
    db: IdbDatabase,
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
    /// Opens (creating or upgrading) the database named `name`.
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
            },
        );
        req.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
        let db = done(&req).await?;
        req.set_onupgradeneeded(None);
        drop(upgrade);
        let db: IdbDatabase = db
            .dyn_into()
            .map_err(|_| "IndexedDB returned no database".to_string())?;
        Ok(IdbStore { db })
    }

    fn store(
        &self,
        name: &str,
        mode: IdbTransactionMode,
    ) -> Result<web_sys::IdbObjectStore, String> {
        self.db
            .transaction_with_str_and_mode(name, mode)
            .and_then(|t| t.object_store(name))
            .map_err(|e| js_err("IndexedDB transaction", e))
    }

    async fn put(&self, name: &str, value: JsValue) -> StoreResult<()> {
        let store = self.store(name, IdbTransactionMode::Readwrite)?;
        let req = store.put(&value).map_err(|e| js_err("saving", e))?;
        done(&req).await.map(|_| ())
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
        Box::pin(async move {
            let json = serde_json::to_string(summary).map_err(|e| e.to_string())?;
            self.put(
                DEBATES,
                record(&[("id", summary.id.as_str().into()), ("json", json.into())]),
            )
            .await
        })
    }

    fn append<'a>(&'a self, id: &'a str, event: &'a Event) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let json = serde_json::to_string(event).map_err(|e| e.to_string())?;
            self.put(
                EVENTS,
                record(&[
                    ("debate", id.into()),
                    ("seq", JsValue::from_f64(event.seq.into())),
                    ("json", json.into()),
                ]),
            )
            .await
        })
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
            let store = self.store(IN_FLIGHT, IdbTransactionMode::Readwrite)?;
            let key = Array::of2(&id.into(), &call.to_string().into());
            let req = store.delete(&key).map_err(|e| js_err("clearing", e))?;
            done(&req).await.map(|_| ())
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
            let store = self.store(DEBATES, IdbTransactionMode::Readonly)?;
            let req = store
                .get(&JsValue::from_str(id))
                .map_err(|e| js_err("reading", e))?;
            let row = done(&req).await?;
            if row.is_undefined() || row.is_null() {
                return Ok(None);
            }
            let summary: DebateSummary = json_of(&row)
                .and_then(|j| serde_json::from_str(&j).ok())
                .ok_or("the stored debate's summary is unreadable")?;
            let raw: Vec<String> = self
                .get_all(EVENTS, Some(&event_range(id)?))
                .await?
                .iter()
                .filter_map(json_of)
                .collect();
            let mut events = migrate(summary.schema, raw)?;
            events.sort_by_key(|e| e.seq);
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

    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let names = Array::of3(&DEBATES.into(), &EVENTS.into(), &IN_FLIGHT.into());
            let tx = self
                .db
                .transaction_with_str_sequence_and_mode(&names, IdbTransactionMode::Readwrite)
                .map_err(|e| js_err("IndexedDB transaction", e))?;
            let get = |n: &str| tx.object_store(n).map_err(|e| js_err("IndexedDB", e));
            let a = get(DEBATES)?
                .delete(&JsValue::from_str(id))
                .map_err(|e| js_err("deleting", e))?;
            let b = get(EVENTS)?
                .delete(event_range(id)?.as_ref())
                .map_err(|e| js_err("deleting", e))?;
            let c = get(IN_FLIGHT)?
                .delete(in_flight_range(id)?.as_ref())
                .map_err(|e| js_err("deleting", e))?;
            done(&a).await?;
            done(&b).await?;
            done(&c).await?;
            Ok(())
        })
    }
}
