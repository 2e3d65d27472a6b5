//! The state a streamed answer is folded into, whatever the provider family: each
//! dialect's reader (`openai::accept`, `anthropic::accept`, `gemini::accept`) adds to it.

use serde_json::Value;

use crate::engine::event::{FinishReason, Usage};
use crate::engine::model::{ErrorKind, ModelError};
use crate::engine::sources::web::WebSearch;

/// Folds the stream's chunks into the answer.
#[derive(Default, Debug)]
pub struct StreamState {
    pub text: String,
    /// Reasoning text, when the provider streams it apart from the answer.
    pub reasoning: String,
    pub usage: Option<Usage>,
    pub finish: Option<FinishReason>,
    pub done: bool,
    /// The pages a web search cited (`web_search`), and why a search failed.
    pub web: WebSearch,
    /// The kind of the content block being streamed (Anthropic's `content_block_start`).
    pub block: String,
}

impl StreamState {
    /// Parses one stream payload; `who` names the provider when it is not JSON.
    pub(crate) fn parse(data: &str, who: &str) -> Result<Value, ModelError> {
        serde_json::from_str(data.trim()).map_err(|_| {
            ModelError::new(
                ErrorKind::BadRequest,
                format!("{who} sent a stream chunk that is not JSON"),
            )
        })
    }

    /// An error the provider reported inside the stream; the text so far is kept.
    pub(crate) fn stream_error(&self, kind: ErrorKind, who: &str, err: &Value) -> ModelError {
        let mut e = ModelError::new(
            kind,
            format!("{who} reported an error mid-stream: {}", error_text(err)),
        );
        e.partial = self.text.clone();
        e
    }
}

/// The words of an error a provider sent (a string, or an object with a message).
pub(crate) fn error_text(err: &Value) -> String {
    match err {
        Value::String(s) => s.clone(),
        other => other
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| other.to_string()),
    }
}
