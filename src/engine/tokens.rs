//! Token estimates for fitting prompts to a context window and for providers that report no
//! usage. Estimates are always labelled as such wherever they are shown.
//!
//! Tokenisers give English prose about four characters per token, but CJK scripts about one
//! token per character (often more), and other non-Latin scripts (Cyrillic, Greek, Arabic,
//! Hebrew, Devanagari, Thai…) about two characters per token. Counting them all as English
//! would overfill a context window several times over with a Chinese debate.

/// About one token per CJK character (Han, kana, Hangul, fullwidth forms).
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF       // Hangul Jamo
        | 0x2E80..=0x9FFF     // CJK radicals, punctuation, kana, Han
        | 0xA960..=0xA97F
        | 0xAC00..=0xD7FF     // Hangul syllables
        | 0xF900..=0xFAFF     // CJK compatibility ideographs
        | 0xFF00..=0xFFEF     // fullwidth forms
        | 0x20000..=0x3FFFF) // Han extensions
}

/// An upper-leaning estimate of the tokens in `text`, so budgets err short.
pub fn estimate(text: &str) -> u32 {
    let quarters: u64 = text.chars().map(quarters).sum();
    (quarters.div_ceil(4) as u32).saturating_add(1)
}

/// One character's share of a token, in quarters: ASCII 1/4 token, other scripts 1/2, CJK
/// and emoji 1.
pub fn quarters(c: char) -> u64 {
    if c.is_ascii() {
        1
    } else if is_cjk(c) || (c as u32) >= 0x1F000 {
        4
    } else {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::estimate;

    #[test]
    fn non_latin_scripts_count_sensibly() {
        let english = "Cities should ban cars from their centres.";
        assert_eq!(estimate(english), (english.len() as u32).div_ceil(4) + 1);
        // Thirteen Chinese characters are about thirteen tokens, not four.
        assert_eq!(estimate("城市应该禁止汽车进入市中心"), 14);
        assert_eq!(estimate("こんにちは"), 6);
        // Cyrillic: about two characters per token.
        assert_eq!(estimate("Привет мир"), 5 + 1);
        assert_eq!(estimate(""), 1);
    }
}
