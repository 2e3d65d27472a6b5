//! Reading fields of a model's JSON answer (after `json_extract`): each error names the
//! field, so a repair request can say what to fix and an unscored finding why.

use serde_json::Value;

use super::answer::Problem;

pub fn field<'a>(v: &'a Value, name: &str) -> Result<&'a Value, Problem> {
    v.get(name).ok_or_else(|| Problem::missing(name))
}

/// A JSON `true` or `false`.
pub fn boolean(v: &Value, name: &str) -> Result<bool, Problem> {
    field(v, name)?
        .as_bool()
        .ok_or_else(|| Problem::wrong(name, "be true or false"))
}

/// `true` or `false`, also written as text ("true"), as small models now and then do;
/// nothing else is accepted.
pub fn lenient_boolean(v: &Value, name: &str) -> Result<bool, Problem> {
    match field(v, name)? {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Ok(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Ok(false),
        _ => Err(Problem::wrong(name, "be true or false")),
    }
}

/// A text field, trimmed; empty when missing or not text.
pub fn text(v: &Value, name: &str) -> String {
    v.get(name)
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim()
        .to_string()
}

pub fn required_text(v: &Value, name: &str) -> Result<String, Problem> {
    let t = text(v, name);
    if t.is_empty() {
        Err(Problem::wrong(name, "be a non-empty text"))
    } else {
        Ok(t)
    }
}

pub fn array<'a>(v: &'a Value, name: &str) -> Result<&'a Vec<Value>, Problem> {
    field(v, name)?
        .as_array()
        .ok_or_else(|| Problem::wrong(name, "be a list"))
}

/// The non-empty texts of a list field, trimmed; empty when missing.
pub fn texts(v: &Value, name: &str) -> Vec<String> {
    v.get(name)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(|s| s.trim().to_string()))
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}
