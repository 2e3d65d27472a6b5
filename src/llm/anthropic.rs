//! Anthropic's Messages API, streaming: the request body and the stream events, as pure
//! functions. Called from the browser with `anthropic-dangerous-direct-browser-access`.

use serde_json::{json, Value};

use super::request_parts::{split_system, Effort};
use super::stream_state::StreamState;
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

/// Takes one SSE event (`event:` name and `data:` payload); returns the answer text it adds.
pub fn accept(state: &mut StreamState, event: &str, data: &str) -> Result<String, ModelError> {
    let v = StreamState::parse(data, "Anthropic")?;
    let kind = if event.is_empty() {
        v.get("type").and_then(Value::as_str).unwrap_or("")
    } else {
        event
    };
    let n = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0) as u32;
    match kind {
        "message_start" => {
            let u = v.pointer("/message/usage");
            state.usage = Some(Usage {
                input_tokens: n(u.and_then(|u| u.get("input_tokens"))),
                output_tokens: n(u.and_then(|u| u.get("output_tokens"))),
                estimated: false,
            });
        }
        "content_block_start" => {
            let block = v.get("content_block").unwrap_or(&Value::Null);
            let kind = block.get("type").and_then(Value::as_str).unwrap_or("");
            state.block = kind.to_string();
            if kind == "web_search_tool_result" {
                web_search::read_anthropic_result(block, &mut state.web);
            }
        }
        "content_block_delta" => match v.pointer("/delta/type").and_then(Value::as_str) {
            Some("citations_delta") => {
                if let Some(c) = v.pointer("/delta/citation") {
                    web_search::read_anthropic_citation(c, &mut state.web);
                }
            }
            // A web search's query, streamed as the server tool's input: not the answer.
            Some("input_json_delta") if state.block == "server_tool_use" => {}
            Some("text_delta") => {
                let t = v
                    .pointer("/delta/text")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                state.text.push_str(t);
                return Ok(t.to_string());
            }
            // The forced tool's input, streamed as JSON fragments: that JSON is the answer.
            Some("input_json_delta") => {
                let t = v
                    .pointer("/delta/partial_json")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                state.text.push_str(t);
                return Ok(t.to_string());
            }
            Some("thinking_delta") => {
                state.reasoning.push_str(
                    v.pointer("/delta/thinking")
                        .and_then(Value::as_str)
                        .unwrap_or(""),
                );
            }
            _ => {}
        },
        "message_delta" => {
            if let Some(reason) = v.pointer("/delta/stop_reason").and_then(Value::as_str) {
                // `pause_turn`: a long server-tool turn (a web search) stopped before its
                // answer was done; shown as a cut answer, not a finished one.
                state.finish = Some(if matches!(reason, "max_tokens" | "pause_turn") {
                    FinishReason::Length
                } else {
                    FinishReason::Stop
                });
            }
            if let Some(out) = v.pointer("/usage/output_tokens").and_then(Value::as_u64) {
                let u = state.usage.get_or_insert(Usage::default());
                u.output_tokens = out as u32;
            }
            // The final count is cumulative: with a web search it also counts the results
            // the model read, which `message_start` could not know.
            if let Some(input) = v.pointer("/usage/input_tokens").and_then(Value::as_u64) {
                let u = state.usage.get_or_insert(Usage::default());
                u.input_tokens = u.input_tokens.max(input as u32);
            }
        }
        "message_stop" => state.done = true,
        "error" => {
            let err = v.get("error").cloned().unwrap_or(Value::Null);
            let overloaded = err.get("type").and_then(Value::as_str) == Some("overloaded_error");
            let kind = if overloaded {
                ErrorKind::Server
            } else {
                ErrorKind::BadRequest
            };
            return Err(state.stream_error(kind, "Anthropic", &err));
        }
        _ => {} // ping, content_block_start/stop
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
