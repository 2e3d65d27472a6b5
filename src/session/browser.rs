//! The session's surroundings in the browser: timers, task spawning, randomness, the
//! provider transports and IndexedDB.

use std::rc::Rc;

use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::connections::{Connection, ProviderKind};
use super::router::ProviderFactory;
use super::runner::{DebateLock, SessionEnv};
use crate::engine::clock::Clock;
use crate::engine::model::ChatModel;
use crate::engine::script::ScriptedModel;
use crate::llm::dialect::Dialect;
use crate::llm::transport::HttpTransport;
use crate::llm::wire::HttpTarget;
use crate::store::Store;

#[derive(Clone, Copy)]
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_ms(&self) -> u64 {
        js_sys::Date::now() as u64
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        // A sleep of 0 gives the page its turn: `scheduler.yield()` where the browser has
        // it (what follows runs ahead of other queued tasks, so pacing calls delays none of
        // them), else a timer.
        if ms == 0 {
            if let Some(promise) = scheduler_yield() {
                return Box::pin(async move {
                    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
                });
            }
        }
        let (tx, rx) = oneshot::channel::<()>();
        let cb = Closure::once_into_js(move || {
            let _ = tx.send(());
        });
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                cb.unchecked_ref(),
                ms.min(i32::MAX as u64) as i32,
            );
        }
        Box::pin(async move {
            let _ = rx.await;
        })
    }
}

/// `scheduler.yield()`, if this browser has it.
fn scheduler_yield() -> Option<js_sys::Promise> {
    let scheduler = js_sys::Reflect::get(&js_sys::global(), &"scheduler".into()).ok()?;
    let f = js_sys::Reflect::get(&scheduler, &"yield".into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    f.call0(&scheduler).ok()?.dyn_into().ok()
}

pub fn providers() -> ProviderFactory {
    Rc::new(|c: &Connection| -> Rc<dyn ChatModel> {
        let (dialect, extra_headers) = match c.kind {
            ProviderKind::InBrowser => return Rc::new(crate::llm::inpage::InPageModel),
            ProviderKind::Scripted => {
                let script = c.script.clone().unwrap_or_default();
                return Rc::new(ScriptedModel::playing(script, BrowserClock));
            }
            ProviderKind::OpenAiCompatible => (Dialect::OpenAi, Vec::new()),
            // OpenRouter ranks apps by these; they carry no user data.
            ProviderKind::OpenRouter => {
                let origin = web_sys::window()
                    .and_then(|w| w.location().origin().ok())
                    .unwrap_or_default();
                (
                    Dialect::OpenAi,
                    vec![
                        ("HTTP-Referer".to_string(), origin),
                        ("X-Title".to_string(), "Agora".to_string()),
                    ],
                )
            }
            ProviderKind::Anthropic => (Dialect::Anthropic, Vec::new()),
            ProviderKind::Gemini => (Dialect::Gemini, Vec::new()),
        };
        Rc::new(HttpTransport {
            target: HttpTarget {
                dialect,
                extra_headers,
                label: c.label.clone(),
                base_url: c.base_url.clone(),
                api_key: c.api_key.clone(),
                stall_ms: c.stall_ms,
                send_call_header: c.send_call_header,
                effort: c.effort,
                schema_form: c.schema_form,
                search: c.search_tool(),
            },
            clock: Rc::new(BrowserClock),
        })
    })
}

pub fn env(store: Rc<dyn Store>) -> SessionEnv {
    SessionEnv {
        store,
        lock: Rc::new(lock_debate),
        clock: Rc::new(BrowserClock),
        spawn: Rc::new(wasm_bindgen_futures::spawn_local),
        providers: providers(),
        random: Rc::new(|| (js_sys::Math::random() * 9_007_199_254_740_991.0) as u64),
        retry: Default::default(),
        limits: Default::default(),
        pace_calls: true,
    }
}

/// Releases a debate's Web Lock when dropped (resolves the promise the lock waits on).
struct Release(js_sys::Function);

impl Drop for Release {
    fn drop(&mut self) {
        let _ = self.0.call0(&wasm_bindgen::JsValue::NULL);
    }
}

/// `navigator.locks.request("agora-debate-<id>", { ifAvailable: true }, …)`: the lock is
/// held until the returned guard is dropped, and the browser lets go of it when the tab
/// closes or crashes. Where the Web Locks API is missing, a debate runs unlocked.
fn lock_debate(id: &str) -> LocalBoxFuture<'static, Option<DebateLock>> {
    use js_sys::{Function, Object, Promise, Reflect};
    use wasm_bindgen::JsValue;
    let name = JsValue::from_str(&format!("agora-debate-{id}"));
    Box::pin(async move {
        let unlocked = || Some(Box::new(()) as DebateLock);
        let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
            return unlocked();
        };
        let locks = Reflect::get(&nav, &"locks".into()).unwrap_or(JsValue::UNDEFINED);
        let Ok(request) =
            Reflect::get(&locks, &"request".into()).and_then(|f| f.dyn_into::<Function>())
        else {
            return unlocked();
        };
        let mut release = None;
        let held = Promise::new(&mut |resolve, _| release = Some(resolve));
        let (tx, rx) = oneshot::channel::<bool>();
        let granted = Closure::once_into_js(move |lock: JsValue| -> JsValue {
            let ok = !lock.is_null();
            let _ = tx.send(ok);
            if ok {
                held.into()
            } else {
                JsValue::UNDEFINED
            }
        });
        let opts = Object::new();
        let _ = Reflect::set(&opts, &"ifAvailable".into(), &JsValue::TRUE);
        let Ok(requested) = request.call3(&locks, &name, &opts, &granted) else {
            return unlocked();
        };
        // Where locks are refused (a frame on another site, with storage partitioned), the
        // request's promise rejects and `granted` is never called: run unlocked then.
        let refused = wasm_bindgen_futures::JsFuture::from(Promise::resolve(&requested));
        let answer = futures::future::select(rx, refused).await;
        let got = match answer {
            futures::future::Either::Left((got, _)) => got,
            futures::future::Either::Right((Err(_), _)) => return unlocked(),
            // Resolved before being granted: the lock was let go already.
            futures::future::Either::Right((Ok(_), _)) => return unlocked(),
        };
        match (got, release) {
            (Ok(true), Some(r)) => Some(Box::new(Release(r)) as DebateLock),
            (Ok(true), None) => unlocked(),
            _ => None,
        }
    })
}

/// Where the in-page model's default GGUF is served beside the app, relative to the page
/// (`www/inpage/agora-inpage.js` names the same file relative to itself, as `SERVED`).
const SERVED_MODEL: &str = "models/SmolLM2-135M-Instruct.Q4_1.gguf";

/// How long the local model server has to answer before the page stops counting on it.
const LOCAL_PROBE_MS: u64 = 5_000;

/// Finds which no-key connections this page can use: asks the local model server for its
/// models (through the session, like any call; only on a page of this computer) and
/// whether the in-page model's file is served, both at once and bounded, without holding
/// up the first screen.
pub async fn no_key_choices(
    session: Rc<crate::session::Session>,
) -> super::connections::NoKeyChoices {
    use futures::future::{select, Either};
    // The built-in local model is the run command's: a page served elsewhere (a static
    // host) has none on its visitors' computers, and asking would only log a refused
    // connection in every visitor's console.
    let here = crate::llm::transport::page_served_by_run_command()
        || web_sys::window()
            .and_then(|w| w.location().hostname().ok())
            .is_some_and(|h| matches!(h.as_str(), "localhost" | "127.0.0.1" | "[::1]"));
    let local = async {
        if !here {
            return false;
        }
        let listed = session.list_models(super::Connection::local_model(), super::KeyEdit::Keep);
        let timeout = BrowserClock.sleep(LOCAL_PROBE_MS);
        match select(listed, timeout).await {
            Either::Left((Ok(models), _)) => !models.is_empty(),
            _ => false,
        }
    };
    let served = crate::llm::transport::file_is_served(SERVED_MODEL);
    let (local, served_model) = futures::join!(local, served);
    super::connections::NoKeyChoices {
        local,
        served_model,
    }
}
