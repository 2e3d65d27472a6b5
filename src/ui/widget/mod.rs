//! The `<agora-debate>` widget's Rust side: one debate view mounted inside the element's
//! shadow root (www/agora.js defines the element and calls `mountWidget`). A recorded
//! debate (an export's JSON, or a share link's fragment) is shown read-only and calls
//! nothing; a live one runs the configuration `runDebate` takes on a session of the
//! widget's own. Events reach the host page as DOM events on the element, through
//! `dispatch(name, detail)`.

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use super::app::SessionHandle;
use super::chunks::{self, Lazy};
use super::formats::views_chunk;
use super::state::DebateView;
use crate::api::request;
use crate::engine::event::{Event, EventKind};
use crate::engine::export;
use crate::engine::DebateConfig;
use crate::session::connections::key_origin;
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
    /// The view's debate (its signals live in the mount's owner, freed with it).
    debate: Rc<Cell<Option<DebateView>>>,
    /// Cleared on unmount: a Start still opening its store then runs nothing.
    alive: Rc<Cell<bool>>,
}

#[wasm_bindgen]
impl Widget {
    pub fn unmount(&mut self) {
        self.alive.set(false);
        if let Some(d) = self.debate.take() {
            d.stop();
        }
        // Dropping the mount removes the view and frees everything created in it.
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
    let dispatch = Dispatch(dispatch);
    let (debate, alive) = (Rc::new(Cell::new(None)), Rc::new(Cell::new(true)));
    let (view_debate, view_alive) = (debate.clone(), alive.clone());
    let handle = leptos::mount::mount_to(root, move || {
        // Created inside the mount, so unmounting frees them.
        // No app shell around it: only the debate view's own state.
        let d = DebateView::new(SessionHandle::new());
        d.share_base.set_value(Some(options.app_url.clone()));
        view_debate.set(Some(d));
        provide_context(d);
        view! { <WidgetView options dispatch alive=view_alive/> }
    });
    Ok(Widget {
        mounted: Some(Box::new(handle)),
        debate,
        alive,
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

/// How many connections the request names.
fn connection_count(request: &serde_json::Value) -> usize {
    request
        .get("connections")
        .and_then(|c| c.as_array())
        .map_or(0, Vec::len)
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
        .map_err(|e| e.to_string())
        .map(|(config, connections)| Live {
            config,
            connections,
        })
}

/// A connection the visitor gives a key for: every one that calls a provider.
#[derive(Clone)]
struct Keyed {
    /// Its place in `connections`.
    index: usize,
    name: String,
    /// Where the key would be sent (the page around the frame chose it).
    origin: String,
    /// A provider Agora knows (its presets), or this machine: no confirmation asked.
    known: bool,
}

/// The origins of the providers Agora offers in its connection form.
fn known_origin(origin: &str) -> bool {
    crate::session::connections::PRESETS
        .iter()
        .filter_map(|p| key_origin(p.base_url).ok())
        .any(|o| o == origin)
        || origin.starts_with("http://localhost")
        || origin.starts_with("http://127.0.0.1")
}

fn keyed(request: &serde_json::Value) -> Vec<Keyed> {
    let conns = request.get("connections").and_then(|c| c.as_array());
    conns
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|(_, c)| c.get("kind").and_then(|k| k.as_str()) != Some("scripted"))
        .map(|(index, c)| {
            let text = |k: &str| c.get(k).and_then(|v| v.as_str());
            let name = text("label")
                .or_else(|| text("id"))
                .map_or_else(|| format!("connection {}", index + 1), str::to_string);
            let origin = key_origin(text("base_url").unwrap_or_default())
                .unwrap_or_else(|e| format!("nowhere ({e})"));
            Keyed {
                index,
                name,
                known: known_origin(&origin),
                origin,
            }
        })
        .collect()
}

#[component]
fn WidgetView(options: WidgetOptions, dispatch: Dispatch, alive: Rc<Cell<bool>>) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let problem = RwSignal::new(None::<String>);
    let live = StoredValue::new_local(None::<Live>);
    let started = RwSignal::new(false);
    // The debate screen's chunk, fetched at once beside the debate it will show, and its
    // format's drawing as soon as the debate is known. If either cannot be fetched, the
    // widget shows why (`Lazy`, the debate screen) and the host page hears it too, once.
    let missing = {
        let dispatch = dispatch.clone();
        let told = Rc::new(Cell::new(false));
        move || {
            if !told.replace(true) {
                dispatch.error(&chunks::MISSING.join(" "));
            }
        }
    };
    {
        let missing = missing.clone();
        spawn_local(async move {
            if chunks::DEBATE.fetch().await.is_err() {
                missing();
            }
        });
    }
    let format = Memo::new(move |_| d.config.with(|c| c.as_ref().map(|c| c.format())));
    Effect::new(move |_| {
        if let Some(format) = format.get() {
            let missing = missing.clone();
            spawn_local(async move {
                if views_chunk(format).fetch().await.is_err() {
                    missing();
                }
            });
        }
    });
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
            .then(|| vec!["typed-by-the-visitor".to_string(); connection_count(request)]);
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
    let alive = StoredValue::new_local(alive);
    let request = StoredValue::new(options.request.clone().unwrap_or_default());
    let key_labels = if ask_keys {
        keyed(&request.get_value())
    } else {
        Vec::new()
    };
    let connection_count = request.with_value(connection_count);
    let keys = RwSignal::new(vec![String::new(); connection_count]);
    // The visitor's word that an address Agora does not know may have the key.
    let trusted = RwSignal::new(vec![false; connection_count]);
    let untrusted = {
        let key_labels = key_labels.clone();
        move || {
            let (keys, trusted) = (keys.get_untracked(), trusted.get_untracked());
            key_labels
                .iter()
                .find(|k| !k.known && !keys[k.index].trim().is_empty() && !trusted[k.index])
                .map(|k| k.origin.clone())
        }
    };
    let start = {
        let dispatch = dispatch.clone();
        let fail = fail.clone();
        move || {
            if let Some(origin) = untrusted() {
                problem.set(Some(format!(
                    "Your key would go to {origin}, which is not a provider Agora knows: the page around this debate chose that address. Tick that you trust it, or leave that key empty."
                )));
                return;
            }
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
                if !alive.try_with_value(|a| a.get()).unwrap_or(false) {
                    return; // the element left the page while the store opened
                }
                let s = Session::new(browser::env(store), connections);
                let id = s.new_id();
                {
                    let (weak, dispatch, id) = (Rc::downgrade(&s), dispatch.clone(), id.clone());
                    s.set_listener(move |debate, update| {
                        if debate != id {
                            return;
                        }
                        match update {
                            SessionUpdate::Notice(m) => dispatch.error(m),
                            other => d.follow(other),
                        }
                        // The host page hears each event after the view shows it.
                        if let (SessionUpdate::Event(e), Some(s)) = (update, weak.upgrade()) {
                            dispatch.event(e, &s, &id);
                        }
                    });
                }
                d.session.set(s.clone());
                d.reset(Some(id.clone()));
                d.running.set(true);
                if let Err(e) = s.start_as(id, config) {
                    d.reset(None);
                    fail(e.to_string());
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
                        {key_labels.iter().map(|k| {
                            let i = k.index;
                            view! {
                                <label class="field"><span class="label">{format!("Your API key for {}", k.name)}</span>
                                    <input type="password" autocomplete="off" class="widget-key"
                                        placeholder="Kept in this frame only"
                                        on:input=move |ev| keys.update(|all| all[i] = event_target_value(&ev))/>
                                    <span class="hint widget-key-origin">{format!("Sent only to {}", k.origin)}</span></label>
                                {(!k.known).then(|| view! {
                                    <label class="check widget-key-trust">
                                        <input type="checkbox" on:change=move |ev| trusted.update(|t| t[i] = event_target_checked(&ev))/>
                                        {format!(" I trust {} with this key. It is not a provider Agora knows: the page around this debate chose it.", k.origin)}
                                    </label>
                                })}
                            }
                        }).collect_view()}
                        {(!key_labels.is_empty()).then(|| view! {
                            <p class="hint">"This debate runs in a frame served by Agora, apart from the page around it: that page cannot read the key you type here. The key is kept in this frame's memory only and sent only to its provider."</p>
                        })}
                        <button type="button" class="primary widget-start-button" on:click=move |_| start()>"Start debate"</button>
                    </section>
                }
            }))}
            {move || started.get().then(|| view! { <Lazy chunk=&chunks::DEBATE/> })}
        </div>
    }
}
