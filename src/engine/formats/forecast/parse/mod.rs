//! Reading the models' JSON answers: an argument (its fields and its probabilities), a
//! score against the rubric, and the judge's synthesis. Lenient where it costs nothing
//! (probabilities as a list or a map, percentages), strict where a number would otherwise
//! be made up.

use serde_json::{json, Value};

use super::consensus::{composite, normalise};
use super::types::{Disagreement, Insight, Phase, Precedent, Stance};
use crate::engine::answer::Problem;
use crate::engine::finding::Level;

/// An argument as read; `probabilities` is the normalised distribution in outcome order
/// with the sum as given, or why it was rejected.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub argument: String,
    pub outcome_supported: String,
    pub evidence: Vec<String>,
    pub rebuts: Vec<String>,
    pub references: Vec<String>,
    pub probabilities: Result<(Vec<f64>, f64), Problem>,
    pub confidence: Option<f64>,
    pub precedents: Vec<Precedent>,
    /// What it still lacked after its repair, when it was kept anyway (set by the round).
    pub incomplete: Option<String>,
}

use crate::engine::json_fields::text;

fn strings(v: &Value, key: &str) -> Vec<String> {
    match v.get(key) {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| match x {
                Value::String(s) => Some(s.trim().to_string()),
                Value::Object(_) => Some(x.to_string()),
                _ => None,
            })
            .filter(|s| !s.is_empty())
            .collect(),
        Some(Value::String(s)) if !s.trim().is_empty() => vec![s.trim().to_string()],
        _ => Vec::new(),
    }
}

fn unit(v: &Value, key: &str) -> Option<f64> {
    v.get(key)
        .and_then(Value::as_f64)
        .filter(|x| x.is_finite() && (0.0..=1.0).contains(x))
}

/// `[{"outcome": id, "probability": p}]` or `{"id": p}`, as (id, value) pairs.
pub fn probability_pairs(v: Option<&Value>) -> Result<Vec<(String, f64)>, Problem> {
    let number = |x: &Value| {
        x.as_f64().or_else(|| {
            x.as_str()
                // A plain decimal only (`parse_decimal`): no exponent, "inf" or "NaN" from a model.
                .and_then(|s| crate::engine::cost::parse_decimal(s.trim().trim_end_matches('%')))
        })
    };
    match v {
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let id = ["outcome", "outcome_id", "id"]
                    .iter()
                    .find_map(|k| e.get(*k).and_then(Value::as_str))
                    .ok_or_else(|| {
                        Problem::wrong("outcome", "name an outcome id")
                            .within(format!("probability {}", i + 1))
                    })?;
                let p = ["probability", "p"]
                    .iter()
                    .find_map(|k| e.get(*k).and_then(number))
                    .ok_or_else(|| {
                        Problem::wrong("probability", "be a number from 0 to 1").within(id)
                    })?;
                Ok((id.trim().to_string(), p))
            })
            .collect(),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, x)| {
                number(x)
                    .map(|p| (k.clone(), p))
                    .ok_or_else(|| Problem::wrong(k.as_str(), "be a number from 0 to 1"))
            })
            .collect(),
        None => Err(Problem::missing("probabilities")),
        Some(_) => Err(Problem::wrong(
            "probabilities",
            "be a list of outcomes and probabilities",
        )),
    }
}

fn precedents(v: &Value) -> Vec<Precedent> {
    let Some(Value::Array(a)) = v.get("precedents") else {
        return Vec::new();
    };
    a.iter()
        .filter_map(|p| {
            let event = text(p, "event");
            (!event.is_empty()).then(|| Precedent {
                event,
                date: text(p, "date"),
                outcome: text(p, "outcome"),
                similarity: unit(p, "similarity_score")
                    .or_else(|| unit(p, "similarity"))
                    .unwrap_or(0.0),
                relevance: text(p, "relevance"),
            })
        })
        .collect()
}

/// Reads an argument leniently: only a missing argument text fails; the rest is kept
/// or marked (an unknown supported outcome becomes empty, bad probabilities are rejected
/// with the reason).
pub fn argument(v: &Value, ids: &[&str], roles: &[&str], me: &str) -> Result<Parsed, Problem> {
    let argument = text(v, "argument");
    if argument.is_empty() {
        return Err(Problem::wrong("argument", "be your case as a string"));
    }
    let supported = text(v, "outcome_supported");
    let probabilities = probabilities(v, ids);
    Ok(Parsed {
        argument,
        outcome_supported: if ids.contains(&supported.as_str()) {
            supported
        } else {
            String::new()
        },
        evidence: strings(v, "evidence_cited")
            .into_iter()
            .chain(strings(v, "evidence"))
            .collect(),
        rebuts: strings(v, "rebuts")
            .into_iter()
            .map(|r| r.to_lowercase())
            .filter(|r| r != me && roles.contains(&r.as_str()))
            .collect(),
        references: strings(v, "references"),
        probabilities,
        confidence: unit(v, "confidence"),
        precedents: precedents(v),
        incomplete: None,
    })
}

/// What a full answer must have, beyond what `argument` reads: probabilities that could be
/// read, a supported outcome, the roles rebutted (rebuttals) and the earlier points built
/// on (closings).
pub fn complete(p: &Parsed, phase: Phase, historian: bool) -> Result<(), Problem> {
    if let Err(e) = &p.probabilities {
        return Err(e.clone());
    }
    if p.outcome_supported.is_empty() {
        return Err(Problem::wrong(
            "outcome_supported",
            "be one of the outcome ids",
        ));
    }
    if phase == Phase::Rebuttal && p.rebuts.is_empty() {
        return Err(Problem::wrong("rebuts", "name the role ids you rebut"));
    }
    if phase == Phase::Closing && p.references.is_empty() {
        return Err(Problem::wrong(
            "references",
            "name points from the earlier rounds",
        ));
    }
    // Seed 001: at least two historical precedents, each with its date and its outcome.
    if historian && dated(&p.precedents) < 2 {
        return Err(Problem::wrong(
            "precedents",
            "list at least two earlier events, each with its date and its outcome",
        ));
    }
    Ok(())
}

/// Precedents with both a date and an outcome.
pub fn dated(precedents: &[Precedent]) -> usize {
    precedents
        .iter()
        .filter(|p| !p.date.trim().is_empty() && !p.outcome.trim().is_empty())
        .count()
}

/// The `probabilities` of an answer, read and normalised over the outcomes `ids`; a
/// distribution that breaks a rule of `normalise` is a problem in `probabilities`.
fn probabilities(v: &Value, ids: &[&str]) -> Result<(Vec<f64>, f64), Problem> {
    let pairs = probability_pairs(v.get("probabilities"))?;
    normalise(ids, &pairs).map_err(|e| Problem::rule(e).within("`probabilities`"))
}

/// A score against the rubric: the three criteria (each 0–1) and their composite.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    pub logical: f64,
    pub evidence: f64,
    pub novelty: f64,
    pub composite: f64,
    pub reason: String,
}

pub fn score(v: &Value) -> Result<Score, Problem> {
    let get = |k: &str| unit(v, k).ok_or_else(|| Problem::wrong(k, "be a number from 0 to 1"));
    let (logical, evidence, novelty) = (
        get("logical_strength")?,
        get("evidence_quality")?,
        get("novelty")?,
    );
    Ok(Score {
        logical,
        evidence,
        novelty,
        composite: composite(logical, evidence, novelty),
        reason: text(v, "reason"),
    })
}

/// The judge's synthesis.
#[derive(Clone, Debug, PartialEq)]
pub struct Synthesis {
    pub probabilities: (Vec<f64>, f64),
    pub confidence: Option<f64>,
    pub rationale: String,
    pub disagreements: Vec<Disagreement>,
    pub insights: Vec<Insight>,
}

pub fn synthesis(
    v: &Value,
    ids: &[&str],
    roles: &[&str],
    rounds: u32,
) -> Result<Synthesis, Problem> {
    let probabilities = probabilities(v, ids)?;
    let list = |k: &str| match v.get(k) {
        Some(Value::Array(a)) => a.clone(),
        _ => Vec::new(),
    };
    let disagreements = list("disagreements")
        .iter()
        .chain(list("disagreement_map").iter())
        .filter_map(|d| {
            let topic = text(d, "topic");
            let positions = match d.get("positions") {
                Some(Value::Array(a)) => a
                    .iter()
                    .filter_map(|p| {
                        let role = text(p, "role").to_lowercase();
                        roles.contains(&role.as_str()).then(|| Stance {
                            role,
                            stance: text(p, "stance"),
                            strength: unit(p, "strength").unwrap_or(0.0),
                        })
                    })
                    .collect(),
                _ => Vec::new(),
            };
            (!topic.is_empty()).then(|| Disagreement {
                topic,
                positions,
                resolved: d.get("resolved").and_then(Value::as_bool).unwrap_or(false),
            })
        })
        .collect();
    let insights = list("insights")
        .iter()
        .chain(list("key_insights").iter())
        .filter_map(|i| {
            let insight = text(i, "insight");
            let impact = match text(i, "impact").to_lowercase().as_str() {
                "high" => Level::High,
                "low" => Level::Low,
                _ => Level::Medium,
            };
            (!insight.is_empty()).then(|| Insight {
                insight,
                source_role: text(i, "source_role").to_lowercase(),
                round: i
                    .get("round")
                    .and_then(Value::as_u64)
                    .map_or(rounds, |r| (r as u32).clamp(1, rounds)),
                impact,
                affected_outcomes: strings(i, "affected_outcomes")
                    .into_iter()
                    .filter(|o| ids.contains(&o.as_str()))
                    .collect(),
            })
        })
        .collect();
    Ok(Synthesis {
        probabilities,
        confidence: unit(v, "confidence"),
        rationale: text(v, "rationale"),
        disagreements,
        insights,
    })
}

/// A unit interval, for a schema's numbers.
fn unit_number() -> Value {
    json!({ "type": "number", "minimum": 0, "maximum": 1 })
}

/// One probability per outcome, each outcome once.
fn probabilities_schema(ids: &[&str]) -> Value {
    json!({
        "type": "array", "minItems": ids.len(), "maxItems": ids.len(),
        "items": { "type": "object",
            "properties": {
                "outcome": { "type": "string", "enum": ids },
                "probability": unit_number()
            },
            "required": ["outcome", "probability"] }
    })
}

/// A role's argument: a rebuttal must name what it rebuts, a closing what it draws on, and
/// the historian gives at least two dated precedents.
pub fn argument_schema(ids: &[&str], roles: &[&str], phase: Phase, historian: bool) -> Value {
    let rebuttal = phase == Phase::Rebuttal;
    let closing = phase == Phase::Closing;
    let mut schema = json!({
        "type": "object",
        "properties": {
            "argument": { "type": "string" },
            "outcome_supported": { "type": "string", "enum": ids },
            "evidence": { "type": "array", "items": { "type": "string" } },
            "rebuts": { "type": "array", "items": { "type": "string", "enum": roles },
                "minItems": u32::from(rebuttal) },
            "references": { "type": "array", "items": { "type": "string" },
                "minItems": u32::from(closing) },
            "probabilities": probabilities_schema(ids),
            "confidence": unit_number()
        },
        "required": ["argument", "outcome_supported", "evidence", "probabilities", "confidence"]
    });
    let mut required = Vec::new();
    if rebuttal {
        required.push("rebuts");
    }
    if closing {
        required.push("references");
    }
    if historian {
        required.push("precedents");
        schema["properties"]["precedents"] = json!({
            "type": "array", "minItems": 2,
            "items": { "type": "object",
                "properties": {
                    "event": { "type": "string" }, "date": { "type": "string" },
                    "outcome": { "type": "string" }, "similarity": unit_number(),
                    "relevance": { "type": "string" }
                },
                "required": ["event", "date", "outcome", "similarity", "relevance"] }
        });
    }
    if let Some(list) = schema["required"].as_array_mut() {
        list.extend(required.into_iter().map(Value::from));
    }
    schema
}

/// A score of one argument against the rubric.
pub fn score_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "logical_strength": unit_number(),
            "evidence_quality": unit_number(),
            "novelty": unit_number(),
            "reason": { "type": "string" }
        },
        "required": ["logical_strength", "evidence_quality", "novelty", "reason"]
    })
}

/// The judge's synthesis: its distribution, the disagreements and the insights.
pub fn synthesis_schema(ids: &[&str], roles: &[&str]) -> Value {
    json!({
        "type": "object",
        "properties": {
            "probabilities": probabilities_schema(ids),
            "confidence": unit_number(),
            "rationale": { "type": "string" },
            "disagreements": { "type": "array", "items": { "type": "object",
                "properties": {
                    "topic": { "type": "string" },
                    "positions": { "type": "array", "items": { "type": "object",
                        "properties": {
                            "role": { "type": "string", "enum": roles },
                            "stance": { "type": "string" },
                            "strength": unit_number()
                        },
                        "required": ["role", "stance", "strength"] } },
                    "resolved": { "type": "boolean" }
                },
                "required": ["topic", "positions", "resolved"] } },
            "insights": { "type": "array", "items": { "type": "object",
                "properties": {
                    "insight": { "type": "string" },
                    "source_role": { "type": "string", "enum": roles },
                    "round": { "type": "integer", "minimum": 1 },
                    "impact": { "type": "string", "enum": ["high", "medium", "low"] },
                    "affected_outcomes": { "type": "array",
                        "items": { "type": "string", "enum": ids } }
                },
                "required": ["insight", "source_role", "round", "impact", "affected_outcomes"] } }
        },
        "required": ["probabilities", "confidence", "rationale", "disagreements", "insights"]
    })
}

#[cfg(test)]
mod tests;
