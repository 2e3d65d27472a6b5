//! Providers. Building requests and parsing streams are pure functions over plain data
//! (tested natively, chunk by chunk); only `transport` touches the browser's `fetch` (through gloo-net).

pub mod anthropic;
pub mod dialect;
pub mod gemini;
pub mod grammar_schema;
pub mod openai;
pub mod provider_error;
pub mod rate_limit;
pub mod redact;
pub mod request_parts;
pub mod sse;
pub mod stream;
pub mod stream_state;
pub mod web_search;
pub mod wire;

/// Where `bash .ci/serve` runs the built-in local model (llama.cpp's server with
/// SmolLM2-135M); the transport names it when it stops answering.
pub const LOCAL_MODEL_URL: &str = "http://127.0.0.1:8081/v1";

#[cfg(target_arch = "wasm32")]
pub mod inpage;
#[cfg(target_arch = "wasm32")]
pub mod transport;
