//! The state a streamed answer is folded into, whatever the provider family: each
//! dialect's reader (`openai::accept`, `anthropic::accept`, `gemini::accept`) adds to it.

use serde::de::{DeserializeOwned, Deserializer};
use serde::Deserialize;
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
    /// Reads one stream payload as a dialect's chunk type; `who` names the provider when it
    /// is not JSON. The chunk types are lenient (`lenient`): a field of an unexpected type
    /// is read as absent, as a provider's extra or changed field must not cut an answer.
    pub(crate) fn chunk<T: DeserializeOwned>(data: &str, who: &str) -> Result<T, ModelError> {
        // Read once, straight into the chunk type: serde tells a payload that is not JSON
        // from JSON of another shape.
        serde_json::from_str(data.trim()).map_err(|e| {
            let what = match e.classify() {
                serde_json::error::Category::Data => {
                    format!("{who} sent a stream chunk Agora cannot read: {e}")
                }
                _ => format!("{who} sent a stream chunk that is not JSON"),
            };
            ModelError::new(ErrorKind::BadRequest, what)
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

/// A chunk field read leniently: present and of its type, or `None` (absent, `null`, or of
/// another type than the one Agora reads). For `#[serde(default, deserialize_with = …)]`.
pub(crate) fn lenient<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    Ok(serde_json::from_value(Value::deserialize(d)?).ok())
}

/// A list field read leniently: its items that are of the type Agora reads, the others left
/// out; anything but a list is an empty one.
pub(crate) fn lenient_list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|v| serde_json::from_value(v).ok())
            .collect(),
        _ => Vec::new(),
    })
}

/// A token count as a provider reported it: absent is 0, and a count past `u32` is held
/// at `u32::MAX` rather than wrapped.
pub(crate) fn tokens(n: Option<u64>) -> u32 {
    n.map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Chunk {
        #[allow(dead_code)]
        id: String,
    }

    /// A provider's broken chunk is named for what is wrong with it: not JSON at all, or
    /// JSON of a shape Agora does not read.
    #[test]
    fn a_chunk_that_is_not_json_is_told_from_one_of_another_shape() {
        let e = StreamState::chunk::<Chunk>("<html>502</html>", "Acme").unwrap_err();
        assert_eq!(e.message, "Acme sent a stream chunk that is not JSON");
        let e = StreamState::chunk::<Chunk>(r#"{"id": 7}"#, "Acme").unwrap_err();
        assert!(
            e.message
                .starts_with("Acme sent a stream chunk Agora cannot read: invalid type"),
            "{}",
            e.message
        );
        assert_eq!(e.kind, ErrorKind::BadRequest);
        assert!(StreamState::chunk::<Chunk>(" {\"id\": \"x\"}\n", "Acme").is_ok());
        assert_eq!(tokens(None), 0);
        assert_eq!(tokens(Some(u64::MAX)), u32::MAX);
    }
}
