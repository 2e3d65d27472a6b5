//! What model-written Markdown may link to. Model output is untrusted: a link is kept only
//! for http, https and mailto, so `javascript:` or `data:` URLs never become live links.

pub fn safe_href(url: &str) -> Option<&str> {
    let u = url.trim();
    let lower = u.to_ascii_lowercase();
    let ok = lower.starts_with("https://")
        || lower.starts_with("http://")
        || lower.starts_with("mailto:");
    // Control characters could hide a scheme from a naive check.
    (ok && !u.chars().any(|c| c.is_control())).then_some(u)
}

#[cfg(test)]
mod tests {
    use super::safe_href;

    #[test]
    fn only_web_and_mail_links_survive() {
        assert_eq!(
            safe_href("https://example.org/a?b"),
            Some("https://example.org/a?b")
        );
        assert_eq!(safe_href(" HTTP://x.org "), Some("HTTP://x.org"));
        assert_eq!(safe_href("mailto:a@b.c"), Some("mailto:a@b.c"));
        for bad in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "data:text/html,<b>",
            "vbscript:x",
            "/relative",
            "#frag",
            "https://x.org/a\u{7}b",
        ] {
            assert_eq!(safe_href(bad), None, "{bad}");
        }
    }
}

/// A piece of inline text: plain, or a link (with its safe target, if it has one).
#[derive(Debug, PartialEq, Eq)]
pub enum Inline<'a> {
    Text(&'a str),
    Link {
        text: &'a str,
        href: Option<&'a str>,
        image: bool,
    },
}

/// The next match of a search at or after a position, for positions that never move back.
/// A search starts past the previous match (or is not needed), so each byte is scanned at
/// most once per search kind.
struct Next<'a, F> {
    s: &'a str,
    find: F,
    /// The last search: where it started and what it found (`None`: nothing up to the end).
    last: Option<(usize, Option<usize>)>,
}

impl<'a, F: Fn(&str) -> Option<usize>> Next<'a, F> {
    fn new(s: &'a str, find: F) -> Self {
        Next {
            s,
            find,
            last: None,
        }
    }

    fn from(&mut self, pos: usize) -> Option<usize> {
        match self.last {
            Some((start, found)) if start <= pos && found.is_none_or(|f| f >= pos) => found,
            _ => {
                let found = (self.find)(&self.s[pos..]).map(|k| pos + k);
                self.last = Some((pos, found));
                found
            }
        }
    }
}

/// Splits text into plain runs and links: `[text](url)`, `![alt](url)`, `<https://…>` and
/// bare `http(s)://` URLs. Targets pass through `safe_href`; an unsafe one keeps its text
/// but loses the link. Linear in the text's length: every search for a closing `](`, `)`,
/// `>`, line break or URL end resumes where the last one stopped.
pub fn split_links(s: &str) -> Vec<Inline<'_>> {
    let mut out = Vec::new();
    let mut plain_start = 0;
    let mut i = 0;
    let mut close_bracket = Next::new(s, |r: &str| r.find("]("));
    let mut close_paren = Next::new(s, |r: &str| r.find(')'));
    let mut close_angle = Next::new(s, |r: &str| r.find('>'));
    let mut newline = Next::new(s, |r: &str| r.find('\n'));
    let mut url_end = Next::new(s, |r: &str| {
        r.find(|c: char| c.is_whitespace() || c == '<' || c == '"')
    });
    while i < s.len() {
        let rest = &s[i..];
        let found: Option<(usize, Inline)> = if rest.starts_with('[') || rest.starts_with("![") {
            let image = rest.starts_with('!');
            let open = i + if image { 2 } else { 1 };
            close_bracket.from(open).and_then(|close| {
                if newline.from(open).is_some_and(|n| n < close) {
                    return None;
                }
                let end = close_paren.from(close + 2)?;
                let target = s[close + 2..end].split_whitespace().next().unwrap_or("");
                Some((
                    end + 1 - i,
                    Inline::Link {
                        text: &s[open..close],
                        href: safe_href(target),
                        image,
                    },
                ))
            })
        } else if rest.starts_with("<http://") || rest.starts_with("<https://") {
            close_angle.from(i).map(|end| {
                let inner = &s[i + 1..end];
                (
                    end + 1 - i,
                    Inline::Link {
                        text: inner,
                        href: safe_href(inner),
                        image: false,
                    },
                )
            })
        } else if rest.starts_with("http://") || rest.starts_with("https://") {
            let end = url_end.from(i).unwrap_or(s.len());
            // Sentence punctuation after a URL is not part of it.
            let url = s[i..end].trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '\'']);
            (url.len() > 8).then(|| {
                (
                    url.len(),
                    Inline::Link {
                        text: url,
                        href: safe_href(url),
                        image: false,
                    },
                )
            })
        } else {
            None
        };
        match found {
            Some((len, link)) => {
                if plain_start < i {
                    out.push(Inline::Text(&s[plain_start..i]));
                }
                out.push(link);
                i += len;
                plain_start = i;
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    if plain_start < s.len() {
        out.push(Inline::Text(&s[plain_start..]));
    }
    out
}

#[cfg(test)]
mod link_tests {
    use super::{split_links, Inline::*};

    #[test]
    fn finds_links_and_keeps_the_text_of_unsafe_ones() {
        assert_eq!(
            split_links("See [the study](https://ex.org/s \"t\"), or https://ex.org/b. Not [this](javascript:alert(1)) ![pic](https://ex.org/p.png) <https://ex.org/c>"),
            vec![
                Text("See "),
                Link { text: "the study", href: Some("https://ex.org/s"), image: false },
                Text(", or "),
                Link { text: "https://ex.org/b", href: Some("https://ex.org/b"), image: false },
                Text(". Not "),
                Link { text: "this", href: None, image: false },
                Text(")"),
                Text(" "),
                Link { text: "pic", href: Some("https://ex.org/p.png"), image: true },
                Text(" "),
                Link { text: "https://ex.org/c", href: Some("https://ex.org/c"), image: false },
            ]
            .into_iter()
            .fold(Vec::new(), |mut v: Vec<_>, x| {
                // Adjacent text runs are equivalent to one; compare merged.
                if let (Some(Text(a)), Text(b)) = (v.last(), &x) {
                    let merged: &'static str = Box::leak(format!("{a}{b}").into_boxed_str());
                    v.pop();
                    v.push(Text(merged));
                } else {
                    v.push(x);
                }
                v
            })
        );
        assert_eq!(
            split_links("no links, [just] brackets é"),
            vec![Text("no links, [just] brackets é")]
        );
    }

    /// Texts that made the old splitter rescan to the end from every bracket, angle bracket
    /// or URL start: with a linear splitter each takes milliseconds, with a quadratic one
    /// minutes.
    #[test]
    fn long_texts_without_closing_marks_split_correctly() {
        let n = 200_000;
        for (unit, what) in [
            ("[", "brackets without a closing `](`"),
            ("[a](", "links without a closing `)`"),
            ("![a\n](", "link texts cut by a line break"),
            ("<http://a ", "angle links without a `>`"),
        ] {
            let text = unit.repeat(n / unit.len());
            assert_eq!(split_links(&text), vec![Text(&text[..])], "{what}");
        }
        // A long text of many real links, each found, in order, with the text between.
        let piece = "see [doc](https://ex.org/d) and https://ex.org/u, ";
        let text = piece.repeat(n / piece.len());
        let parts = split_links(&text);
        assert_eq!(parts.len(), 4 * (n / piece.len()) + 1);
        assert_eq!(
            parts[..5],
            [
                Text("see "),
                Link {
                    text: "doc",
                    href: Some("https://ex.org/d"),
                    image: false
                },
                Text(" and "),
                Link {
                    text: "https://ex.org/u",
                    href: Some("https://ex.org/u"),
                    image: false
                },
                Text(", see "),
            ]
        );
        assert_eq!(parts.last(), Some(&Text(", ")));
    }
}
