//! What every dialect's request shares: how hard a reasoning model may think, and the
//! system prompts taken apart from the conversation. Apart from `dialect`, which dispatches
//! to each family, so no family imports it.

use crate::engine::model::{ChatMessage, Role};

/// How hard a reasoning model may think: OpenAI's `reasoning_effort`, or a thinking budget
/// for Anthropic and Gemini.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effort {
    Low,
    Medium,
    High,
}

impl Effort {
    pub const ALL: [Effort; 3] = [Effort::Low, Effort::Medium, Effort::High];

    pub fn id(self) -> &'static str {
        match self {
            Effort::Low => "low",
            Effort::Medium => "medium",
            Effort::High => "high",
        }
    }

    /// Thinking tokens for providers that take a budget rather than a level.
    pub fn budget_tokens(self) -> u32 {
        match self {
            Effort::Low => 1024,
            Effort::Medium => 4096,
            Effort::High => 16384,
        }
    }
}

/// Splits off the system prompts (Anthropic and Gemini take them apart from the
/// conversation) and says for each remaining message whether the model wrote it.
pub fn split_system(messages: &[ChatMessage]) -> (Option<String>, Vec<(bool, &str)>) {
    let system: Vec<&str> = messages
        .iter()
        .filter(|m| m.role == Role::System)
        .map(|m| m.content.as_str())
        .collect();
    let rest = messages
        .iter()
        .filter(|m| m.role != Role::System)
        .map(|m| (m.role == Role::Assistant, m.content.as_str()))
        .collect();
    ((!system.is_empty()).then(|| system.join("\n\n")), rest)
}
