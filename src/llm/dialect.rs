//! The request and stream shapes of each provider family, behind one enum so the transport
//! stays the same for all of them.

use serde_json::Value;

use super::openai::StreamState;
use super::{anthropic, gemini, openai};
use crate::engine::model::{ChatMessage, ChatRequest, ModelError, Role};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `/chat/completions`: OpenAI, OpenRouter, llama.cpp, Ollama, LM Studio, Groq…
    OpenAi,
    /// Anthropic's `/messages`.
    Anthropic,
    /// Gemini's `:streamGenerateContent?alt=sse`.
    Gemini,
}

impl Dialect {
    pub fn url(self, base: &str, model: &str) -> String {
        let base = base.trim_end_matches('/');
        match self {
            Dialect::OpenAi => format!("{base}/chat/completions"),
            Dialect::Anthropic => format!("{base}/messages"),
            Dialect::Gemini => format!("{base}/models/{model}:streamGenerateContent?alt=sse"),
        }
    }

    /// Authentication and protocol headers. The key goes in a header, never in the URL, so
    /// it cannot end up in a log of URLs.
    pub fn headers(self, key: &str) -> Vec<(&'static str, String)> {
        let mut h = vec![("Content-Type", "application/json".to_string())];
        match self {
            Dialect::OpenAi if !key.is_empty() => {
                h.push(("Authorization", format!("Bearer {key}")))
            }
            Dialect::OpenAi => {}
            Dialect::Anthropic => {
                h.push(("x-api-key", key.to_string()));
                h.push(("anthropic-version", anthropic::VERSION.to_string()));
                h.push((
                    "anthropic-dangerous-direct-browser-access",
                    "true".to_string(),
                ));
            }
            Dialect::Gemini => h.push(("x-goog-api-key", key.to_string())),
        }
        h
    }

    pub fn body(self, req: &ChatRequest) -> Value {
        match self {
            Dialect::OpenAi => openai::request_body(req),
            Dialect::Anthropic => anthropic::request_body(req),
            Dialect::Gemini => gemini::request_body(req),
        }
    }

    /// Folds one SSE event into the answer; returns the answer text it adds.
    pub fn accept(
        self,
        state: &mut StreamState,
        event: &str,
        data: &str,
    ) -> Result<String, ModelError> {
        match self {
            Dialect::OpenAi => state.accept(data),
            Dialect::Anthropic => anthropic::accept(state, event, data),
            Dialect::Gemini => gemini::accept(state, data),
        }
    }
}

/// Splits off the system prompts (Anthropic and Gemini take them apart from the
/// conversation) and says for each remaining message whether the model wrote it.
pub fn split_system(messages: &[ChatMessage]) -> (Option<String>, Vec<(bool, &str)>) {
    let system: Vec<&str> = messages
        .iter()
        .filter(|m| m.role == Role::System)
        .map(|m| m.content.as_str())
        .collect();
    let rest = messages
        .iter()
        .filter(|m| m.role != Role::System)
        .map(|m| (m.role == Role::Assistant, m.content.as_str()))
        .collect();
    ((!system.is_empty()).then(|| system.join("\n\n")), rest)
}
