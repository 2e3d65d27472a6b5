//! Keeps API keys out of anything shown, logged or stored.
//!
//! Two strengths. `redact_key` replaces the connection's own key, whatever its length, and
//! nothing else: it is for text that must read exactly as it was sent or said (the Request
//! view, a turn, the partial text of a failed turn). `redact_error` also replaces words
//! shaped like a provider key, because a provider's error may echo part of a wrong key (or
//! another one): it is for provider error text only, where "risk-free" turning into
//! "ri[key]" would be a guess too far anywhere else. Text is always redacted whole, before
//! any cut, so no part of a key survives at the edge of a cut.

const SHOWN: &str = "[key]";

/// Replaces every occurrence of `key` (any non-empty key, however short).
pub fn redact_key(text: &str, key: &str) -> String {
    let key = key.trim();
    if key.is_empty() {
        text.to_string()
    } else {
        text.replace(key, SHOWN)
    }
}

/// Text still streaming, to be kept: the key replaced wherever it is whole, and a tail that
/// could be the start of the key cut off (the rest of it may be in the next chunk).
pub fn redact_streaming(text: &str, key: &str) -> String {
    let mut out = redact_key(text, key);
    let key = key.trim();
    // Four characters or more: a key's first few are its provider's public prefix (`sk-`).
    if let Some(l) = (4..key.len())
        .rev()
        .find(|&l| key.is_char_boundary(l) && out.ends_with(&key[..l]))
    {
        out.truncate(out.len() - l);
    }
    out
}

/// Prefixes of the providers' key formats (OpenAI `sk-`/`sk-proj-`, Anthropic `sk-ant-`,
/// Stripe-like `sk_`, Gemini `AIza`, Groq `gsk_`, xAI `xai-`, OpenRouter `sk-or-`).
const PREFIXES: [&str; 5] = ["sk-", "sk_", "AIza", "gsk_", "xai-"];

/// Characters a key (or a provider's masked echo of one, `sk-proj-****abcd`) is made of.
fn key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '*')
}

/// For provider error text: the real key, and any word that starts with a key prefix at a
/// word boundary and runs on for at least four more key characters.
pub fn redact_error(text: &str, key: &str) -> String {
    let text = redact_key(text, key);
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let at_boundary = text[..i].chars().next_back().is_none_or(|c| !key_char(c));
        let prefix = PREFIXES.iter().find(|p| rest.starts_with(*p));
        if let (true, Some(p)) = (at_boundary, prefix) {
            let len = rest.find(|c: char| !key_char(c)).unwrap_or(rest.len());
            if len >= p.len() + 4 {
                out.push_str(SHOWN);
                i += len;
                continue;
            }
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// At most `max` characters of `text`, cut on a character, with "…" when cut. Callers
/// redact first: a cut never leaves the start of a key that redaction would not recognise.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn streaming_text_loses_the_key_and_a_tail_that_may_start_it() {
        let key = "sk-test-SECRET-0123456789";
        assert_eq!(
            redact_streaming("a sk-test-SECRET-0123456789 b sk-te", key),
            "a [key] b "
        );
        assert_eq!(
            redact_streaming("ask", key),
            "ask",
            "no key start at the end"
        );
        assert_eq!(
            redact_streaming("risk-", key),
            "risk-",
            "`k-` does not start the key"
        );
        assert_eq!(redact_streaming("plain text", ""), "plain text");
    }

    use super::*;

    #[test]
    fn the_real_key_is_replaced_whatever_its_length() {
        for key in ["Q", "abc", "sk-proj-SECRET-0123456789"] {
            let text = format!("Bearer {key} and again {key}.");
            assert_eq!(redact_key(&text, key), "Bearer [key] and again [key].");
        }
        assert_eq!(redact_key("nothing to hide", ""), "nothing to hide");
    }

    #[test]
    fn only_error_text_gets_the_guess_at_key_shaped_words() {
        let said = "A risk-free task-based plan: ask-me-anything, sk-ip this, AIzaLEAK99 too.";
        assert_eq!(redact_key(said, "other"), said, "a turn keeps its words");
        let err = redact_error(said, "other");
        assert!(err.contains("risk-free task-based plan"), "{err}");
        assert!(err.contains("sk-ip this"), "too short for a key: {err}");
        assert!(err.contains("[key] too"), "{err}");
        assert_eq!(
            redact_error("Incorrect API key provided: sk-proj-****abcd. See", ""),
            "Incorrect API key provided: [key]. See"
        );
        assert_eq!(
            redact_error("key \"gsk_abcdef\" (xai-1234567)", ""),
            "key \"[key]\" ([key])"
        );
    }

    #[test]
    fn redacting_before_cutting_leaves_no_part_of_a_key() {
        let key = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        let body = format!("{}{key} is not valid", "x".repeat(290));
        // Cut first, then redacted, the first 10 characters of the key would survive.
        let cut_first = redact_key(&clip(&body, 300), key);
        assert!(cut_first.contains("sk-proj-AB"));
        let right = clip(&redact_error(&body, key), 300);
        assert!(
            !right.contains("sk-proj") && !right.contains("ABCDEFGH"),
            "{right}"
        );
        assert_eq!(clip("héllo", 2), "hé…");
        assert_eq!(clip("hé", 2), "hé");
    }
}
