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

    /// Formal and competitive debates are always scored (seed 003: "explicit scoring",
    /// "emphasis on winning"); the others only when the user asks.
    pub fn always_scored(self) -> bool {
        matches!(self, ClassicStyle::Formal | ClassicStyle::Competitive)
    }

    /// Competitive debates are scored after every round as well as at the end.
    pub fn scores_each_round(self) -> bool {
        self == ClassicStyle::Competitive
    }

    /// What the moderator says after each round.
    pub fn round_close(self) -> RoundClose {
        match self {
            ClassicStyle::Formal | ClassicStyle::Competitive => RoundClose::Summary,
            ClassicStyle::Educational => RoundClose::Explanation,
            ClassicStyle::Casual => RoundClose::Nothing,
        }
    }

    /// Which position opens round `round`'s first exchange: A every round, except in a
    /// casual debate, where the lead alternates (B opens the even rounds).
    pub fn leads_round(self, round: u32) -> Lead {
        if self == ClassicStyle::Casual && round.is_multiple_of(2) {
            Lead::B
        } else {
            Lead::A
        }
    }

    /// How far past its word limit a turn may run before the moderator notes it: a fifth
    /// over, as models count words loosely, except in a competitive debate, whose rules
    /// say "keep to the turn's limits exactly".
    pub fn length_slack_percent(self) -> u32 {
        if self == ClassicStyle::Competitive {
            0
        } else {
            20
        }
    }

    /// What the configuration changes, in a sentence for the setup form and the README.
    pub fn structure(self) -> &'static str {
        match self {
            ClassicStyle::Formal => "Strict rules and formal language; both positions are always scored at the end.",
            ClassicStyle::Casual => "Conversational; the lead alternates each round and the moderator skips the round summaries.",
            ClassicStyle::Educational => "For learning; after each round the moderator explains terms, evidence and what is uncertain.",
            ClassicStyle::Competitive => "Argue to win; both positions are scored after every round and at the end, and turns must keep to their limits exactly.",
        }
    }
}

/// What the moderator says at the end of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundClose {
    /// A neutral summary of the round.
    Summary,
    /// An explanation for learners: terms, the strength of the evidence, what is open.
    Explanation,
    /// Nothing: the next round follows at once.
    Nothing,
}

/// The position that argues first in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lead {
    A,
    B,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClassicOptions {
    pub rounds: u32,
    pub style: ClassicStyle,
    /// A fact checker checks each position's factual claims after every turn.
    pub fact_checker: bool,
    /// The analyst scores both positions after the closing statements. Formal and
    /// competitive debates are scored whatever this says (`scored`).
    pub scoring: bool,
    pub opening_tokens: u32,
    pub argument_tokens: u32,
    pub closing_tokens: u32,
    pub summary_tokens: u32,
}

impl ClassicOptions {
    /// Whether the analyst scores both positions after the closings.
    pub fn scored(&self) -> bool {
        self.scoring || self.style.always_scored()
    }
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
