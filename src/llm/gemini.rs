//! Google Gemini's `streamGenerateContent?alt=sse`: the request body and the streamed
//! `GenerateContentResponse` chunks, as pure functions. The stream has no `[DONE]`: the last
//! chunk carries `finishReason` and `usageMetadata`.

use serde::Deserialize;
use serde_json::{json, Value};

use super::request_parts::{split_system, Effort};
use super::stream_state::{lenient, lenient_list, tokens, StreamState};
use crate::engine::event::{FinishReason, Usage};
use crate::engine::model::{ChatRequest, ErrorKind, ModelError};

pub fn request_body(req: &ChatRequest, effort: Option<Effort>) -> Value {
    // System prompts go apart from the conversation.
    let (system, turns) = split_system(&req.messages);
    let contents: Vec<Value> = turns
        .into_iter()
        .map(|(assistant, text)| json!({"role": if assistant { "model" } else { "user" }, "parts": [{"text": text}]}))
        .collect();
    let mut config = json!({"maxOutputTokens": req.max_tokens});
    if let Some(t) = req.temperature {
        config["temperature"] = json!(t);
    }
    if req.json {
        config["responseMimeType"] = json!("application/json");
    }
    if let Some(schema) = &req.schema {
        config["responseSchema"] = schema.clone();
    }
    if let Some(e) = effort {
        // Thoughts come back as parts marked `thought`, shown folded apart from the answer.
        config["thinkingConfig"] =
            json!({"thinkingBudget": e.budget_tokens(), "includeThoughts": true});
    }
    let mut body = json!({"contents": contents, "generationConfig": config});
    if let Some(system) = system {
        body["systemInstruction"] = json!({"parts": [{"text": system}]});
    }
    body
}

/// One streamed `GenerateContentResponse`, as far as Agora reads it.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Chunk {
    #[serde(deserialize_with = "lenient")]
    error: Option<Value>,
    #[serde(deserialize_with = "lenient_list")]
    candidates: Vec<Candidate>,
    #[serde(deserialize_with = "lenient")]
    usage_metadata: Option<UsageMetadata>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Candidate {
    #[serde(deserialize_with = "lenient")]
    content: Option<Content>,
    /// A Google Search's sources (`web_search::read_grounding`).
    #[serde(deserialize_with = "lenient")]
    grounding_metadata: Option<Value>,
    #[serde(deserialize_with = "lenient")]
    finish_reason: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Content {
    #[serde(deserialize_with = "lenient_list")]
    parts: Vec<Part>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Part {
    #[serde(deserialize_with = "lenient")]
    text: Option<String>,
    /// A thought, shown folded apart from the answer.
    #[serde(deserialize_with = "lenient")]
    thought: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct UsageMetadata {
    #[serde(deserialize_with = "lenient")]
    prompt_token_count: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    candidates_token_count: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    thoughts_token_count: Option<u64>,
}

pub fn accept(state: &mut StreamState, data: &str) -> Result<String, ModelError> {
    let chunk: Chunk = StreamState::chunk(data, "Gemini")?;
    if let Some(err) = &chunk.error {
        return Err(state.stream_error(ErrorKind::Server, "Gemini", err));
    }
    let mut delta = String::new();
    if let Some(c) = chunk.candidates.into_iter().next() {
        for part in c.content.map(|c| c.parts).unwrap_or_default() {
            let text = part.text.unwrap_or_default();
            if part.thought == Some(true) {
                state.reasoning.push_str(&text);
            } else {
                delta.push_str(&text);
            }
        }
        if let Some(m) = &c.grounding_metadata {
            super::web_search::read_grounding(m, &mut state.web);
        }
        if let Some(reason) = c.finish_reason {
            state.finish = Some(if reason == "MAX_TOKENS" {
                FinishReason::Length
            } else {
                FinishReason::Stop
            });
        }
    }
    if let Some(u) = chunk.usage_metadata {
        state.usage = Some(Usage {
            input_tokens: tokens(u.prompt_token_count),
            // Thoughts are billed as output beside the answer.
            output_tokens: tokens(u.candidates_token_count)
                .saturating_add(tokens(u.thoughts_token_count)),
            estimated: false,
        });
    }
    state.text.push_str(&delta);
    Ok(delta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::event::Purpose;
    use crate::engine::model::ChatMessage;

    #[test]
    fn builds_contents_with_a_system_instruction_and_json_mode() {
        let req = ChatRequest {
            connection: "c".into(),
            model: "gemini-x".into(),
            seat: "s".into(),
            purpose: Purpose::Evaluation,
            call: "k".into(),
            messages: vec![ChatMessage::system("Score it."), ChatMessage::user("Text")],
            temperature: None,
            max_tokens: 50,
            json: true,
            schema: None,
            search_web: false,
        };
        let b = request_body(&req, None);
        assert_eq!(b["systemInstruction"]["parts"][0]["text"], "Score it.");
        assert_eq!(
            b["contents"],
            json!([{"role": "user", "parts": [{"text": "Text"}]}])
        );
        assert_eq!(
            b["generationConfig"],
            json!({"maxOutputTokens": 50, "responseMimeType": "application/json"})
        );
    }

    #[test]
    fn thoughts_are_kept_apart_from_the_answer() {
        let mut s = StreamState::default();
        let d = accept(&mut s, r#"{"candidates":[{"content":{"parts":[{"text":"Let me think","thought":true},{"text":"Yes."}]}}]}"#).unwrap();
        assert_eq!((d.as_str(), s.reasoning.as_str()), ("Yes.", "Let me think"));
        // Thoughts are billed as output: the usage counts them with the answer.
        accept(&mut s, r#"{"candidates":[],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":3,"thoughtsTokenCount":40}}"#).unwrap();
        let u = s.usage.unwrap();
        assert_eq!((u.input_tokens, u.output_tokens), (12, 43));
    }

    /// A part or count of another type than Gemini's is read as absent, and the rest of the
    /// chunk stays readable.
    #[test]
    fn odd_fields_are_read_as_absent() {
        let mut s = StreamState::default();
        let d = accept(&mut s, r#"{"candidates":[{"content":{"parts":[{"text":1},"x",{"text":"Yes.","thought":"no"}]},"finishReason":"MAX_TOKENS"}],"usageMetadata":{"promptTokenCount":"5","candidatesTokenCount":2}}"#).unwrap();
        assert_eq!((d.as_str(), s.reasoning.as_str()), ("Yes.", ""));
        assert_eq!(s.finish, Some(FinishReason::Length));
        let u = s.usage.unwrap();
        assert_eq!((u.input_tokens, u.output_tokens), (0, 2));
    }
}
