//! Quotes checked word for word. A debater marks a quote `<quote>…</quote>` (the form the
//! prompts teach, after Khan et al., 2024); after the turn every marked quote is looked up
//! in the debate's sources. It is **verified** when its text occurs in one of them after
//! normalising what typing and typesetting change without changing the words: runs of
//! whitespace and line breaks, curly and straight quote marks, the kinds of dash (and the
//! spaces around one), invisible characters, and letter case. An ellipsis inside a quote
//! (`…`, `...`, `[…]`) stands for words left out: the parts must occur in that order in
//! one source. Anything else is **not found**; a different word is never forgiven.

use super::library::Library;

/// A quote as a turn marked it: the byte range of its words in the turn's text, and where
/// its opening tag starts (a tag may carry attributes: they are never believed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marked {
    pub tag: usize,
    pub start: usize,
    pub end: usize,
}

/// Where a verified quote is: a byte range of a source's text, and the passage it starts in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub source: String,
    pub passage: usize,
    pub start: usize,
    pub end: usize,
}

impl Found {
    /// `S1 ¶3`, as prompts and the screen name the passage.
    pub fn label(&self) -> String {
        format!("{} ¶{}", self.source, self.passage)
    }
}

/// One marked quote and what the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The quote's words as the turn gave them.
    pub text: String,
    /// Its place in the turn.
    pub marked: Marked,
    /// Where it occurs, when it does.
    pub found: Option<Found>,
}

impl Checked {
    pub fn verified(&self) -> bool {
        self.found.is_some()
    }
}

const OPEN: &str = "<quote";
const CLOSE: &str = "</quote>";

/// The byte just past the opening tag that starts at `at` in `lower` (`<quote>`, or
/// `<quote …>` with attributes, such as a status a model copied from a prompt), if one does.
fn tag_end(lower: &str, at: usize) -> Option<usize> {
    let rest = &lower[at + OPEN.len()..];
    match rest.chars().next()? {
        '>' => Some(at + OPEN.len() + 1),
        c if c.is_ascii_whitespace() => {
            let close = rest.find('>')?;
            // An attribute list on one line, with no other tag inside.
            (!rest[..close].contains(['<', '\n'])).then_some(at + OPEN.len() + close + 1)
        }
        _ => None,
    }
}

/// The quotes a turn marks, in order. An opening tag with no closing one (a turn cut off
/// mid-quote) marks nothing, and neither does an empty pair; when a second quote opens
/// before the first closes, the first was cut off and the second is the quote. Whatever
/// attributes an opening tag carries are ignored: every quote is checked afresh.
pub fn marked(text: &str) -> Vec<Marked> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = lower[from..].find(OPEN) {
        let at = from + found;
        let Some(mut start) = tag_end(&lower, at) else {
            from = at + OPEN.len();
            continue;
        };
        let mut tag = at;
        let Some(close) = lower[start..].find(CLOSE) else {
            break;
        };
        let mut end = start + close;
        // The last opening tag before this close is the quote's own.
        let mut scan = start;
        while let Some(next) = lower[scan..end].find(OPEN) {
            let next = scan + next;
            if let Some(s) = tag_end(&lower, next).filter(|s| *s <= end) {
                tag = next;
                start = s;
            }
            scan = next + OPEN.len();
        }
        if !text[start..end].trim().is_empty() {
            out.push(Marked { tag, start, end });
        }
        end += CLOSE.len();
        from = end;
    }
    out
}

/// `text` for a plain-text view (a forecast's argument in its panel): each marked quote
/// between typographic quotation marks instead of its tags.
pub fn as_plain_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for m in marked(text) {
        out.push_str(&text[at..m.tag]);
        out.push('“');
        out.push_str(text[m.start..m.end].trim());
        out.push('”');
        at = m.end + CLOSE.len();
    }
    out.push_str(&text[at..]);
    out
}

/// Checks every quote `text` marks against the library's sources (without sources,
/// nothing a turn marks can be found).
pub fn check(text: &str, library: Option<&Library>) -> Vec<Checked> {
    marked(text)
        .into_iter()
        .map(|m| {
            let words = &text[m.start..m.end];
            Checked {
                text: words.trim().to_string(),
                found: library.and_then(|l| find(words, l)),
                marked: m,
            }
        })
        .collect()
}

/// The turn's text with each quote's status in its tag, as later prompts carry it:
/// `<quote status="verified" passage="S1 ¶3">…</quote>` or `<quote status="not found">`.
pub fn with_status(text: &str, checks: &[Checked]) -> String {
    let mut out = String::with_capacity(text.len() + checks.len() * 40);
    let mut at = 0;
    for c in checks {
        out.push_str(&unclaimed(&text[at..c.marked.tag]));
        match &c.found {
            Some(f) => out.push_str(&format!(
                "<quote status=\"verified\" passage=\"{}\">",
                f.label()
            )),
            None => out.push_str("<quote status=\"not found\">"),
        }
        out.push_str(&text[c.marked.start..c.marked.end]);
        at = c.marked.end;
    }
    out.push_str(&unclaimed(&text[at..]));
    out
}

/// Text outside the checked quotes with any opening tag's attributes taken out, so a
/// quote left unclosed cannot carry a status its writer gave it.
fn unclaimed(text: &str) -> std::borrow::Cow<'_, str> {
    let lower = text.to_ascii_lowercase();
    let mut out = String::new();
    let mut at = 0;
    let mut from = 0;
    while let Some(found) = lower[from..].find(OPEN) {
        let tag = from + found;
        from = tag + OPEN.len();
        if let Some(end) = tag_end(&lower, tag).filter(|&e| e > tag + OPEN.len() + 1) {
            out.push_str(&text[at..tag]);
            out.push_str("<quote>");
            at = end;
            from = end;
        }
    }
    if at == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[at..]);
    std::borrow::Cow::Owned(out)
}

/// Where `quote` occurs in the library's sources, the first source that has it.
fn find(quote: &str, library: &Library) -> Option<Found> {
    let parts = fragments(&Folded::of(quote).text);
    if parts.is_empty() {
        return None;
    }
    library
        .sources
        .iter()
        .zip(library.folded())
        .find_map(|(source, folded)| {
            let (first, last) = locate(&folded.text, &parts)?;
            let start = folded.original_start(first);
            let end = folded.original_end(last);
            let passage = library
                .passages
                .iter()
                .filter(|p| p.source == source.id && p.start <= start)
                .map(|p| p.number)
                .next_back()
                .unwrap_or(1);
            Some(Found {
                source: source.id.clone(),
                passage,
                start,
                end,
            })
        })
}

/// The most text an ellipsis may stand for, in folded bytes: words left out within a
/// passage or two, not a leap from one part of a document to another.
const MAX_GAP: usize = 600;

/// Where the parts of a quote occur in order in `hay` (each whole words, each within
/// `MAX_GAP` of the one before): the start of the first and the end of the last.
fn locate(hay: &str, parts: &[String]) -> Option<(usize, usize)> {
    let (head, rest) = parts.split_first()?;
    'first: for (at, _) in hay.match_indices(head.as_str()) {
        if !whole(hay, at, head) {
            continue;
        }
        let mut end = at + head.len();
        for part in rest {
            let upper = floor_boundary(hay, (end + MAX_GAP + part.len()).min(hay.len()));
            let window = &hay[end..upper];
            let Some(found) = window
                .match_indices(part.as_str())
                .map(|(i, _)| end + i)
                .find(|&i| whole(hay, i, part))
            else {
                continue 'first;
            };
            end = found + part.len();
        }
        return Some((at, end));
    }
    None
}

/// The largest char boundary of `s` at or below `i`.
fn floor_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A word's letter or digit, in a script written with spaces between words.
fn wordy(c: char) -> bool {
    c.is_alphanumeric() && !super::library::unspaced(c)
}

/// `part` at `at` in `hay` is whole words: it neither starts inside a word nor ends inside
/// one ("possible" is not found in "impossible", "20 percent" not in "120 percent").
fn whole(hay: &str, at: usize, part: &str) -> bool {
    let starts_inside =
        part.chars().next().is_some_and(wordy) && hay[..at].chars().next_back().is_some_and(wordy);
    let ends_inside = part.chars().next_back().is_some_and(wordy)
        && hay[at + part.len()..].chars().next().is_some_and(wordy);
    !starts_inside && !ends_inside
}

/// The parts of a folded quote between ellipses, each trimmed of the spaces, quotation
/// marks and sentence punctuation a quoter adds at its edges.
fn fragments(folded: &str) -> Vec<String> {
    folded
        .replace("[...]", "...")
        .replace("(...)", "...")
        .split("...")
        .map(|p| {
            p.trim_matches(|c: char| c == ' ' || c == '"' || c == '\'' || ".,;:!?".contains(c))
                .to_string()
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// Text in the form quotes are compared in, with where each folded character came from.
pub struct Folded {
    pub text: String,
    /// For each character of `text`: its byte offset there, and the byte range in the
    /// original it came from.
    map: Vec<(usize, usize, usize)>,
}

impl Folded {
    pub fn of(original: &str) -> Folded {
        let mut f = Folded {
            text: String::with_capacity(original.len()),
            map: Vec::with_capacity(original.len()),
        };
        // A space seen but not yet written (it is dropped at the ends and beside a dash).
        let mut space: Option<(usize, usize)> = None;
        let mut after_dash = false;
        for (i, c) in original.char_indices() {
            let range = (i, i + c.len_utf8());
            if c.is_whitespace() {
                if space.is_none() && !f.text.is_empty() && !after_dash {
                    space = Some(range);
                }
                continue;
            }
            match c {
                '\u{00AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => {
                    continue
                }
                '-'
                | '\u{2010}'..='\u{2015}'
                | '\u{2212}'
                | '\u{FE58}'
                | '\u{FE63}'
                | '\u{FF0D}' => {
                    space = None;
                    if !after_dash {
                        f.push('-', range);
                    }
                    after_dash = true;
                    continue;
                }
                _ => {}
            }
            if let Some(r) = space.take() {
                f.push(' ', r);
            }
            after_dash = false;
            match c {
                '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '`'
                | '\u{00B4}' => f.push('\'', range),
                '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}'
                | '\u{00BB}' => f.push('"', range),
                '\u{2026}' => "...".chars().for_each(|d| f.push(d, range)),
                c => c.to_lowercase().for_each(|l| f.push(l, range)),
            }
        }
        f
    }

    fn push(&mut self, c: char, (from, to): (usize, usize)) {
        self.map.push((self.text.len(), from, to));
        self.text.push(c);
    }

    /// The original byte where the folded character at byte `at` came from.
    fn original_start(&self, at: usize) -> usize {
        let i = self.map.partition_point(|m| m.0 < at);
        self.map.get(i).map_or(0, |m| m.1)
    }

    /// The original byte just after the folded character that ends before byte `at`.
    fn original_end(&self, at: usize) -> usize {
        let i = self.map.partition_point(|m| m.0 < at);
        i.checked_sub(1)
            .and_then(|i| self.map.get(i))
            .map_or(0, |m| m.2)
    }
}

#[cfg(test)]
mod tests;
