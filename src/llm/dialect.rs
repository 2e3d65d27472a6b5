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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::event::Purpose;
    use serde_json::json;

    fn scored(schema: Option<Value>) -> ChatRequest {
        ChatRequest {
            connection: "c".into(),
            model: "m".into(),
            seat: "analyst".into(),
            purpose: Purpose::Evaluation,
            call: "score/a".into(),
            messages: vec![ChatMessage::system("judge"), ChatMessage::user("score a")],
            temperature: Some(0.0),
            max_tokens: 200,
            json: true,
            schema,
        }
    }

    #[test]
    fn each_provider_gets_the_schema_in_its_native_structured_output() {
        let schema = json!({"type": "object", "properties": {"score": {"type": "integer"}}, "required": ["score"]});
        let r = scored(Some(schema.clone()));

        let o = Dialect::OpenAi.body(&r);
        assert_eq!(o["response_format"]["type"], "json_schema");
        assert_eq!(o["response_format"]["json_schema"]["schema"], schema);
        assert!(o["response_format"]["json_schema"]["name"].is_string());

        let g = Dialect::Gemini.body(&r);
        assert_eq!(
            g["generationConfig"]["responseMimeType"],
            "application/json"
        );
        assert_eq!(g["generationConfig"]["responseSchema"], schema);

        let a = Dialect::Anthropic.body(&r);
        assert_eq!(a["tools"][0]["input_schema"], schema);
        assert_eq!(a["tool_choice"]["type"], "tool");
        assert_eq!(a["tool_choice"]["name"], a["tools"][0]["name"]);
    }

    #[test]
    fn without_a_schema_json_calls_use_plain_json_mode_and_anthropic_gets_no_tool() {
        let r = scored(None);
        assert_eq!(
            Dialect::OpenAi.body(&r)["response_format"]["type"],
            "json_object"
        );
        assert!(Dialect::Gemini.body(&r)["generationConfig"]
            .get("responseSchema")
            .is_none());
        assert!(Dialect::Anthropic.body(&r).get("tools").is_none());
    }
}
