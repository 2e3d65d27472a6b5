//! A deterministic JSON value that fits a JSON Schema: what a scripted model answers to a
//! structured call the script does not mention, so a demo or an integration test with no
//! script still shows scorecards, probabilities and crux cards rather than "not scored".
//! Covers the schema keywords Agora's formats use (type, properties, required, items,
//! enum, const, minimum/maximum, minItems/maxItems, anyOf/oneOf).

use serde_json::{json, Map, Value};

/// A value for `schema`; `seed` varies the choices between calls (an occurrence).
pub fn sample(schema: &Value, seed: u32) -> Value {
    at(schema, "answer", seed, 0)
}

fn at(schema: &Value, name: &str, seed: u32, depth: u32) -> Value {
    if depth > 12 {
        return Value::Null;
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(options)) = schema.get("enum") {
        return options
            .get(seed as usize % options.len().max(1))
            .cloned()
            .unwrap_or(Value::Null);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = schema.get(key).and_then(|v| v.get(0)) {
            return at(first, name, seed, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        // `["string", "null"]`: the first that is not null.
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ => "string",
    };
    let bound = |k: &str| schema.get(k).and_then(Value::as_f64);
    match kind {
        "object" => {
            let mut out = Map::new();
            if let Some(Value::Object(props)) = schema.get("properties") {
                for (k, s) in props {
                    out.insert(k.clone(), at(s, k, seed, depth + 1));
                }
            }
            Value::Object(out)
        }
        "array" => {
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            // An item that names one of a list (a persona, an outcome) comes once per name,
            // so every one is covered: each persona's shift, both sides of a disagreement.
            let named = enum_len(&items).max(1);
            let min = bound("minItems").unwrap_or(1.0).max(named as f64) as usize;
            let max = bound("maxItems").map_or(usize::MAX, |m| m as usize);
            let n = min.min(max).min(8);
            Value::Array(
                (0..n as u32)
                    .map(|i| at(&items, name, seed + i, depth + 1))
                    .collect(),
            )
        }
        "integer" | "number" => {
            let (lo, hi) = (bound("minimum").unwrap_or(0.0), bound("maximum"));
            let v = match hi {
                // Within the range, a little above or below its middle by the seed.
                Some(hi) => lo + (hi - lo) * [0.5, 0.6, 0.4, 0.7][seed as usize % 4],
                None => lo + 1.0 + f64::from(seed % 3),
            };
            if kind == "integer" {
                json!(v.round() as i64)
            } else {
                json!((v * 1000.0).round() / 1000.0)
            }
        }
        // Alternating by call, so a demo shows both branches (a gate that opens a room,
        // and one that does not).
        "boolean" => Value::Bool(seed.is_multiple_of(2)),
        "null" => Value::Null,
        _ => Value::String(format!("Scripted {}.", name.replace('_', " "))),
    }
}

/// How many values an item's own enum, or the enum of one of its properties, lists.
fn enum_len(item: &Value) -> usize {
    let own = item
        .get("enum")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let inner = item
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.values())
        .filter_map(|p| p.get("enum").and_then(Value::as_array).map(Vec::len))
        .max()
        .unwrap_or(0);
    own.max(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_fills_every_property_within_its_bounds() {
        let schema = json!({
            "type": "object",
            "properties": {
                "quality": {"type": "string", "enum": ["strong", "weak"]},
                "score": {"type": "integer", "minimum": 0, "maximum": 100},
                "p": {"type": "number", "minimum": 0, "maximum": 1},
                "claims": {"type": "array", "items": {"type": "object", "properties": {"claim": {"type": "string"}}}, "minItems": 2},
                "done": {"type": "boolean"},
                "kind": {"const": "crux"},
                "maybe": {"type": ["string", "null"]}
            },
            "required": ["quality"]
        });
        let v = sample(&schema, 1);
        assert_eq!(v["quality"], "weak");
        assert_eq!(v["score"], 60);
        assert_eq!(v["p"], 0.6);
        assert_eq!(v["claims"].as_array().unwrap().len(), 2);
        assert_eq!(v["claims"][0]["claim"], "Scripted claim.");
        assert_eq!(v["done"], false);
        assert_eq!(sample(&schema, 2)["done"], true);
        assert_eq!(v["kind"], "crux");
        assert_eq!(v["maybe"], "Scripted maybe.");
        assert_eq!(sample(&schema, 1), v, "the same seed gives the same answer");
        assert_ne!(sample(&schema, 0)["score"], v["score"]);
    }

    #[test]
    fn an_item_naming_one_of_a_list_comes_once_per_name() {
        let schema = json!({"type": "array", "items": {"type": "object", "properties": {
            "persona": {"type": "string", "enum": ["The Actuary", "The Founder", "The Nurse"]},
            "to": {"type": "string"}}}});
        let v = sample(&schema, 0);
        let names: Vec<&str> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["persona"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["The Actuary", "The Founder", "The Nurse"]);
    }
}
