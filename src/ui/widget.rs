//! The `<agora-debate>` widget's Rust side: one debate view mounted inside the element's
//! shadow root (www/agora.js defines the element and calls `mountWidget`). A recorded
//! debate (an export's JSON, or a share link's fragment) is shown read-only and calls
//! nothing; a live one runs the configuration `runDebate` takes on a session of the
//! widget's own. Events reach the host page as DOM events on the element, through
//! `dispatch(name, detail)`.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use super::app::SessionHandle;
use super::debate::DebateScreen;
use super::state::{AppState, DebateView, Route};
use crate::api::request;
use crate::engine::event::{Event, EventKind};
use crate::engine::export;
use crate::engine::DebateConfig;
use crate::session::prices::PriceTable;
use crate::session::{browser, Connection, Session, Update as SessionUpdate};
use crate::store::idb::IdbStore;
use crate::store::memory::MemoryStore;
use crate::store::Store;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WidgetOptions {
    /// Where Agora is hosted (share links made in the widget open there).
    app_url: String,
    /// An export's JSON text.
    #[serde(default)]
    recorded: Option<String>,
    /// A share link's fragment (`share=1.…`).
    #[serde(default)]
    share: Option<String>,
    /// A live debate: what `runDebate` takes.
    #[serde(default)]
    request: Option<serde_json::Value>,
    /// Keep the widget's debates in the host page's IndexedDB (off: in memory only).
    #[serde(default)]
    keep: bool,
    /// Start at once instead of showing Start.
    #[serde(default)]
    autostart: bool,
    /// The visitor types the connections' keys (set only by www/frame.js: in the frame on
    /// Agora's own origin, where the host page's scripts cannot read them).
    #[serde(default)]
    ask_keys: bool,
}

/// A mounted widget; `unmount` (called when the element leaves the page) stops its debate
/// and removes its view.
#[wasm_bindgen]
pub struct Widget {
    mounted: Option<Box<dyn std::any::Any>>,
    session: SessionHandle,
    debate: DebateView,
}

#[wasm_bindgen]
impl Widget {
    pub fn unmount(&mut self) {
        if let (Some(s), Some(id)) = (self.session.get(), self.debate.id.get_untracked()) {
            s.stop(&id);
        }
        self.mounted.take();
    }
}

/// `dispatch(name, detail)`: a DOM event on the element, its detail parsed from JSON.
#[derive(Clone)]
struct Dispatch(js_sys::Function);

impl Dispatch {
    fn send(&self, name: &str, detail_json: &str) {
        let detail = js_sys::JSON::parse(detail_json).unwrap_or(JsValue::NULL);
        let _ = self.0.call2(&JsValue::NULL, &name.into(), &detail);
    }

    fn error(&self, message: &str) {
        self.send(
            "agora-error",
            &serde_json::json!({ "message": message }).to_string(),
        );
    }

    /// The host page's events for one event of the log.
    fn event(&self, e: &Event, session: &Session, id: &str) {
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

#[wasm_bindgen(js_name = mountWidget)]
pub fn mount_widget(
    root: web_sys::HtmlElement,
    options: JsValue,
    dispatch: js_sys::Function,
) -> Result<Widget, JsValue> {
    let value: serde_json::Value = serde_wasm_bindgen::from_value(options).map_err(|e| {
        js_sys::TypeError::new(&format!("The widget's options are not plain data: {e}"))
    })?;
    let options: WidgetOptions = serde_json::from_value(value)
        .map_err(|e| js_sys::TypeError::new(&format!("The widget's options are not valid: {e}")))?;
    let session = SessionHandle::new();
    let debate = DebateView::new(session);
    let dispatch = Dispatch(dispatch);
    let app_url = options.app_url.clone();
    let state = AppState {
        route: RwSignal::new(Route::Shared),
        debate,
        embedded_from: Some(StoredValue::new(app_url)),
        history: RwSignal::new(Vec::new()),
        connections_version: RwSignal::new(0),
        ready: RwSignal::new(true),
        notice: RwSignal::new(None),
    };
    let handle = leptos::mount::mount_to(root, move || {
        provide_context(state);
        view! { <WidgetView options dispatch/> }
    });
    Ok(Widget {
        mounted: Some(Box::new(handle)),
        session,
        debate,
    })
}

/// What a live widget runs, once its configuration has been read.
#[derive(Clone)]
struct Live {
    config: DebateConfig,
    connections: Vec<Connection>,
}

/// The request with the visitor's keys put into its connections (by position); a
/// connection the visitor left empty keeps what the request gave.
fn with_keys(request: &serde_json::Value, keys: &[String]) -> serde_json::Value {
    let mut r = request.clone();
    if let Some(conns) = r.get_mut("connections").and_then(|c| c.as_array_mut()) {
        for (c, key) in conns.iter_mut().zip(keys) {
            if let (Some(o), false) = (c.as_object_mut(), key.trim().is_empty()) {
                o.insert("api_key".into(), key.trim().into());
            }
        }
    }
    r
}

/// Reads and checks a live widget's request. Asking the visitor for keys, it is first read
/// with a stand-in key wherever one is missing, so the debate can be shown before Start.
fn live_of(request: &serde_json::Value, keys: Option<&[String]>) -> Result<Live, String> {
    let request = match keys {
        Some(keys) => with_keys(request, keys),
        None => request.clone(),
    };
    request::read(request)
        .and_then(|r| r.build(&PriceTable::default()))
        .map(|(config, connections)| Live {
            config,
            connections,
        })
}

/// The connections a visitor gives a key for (their place in `connections`, and a name):
/// every one that calls a provider.
fn keyed(request: &serde_json::Value) -> Vec<(usize, String)> {
    request
        .get("connections")
        .and_then(|c| c.as_array())
        .map(|conns| {
            conns
                .iter()
                .enumerate()
                .filter(|(_, c)| c.get("kind").and_then(|k| k.as_str()) != Some("scripted"))
                .map(|(i, c)| {
                    let name = c
                        .get("label")
                        .or_else(|| c.get("id"))
                        .and_then(|l| l.as_str())
                        .map_or_else(|| format!("connection {}", i + 1), str::to_string);
                    (i, name)
                })
                .collect()
        })
        .unwrap_or_default()
}

#[component]
fn WidgetView(options: WidgetOptions, dispatch: Dispatch) -> impl IntoView {
    let state = expect_context::<AppState>();
    let d = state.debate;
    let problem = RwSignal::new(None::<String>);
    let live = StoredValue::new_local(None::<Live>);
    let started = RwSignal::new(false);
    let fail = {
        let dispatch = dispatch.clone();
        move |message: String| {
            dispatch.error(&message);
            problem.set(Some(message));
        }
    };

    if let Some(text) = options.recorded {
        match export::import(&text) {
            Ok(events) => d.show_shared(events),
            Err(e) => fail(format!("This debate cannot be shown: {e}")),
        }
        started.set(true);
    } else if let Some(fragment) = options.share {
        d.loading.set(true);
        started.set(true);
        let fail = fail.clone();
        spawn_local(async move {
            match super::share::open(&fragment).await {
                Ok(events) => {
                    d.show_shared(events);
                    d.focus.set(super::share::focus_of(&fragment));
                }
                Err(e) => fail(e),
            }
            d.loading.set(false);
        });
    } else if let Some(request) = &options.request {
        // Shown before Start; with keys to ask for, read with a placeholder key in each.
        let placeholders = options
            .ask_keys
            .then(|| vec!["typed-by-the-visitor".to_string(); 32]);
        match live_of(request, placeholders.as_deref()) {
            Ok(l) => live.set_value(Some(l)),
            Err(e) => fail(e),
        }
    } else {
        fail(
            "Give the widget a debate to show (`src`) or one to run (its `config` property)."
                .into(),
        );
    }

    let keep = options.keep;
    let ask_keys = options.ask_keys;
    let request = StoredValue::new(options.request.clone().unwrap_or_default());
    let key_labels = if ask_keys {
        keyed(&request.get_value())
    } else {
        Vec::new()
    };
    let connection_count = request.with_value(|r| {
        r.get("connections")
            .and_then(|c| c.as_array())
            .map_or(0, Vec::len)
    });
    let keys = RwSignal::new(vec![String::new(); connection_count]);
    let start = {
        let dispatch = dispatch.clone();
        let fail = fail.clone();
        move || {
            // The visitor's keys go into the connections only now, and stay in this frame.
            let chosen = if ask_keys {
                match live_of(&request.get_value(), Some(&keys.get_untracked())) {
                    Ok(l) => Some(l),
                    Err(e) => {
                        problem.set(Some(e));
                        return;
                    }
                }
            } else {
                live.get_value()
            };
            let Some(Live {
                config,
                connections,
            }) = chosen
            else {
                return;
            };
            problem.set(None);
            started.set(true);
            let (dispatch, fail) = (dispatch.clone(), fail.clone());
            spawn_local(async move {
                let store: Rc<dyn Store> = match keep {
                    true => match IdbStore::open("agora").await {
                        Ok(s) => Rc::new(s),
                        Err(e) => {
                            dispatch.error(&format!(
                                "{e}. This debate will not be kept after the page closes."
                            ));
                            Rc::new(MemoryStore::new())
                        }
                    },
                    false => Rc::new(MemoryStore::new()),
                };
                let s = Session::new(browser::env(store), connections);
                let id = s.new_id();
                {
                    let (weak, dispatch, id) = (Rc::downgrade(&s), dispatch.clone(), id.clone());
                    s.set_listener(move |debate, update| {
                        if debate != id {
                            return;
                        }
                        match update {
                            SessionUpdate::Event(e) => {
                                d.apply(e);
                                if let Some(s) = weak.upgrade() {
                                    dispatch.event(e, &s, &id);
                                }
                            }
                            SessionUpdate::Delta { call, delta, .. } => {
                                d.delta(&call.to_string(), delta)
                            }
                            SessionUpdate::Notice(m) => dispatch.error(m),
                            SessionUpdate::Ended => d.running.set(false),
                        }
                    });
                }
                d.session.set(s.clone());
                d.reset(Some(id.clone()));
                d.running.set(true);
                if let Err(e) = s.start_as(id, config) {
                    d.reset(None);
                    fail(e);
                }
            });
        }
    };
    if options.autostart && live.with_value(Option::is_some) {
        start();
    }

    let preview = move || {
        live.with_value(|l| {
            l.as_ref().map(|l| {
                let seats = l
                    .config
                    .seats
                    .iter()
                    .map(|s| format!("{} ({})", s.name, s.participant.describe()))
                    .collect::<Vec<_>>()
                    .join(", ");
                (l.config.options.describe(), l.config.topic.clone(), seats)
            })
        })
    };
    view! {
        <div class="agora-widget">
            {move || problem.get().map(|p| view! { <p class="error" role="alert">{p}</p> })}
            {move || (!started.get()).then(|| preview().map(|(kind, topic, seats)| {
                let start = start.clone();
                view! {
                    <section class="widget-start card">
                        <p class="kicker">{kind}</p>
                        <h2 class="topic">{topic}</h2>
                        <p class="hint">{seats}</p>
                        {key_labels.iter().map(|(i, label)| (*i, label.clone())).map(|(i, label)| view! {
                            <label class="field"><span class="label">{format!("Your API key for {label}")}</span>
                                <input type="password" autocomplete="off" class="widget-key"
                                    placeholder="Kept in this frame only"
                                    on:input=move |ev| keys.update(|k| k[i] = event_target_value(&ev))/></label>
                        }).collect_view()}
                        {(!key_labels.is_empty()).then(|| view! {
                            <p class="hint">"This debate runs in a frame served by Agora, apart from the page around it: that page cannot read the key you type here. The key is kept in this frame's memory only and sent only to its provider."</p>
                        })}
                        <button type="button" class="primary widget-start-button" on:click=move |_| start()>"Start debate"</button>
                    </section>
                }
            }))}
            {move || started.get().then(|| view! { <DebateScreen/> })}
        </div>
    }
}
