//! The "In this browser" connection: a GGUF model run by wllama (llama.cpp compiled to
//! WebAssembly) in a Web Worker. Everything of it lives in `www/inpage/` (copied to
//! `dist/inpage/`) and is imported only when first used, through the `agoraImport` hook of
//! `www/boot.js`; this file is the Rust side of `www/inpage/agora-inpage.js`.

use std::cell::RefCell;

use futures::future::{select, Either, LocalBoxFuture};
use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::transport::js_detail as detail;
use crate::engine::cancel::CancelToken;
use crate::engine::event::{FinishReason, Usage};
use crate::engine::model::{ChatModel, ChatRequest, ChatResponse, ErrorKind, ModelError};

#[wasm_bindgen]
extern "C" {
    #[derive(Clone)]
    type InPage;
    #[wasm_bindgen(method, catch)]
    fn generate(this: &InPage, req: &str) -> Result<Tokens, JsValue>;
    #[wasm_bindgen(method)]
    fn stop(this: &InPage);
    #[wasm_bindgen(method)]
    fn mount(this: &InPage, id: &str);
    type Tokens;
    #[wasm_bindgen(method)]
    fn next(this: &Tokens) -> Promise;
}

thread_local! {
    static MODULE: RefCell<Option<InPage>> = const { RefCell::new(None) };
}

/// The JS module, imported on first use.
async fn module() -> Result<InPage, String> {
    if let Some(m) = MODULE.with(|m| m.borrow().clone()) {
        return Ok(m);
    }
    let imported = async {
        let import: Function = get(&js_sys::global(), "agoraImport").unchecked_into();
        let p = import.call1(&JsValue::NULL, &"./inpage/agora-inpage.js".into())?;
        JsFuture::from(Promise::from(p)).await
    };
    let m: InPage = imported
        .await
        .map_err(|e| format!("Could not load the in-page model ({}).", detail(e)))?
        .unchecked_into();
    MODULE.with(|s| *s.borrow_mut() = Some(m.clone()));
    Ok(m)
}

/// Fills the element `id` with the in-page model's own controls: `inpage-panel` (where the
/// model comes from, the download's progress with Cancel, what runs; a `change` event on
/// the element once a model is loaded, read by `loaded`) or `cached-models`
/// (the models kept in this browser, each with its size and Delete). Built by the JS
/// module with DOM calls (text as text nodes), so the first load carries none of it.
pub async fn mount(id: &'static str) -> Result<(), String> {
    module().await?.mount(id);
    Ok(())
}

/// The model the panel (`mount("inpage-panel")`) says it loaded: its context window and name.
pub fn loaded(panel: &JsValue) -> (u32, String) {
    let info = get(panel, "agoraLoaded");
    (
        number(&info, "ctx"),
        get(&info, "model").as_string().unwrap_or_default(),
    )
}

/// The connection's model: one call at a time (its connection takes one), costs nothing.
pub struct InPageModel;

fn get(v: &JsValue, k: &str) -> JsValue {
    Reflect::get(v, &k.into()).unwrap_or_default()
}

fn number(v: &JsValue, k: &str) -> u32 {
    get(v, k).as_f64().unwrap_or(0.0) as u32
}

impl InPageModel {
    async fn run(
        &self,
        req: &ChatRequest,
        on_delta: &dyn Fn(&str),
        cancel: &CancelToken,
    ) -> Result<ChatResponse, ModelError> {
        let m = module()
            .await
            .map_err(|e| ModelError::new(ErrorKind::BadRequest, e))?;
        // The OpenAI-compatible body the HTTP connections send (so no second serializer of
        // the request is linked); the worker hands its fields to wllama.
        let body =
            serde_json::to_string(&super::openai::request_body(req, None)).unwrap_or_default();
        let tokens = m
            .generate(&body)
            .map_err(|e| ModelError::new(ErrorKind::BadRequest, detail(e)))?;
        let mut text = String::new();
        let mut stopped = cancel.cancelled();
        // Each `next()` brings the text that came since the last, and at the end `end`:
        // `{ok, value}` or `{ok: false, error}`.
        let end = loop {
            let chunk = match select(JsFuture::from(tokens.next()), &mut stopped).await {
                Either::Left((chunk, _)) => chunk.unwrap_or_default(),
                Either::Right(_) => break JsValue::UNDEFINED,
            };
            if let Some(t) = get(&chunk, "text").as_string().filter(|t| !t.is_empty()) {
                text.push_str(&t);
                on_delta(&t);
            }
            let end = get(&chunk, "end");
            if !end.is_undefined() || cancel.is_cancelled() {
                break end;
            }
        };
        let e = get(&end, "error");
        if cancel.is_cancelled() || get(&e, "aborted") == JsValue::TRUE {
            m.stop();
            return Err(ModelError::cancelled(text));
        }
        if get(&end, "ok") != JsValue::TRUE {
            return Err(ModelError {
                partial: text,
                ..ModelError::new(ErrorKind::BadRequest, detail(e))
            });
        }
        let v = get(&end, "value");
        Ok(ChatResponse {
            usage: Usage {
                input_tokens: number(&v, "input"),
                output_tokens: number(&v, "output"),
                estimated: get(&v, "estimated") == JsValue::TRUE,
            },
            finish: match get(&v, "length") == JsValue::TRUE {
                true => FinishReason::Length,
                false => FinishReason::Stop,
            },
            text,
            reasoning: String::new(),
            web: None,
        })
    }
}

impl ChatModel for InPageModel {
    fn complete<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: &'a dyn Fn(&str),
        cancel: &'a CancelToken,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        Box::pin(self.run(req, on_delta, cancel))
    }
}
