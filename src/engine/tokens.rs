//! Token estimates: upper bounds, for fitting prompts to a context window, for the worst
//! case a spending cap reserves before a call, and for providers that report no usage.
//! Estimates are always labelled as such wherever they are shown.
//!
//! Calibrated on `tests/fixtures/tokens/` (English prose, code, numbers, Chinese, Japanese,
//! Korean, Arabic, Hebrew, emoji, Russian, French, Hindi, Greek, Turkish, Thai and
//! Georgian) against the counts of OpenAI's o200k and cl100k encodings and the local
//! model's own tokenizer (SmolLM2): the estimate is at or above every one of them on every
//! text there, and about a fifth above on English prose (`tests/tokens.rs` prints the
//! margins). Text built to defeat tokenizers (a page of one-letter words, say) can still be
//! undercounted.
//!
//! The count is in twentieths of a token per character: a run of ASCII letters is a word
//! of at least one token and a fifth of a token per letter past five (a space before it is
//! part of it); a digit or other whitespace is a token (small vocabularies split numbers
//! digit by digit), and so is punctuation, two marks in a row together (`":`, `},`);
//! accented Latin two and a half; Greek and Cyrillic one and a quarter; Hebrew and Arabic
//! one and a half; other two-byte characters two; CJK two and a half (byte-level
//! vocabularies take three bytes apart), and so are other three-byte characters (Indic
//! scripts, Thai, Georgian); emoji and other characters past the BMP three and a quarter
//! (four bytes, and a joiner or a variation selector after them).

use super::model::ChatRequest;

/// Twentieths of a token: a whole token.
const TOKEN: u64 = 20;

/// Tokens every message carries besides its text (role markers and separators), and every
/// request (the turn that primes the answer): more than any chat template we know of.
pub const PER_MESSAGE: u32 = 8;
pub const PER_REQUEST: u32 = 8;

/// A running count of the tokens in a text, a character at a time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counter {
    twentieths: u64,
    /// Letters in the ASCII word being read.
    word: u32,
    /// A space read just before: free if a word follows it.
    space: bool,
    /// ASCII punctuation read in a row.
    punct: u32,
}

impl Counter {
    pub fn push(&mut self, c: char) {
        if c.is_ascii_alphabetic() {
            self.space = false;
            self.punct = 0;
            self.word += 1;
            self.twentieths += match self.word {
                1 => TOKEN,
                2..=5 => 0,
                _ => TOKEN / 5,
            };
            return;
        }
        self.word = 0;
        if std::mem::take(&mut self.space) {
            self.twentieths += TOKEN;
        }
        if c == ' ' {
            self.space = true;
            self.punct = 0;
        } else if c.is_ascii_punctuation() {
            // Two in a row (`":`, `},`, `);`) are one token.
            self.punct += 1;
            if self.punct % 2 == 1 {
                self.twentieths += TOKEN;
            }
        } else {
            self.punct = 0;
            self.twentieths += twentieths(c);
        }
    }

    /// The tokens of what was pushed so far (with one for where the text ends).
    pub fn tokens(&self) -> u32 {
        let t = self.twentieths + if self.space { TOKEN } else { 0 };
        (t.div_ceil(TOKEN) as u32).saturating_add(1)
    }
}

/// One character's share of a token, in twentieths (ASCII letters and spaces aside, which
/// `Counter` counts by words).
fn twentieths(c: char) -> u64 {
    let u = c as u32;
    match u {
        0..=0x7F => TOKEN,
        0x80..=0x24F => 50,
        0x370..=0x52F => 25,
        0x590..=0x6FF => 30,
        0x1100..=0x11FF
        | 0x2E80..=0x9FFF
        | 0xA960..=0xA97F
        | 0xAC00..=0xD7FF
        | 0xF900..=0xFAFF
        | 0xFF00..=0xFFEF => 50,
        0x10000.. => 65,
        // The rest of two bytes in UTF-8 (Armenian, Syriac, Thaana…), and three (Indic
        // scripts, Thai, Georgian, Ethiopic…): byte-level vocabularies split the longer
        // ones further.
        0x250..=0x36F | 0x530..=0x58F | 0x700..=0x7FF => 40,
        _ => 50,
    }
}

/// An upper bound on the tokens in `text`.
pub fn estimate(text: &str) -> u32 {
    let mut n = Counter::default();
    text.chars().for_each(|c| n.push(c));
    n.tokens()
}

/// An upper bound on the input tokens of a request: every message with its framing, and
/// the JSON Schema a structured call sends with it.
pub fn prompt(req: &ChatRequest) -> u32 {
    request(
        req.messages.iter().map(|m| m.content.as_str()),
        req.schema.as_ref(),
    )
}

/// `prompt` of a request of these messages' texts and this schema, for a request still
/// being sized (the fixed parts a context budget leaves room around).
pub fn request<'a>(
    messages: impl IntoIterator<Item = &'a str>,
    schema: Option<&serde_json::Value>,
) -> u32 {
    let messages: u32 = messages
        .into_iter()
        .map(|m| estimate(m) + PER_MESSAGE)
        .sum();
    messages + schema.map_or(0, |s| estimate(&s.to_string())) + PER_REQUEST
}

/// What a call is counted as having used when its provider reports nothing: its prompt,
/// its answer up to the output limit it was sent, and the reasoning it streamed beside it
/// (billed as output on top of the answer).
pub fn usage(req: &ChatRequest, answer: &str, reasoning: &str) -> super::event::Usage {
    let reasoning = if reasoning.is_empty() {
        0
    } else {
        estimate(reasoning)
    };
    super::event::Usage {
        input_tokens: prompt(req),
        output_tokens: estimate(answer).min(req.max_tokens.max(1)) + reasoning,
        estimated: true,
    }
}

#[cfg(test)]
mod tests {
    use super::estimate;

    #[test]
    fn every_script_counts_at_least_a_token_a_word_or_character() {
        // Words of up to five letters are a token each, the space before them included.
        assert_eq!(estimate("Cities should ban cars"), 4 + 1 + 1);
        // One-letter words are no cheaper than a token each.
        assert_eq!(estimate("a b c d e"), 5 + 1);
        // Thirteen Chinese characters: two and a half tokens each, as byte-level
        // vocabularies split them.
        assert_eq!(estimate("城市应该禁止汽车进入市中心"), 33 + 1);
        // Cyrillic: a token and a quarter a letter.
        assert_eq!(estimate("Привет мир"), 13 + 1);
        // Digits one by one.
        assert_eq!(estimate("2026"), 4 + 1);
        assert_eq!(estimate(""), 1);
    }
}
