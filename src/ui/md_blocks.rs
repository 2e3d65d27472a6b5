//! Where a Markdown text that grows token by token can be cut, so that a streaming turn is
//! rendered incrementally: the part before the cut is rendered once and kept, only the
//! part after it (the block being written) is rendered again on the next token.
//!
//! The cut goes after an empty line outside a code fence. There minimad keeps no state from
//! the lines before (no open fence; ordered-list numbering restarts) and neither does the
//! renderer (every open paragraph, list, quote, code block and table ends), so rendering the
//! two parts one after the other gives the same nodes as rendering the whole text. Pure, so
//! that claim is tested natively against minimad itself.

/// Follows one growing text. Feed it the text after every change.
#[derive(Debug, Default)]
pub struct Blocks {
    /// The text up to the start of its last, unfinished line: what later texts must start
    /// with to be the same text grown.
    seen: String,
    /// Whether `seen` ends inside a code fence.
    in_fence: bool,
    /// Byte length of the part that is finished: it ends after an empty line outside a
    /// fence.
    stable: usize,
}

impl Blocks {
    /// Takes the text as it is now. Returns whether it is a different text from the one
    /// followed so far (not the same text grown: start over) and how many of its leading
    /// bytes are finished blocks, which will never render differently.
    ///
    /// Work is proportional to the new lines, plus one comparison of the text with what was
    /// seen (a memory compare, far below the cost of parsing or rendering).
    pub fn feed(&mut self, text: &str) -> (bool, usize) {
        let changed = !text.starts_with(self.seen.as_str());
        if changed {
            *self = Blocks::default();
        }
        let mut pos = self.seen.len();
        while let Some(nl) = text[pos..].find('\n') {
            let line = &text[pos..pos + nl];
            let line = line.strip_suffix('\r').unwrap_or(line);
            pos += nl + 1;
            // minimad's own rule: a line starting with ``` opens or closes a fence.
            if line.starts_with("```") {
                self.in_fence = !self.in_fence;
            } else if line.is_empty() && !self.in_fence {
                self.stable = pos;
            }
        }
        self.seen.push_str(&text[self.seen.len()..pos]);
        (changed, self.stable)
    }
}

#[cfg(test)]
mod tests {
    use super::Blocks;
    use minimad::{parse_text, Line, Options};

    fn lines(md: &str) -> Vec<Line<'_>> {
        parse_text(md, Options::default().keep_code_fences(false)).lines
    }

    const SAMPLE: &str =
        "Opening line with **bold** and a [link](https://ex.org).\nSame paragraph.\n\n\
        1. first\n2. second\n   - nested\n\n3. third after a gap\n\n\
        ```rust\nfn main() {\n\n    let x = 1;\n}\n```\n\n\
        > a quote\n> more\n\r\n\
        | a | b |\n|---|---|\n| 1 | 2 |\n\n\
        ## Heading\n\n    indented code\n\n    more code\n\n---\nlast *words*";

    #[test]
    fn rendering_the_cut_parts_equals_rendering_the_whole() {
        let mut blocks = Blocks::default();
        let mut cuts = Vec::new();
        // Token by token (here: byte by byte on character boundaries).
        for end in (1..=SAMPLE.len()).filter(|&e| SAMPLE.is_char_boundary(e)) {
            let text = &SAMPLE[..end];
            let (changed, stable) = blocks.feed(text);
            assert!(!changed, "a grown text is the same text");
            assert!(stable <= end && cuts.last().is_none_or(|&c| c <= stable));
            if cuts.last() != Some(&stable) {
                cuts.push(stable);
            }
            let mut parts = lines(&text[..stable]);
            parts.extend(lines(&text[stable..]));
            assert_eq!(parts, lines(text), "cut at {stable} of {text:?}");
        }
        // Cuts after the paragraph, the lists, the fence (not inside it), the quote, the
        // table, the heading and the indented code blocks.
        assert_eq!(cuts.len(), 10, "{cuts:?}");
        let inside_fence = SAMPLE.find("fn main() {\n\n").unwrap() + "fn main() {\n\n".len();
        assert!(!cuts.contains(&inside_fence));
    }

    #[test]
    fn a_text_that_is_not_the_same_text_grown_starts_over() {
        let mut blocks = Blocks::default();
        assert_eq!(blocks.feed("one\n\ntwo\n\nthr"), (false, 10));
        assert_eq!(blocks.feed("one\n\ntwo\n\nthree"), (false, 10));
        // A retry replaced the text.
        assert_eq!(blocks.feed("uno\n\ndos"), (true, 5));
        assert_eq!(blocks.feed(""), (true, 0));
        // The unfinished last line may change without starting over.
        assert_eq!(blocks.feed("a\n\nb"), (false, 3));
        assert_eq!(blocks.feed("a\n\nc"), (false, 3));
    }
}
