//! A JSON Schema made to suit a server that holds a model to it with a grammar (llama.cpp's,
//! Ollama's). A grammar makes a small model write the asked shape, but it enforces only what
//! the schema spells out in the grammar's terms:
//! - it lets a model write an empty text where one is required: free text gets at least one
//!   character;
//! - it does not make a model stop: a string never closed runs into the call's token limit and
//!   the answer is cut, unreadable. Every free-text field and list is bounded so the whole
//!   answer fits the limit, and the grammar closes them in time;
//! - it does not always bound numbers (llama-cpp-python's ignores `minimum` and `maximum`): an
//!   integer between the two becomes one of the integers listed, and any other number one
//!   of 101 evenly spaced values between them;
//! - it does not know that a list of `{"outcome": …}` must name each outcome once: a list
//!   that must hold one item per value of an enum becomes a tuple, one item per value.
//!
//! Only these servers get the changed schema; the others get the format's own.

use serde_json::Value;

/// Items a list without its own maximum may hold.
const LIST_ITEMS: u64 = 4;
/// Characters a token stands for in the bound: half of English's average, as small models'
/// tokenizers split odd text finely and the JSON around the text takes its share.
const CHARS_PER_TOKEN: u64 = 2;
/// The share of the answer left to free text (the rest is keys, numbers and punctuation).
const TEXT_SHARE: f64 = 0.6;
/// Integer ranges up to this wide are listed value by value (llama-cpp-python's grammar
/// ignores `minimum` and `maximum`).
const LISTED_INTEGERS: i64 = 1_000;
/// No field is bounded below this, however many there are.
const MIN_CHARS: u64 = 40;

/// The schema as a grammar can hold a model to it, for an answer of at most `max_tokens`.
pub fn fit(schema: &mut Value, max_tokens: u32) {
    pin(schema);
    let leaves = text_fields(schema, 1.0);
    if leaves <= 0.0 {
        return;
    }
    let budget = u64::from(max_tokens) * CHARS_PER_TOKEN;
    let each = ((budget as f64 * TEXT_SHARE / leaves) as u64).max(MIN_CHARS);
    apply(schema, each);
}

/// Ranged numbers to values a grammar lists, and one-item-per-value lists to tuples.
fn pin(s: &mut Value) {
    let Some(obj) = s.as_object_mut() else {
        return;
    };
    let (min, max) = (
        obj.get("minimum").and_then(Value::as_f64),
        obj.get("maximum").and_then(Value::as_f64),
    );
    match obj.get("type").and_then(Value::as_str) {
        Some("integer") if !obj.contains_key("enum") => {
            if let (Some(lo), Some(hi)) = (min, max) {
                let (lo, hi) = (lo.ceil() as i64, hi.floor() as i64);
                if lo <= hi && hi - lo <= LISTED_INTEGERS {
                    let values: Vec<Value> = (lo..=hi).map(Value::from).collect();
                    obj.insert("enum".into(), values.into());
                }
            }
        }
        Some("number") if !obj.contains_key("enum") => {
            if let (Some(lo), Some(hi)) = (min, max) {
                let values: Vec<Value> = (0..=100)
                    .map(|i| {
                        let x = lo + (hi - lo) * f64::from(i) / 100.0;
                        ((x * 10_000.0).round() / 10_000.0).into()
                    })
                    .collect();
                obj.insert("enum".into(), values.into());
            }
        }
        Some("array") => {
            if let Some(tuple) = one_per_value(obj) {
                obj.remove("items");
                obj.insert("prefixItems".into(), tuple);
            }
            for key in ["items", "prefixItems"] {
                match obj.get_mut(key) {
                    Some(Value::Array(list)) => list.iter_mut().for_each(pin),
                    Some(one) => pin(one),
                    None => {}
                }
            }
        }
        Some("object") => {
            if let Some(props) = obj.get_mut("properties").and_then(Value::as_object_mut) {
                props.values_mut().for_each(pin);
            }
        }
        _ => {}
    }
}

/// A list whose items are objects with a property of an enum, and exactly as many items as
/// the enum has values: one item per value, each with its value fixed.
fn one_per_value(array: &serde_json::Map<String, Value>) -> Option<Value> {
    let n = array.get("minItems").and_then(Value::as_u64)?;
    if array.get("maxItems").and_then(Value::as_u64) != Some(n) {
        return None;
    }
    let item = array.get("items")?;
    let props = item.get("properties")?.as_object()?;
    let (key, values) = props.iter().find_map(|(k, v)| {
        let values = v.get("enum")?.as_array()?;
        Some((k.clone(), values.clone()))
    })?;
    if values.len() as u64 != n {
        return None;
    }
    let tuple = values
        .into_iter()
        .map(|value| {
            let mut one = item.clone();
            one["properties"][&key] = serde_json::json!({ "const": value });
            one
        })
        .collect::<Vec<_>>();
    Some(tuple.into())
}

/// Free-text fields an answer can hold, each list counted as full.
fn text_fields(s: &Value, times: f64) -> f64 {
    match s.get("type").and_then(Value::as_str) {
        Some("string") if s.get("enum").is_none() => times,
        Some("array") => match (s.as_object(), s.get("items")) {
            (Some(array), Some(items)) => text_fields(items, times * items_of(array) as f64),
            _ => 0.0,
        },
        Some("object") => s
            .get("properties")
            .and_then(Value::as_object)
            .map_or(0.0, |p| p.values().map(|v| text_fields(v, times)).sum()),
        _ => 0.0,
    }
}

fn items_of(array: &serde_json::Map<String, Value>) -> u64 {
    let min = array.get("minItems").and_then(Value::as_u64).unwrap_or(0);
    array
        .get("maxItems")
        .and_then(Value::as_u64)
        .unwrap_or(LIST_ITEMS.max(min))
}

fn apply(s: &mut Value, each: u64) {
    let Some(obj) = s.as_object_mut() else {
        return;
    };
    match obj.get("type").and_then(Value::as_str) {
        Some("string") if !obj.contains_key("enum") => {
            let max = obj
                .get("maxLength")
                .and_then(Value::as_u64)
                .map_or(each, |m| m.min(each));
            obj.insert("maxLength".into(), max.into());
            // An empty text reads as nothing said (a closing that names no earlier point).
            obj.entry("minLength").or_insert(1.into());
        }
        Some("array") => {
            if let Some(Value::Array(tuple)) = obj.get_mut("prefixItems") {
                tuple.iter_mut().for_each(|i| apply(i, each));
                return;
            }
            let n = items_of(obj);
            obj.insert("maxItems".into(), n.into());
            if let Some(items) = obj.get_mut("items") {
                apply(items, each);
            }
        }
        Some("object") => {
            if let Some(props) = obj.get_mut("properties").and_then(Value::as_object_mut) {
                for v in props.values_mut() {
                    apply(v, each);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn free_text_and_lists_are_bounded_to_fit_the_token_limit() {
        let mut s = json!({"type": "object", "properties": {
            "argument": {"type": "string"},
            "side": {"type": "string", "enum": ["yes", "no"]},
            "evidence": {"type": "array", "items": {"type": "string"}},
            "short": {"type": "string", "maxLength": 20},
            "score": {"type": "integer", "minimum": 0, "maximum": 10},
            "pair": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "object",
                "properties": {"why": {"type": "string"}}}},
        }});
        fit(&mut s, 500);
        // 1 + 4 evidence items + 1 short + 2 pairs = 8 fields; 500 × 2 × 0.6 / 8 = 75.
        let p = &s["properties"];
        assert_eq!(p["argument"]["maxLength"], 75);
        assert_eq!(p["evidence"]["maxItems"], 4);
        assert_eq!(p["evidence"]["items"]["maxLength"], 75);
        assert_eq!(p["short"]["maxLength"], 20, "a tighter bound stays");
        assert_eq!(p["argument"]["minLength"], 1, "free text is never empty");
        assert!(p["side"].get("maxLength").is_none(), "an enum needs none");
        assert!(p["score"].get("maxLength").is_none());
        assert_eq!(p["pair"]["maxItems"], 2);
        assert_eq!(p["pair"]["items"]["properties"]["why"]["maxLength"], 75);
        assert_eq!(
            p["score"]["enum"],
            json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
            "listed"
        );
    }

    #[test]
    fn a_list_that_must_hold_more_than_four_gets_room_for_them_and_tiny_limits_keep_a_floor() {
        let mut s = json!({"type": "array", "minItems": 6, "items": {"type": "string"}});
        fit(&mut s, 10);
        assert_eq!(s["maxItems"], 6);
        assert_eq!(s["items"]["maxLength"], 40);
    }

    #[test]
    fn ranged_numbers_become_listed_values_and_one_per_outcome_lists_become_tuples() {
        let mut s = json!({"type": "object", "properties": {
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "free": {"type": "number"},
            "probabilities": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "object",
                "properties": {"outcome": {"type": "string", "enum": ["yes", "no"]},
                    "probability": {"type": "number", "minimum": 0, "maximum": 1}},
                "required": ["outcome", "probability"]}},
        }});
        fit(&mut s, 400);
        let p = &s["properties"];
        let values = p["confidence"]["enum"].as_array().unwrap();
        assert_eq!(values.len(), 101);
        assert_eq!(
            (
                values[0].as_f64(),
                values[37].as_f64(),
                values[100].as_f64()
            ),
            (Some(0.0), Some(0.37), Some(1.0))
        );
        assert!(
            p["free"].get("enum").is_none(),
            "an unbounded number stays free"
        );
        let tuple = p["probabilities"]["prefixItems"].as_array().unwrap();
        assert!(p["probabilities"].get("items").is_none());
        assert_eq!(tuple[0]["properties"]["outcome"], json!({"const": "yes"}));
        assert_eq!(tuple[1]["properties"]["outcome"], json!({"const": "no"}));
        assert_eq!(
            tuple[1]["properties"]["probability"]["enum"]
                .as_array()
                .unwrap()
                .len(),
            101
        );
        assert_eq!(tuple[1]["required"], json!(["outcome", "probability"]));
    }
}
