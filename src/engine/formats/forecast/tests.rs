//! The forecast panel on the scripted model under the virtual clock: the seed's 31 calls
//! with every round's calls in flight together, the final distribution against values
//! worked out by hand, normalised and rejected probabilities, the regeneration rule, and
//! the partial result when a role fails.

use serde_json::{json, Value};

use super::*;
use crate::engine::context::Inputs;
use crate::engine::event::{Event, EventKind, Outcome};
use crate::engine::script::Script;

use super::super::testing::scripted::model;

fn options(rounds: u32) -> ForecastOptions {
    ForecastOptions {
        outcomes: vec![
            ForecastOutcome {
                id: "yes".into(),
                label: "Passes".into(),
                description: "The bill passes this year".into(),
            },
            ForecastOutcome {
                id: "no".into(),
                label: "Fails".into(),
                description: String::new(),
            },
        ],
        rounds,
        ..Default::default()
    }
}

fn config(roles: &[&str], rounds: u32) -> DebateConfig {
    new_config(
        "Will the bill pass this year?",
        roles
            .iter()
            .map(|r| (r.to_string(), String::new(), String::new(), model(r)))
            .collect(),
        Some(model("analyst")),
        options(rounds),
    )
}

/// A role's argument giving `yes` probability `p` (and `no` 1 − p), valid in every phase.
fn argument(role: &str, p: f64) -> String {
    let mut v = json!({
        "argument": format!("The {role} argues {p}."),
        "outcome_supported": if p >= 0.5 { "yes" } else { "no" },
        "evidence": ["polling"],
        "rebuts": ["pessimist", "optimist"],
        "references": ["round 1 polling"],
        "probabilities": [{"outcome": "yes", "probability": p}, {"outcome": "no", "probability": 1.0 - p}],
        "confidence": 0.7
    });
    if role == "historian" {
        v["precedents"] = json!([
            {"event": "1994 bill", "date": "1994", "outcome": "passed", "similarity": 0.6, "relevance": "same coalition"},
            {"event": "2009 bill", "date": "2009", "outcome": "failed", "similarity": 0.5, "relevance": "same opposition"}
        ]);
    }
    v.to_string()
}

fn score(l: f64, e: f64, n: f64) -> String {
    json!({"logical_strength": l, "evidence_quality": e, "novelty": n, "reason": "ok"}).to_string()
}

fn synthesis(p: f64, confidence: f64) -> String {
    json!({
        "probabilities": [{"outcome": "yes", "probability": p}, {"outcome": "no", "probability": 1.0 - p}],
        "confidence": confidence,
        "rationale": "On balance.",
        "disagreements": [{"topic": "Turnout", "positions": [
            {"role": "optimist", "stance": "high", "strength": 0.8},
            {"role": "pessimist", "stance": "low", "strength": 0.6}], "resolved": false}],
        "insights": [{"insight": "Committee timing decides it", "source_role": "historian",
            "round": 2, "impact": "high", "affected_outcomes": ["yes"]}]
    })
    .to_string()
}

/// The standard panel: optimist 0.8, pessimist 0.2, contrarian 0.4, historian 0.6, judge
/// 0.5 on `yes`; every argument takes 1 s, every score 0.5 s; scores 0.8/0.7/0.5
/// (composite 0.70); the synthesis says 0.7 with confidence 0.8. `extra` answers win.
fn script(extra: Vec<Value>) -> Script {
    let mut answers = extra;
    for (role, p) in [
        ("optimist", 0.8),
        ("pessimist", 0.2),
        ("contrarian", 0.4),
        ("historian", 0.6),
        ("judge", 0.5),
    ] {
        answers.push(
            json!({"seat": role, "purpose": "argument", "text": argument(role, p),
            "first_delay_ms": 1000, "usage": {"input_tokens": 500, "output_tokens": 300}}),
        );
    }
    answers.push(
        json!({"seat": "analyst", "purpose": "evaluation", "text": score(0.8, 0.7, 0.5),
        "first_delay_ms": 500, "usage": {"input_tokens": 400, "output_tokens": 40}}),
    );
    answers.push(
        json!({"path": "synthesis", "text": synthesis(0.7, 0.8), "first_delay_ms": 2000,
        "usage": {"input_tokens": 1000, "output_tokens": 200}}),
    );
    serde_json::from_value(json!({"answers": answers})).unwrap()
}

struct Run {
    outcome: Outcome,
    events: Vec<Event>,
    calls: Vec<String>,
    /// Every message sent, system and user.
    prompts: Vec<String>,
}

fn run(config: DebateConfig, script: Script) -> Run {
    let s = super::super::testing::scripted::run_scripted(config, script, Inputs::new());
    Run {
        calls: s.calls(),
        prompts: s
            .requests
            .iter()
            .flat_map(|r| r.messages.iter().map(|m| m.content.clone()))
            .collect(),
        outcome: s.outcome,
        events: s.events,
    }
}

fn forecast_findings(events: &[Event]) -> Vec<(String, String, ForecastFinding)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FindingRecorded(f) => match &f.body {
                FindingBody::Forecast(x) => Some((f.key.clone(), f.seat.clone(), (**x).clone())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn result(events: &[Event]) -> ForecastResult {
    forecast_findings(events)
        .into_iter()
        .find_map(|(_, _, f)| match f {
            ForecastFinding::Result(r) => Some(r),
            _ => None,
        })
        .expect("a result")
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} != {b}");
}

const FIVE: [&str; 5] = DEFAULT_ROLES;

#[test]
fn a_default_panel_makes_the_seeds_31_calls_with_each_round_in_flight_together() {
    let r = run(config(&FIVE, 3), script(vec![]));
    assert_eq!(r.outcome, Outcome::Completed, "{:?}", r.events.last());
    assert_eq!(r.calls.len(), 31, "{:?}", r.calls);
    assert_eq!(r.calls.last().unwrap(), "synthesis");
    // Every argument of a round starts before any of that round's arguments ends.
    for round in 1..=3 {
        let prefix = format!("round/{round}/");
        let mut started = 0;
        for e in &r.events {
            match &e.kind {
                EventKind::TurnStarted { call, .. } if call.path.starts_with(&prefix) => {
                    started += 1
                }
                EventKind::TurnFinished { call, .. } if call.path.starts_with(&prefix) => {
                    assert_eq!(started, 5, "round {round}: a call ended before all started");
                }
                _ => {}
            }
        }
    }
    // The critical path: 3 × (argument 1 s + score 0.5 s) + synthesis 2 s, plus the time
    // the words take to stream; a sequential schedule would take 15 + 7.5 + 2 s.
    let end = r.events.last().unwrap().at_ms;
    assert!((6_500..7_500).contains(&end), "took {end} ms");
    // Each score starts as soon as its argument is in.
    let at = |kind: &str, path: &str| {
        r.events
            .iter()
            .find_map(|e| match &e.kind {
                EventKind::TurnStarted { call, .. } if kind == "start" && call.path == path => {
                    Some(e.at_ms)
                }
                EventKind::TurnFinished { call, .. } if kind == "end" && call.path == path => {
                    Some(e.at_ms)
                }
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(
        at("end", "round/1/optimist"),
        at("start", "score/1/optimist")
    );
}

#[test]
fn the_final_distribution_matches_the_hand_computed_blend() {
    let r = run(config(&FIVE, 3), script(vec![]));
    let res = result(&r.events);
    // Non-judge roles on yes: 0.8, 0.2, 0.4, 0.6 → mean 0.5; deviations ±0.3, ±0.1 →
    // variance (0.09 + 0.09 + 0.01 + 0.01) / 4 = 0.05, σ = 0.223607, score 1 − σ/0.5.
    let yes = &res.outcomes[0];
    close(yes.consensus.unwrap(), 0.5);
    close(yes.judge.unwrap(), 0.7);
    // 0.6 × 0.7 + 0.4 × 0.5 = 0.62; no: 0.6 × 0.3 + 0.4 × 0.5 = 0.38.
    close(yes.final_probability.unwrap(), 0.62);
    close(res.outcomes[1].final_probability.unwrap(), 0.38);
    let s = 1.0 - 0.05f64.sqrt() / 0.5;
    close(yes.consensus_score.unwrap(), s);
    close(res.consensus_score.unwrap(), s);
    assert_eq!(yes.roles.len(), 5);
    assert_eq!(res.judge_source, JudgeSource::Synthesis);
    // Every argument scored 0.70: all above 0.4, not low quality; full confidence 0.8.
    assert_eq!((res.scored, res.good, res.low_quality), (15, 15, false));
    assert!(!res.partial);
    close(res.confidence.unwrap(), 0.8);
    assert_eq!(
        (res.probabilities_parsed, res.probabilities_rejected),
        (15, 0)
    );
    assert_eq!(res.metadata.total_arguments, 15);
    assert_eq!(res.metadata.calls, 31);
    assert_eq!(res.metadata.input_tokens, 15 * 500 + 15 * 400 + 1000);
    assert_eq!(res.metadata.output_tokens, 15 * 300 + 15 * 40 + 200);
    assert!(res.notes.is_empty(), "{:?}", res.notes);
    // Findings: 15 arguments, 15 scores, 3 round summaries, precedents, map, insights.
    let f = forecast_findings(&r.events);
    let count = |pred: fn(&ForecastFinding) -> bool| f.iter().filter(|(_, _, x)| pred(x)).count();
    assert_eq!(count(|x| matches!(x, ForecastFinding::Argument(_))), 15);
    assert_eq!(count(|x| matches!(x, ForecastFinding::RoundSummary(_))), 3);
    let precedents = f.iter().find_map(|(_, _, x)| match x {
        ForecastFinding::Precedents(p) => Some(p.clone()),
        _ => None,
    });
    assert_eq!(precedents.unwrap().len(), 2);
    assert!(f.iter().any(|(_, _, x)| matches!(x, ForecastFinding::Disagreements(d) if d[0].topic == "Turnout" && !d[0].resolved)));
    assert!(f.iter().any(
        |(_, _, x)| matches!(x, ForecastFinding::Insights(i) if i[0].source_role == "historian")
    ));
    // Round summaries: the optimist and pessimist back different outcomes; yes spreads
    // (score 0.55 < 0.7) from Optimist 80% to Pessimist 20%.
    let summary = f.iter().find_map(|(_, _, x)| match x {
        ForecastFinding::RoundSummary(s) if s.round == 1 => Some(s.clone()),
        _ => None,
    });
    let summary = summary.unwrap();
    assert!(summary
        .key_disagreements
        .iter()
        .any(|d| d == "yes: Optimist 80% vs Pessimist 20%"));
    let scores = r
        .events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::FindingRecorded(f) if matches!(f.body, FindingBody::Score { total, .. } if (total - 0.7).abs() < 1e-9)))
        .count();
    assert_eq!(scores, 15);
}

#[test]
fn probabilities_are_normalised_and_invalid_ones_rejected() {
    let bad = json!({"argument": "Contrarian says so.", "outcome_supported": "no",
        "evidence": [], "rebuts": ["optimist"], "references": ["x"],
        "probabilities": [{"outcome": "yes", "probability": 0.4}, {"outcome": "maybe", "probability": 0.6}],
        "confidence": 0.5})
    .to_string();
    let over = json!({"argument": "Optimist.", "outcome_supported": "yes", "evidence": [],
        "rebuts": ["pessimist"], "references": ["x"],
        "probabilities": {"yes": 0.9, "no": 0.3}, "confidence": 0.9})
    .to_string();
    let r = run(
        config(&FIVE, 2),
        script(vec![
            json!({"seat": "contrarian", "purpose": "argument", "text": bad}),
            json!({"seat": "optimist", "purpose": "argument", "text": over}),
        ]),
    );
    assert_eq!(r.outcome, Outcome::Completed);
    // The contrarian's answer, and its repair, were rejected each round.
    assert!(r.calls.contains(&"round/1/contrarian/repair".to_string()));
    let f = forecast_findings(&r.events);
    let arg = |key: &str| {
        f.iter()
            .find_map(|(k, _, x)| match x {
                ForecastFinding::Argument(a) if k == key => Some(a.clone()),
                _ => None,
            })
            .unwrap()
    };
    let c = arg("round/1/contrarian/argument");
    assert!(c.probabilities.is_empty());
    assert!(c
        .rejected
        .unwrap()
        .contains("`maybe` is not one of the outcomes"));
    // 0.9 + 0.3 = 1.2 → 0.75 and 0.25.
    let o = arg("round/2/optimist/argument");
    close(o.probabilities[0].probability, 0.75);
    close(o.given_sum.unwrap(), 1.2);
    let res = result(&r.events);
    assert_eq!(
        (res.probabilities_parsed, res.probabilities_rejected),
        (8, 2)
    );
    // The contrarian gave no readable forecast: partial, consensus over three roles
    // (0.75, 0.2, 0.6 → 0.516667), confidence 0.8 × 4/5.
    assert!(res.partial);
    assert_eq!(res.failed_roles, vec!["contrarian"]);
    close(res.outcomes[0].consensus.unwrap(), (0.75 + 0.2 + 0.6) / 3.0);
    close(res.confidence.unwrap(), 0.64);
}

#[test]
fn an_argument_under_0_2_is_regenerated_once() {
    let r = run(
        config(&FIVE, 2),
        script(vec![
            // 0.4·0.1 + 0.4·0.1 + 0.2·0.1 = 0.1, for the first and the regenerated one.
            json!({"path": "score/1/pessimist", "text": score(0.1, 0.1, 0.1)}),
            json!({"path": "rescore/1/pessimist", "text": score(0.1, 0.2, 0.1)}),
        ]),
    );
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(r.calls.len(), 2 * 10 + 2 + 1, "{:?}", r.calls);
    assert!(r.calls.contains(&"regenerate/1/pessimist".to_string()));
    assert!(!r.calls.iter().any(|c| c.starts_with("regenerate/2")));
    let res = result(&r.events);
    assert_eq!(res.regenerated, 1);
    // The regenerated argument's score (0.4·0.1 + 0.4·0.2 + 0.2·0.1 = 0.14) counts, the
    // first does not: 9 of 10 above 0.4 = 90%, not low.
    assert_eq!((res.scored, res.good, res.low_quality), (10, 9, false));
    let f = forecast_findings(&r.events);
    assert!(f
        .iter()
        .any(|(k, _, x)| k == "regenerate/1/pessimist/argument"
            && matches!(x, ForecastFinding::Argument(a) if a.regenerated)));
    // The second round started only after the regenerated argument was scored.
    let idx = |p: &str| {
        r.events
            .iter()
            .position(|e| matches!(&e.kind, EventKind::TurnStarted { call, .. } if call.path == p))
            .unwrap()
    };
    assert!(idx("rescore/1/pessimist") < idx("round/2/optimist"));
}

#[test]
fn a_failing_role_gives_a_partial_result_with_reduced_confidence() {
    let r = run(
        config(&FIVE, 2),
        script(vec![
            json!({"seat": "historian", "fault": {"status": 400, "body": "this request was refused by the content filter"}}),
        ]),
    );
    assert_eq!(r.outcome, Outcome::Completed);
    let res = result(&r.events);
    assert!(res.partial);
    assert_eq!(res.failed_roles, vec!["historian"]);
    assert_eq!((res.roles_succeeded, res.roles_configured), (4, 5));
    // Consensus over 0.8, 0.2, 0.4 = 0.466667; confidence 0.8 × 4/5 = 0.64.
    close(res.outcomes[0].consensus.unwrap(), 1.4 / 3.0);
    close(res.confidence.unwrap(), 0.64);
    assert!(res
        .notes
        .iter()
        .any(|n| n.starts_with("Partial result: 4 of 5")));
    assert!(res
        .notes
        .iter()
        .any(|n| n.contains("historian's precedents are incomplete: 0 with a date")));
    assert_eq!(
        res.consensus_roles,
        ["Optimist", "Pessimist", "Contrarian"],
        "the consensus says whom it covers"
    );
}

#[test]
fn a_refused_key_on_one_role_holds_the_forecast_rather_than_dropping_the_role() {
    let r = run(
        config(&FIVE, 2),
        script(vec![
            json!({"seat": "historian", "fault": {"status": 401, "body": "bad key"}}),
        ]),
    );
    // Every call on that key would fail the same way: the user is asked to fix it.
    assert_ne!(r.outcome, Outcome::Completed);
    assert!(r.events.iter().any(|e| matches!(
        &e.kind,
        EventKind::Paused { reason, needs_resume: true } if reason.contains("401")
    )));
    assert!(!r
        .events
        .iter()
        .any(|e| matches!(&e.kind, EventKind::CallSkipped { .. })));
    // Held means held: the roles already speaking finish, but nothing new is asked (the
    // analyst's scores of those speeches wait for Resume with the rest).
    let held = r
        .events
        .iter()
        .position(|e| matches!(&e.kind, EventKind::Paused { .. }))
        .unwrap();
    let calls = |from: usize, to: usize, finished: bool| -> Vec<String> {
        r.events[from..to]
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::TurnStarted { call, .. } if !finished => Some(call.to_string()),
                EventKind::TurnFinished { call, .. } if finished => Some(call.to_string()),
                _ => None,
            })
            .collect()
    };
    let mut in_flight = calls(0, held, false);
    in_flight.retain(|c| !c.contains("historian"));
    assert!(!in_flight.is_empty());
    assert_eq!(
        calls(held, r.events.len(), true),
        in_flight,
        "those speaking finish"
    );
    assert_eq!(calls(held, r.events.len(), false), Vec::<String>::new());
}

#[test]
fn two_roles_and_the_judge_over_two_rounds_with_no_synthesis() {
    let r = run(
        config(&["optimist", "pessimist", "judge"], 2),
        script(vec![json!({"path": "synthesis", "text": "not json"})]),
    );
    assert_eq!(r.outcome, Outcome::Completed);
    // 3 × 2 arguments, 6 scores, synthesis and its repair.
    assert_eq!(r.calls.len(), 14, "{:?}", r.calls);
    let res = result(&r.events);
    // The judge's last argument stands in: 0.6 × 0.5 + 0.4 × 0.5 = 0.5.
    assert_eq!(res.judge_source, JudgeSource::ClosingArgument);
    close(res.outcomes[0].final_probability.unwrap(), 0.5);
    close(res.outcomes[0].consensus_score.unwrap(), 1.0 - 0.3 / 0.5);
}

#[test]
fn the_plan_is_the_seeds_31_calls_in_seven_stages() {
    let c = config(&FIVE, 3);
    let plan = super::super::plan(&c);
    assert_eq!(plan.len(), 31);
    assert_eq!(super::super::stages(&plan), vec![5, 5, 5, 5, 5, 5, 1]);
    assert_eq!(plan.last().unwrap().seat, "judge");
    assert!(plan[5..10].iter().all(|p| p.seat == "analyst"));
}

#[test]
fn configurations_a_forecaster_can_get_wrong_are_refused() {
    assert_eq!(config(&FIVE, 3).validate(), Ok(()));
    let mut c = config(&FIVE, 3);
    let FormatOptions::Forecast(o) = &mut c.options else {
        unreachable!()
    };
    o.outcomes.truncate(1);
    assert!(c
        .validate()
        .unwrap_err()
        .contains("between 2 and 8 outcomes"));
    assert!(config(&["optimist", "pessimist"], 3)
        .validate()
        .unwrap_err()
        .contains("needs the judge"));
    assert!(config(&["judge"], 3)
        .validate()
        .unwrap_err()
        .contains("besides the judge"));
    assert!(config(&FIVE, 1)
        .validate()
        .unwrap_err()
        .contains("between 2 and 10 rounds"));
    let mut c = config(&FIVE, 3);
    let FormatOptions::Forecast(o) = &mut c.options else {
        unreachable!()
    };
    o.outcomes[1].id = "yes".into();
    assert!(c.validate().unwrap_err().contains("Two outcomes"));
    // A custom role gets its own seat and must say what it argues from.
    let c = new_config(
        "Q?",
        vec![
            (
                "economist".into(),
                "Economist".into(),
                String::new(),
                model("e"),
            ),
            ("judge".into(), String::new(), String::new(), model("j")),
        ],
        None,
        options(2),
    );
    assert_eq!(c.seats[0].id, "role-1");
    assert_eq!(c.analyst, "judge");
    assert!(c
        .validate()
        .unwrap_err()
        .contains("Say what Economist argues from"));
}

#[test]
fn every_prompt_is_rendered_with_all_its_variables_and_fits_the_argument_budget() {
    let r = run(config(&FIVE, 3), script(vec![]));
    for p in &r.prompts {
        assert!(!p.contains("{{"), "{p}");
    }
    // An argument's system and user prompt stay within the seed's 600 input tokens, the
    // earlier rounds summarised to fit.
    let closing: Vec<&String> = r
        .prompts
        .iter()
        .filter(|p| p.contains("the closing."))
        .collect();
    assert_eq!(closing.len(), 5);
    for p in closing {
        assert!(p.contains("Earlier arguments:"));
        assert!(
            crate::engine::tokens::estimate(p) < 600,
            "{}",
            crate::engine::tokens::estimate(p)
        );
    }
}

#[test]
fn the_seeds_debate_result_and_its_views_come_from_the_log() {
    let r = run(config(&FIVE, 3), script(vec![]));
    let v = report::debate_result("d1", &r.events).unwrap();
    let rounds = v["debate_log"]["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    assert_eq!(rounds[1]["phase"], "rebuttal");
    assert_eq!(rounds[0]["arguments"].as_array().unwrap().len(), 5);
    close(
        rounds[2]["arguments"][0]["scores"]["composite"]
            .as_f64()
            .unwrap(),
        0.7,
    );
    close(
        v["probability_distribution"][0]["probability"]
            .as_f64()
            .unwrap(),
        0.62,
    );
    assert_eq!(v["metadata"]["calls"], 31);
    // The seed's names and ISO 8601 times beside Agora's own.
    assert_eq!(v["metadata"]["sonnet_calls"], 31);
    assert_eq!(
        v["metadata"]["sonnet_tokens_used"],
        v["metadata"]["tokens_used"]
    );
    assert!(v["metadata"]["model"].is_string());
    let iso = |k: &str| {
        let ms = v[format!("{k}_ms")].as_u64().unwrap();
        assert_eq!(
            v[k].as_str().unwrap(),
            crate::engine::dates::Utc::of_ms(ms).iso8601(),
            "{k}"
        );
        v[k].as_str().unwrap().to_string()
    };
    assert!(iso("started_at").ends_with('Z'));
    assert!(iso("completed_at") >= iso("started_at"));
    assert_eq!(
        v["consensus_roles"],
        json!(["Optimist", "Pessimist", "Contrarian", "Historian"])
    );
    assert_eq!(v["historical_precedents"].as_array().unwrap().len(), 2);
    assert_eq!(report::round(&v, 2).unwrap()["round"]["round_number"], 2);
    assert_eq!(
        report::role(&v, "historian")["arguments"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        report::consensus(&v)["disagreement_map"][0]["topic"],
        "Turnout"
    );
}

#[test]
fn a_pause_during_a_hold_has_its_own_end_and_resume_does_not_lift_it() {
    use crate::engine::clock::Clock;
    // The historian's key is refused once; the user pauses while the debate is held, then
    // fixes the key and presses Resume, and only later lifts the pause.
    let user: super::super::testing::scripted::User = Box::new(|clock, inputs, log| {
        Box::pin(async move {
            while !inputs.is_halted() {
                clock.sleep(100).await;
            }
            inputs.set_paused(true);
            clock.sleep(60_000).await;
            inputs.release();
            clock.sleep(60_000).await;
            let n = log.events.borrow().len();
            // Resumed from the hold, still paused: nothing new was asked.
            let asked_since = log.events.borrow()[..n]
                .iter()
                .rev()
                .take_while(|e| !matches!(e.kind, EventKind::Resumed))
                .any(|e| matches!(e.kind, EventKind::TurnStarted { .. }));
            assert!(!asked_since, "a call went out while the user's pause held");
            inputs.set_paused(false);
        })
    });
    let r = super::super::testing::scripted::run_scripted_with_user(
        config(&FIVE, 2),
        script(vec![
            json!({"seat": "historian", "occurrence": 0, "fault": {"status": 401, "body": "bad key"}}),
        ]),
        user,
    );
    assert_eq!(r.outcome, Outcome::Completed);
    // Two pauses, each with its own end: the refused key's (ended by Resume) and the
    // user's (ended when lifted), so the screen never shows a held debate as going on.
    let marks: Vec<&str> = r
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Paused {
                needs_resume: true, ..
            } => Some("held"),
            EventKind::Paused { .. } => Some("paused"),
            EventKind::Resumed => Some("resumed"),
            _ => None,
        })
        .collect();
    assert_eq!(marks, ["held", "paused", "resumed", "resumed"]);
    // The refused call was asked again once, and every call went out once otherwise.
    let historian = r
        .requests
        .iter()
        .filter(|q| q.call == "round/1/historian")
        .count();
    assert_eq!(historian, 2);
}

#[test]
fn a_historian_without_dated_precedents_is_asked_again_and_marked_when_still_without() {
    // Round 1: precedents with no dates, then the same after the repair. Round 2: none at
    // first, two dated ones after the repair.
    let undated = json!({
        "argument": "History says little.", "outcome_supported": "yes", "evidence": ["memory"],
        "probabilities": [{"outcome": "yes", "probability": 0.6}, {"outcome": "no", "probability": 0.4}],
        "confidence": 0.6, "rebuts": ["optimist"], "references": ["round 1"],
        "precedents": [{"event": "An old bill", "outcome": "passed"}, {"event": "Another", "date": "2001"}]
    })
    .to_string();
    let r = run(
        config(&["optimist", "historian", "judge"], 2),
        script(vec![
            json!({"path": "round/1/historian", "text": undated}),
            json!({"path": "round/2/historian/repair", "text": argument("historian", 0.6)}),
            json!({"path": "round/2/historian", "text": undated}),
        ]),
    );
    assert_eq!(r.outcome, Outcome::Completed);
    assert!(
        r.calls.contains(&"round/1/historian/repair".to_string()),
        "asked again: {:?}",
        r.calls
    );
    let args: Vec<ArgumentFinding> = r
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FindingRecorded(f) if f.seat == "historian" => match &f.body {
                crate::engine::finding::FindingBody::Forecast(x) => match x.as_ref() {
                    ForecastFinding::Argument(a) => Some(a.clone()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(args.len(), 2);
    let still = args[0].incomplete.as_deref().expect("round 1 is marked");
    assert!(
        still.contains("precedents") && still.contains("date"),
        "{still}"
    );
    assert_eq!(
        args[1].incomplete, None,
        "round 2's repair gave two dated precedents"
    );
    let res = result(&r.events);
    assert!(
        res.notes
            .iter()
            .any(|n| n.contains("Historian's round 1 argument was used incomplete")),
        "{:?}",
        res.notes
    );
    // Round 2's two dated precedents are enough for the result.
    assert!(!res
        .notes
        .iter()
        .any(|n| n.contains("precedents are incomplete")));
}

#[test]
fn a_rebuttal_that_names_nothing_it_rebuts_is_used_and_marked() {
    let vague = json!({
        "argument": "I disagree with everyone.", "outcome_supported": "no", "evidence": ["mood"],
        "probabilities": [{"outcome": "yes", "probability": 0.3}, {"outcome": "no", "probability": 0.7}],
        "confidence": 0.5
    })
    .to_string();
    let r = run(
        config(&["optimist", "pessimist", "judge"], 3),
        script(vec![json!({"path": "round/2/pessimist", "text": vague})]),
    );
    assert_eq!(r.outcome, Outcome::Completed);
    let res = result(&r.events);
    assert!(
        res.notes.iter().any(
            |n| n.contains("Pessimist's round 2 argument was used incomplete")
                && n.contains("rebuts")
        ),
        "{:?}",
        res.notes
    );
}

#[test]
fn the_opening_round_is_kept_as_its_own_forecast_and_scored_beside_the_final_blend() {
    // The optimist and the pessimist open at 0.9 and 0.3, then move to 0.8 and 0.2.
    let r = run(
        config(&FIVE, 3),
        script(vec![
            json!({"path": "round/1/optimist", "text": argument("optimist", 0.9)}),
            json!({"path": "round/1/pessimist", "text": argument("pessimist", 0.3)}),
            // The judge's opening is left out of the opening consensus, as of every consensus.
            json!({"path": "round/1/judge", "text": argument("judge", 0.05)}),
        ]),
    );
    assert_eq!(r.outcome, Outcome::Completed);
    let e = ledger::entry(&r.events).unwrap();
    // Opening on yes: (0.9 + 0.3 + 0.4 + 0.6) / 4 = 0.55; the final blend 0.62.
    let opening = e.opening.clone().unwrap();
    close(opening[0], 0.55);
    close(opening[1], 0.45);
    close(e.result.outcomes[0].final_probability.unwrap(), 0.62);
    let happened = ledger::Resolution {
        outcome: "yes".into(),
        value: None,
        on: "2027-01-01".into(),
        note: String::new(),
    };
    let scores = ledger::scores(e.config, &e.result, e.opening.as_deref(), &happened).unwrap();
    let of = |f: ledger::Forecaster| scores.iter().find(|s| s.forecaster == f).unwrap();
    // Brier over both outcomes: 2 × 0.45² = 0.405 against 2 × 0.38² = 0.2888.
    close(of(ledger::Forecaster::Opening).brier, 0.405);
    close(of(ledger::Forecaster::Opening).log, 0.55f64.ln());
    close(of(ledger::Forecaster::Final).brier, 0.2888);
    close(of(ledger::Forecaster::Final).log, 0.62f64.ln());
    // Over resolved forecasts the opening consensus keeps its own row.
    let a = ledger::averages(&[scores]);
    assert!(a
        .iter()
        .any(|x| x.who == "Opening consensus (before rebuttals)"));
}
