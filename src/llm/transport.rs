//! The browser transport: gloo-net's `fetch`, the body read as a stream, aborted through an
//! AbortController when the call is cancelled or ends early, and treated as cut when no
//! event arrives for `stall_ms`.

use std::rc::Rc;

use futures::future::{select, Either, LocalBoxFuture};
use gloo_net::http::{Headers, Method, RequestBuilder, Response};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal, ReadableStreamDefaultReader};

use super::openai::http_error;
use super::rate_limit;
use super::redact::redact_error;
use super::stream::AnswerStream;
use super::wire::HttpTarget;
use crate::engine::cancel::CancelToken;
use crate::engine::clock::Clock;
use crate::engine::model::{Ceiling, ChatModel, ChatRequest, ChatResponse, ErrorKind, ModelError};

/// The one HTTP transport; `HttpTarget::dialect` says which provider shapes it speaks.
pub struct HttpTransport {
    pub target: HttpTarget,
    pub clock: Rc<dyn Clock>,
}

/// Said when the built-in local model's server breaks off a stream or refuses a connection
/// on a page the run command serves: it has most likely stopped (a crash, or it was never
/// started).
const LOCAL_MODEL_HINT: &str = " The local model stopped answering (or was never started). Start it again: in the Agora folder, `bash .ci/serve` starts it with the app (its log is ~/.cache/agora/llama-server.log); then press Resume.";

/// The same on any other page (a static host): a visitor there has no local model server,
/// and what they can do is on this page.
const NO_LOCAL_MODEL_HINT: &str = " There is no local model server on this computer: it runs only where Agora is started with its own run command. Choose another connection for the debate (\"In this browser\" runs a small model in this tab, and scripted test answers need nothing at all), or add a connection with your own key.";

/// Whether this page was served by Agora's run command (`bash .ci/serve`, which names
/// itself in a `Server-Timing` header of every response): read from the page's own
/// navigation entry, so it costs no request.
pub fn page_served_by_run_command() -> bool {
    let entries = web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.get_entries_by_type("navigation"));
    let Some(entry) = entries.map(|e| e.get(0)) else {
        return false;
    };
    let timings = Reflect::get(&entry, &"serverTiming".into()).unwrap_or(JsValue::UNDEFINED);
    js_sys::Array::from(&timings).iter().any(|t| {
        Reflect::get(&t, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .is_some_and(|n| n == "agora-serve")
    })
}

fn local_model_hint() -> &'static str {
    if page_served_by_run_command() {
        LOCAL_MODEL_HINT
    } else {
        NO_LOCAL_MODEL_HINT
    }
}

fn is_builtin_local(base_url: &str) -> bool {
    base_url.trim_end_matches('/') == super::LOCAL_MODEL_URL
}

/// A stream from the built-in local model that broke off says how to restart it.
fn with_local_hint(base_url: &str, mut e: ModelError) -> ModelError {
    let hint = local_model_hint();
    if is_builtin_local(base_url) && e.kind == ErrorKind::Cut && !e.message.contains(hint) {
        e.message.push_str(hint);
    }
    e
}

fn network_error(base_url: &str, detail: &str) -> ModelError {
    let local = base_url.contains("127.0.0.1") || base_url.contains("localhost");
    let hint = if is_builtin_local(base_url) {
        local_model_hint()
    } else if local {
        " Is the local server running? It must also allow this page's origin (CORS): for Ollama set OLLAMA_ORIGINS to this page's origin, for llama.cpp's Python server CORS is open by default, for LM Studio enable CORS in its server settings."
    } else {
        " Check the base URL and your connection; the provider must also accept requests from a browser (CORS)."
    };
    ModelError::new(
        ErrorKind::Network,
        format!("Could not reach {base_url} ({detail}).{hint}"),
    )
}

/// The message of a JS error, or its text.
pub(crate) fn js_detail(e: JsValue) -> String {
    e.as_string()
        .or_else(|| Reflect::get(&e, &"message".into()).ok()?.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

fn gloo_detail(e: gloo_net::Error) -> String {
    match e {
        gloo_net::Error::JsError(e) => e.message,
        other => other.to_string(),
    }
}

/// Whether `url` (relative to the page) answers a HEAD request with a success: a file
/// served beside the app, such as the in-page model's default GGUF.
pub async fn file_is_served(url: &str) -> bool {
    send(Method::HEAD, url, &[], None, None)
        .await
        .is_ok_and(|r| r.ok())
}

/// One request through gloo-net.
async fn send(
    method: Method,
    url: &str,
    headers: &[(String, String)],
    body: Option<&str>,
    signal: Option<&AbortSignal>,
) -> Result<Response, String> {
    // gloo-net's own `header` throws on a value the browser refuses (a key pasted with a
    // stray character); this way it becomes a message instead.
    let h = web_sys::Headers::new().map_err(js_detail)?;
    for (name, value) in headers {
        h.set(name, value).map_err(js_detail)?;
    }
    // gloo-net joins its query to the URL's with '&', leaving a stray '&' when its own is
    // empty: hand it the URL's query, so the URL sent is the URL shown.
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let pairs = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")));
    let builder = RequestBuilder::new(path)
        .method(method)
        .query(pairs)
        .headers(Headers::from_raw(h))
        .abort_signal(signal);
    let request = match body {
        Some(b) => builder.body(b),
        None => builder.build(),
    }
    .map_err(gloo_detail)?;
    request.send().await.map_err(gloo_detail)
}

/// Aborts the request when the call ends in any way, so nothing goes on downloading behind
/// an error, a stall or a dropped call; after a complete answer it changes nothing.
struct AbortOnDrop(AbortController);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl HttpTransport {
    async fn run(
        &self,
        req: &ChatRequest,
        on_delta: &dyn Fn(&str),
        cancel: &CancelToken,
    ) -> Result<ChatResponse, ModelError> {
        let t = &self.target;
        let who = format!("{} ({})", t.label, req.model);
        let wire = t.wire(req);
        let controller = AbortController::new().map_err(|_| {
            ModelError::new(ErrorKind::Network, "this browser cannot abort requests")
        })?;
        let signal = controller.signal();
        let _abort = AbortOnDrop(controller.clone());
        // Held for the call only: the Stop token outlives thousands of calls.
        let _listening = cancel.on_cancel(move || controller.abort());

        let sent = send(
            Method::POST,
            &wire.url,
            &wire.headers,
            Some(&wire.body),
            Some(&signal),
        );
        let response = match sent.await {
            Ok(r) => r,
            Err(_) if cancel.is_cancelled() => return Err(ModelError::cancelled(String::new())),
            Err(e) => return Err(network_error(&t.base_url, &redact_error(&e, &t.api_key))),
        };
        if !response.ok() {
            let headers: Vec<(&str, String)> = rate_limit::HEADERS
                .iter()
                .filter_map(|&n| Some((n, response.headers().get(n)?)))
                .collect();
            let wait = rate_limit::wait_ms(&headers, js_sys::Date::now() as u64);
            let body = response.text().await.unwrap_or_default();
            return Err(http_error(response.status(), &body, wait, &who, &t.api_key));
        }
        let body = response.body().ok_or_else(|| {
            ModelError::new(
                ErrorKind::BadRequest,
                format!("{who} sent an empty response"),
            )
        })?;
        let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();

        let mut answer = AnswerStream::new(
            t.dialect,
            who.clone(),
            t.stall_ms,
            self.clock.now_ms(),
            req.max_tokens,
        );
        // One timer per stream: when it fires after progress, it waits out the rest.
        let mut stall = self.clock.sleep(t.stall_ms);
        let mut read = JsFuture::from(reader.read());
        loop {
            match select(&mut read, &mut stall).await {
                Either::Left((Ok(chunk), _)) => {
                    let done = Reflect::get(&chunk, &JsValue::from_str("done"))
                        .ok()
                        .and_then(|d| d.as_bool())
                        .unwrap_or(true);
                    let bytes = (!done).then(|| {
                        let value = Reflect::get(&chunk, &JsValue::from_str("value"))
                            .unwrap_or(JsValue::UNDEFINED);
                        Uint8Array::new(&value).to_vec()
                    });
                    if answer.feed(bytes.as_deref(), self.clock.now_ms(), on_delta, cancel)? {
                        break;
                    }
                    read = JsFuture::from(reader.read());
                }
                Either::Left((Err(_), _)) if cancel.is_cancelled() => {
                    return Err(answer.cancelled())
                }
                Either::Left((Err(e), _)) => {
                    return Err(answer.fail(
                        ErrorKind::Cut,
                        format!("The stream from {who} broke off ({}).", js_detail(e)),
                    ));
                }
                Either::Right(((), _)) => match answer.stall_timer_fired(self.clock.now_ms()) {
                    Some(left) => stall = self.clock.sleep(left),
                    None => {
                        let _ = reader.cancel();
                        return Err(answer.stalled());
                    }
                },
            }
        }
        answer.finish(req)
    }
}

impl ChatModel for HttpTransport {
    fn complete<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: &'a dyn Fn(&str),
        cancel: &'a CancelToken,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        Box::pin(async move {
            let base = self.target.base_url.as_str();
            self.run(req, on_delta, cancel)
                .await
                .map_err(|e| with_local_hint(base, e))
        })
    }

    fn ceiling(&self, req: &ChatRequest) -> Ceiling {
        self.target.ceiling(req)
    }

    fn describe(&self, req: &ChatRequest) -> String {
        self.target.describe(req)
    }

    fn list_models(&self) -> LocalBoxFuture<'_, Result<Vec<String>, ModelError>> {
        Box::pin(async move {
            let t = &self.target;
            let url = t.dialect.models_url(&t.base_url);
            let response = send(Method::GET, &url, &t.provider_headers(), None, None)
                .await
                .map_err(|e| network_error(&t.base_url, &redact_error(&e, &t.api_key)))?;
            let body = response.text().await.unwrap_or_default();
            if !response.ok() {
                return Err(http_error(
                    response.status(),
                    &body,
                    None,
                    &t.label,
                    &t.api_key,
                ));
            }
            t.dialect.parse_models(&body).ok_or_else(|| {
                ModelError::new(
                    ErrorKind::BadRequest,
                    format!(
                        "{} sent a model list Agora cannot read; type the model's name.",
                        t.label
                    ),
                )
            })
        })
    }
}
