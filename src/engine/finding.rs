//! What a format finds out, as opposed to what a seat says: evaluations, scores,
//! interjections, interruptions, probabilities, crux cards and summaries. Each is recorded
//! in the event log through `DebateCtx::record` (one `FindingRecorded` event), so it is
//! stored, exported and replayed like every turn, and the UI renders it from the log.
//!
//! A judgement the analyst could not give in a readable form is `Unscored`, never a made-up
//! default number.

use serde::{Deserialize, Serialize};

use super::event::CallKey;

/// A finding and where it belongs: `key` names it uniquely within the debate (a replay
/// records it once), `about` is the turn it concerns, if any.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<CallKey>,
    /// The seat the finding is about (the speaker judged, the role forecasting…).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub seat: String,
    pub body: FindingBody,
}

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

/// One criterion of a weighted score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Criterion {
    pub name: String,
    /// Weight in per mille (250 = 0.25), so weights add up exactly.
    pub weight_permille: u32,
    pub value: f64,
    pub max: f64,
    #[serde(default)]
    pub reason: String,
}

/// One outcome's probability as a seat sees it.
#[cfg(test)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeProbability {
    pub outcome: String,
    pub probability: f64,
}

/// One side of a crux.
#[cfg(test)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CruxSide {
    pub seat: String,
    pub position: String,
    pub reasoning: String,
    pub would_change_mind: String,
}

#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DisagreementKind {
    Factual,
    Values,
    Definitional,
}

/// What a crux room found (seed 004).
#[cfg(test)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CruxCard {
    pub crux: String,
    pub sides: Vec<CruxSide>,
    pub kind: DisagreementKind,
    pub diagnosis: String,
    pub resolved: bool,
    #[serde(default)]
    pub resolution: String,
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FindingBody {
    Evaluation(Evaluation),
    /// A weighted score; `total` is on the same scale as the criteria's `max`.
    Score {
        rubric: String,
        criteria: Vec<Criterion>,
        total: f64,
    },
    /// The Arbiter steps in about a violation; the chair answers it next.
    Interjection {
        violation: String,
        text: String,
    },
    /// A speaker was cut: who cut in, why, and at which sentence.
    Interruption {
        by: String,
        reason: String,
        trigger: String,
        /// 0–100.
        urgency: u32,
        /// Characters of the cut turn that were kept.
        kept_chars: u32,
    },
    // The forecast and crux result kinds (and a titled summary) are compiled into the tests
    // only (the probe records them) until those formats are in the app: no shipped format
    // records them, and their parsers would cost bundle bytes for nothing (BENCHMARKS.md).
    #[cfg(test)]
    Probabilities {
        outcomes: Vec<OutcomeProbability>,
        /// 0–100.
        confidence: u32,
    },
    #[cfg(test)]
    CruxCard(CruxCard),
    /// A crux the analyst could not extract: shown as such, with a link to its room.
    #[cfg(test)]
    CruxNotExtracted {
        room: String,
        reason: String,
    },
    #[cfg(test)]
    Summary {
        title: String,
        text: String,
    },
    /// The analyst's answer could not be read: no number is shown for it.
    Unscored {
        what: String,
        reason: String,
    },
    /// The fact checker's verdicts on a turn's claims (possibly none).
    FactCheck {
        claims: Vec<ClaimCheck>,
    },
}

impl FindingBody {
    /// A short name for people ("Evaluation", "Crux card").
    pub fn label(&self) -> &'static str {
        match self {
            FindingBody::Evaluation(_) => "Evaluation",
            FindingBody::Score { .. } => "Score",
            FindingBody::Interjection { .. } => "Interjection",
            FindingBody::Interruption { .. } => "Interruption",
            #[cfg(test)]
            FindingBody::Probabilities { .. } => "Probabilities",
            #[cfg(test)]
            FindingBody::CruxCard(_) => "Crux card",
            #[cfg(test)]
            FindingBody::CruxNotExtracted { .. } => "Crux not extracted",
            #[cfg(test)]
            FindingBody::Summary { .. } => "Summary",
            FindingBody::Unscored { .. } => "Unscored",
            FindingBody::FactCheck { .. } => "Fact check",
        }
    }

    /// The finding in one line of plain text, for exports and compact views.
    pub fn summary(&self) -> String {
        use super::cost::decimal;
        match self {
            FindingBody::Evaluation(e) => format!(
                "adherence {}/100; steel-manning {}; self-critique {}; {}; honesty {}{}",
                e.adherence,
                e.steel_manning.quality.id(),
                e.self_critique.quality.id(),
                if e.consistent {
                    "consistent"
                } else {
                    "inconsistent"
                },
                e.honesty.id(),
                if e.requires_interjection {
                    format!("; interjection needed: {}", e.reason)
                } else {
                    String::new()
                }
            ),
            FindingBody::Score {
                rubric,
                criteria,
                total,
            } => {
                let max = criteria.first().map_or(10.0, |c| c.max);
                let parts: Vec<String> = criteria
                    .iter()
                    .map(|c| format!("{} {}", c.name, decimal(c.value, 1)))
                    .collect();
                format!(
                    "{rubric}: {} of {} ({})",
                    decimal(*total, 1),
                    decimal(max, 0),
                    parts.join(", ")
                )
            }
            FindingBody::Interjection { violation, text } => format!("{violation}: {text}"),
            FindingBody::Interruption {
                by,
                reason,
                trigger,
                urgency,
                ..
            } => format!("{by} cut in ({reason}, urgency {urgency}%) at \"{trigger}\""),
            #[cfg(test)]
            FindingBody::Probabilities {
                outcomes,
                confidence,
            } => {
                let parts: Vec<String> = outcomes
                    .iter()
                    .map(|o| format!("{} {}%", o.outcome, decimal(o.probability * 100.0, 1)))
                    .collect();
                format!("{} (confidence {confidence}%)", parts.join(", "))
            }
            #[cfg(test)]
            FindingBody::CruxCard(c) => format!("{} ({})", c.crux, c.kind.id()),
            #[cfg(test)]
            FindingBody::CruxNotExtracted { reason, .. } => format!("not extracted: {reason}"),
            #[cfg(test)]
            FindingBody::Summary { title, text } => format!("{title}: {text}"),
            FindingBody::Unscored { what, reason } => format!("{what} unscored: {reason}"),
            FindingBody::FactCheck { claims } if claims.is_empty() => "no checkable claims".into(),
            FindingBody::FactCheck { claims } => claims
                .iter()
                .map(|c| format!("\"{}\": {} ({})", c.claim, c.verdict.id(), c.reason))
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
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

#[cfg(test)]
impl DisagreementKind {
    pub fn id(self) -> &'static str {
        match self {
            DisagreementKind::Factual => "factual",
            DisagreementKind::Values => "values",
            DisagreementKind::Definitional => "definitional",
        }
    }
}
