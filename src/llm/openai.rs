//! OpenAI-compatible chat completions (OpenAI, llama.cpp, Ollama, LM Studio, Groq…): the
//! request body and the streamed chunks, as pure functions over plain data.

use serde::Deserialize;
use serde_json::{json, Value};

use super::redact::{clip, redact_error};
use super::request_parts::Effort;
use super::stream_state::{error_text, lenient, lenient_list, tokens, StreamState};
use crate::engine::event::{FinishReason, Usage};
use crate::engine::model::{ChatRequest, ErrorKind, ModelError};

/// Reasoning models (OpenAI's o-series and gpt-5 family, also behind OpenRouter's
/// `openai/` prefix) take `max_completion_tokens`, which also covers their hidden reasoning,
/// and reject any temperature but the default.
pub fn is_reasoning_model(model: &str) -> bool {
    let m = model.rsplit('/').next().unwrap_or(model);
    ["o1", "o3", "o4", "gpt-5"].iter().any(|p| {
        m.strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
    })
}

/// OpenAI's search models (`gpt-4o-search-preview`, `gpt-5-search-api`…), which refuse any
/// sampling setting whether or not a call searches.
pub fn is_search_model(model: &str) -> bool {
    let m = model.rsplit('/').next().unwrap_or(model);
    m.starts_with("gpt-") && m.contains("-search")
}

/// How an OpenAI-compatible server takes a JSON Schema for a structured answer. Servers
/// differ, so a connection starts with OpenAI's form and, when a server refuses a form,
/// moves to the next one in `ALL` (see `session::schema_forms`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchemaForm {
    /// OpenAI's `{"type": "json_schema", "json_schema": {"name", "schema"}}` (OpenAI, vLLM,
    /// LM Studio, Ollama 0.5 and later, OpenRouter).
    #[default]
    JsonSchema,
    /// llama.cpp's servers: `{"type": "json_object", "schema": …}`, enforced by a grammar
    /// (llama-cpp-python refuses the `json_schema` type).
    JsonObjectSchema,
    /// Ollama's own field: the schema in a top-level `format`, beside JSON mode.
    OllamaFormat,
    /// JSON mode only, `{"type": "json_object"}`: the shape is asked for in the prompt.
    JsonObject,
    /// No `response_format` at all: the prompt alone asks for the shape.
    PromptOnly,
}

impl SchemaForm {
    /// In the order they are tried.
    pub const ALL: [SchemaForm; 5] = [
        SchemaForm::JsonSchema,
        SchemaForm::JsonObjectSchema,
        SchemaForm::OllamaFormat,
        SchemaForm::JsonObject,
        SchemaForm::PromptOnly,
    ];

    /// The form tried after a server refused this one.
    pub fn next(self) -> Option<SchemaForm> {
        let i = Self::ALL.iter().position(|f| *f == self)?;
        Self::ALL.get(i + 1).copied()
    }

    /// The id used in saved connections (and the connection form's select).
    pub fn id(self) -> &'static str {
        match self {
            SchemaForm::JsonSchema => "json_schema",
            SchemaForm::JsonObjectSchema => "json_object_schema",
            SchemaForm::OllamaFormat => "ollama_format",
            SchemaForm::JsonObject => "json_object",
            SchemaForm::PromptOnly => "prompt_only",
        }
    }

    pub fn from_id(id: &str) -> Option<SchemaForm> {
        Self::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Said on the connection: how its structured answers are asked for.
    pub fn label(self) -> &'static str {
        match self {
            SchemaForm::JsonSchema => {
                "a JSON Schema in OpenAI's form (response_format json_schema)"
            }
            SchemaForm::JsonObjectSchema => {
                "a JSON Schema in llama.cpp's form (json_object with a schema)"
            }
            SchemaForm::OllamaFormat => "a JSON Schema in Ollama's format field",
            SchemaForm::JsonObject => "JSON mode, with the shape asked for in the prompt",
            SchemaForm::PromptOnly => "the prompt alone (the server takes no response_format)",
        }
    }

    /// Rewrites a request body built in OpenAI's form (`request_body`) into this form.
    pub fn apply(self, body: &mut Value) {
        let Some(obj) = body.as_object_mut() else {
            return;
        };
        let schema = obj
            .get("response_format")
            .and_then(|f| f.pointer("/json_schema/schema"))
            .cloned();
        match (self, schema) {
            (SchemaForm::JsonSchema, _) => {}
            (SchemaForm::PromptOnly, _) => {
                obj.remove("response_format");
            }
            (_, None) => {} // plain JSON mode stays as it is
            (SchemaForm::JsonObjectSchema, Some(mut schema)) => {
                bound_for_grammar(&mut schema, obj);
                obj.insert(
                    "response_format".into(),
                    json!({"type": "json_object", "schema": schema}),
                );
            }
            (SchemaForm::OllamaFormat, Some(mut schema)) => {
                bound_for_grammar(&mut schema, obj);
                obj.insert("response_format".into(), json!({"type": "json_object"}));
                obj.insert("format".into(), schema);
            }
            (SchemaForm::JsonObject, Some(_)) => {
                obj.insert("response_format".into(), json!({"type": "json_object"}));
            }
        }
    }
}

/// Servers that hold a model to the schema with a grammar also hold it to the schema's
/// lengths: bounded, the answer fits the call's token limit instead of being cut unreadable.
fn bound_for_grammar(schema: &mut Value, body: &serde_json::Map<String, Value>) {
    let max_tokens = body
        .get("max_tokens")
        .or_else(|| body.get("max_completion_tokens"))
        .and_then(Value::as_u64)
        .unwrap_or(1_000);
    super::grammar_schema::fit(schema, max_tokens.min(u64::from(u32::MAX)) as u32);
}

/// The JSON body of a streaming chat completion request.
pub fn request_body(req: &ChatRequest, effort: Option<Effort>) -> Value {
    let reasoning = is_reasoning_model(&req.model);
    let mut body = json!({
        "model": req.model,
        "messages": req.messages,
        "stream": true,
        "stream_options": {"include_usage": true},
    });
    if reasoning {
        // Room for the hidden reasoning as well as the visible answer.
        body["max_completion_tokens"] = json!(req.max_tokens.saturating_mul(4));
    } else {
        body["max_tokens"] = json!(req.max_tokens);
        if let Some(t) = req.temperature.filter(|_| !is_search_model(&req.model)) {
            body["temperature"] = json!(t);
        }
    }
    if let Some(e) = effort {
        body["reasoning_effort"] = json!(e.id());
    }
    if let Some(schema) = &req.schema {
        body["response_format"] =
            json!({"type": "json_schema", "json_schema": {"name": "result", "schema": schema}});
    } else if req.json {
        body["response_format"] = json!({"type": "json_object"});
    }
    body
}

/// One chunk of a chat completions stream, as far as Agora reads it.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Chunk {
    /// An error reported mid-stream (OpenRouter, vLLM): its words or an object with them.
    #[serde(deserialize_with = "lenient")]
    error: Option<Value>,
    #[serde(deserialize_with = "lenient_list")]
    choices: Vec<Choice>,
    #[serde(deserialize_with = "lenient")]
    usage: Option<ChunkUsage>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Choice {
    #[serde(deserialize_with = "lenient")]
    delta: Option<Delta>,
    /// Where a few servers put a search's annotations instead of the delta.
    #[serde(deserialize_with = "lenient")]
    message: Option<Delta>,
    #[serde(deserialize_with = "lenient")]
    finish_reason: Option<Finish>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Delta {
    #[serde(deserialize_with = "lenient")]
    content: Option<String>,
    /// Reasoning streamed apart from the answer: DeepSeek's and vLLM's name, and
    /// OpenRouter's.
    #[serde(deserialize_with = "lenient")]
    reasoning_content: Option<String>,
    #[serde(deserialize_with = "lenient")]
    reasoning: Option<String>,
    /// A web search's citations (`web_search::read_annotations`).
    #[serde(deserialize_with = "lenient")]
    annotations: Option<Value>,
}

/// Why the answer ended: only a cut (`length`) matters; every other reason is a stop.
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum Finish {
    Length,
    #[serde(other)]
    Other,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ChunkUsage {
    #[serde(deserialize_with = "lenient")]
    prompt_tokens: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    completion_tokens: Option<u64>,
}

/// Takes one SSE `data` payload of a chat completions stream into `state`; returns the
/// text it adds.
pub fn accept(state: &mut StreamState, data: &str) -> Result<String, ModelError> {
    let data = data.trim();
    if data == "[DONE]" {
        state.done = true;
        return Ok(String::new());
    }
    if data.is_empty() {
        return Ok(String::new());
    }
    let chunk: Chunk = StreamState::chunk(data, "the provider")?;
    if let Some(err) = &chunk.error {
        return Err(state.stream_error(ErrorKind::Server, "the provider", err));
    }
    let mut delta = String::new();
    if let Some(choice) = chunk.choices.into_iter().next() {
        if let Some(d) = &choice.delta {
            for t in [&d.reasoning_content, &d.reasoning].into_iter().flatten() {
                state.reasoning.push_str(t);
            }
        }
        for part in [&choice.delta, &choice.message].into_iter().flatten() {
            if let Some(a) = &part.annotations {
                super::web_search::read_annotations(a, &mut state.web);
            }
        }
        if let Some(t) = choice.delta.and_then(|d| d.content) {
            delta.push_str(&t);
        }
        match choice.finish_reason {
            Some(Finish::Length) => state.finish = Some(FinishReason::Length),
            Some(Finish::Other) => state.finish = Some(state.finish.unwrap_or(FinishReason::Stop)),
            None => {}
        }
    }
    if let Some(u) = chunk.usage {
        state.usage = Some(Usage {
            input_tokens: tokens(u.prompt_tokens),
            output_tokens: tokens(u.completion_tokens),
            estimated: false,
        });
    }
    state.text.push_str(&delta);
    Ok(delta)
}

/// Turns a non-2xx answer into a message that says what to do. `who` names the connection
/// and model; `body` is the response text, which is redacted for the key before use.
pub fn http_error(
    status: u16,
    body: &str,
    wait_ms: Option<u64>,
    who: &str,
    key: &str,
) -> ModelError {
    let detail = serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v.get("error").map(error_text))
        .unwrap_or_else(|| body.to_string());
    // Redacted whole, then cut: a cut first could keep the start of a key.
    let detail = clip(redact_error(&detail, key).trim(), 300);
    let super::provider_error::Reading { kind, advice } = super::provider_error::read(status, body);
    let mut message = format!("{who} answered HTTP {status}. {advice}");
    if !detail.is_empty() {
        message.push_str(&format!(" ({detail})"));
    }
    let mut e = ModelError::new(kind, message);
    e.status = Some(status);
    e.detail = detail;
    e.retry_after_ms = wait_ms;
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::event::Purpose;
    use crate::engine::model::ChatMessage;

    fn req(json: bool) -> ChatRequest {
        ChatRequest {
            connection: "c".into(),
            model: "gpt-x".into(),
            seat: "position-a".into(),
            purpose: Purpose::Argument,
            call: "opening/position-a".into(),
            messages: vec![ChatMessage::system("s"), ChatMessage::user("u")],
            temperature: Some(0.7),
            max_tokens: 300,
            json,
            schema: None,
            search_web: false,
        }
    }

    #[test]
    fn builds_a_streaming_request() {
        let b = request_body(&req(true), None);
        assert_eq!(b["stream"], true);
        assert_eq!(b["model"], "gpt-x");
        assert_eq!(b["messages"][0], json!({"role": "system", "content": "s"}));
        assert_eq!(b["max_tokens"], 300);
        assert_eq!(b["response_format"]["type"], "json_object");
        assert!(request_body(&req(false), None)
            .get("response_format")
            .is_none());
    }

    #[test]
    fn reasoning_models_get_completion_tokens_and_no_temperature() {
        let mut r = req(false);
        for model in ["o3-mini", "o1", "gpt-5", "gpt-5-mini", "openai/o4-mini"] {
            r.model = model.into();
            let b = request_body(&r, None);
            assert_eq!(b["max_completion_tokens"], 1200, "{model}");
            assert!(
                b.get("temperature").is_none() && b.get("max_tokens").is_none(),
                "{model}"
            );
        }
        for model in ["gpt-4o-mini", "llama3.2", "o1x", "gpt-50"] {
            r.model = model.into();
            assert_eq!(request_body(&r, None)["max_tokens"], 300, "{model}");
        }
    }

    #[test]
    fn folds_chunks_usage_and_finish_reason() {
        let mut s = StreamState::default();
        assert_eq!(
            accept(&mut s, r#"{"choices":[{"delta":{"role":"assistant"}}]}"#).unwrap(),
            ""
        );
        assert_eq!(
            accept(&mut s, r#"{"choices":[{"delta":{"content":"Hel"}}]}"#).unwrap(),
            "Hel"
        );
        assert_eq!(
            accept(
                &mut s,
                r#"{"choices":[{"delta":{"content":"lo"},"finish_reason":"length"}]}"#
            )
            .unwrap(),
            "lo"
        );
        accept(
            &mut s,
            r#"{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":2}}"#,
        )
        .unwrap();
        accept(&mut s, "[DONE]").unwrap();
        assert_eq!(s.text, "Hello");
        assert_eq!(s.finish, Some(FinishReason::Length));
        assert_eq!(
            s.usage,
            Some(Usage {
                input_tokens: 12,
                output_tokens: 2,
                estimated: false
            })
        );
        assert!(s.done);
    }

    /// A server's odd field (another type than OpenAI's, a null, an extra) leaves the rest
    /// of its chunk readable: the answer is never cut by a field Agora does not need.
    #[test]
    fn a_field_of_an_unexpected_type_is_read_as_absent() {
        let mut s = StreamState::default();
        let odd = r#"{"choices":[{"delta":{"content":"Yes","reasoning":5,"annotations":"none"},"finish_reason":7},"x"],"usage":"n/a","extra":{"a":1}}"#;
        assert_eq!(accept(&mut s, odd).unwrap(), "Yes");
        assert_eq!((s.finish, s.usage, s.reasoning.as_str()), (None, None, ""));
        accept(
            &mut s,
            r#"{"choices":null,"usage":{"prompt_tokens":-3,"completion_tokens":99999999999}}"#,
        )
        .unwrap();
        let u = s.usage.unwrap();
        assert_eq!((u.input_tokens, u.output_tokens), (0, u32::MAX));
        // Not JSON at all is an error that says so.
        let e = accept(&mut s, "{oops").unwrap_err();
        assert!(e.message.contains("not JSON"), "{}", e.message);
    }

    #[test]
    fn errors_say_what_to_do_and_never_carry_the_key() {
        let key = "sk-proj-abcdefghijklmnop";
        let body = r#"{"error":{"message":"Incorrect API key provided: sk-proj-abcdefghijklmnop. You can find your API key at ..."}}"#;
        let e = http_error(401, body, None, "OpenAI (gpt-x)", key);
        assert_eq!(e.kind, ErrorKind::Auth);
        assert!(e.message.contains("Check the API key"));
        assert!(!e.message.contains("abcdefghijklmnop"), "{}", e.message);
        let e = http_error(429, "slow down", Some(2_000), "X", key);
        assert_eq!(
            (e.kind, e.retry_after_ms),
            (ErrorKind::RateLimited, Some(2000))
        );
        assert!(redact_error("key sk-other123 leaked", "").contains("[key] leaked"));
        // A key that straddles the cut is gone entirely, not cut in half.
        let long = format!("{}{key} is wrong", "y".repeat(295));
        let e = http_error(401, &long, None, "X", key);
        assert!(!e.message.contains("sk-pr"), "{}", e.message);
        let huge = format!("{{\"error\":{{\"message\":\"{}\"}}}}", "z".repeat(5_000));
        assert!(http_error(500, &huge, None, "X", key).message.len() < 500);
    }
}
