//! The council's options: whether the members revise their answers once before the review,
//! and how long each kind of answer may be.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CouncilOptions {
    /// A second round (Du et al.'s multi-agent debate): each member reads the others'
    /// answers and revises its own; the review then ranks the revised answers.
    pub second_round: bool,
    /// The most a member's answer (or revision) may be.
    pub answer_tokens: u32,
    /// The most a reviewer's ballot may be.
    pub review_tokens: u32,
    /// The most the chair's final answer, and its minority report, may be.
    pub chair_tokens: u32,
}

impl Default for CouncilOptions {
    fn default() -> Self {
        CouncilOptions {
            second_round: false,
            answer_tokens: 700,
            review_tokens: 600,
            chair_tokens: 900,
        }
    }
}
