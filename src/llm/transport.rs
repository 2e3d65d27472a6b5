//! The browser transport: `fetch` with a streamed body, aborted through an AbortController
//! when the call is cancelled, and treated as cut when no byte arrives for `stall_ms`.

use std::rc::Rc;

use futures::future::{select, Either, LocalBoxFuture};
use gloo_net::http::Request;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader};

use super::dialect::Dialect;
use super::openai::{http_error, StreamState};
use super::rate_limit;
use super::redact::redact;
use super::sse::SseParser;
use crate::engine::cancel::CancelToken;
use crate::engine::clock::Clock;
use crate::engine::event::Usage;
use crate::engine::model::{ChatModel, ChatRequest, ChatResponse, ErrorKind, ModelError};
use crate::engine::tokens;

/// Where and how to reach one OpenAI-compatible endpoint.
pub struct HttpTarget {
    pub dialect: Dialect,
    /// Extra headers the provider asks for (OpenRouter's attribution).
    pub extra_headers: Vec<(String, String)>,
    pub label: String,
    pub base_url: String,
    pub api_key: String,
    pub stall_ms: u64,
    pub send_call_header: bool,
}

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

impl HttpTransport {
    async fn run(
        &self,
        req: &ChatRequest,
        on_delta: &dyn Fn(&str),
        cancel: &CancelToken,
    ) -> Result<ChatResponse, ModelError> {
        let t = &self.target;
        let who = format!("{} ({})", t.label, req.model);
        let url = t.dialect.url(&t.base_url, &req.model);
        let controller = AbortController::new().map_err(|_| {
            ModelError::new(ErrorKind::Network, "this browser cannot abort requests")
        })?;
        let signal = controller.signal();
        cancel.on_cancel(move || controller.abort());

        let mut builder = Request::post(&url).abort_signal(Some(&signal));
        for (name, value) in t.dialect.headers(&t.api_key) {
            builder = builder.header(name, &value);
        }
        for (name, value) in &t.extra_headers {
            builder = builder.header(name, value);
        }
        if t.send_call_header {
            builder = builder.header(
                "X-Agora-Call",
                &format!("{};{};{}", req.seat, req.purpose.id(), req.call),
            );
        }
        let request = builder.body(t.dialect.body(req).to_string()).map_err(|e| {
            ModelError::new(
                ErrorKind::BadRequest,
                format!("could not build the request: {e}"),
            )
        })?;
        let response = match request.send().await {
            Ok(r) => r,
            Err(_) if cancel.is_cancelled() => return Err(ModelError::cancelled(String::new())),
            Err(e) => {
                return Err(network_error(
                    &t.base_url,
                    &redact(&e.to_string(), &t.api_key),
                ))
            }
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
                    let detail = e.as_string().or_else(|| {
                        Reflect::get(&e, &"message".into())
                            .ok()
                            .and_then(|m| m.as_string())
                    });
                    return Err(fail(
                        ErrorKind::Cut,
                        format!(
                            "The stream from {who} broke off ({}).",
                            detail.unwrap_or_default()
                        ),
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
}
