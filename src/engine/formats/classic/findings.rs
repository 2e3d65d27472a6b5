//! What classic's analyst and fact checker find: a weighted score's criteria and the
//! verdicts on a turn's claims.

use serde::{Deserialize, Serialize};

/// One criterion of a weighted score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Criterion {
    pub name: String,
    /// The criterion's share of the total (0.25), on the same scale as every weight.
    pub weight: f64,
    pub value: f64,
    pub max: f64,
    #[serde(default)]
    pub reason: String,
}

/// A fact checker's verdict on one claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Supported,
    Disputed,
    False,
    Unverifiable,
}

impl Verdict {
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Supported => "supported",
            Verdict::Disputed => "disputed",
            Verdict::False => "false",
            Verdict::Unverifiable => "unverifiable",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimCheck {
    pub claim: String,
    pub verdict: Verdict,
    #[serde(default)]
    pub reason: String,
}

/// The claims the fact checker steps in about: those it found false or disputed.
pub fn flagged(claims: &[ClaimCheck]) -> Vec<&ClaimCheck> {
    claims
        .iter()
        .filter(|c| matches!(c.verdict, Verdict::False | Verdict::Disputed))
        .collect()
}

/// Which of the configured rules a moderator's note says a turn broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Breach {
    /// The turn ran past its word limit, or was cut off at its token limit.
    Length,
    /// The turn left the question.
    OffTopic,
    /// The turn broke one of the style's rules (named in the note's `rule`).
    Rule,
}

impl Breach {
    pub fn id(self) -> &'static str {
        match self {
            Breach::Length => "over length",
            Breach::OffTopic => "off topic",
            Breach::Rule => "rule broken",
        }
    }
}
