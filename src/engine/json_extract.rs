//! Robust JSON extraction from model text: models wrap JSON in code fences, put prose around
//! it, leave trailing commas and break lines inside strings. This finds the object or
//! array and parses it leniently.

use serde_json::Value;

use super::answer::Problem;

pub fn extract(text: &str) -> Result<Value, Problem> {
    let trimmed = text.trim().trim_start_matches('\u{feff}');
    if let Ok(v) = serde_json::from_str::<Value>(trimmed) {
        return Ok(v);
    }
    let mut candidates: Vec<&str> = fenced_blocks(trimmed);
    candidates.push(trimmed);
    for c in candidates {
        if let Ok(v) = serde_json::from_str::<Value>(c.trim()) {
            return Ok(v);
        }
        if let Some(span) = balanced_span(c) {
            if let Ok(v) = serde_json::from_str::<Value>(span) {
                return Ok(v);
            }
            if let Ok(v) = serde_json::from_str::<Value>(&tidy(span)) {
                return Ok(v);
            }
        }
    }
    Err(if trimmed.is_empty() {
        Problem::Empty
    } else {
        Problem::NotJson
    })
}

/// Contents of ``` fenced blocks, in order.
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let body_start = after.find('\n').map(|i| i + 1).unwrap_or(0);
        let body = &after[body_start..];
        match body.find("```") {
            Some(end) => {
                out.push(&body[..end]);
                rest = &body[end + 3..];
            }
            None => {
                out.push(body);
                break;
            }
        }
    }
    out
}

/// The first `{…}` or `[…]` whose brackets balance, skipping brackets inside strings.
fn balanced_span(text: &str) -> Option<&str> {
    let start = text.find(['{', '['])?;
    let mut depth = 0i32;
    let mut in_str = false;
    let mut escaped = false;
    for (i, ch) in text[start..].char_indices() {
        if in_str {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match ch {
            '"' => in_str = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[start..start + i + ch.len_utf8()]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Removes commas directly before a closing bracket, outside strings, and escapes control
/// characters inside strings (a raw line break in a string is what strict JSON refuses and
/// lenient readers, such as Python's `json.loads(strict=False)`, take).
fn tidy(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut in_str = false;
    let mut escaped = false;
    for (i, &ch) in chars.iter().enumerate() {
        if in_str {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                '\n' => {
                    out.push_str("\\n");
                    continue;
                }
                '\t' => {
                    out.push_str("\\t");
                    continue;
                }
                c if u32::from(c) < 0x20 => {
                    out.push_str(&format!("\\u{:04x}", u32::from(c)));
                    continue;
                }
                _ => {}
            }
            out.push(ch);
            continue;
        }
        if ch == '"' {
            in_str = true;
        }
        if ch == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_json_wherever_models_put_it() {
        let cases = [
            (r#"{"score": 7}"#, json!({"score": 7})),
            (
                "Sure! Here it is:\n```json\n{\"score\": 7,}\n```\nHope that helps.",
                json!({"score": 7}),
            ),
            (
                "The verdict {\"a\": [1, 2,], \"b\": \"x}\"} follows.",
                json!({"a": [1, 2], "b": "x}"}),
            ),
            ("```\n[{\"k\": 1}]\n```", json!([{"k": 1}])),
            // A small model broke a line inside a string (SmolLM2, a forecast's references).
            (
                "{\"references\": [\"]}\n{\n  \" ], \"confidence\": 0.25,\t\"x\": \"a\tb\r\"}",
                json!({"references": ["]}\n{\n  "], "confidence": 0.25, "x": "a\tb\r"}),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(extract(text).unwrap(), want, "{text}");
        }
    }

    #[test]
    fn says_why_when_there_is_no_json() {
        assert_eq!(extract("").unwrap_err(), Problem::Empty);
        assert_eq!(
            extract("I'd rather not score this.").unwrap_err(),
            Problem::NotJson
        );
        assert!(extract("{\"score\": ").is_err());
    }
}
