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

/// Which of the seed's roles a seat plays, or a custom role with its own perspective.
/// Stored as the seed's lowercase words (`"historian"`); a word this version does not know
/// reads as a custom role, as it always played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RoleKind {
    Optimist,
    Pessimist,
    Contrarian,
    /// Argues from precedents, each with a date and an outcome.
    Historian,
    /// Gives its own distribution, weighted into the final one.
    Judge,
    #[serde(other)]
    Custom,
}

impl RoleKind {
    /// The seed's roles, in its order.
    pub const SEED: [RoleKind; 5] = [
        RoleKind::Optimist,
        RoleKind::Pessimist,
        RoleKind::Contrarian,
        RoleKind::Historian,
        RoleKind::Judge,
    ];

    /// The stored word, which is also a seed role's seat id.
    pub fn id(self) -> &'static str {
        match self {
            RoleKind::Optimist => "optimist",
            RoleKind::Pessimist => "pessimist",
            RoleKind::Contrarian => "contrarian",
            RoleKind::Historian => "historian",
            RoleKind::Judge => "judge",
            RoleKind::Custom => "custom",
        }
    }

    /// A seed role by its word (any case); anything else is a custom role.
    pub fn from_id(word: &str) -> RoleKind {
        let word = word.trim().to_lowercase();
        Self::SEED
            .into_iter()
            .find(|k| k.id() == word)
            .unwrap_or(RoleKind::Custom)
    }
}

/// One role of a forecast panel: its seat, which role it plays and, for a custom role,
/// the perspective it argues from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForecastRole {
    pub seat: String,
    pub kind: RoleKind,
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

#[cfg(test)]
mod tests {
    use super::RoleKind;

    #[test]
    fn role_kinds_are_stored_as_the_seeds_words_and_an_unknown_one_reads_as_custom() {
        for kind in RoleKind::SEED.into_iter().chain([RoleKind::Custom]) {
            let word = serde_json::to_string(&kind).unwrap();
            assert_eq!(word, format!("\"{}\"", kind.id()));
            assert_eq!(serde_json::from_str::<RoleKind>(&word).unwrap(), kind);
            assert_eq!(RoleKind::from_id(kind.id()), kind);
        }
        assert_eq!(
            serde_json::from_str::<RoleKind>("\"economist\"").unwrap(),
            RoleKind::Custom
        );
        assert_eq!(RoleKind::from_id(" Historian "), RoleKind::Historian);
        assert_eq!(RoleKind::from_id("supply chains"), RoleKind::Custom);
    }
}
