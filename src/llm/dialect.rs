//! The request and stream shapes of each provider family, behind one enum so the transport
//! stays the same for all of them.

use serde_json::Value;

use super::stream_state::StreamState;
use super::{anthropic, gemini, openai};
use crate::engine::model::{ChatRequest, ModelError};

// What the dialects share lives apart, so none of them imports this hub.
pub use super::request_parts::{split_system, Effort};

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
            Dialect::Gemini => format!(
                "{base}/models/{}:streamGenerateContent?alt=sse",
                path_segment(model)
            ),
        }
    }

    /// Where the provider lists its models.
    pub fn models_url(self, base: &str) -> String {
        let base = base.trim_end_matches('/');
        match self {
            Dialect::OpenAi => format!("{base}/models"),
            Dialect::Anthropic => format!("{base}/models?limit=1000"),
            Dialect::Gemini => format!("{base}/models?pageSize=1000"),
        }
    }

    /// The model names in a model-list answer, sorted: `data[].id` (OpenAI-compatible and
    /// Anthropic), or Gemini's `models[].name` without its `models/` prefix, keeping only
    /// models that can generate content.
    pub fn parse_models(self, body: &str) -> Option<Vec<String>> {
        let v: Value = serde_json::from_str(body).ok()?;
        let mut names: Vec<String> = match self {
            Dialect::Gemini => v
                .get("models")?
                .as_array()?
                .iter()
                .filter(|m| {
                    m.get("supportedGenerationMethods")
                        .and_then(Value::as_array)
                        .is_none_or(|a| a.iter().any(|x| x == "generateContent"))
                })
                .filter_map(|m| m.get("name")?.as_str())
                .map(|n| n.trim_start_matches("models/").to_string())
                .collect(),
            _ => v
                .get("data")?
                .as_array()?
                .iter()
                .filter_map(|m| Some(m.get("id")?.as_str()?.to_string()))
                .collect(),
        };
        names.sort_unstable();
        names.dedup();
        Some(names)
    }

    /// Authentication and protocol headers. The key goes in a header, never in the URL, so
    /// it cannot end up in a log of URLs.
    pub fn headers(self, key: &str) -> Vec<(&'static str, String)> {
        let mut h = Vec::new();
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

    pub fn body(self, req: &ChatRequest, effort: Option<Effort>) -> Value {
        match self {
            Dialect::OpenAi => openai::request_body(req, effort),
            Dialect::Anthropic => anthropic::request_body(req, effort),
            Dialect::Gemini => gemini::request_body(req, effort),
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
            Dialect::OpenAi => openai::accept(state, data),
            Dialect::Anthropic => anthropic::accept(state, event, data),
            Dialect::Gemini => gemini::accept(state, data),
        }
    }
}

/// `text` percent-encoded as one URL path segment: everything but letters, digits and
/// `-._~`, so a model name cannot add a query (`?`), a fragment (`#`) or climb the path
/// (`/..`).
pub fn path_segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::event::Purpose;
    use crate::engine::model::ChatMessage;
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
            search_web: false,
        }
    }

    #[test]
    fn each_provider_gets_the_schema_in_its_native_structured_output() {
        let schema = json!({"type": "object", "properties": {"score": {"type": "integer"}}, "required": ["score"]});
        let r = scored(Some(schema.clone()));

        let o = Dialect::OpenAi.body(&r, None);
        assert_eq!(o["response_format"]["type"], "json_schema");
        assert_eq!(o["response_format"]["json_schema"]["schema"], schema);
        assert!(o["response_format"]["json_schema"]["name"].is_string());

        let g = Dialect::Gemini.body(&r, None);
        assert_eq!(
            g["generationConfig"]["responseMimeType"],
            "application/json"
        );
        assert_eq!(g["generationConfig"]["responseSchema"], schema);

        let a = Dialect::Anthropic.body(&r, None);
        assert_eq!(a["tools"][0]["input_schema"], schema);
        assert_eq!(a["tool_choice"]["type"], "tool");
        assert_eq!(a["tool_choice"]["name"], a["tools"][0]["name"]);
    }

    #[test]
    fn without_a_schema_json_calls_use_plain_json_mode_and_anthropic_gets_no_tool() {
        let r = scored(None);
        assert_eq!(
            Dialect::OpenAi.body(&r, None)["response_format"]["type"],
            "json_object"
        );
        assert!(Dialect::Gemini.body(&r, None)["generationConfig"]
            .get("responseSchema")
            .is_none());
        assert!(Dialect::Anthropic.body(&r, None).get("tools").is_none());
    }
}

#[cfg(test)]
mod model_lists {
    use super::*;

    #[test]
    fn each_providers_model_list_reads_as_documented() {
        let openai = r#"{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1721172741,"owned_by":"system"},{"id":"gpt-4o","object":"model","created":1715367049,"owned_by":"system"}]}"#;
        assert_eq!(
            Dialect::OpenAi.parse_models(openai).unwrap(),
            ["gpt-4o", "gpt-4o-mini"]
        );
        let anthropic = r#"{"data":[{"type":"model","id":"claude-sonnet-4-5-20250929","display_name":"Claude Sonnet 4.5","created_at":"2025-09-29T00:00:00Z"}],"has_more":false,"first_id":"claude-sonnet-4-5-20250929","last_id":"claude-sonnet-4-5-20250929"}"#;
        assert_eq!(
            Dialect::Anthropic.parse_models(anthropic).unwrap(),
            ["claude-sonnet-4-5-20250929"]
        );
        let gemini = r#"{"models":[{"name":"models/gemini-2.5-flash","displayName":"Gemini 2.5 Flash","supportedGenerationMethods":["generateContent","countTokens"]},{"name":"models/text-embedding-004","supportedGenerationMethods":["embedContent"]}]}"#;
        assert_eq!(
            Dialect::Gemini.parse_models(gemini).unwrap(),
            ["gemini-2.5-flash"]
        );
        assert_eq!(Dialect::OpenAi.parse_models("<html>nope</html>"), None);
        assert_eq!(
            Dialect::Gemini.url("https://g.example/v1beta/", "gemini-2.5-flash"),
            "https://g.example/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
        );
        assert_eq!(
            Dialect::Gemini.url("https://g.example/v1beta", "x?alt=json#/../../ünï"),
            "https://g.example/v1beta/models/x%3Falt%3Djson%23%2F..%2F..%2F%C3%BCn%C3%AF:streamGenerateContent?alt=sse"
        );
        assert_eq!(
            Dialect::Gemini.models_url("https://generativelanguage.googleapis.com/v1beta/"),
            "https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000"
        );
    }
}
