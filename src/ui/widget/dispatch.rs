//! What the widget tells its host page: DOM events on the `<agora-debate>` element, sent
//! through the `dispatch(name, detail)` function www/agora.js gives `mountWidget`.

use leptos::task::spawn_local;
use wasm_bindgen::JsValue;

use crate::engine::event::{Event, EventKind};
use crate::engine::export;
use crate::session::Session;

/// `dispatch(name, detail)`: a DOM event on the element, its detail parsed from JSON.
#[derive(Clone)]
pub struct Dispatch(pub js_sys::Function);

impl Dispatch {
    fn send(&self, name: &str, detail_json: &str) {
        let detail = js_sys::JSON::parse(detail_json).unwrap_or(JsValue::NULL);
        let _ = self.0.call2(&JsValue::NULL, &name.into(), &detail);
    }

    pub fn error(&self, message: &str) {
        self.send(
            "agora-error",
            &serde_json::json!({ "message": message }).to_string(),
        );
    }

    /// The host page's events for one event of the log.
    pub fn event(&self, e: &Event, session: &Session, id: &str) {
        let json = serde_json::to_string(e).unwrap_or_default();
        match &e.kind {
            EventKind::TurnFinished { .. } => self.send("agora-turn", &json),
            EventKind::FindingRecorded(_) => self.send("agora-finding", &json),
            EventKind::Paused {
                reason,
                needs_resume: true,
            } => self.error(reason),
            EventKind::Finished { outcome, message } => {
                // The finished debate as its JSON export, as `runDebate` resolves to.
                let (load, id, outcome, message) =
                    (session.load(id), id.to_string(), *outcome, message.clone());
                let this = self.clone();
                spawn_local(async move {
                    let events = load
                        .await
                        .ok()
                        .flatten()
                        .map(|d| d.events)
                        .unwrap_or_default();
                    let detail = format!(
                        r#"{{"id":{},"outcome":{},"message":{},"debate":{}}}"#,
                        serde_json::to_string(&id).unwrap_or_default(),
                        serde_json::to_string(&outcome).unwrap_or_default(),
                        serde_json::to_string(&message).unwrap_or_default(),
                        export::to_json(&events)
                    );
                    this.send("agora-finished", &detail);
                });
            }
            _ => {}
        }
    }
}
