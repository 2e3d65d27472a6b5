//! How a persona speaks: the system prompt built from its contract (with the crux room's
//! overlay inside a room), the phrases it must not use, and the clean-up of what it said.

use super::PersonaContract;
use crate::engine::prompt::{crux as p, render};

/// AI-sounding openers removed from every persona's output, beside its own forbidden
/// phrases; also listed as forbidden in every persona's system prompt.
pub const UNIVERSAL_BANNED: [&str; 16] = [
    "As an AI",
    "As a language model",
    "Great question",
    "That's a great point",
    "That's a really good point",
    "What a fascinating",
    "I hear you",
    "Absolutely",
    "Certainly",
    "Of course",
    "It's important to note that",
    "It's worth noting that",
    "Let's dive in",
    "Let me be clear",
    "In conclusion",
    "I appreciate your perspective",
];

fn bullets(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("- {}", s.trim()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every phrase this persona must not use: its own, then the universal AI patterns.
pub fn banned(c: &PersonaContract) -> Vec<String> {
    let mut out: Vec<String> = c
        .forbidden_phrases
        .iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    for u in UNIVERSAL_BANNED {
        if !out.iter().any(|s| s.eq_ignore_ascii_case(u)) {
            out.push(u.to_string());
        }
    }
    out
}

/// The one system prompt of every persona-voiced call: identity, how it thinks, what
/// changes its mind, its voice, forbidden phrases and (at most five) anchor quotes.
pub fn system_prompt(c: &PersonaContract, topic: &str) -> String {
    let quoted = |items: &[String]| {
        items
            .iter()
            .map(|s| format!("- \"{}\"", s.trim()))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let anchors: Vec<String> = c.anchor_quotes.iter().take(5).cloned().collect();
    render(
        p::PERSONA_SYSTEM,
        &[
            ("name", &c.name),
            ("topic", topic),
            ("personality", &c.identity.personality),
            ("bias", &c.identity.bias),
            ("stakes", &c.identity.stakes),
            ("epistemology", &c.thinking.epistemology),
            ("time_horizon", &c.thinking.time_horizon),
            ("evidence_policy", &c.thinking.evidence_policy),
            ("flip_conditions", &bullets(&c.flip_conditions)),
            ("style_hint", &c.voice.style_hint),
            ("speech_patterns", &bullets(&c.voice.speech_patterns)),
            ("vocabulary", &c.voice.vocabulary.join(", ")),
            ("examples", &quoted(&c.voice.examples)),
            ("forbidden", &quoted(&banned(c))),
            ("anchors", &quoted(&anchors)),
        ],
    )
}

/// The system prompt inside a crux room: the persona's own, with the room's rules appended.
pub fn room_system_prompt(
    c: &PersonaContract,
    topic: &str,
    question: &str,
    opponent: &str,
) -> String {
    format!(
        "{}\n\n{}",
        system_prompt(c, topic),
        render(
            p::ROOM_OVERLAY,
            &[("question", question), ("opponent", opponent)]
        )
    )
}

/// Strips what a persona must not open with: a leading speaker label ("The Actuary:"),
/// then, as often as they follow each other, banned openers with the punctuation after
/// them ("Great question! Absolutely, …"). The first remaining letter is capitalised.
/// Text that would be left empty is kept as it was.
pub fn clean(text: &str, name: &str, banned: &[String]) -> String {
    let mut rest = text.trim();
    for label in [name.trim().to_string(), format!("**{}**", name.trim())] {
        if !name.trim().is_empty() {
            if let Some(r) = strip_prefix_ci(rest, &label) {
                if let Some(r) = r.trim_start().strip_prefix(':') {
                    rest = r.trim_start();
                }
            }
        }
    }
    loop {
        let before = rest;
        for phrase in banned {
            let phrase = phrase.trim();
            if phrase.is_empty() {
                continue;
            }
            if let Some(r) = strip_prefix_ci(rest, phrase) {
                // Only a whole opener: what follows must end the phrase (punctuation,
                // space or the end), not continue a word ("Certainly" in "Certainlyish").
                if r.chars().next().is_none_or(|c| !c.is_alphanumeric()) {
                    rest = r.trim_start_matches(|c: char| {
                        c.is_whitespace()
                            || matches!(c, ',' | '.' | '!' | ':' | ';' | '—' | '-' | '–')
                    });
                }
            }
        }
        if rest == before {
            break;
        }
    }
    if rest.is_empty() {
        return text.trim().to_string();
    }
    let mut chars = rest.chars();
    match chars.next() {
        // ASCII only: the banned openers are English, so what follows one is too, and
        // Unicode's case tables would cost the bundle 8 KB gzipped.
        Some(first) if first.is_ascii_lowercase() => std::iter::once(first.to_ascii_uppercase())
            .chain(chars)
            .collect(),
        _ => rest.to_string(),
    }
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let n = prefix.len();
    if s.len() >= n && s.is_char_boundary(n) && s[..n].eq_ignore_ascii_case(prefix) {
        Some(&s[n..])
    } else {
        // Typographic apostrophes in the model's text: compare with them normalised.
        let norm: String = s.chars().take(prefix.chars().count()).collect();
        let norm_cmp = norm.replace('’', "'");
        if norm_cmp.eq_ignore_ascii_case(prefix) {
            Some(&s[norm.len()..])
        } else {
            None
        }
    }
}
