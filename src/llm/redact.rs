//! Keeps API keys out of anything shown, logged or stored.

/// Removes the key, and anything shaped like a provider key, from text that may be shown or
/// logged: some providers echo part of a wrong key in their error.
pub fn redact(text: &str, key: &str) -> String {
    let mut out = if key.len() >= 4 {
        text.replace(key, "[key]")
    } else {
        text.to_string()
    };
    for prefix in ["sk-", "sk_", "AIza", "gsk_", "xai-"] {
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(i) = rest.find(prefix) {
            result.push_str(&rest[..i]);
            let tail = &rest[i..];
            let end = tail
                .find(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == ',' || c == ')')
                .unwrap_or(tail.len());
            result.push_str("[key]");
            rest = &tail[end..];
        }
        result.push_str(rest);
        out = result;
    }
    out
}
