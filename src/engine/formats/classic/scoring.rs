//! Classic's judgement as data and arithmetic: each configuration's rules and weights
//! (`prompts/classic/configurations.json`), reading the analyst's scores and the fact
//! checker's verdicts, and the weighted 0–10 total. Pure, so it is tested natively.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Value};

use crate::engine::answer::Problem;
use crate::engine::config::ClassicStyle;
use crate::engine::finding::{Breach, ClaimCheck, Criterion, Verdict};
use crate::engine::prompt::classic::CONFIGURATIONS;

/// The criteria of seed 003, in order, with the names people read.
pub const CRITERIA: [(&str, &str); 5] = [
    ("logical_coherence", "Logical coherence"),
    ("evidence", "Evidence"),
    ("responsiveness", "Responsiveness"),
    ("persuasiveness", "Persuasiveness"),
    ("rule_adherence", "Rule adherence"),
];

/// One configuration of `prompts/classic/configurations.json`: its rules for the prompts
/// and its weight (per mille) for each criterion.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Configuration {
    rules: String,
    weights: Weights,
}

/// The weights by criterion, in the order of `CRITERIA`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Weights {
    logical_coherence: u32,
    evidence: u32,
    responsiveness: u32,
    persuasiveness: u32,
    rule_adherence: u32,
}

/// A configuration's rules for the prompts, and its weight (per mille) for each criterion
/// of `CRITERIA`, in order.
pub fn configuration(style: ClassicStyle) -> (String, [u32; 5]) {
    let all: BTreeMap<ClassicStyle, Configuration> =
        serde_json::from_str(CONFIGURATIONS).unwrap_or_default();
    match all.get(&style) {
        Some(Configuration { rules, weights: w }) => {
            let w = [
                w.logical_coherence,
                w.evidence,
                w.responsiveness,
                w.persuasiveness,
                w.rule_adherence,
            ];
            (rules.clone(), w)
        }
        // Seed 003's weights if the file lacks the style (a test makes sure it does not).
        None => (String::new(), [250, 250, 200, 150, 150]),
    }
}

/// The analyst's scores for one side, weighted: (criteria, total 0–10).
pub fn parse_scores(v: &Value, weights: [u32; 5]) -> Result<(Vec<Criterion>, f64), Problem> {
    let mut criteria = Vec::new();
    let mut total = 0.0;
    for ((id, name), w) in CRITERIA.iter().zip(weights) {
        let c = v.get(*id).ok_or_else(|| Problem::missing(*id))?;
        let score = c
            .get("score")
            .and_then(Value::as_f64)
            .filter(|s| (0.0..=10.0).contains(s))
            .ok_or_else(|| Problem::wrong(format!("{id}.score"), "be a number from 0 to 10"))?;
        total += score * w as f64 / 1000.0;
        criteria.push(Criterion {
            name: (*name).into(),
            weight: w as f64 / 1000.0,
            value: score,
            max: 10.0,
            reason: c
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or("")
                .trim()
                .to_string(),
        });
    }
    Ok((criteria, total))
}

pub fn scores_schema() -> Value {
    let one = json!({"type": "object",
        "properties": {"score": {"type": "integer", "minimum": 0, "maximum": 10}, "reason": {"type": "string"}},
        "required": ["score", "reason"]});
    let mut props = serde_json::Map::new();
    for (id, _) in CRITERIA {
        props.insert(id.into(), one.clone());
    }
    json!({"type": "object", "properties": props,
        "required": CRITERIA.map(|(id, _)| id)})
}

/// The fact checker's verdicts; a claim with an unknown verdict makes the answer unreadable.
pub fn parse_claims(v: &Value) -> Result<Vec<ClaimCheck>, Problem> {
    let list = v
        .get("claims")
        .and_then(Value::as_array)
        .ok_or_else(|| Problem::wrong("claims", "be a list"))?;
    list.iter()
        .take(5)
        .enumerate()
        .map(|(i, c)| {
            let part = || format!("claim {}", i + 1);
            let verdict = match c.get("verdict").and_then(Value::as_str).map(str::trim) {
                Some(s) if s.eq_ignore_ascii_case("supported") => Verdict::Supported,
                Some(s) if s.eq_ignore_ascii_case("disputed") => Verdict::Disputed,
                Some(s) if s.eq_ignore_ascii_case("false") => Verdict::False,
                Some(s) if s.eq_ignore_ascii_case("unverifiable") => Verdict::Unverifiable,
                _ => {
                    return Err(Problem::wrong(
                        "verdict",
                        "be supported, disputed, false or unverifiable",
                    )
                    .within(part()))
                }
            };
            let claim = c.get("claim").and_then(Value::as_str).unwrap_or("").trim();
            if claim.is_empty() {
                return Err(Problem::wrong("claim", "be a non-empty text").within(part()));
            }
            Ok(ClaimCheck {
                claim: claim.into(),
                verdict,
                reason: c
                    .get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .trim()
                    .into(),
            })
        })
        .collect()
}

pub fn claims_schema() -> Value {
    json!({"type": "object", "properties": {"claims": {"type": "array", "items": {
        "type": "object",
        "properties": {"claim": {"type": "string"},
            "verdict": {"type": "string", "enum": ["supported", "disputed", "false", "unverifiable"]},
            "reason": {"type": "string"}},
        "required": ["claim", "verdict", "reason"]}}},
        "required": ["claims"]})
}

/// The moderator's ruling on a turn its quick check flagged: `None` when the turn broke
/// no rule, else the breach, the rule in words and the note to say.
pub fn parse_ruling(v: &Value) -> Result<Option<(Breach, String, String)>, Problem> {
    let breach = v
        .get("breach")
        .and_then(Value::as_bool)
        .ok_or_else(|| Problem::wrong("breach", "be true or false"))?;
    if !breach {
        return Ok(None);
    }
    let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").trim();
    let kind = match text("kind") {
        k if k.eq_ignore_ascii_case("off_topic") => Breach::OffTopic,
        k if k.eq_ignore_ascii_case("rule") => Breach::Rule,
        _ => return Err(Problem::wrong("kind", "be off_topic or rule")),
    };
    let note = text("note");
    if note.is_empty() {
        return Err(Problem::wrong("note", "be a non-empty text"));
    }
    Ok(Some((kind, text("rule").to_string(), note.to_string())))
}

pub fn ruling_schema() -> Value {
    json!({"type": "object", "properties": {
        "breach": {"type": "boolean"},
        "kind": {"type": "string", "enum": ["off_topic", "rule"]},
        "rule": {"type": "string"},
        "note": {"type": "string"}},
        "required": ["breach", "kind", "rule", "note"]})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ruling_reads_a_breach_with_its_note_and_no_breach_as_none() {
        let v = json!({"breach": true, "kind": "rule", "rule": "no personal remarks", "note": "Keep to the argument, not the person."});
        assert_eq!(
            parse_ruling(&v).unwrap(),
            Some((
                Breach::Rule,
                "no personal remarks".into(),
                "Keep to the argument, not the person.".into()
            ))
        );
        let clear = json!({"breach": false, "kind": "rule", "rule": "", "note": ""});
        assert_eq!(parse_ruling(&clear).unwrap(), None);
        let off = json!({"breach": true, "kind": "OFF_TOPIC", "rule": "", "note": "Back to the question."});
        assert_eq!(parse_ruling(&off).unwrap().unwrap().0, Breach::OffTopic);
        // A breach with no note to say, or of no known kind, cannot be read.
        assert!(parse_ruling(&json!({"breach": true, "kind": "rule", "note": " "})).is_err());
        assert!(parse_ruling(&json!({"breach": true, "kind": "tone", "note": "x"})).is_err());
        assert!(parse_ruling(&json!({"kind": "rule"})).is_err());
    }

    #[test]
    fn every_configuration_has_rules_and_weights_that_add_up() {
        let file: BTreeMap<ClassicStyle, Configuration> =
            serde_json::from_str(CONFIGURATIONS).expect("configurations.json reads");
        assert_eq!(file.len(), ClassicStyle::ALL.len());
        for style in ClassicStyle::ALL {
            let (rules, w) = configuration(style);
            assert!(!rules.is_empty(), "{style:?}");
            assert_eq!(w.iter().sum::<u32>(), 1000, "{style:?}");
        }
        // Formal keeps seed 003's weights; the others shift the emphasis.
        assert_eq!(
            configuration(ClassicStyle::Formal).1,
            [250, 250, 200, 150, 150]
        );
        assert!(configuration(ClassicStyle::Competitive).1[3] > 150);
        assert!(configuration(ClassicStyle::Educational).1[1] > 250);
    }

    #[test]
    fn the_weighted_score_matches_the_hand_computed_one() {
        let v = json!({
            "logical_coherence": {"score": 8, "reason": "clear"},
            "evidence": {"score": 6, "reason": "thin"},
            "responsiveness": {"score": 7, "reason": "ok"},
            "persuasiveness": {"score": 9, "reason": "strong"},
            "rule_adherence": {"score": 10, "reason": "kept"}
        });
        let (criteria, total) = parse_scores(&v, [250, 250, 200, 150, 150]).unwrap();
        // 8×.25 + 6×.25 + 7×.20 + 9×.15 + 10×.15 = 2 + 1.5 + 1.4 + 1.35 + 1.5 = 7.75
        assert!((total - 7.75).abs() < 1e-9, "{total}");
        assert_eq!(criteria[1].reason, "thin");
        let mut bad = v.clone();
        bad["evidence"]["score"] = json!(11);
        assert_eq!(
            parse_scores(&bad, [250, 250, 200, 150, 150]).unwrap_err(),
            Problem::wrong("evidence.score", "be a number from 0 to 10")
        );
        bad = v;
        bad.as_object_mut().unwrap().remove("persuasiveness");
        assert!(parse_scores(&bad, [250; 5]).is_err());
    }

    #[test]
    fn fact_checks_read_verdicts_and_refuse_unknown_ones() {
        let v = json!({"claims": [{"claim": "Oslo banned cars in 2019", "verdict": "Disputed", "reason": "partly"}]});
        let c = parse_claims(&v).unwrap();
        assert_eq!(c[0].verdict, Verdict::Disputed);
        assert!(parse_claims(&json!({"claims": []})).unwrap().is_empty());
        assert!(parse_claims(&json!({"claims": [{"claim": "x", "verdict": "maybe"}]})).is_err());
        assert!(parse_claims(&json!({"verdicts": []})).is_err());
    }
}
