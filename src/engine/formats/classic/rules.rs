//! The moderator's cheap checks on a position's turn, before a model is asked: whether it
//! ran over its length (certain, so noted without asking), and whether its wording hints
//! at leaving the question or breaking one of the style's rules (only a hint: the moderator
//! rules on it). Pure, so every pattern is tested natively.

use super::options::ClassicStyle;
use crate::engine::phrases;

/// A turn that ran past its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    pub words: u32,
    pub limit: u32,
    /// Cut off at the token limit: the speaker did not finish.
    pub cut: bool,
}

/// Words as a reader counts them: runs of letters, digits and apostrophes.
pub fn word_count(text: &str) -> u32 {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .count() as u32
}

/// The overrun of a turn asked for at most `limit` words, allowed `slack_percent` more;
/// `cut` says the call stopped at its token limit.
pub fn over_length(text: &str, limit: u32, slack_percent: u32, cut: bool) -> Option<Overrun> {
    let words = word_count(text);
    let allowed = limit + limit * slack_percent / 100;
    (cut || words > allowed).then_some(Overrun { words, limit, cut })
}

/// Phrases that hint at a personal remark: every debate is about the case, not the person,
/// whatever its style (the ruling prompt says so beside the style's own rules).
const PERSONAL: &[&str] = &[
    "you are an idiot",
    "you're an idiot",
    "idiot",
    "idiotic",
    "moron",
    "stupid",
    "pathetic",
    "clueless",
    "you are lying",
    "you're lying",
    "you are a liar",
    "you're a liar",
    "my opponent is lying",
    "my opponent is a liar",
    "my opponent is naive",
    "my opponent is clueless",
    "my opponent clearly doesn't understand",
    "my opponent doesn't understand",
    "you clearly don't understand",
    "you don't understand",
    "shut up",
    "how dare you",
    "shame on you",
];

/// The rules a turn's wording hints it broke, in words for the moderator's prompt.
pub fn rule_hints(style: ClassicStyle, text: &str) -> Vec<&'static str> {
    let words = phrases::words(text);
    let mut out = Vec::new();
    if PERSONAL.iter().any(|p| phrases::has(&words, p)) {
        out.push("make a personal remark about the opponent");
    }
    if style == ClassicStyle::Formal && rhetorical_question(text) {
        out.push("put a rhetorical question to the opponent");
    }
    out
}

/// A question put to the opponent: a sentence ending in "?" that addresses them.
fn rhetorical_question(text: &str) -> bool {
    text.split_inclusive(['.', '!', '?', '\n'])
        .filter(|s| s.trim_end().ends_with('?'))
        .any(|s| {
            let w = phrases::words(s);
            ["you", "your", "opponent", "opponents", "opponent's"]
                .iter()
                .any(|a| w.iter().any(|x| x == a))
        })
}

/// Common words that say nothing about what a turn is about.
const COMMON: &[&str] = &[
    "about", "above", "after", "again", "against", "also", "although", "among", "another",
    "because", "been", "before", "being", "below", "between", "both", "cannot", "could", "does",
    "doing", "done", "down", "during", "each", "even", "every", "from", "further", "have",
    "having", "here", "into", "itself", "just", "like", "made", "make", "many", "more", "most",
    "much", "must", "need", "never", "only", "other", "over", "same", "should", "since", "some",
    "still", "such", "than", "that", "their", "them", "then", "there", "these", "they", "thing",
    "think", "this", "those", "through", "under", "until", "very", "want", "well", "were", "what",
    "when", "where", "which", "while", "will", "with", "without", "would", "your", "yours",
    "first", "second", "point", "argue", "argument", "opponent", "position", "side", "people",
    "really",
];

/// The words of `text` that say what it is about: four letters or more, not common, with a
/// plural's "s" dropped so "car" and "cars" meet.
fn content_words(text: &str) -> Vec<String> {
    phrases::words(text)
        .into_iter()
        .filter(|w| w.chars().count() >= 4 && w.chars().all(char::is_alphabetic))
        .filter(|w| !COMMON.contains(&w.as_str()))
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.len() >= 4 && !stem.ends_with('s') => stem.to_string(),
            _ => w,
        })
        .collect()
}

/// Whether a turn shares almost none of its words with the question, the stances and
/// the debate so far (`known`): at least 12 words that say what it is about, under one in
/// twenty of them ever said before. A hint only; the moderator rules.
pub fn off_topic(text: &str, known: &str) -> bool {
    let words = content_words(text);
    if words.len() < 12 {
        return false;
    }
    let known: std::collections::BTreeSet<String> = content_words(known).into_iter().collect();
    let shared = words.iter().filter(|w| known.contains(*w)).count();
    shared * 20 < words.len()
}

#[cfg(test)]
mod tests;
