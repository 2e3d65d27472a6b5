//! Each provider's own web search, asked for in its request body and read back from its
//! stream as citations (`engine::sources::web`). Agora never searches or loads a page
//! itself: the provider searches on the user's key and says which pages it cited.
//!
//! - OpenAI (Chat Completions): the search models (`gpt-4o-search-preview`…) take
//!   `web_search_options` and answer with `url_citation` annotations (no temperature).
//! - OpenRouter: the `openrouter:web_search` server tool, any model; `url_citation`
//!   annotations in OpenAI's shape, with the page's `content` when it has it.
//! - Anthropic: the `web_search_20250305` server tool; text blocks carry
//!   `web_search_result_location` citations with the page's `cited_text`, and a failed
//!   search comes back as a `web_search_tool_result_error` while the answer goes on.
//! - Gemini: the `google_search` tool; `groundingMetadata.groundingChunks[].web` names the
//!   pages (an address and a title, none of their words).

use serde_json::{json, Value};

use crate::engine::sources::web::{Citation, WebSearch};

/// Most searches Anthropic may run for one turn, and most results OpenRouter fetches.
pub const ANTHROPIC_MAX_USES: u32 = 3;
pub const OPENROUTER_MAX_RESULTS: u32 = 5;

/// The input tokens a search may add to a call's bill (its results are read by the model
/// as input): reserved by the spending cap beside the prompt. Per-search fees are apart.
const ANTHROPIC_RESULT_TOKENS: u32 = 8_000;
const OPENROUTER_RESULT_TOKENS: u32 = 1_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchTool {
    OpenAi,
    OpenRouter,
    Anthropic,
    Gemini,
}

impl SearchTool {
    /// Adds the search to a request body built without it.
    pub fn apply(self, body: &mut Value) {
        let Some(obj) = body.as_object_mut() else {
            return;
        };
        match self {
            SearchTool::OpenAi => {
                // Only the search models take it; they take no temperature either
                // (`openai::is_search_model`).
                obj.insert("web_search_options".into(), json!({}));
            }
            SearchTool::OpenRouter => add_tool(
                obj,
                json!({"type": "openrouter:web_search", "parameters": {"max_results": OPENROUTER_MAX_RESULTS}}),
            ),
            SearchTool::Anthropic => add_tool(
                obj,
                json!({"type": "web_search_20250305", "name": "web_search", "max_uses": ANTHROPIC_MAX_USES}),
            ),
            SearchTool::Gemini => add_tool(obj, json!({"google_search": {}})),
        }
    }

    /// The search as a person would name it.
    pub fn describe(self) -> &'static str {
        match self {
            SearchTool::OpenAi => "OpenAI's web search for its search models",
            SearchTool::OpenRouter => "OpenRouter's web search tool",
            SearchTool::Anthropic => "Anthropic's web search tool",
            SearchTool::Gemini => "Grounding with Google Search",
        }
    }

    /// Input tokens the search's results may add, for the spending cap's reservation.
    pub fn input_allowance(self) -> u32 {
        match self {
            SearchTool::Anthropic => ANTHROPIC_MAX_USES * ANTHROPIC_RESULT_TOKENS,
            SearchTool::OpenRouter => OPENROUTER_MAX_RESULTS * OPENROUTER_RESULT_TOKENS,
            SearchTool::OpenAi | SearchTool::Gemini => 0,
        }
    }
}

/// Adds a tool beside any the body has (a structured answer's forced tool stays).
fn add_tool(obj: &mut serde_json::Map<String, Value>, tool: Value) {
    match obj.get_mut("tools").and_then(Value::as_array_mut) {
        Some(tools) => tools.push(tool),
        None => {
            obj.insert("tools".into(), json!([tool]));
        }
    }
}

/// OpenAI's and OpenRouter's `annotations` (on a streamed `delta` or a whole `message`):
/// `{"type": "url_citation", "url_citation": {url, title, content?, start_index, end_index}}`.
pub fn read_annotations(annotations: &Value, web: &mut WebSearch) {
    for a in annotations.as_array().into_iter().flatten() {
        if a.get("type").and_then(Value::as_str) != Some("url_citation") {
            continue;
        }
        let c = a.get("url_citation").unwrap_or(a);
        let s = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("");
        if let Some(cite) = Citation::new(s("url"), s("title"), s("content")) {
            web.cite(cite);
        }
    }
}

/// One of Anthropic's `citations_delta` citations; other kinds (a document's character
/// range) are not the web's.
pub fn read_anthropic_citation(citation: &Value, web: &mut WebSearch) {
    if citation.get("type").and_then(Value::as_str) != Some("web_search_result_location") {
        return;
    }
    let s = |k: &str| citation.get(k).and_then(Value::as_str).unwrap_or("");
    if let Some(cite) = Citation::new(s("url"), s("title"), s("cited_text")) {
        web.cite(cite);
    }
}

/// A `web_search_tool_result` block that reports an error instead of results.
pub fn read_anthropic_result(block: &Value, web: &mut WebSearch) {
    let content = block.get("content").unwrap_or(&Value::Null);
    if content.get("type").and_then(Value::as_str) == Some("web_search_tool_result_error") {
        let code = content
            .get("error_code")
            .and_then(Value::as_str)
            .unwrap_or("unknown");
        let code: String = code
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .take(40)
            .collect();
        web.failed =
            format!("Anthropic's web search failed ({code}); the turn went on with what it had.");
    }
}

/// Gemini's `groundingMetadata`: the pages behind the answer.
pub fn read_grounding(metadata: &Value, web: &mut WebSearch) {
    let chunks = metadata.get("groundingChunks").and_then(Value::as_array);
    for chunk in chunks.into_iter().flatten() {
        let Some(page) = chunk.get("web") else {
            continue;
        };
        let s = |k: &str| page.get(k).and_then(Value::as_str).unwrap_or("");
        if let Some(cite) = Citation::new(s("uri"), s("title"), "") {
            web.cite(cite);
        }
    }
}

#[cfg(test)]
mod tests;
