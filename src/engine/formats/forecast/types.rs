//! What the forecast panel records as findings (seed 001's `DebateResult`, piece by piece):
//! each argument's parsed fields, round summaries, the judge's disagreement map and key
//! insights, the historian's precedents, and the result with its metadata. A value the
//! model did not give readably is absent (`None`, or `rejected` with the reason), never a
//! made-up number.

use serde::{Deserialize, Serialize};

use crate::engine::finding::{Finding, FindingBody, Level, OutcomeProbability};

/// What a round is for: the first opens, the last closes, those between rebut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Opening,
    Rebuttal,
    Closing,
}

impl Phase {
    /// The phase of round `r` of `n`.
    pub fn of_round(r: u32, n: u32) -> Phase {
        if r == 1 {
            Phase::Opening
        } else if r == n {
            Phase::Closing
        } else {
            Phase::Rebuttal
        }
    }

    /// As the prompts, the stored findings and the exports write it.
    pub fn id(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Rebuttal => "rebuttal",
            Phase::Closing => "closing",
        }
    }

    /// For people: "Opening".
    pub fn title(self) -> &'static str {
        match self {
            Phase::Opening => "Opening",
            Phase::Rebuttal => "Rebuttal",
            Phase::Closing => "Closing",
        }
    }
}

/// Where the judge's probabilities in the result came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JudgeSource {
    /// The judge's synthesis was read.
    #[serde(rename = "synthesis")]
    Synthesis,
    /// The synthesis could not be read; the judge's last argument stands in.
    #[serde(rename = "closing argument")]
    ClosingArgument,
    /// The judge gave no readable probabilities at all.
    #[serde(rename = "none")]
    None,
}

/// One role's argument in one round, as parsed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArgumentFinding {
    pub round: u32,
    pub phase: Phase,
    pub argument: String,
    /// The outcome it supports; empty when it named none of the outcomes.
    #[serde(default)]
    pub outcome_supported: String,
    #[serde(default)]
    pub evidence: Vec<String>,
    /// Roles it rebuts (rebuttals and closings).
    #[serde(default)]
    pub rebuts: Vec<String>,
    /// Points from earlier rounds it builds on (closings).
    #[serde(default)]
    pub references: Vec<String>,
    /// Normalised to sum to 1; empty when rejected.
    #[serde(default)]
    pub probabilities: Vec<OutcomeProbability>,
    /// Why the probabilities were rejected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejected: Option<String>,
    /// Their sum as given, before normalising.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub given_sum: Option<f64>,
    /// The role's confidence, 0–1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// The second attempt after the first scored under 0.2.
    #[serde(default)]
    pub regenerated: bool,
    /// What it still lacked after it was asked again (a rebuttal naming no role it rebuts,
    /// a closing naming nothing it draws on, a historian's undated precedents): it is used,
    /// and marked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Direction {
    pub outcome: String,
    /// Toward (the consensus probability rose) or away.
    pub toward: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundSummary {
    pub round: u32,
    pub phase: Phase,
    /// The role with the highest composite score this round, if any was scored.
    #[serde(default)]
    pub dominant: Option<String>,
    #[serde(default)]
    pub key_disagreements: Vec<String>,
    #[serde(default)]
    pub emerging: Vec<Direction>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stance {
    pub role: String,
    pub stance: String,
    /// 0–1.
    pub strength: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Disagreement {
    pub topic: String,
    pub positions: Vec<Stance>,
    pub resolved: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Insight {
    pub insight: String,
    pub source_role: String,
    pub round: u32,
    pub impact: Level,
    #[serde(default)]
    pub affected_outcomes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Precedent {
    pub event: String,
    pub date: String,
    pub outcome: String,
    /// 0–1.
    pub similarity: f64,
    #[serde(default)]
    pub relevance: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoleAssessment {
    pub role: String,
    pub probability: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
}

/// One outcome of the final distribution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeResult {
    pub outcome: String,
    pub label: String,
    /// Every role's latest readable probability (the judge's included).
    pub roles: Vec<RoleAssessment>,
    /// Mean over the non-judge roles (`ForecastResult::consensus_roles`).
    pub consensus: Option<f64>,
    /// From the judge's synthesis (or, failing that, the judge's last argument).
    pub judge: Option<f64>,
    #[serde(rename = "final")]
    pub final_probability: Option<f64>,
    pub consensus_score: Option<f64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    pub total_arguments: u32,
    pub calls: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub wall_clock_ms: u64,
    pub models: Vec<String>,
}

/// The panel's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForecastResult {
    pub outcomes: Vec<OutcomeResult>,
    /// Mean of the outcomes' consensus scores.
    pub consensus_score: Option<f64>,
    /// The roles the consensus is the mean of (by name): every role but the judge, whose
    /// view enters the final distribution apart, at `judge_weight`; counted in the
    /// consensus too it would weigh twice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consensus_roles: Vec<String>,
    pub judge_weight: f64,
    /// Where the judge's probabilities came from.
    pub judge_source: JudgeSource,
    /// Arguments scored, how many above 0.4, their share, and whether under 80%.
    pub scored: u32,
    pub good: u32,
    pub good_share: f64,
    pub low_quality: bool,
    pub regenerated: u32,
    pub roles_configured: u32,
    pub roles_succeeded: u32,
    #[serde(default)]
    pub failed_roles: Vec<String>,
    pub partial: bool,
    /// 0–1: the judge's (or the roles' mean) confidence, reduced by the share of roles that
    /// failed.
    pub confidence: Option<f64>,
    /// Probabilities read and rejected over the whole debate.
    pub probabilities_parsed: u32,
    pub probabilities_rejected: u32,
    #[serde(default)]
    pub notes: Vec<String>,
    pub metadata: Metadata,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ForecastFinding {
    Argument(ArgumentFinding),
    RoundSummary(RoundSummary),
    Disagreements(Vec<Disagreement>),
    Insights(Vec<Insight>),
    Precedents(Vec<Precedent>),
    Result(ForecastResult),
}

/// The panel's result among a debate's findings (the latest, should there be several).
pub fn result_in<'a>(
    findings: impl DoubleEndedIterator<Item = &'a Finding>,
) -> Option<&'a ForecastResult> {
    findings.rev().find_map(|f| match &f.body {
        FindingBody::Forecast(x) => match x.as_ref() {
            ForecastFinding::Result(r) => Some(r),
            _ => None,
        },
        _ => None,
    })
}

impl ForecastFinding {
    pub fn label(&self) -> &'static str {
        match self {
            ForecastFinding::Argument(_) => "Argument",
            ForecastFinding::RoundSummary(_) => "Round summary",
            ForecastFinding::Disagreements(_) => "Disagreement map",
            ForecastFinding::Insights(_) => "Key insights",
            ForecastFinding::Precedents(_) => "Historical precedents",
            ForecastFinding::Result(_) => "Forecast",
        }
    }

    pub fn summary(&self) -> String {
        let pct = crate::engine::cost::percent;
        match self {
            ForecastFinding::Argument(a) => {
                let probs = match &a.rejected {
                    Some(r) => format!("probabilities rejected: {r}"),
                    None => a
                        .probabilities
                        .iter()
                        .map(|o| format!("{} {}", o.outcome, pct(o.probability)))
                        .collect::<Vec<_>>()
                        .join(", "),
                };
                format!("round {} for {}: {probs}", a.round, a.outcome_supported)
            }
            ForecastFinding::RoundSummary(r) => format!(
                "round {}: strongest {}; {}",
                r.round,
                r.dominant.as_deref().unwrap_or("unscored"),
                r.key_disagreements.join("; ")
            ),
            ForecastFinding::Disagreements(d) => d
                .iter()
                .map(|d| {
                    format!(
                        "{} ({})",
                        d.topic,
                        if d.resolved { "resolved" } else { "open" }
                    )
                })
                .collect::<Vec<_>>()
                .join("; "),
            ForecastFinding::Insights(i) => i
                .iter()
                .map(|i| format!("{} ({})", i.insight, i.source_role))
                .collect::<Vec<_>>()
                .join("; "),
            ForecastFinding::Precedents(p) => p
                .iter()
                .map(|p| format!("{} ({}): {}", p.event, p.date, p.outcome))
                .collect::<Vec<_>>()
                .join("; "),
            ForecastFinding::Result(r) => {
                let parts: Vec<String> = r
                    .outcomes
                    .iter()
                    .map(|o| {
                        format!(
                            "{} {}",
                            o.label,
                            o.final_probability.map_or("no forecast".into(), pct)
                        )
                    })
                    .collect();
                format!(
                    "{}{}{}",
                    parts.join(", "),
                    r.consensus_score
                        .map_or(String::new(), |c| format!("; consensus {}", pct(c))),
                    if r.partial { " (partial)" } else { "" }
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stored logs wrote these as strings; the enums write and read the same words, so no
    /// log needs migrating.
    #[test]
    fn phases_and_judge_sources_are_stored_as_the_words_they_were() {
        let words = |v: &[serde_json::Value]| -> Vec<String> {
            v.iter().map(|x| x.as_str().unwrap().to_string()).collect()
        };
        let phases = [Phase::Opening, Phase::Rebuttal, Phase::Closing];
        let stored: Vec<_> = phases.iter().map(|p| serde_json::json!(p)).collect();
        assert_eq!(words(&stored), ["opening", "rebuttal", "closing"]);
        assert_eq!(phases.map(Phase::id), ["opening", "rebuttal", "closing"]);
        let sources = [
            JudgeSource::Synthesis,
            JudgeSource::ClosingArgument,
            JudgeSource::None,
        ];
        let stored: Vec<_> = sources.iter().map(|s| serde_json::json!(s)).collect();
        assert_eq!(words(&stored), ["synthesis", "closing argument", "none"]);
        for (s, v) in sources.iter().zip(&stored) {
            assert_eq!(
                &serde_json::from_value::<JudgeSource>(v.clone()).unwrap(),
                s
            );
        }
        let rounds: Vec<Phase> = (1..=4).map(|r| Phase::of_round(r, 4)).collect();
        assert_eq!(
            rounds,
            [
                Phase::Opening,
                Phase::Rebuttal,
                Phase::Rebuttal,
                Phase::Closing
            ]
        );
    }
}
