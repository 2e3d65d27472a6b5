//! The seed's `DebateResult` (and what its GET endpoints return: one round, one role's
//! arguments, the consensus) built from a forecast's event log, for the JSON export and
//! anyone scripting Agora. Only what the log holds is included: an unscored argument has
//! `scores: null`, rejected probabilities are absent with their reason.

use serde_json::{json, Value};

use super::paths::ForecastPath;
use super::types::Phase;
use super::types::{result_in, ForecastFinding, ForecastResult};
use crate::engine::config::FormatOptions;
use crate::engine::event::{Event, EventKind};
use crate::engine::finding::{Finding, FindingBody};

fn findings(events: &[Event]) -> Vec<&Finding> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FindingRecorded(f) => Some(f),
            _ => None,
        })
        .collect()
}

fn forecast(f: &Finding) -> Option<&ForecastFinding> {
    match &f.body {
        FindingBody::Forecast(x) => Some(x),
        _ => None,
    }
}

/// The seed's `DebateResult` for a forecast's log; `None` for another format.
pub fn debate_result(debate_id: &str, events: &[Event]) -> Option<Value> {
    let (config, started) = events.iter().find_map(|e| match &e.kind {
        EventKind::DebateStarted { config, .. } => Some((config.clone(), e.at_ms)),
        _ => None,
    })?;
    let FormatOptions::Forecast(o) = &config.options else {
        return None;
    };
    let all = findings(events);
    let by_key = |k: &str| all.iter().find(|f| f.key == k).copied();
    let mut rounds = Vec::new();
    for r in 1..=o.rounds {
        let mut arguments = Vec::new();
        for role in &o.roles {
            let seat = &role.seat;
            let latest = ForecastPath::latest_first(r, seat);
            let arg = latest
                .iter()
                .find_map(|(a, _)| by_key(&a.argument_key()).and_then(forecast).cloned());
            let Some(ForecastFinding::Argument(a)) = arg else {
                continue;
            };
            let score = latest
                .iter()
                .find_map(|(_, s)| by_key(&s.to_string()))
                .and_then(|f| match &f.body {
                    FindingBody::Score {
                        criteria, total, ..
                    } => Some(json!({
                        "logical_strength": criteria.first().map(|c| c.value),
                        "evidence_quality": criteria.get(1).map(|c| c.value),
                        "novelty": criteria.get(2).map(|c| c.value),
                        "composite": total,
                    })),
                    _ => None,
                });
            arguments.push(json!({
                "role": seat,
                "argument": a.argument,
                "outcome_supported": a.outcome_supported,
                "evidence_cited": a.evidence,
                "scores": score,
                "rebuts": a.rebuts,
                "references": a.references,
                "probabilities": a.probabilities.iter().map(|p| json!({
                    "outcome_id": p.outcome, "probability": p.probability,
                })).collect::<Vec<_>>(),
                "probabilities_rejected": a.rejected,
                "confidence": a.confidence,
                "regenerated": a.regenerated,
            }));
        }
        let summary = all.iter().find_map(|f| match forecast(f) {
            Some(ForecastFinding::RoundSummary(s)) if s.round == r => Some(json!({
                "dominant_argument": s.dominant,
                "key_disagreements": s.key_disagreements,
                "emerging_consensus": s.emerging.iter().map(|d| json!({
                    "outcome_id": d.outcome,
                    "direction": if d.toward { "toward" } else { "away" },
                })).collect::<Vec<_>>(),
            })),
            _ => None,
        });
        rounds.push(json!({
            "round_number": r,
            "phase": Phase::of_round(r, o.rounds),
            "arguments": arguments,
            "round_summary": summary,
        }));
    }
    let result: Option<ForecastResult> = result_in(all.iter().copied()).cloned();
    let list = |key: &str| by_key(key).and_then(forecast).cloned();
    let disagreement_map = match list("disagreements") {
        Some(ForecastFinding::Disagreements(d)) => d
            .iter()
            .map(|d| {
                json!({"topic": d.topic, "resolved": d.resolved, "positions": d.positions.iter()
                    .map(|p| json!({"role": p.role, "stance": p.stance, "strength": p.strength}))
                    .collect::<Vec<_>>()})
            })
            .collect(),
        _ => json!([]),
    };
    let key_insights = match list("insights") {
        Some(ForecastFinding::Insights(i)) => i
            .iter()
            .map(|i| {
                json!({"insight": i.insight, "source_role": i.source_role, "round": i.round,
                    "impact": i.impact.id(), "affected_outcomes": i.affected_outcomes})
            })
            .collect(),
        _ => json!([]),
    };
    let precedents = match list("precedents") {
        Some(ForecastFinding::Precedents(p)) => p
            .iter()
            .map(|p| {
                json!({"event": p.event, "date": p.date, "similarity_score": p.similarity,
                    "outcome": p.outcome, "relevance": p.relevance})
            })
            .collect(),
        _ => Vec::new(),
    };
    let completed_at = events
        .iter()
        .rev()
        .find(|e| matches!(e.kind, EventKind::Finished { .. }))
        .map(|e| e.at_ms);
    let iso = |ms: u64| crate::engine::dates::Utc::of_ms(ms).iso8601();
    Some(json!({
        "debate_id": debate_id,
        "task_id": config.topic,
        // The seed's ISO 8601 times, beside Agora's milliseconds.
        "started_at": iso(started),
        "completed_at": completed_at.map(iso),
        "started_at_ms": started,
        "completed_at_ms": completed_at,
        "debate_log": {"rounds": rounds},
        "consensus_score": result.as_ref().and_then(|r| r.consensus_score),
        "consensus_roles": result.as_ref().map(|r| r.consensus_roles.clone()),
        "disagreement_map": disagreement_map,
        "probability_distribution": result.as_ref().map(|r| r.outcomes.iter().map(|o| json!({
            "outcome_id": o.outcome,
            "label": o.label,
            "probability": o.final_probability,
            "role_assessments": o.roles.iter().map(|r| json!({
                "role": r.role, "probability": r.probability, "confidence": r.confidence,
            })).collect::<Vec<_>>(),
            "judge_probability": o.judge,
            "consensus_probability": o.consensus,
            "consensus_score": o.consensus_score,
        })).collect::<Vec<_>>()),
        "key_insights": key_insights,
        "historical_precedents": precedents,
        "quality": result.as_ref().map(|r| json!({
            "scored": r.scored, "above_0_4": r.good, "share": r.good_share,
            "low_quality": r.low_quality, "regenerated": r.regenerated,
        })),
        "partial": result.as_ref().map(|r| r.partial),
        "failed_roles": result.as_ref().map(|r| r.failed_roles.clone()),
        "confidence": result.as_ref().and_then(|r| r.confidence),
        "notes": result.as_ref().map(|r| r.notes.clone()),
        "metadata": result.as_ref().map(|r| json!({
            "total_arguments": r.metadata.total_arguments,
            // The seed's names (it ran on one model, Sonnet), for tools that read its
            // shape, whatever models this debate ran on; Agora's own beside them.
            "sonnet_tokens_used": {"input": r.metadata.input_tokens, "output": r.metadata.output_tokens},
            "sonnet_calls": r.metadata.calls,
            "model": r.metadata.models.join(", "),
            "tokens_used": {"input": r.metadata.input_tokens, "output": r.metadata.output_tokens},
            "calls": r.metadata.calls,
            "wall_clock_time_ms": r.metadata.wall_clock_ms,
            "models": r.metadata.models,
            "probabilities_parsed": r.probabilities_parsed,
            "probabilities_rejected": r.probabilities_rejected,
        })),
    }))
}

/// `GET …/round/:n`: `{round}`.
pub fn round(result: &Value, n: u32) -> Option<Value> {
    let r = result["debate_log"]["rounds"]
        .as_array()?
        .iter()
        .find(|r| r["round_number"] == n)?;
    Some(json!({ "round": r }))
}

/// `GET …/role/:name`: `{arguments}`, every round's argument of that role.
pub fn role(result: &Value, name: &str) -> Value {
    let arguments: Vec<Value> = result["debate_log"]["rounds"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| {
            r["arguments"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|a| a["role"] == name)
                .map(move |a| {
                    let mut a = a.clone();
                    a["round"] = r["round_number"].clone();
                    a
                })
        })
        .collect();
    json!({ "arguments": arguments })
}

/// `GET …/consensus`: `{consensus_score, probability_distribution, disagreement_map}`.
pub fn consensus(result: &Value) -> Value {
    json!({
        "consensus_score": result["consensus_score"],
        "probability_distribution": result["probability_distribution"],
        "disagreement_map": result["disagreement_map"],
    })
}
