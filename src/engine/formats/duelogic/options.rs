//! Duelogic's options (seeds 000 and 002): the chairs and their frameworks, accountability,
//! interruptions and the podcast's name.

use serde::{Deserialize, Serialize};

/// How strictly the Arbiter holds duelogic chairs to their framework (seed 000).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Accountability {
    Relaxed,
    #[default]
    Moderate,
    Strict,
}

/// A philosophical framework a duelogic chair argues from (the catalogue is
/// `prompts/duelogic/frameworks.json`; users can add their own).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Framework {
    pub id: String,
    pub name: String,
    pub description: String,
    pub core_question: String,
    #[serde(default)]
    pub strengths: Vec<String>,
    #[serde(default)]
    pub blind_spots: Vec<String>,
}

/// One duelogic chair: a seat of the debate and the framework it argues from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chair {
    pub seat: String,
    pub framework: String,
}

/// Duelogic's options (seeds 000 and 002).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DuelogicOptions {
    /// 2 to 6 chairs, in speaking order.
    pub chairs: Vec<Chair>,
    /// The user's own frameworks, beside the catalogue.
    pub frameworks: Vec<Framework>,
    /// Why the question matters now, for the introduction.
    pub context: String,
    pub call_to_action: bool,
    pub rounds: u32,
    pub accountability: Accountability,
    pub interruptions: bool,
    /// Chairs may interrupt each other (not only the Arbiter).
    pub chair_interruptions: bool,
    /// 1 (only major issues) to 5 (frequent): sets the urgency threshold 0.9 … 0.5.
    pub aggressiveness: u8,
    /// Debate-time seconds before the same chair may interrupt again.
    pub cooldown_s: u32,
    pub show_name: String,
    pub episode: u32,
}

impl Default for DuelogicOptions {
    fn default() -> Self {
        DuelogicOptions {
            chairs: Vec::new(),
            frameworks: Vec::new(),
            context: String::new(),
            call_to_action: false,
            rounds: 2,
            accountability: Accountability::Moderate,
            interruptions: true,
            chair_interruptions: true,
            aggressiveness: 3,
            cooldown_s: 60,
            show_name: "Duelogic".into(),
            episode: 1,
        }
    }
}
