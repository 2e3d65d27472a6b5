//! Reading fields of a model's JSON answer (after `json_extract`): each error names the
//! field, so a repair request can say what to fix and an unscored finding why.

use serde_json::Value;

pub fn field<'a>(v: &'a Value, name: &str) -> Result<&'a Value, String> {
    v.get(name).ok_or_else(|| format!("`{name}` is missing"))
}

/// A JSON `true` or `false`.
pub fn boolean(v: &Value, name: &str) -> Result<bool, String> {
    field(v, name)?
        .as_bool()
        .ok_or_else(|| format!("`{name}` must be true or false"))
}

/// `true` or `false`, also written as text ("true"), as small models now and then do;
/// nothing else is accepted.
pub fn lenient_boolean(v: &Value, name: &str) -> Result<bool, String> {
    match field(v, name)? {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Ok(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Ok(false),
        _ => Err(format!("`{name}` must be true or false")),
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

pub fn required_text(v: &Value, name: &str) -> Result<String, String> {
    let t = text(v, name);
    if t.is_empty() {
        Err(format!("`{name}` must be a non-empty text"))
    } else {
        Ok(t)
    }
}

pub fn array<'a>(v: &'a Value, name: &str) -> Result<&'a Vec<Value>, String> {
    field(v, name)?
        .as_array()
        .ok_or_else(|| format!("`{name}` must be a list"))
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
