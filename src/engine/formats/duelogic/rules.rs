//! Duelogic's rules as pure functions: when the Arbiter evaluates and interjects, which
//! violation an evaluation shows, how urgent an interruption must be, the cooldown, and the
//! cheap pattern check that decides whether a model is asked about interrupting at all.

use serde::{Deserialize, Serialize};

use crate::engine::config::Accountability;
use crate::engine::finding::{Evaluation, Quality};
use crate::engine::phrases;

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

impl Violation {
    /// What the chair must do to put the violation right: the obligation it broke (seed
    /// 000's interjections, each in its own terms).
    pub fn remedy(self) -> &'static str {
        match self {
            Violation::StrawManning => "state the strongest form of the position they attacked, as its own chair would put it, before answering it",
            Violation::MissingSelfCritique => "name the hardest objection to their own framework on this question",
            Violation::FrameworkInconsistency => "make the case from within their assigned framework, not another one",
            Violation::RhetoricalEvasion => "answer the point they were challenged on before moving on",
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
    /// Ways an interruption for this reason may start when the check suggested none (seed
    /// 002 draws one at random; Agora draws it from the debate's seed, so a replay takes
    /// the same one).
    pub fn openers(self) -> &'static [&'static str] {
        match self {
            InterruptReason::FactualCorrection => &[
                "Sorry, that's not quite right:",
                "Let me correct the record:",
                "That isn't what my framework holds:",
                "One moment, the facts differ:",
            ],
            InterruptReason::StrawManDetected => &[
                "Hold on, that's not my position:",
                "That's a caricature of what I said:",
                "You're answering an argument I didn't make:",
                "Wait, that misrepresents my view:",
            ],
            InterruptReason::DirectChallenge => &[
                "I have to push back on that:",
                "I can't let that pass:",
                "That claim needs answering now:",
                "Let me stop you there:",
            ],
            InterruptReason::ClarificationNeeded => &[
                "Wait, what do you mean by that?",
                "Before you go on, can you clarify:",
                "Sorry, which do you mean:",
                "Help me understand this part:",
            ],
            InterruptReason::StrongAgreement => &[
                "Yes, exactly, and here's why:",
                "I'm with you on this:",
                "That's the strongest point yet:",
                "Let me build on that:",
            ],
            InterruptReason::PivotalPoint => &[
                "This is our real disagreement:",
                "Here's where we truly part ways:",
                "This is the crux of it:",
                "Everything turns on this:",
            ],
        }
    }

    /// One of `openers`, by a uniform draw `u` in [0, 1).
    pub fn opener(self, u: f64) -> &'static str {
        let all = self.openers();
        all[((u * all.len() as f64) as usize).min(all.len() - 1)]
    }

    /// Phrases that hint at this reason in what a speaker just said (matched on whole
    /// words, ignoring case; `#` stands for a number).
    fn phrases(self) -> &'static [&'static str] {
        match self {
            InterruptReason::FactualCorrection => &[
                "studies show",
                "studies prove",
                "research shows",
                "research proves",
                "statistics show",
                "it is a fact",
                "it is a proven fact",
                "everyone knows",
                "#%",
                "# %",
                "# percent",
                // Seed 002: a framework misrepresented.
                "utilitarian don't care about",
                "utilitarian never care about",
                "utilitarians don't care about",
                "utilitarians never care about",
                "virtue ethics ignore",
                "virtue ethics ignores",
                "virtue ethics has no",
            ],
            InterruptReason::StrawManDetected => &[
                "so you're saying",
                "so you are saying",
                "so they're saying",
                "so they are saying",
                "they just want",
                "they simply want",
                "they only want",
                "you just want",
                "you simply want",
                "you only want",
                "would have us believe",
                "nobody believes",
                "nobody seriously believes",
                "all they care about",
                "all you care about",
                "naive",
                "naively",
                // Seed 002: a position dismissed, or its holders' motives made up.
                "that's ridiculous",
                "that's absurd",
                "that is ridiculous",
                "that is absurd",
                "people just want",
                "people only want",
                "people simply want",
            ],
            InterruptReason::DirectChallenge => &[
                "clearly",
                "obviously",
                "undeniable",
                "undeniably",
                "without question",
                "without a question",
                "no one can deny",
                "no one can argue",
                "must accept",
                "must surely accept",
                "the only reasonable",
                "the only rational",
                // Seed 002: "(obviously|clearly|undeniably|certainly) (wrong|false|mistaken)";
                // the first three already hint on their own.
                "certainly wrong",
                "certainly false",
                "certainly mistaken",
            ],
            InterruptReason::ClarificationNeeded => &[
                "in a sense",
                "sort of",
                "kind of",
                "arguably",
                "some might say",
                "some would say",
                "it depends",
            ],
            InterruptReason::StrongAgreement => &[
                "we all agree",
                "common ground",
                "i concede",
                "i fully concede",
                "you're right",
                "you are right",
                "you're absolutely right",
                "you are absolutely right",
            ],
            InterruptReason::PivotalPoint => &[
                "the real question",
                "at its core",
                "at the core",
                "fundamentally",
                "the crux",
                "comes down to",
                "the heart of",
                // Seed 002: "the (real|fundamental|core) (issue|question|problem) is",
                // "this is (exactly|precisely) (where|why)".
                "the real issue is",
                "the real problem is",
                "the fundamental issue is",
                "the fundamental question is",
                "the fundamental problem is",
                "the core issue is",
                "the core question is",
                "the core problem is",
                "this is exactly where",
                "this is exactly why",
                "this is precisely where",
                "this is precisely why",
            ],
        }
    }
}

/// The cheap check before a model is asked: the likely reason to interrupt `text`, if its
/// wording hints at one. Hand-written rather than a regex engine: the patterns are word
/// phrases, and `regex-lite` cost 19 KB of the gzipped bundle for them.
pub fn quick_check(text: &str) -> Option<InterruptReason> {
    let words = phrases::words(text);
    InterruptReason::ALL
        .into_iter()
        .find(|r| r.phrases().iter().any(|p| phrases::has(&words, p)))
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
    fn the_quick_check_hints_at_every_pattern_of_the_seed_and_not_at_near_misses() {
        use InterruptReason::*;
        let hits = [
            // The seed's own examples (002, its tests and its interruption example).
            ("They just want to ignore consequences!", StrawManDetected),
            (
                "The fundamental issue is whether rights are absolute.",
                PivotalPoint,
            ),
            (
                "Virtue ethics people just want to feel good about themselves!",
                StrawManDetected,
            ),
            // Each of the seed's patterns, every alternative.
            ("They only want power.", StrawManDetected),
            ("They simply want attention.", StrawManDetected),
            ("That's ridiculous.", StrawManDetected),
            ("That’s absurd, frankly.", StrawManDetected),
            ("That's naive.", StrawManDetected),
            (
                "Utilitarians don't care about individuals.",
                FactualCorrection,
            ),
            (
                "Utilitarians never care about the minority.",
                FactualCorrection,
            ),
            ("Virtue ethics ignores outcomes.", FactualCorrection),
            (
                "Virtue ethics ignore consequences altogether.",
                FactualCorrection,
            ),
            ("Virtue ethics has no answer to this.", FactualCorrection),
            ("The real issue is consent.", PivotalPoint),
            ("The core problem is trust.", PivotalPoint),
            ("The fundamental question is who decides.", PivotalPoint),
            ("This is exactly where we part ways.", PivotalPoint),
            ("This is precisely why the rule fails.", PivotalPoint),
            ("That claim is certainly wrong.", DirectChallenge),
            ("It is undeniably false.", DirectChallenge),
            ("She is clearly mistaken.", DirectChallenge),
        ];
        for (text, reason) in hits {
            assert_eq!(quick_check(text), Some(reason), "{text}");
        }
        for near_miss in [
            "They want lower fares.",
            "Utilitarians care about outcomes.",
            "Virtue ethics asks what a good person would do.",
            "The issue is complex.",
            "This is where we differ.",
            "I am certainly willing to listen.",
            "That is reasonable.",
            // Not the seed's wording ("care about"), and "never" alone hints nothing.
            "A utilitarian never cares to ask.",
        ] {
            assert_eq!(quick_check(near_miss), None, "{near_miss}");
        }
    }

    #[test]
    fn a_fallback_opener_is_drawn_from_a_varied_set_per_reason() {
        for r in InterruptReason::ALL {
            let all = r.openers();
            assert!(all.len() >= 3, "{r:?}");
            let drawn: std::collections::BTreeSet<&str> =
                (0..40).map(|i| r.opener(i as f64 / 40.0)).collect();
            assert_eq!(
                drawn.len(),
                all.len(),
                "every opener can be drawn for {r:?}"
            );
            assert_eq!(r.opener(0.999_999), *all.last().unwrap());
        }
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
