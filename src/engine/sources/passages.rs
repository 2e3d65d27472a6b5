//! Sources split into passages: the unit a prompt carries and a verified quote links to.
//! Paragraphs are kept whole where they fit; short ones join their neighbours and long
//! ones are cut at sentence ends, so a passage reads on its own.

use super::Source;

/// About how long a passage is, in characters (a few hundred tokens): long enough to
/// carry an argument's evidence, short enough that several fit a small model's window.
pub const TARGET_CHARS: usize = 1_200;

/// One passage: a byte range of its source's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passage {
    /// The source's id.
    pub source: String,
    /// Its place in the source, from 1 (shown as `S1 ¶3`).
    pub number: usize,
    pub start: usize,
    pub end: usize,
}

impl Passage {
    /// Its text in `source` (empty if `source` is not the one it was split from).
    pub fn text<'a>(&self, source: &'a Source) -> &'a str {
        source.text.get(self.start..self.end).unwrap_or("")
    }

    /// How a prompt and a quote's link name it: `S1 ¶3`.
    pub fn label(&self) -> String {
        format!("{} ¶{}", self.source, self.number)
    }
}

/// The passages of one source, in order, covering its text.
pub fn split(source: &Source) -> Vec<Passage> {
    let text = source.text.as_str();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for (start, end) in paragraphs(text) {
        if end - start > TARGET_CHARS {
            ranges.extend(cut_long(text, start, end));
            continue;
        }
        match ranges.last_mut() {
            // A short paragraph joins the one before while both stay under the target.
            Some(last) if end - last.0 <= TARGET_CHARS && last.1 - last.0 < TARGET_CHARS / 2 => {
                last.1 = end
            }
            _ => ranges.push((start, end)),
        }
    }
    ranges
        .into_iter()
        .enumerate()
        .map(|(i, (start, end))| Passage {
            source: source.id.clone(),
            number: i + 1,
            start,
            end,
        })
        .collect()
}

/// Byte ranges of the paragraphs (text between blank lines), trimmed.
fn paragraphs(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut last_end = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end();
        if content.trim().is_empty() {
            if let Some(s) = start.take() {
                out.push((s, last_end));
            }
        } else {
            let lead = content.len() - content.trim_start().len();
            start.get_or_insert(offset + lead);
            last_end = offset + content.len();
        }
        offset += line.len();
    }
    if let Some(s) = start {
        out.push((s, last_end));
    }
    out
}

/// A paragraph longer than the target, cut after the last sentence end (or, in a text
/// without any, the last space, or anywhere on a character boundary) within it.
fn cut_long(text: &str, mut start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    while end - start > TARGET_CHARS {
        let mut limit = start + TARGET_CHARS;
        while !text.is_char_boundary(limit) {
            limit -= 1;
        }
        let window = &text[start..limit];
        let cut = sentence_cut(window)
            .or_else(|| window.rfind(char::is_whitespace).filter(|&i| i > 0))
            .map_or(limit, |i| start + i);
        out.push((start, trim_end(text, start, cut)));
        start = cut;
        while start < end && text[start..].starts_with(char::is_whitespace) {
            start += text[start..].chars().next().map_or(1, char::len_utf8);
        }
    }
    if start < end {
        out.push((start, end));
    }
    out
}

/// The byte just after the last sentence end in `window` (past its closing mark), if any
/// is past the first third.
fn sentence_cut(window: &str) -> Option<usize> {
    let mut best = None;
    let mut chars = window.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let after = i + c.len_utf8();
        let ends = matches!(c, '.' | '!' | '?')
            && chars.peek().is_some_and(|(_, n)| n.is_whitespace())
            || matches!(c, '。' | '！' | '？');
        if ends && after > window.len() / 3 {
            best = Some(after);
        }
    }
    best
}

fn trim_end(text: &str, start: usize, end: usize) -> usize {
    start + text[start..end].trim_end().len()
}

#[cfg(test)]
mod tests {
    use super::super::Origin;
    use super::*;

    fn source(text: &str) -> Source {
        Source::new("S1", "T", Origin::Pasted, text).unwrap()
    }

    #[test]
    fn short_paragraphs_join_and_every_word_is_in_a_passage() {
        let s = source("First paragraph.\n\nSecond one.\n\n\nThird.");
        let p = split(&s);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].text(&s), s.text);
        assert_eq!(p[0].label(), "S1 ¶1");
    }

    #[test]
    fn long_paragraphs_are_cut_at_sentence_ends_within_the_target() {
        let sentence = "Congestion pricing cut traffic in the zone by a fifth. ";
        let s = source(&format!("{}\n\n{}", sentence.repeat(60), "Last word."));
        let p = split(&s);
        assert!(p.len() >= 3, "{}", p.len());
        for passage in &p {
            let t = passage.text(&s);
            assert!(t.len() <= TARGET_CHARS, "{}", t.len());
            assert!(t.ends_with('.'), "{t}");
            assert!(!t.starts_with(' '));
        }
        assert_eq!(p.last().unwrap().text(&s), "Last word.");
        assert_eq!(
            p.iter().map(|x| x.number).collect::<Vec<_>>(),
            (1..=p.len()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn text_without_sentence_ends_or_spaces_is_still_cut_on_character_boundaries() {
        let s = source(&"城市应该禁止汽车进入市中心".repeat(200));
        let p = split(&s);
        assert!(p.len() > 1);
        let joined: String = p.iter().map(|x| x.text(&s)).collect();
        assert_eq!(joined, s.text);
    }
}
