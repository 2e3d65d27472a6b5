//! The JSON Schema of each analysis answer, sent with its call so a provider (or llama.cpp's
//! grammar, for the local model) holds the model to the shape `analysis` reads. Persona
//! names are listed as the only values allowed where an answer names a participant.

use serde_json::{json, Value};

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

fn string() -> Value {
    json!({"type": "string"})
}

fn strings() -> Value {
    json!({"type": "array", "items": {"type": "string"}})
}

fn boolean() -> Value {
    json!({"type": "boolean"})
}

/// One of the participants, by name; `people` are (seat, name) pairs.
fn name(people: &[(String, String)]) -> Value {
    let names: Vec<&str> = people.iter().map(|(_, n)| n.as_str()).collect();
    json!({"type": "string", "enum": names})
}

fn list(items: Value) -> Value {
    json!({"type": "array", "items": items})
}

pub fn aspects(count: usize) -> Value {
    let aspect = object(
        json!({"label": string(), "question": string()}),
        &["label", "question"],
    );
    object(
        json!({"aspects": {"type": "array", "minItems": count, "items": aspect}}),
        &["aspects"],
    )
}

pub fn round_summary() -> Value {
    object(
        json!({"summary": string(), "contested": strings()}),
        &["summary", "contested"],
    )
}

pub fn detection(people: &[(String, String)]) -> Value {
    object(
        json!({
            "has_direct_opposition": boolean(),
            "has_specific_claim": boolean(),
            "topic_relevant": boolean(),
            "personas": list(name(people)),
            "claim": string(),
            "question": string(),
        }),
        &[
            "has_direct_opposition",
            "has_specific_claim",
            "topic_relevant",
            "personas",
            "claim",
            "question",
        ],
    )
}

pub fn exit() -> Value {
    object(
        json!({"crux_surfaced": boolean(), "crux": string(), "reason": string()}),
        &["crux_surfaced", "crux", "reason"],
    )
}

pub fn convergence() -> Value {
    object(
        json!({"converged": boolean(), "crux_identified": boolean(), "crux": string(), "summary": string()}),
        &["converged", "crux_identified", "crux", "summary"],
    )
}

pub fn card(sides: &[(String, String)]) -> Value {
    let side = object(
        json!({
            "persona": name(sides),
            "position": string(),
            "reasoning": string(),
            "would_change_mind": string(),
        }),
        &["persona", "position", "reasoning", "would_change_mind"],
    );
    object(
        json!({
            "crux": string(),
            "kind": {"type": "string", "enum": ["factual", "values", "definitional"]},
            "sides": {"type": "array", "minItems": sides.len(), "items": side},
            "diagnosis": string(),
            "resolved": boolean(),
            "resolution": string(),
        }),
        &[
            "crux",
            "kind",
            "sides",
            "diagnosis",
            "resolved",
            "resolution",
        ],
    )
}

pub fn shifts(people: &[(String, String)]) -> Value {
    let shift = object(
        json!({
            "persona": name(people),
            "shifted": boolean(),
            "from": string(),
            "to": string(),
            "where": string(),
        }),
        &["persona", "shifted", "from", "to", "where"],
    );
    object(
        json!({"shifts": {"type": "array", "minItems": 1, "items": shift}}),
        &["shifts"],
    )
}

pub fn final_summary(people: &[(String, String)]) -> Value {
    let said = |what: &str| {
        list(object(
            json!({"persona": name(people), what: string()}),
            &["persona", what],
        ))
    };
    object(
        json!({
            "claims": {"type": "array", "minItems": 1, "items": said("claim")["items"].clone()},
            "agreements": strings(),
            "evidence": said("evidence"),
            "flip_conditions": said("condition"),
            "open_questions": strings(),
        }),
        &[
            "claims",
            "agreements",
            "evidence",
            "flip_conditions",
            "open_questions",
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::formats::crux::analysis;
    use crate::engine::formats::crux::analysis::tests::people;

    /// Every answer the schemas describe is one `analysis` reads: each schema's required
    /// fields, filled with values of their types, parse.
    #[test]
    fn an_answer_of_each_schemas_shape_is_read() {
        let p = people();
        assert!(analysis::parse_aspects(
            &json!({"aspects": [{"label": "Cost", "question": "Who pays?"}]}),
            1
        )
        .is_ok());
        assert!(analysis::parse_detection(
            &json!({"has_direct_opposition": true, "has_specific_claim": true, "topic_relevant": true,
                "personas": ["The Actuary", "The Founder"], "claim": "c", "question": "q"}),
            &p
        )
        .unwrap()
        .opens_room());
        let card = json!({"crux": "c", "kind": "values", "diagnosis": "d", "resolved": false, "resolution": "",
            "sides": [
                {"persona": "The Actuary", "position": "p", "reasoning": "r", "would_change_mind": "w"},
                {"persona": "The Founder", "position": "p", "reasoning": "r", "would_change_mind": "w"}]});
        assert!(analysis::parse_card(&card, "room/1", "q", &p).is_ok());
        assert!(analysis::parse_shifts(
            &json!({"shifts": [{"persona": "The Founder", "shifted": false, "from": "a", "to": "a", "where": ""}]}),
            &p
        )
        .is_ok());
        assert!(analysis::parse_final_summary(
            &json!({"claims": [{"persona": "The Actuary", "claim": "c"}],
            "agreements": [], "evidence": [], "flip_conditions": [], "open_questions": []})
        )
        .is_ok());
        // The names a participant may be given are exactly the participants'.
        assert_eq!(
            card_sides_enum(&super::card(&p)),
            vec!["The Actuary", "The Founder"]
        );
        assert_eq!(aspects(3)["properties"]["aspects"]["minItems"], 3);
    }

    fn card_sides_enum(schema: &Value) -> Vec<String> {
        schema["properties"]["sides"]["items"]["properties"]["persona"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    }
}
