//! A forecast argument still streaming, shown as its words rather than the JSON around them.

/// The `argument` field of a JSON answer still streaming, as far as it has come (escapes
/// read), so the live view shows the words rather than the JSON around them.
pub fn partial_argument(text: &str) -> Option<String> {
    let start = text.find("\"argument\"")?;
    let rest = &text[start + 10..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    if let Some(ch) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        out.push(ch);
                    }
                }
                Some(other) => out.push(other),
                None => break,
            },
            c => out.push(c),
        }
    }
    Some(out)
}

#[cfg(test)]
mod partial_tests {
    use super::partial_argument;

    #[test]
    fn a_streaming_argument_shows_its_words_so_far() {
        assert_eq!(partial_argument("{\"argu"), None);
        assert_eq!(
            partial_argument("{\"argument\": \"Growth is \\\"strong\\\"\\nand ri"),
            Some("Growth is \"strong\"\nand ri".into())
        );
        assert_eq!(
            partial_argument("```json\n{\"argument\":\"Done.\", \"outcome_supported\": \"yes\"}"),
            Some("Done.".into())
        );
    }
}
