//! The forecast panel's options (seed 001): outcomes, roles, context, rounds, the judge's
//! weight and each call's token budget.

use serde::{Deserialize, Serialize};

/// One outcome a forecast assigns a probability to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForecastOutcome {
    pub id: String,
    pub label: String,
    #[serde(default)]
    pub description: String,
}

/// One role of a forecast panel: its seat, which of the seed's roles it is (`optimist`,
/// `pessimist`, `contrarian`, `historian`, `judge`, or `custom`) and, for a custom role,
/// the perspective it argues from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForecastRole {
    pub seat: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub perspective: String,
}

/// A prior probability for one outcome (from a simulation or a base rate).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForecastPrior {
    pub outcome: String,
    pub probability: f64,
}

/// What the panel is told besides the question (all optional).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ForecastContext {
    pub key_variables: Vec<String>,
    pub prior: Vec<ForecastPrior>,
    pub highlights: Vec<String>,
    pub data_gaps: Vec<String>,
}

/// The forecast panel's options (seed 001's defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ForecastOptions {
    pub outcomes: Vec<ForecastOutcome>,
    /// The roles in order, the judge among them.
    pub roles: Vec<ForecastRole>,
    pub context: ForecastContext,
    pub rounds: u32,
    /// Share of the judge's distribution in the final one, from 0 to 1.
    pub judge_weight: f64,
    pub argument_input_tokens: u32,
    pub argument_output_tokens: u32,
    pub scoring_output_tokens: u32,
    pub synthesis_output_tokens: u32,
}

impl Default for ForecastOptions {
    fn default() -> Self {
        ForecastOptions {
            outcomes: Vec::new(),
            roles: Vec::new(),
            context: ForecastContext::default(),
            rounds: 3,
            judge_weight: 0.6,
            argument_input_tokens: 600,
            argument_output_tokens: 500,
            scoring_output_tokens: 250,
            synthesis_output_tokens: 1200,
        }
    }
}
