//! Duelogic's rules as pure functions: when the Arbiter evaluates and interjects, which
//! violation an evaluation shows, how urgent an interruption must be, the cooldown, and the
//! cheap pattern check that decides whether a model is asked about interrupting at all.

use std::sync::OnceLock;

use regex_lite::Regex;
use serde::{Deserialize, Serialize};

use crate::engine::config::Accountability;
use crate::engine::finding::{Evaluation, Quality};

/// Relaxed debates are not evaluated at all.
pub fn evaluates(level: Accountability) -> bool {
    level != Accountability::Relaxed
}

/// Seed 000's decision table: moderate steps in when an interjection is required and
/// adherence is under 40; strict when either holds, or adherence is under 60.
pub fn interjects(level: Accountability, e: &Evaluation) -> bool {
    match level {
        Accountability::Relaxed => false,
        Accountability::Moderate => e.requires_interjection && e.adherence < 40,
        Accountability::Strict => e.requires_interjection || e.adherence < 60,
    }
}

/// The four violations the Arbiter calls out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Violation {
    StrawManning,
    MissingSelfCritique,
    FrameworkInconsistency,
    RhetoricalEvasion,
}

impl Violation {
    pub fn words(self) -> &'static str {
        match self {
            Violation::StrawManning => "straw-manning",
            Violation::MissingSelfCritique => "missing self-critique",
            Violation::FrameworkInconsistency => "framework inconsistency",
            Violation::RhetoricalEvasion => "rhetorical evasion",
        }
    }
}

/// The violation an evaluation shows most clearly: leaving the framework first, then a
/// missing or absent steel-man, then no self-critique; what remains is evasion.
pub fn violation(e: &Evaluation) -> Violation {
    let poor = |q: Quality| matches!(q, Quality::Absent | Quality::Weak);
    if !e.consistent {
        Violation::FrameworkInconsistency
    } else if !e.steel_manning.attempted || poor(e.steel_manning.quality) {
        Violation::StrawManning
    } else if !e.self_critique.attempted || poor(e.self_critique.quality) {
        Violation::MissingSelfCritique
    } else {
        Violation::RhetoricalEvasion
    }
}

/// Why a chair cuts in (seed 002's six reasons).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InterruptReason {
    FactualCorrection,
    StrawManDetected,
    DirectChallenge,
    ClarificationNeeded,
    StrongAgreement,
    PivotalPoint,
}

impl InterruptReason {
    pub const ALL: [InterruptReason; 6] = [
        InterruptReason::FactualCorrection,
        InterruptReason::StrawManDetected,
        InterruptReason::DirectChallenge,
        InterruptReason::ClarificationNeeded,
        InterruptReason::StrongAgreement,
        InterruptReason::PivotalPoint,
    ];

    pub fn id(self) -> &'static str {
        match self {
            InterruptReason::FactualCorrection => "factual_correction",
            InterruptReason::StrawManDetected => "straw_man_detected",
            InterruptReason::DirectChallenge => "direct_challenge",
            InterruptReason::ClarificationNeeded => "clarification_needed",
            InterruptReason::StrongAgreement => "strong_agreement",
            InterruptReason::PivotalPoint => "pivotal_point",
        }
    }

    pub fn words(self) -> &'static str {
        match self {
            InterruptReason::FactualCorrection => "factual correction",
            InterruptReason::StrawManDetected => "straw man detected",
            InterruptReason::DirectChallenge => "direct challenge",
            InterruptReason::ClarificationNeeded => "clarification needed",
            InterruptReason::StrongAgreement => "strong agreement",
            InterruptReason::PivotalPoint => "pivotal point",
        }
    }

    pub fn from_id(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.id() == s)
    }

    /// A fallback opener when the model gives none.
    pub fn opener(self) -> &'static str {
        match self {
            InterruptReason::FactualCorrection => "Sorry, that's not quite right:",
            InterruptReason::StrawManDetected => "Hold on, that's not my position:",
            InterruptReason::DirectChallenge => "I have to push back on that:",
            InterruptReason::ClarificationNeeded => "Wait, what do you mean by that?",
            InterruptReason::StrongAgreement => "Yes, exactly, and here's why:",
            InterruptReason::PivotalPoint => "This is our real disagreement:",
        }
    }

    /// The pattern that hints at this reason in what a speaker just said.
    fn pattern(self) -> &'static str {
        match self {
            InterruptReason::FactualCorrection => {
                r"(?i)\b(studies (show|prove)|research (shows|proves)|statistics show|it is a (proven )?fact|everyone knows|\d+(\.\d+)? ?(%|percent))"
            }
            InterruptReason::StrawManDetected => {
                r"(?i)\b(so (you're|you are|they're|they are) saying|(they|you) (just|simply|only) want|would have us believe|nobody (seriously )?believes|all (they|you) care about|naive)"
            }
            InterruptReason::DirectChallenge => {
                r"(?i)\b(clearly|obviously|undeniabl[ey]|without (a )?question|no one can (deny|argue)|must (surely )?accept|the only (reasonable|rational) )"
            }
            InterruptReason::ClarificationNeeded => {
                r"(?i)\b(in a sense|sort of|kind of|arguably|some (might|would) say|it depends)\b"
            }
            InterruptReason::StrongAgreement => {
                r"(?i)\b(we all agree|common ground|i (fully )?concede|you('re| are) (absolutely )?right)"
            }
            InterruptReason::PivotalPoint => {
                r"(?i)\b(the real question|at (its|the) core|fundamentally|the crux|comes down to|the heart of)"
            }
        }
    }
}

fn patterns() -> &'static [(InterruptReason, Regex)] {
    static P: OnceLock<Vec<(InterruptReason, Regex)>> = OnceLock::new();
    P.get_or_init(|| {
        InterruptReason::ALL
            .into_iter()
            .filter_map(|r| Regex::new(r.pattern()).ok().map(|re| (r, re)))
            .collect()
    })
}

/// The cheap check before a model is asked: the likely reason to interrupt `text`, if its
/// wording hints at one.
pub fn quick_check(text: &str) -> Option<InterruptReason> {
    patterns()
        .iter()
        .find(|(_, re)| re.is_match(text))
        .map(|(r, _)| *r)
}

/// Urgency an interruption needs, by aggressiveness 1–5 (seed 002): 0.9, 0.8, 0.7, 0.6, 0.5.
/// Outside 1–5 the nearest level applies.
pub fn urgency_threshold(aggressiveness: u8) -> f64 {
    match aggressiveness.clamp(1, 5) {
        1 => 0.9,
        2 => 0.8,
        3 => 0.7,
        4 => 0.6,
        _ => 0.5,
    }
}

/// From aggressiveness 4 the model is also asked at each paragraph end, hint or not.
pub fn checks_every_paragraph(aggressiveness: u8) -> bool {
    aggressiveness >= 4
}

/// A chair may interrupt again once `cooldown_s` seconds of debate time have passed since
/// its last interruption.
pub fn off_cooldown(last_ms: Option<u64>, now_ms: u64, cooldown_s: u32) -> bool {
    last_ms.is_none_or(|t| now_ms.saturating_sub(t) >= cooldown_s as u64 * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::finding::{Level, QualityCheck};

    fn eval(adherence: u32, requires: bool) -> Evaluation {
        let q = |quality| QualityCheck {
            attempted: true,
            quality,
            notes: String::new(),
        };
        Evaluation {
            steel_manning: q(Quality::Strong),
            self_critique: q(Quality::Adequate),
            consistent: true,
            violations: vec![],
            honesty: Level::High,
            honesty_issues: vec![],
            adherence,
            requires_interjection: requires,
            reason: String::new(),
        }
    }

    #[test]
    fn each_accountability_level_follows_the_decision_table() {
        use Accountability::*;
        // (adherence, requires interjection) → (relaxed, moderate, strict)
        let table = [
            ((30, true), (false, true, true)),
            ((30, false), (false, false, true)),
            ((50, true), (false, false, true)),
            ((50, false), (false, false, true)),
            ((70, true), (false, false, true)),
            ((70, false), (false, false, false)),
            ((39, true), (false, true, true)),
            ((40, true), (false, false, true)),
            ((60, false), (false, false, false)),
            ((59, false), (false, false, true)),
        ];
        for ((adherence, requires), (r, m, s)) in table {
            let e = eval(adherence, requires);
            assert_eq!(interjects(Relaxed, &e), r, "relaxed {adherence} {requires}");
            assert_eq!(
                interjects(Moderate, &e),
                m,
                "moderate {adherence} {requires}"
            );
            assert_eq!(interjects(Strict, &e), s, "strict {adherence} {requires}");
        }
        assert!(!evaluates(Relaxed) && evaluates(Moderate) && evaluates(Strict));
    }

    #[test]
    fn the_violation_named_is_the_clearest_one() {
        let mut e = eval(30, true);
        assert_eq!(violation(&e), Violation::RhetoricalEvasion);
        e.self_critique.quality = Quality::Absent;
        assert_eq!(violation(&e), Violation::MissingSelfCritique);
        e.steel_manning.attempted = false;
        assert_eq!(violation(&e), Violation::StrawManning);
        e.consistent = false;
        assert_eq!(violation(&e), Violation::FrameworkInconsistency);
    }

    #[test]
    fn the_quick_check_hints_at_each_reason() {
        let cases = [
            (
                "Studies show that 73% of drivers agree.",
                InterruptReason::FactualCorrection,
            ),
            (
                "So you're saying we should do nothing?",
                InterruptReason::StrawManDetected,
            ),
            (
                "This is obviously the only way forward.",
                InterruptReason::DirectChallenge,
            ),
            (
                "It is, in a sense, a matter of degree.",
                InterruptReason::ClarificationNeeded,
            ),
            (
                "Here I concede the point entirely.",
                InterruptReason::StrongAgreement,
            ),
            (
                "The real question is who bears the risk.",
                InterruptReason::PivotalPoint,
            ),
        ];
        for (text, reason) in cases {
            assert_eq!(quick_check(text), Some(reason), "{text}");
        }
        assert_eq!(
            quick_check("I think we should weigh the costs carefully."),
            None
        );
    }

    #[test]
    fn the_threshold_follows_aggressiveness() {
        let t: Vec<f64> = (1..=5).map(urgency_threshold).collect();
        assert_eq!(t, vec![0.9, 0.8, 0.7, 0.6, 0.5]);
        assert_eq!(urgency_threshold(0), 0.9);
        assert_eq!(urgency_threshold(9), 0.5);
        assert!(!checks_every_paragraph(3) && checks_every_paragraph(4));
    }

    #[test]
    fn the_cooldown_counts_debate_seconds() {
        assert!(off_cooldown(None, 0, 60));
        assert!(!off_cooldown(Some(10_000), 69_999, 60));
        assert!(off_cooldown(Some(10_000), 70_000, 60));
    }
}
