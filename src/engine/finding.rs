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

// Each format's own finding types live in its folder; `FindingBody` keeps one arm per
// kind and names them here.
pub use super::formats::classic::findings::*;
pub use super::formats::council::findings::CouncilFinding;
pub use super::formats::crux::findings::*;
pub use super::formats::duelogic::findings::*;
pub use super::formats::duelogic::rules::InterruptReason;

/// One outcome's probability as a seat sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeProbability {
    pub outcome: String,
    pub probability: f64,
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
        reason: InterruptReason,
        trigger: String,
        /// 0–100.
        urgency: u32,
        /// Characters of the cut turn that were kept.
        kept_chars: u32,
    },
    Probabilities {
        outcomes: Vec<OutcomeProbability>,
        /// 0–100.
        confidence: u32,
    },
    CruxCard(CruxCard),
    /// A crux the analyst could not extract: shown as such, with a link to its room.
    CruxNotExtracted {
        room: String,
        reason: String,
    },
    Summary {
        title: String,
        text: String,
    },
    /// The aspects a crux debate's topic was broken into.
    Aspects(Vec<Aspect>),
    Disagreement(Disagreement),
    /// A crux room's exit check or convergence check: `done` is the crux surfaced, or the
    /// two converged.
    RoomCheck {
        kind: RoomCheckKind,
        done: bool,
        #[serde(default)]
        crux: String,
        #[serde(default)]
        note: String,
    },
    /// Whether a persona moved between its opening and its closing, and on what.
    PositionShift {
        shifted: bool,
        from: String,
        to: String,
        #[serde(default)]
        moved_by: String,
    },
    /// The forecast panel's findings (seed 001).
    Forecast(Box<super::formats::forecast::types::ForecastFinding>),
    /// The council's ballots, ranking, vote and verdict.
    Council(Box<super::formats::council::findings::CouncilFinding>),
    /// The analyst's answer could not be read: no number is shown for it.
    Unscored {
        what: String,
        reason: String,
    },
    /// The fact checker's verdicts on a turn's claims (possibly none).
    FactCheck {
        claims: Vec<ClaimCheck>,
    },
    /// The moderator's note on a turn that broke a rule, said before the next turn.
    ModeratorNote {
        breach: Breach,
        /// The rule in words ("no personal remarks"), empty for length and topic.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        rule: String,
        note: String,
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
            FindingBody::Probabilities { .. } => "Probabilities",
            FindingBody::CruxCard(_) => "Crux card",
            FindingBody::CruxNotExtracted { .. } => "Crux not extracted",
            FindingBody::Summary { .. } => "Summary",
            FindingBody::Aspects(_) => "Aspects",
            FindingBody::Disagreement(_) => "Disagreement",
            FindingBody::RoomCheck { .. } => "Room check",
            FindingBody::PositionShift { .. } => "Position shift",
            FindingBody::Forecast(f) => f.label(),
            FindingBody::Council(f) => f.label(),
            FindingBody::Unscored { .. } => "Unscored",
            FindingBody::FactCheck { .. } => "Fact check",
            FindingBody::ModeratorNote { .. } => "Moderator's note",
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
            } => format!(
                "{by} cut in ({}, urgency {urgency}%) at \"{trigger}\"",
                reason.words()
            ),
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
            FindingBody::CruxCard(c) => format!("{} ({})", c.crux, c.kind.id()),
            FindingBody::CruxNotExtracted { reason, .. } => format!("not extracted: {reason}"),
            FindingBody::Summary { title, text } => format!("{title}: {text}"),
            FindingBody::Aspects(a) => {
                let labels: Vec<&str> = a.iter().map(|a| a.label.as_str()).collect();
                format!("aspects: {}", labels.join("; "))
            }
            FindingBody::Disagreement(d) => format!(
                "{} (direct opposition {}, specific claim {}, relevant {}){}",
                if d.claim.is_empty() {
                    "no disagreement named"
                } else {
                    &d.claim
                },
                yes(d.direct_opposition),
                yes(d.specific_claim),
                yes(d.topic_relevant),
                if d.opened {
                    "; crux room opened"
                } else {
                    "; no crux room"
                }
            ),
            FindingBody::RoomCheck {
                kind,
                done,
                crux,
                note,
            } => {
                format!(
                    "{} check: {} {}; {}",
                    kind.id(),
                    kind.done_means(),
                    yes(*done),
                    if crux.is_empty() { note } else { crux }
                )
            }
            FindingBody::PositionShift {
                shifted,
                from,
                to,
                moved_by,
            } => {
                if *shifted {
                    format!("shifted from \"{from}\" to \"{to}\" ({moved_by})")
                } else {
                    format!("held: \"{to}\"")
                }
            }
            FindingBody::Forecast(f) => f.summary(),
            FindingBody::Council(f) => f.summary(),
            FindingBody::Unscored { what, reason } => format!("{what} unscored: {reason}"),
            FindingBody::FactCheck { claims } if claims.is_empty() => "no checkable claims".into(),
            FindingBody::FactCheck { claims } => claims
                .iter()
                .map(|c| format!("\"{}\": {} ({})", c.claim, c.verdict.id(), c.reason))
                .collect::<Vec<_>>()
                .join("; "),
            FindingBody::ModeratorNote { breach, rule, note } if rule.is_empty() => {
                format!("{}: {note}", breach.id())
            }
            FindingBody::ModeratorNote { breach, rule, note } => {
                format!("{} ({rule}): {note}", breach.id())
            }
        }
    }
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}
