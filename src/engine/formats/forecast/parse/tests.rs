use super::*;
use serde_json::json;

#[test]
fn the_schemas_are_valid_json_with_their_holes_filled() {
    for phase in [Phase::Opening, Phase::Rebuttal, Phase::Closing] {
        for historian in [false, true] {
            let s = argument_schema(&IDS, &ROLES, phase, historian);
            assert_eq!(
                s["properties"]["outcome_supported"]["enum"],
                json!(["yes", "no"])
            );
            assert_eq!(s["properties"]["probabilities"]["minItems"], 2);
            assert_eq!(s["properties"].get("precedents").is_some(), historian);
            let required = s["required"].as_array().unwrap();
            assert_eq!(
                required.contains(&json!("rebuts")),
                phase == Phase::Rebuttal
            );
        }
    }
    assert_eq!(score_schema()["required"].as_array().unwrap().len(), 4);
    let s = synthesis_schema(&IDS, &ROLES);
    assert_eq!(
        s["properties"]["insights"]["items"]["properties"]["source_role"]["enum"],
        json!(ROLES)
    );
}

const IDS: [&str; 2] = ["yes", "no"];
const ROLES: [&str; 3] = ["optimist", "pessimist", "judge"];

#[test]
fn an_argument_reads_lists_maps_and_percent_strings() {
    let v = json!({"argument": "Up.", "outcome_supported": "yes", "evidence": ["GDP +3%"],
        "rebuts": ["Pessimist", "optimist", "nobody"],
        "probabilities": {"yes": "70%", "no": "30%"}, "confidence": 0.8});
    let p = argument(&v, &IDS, &ROLES, "optimist").unwrap();
    assert_eq!(p.rebuts, vec!["pessimist"]);
    let (d, sum) = p.probabilities.unwrap();
    assert!((d[0] - 0.7).abs() < 1e-9 && (sum - 100.0).abs() < 1e-9);
    let v = json!({"argument": "Down.", "outcome_supported": "maybe",
        "probabilities": [{"outcome": "yes", "probability": 0.2}]});
    let p = argument(&v, &IDS, &ROLES, "pessimist").unwrap();
    assert_eq!(p.outcome_supported, "");
    assert_eq!(
        p.probabilities.clone().unwrap_err().to_string(),
        "`probabilities`: no probability for no"
    );
    assert_eq!(
        complete(&p, Phase::Opening, false),
        p.probabilities.map(|_| ())
    );
    assert!(argument(&json!({"probabilities": {}}), &IDS, &ROLES, "x").is_err());
}

#[test]
fn a_score_outside_0_to_1_is_not_a_score() {
    let s =
        score(&json!({"logical_strength": 0.8, "evidence_quality": 0.5, "novelty": 0.9})).unwrap();
    assert!((s.composite - 0.7).abs() < 1e-9);
    assert!(
        score(&json!({"logical_strength": 8, "evidence_quality": 0.5, "novelty": 0.9})).is_err()
    );
}
