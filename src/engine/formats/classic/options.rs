//! Classic's options: the style (seed 003's four configurations), the rounds, scoring and
//! the fact checker, and each kind of turn's token limit.

use serde::{Deserialize, Serialize};

/// Tone and rules of a classic debate (seed 003's four configurations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ClassicStyle {
    #[default]
    Formal,
    Casual,
    Educational,
    Competitive,
}

impl ClassicStyle {
    pub const ALL: [ClassicStyle; 4] = [
        ClassicStyle::Formal,
        ClassicStyle::Casual,
        ClassicStyle::Educational,
        ClassicStyle::Competitive,
    ];

    pub fn id(self) -> &'static str {
        match self {
            ClassicStyle::Formal => "formal",
            ClassicStyle::Casual => "casual",
            ClassicStyle::Educational => "educational",
            ClassicStyle::Competitive => "competitive",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.id() == id)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClassicOptions {
    pub rounds: u32,
    pub style: ClassicStyle,
    /// A fact checker checks each position's factual claims after every turn.
    pub fact_checker: bool,
    /// The analyst scores both positions after the closing statements.
    pub scoring: bool,
    pub opening_tokens: u32,
    pub argument_tokens: u32,
    pub closing_tokens: u32,
    pub summary_tokens: u32,
}

impl Default for ClassicOptions {
    fn default() -> Self {
        // Seed 003's example limits.
        ClassicOptions {
            rounds: 2,
            style: ClassicStyle::Formal,
            fact_checker: false,
            scoring: false,
            opening_tokens: 300,
            argument_tokens: 250,
            closing_tokens: 350,
            summary_tokens: 300,
        }
    }
}
