//! Finding how an OpenAI-compatible server takes a JSON Schema. OpenAI's form
//! (`response_format: json_schema`) is tried first; a server that refuses it (llama-cpp-python
//! answers a 500 naming `response_format`) is asked again in the next form of
//! `SchemaForm::ALL`, and the first form a server answers is kept on the connection, so each
//! server is probed once, not on every debate.

use crate::engine::model::{ChatRequest, ChatResponse, ErrorKind, ModelError};
use crate::llm::openai::SchemaForm;

use super::connections::Connection;

/// What one structured call taught about its connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lesson {
    /// The server answered in the form the connection uses: keep it.
    Works,
    /// The server refused the form: try `next`.
    Refused { next: SchemaForm },
}

/// Words a server's refusal of a `response_format` names (FastAPI's validation error,
/// vLLM's and LM Studio's messages all name the field or its type): `response_format` and
/// `json_schema` contain them.
const ABOUT_THE_FORM: [&str; 2] = ["schema", "format"];

/// Whether an error is the server refusing the way the schema was sent, not the call: a
/// bad key, a missing model, a rate limit, an overloaded server or a cut stream say nothing
/// about the form. Only what the server said is read (`ModelError::detail`), never Agora's
/// own words, the connection's label or the model's name around it.
fn refuses_the_form(e: &ModelError) -> bool {
    // A validation error: 400, FastAPI's 422, or llama-cpp-python's 500.
    let status_fits = matches!(e.status, Some(400 | 422 | 500));
    let said = e.detail.to_ascii_lowercase();
    status_fits
        && matches!(e.kind, ErrorKind::BadRequest | ErrorKind::Server)
        && ABOUT_THE_FORM.iter().any(|w| said.contains(w))
}

/// What a call's outcome says about its connection's schema form, if anything: only a call
/// that carried a schema, on a connection whose form is not settled yet, teaches something.
pub fn lesson(
    conn: &Connection,
    req: &ChatRequest,
    result: &Result<ChatResponse, ModelError>,
) -> Option<Lesson> {
    if !conn.kind.takes_schema_forms() || conn.schema_form_known || req.schema.is_none() {
        return None;
    }
    match result {
        Ok(_) => Some(Lesson::Works),
        Err(e) if refuses_the_form(e) => {
            conn.schema_form.next().map(|next| Lesson::Refused { next })
        }
        Err(_) => None,
    }
}

/// The refusal as the transcript shows it: what the server said, and what comes next.
pub fn refused(mut e: ModelError, tried: SchemaForm, next: SchemaForm) -> ModelError {
    e.kind = ErrorKind::FormRefused;
    e.retry_after_ms = None;
    e.message = format!(
        "{} This server does not take {}; Agora asks again with {} and keeps, for this connection, the first form the server answers.",
        e.message,
        tried.label(),
        next.label()
    );
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::event::{FinishReason, Purpose, Usage};
    use crate::engine::model::ChatMessage;
    use crate::llm::openai::http_error;

    fn structured() -> ChatRequest {
        ChatRequest {
            connection: "c".into(),
            model: "m".into(),
            seat: "analyst".into(),
            purpose: Purpose::Evaluation,
            call: "score/position-a".into(),
            messages: vec![ChatMessage::user("Score it.")],
            temperature: None,
            max_tokens: 100,
            json: true,
            schema: Some(serde_json::json!({"type": "object"})),
            search_web: false,
        }
    }

    fn answered() -> Result<ChatResponse, ModelError> {
        Ok(ChatResponse {
            text: "{}".into(),
            reasoning: String::new(),
            usage: Usage::default(),
            finish: FinishReason::Stop,
            web: None,
        })
    }

    /// llama-cpp-python's answer to OpenAI's form, as it sends it.
    fn llama_refusal() -> Result<ChatResponse, ModelError> {
        let body = r#"{"error":{"message":"1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}","type":"internal_server_error"}}"#;
        Err(http_error(500, body, None, "Local (smollm2)", ""))
    }

    fn conn() -> Connection {
        Connection::openai_compatible("c", "Local", "http://localhost:8081/v1", "m", "")
    }

    #[test]
    fn a_refused_form_moves_on_to_the_next_and_an_answer_settles_it() {
        let c = conn();
        assert_eq!(
            lesson(&c, &structured(), &llama_refusal()),
            Some(Lesson::Refused {
                next: SchemaForm::JsonObjectSchema
            })
        );
        assert_eq!(lesson(&c, &structured(), &answered()), Some(Lesson::Works));
        let mut last = c.clone();
        last.schema_form = SchemaForm::PromptOnly;
        assert_eq!(
            lesson(&last, &structured(), &llama_refusal()),
            None,
            "after the last form the refusal is an ordinary error"
        );
    }

    #[test]
    fn only_an_unsettled_structured_call_on_an_openai_server_teaches_anything() {
        let mut plain = structured();
        plain.schema = None;
        assert_eq!(lesson(&conn(), &plain, &llama_refusal()), None);
        let mut known = conn();
        known.schema_form_known = true;
        assert_eq!(lesson(&known, &structured(), &llama_refusal()), None);
        let mut anthropic = conn();
        anthropic.kind = crate::session::ProviderKind::Anthropic;
        assert_eq!(lesson(&anthropic, &structured(), &answered()), None);
    }

    #[test]
    fn errors_that_are_not_about_the_form_change_nothing() {
        let c = conn();
        // A bad key, a rate limit, a context too long, a server error, an overloaded server
        // retried rather than taken for a form, and a label or model that names a schema:
        // none of them says anything about the server's form.
        for (status, body, who) in [
            (
                401,
                r#"{"error":{"message":"Invalid response_format key"}}"#,
                "X (m)",
            ),
            (
                429,
                r#"{"error":{"message":"Rate limit on json_schema requests"}}"#,
                "X (m)",
            ),
            (
                400,
                r#"{"error":{"message":"This model's maximum context length is 8192 tokens"}}"#,
                "X (m)",
            ),
            (
                500,
                r#"{"error":{"message":"The server had an error processing your request."}}"#,
                "X (m)",
            ),
            (
                400,
                r#"{"error":{"message":"context too long"}}"#,
                "Schema test (format-7b)",
            ),
            (
                503,
                r#"{"error":{"message":"response_format workers overloaded"}}"#,
                "X (m)",
            ),
        ] {
            let e = Err(http_error(status, body, None, who, ""));
            assert_eq!(lesson(&c, &structured(), &e), None, "{status} {body} {who}");
        }
        let cut = Err(ModelError::new(ErrorKind::Cut, "the stream broke off"));
        assert_eq!(lesson(&c, &structured(), &cut), None);
    }

    #[test]
    fn the_refusal_says_what_was_refused_and_what_comes_next() {
        let e = refused(
            llama_refusal().unwrap_err(),
            SchemaForm::JsonSchema,
            SchemaForm::JsonObjectSchema,
        );
        assert_eq!(e.kind, ErrorKind::FormRefused);
        assert!(e.message.contains("HTTP 500"), "{}", e.message);
        assert!(e.message.contains("OpenAI's form"), "{}", e.message);
        assert!(e.message.contains("llama.cpp's form"), "{}", e.message);
    }
}
