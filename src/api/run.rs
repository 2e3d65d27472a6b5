//! `runDebate(config, { onEvent, signal })`: runs one debate with no UI on a session of its
//! own (kept in memory; nothing is written to the page's storage) and resolves to the
//! finished debate, the same JSON as the app's export.
//!
//! There is nobody to press Resume: a debate the app would hold (a rejected key, the
//! spending cap reached) is stopped and the promise rejects with the reason. Every
//! rejection carries the debate so far in its `debate` property.

use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::oneshot;
use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::request;
use crate::engine::event::{Event, EventKind, Outcome};
use crate::engine::export::to_json;
use crate::session::chunk::{RUNS_MISSING, RUNS_MISSING_API};
use crate::session::prices::PriceTable;
use crate::session::{browser, Session, Update};
use crate::store::memory::MemoryStore;

/// Events and results are written by the serializer the export already uses, then parsed
/// by the browser: the same JSON as a downloaded export, with no second serializer.
fn parse_json(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or(JsValue::NULL)
}

fn set(target: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &key.into(), value);
}

fn event_update(e: &Event) -> JsValue {
    let o = Object::new();
    set(&o, "type", &"event".into());
    set(
        &o,
        "event",
        &parse_json(&serde_json::to_string(e).unwrap_or_default()),
    );
    o.into()
}

fn delta_update(call: &str, seat: &str, text: &str) -> JsValue {
    let o = Object::new();
    set(&o, "type", &"delta".into());
    set(&o, "call", &call.into());
    set(&o, "seat", &seat.into());
    set(&o, "text", &text.into());
    o.into()
}

fn notice_update(message: &str) -> JsValue {
    let o = Object::new();
    set(&o, "type", &"notice".into());
    set(&o, "message", &message.into());
    o.into()
}

/// An `Error` named `name` ("AgoraError", or the DOM's "AbortError"), with the debate so
/// far attached.
fn failure(name: &str, message: &str, debate: Option<&JsValue>) -> JsValue {
    let e: JsValue = if name == "AbortError" {
        web_sys::DomException::new_with_message_and_name(message, name)
            .map(Into::into)
            .unwrap_or_else(|_| js_sys::Error::new(message).into())
    } else {
        let e = js_sys::Error::new(message);
        e.set_name(name);
        e.into()
    };
    if let Some(d) = debate {
        let _ = Reflect::set(&e, &"debate".into(), d);
    }
    e
}

/// `options.onEvent` and `options.signal`, checked like the configuration.
fn read_options(
    options: &JsValue,
) -> Result<(Option<Function>, Option<web_sys::AbortSignal>), JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok((None, None));
    }
    let field = |name: &str| Reflect::get(options, &name.into()).unwrap_or(JsValue::UNDEFINED);
    let on_event = match field("onEvent") {
        v if v.is_undefined() || v.is_null() => None,
        v => Some(v.dyn_into::<Function>().map_err(|_| {
            js_sys::TypeError::new(
                "The run options are not valid at `onEvent`: expected a function",
            )
        })?),
    };
    let signal = match field("signal") {
        v if v.is_undefined() || v.is_null() => None,
        v => Some(v.dyn_into::<web_sys::AbortSignal>().map_err(|_| {
            js_sys::TypeError::new(
                "The run options are not valid at `signal`: expected an AbortSignal",
            )
        })?),
    };
    Ok((on_event, signal))
}

/// Why the run did not complete, when it did not.
#[derive(Default)]
struct Ending {
    /// The debate was held (a paused debate nobody can resume): its reason.
    held: Option<String>,
    aborted: bool,
}

#[wasm_bindgen(js_name = runDebate)]
pub fn run_debate(config: JsValue, options: JsValue) -> Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        let (on_event, signal) = read_options(&options)?;
        // Through a JSON value: serde-wasm-bindgen reads a struct's known fields only, and a
        // misspelt field must be refused by name rather than ignored.
        let value: serde_json::Value = serde_wasm_bindgen::from_value(config).map_err(|e| {
            JsValue::from(js_sys::TypeError::new(&format!(
                "The debate configuration is not plain data: {e}"
            )))
        })?;
        let request = request::read(value)
            .map_err(|e| JsValue::from(js_sys::TypeError::new(&e.to_string())))?;
        let (config, connections) = request
            .build(&PriceTable::default())
            .map_err(|e| JsValue::from(js_sys::TypeError::new(&e.to_string())))?;
        if signal.as_ref().is_some_and(|s| s.aborted()) {
            return Err(failure(
                "AbortError",
                "The debate was aborted before it started.",
                None,
            ));
        }

        let session = Session::new(browser::env(Rc::new(MemoryStore::new())), connections);
        let id = session.new_id();
        let ending = Rc::new(RefCell::new(Ending::default()));
        let (done_tx, done_rx) = oneshot::channel::<()>();
        let done_tx = RefCell::new(Some(done_tx));
        {
            let (session_weak, id, ending) = (Rc::downgrade(&session), id.clone(), ending.clone());
            session.set_listener(move |debate, update| {
                if debate != id {
                    return;
                }
                let value = match update {
                    Update::Event(e) => {
                        if let EventKind::Paused { reason, .. } = &e.kind {
                            ending.borrow_mut().held = Some(reason.clone());
                            if let Some(s) = session_weak.upgrade() {
                                s.stop(&id);
                            }
                        }
                        Some(event_update(e))
                    }
                    Update::Delta { call, seat, delta } => {
                        Some(delta_update(&call.to_string(), seat, delta))
                    }
                    Update::Notice(m) => Some(notice_update(m)),
                    Update::Ended => {
                        if let Some(tx) = done_tx.borrow_mut().take() {
                            let _ = tx.send(());
                        }
                        None
                    }
                };
                if let (Some(f), Some(v)) = (&on_event, value) {
                    // A listener that throws is the caller's bug, not a reason to stop the
                    // debate: the console says so and the run goes on.
                    if let Err(e) = f.call1(&JsValue::NULL, &v) {
                        web_sys::console::error_2(&"Agora: onEvent threw".into(), &e);
                    }
                }
            });
        }

        let _abort = signal.map(|s| {
            let (session, id, ending) = (Rc::downgrade(&session), id.clone(), ending.clone());
            let on_abort = Closure::<dyn FnMut()>::new(move || {
                ending.borrow_mut().aborted = true;
                if let Some(s) = session.upgrade() {
                    s.stop(&id);
                }
            });
            let _ = s.add_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
            // Removed when the run ends, so a signal kept by the caller holds nothing of it.
            AbortListener {
                signal: s,
                on_abort,
            }
        });

        session
            .start_as(id.clone(), config)
            .map_err(|e| JsValue::from(js_sys::TypeError::new(&e.to_string())))?;
        let _ = done_rx.await;

        let events = session
            .load(&id)
            .await
            .ok()
            .flatten()
            .map(|d| d.events)
            .unwrap_or_default();
        let debate = parse_json(&to_json(&events));
        let outcome = events.iter().rev().find_map(|e| match &e.kind {
            EventKind::Finished { outcome, message } => Some((*outcome, message.clone())),
            _ => None,
        });
        let ending = ending.borrow();
        match outcome {
            _ if ending.aborted => Err(failure(
                "AbortError",
                "The debate was aborted.",
                Some(&debate),
            )),
            _ if ending.held.is_some() => Err(failure(
                "AgoraError",
                ending.held.as_deref().unwrap_or_default(),
                Some(&debate),
            )),
            Some((Outcome::Completed, _)) => Ok(debate),
            // The app's words for a missing chunk point at its Resume button; code has none.
            Some((_, Some(message))) if message == RUNS_MISSING => {
                Err(failure("AgoraError", RUNS_MISSING_API, Some(&debate)))
            }
            Some((_, message)) => Err(failure(
                "AgoraError",
                message.as_deref().unwrap_or("The debate did not finish."),
                Some(&debate),
            )),
            None => Err(failure(
                "AgoraError",
                "The debate ended without finishing.",
                Some(&debate),
            )),
        }
    })
}

struct AbortListener {
    signal: web_sys::AbortSignal,
    on_abort: Closure<dyn FnMut()>,
}

impl Drop for AbortListener {
    fn drop(&mut self) {
        let _ = self
            .signal
            .remove_event_listener_with_callback("abort", self.on_abort.as_ref().unchecked_ref());
    }
}
