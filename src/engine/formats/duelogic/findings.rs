//! What the Arbiter finds of a chair's response (seed 000): the evaluation and its parts.

use serde::{Deserialize, Serialize};

/// How well a quality was shown (duelogic's steel-manning and self-critique).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    Strong,
    Adequate,
    Weak,
    Absent,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    High,
    Medium,
    Low,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QualityCheck {
    pub attempted: bool,
    pub quality: Quality,
    #[serde(default)]
    pub notes: String,
}

/// Duelogic's evaluation of one chair's response (seed 000).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    pub steel_manning: QualityCheck,
    pub self_critique: QualityCheck,
    pub consistent: bool,
    #[serde(default)]
    pub violations: Vec<String>,
    pub honesty: Level,
    #[serde(default)]
    pub honesty_issues: Vec<String>,
    /// Framework adherence, 0–100.
    pub adherence: u32,
    pub requires_interjection: bool,
    #[serde(default)]
    pub reason: String,
}

impl Quality {
    pub fn id(self) -> &'static str {
        match self {
            Quality::Strong => "strong",
            Quality::Adequate => "adequate",
            Quality::Weak => "weak",
            Quality::Absent => "absent",
        }
    }
}

impl Level {
    pub fn id(self) -> &'static str {
        match self {
            Level::High => "high",
            Level::Medium => "medium",
            Level::Low => "low",
        }
    }
}
