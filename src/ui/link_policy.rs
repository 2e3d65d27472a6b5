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

/// Splits text into plain runs and links: `[text](url)`, `![alt](url)`, `<https://…>` and
/// bare `http(s)://` URLs. Targets pass through `safe_href`; an unsafe one keeps its text
/// but loses the link.
pub fn split_links(s: &str) -> Vec<Inline<'_>> {
    let mut out = Vec::new();
    let mut plain_start = 0;
    let mut i = 0;
    let bytes = s.as_bytes();
    while i < bytes.len() {
        let rest = &s[i..];
        let found: Option<(usize, Inline)> = if rest.starts_with('[') || rest.starts_with("![") {
            let image = rest.starts_with('!');
            let open = if image { 2 } else { 1 };
            rest.find("](").and_then(|close| {
                let text = &rest[open..close];
                if text.contains('\n') || close < open {
                    return None;
                }
                let after = &rest[close + 2..];
                after.find(')').map(|end| {
                    let target = after[..end].split_whitespace().next().unwrap_or("");
                    (
                        close + 2 + end + 1,
                        Inline::Link {
                            text,
                            href: safe_href(target),
                            image,
                        },
                    )
                })
            })
        } else if rest.starts_with("<http://") || rest.starts_with("<https://") {
            rest.find('>').map(|end| {
                (
                    end + 1,
                    Inline::Link {
                        text: &rest[1..end],
                        href: safe_href(&rest[1..end]),
                        image: false,
                    },
                )
            })
        } else if rest.starts_with("http://") || rest.starts_with("https://") {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '<' || c == '"')
                .unwrap_or(rest.len());
            // Sentence punctuation after a URL is not part of it.
            let url = rest[..end].trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '\'']);
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
}
