//! Anthropic's Messages API, streaming: the request body and the stream events, as pure
//! functions. Called from the browser with `anthropic-dangerous-direct-browser-access`.

use serde::Deserialize;
use serde_json::{json, Value};

use super::request_parts::{split_system, Effort};
use super::stream_state::{lenient, tokens, StreamState};
use super::web_search;
use crate::engine::event::{FinishReason, Usage};
use crate::engine::model::{ChatRequest, ErrorKind, ModelError};

pub const VERSION: &str = "2023-06-01";

pub fn request_body(req: &ChatRequest, effort: Option<Effort>) -> Value {
    // System prompts go apart from the conversation.
    let (system, turns) = split_system(&req.messages);
    let messages: Vec<Value> = turns.into_iter().map(|(assistant, text)| json!({"role": if assistant { "assistant" } else { "user" }, "content": text})).collect();
    let mut body = json!({"model": req.model, "max_tokens": req.max_tokens, "messages": messages, "stream": true});
    if let Some(system) = system {
        body["system"] = json!(system);
    }
    if let Some(t) = req.temperature {
        body["temperature"] = json!(t.min(1.0));
    }
    // Anthropic's structured output is a tool the model must call; its input is the JSON.
    if let Some(schema) = &req.schema {
        body["tools"] = json!([{"name": TOOL, "description": "Record the result in the required shape.", "input_schema": schema}]);
        body["tool_choice"] = json!({"type": "tool", "name": TOOL});
    } else if let Some(e) = effort {
        // Extended thinking: its budget comes on top of the answer's, and it allows neither
        // a forced tool (so structured calls go without) nor a changed temperature.
        let budget = e.budget_tokens();
        body["thinking"] = json!({"type": "enabled", "budget_tokens": budget});
        body["max_tokens"] = json!(req.max_tokens + budget);
        if let Some(o) = body.as_object_mut() {
            o.remove("temperature");
        }
    }
    body
}

const TOOL: &str = "record_result";

/// One event of a Messages stream, as far as Agora reads it: the event's fields of every
/// type side by side, each read where its `type` gives it meaning.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Event {
    #[serde(rename = "type", deserialize_with = "lenient")]
    kind: Option<String>,
    /// `message_start`'s message, with the prompt's usage.
    #[serde(deserialize_with = "lenient")]
    message: Option<Message>,
    /// `content_block_start`'s block: its type, and a web search's results (read by
    /// `web_search::read_anthropic_result`).
    #[serde(deserialize_with = "lenient")]
    content_block: Option<Value>,
    #[serde(deserialize_with = "lenient")]
    delta: Option<Delta>,
    /// `message_delta`'s cumulative usage.
    #[serde(deserialize_with = "lenient")]
    usage: Option<EventUsage>,
    #[serde(deserialize_with = "lenient")]
    error: Option<Value>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Message {
    #[serde(deserialize_with = "lenient")]
    usage: Option<EventUsage>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct EventUsage {
    #[serde(deserialize_with = "lenient")]
    input_tokens: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    output_tokens: Option<u64>,
}

/// A `content_block_delta`'s or a `message_delta`'s delta.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Delta {
    #[serde(rename = "type", deserialize_with = "lenient")]
    kind: Option<String>,
    #[serde(deserialize_with = "lenient")]
    text: Option<String>,
    #[serde(deserialize_with = "lenient")]
    partial_json: Option<String>,
    #[serde(deserialize_with = "lenient")]
    thinking: Option<String>,
    /// A citation of a page a web search found (`web_search::read_anthropic_citation`).
    #[serde(deserialize_with = "lenient")]
    citation: Option<Value>,
    #[serde(deserialize_with = "lenient")]
    stop_reason: Option<String>,
}

/// Takes one SSE event (`event:` name and `data:` payload); returns the answer text it adds.
pub fn accept(state: &mut StreamState, event: &str, data: &str) -> Result<String, ModelError> {
    let v: Event = StreamState::chunk(data, "Anthropic")?;
    let kind = if event.is_empty() {
        v.kind.as_deref().unwrap_or("")
    } else {
        event
    };
    let delta = v.delta.unwrap_or_default();
    match kind {
        "message_start" => {
            let u = v.message.and_then(|m| m.usage).unwrap_or_default();
            state.usage = Some(Usage {
                input_tokens: tokens(u.input_tokens),
                output_tokens: tokens(u.output_tokens),
                estimated: false,
            });
        }
        "content_block_start" => {
            let block = v.content_block.unwrap_or(Value::Null);
            let kind = block.get("type").and_then(Value::as_str).unwrap_or("");
            state.block = kind.to_string();
            if kind == "web_search_tool_result" {
                web_search::read_anthropic_result(&block, &mut state.web);
            }
        }
        "content_block_delta" => match delta.kind.as_deref() {
            Some("citations_delta") => {
                if let Some(c) = &delta.citation {
                    web_search::read_anthropic_citation(c, &mut state.web);
                }
            }
            // A web search's query, streamed as the server tool's input: not the answer.
            Some("input_json_delta") if state.block == "server_tool_use" => {}
            // The answer's text, or the forced tool's input streamed as JSON fragments: that
            // JSON is the answer.
            Some(k @ ("text_delta" | "input_json_delta")) => {
                let t = if k == "text_delta" {
                    delta.text
                } else {
                    delta.partial_json
                };
                let t = t.unwrap_or_default();
                state.text.push_str(&t);
                return Ok(t);
            }
            Some("thinking_delta") => {
                state
                    .reasoning
                    .push_str(delta.thinking.as_deref().unwrap_or(""));
            }
            _ => {}
        },
        "message_delta" => {
            if let Some(reason) = delta.stop_reason.as_deref() {
                // `pause_turn`: a long server-tool turn (a web search) stopped before its
                // answer was done; shown as a cut answer, not a finished one.
                state.finish = Some(if matches!(reason, "max_tokens" | "pause_turn") {
                    FinishReason::Length
                } else {
                    FinishReason::Stop
                });
            }
            let usage = v.usage.unwrap_or_default();
            if let Some(out) = usage.output_tokens {
                let u = state.usage.get_or_insert(Usage::default());
                u.output_tokens = tokens(Some(out));
            }
            // The final count is cumulative: with a web search it also counts the results
            // the model read, which `message_start` could not know.
            if let Some(input) = usage.input_tokens {
                let u = state.usage.get_or_insert(Usage::default());
                u.input_tokens = u.input_tokens.max(tokens(Some(input)));
            }
        }
        "message_stop" => state.done = true,
        "error" => {
            let err = v.error.unwrap_or(Value::Null);
            let overloaded = err.get("type").and_then(Value::as_str) == Some("overloaded_error");
            let kind = if overloaded {
                ErrorKind::Server
            } else {
                ErrorKind::BadRequest
            };
            return Err(state.stream_error(kind, "Anthropic", &err));
        }
        _ => {} // ping, content_block_stop
    }
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::event::Purpose;
    use crate::engine::model::ChatMessage;

    #[test]
    fn the_system_prompt_moves_to_system_and_roles_alternate() {
        let req = ChatRequest {
            connection: "c".into(),
            model: "claude-x".into(),
            seat: "s".into(),
            purpose: Purpose::Argument,
            call: "k".into(),
            messages: vec![
                ChatMessage::system("Be brief."),
                ChatMessage::user("Argue."),
            ],
            temperature: Some(1.4),
            max_tokens: 200,
            json: false,
            schema: None,
            search_web: false,
        };
        let b = request_body(&req, None);
        assert_eq!(b["system"], "Be brief.");
        assert_eq!(
            b["messages"],
            json!([{"role": "user", "content": "Argue."}])
        );
        assert_eq!(b["max_tokens"], 200);
        assert_eq!(b["temperature"], 1.0, "Anthropic's temperature stops at 1");
        assert_eq!(b["stream"], true);
    }

    /// Each event's fields are read where its type gives them meaning; a field of another
    /// type than Anthropic's is read as absent and the rest of the stream goes on.
    #[test]
    fn the_events_fold_into_text_usage_and_stop_and_odd_fields_are_absent() {
        let mut s = StreamState::default();
        let events = [
            (
                "message_start",
                r#"{"message":{"usage":{"input_tokens":30,"output_tokens":"1"}}}"#,
            ),
            (
                "content_block_start",
                r#"{"content_block":{"type":"text"}}"#,
            ),
            (
                "content_block_delta",
                r#"{"delta":{"type":"text_delta","text":"Cities "}}"#,
            ),
            (
                "content_block_delta",
                r#"{"delta":{"type":"text_delta","text":7}}"#,
            ),
            (
                "content_block_delta",
                r#"{"delta":{"type":"thinking_delta","thinking":"hm"}}"#,
            ),
            (
                "",
                r#"{"type":"content_block_delta","delta":{"type":"text_delta","text":"win."}}"#,
            ),
            (
                "message_delta",
                r#"{"delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":4}}"#,
            ),
            ("message_stop", "{}"),
        ];
        let text: String = events
            .iter()
            .map(|(e, d)| accept(&mut s, e, d).unwrap())
            .collect();
        assert_eq!((text.as_str(), s.reasoning.as_str()), ("Cities win.", "hm"));
        let u = s.usage.unwrap();
        assert_eq!((u.input_tokens, u.output_tokens), (30, 4));
        assert_eq!(s.finish, Some(FinishReason::Length));
        assert!(s.done);
    }

    #[test]
    fn an_overloaded_error_mid_stream_is_retryable_and_keeps_the_text() {
        let mut s = StreamState::default();
        accept(
            &mut s,
            "content_block_delta",
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#,
        )
        .unwrap();
        let e = accept(
            &mut s,
            "error",
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
        )
        .unwrap_err();
        assert_eq!((e.kind, e.partial.as_str()), (ErrorKind::Server, "Hi"));
        assert!(e.retryable());
    }
}
