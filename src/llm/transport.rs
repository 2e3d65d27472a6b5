//! The browser transport: `fetch` with a streamed body, aborted through an AbortController
//! when the call is cancelled, and treated as cut when no byte arrives for `stall_ms`.

use std::rc::Rc;

use futures::future::{select, Either, LocalBoxFuture};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, AbortSignal, Headers, ReadableStreamDefaultReader, RequestInit, Response,
};

use super::openai::{http_error, StreamState};
use super::rate_limit;
use super::redact::redact;
use super::sse::SseParser;
use super::wire::HttpTarget;
use crate::engine::cancel::CancelToken;
use crate::engine::clock::Clock;
use crate::engine::event::Usage;
use crate::engine::model::{ChatModel, ChatRequest, ChatResponse, ErrorKind, ModelError};
use crate::engine::tokens;

/// The one HTTP transport; `HttpTarget::dialect` says which provider shapes it speaks.
pub struct HttpTransport {
    pub target: HttpTarget,
    pub clock: Rc<dyn Clock>,
}

fn network_error(base_url: &str, detail: &str) -> ModelError {
    let local = base_url.contains("127.0.0.1") || base_url.contains("localhost");
    let hint = if local {
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
fn js_detail(e: JsValue) -> String {
    e.as_string()
        .or_else(|| Reflect::get(&e, &"message".into()).ok()?.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

/// One `fetch` through web-sys (no wrapper crate: gloo-net brought wasm-streams with it).
async fn fetch(
    method: &str,
    url: &str,
    headers: &[(String, String)],
    body: Option<&str>,
    signal: Option<&AbortSignal>,
) -> Result<Response, String> {
    let init = RequestInit::new();
    init.set_method(method);
    let h = Headers::new().map_err(js_detail)?;
    for (name, value) in headers {
        h.set(name, value).map_err(js_detail)?;
    }
    init.set_headers(&h);
    if let Some(b) = body {
        init.set_body(&JsValue::from_str(b));
    }
    init.set_signal(signal);
    let window = web_sys::window().ok_or("no window")?;
    let r = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(js_detail)?;
    Ok(r.unchecked_into())
}

async fn text(r: &Response) -> String {
    match r.text() {
        Ok(p) => JsFuture::from(p)
            .await
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
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
        let _abort = cancel.on_cancel(move || controller.abort());

        let body = wire.body.to_string();
        let sent = fetch("POST", &wire.url, &wire.headers, Some(&body), Some(&signal));
        let response = match sent.await {
            Ok(r) => r,
            Err(_) if cancel.is_cancelled() => return Err(ModelError::cancelled(String::new())),
            Err(e) => return Err(network_error(&t.base_url, &redact(&e, &t.api_key))),
        };
        if !response.ok() {
            let headers: Vec<(&str, String)> = rate_limit::HEADERS
                .iter()
                .filter_map(|&n| Some((n, response.headers().get(n).ok()??)))
                .collect();
            let wait = rate_limit::wait_ms(&headers, js_sys::Date::now() as u64);
            let body = text(&response).await;
            return Err(http_error(response.status(), &body, wait, &who, &t.api_key));
        }
        let body = response.body().ok_or_else(|| {
            ModelError::new(
                ErrorKind::BadRequest,
                format!("{who} sent an empty response"),
            )
        })?;
        let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();

        let mut parser = SseParser::new();
        let mut state = StreamState::default();
        let fail = |kind: ErrorKind, msg: String, state: &StreamState| {
            let mut e = ModelError::new(kind, msg);
            e.partial = state.text.clone();
            e
        };
        loop {
            let read = JsFuture::from(reader.read());
            let chunk = match select(read, self.clock.sleep(t.stall_ms)).await {
                Either::Left((Ok(v), _)) => v,
                Either::Left((Err(_), _)) if cancel.is_cancelled() => {
                    return Err(ModelError::cancelled(state.text))
                }
                Either::Left((Err(e), _)) => {
                    return Err(fail(
                        ErrorKind::Cut,
                        format!("The stream from {who} broke off ({}).", js_detail(e)),
                        &state,
                    ));
                }
                Either::Right(_) => {
                    let _ = reader.cancel();
                    return Err(fail(
                        ErrorKind::Cut,
                        format!(
                            "{who} sent nothing for {} seconds; the turn was abandoned.",
                            t.stall_ms / 1000
                        ),
                        &state,
                    ));
                }
            };
            let done = Reflect::get(&chunk, &JsValue::from_str("done"))
                .ok()
                .and_then(|d| d.as_bool())
                .unwrap_or(true);
            let mut events = if done {
                parser.finish()
            } else {
                let value =
                    Reflect::get(&chunk, &JsValue::from_str("value")).unwrap_or(JsValue::UNDEFINED);
                parser.push(&Uint8Array::new(&value).to_vec())
            };
            for ev in events.drain(..) {
                let delta =
                    t.dialect
                        .accept(&mut state, &ev.event, &ev.data)
                        .map_err(|mut e| {
                            e.partial = state.text.clone();
                            e.message = format!("{who}: {}", e.message);
                            e
                        })?;
                if !delta.is_empty() {
                    on_delta(&delta);
                }
            }
            if state.done || done {
                break;
            }
        }
        if !state.done && state.finish.is_none() {
            return Err(fail(
                ErrorKind::Cut,
                format!("The stream from {who} ended before the answer was complete."),
                &state,
            ));
        }
        let usage = state.usage.unwrap_or_else(|| Usage {
            input_tokens: req
                .messages
                .iter()
                .map(|m| tokens::estimate(&m.content))
                .sum(),
            output_tokens: tokens::estimate(&state.text),
            estimated: true,
        });
        Ok(ChatResponse {
            reasoning: std::mem::take(&mut state.reasoning),
            text: state.text,
            usage,
            finish: state.finish.unwrap_or_default(),
        })
    }
}

impl ChatModel for HttpTransport {
    fn complete<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: &'a dyn Fn(&str),
        cancel: &'a CancelToken,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        Box::pin(self.run(req, on_delta, cancel))
    }

    fn describe(&self, req: &ChatRequest) -> String {
        self.target.describe(req)
    }

    fn list_models(&self) -> LocalBoxFuture<'_, Result<Vec<String>, ModelError>> {
        Box::pin(async move {
            let t = &self.target;
            let url = t.dialect.models_url(&t.base_url);
            let response = fetch("GET", &url, &t.provider_headers(), None, None)
                .await
                .map_err(|e| network_error(&t.base_url, &redact(&e, &t.api_key)))?;
            let body = text(&response).await;
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
