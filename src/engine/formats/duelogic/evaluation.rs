//! Reading the analyst's answers: a response's evaluation and an interruption check, each
//! validated field by field. An answer that does not fit is an error naming the field, so
//! the caller records the evaluation as unscored (never a default number) or skips the
//! check.

use serde_json::{json, Value};

use super::rules::InterruptReason;
use crate::engine::answer::Problem;
use crate::engine::finding::{Evaluation, Level, Quality, QualityCheck};

use crate::engine::json_fields::{boolean, field, text, texts as list};

fn quality(v: &Value, name: &str) -> Result<QualityCheck, Problem> {
    let o = field(v, name)?;
    let quality = match text(o, "quality").to_ascii_lowercase().as_str() {
        "strong" => Quality::Strong,
        "adequate" => Quality::Adequate,
        "weak" => Quality::Weak,
        "absent" => Quality::Absent,
        _ => {
            return Err(Problem::wrong(
                format!("{name}.quality"),
                "be strong, adequate, weak or absent",
            ))
        }
    };
    Ok(QualityCheck {
        attempted: boolean(o, "attempted").map_err(|p| p.within(name))?,
        quality,
        notes: text(o, "notes"),
    })
}

/// An evaluation from the analyst's JSON.
pub fn parse_evaluation(v: &Value) -> Result<Evaluation, Problem> {
    let consistency = field(v, "framework_consistency")?;
    let honesty = field(v, "intellectual_honesty")?;
    let level = match text(honesty, "score").to_ascii_lowercase().as_str() {
        "high" => Level::High,
        "medium" => Level::Medium,
        "low" => Level::Low,
        _ => {
            return Err(Problem::wrong(
                "intellectual_honesty.score",
                "be high, medium or low",
            ))
        }
    };
    let adherence = field(v, "adherence_score")?
        .as_f64()
        .filter(|a| (0.0..=100.0).contains(a))
        .ok_or_else(|| Problem::wrong("adherence_score", "be a number from 0 to 100"))?;
    Ok(Evaluation {
        steel_manning: quality(v, "steel_manning")?,
        self_critique: quality(v, "self_critique")?,
        consistent: boolean(consistency, "consistent")
            .map_err(|p| p.within("framework_consistency"))?,
        violations: list(consistency, "violations"),
        honesty: level,
        honesty_issues: list(honesty, "issues"),
        adherence: adherence.round() as u32,
        requires_interjection: boolean(v, "requires_interjection")?,
        reason: text(v, "interjection_reason"),
    })
}

pub fn evaluation_schema() -> Value {
    let check = json!({
        "type": "object",
        "properties": {
            "attempted": {"type": "boolean"},
            "quality": {"type": "string", "enum": ["strong", "adequate", "weak", "absent"]},
            "notes": {"type": "string"}
        },
        "required": ["attempted", "quality", "notes"]
    });
    json!({
        "type": "object",
        "properties": {
            "steel_manning": check,
            "self_critique": check,
            "framework_consistency": {
                "type": "object",
                "properties": {
                    "consistent": {"type": "boolean"},
                    "violations": {"type": "array", "items": {"type": "string"}}
                },
                "required": ["consistent", "violations"]
            },
            "intellectual_honesty": {
                "type": "object",
                "properties": {
                    "score": {"type": "string", "enum": ["high", "medium", "low"]},
                    "issues": {"type": "array", "items": {"type": "string"}}
                },
                "required": ["score", "issues"]
            },
            "adherence_score": {"type": "integer", "minimum": 0, "maximum": 100},
            "requires_interjection": {"type": "boolean"},
            "interjection_reason": {"type": "string"}
        },
        "required": ["steel_manning", "self_critique", "framework_consistency",
            "intellectual_honesty", "adherence_score", "requires_interjection",
            "interjection_reason"]
    })
}

/// What an interruption check proposes.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    pub interrupt: bool,
    pub chair: Option<String>,
    pub reason: InterruptReason,
    pub trigger: String,
    /// 0.0 – 1.0.
    pub urgency: f64,
    pub opener: String,
}

pub fn parse_proposal(v: &Value) -> Result<Proposal, Problem> {
    let reason = InterruptReason::from_id(&text(v, "reason"))
        .ok_or_else(|| Problem::wrong("reason", "be one of the six interruption reasons"))?;
    let urgency = field(v, "urgency")?
        .as_f64()
        .filter(|u| (0.0..=1.0).contains(u))
        .ok_or_else(|| Problem::wrong("urgency", "be a number from 0 to 1"))?;
    Ok(Proposal {
        interrupt: boolean(v, "should_interrupt")?,
        chair: v
            .get("interrupting_chair")
            .and_then(Value::as_str)
            .map(str::to_string),
        reason,
        trigger: text(v, "trigger"),
        urgency,
        opener: text(v, "opener"),
    })
}

pub fn proposal_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "should_interrupt": {"type": "boolean"},
            "interrupting_chair": {"type": ["string", "null"]},
            "reason": {"type": "string", "enum": InterruptReason::ALL.map(|r| r.id())},
            "trigger": {"type": "string"},
            "urgency": {"type": "number", "minimum": 0, "maximum": 1},
            "opener": {"type": "string"}
        },
        "required": ["should_interrupt", "interrupting_chair", "reason", "trigger", "urgency", "opener"]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn good() -> Value {
        json!({
            "steel_manning": {"attempted": true, "quality": "Adequate", "notes": "fair"},
            "self_critique": {"attempted": false, "quality": "absent", "notes": ""},
            "framework_consistency": {"consistent": true, "violations": []},
            "intellectual_honesty": {"score": "high", "issues": []},
            "adherence_score": 72.4,
            "requires_interjection": false,
            "interjection_reason": ""
        })
    }

    #[test]
    fn a_complete_evaluation_reads_and_a_broken_one_names_its_field() {
        let e = parse_evaluation(&good()).unwrap();
        assert_eq!(e.adherence, 72);
        assert_eq!(e.steel_manning.quality, Quality::Adequate);
        let mut bad = good();
        bad["adherence_score"] = json!(140);
        assert_eq!(
            parse_evaluation(&bad).unwrap_err(),
            Problem::wrong("adherence_score", "be a number from 0 to 100")
        );
        let mut bad = good();
        bad["self_critique"]["quality"] = json!("great");
        assert_eq!(
            parse_evaluation(&bad).unwrap_err(),
            Problem::wrong(
                "self_critique.quality",
                "be strong, adequate, weak or absent"
            )
        );
        let mut bad = good();
        bad["steel_manning"]["attempted"] = json!("perhaps");
        assert_eq!(
            parse_evaluation(&bad).unwrap_err().to_string(),
            "steel_manning: `attempted` must be true or false"
        );
        let mut bad = good();
        bad.as_object_mut().unwrap().remove("requires_interjection");
        assert_eq!(
            parse_evaluation(&bad).unwrap_err(),
            Problem::missing("requires_interjection")
        );
    }

    #[test]
    fn a_proposal_needs_a_known_reason_and_an_urgency_in_range() {
        let v = json!({"should_interrupt": true, "interrupting_chair": "chair-2",
            "reason": "pivotal_point", "trigger": "the crux", "urgency": 0.75, "opener": "Wait"});
        let p = parse_proposal(&v).unwrap();
        assert_eq!((p.reason, p.urgency), (InterruptReason::PivotalPoint, 0.75));
        let mut bad = v.clone();
        bad["urgency"] = json!(7);
        assert!(parse_proposal(&bad).is_err());
        bad = v;
        bad["reason"] = json!("boredom");
        assert!(parse_proposal(&bad).is_err());
    }
}
