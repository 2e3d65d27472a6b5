//! The exact HTTP request a call becomes, built once: the transport sends it and the
//! transcript shows it (with the key replaced) under "Request", byte for byte the same body.

use super::dialect::{Dialect, Effort};
use super::openai::SchemaForm;
use super::redact::redact_key;
use super::web_search::SearchTool;
use crate::engine::model::{Ceiling, ChatRequest};
use crate::engine::tokens;

/// The system prompt Anthropic adds to a request with a tool (its structured output): its
/// tool-use documentation lists at most 346 tokens for it.
const ANTHROPIC_TOOL_PROMPT: u32 = 346;

/// Where and how to reach one provider endpoint.
pub struct HttpTarget {
    pub dialect: Dialect,
    /// Extra headers the provider asks for (OpenRouter's attribution).
    pub extra_headers: Vec<(String, String)>,
    pub label: String,
    pub base_url: String,
    pub api_key: String,
    pub stall_ms: u64,
    pub send_call_header: bool,
    pub effort: Option<Effort>,
    /// How an OpenAI-compatible server takes a schema (llama.cpp's differs from OpenAI's).
    pub schema_form: SchemaForm,
    /// The provider's web search, when it has one Agora knows (`Connection::web_search`).
    pub search: Option<SearchTool>,
}

pub struct WireRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// The body as sent: indented JSON, so the Request view can show the very bytes sent
    /// and still be read (whitespace costs no tokens).
    pub body: String,
}

impl HttpTarget {
    /// What every request to this provider carries: authentication, protocol and
    /// attribution headers (the chat call adds its body's type; a model list has none).
    pub fn provider_headers(&self) -> Vec<(String, String)> {
        self.dialect
            .headers(&self.api_key)
            .into_iter()
            .map(|(n, v)| (n.to_string(), v))
            .chain(self.extra_headers.iter().cloned())
            .collect()
    }

    pub fn wire(&self, req: &ChatRequest) -> WireRequest {
        let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
        headers.extend(self.provider_headers());
        if self.send_call_header {
            headers.push((
                "X-Agora-Call".into(),
                format!("{};{};{}", req.seat, req.purpose.id(), req.call),
            ));
        }
        let body = self.body(req);
        WireRequest {
            url: self.dialect.url(&self.base_url, &req.model),
            headers,
            body: serde_json::to_string_pretty(&body).unwrap_or_default(),
        }
    }

    /// The body as sent: the dialect's, in the connection's schema form, with the web
    /// search for a call that asks for it.
    fn body(&self, req: &ChatRequest) -> serde_json::Value {
        let mut body = self.dialect.body(req, self.effort);
        if self.dialect == Dialect::OpenAi {
            self.schema_form.apply(&mut body);
        }
        if let Some(tool) = self.search.filter(|_| req.search_web) {
            tool.apply(&mut body);
        }
        body
    }

    /// The most this request can be billed, read from the body it is sent as: its output
    /// limit with any reasoning the body allows on top (Anthropic's thinking is inside its
    /// `max_tokens`, an OpenAI reasoning model's inside `max_completion_tokens`, Gemini's
    /// thinking budget is added to `maxOutputTokens`), and its prompt with the tool prompt
    /// Anthropic adds.
    pub fn ceiling(&self, req: &ChatRequest) -> Ceiling {
        let body = self.body(req);
        let n = |p: &str| {
            body.pointer(p)
                .and_then(serde_json::Value::as_u64)
                .map_or(0, |v| v.min(u64::from(u32::MAX)) as u32)
        };
        let output = match self.dialect {
            Dialect::OpenAi => n("/max_completion_tokens").max(n("/max_tokens")),
            Dialect::Anthropic => n("/max_tokens"),
            Dialect::Gemini => n("/generationConfig/maxOutputTokens")
                .saturating_add(n("/generationConfig/thinkingConfig/thinkingBudget")),
        };
        let search = self
            .search
            .filter(|_| req.search_web)
            .map_or(0, SearchTool::input_allowance);
        let tool = match (self.dialect, body.pointer("/tools/0")) {
            (Dialect::Anthropic, Some(t)) if req.schema.is_some() => {
                let text = |k: &str| t.get(k).and_then(|v| v.as_str()).unwrap_or_default();
                ANTHROPIC_TOOL_PROMPT
                    + tokens::estimate(text("name"))
                    + tokens::estimate(text("description"))
            }
            _ => 0,
        };
        Ceiling {
            input_tokens: tokens::prompt(req) + tool + search,
            output_tokens: output.max(req.max_tokens),
        }
    }

    /// The request as text for people: method, URL, headers, a blank line and the body
    /// exactly as sent, with only the key replaced wherever it appears.
    pub fn describe(&self, req: &ChatRequest) -> String {
        let w = self.wire(req);
        let mut out = format!("POST {}\n", w.url);
        for (name, value) in &w.headers {
            out.push_str(&format!("{name}: {value}\n"));
        }
        out.push('\n');
        out.push_str(&w.body);
        redact_key(&out, &self.api_key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::event::Purpose;
    use crate::engine::model::ChatMessage;

    fn target(dialect: Dialect, key: &str) -> HttpTarget {
        HttpTarget {
            dialect,
            extra_headers: vec![("X-Title".into(), "Agora".into())],
            label: "Test".into(),
            base_url: "https://api.example.com/v1/".into(),
            api_key: key.into(),
            stall_ms: 1000,
            send_call_header: false,
            effort: None,
            schema_form: SchemaForm::JsonSchema,
            search: None,
        }
    }

    fn req() -> ChatRequest {
        ChatRequest {
            connection: "c".into(),
            model: "gpt-4o-mini".into(),
            seat: "position-a".into(),
            purpose: Purpose::Argument,
            call: "opening/position-a".into(),
            messages: vec![ChatMessage::system("Argue."), ChatMessage::user("Cars?")],
            temperature: Some(0.8),
            max_tokens: 300,
            json: false,
            schema: None,
            search_web: false,
        }
    }

    /// What the cap reserves is what the body allows: reasoning on top of the answer where
    /// the provider bills it, and the tool prompt Anthropic adds to a structured call.
    #[test]
    fn the_ceiling_is_the_sent_bodys_output_limit_and_framing() {
        let plain = req();
        let prompt = tokens::prompt(&plain);
        let ceiling = |dialect, effort, r: &ChatRequest| {
            HttpTarget {
                effort,
                ..target(dialect, "k")
            }
            .ceiling(r)
        };
        for d in [Dialect::OpenAi, Dialect::Anthropic, Dialect::Gemini] {
            assert_eq!(
                ceiling(d, None, &plain),
                Ceiling {
                    input_tokens: prompt,
                    output_tokens: 300
                },
                "{d:?}"
            );
        }
        let high = Some(Effort::High);
        assert_eq!(
            ceiling(Dialect::Anthropic, high, &plain).output_tokens,
            300 + 16_384
        );
        assert_eq!(
            ceiling(Dialect::Gemini, high, &plain).output_tokens,
            300 + 16_384
        );
        let o3 = ChatRequest {
            model: "o3-mini".into(),
            ..req()
        };
        assert_eq!(ceiling(Dialect::OpenAi, high, &o3).output_tokens, 1_200);
        let structured = ChatRequest {
            schema: Some(
                serde_json::json!({"type": "object", "properties": {"winner": {"type": "string"}}}),
            ),
            ..req()
        };
        let schema = tokens::prompt(&structured) - prompt;
        assert!(schema > 10, "the schema is counted: {schema}");
        let anthropic = ceiling(Dialect::Anthropic, None, &structured);
        assert!(anthropic.input_tokens > tokens::prompt(&structured) + ANTHROPIC_TOOL_PROMPT);
        assert_eq!(
            ceiling(Dialect::OpenAi, None, &structured).input_tokens,
            prompt + schema
        );
    }

    #[test]
    fn the_shown_request_is_the_sent_one_without_the_key() {
        for (dialect, key) in [
            (Dialect::OpenAi, "sk-proj-SECRET123456"),
            (Dialect::Anthropic, "sk-ant-SECRET123456"),
            (Dialect::Gemini, "AIzaSECRET123456"),
        ] {
            let t = target(dialect, key);
            let text = t.describe(&req());
            assert!(!text.contains("SECRET"), "{text}");
            assert!(
                text.starts_with("POST https://api.example.com/v1/"),
                "{text}"
            );
            assert!(text.contains("X-Title: Agora"));
            assert!(
                text.contains("[key]"),
                "{dialect:?}: the key header is shown, redacted"
            );
            // The body shown is the body sent, byte for byte.
            let body = text.split_once("\n\n").unwrap().1;
            assert_eq!(body, t.wire(&req()).body);
        }
    }

    #[test]
    fn the_request_view_keeps_key_shaped_words_and_replaces_only_the_key() {
        let t = target(Dialect::OpenAi, "k9");
        let mut r = req();
        r.messages = vec![ChatMessage::user(
            "A risk-free plan? sk-proj-LOOKSLIKEAKEY stays.",
        )];
        let text = t.describe(&r);
        assert!(text.contains("Authorization: Bearer [key]"), "{text}");
        assert!(text.contains("A risk-free plan? sk-proj-LOOKSLIKEAKEY stays."));
    }

    #[test]
    fn reasoning_effort_reaches_each_provider_in_its_own_words() {
        let mut t = target(Dialect::OpenAi, "k");
        t.effort = Some(Effort::High);
        let mut r = req();
        r.model = "o3-mini".into();
        let body = |t: &HttpTarget, r: &ChatRequest| -> serde_json::Value {
            serde_json::from_str(&t.wire(r).body).unwrap()
        };
        assert_eq!(body(&t, &r)["reasoning_effort"], "high");

        t.dialect = Dialect::Anthropic;
        let b = body(&t, &req());
        assert_eq!(b["thinking"]["budget_tokens"], 16384);
        assert_eq!(
            b["max_tokens"],
            300 + 16384,
            "the answer keeps its own budget"
        );
        assert!(b.get("temperature").is_none());

        t.dialect = Dialect::Gemini;
        t.effort = Some(Effort::Low);
        let b = body(&t, &req());
        assert_eq!(
            b["generationConfig"]["thinkingConfig"]["thinkingBudget"],
            1024
        );
        assert_eq!(
            b["generationConfig"]["thinkingConfig"]["includeThoughts"],
            true
        );

        t.effort = None;
        assert!(body(&t, &req())["generationConfig"]
            .get("thinkingConfig")
            .is_none());
    }

    #[test]
    fn each_schema_form_sends_the_schema_the_way_its_servers_take_it() {
        use serde_json::json;
        let schema = json!({"type": "object", "properties": {"score": {"type": "integer"}}});
        let mut r = req();
        r.json = true;
        r.schema = Some(schema.clone());
        let mut t = target(Dialect::OpenAi, "k");
        let sent = |t: &HttpTarget, r: &ChatRequest| -> serde_json::Value {
            serde_json::from_str(&t.wire(r).body).unwrap()
        };
        let expected = [
            (
                SchemaForm::JsonSchema,
                json!({"type": "json_schema", "json_schema": {"name": "result", "schema": schema}}),
                None,
            ),
            (
                SchemaForm::JsonObjectSchema,
                json!({"type": "json_object", "schema": schema}),
                None,
            ),
            (
                SchemaForm::OllamaFormat,
                json!({"type": "json_object"}),
                Some(schema.clone()),
            ),
            (SchemaForm::JsonObject, json!({"type": "json_object"}), None),
            (SchemaForm::PromptOnly, serde_json::Value::Null, None),
        ];
        for (form, response_format, format) in expected {
            t.schema_form = form;
            let body = sent(&t, &r);
            assert_eq!(body["response_format"], response_format, "{form:?}");
            assert_eq!(body.get("format").cloned(), format, "{form:?}");
            assert_eq!(
                body["messages"],
                sent(&target(Dialect::OpenAi, "k"), &r)["messages"]
            );
        }
        // A JSON call without a schema stays plain JSON mode, but where the server takes none.
        r.schema = None;
        for form in SchemaForm::ALL {
            t.schema_form = form;
            let plain = if form == SchemaForm::PromptOnly {
                serde_json::Value::Null
            } else {
                json!({"type": "json_object"})
            };
            assert_eq!(sent(&t, &r)["response_format"], plain, "{form:?}");
        }
        // Where a grammar holds the model to the schema, its free text is bounded to fit the
        // call's token limit (300 here); OpenAI's form goes as the format wrote it.
        r.schema = Some(json!({"type": "object", "properties": {"reason": {"type": "string"}}}));
        t.schema_form = SchemaForm::JsonObjectSchema;
        assert_eq!(
            sent(&t, &r)["response_format"]["schema"]["properties"]["reason"]["maxLength"],
            360
        );
        t.schema_form = SchemaForm::OllamaFormat;
        assert_eq!(
            sent(&t, &r)["format"]["properties"]["reason"]["maxLength"],
            360
        );
        t.schema_form = SchemaForm::JsonSchema;
        assert!(
            sent(&t, &r)["response_format"]["json_schema"]["schema"]["properties"]["reason"]
                .get("maxLength")
                .is_none()
        );
        r.schema = None;
        // The order servers are tried in ends with the prompt alone.
        let mut f = SchemaForm::JsonSchema;
        let mut tried = vec![f];
        while let Some(n) = f.next() {
            tried.push(n);
            f = n;
        }
        assert_eq!(tried, SchemaForm::ALL);
        assert!(SchemaForm::ALL
            .iter()
            .all(|f| SchemaForm::from_id(f.id()) == Some(*f)));
    }
}
