//! What a provider's web search brought to a turn: the pages it cited, each a link under the
//! turn and a source of the debate (`W1`, `W2`…) that later calls can quote. Provider
//! answers are untrusted: only http(s) addresses are kept, every field is bounded, and a
//! page is never loaded by Agora (a person may follow its link).

use serde::{Deserialize, Serialize};

use super::{Origin, Source};

/// Longest address kept; longer ones are dropped, not cut (a cut address leads elsewhere).
pub const MAX_URL_CHARS: usize = 2_000;
/// Most of a page's words one turn's citations keep for it.
pub const MAX_CITED_CHARS: usize = 4_000;
/// Most pages one turn cites that are kept.
pub const MAX_CITATIONS: usize = 20;
/// Most pages a debate keeps as sources; later citations still show under their turn.
pub const MAX_WEB_SOURCES: usize = 100;

/// One page a search cited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Citation {
    pub url: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// The page's own words as the provider returned them (Anthropic's `cited_text`,
    /// OpenRouter's `content`); empty when it returns only the address (OpenAI, Gemini).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cited_text: String,
}

/// A turn's web search: what it cited, and why it did not search when it could not.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebSearch {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub citations: Vec<Citation>,
    /// Why the search failed or never ran; the turn was written without it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub failed: String,
}

/// An address a page may be linked by: http or https with a host, not too long, and none of
/// the characters an address must percent-encode (whitespace, controls, `<>"` and the like),
/// so it can be written into Markdown or an attribute as it is.
pub fn is_web_address(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return false;
    };
    url.chars().count() <= MAX_URL_CHARS
        && !rest.is_empty()
        && !rest.starts_with('/')
        && !url
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "<>\"`\\{}|^".contains(c))
}

/// One line of plain text, bounded: a title or a cited passage as a provider sent it.
fn clean(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let words: Vec<&str> = flat.split_whitespace().collect();
    words.join(" ").chars().take(max).collect()
}

impl Citation {
    /// A citation as a provider reported it, or `None` when its address is not a web page's.
    pub fn new(url: &str, title: &str, cited_text: &str) -> Option<Citation> {
        let url = url.trim();
        is_web_address(url).then(|| Citation {
            url: url.to_string(),
            title: clean(title, super::MAX_TITLE_CHARS),
            cited_text: clean(cited_text, MAX_CITED_CHARS),
        })
    }

    /// The page's host, for a link's label when the provider gave no title.
    pub fn host(&self) -> &str {
        let rest = self.url.split_once("://").map_or("", |(_, r)| r);
        let host = rest.split(['/', '?', '#']).next().unwrap_or(rest);
        host.rsplit('@').next().unwrap_or(host)
    }

    pub fn label(&self) -> &str {
        if self.title.is_empty() {
            self.host()
        } else {
            &self.title
        }
    }
}

impl WebSearch {
    /// A search that did not happen, with why.
    pub fn failed(why: impl Into<String>) -> Self {
        WebSearch {
            citations: Vec::new(),
            failed: why.into(),
        }
    }

    /// Adds a page; the same address cited again keeps one entry, with each new passage
    /// of its words added (up to the bound) and the first title it was given.
    pub fn cite(&mut self, c: Citation) {
        if let Some(have) = self.citations.iter_mut().find(|h| h.url == c.url) {
            merge(have, &c);
        } else if self.citations.len() < MAX_CITATIONS {
            self.citations.push(c);
        }
    }

    /// The same search with every citation checked again, as from a provider: a log or a
    /// file may have been written by anything, and only its web pages are linked.
    pub fn checked(&self) -> WebSearch {
        let mut out = WebSearch {
            citations: Vec::new(),
            failed: clean(&self.failed, 500),
        };
        for c in &self.citations {
            if let Some(c) = Citation::new(&c.url, &c.title, &c.cited_text) {
                out.cite(c);
            }
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.citations.is_empty() && self.failed.is_empty()
    }
}

fn merge(have: &mut Citation, new: &Citation) {
    if have.title.is_empty() {
        have.title.clone_from(&new.title);
    }
    let text = new.cited_text.as_str();
    if !text.is_empty() && !have.cited_text.contains(text) {
        let joined = if have.cited_text.is_empty() {
            text.to_string()
        } else {
            format!("{}\n\n{text}", have.cited_text)
        };
        have.cited_text = joined.chars().take(MAX_CITED_CHARS).collect();
    }
}

/// The cited pages become sources of the debate, numbered in the order first cited (`W1`,
/// `W2`…); a page cited again is the same source, its new words added. True when the
/// sources changed.
pub fn add_web(sources: &mut Vec<Source>, citations: &[Citation]) -> bool {
    let mut changed = false;
    for c in citations {
        let Some(c) = &Citation::new(&c.url, &c.title, &c.cited_text) else {
            continue;
        };
        let found = sources
            .iter_mut()
            .find(|s| matches!(&s.origin, Origin::Web { url } if *url == c.url));
        if let Some(s) = found {
            let mut have = Citation {
                url: c.url.clone(),
                title: s.title.clone(),
                cited_text: s.text.clone(),
            };
            merge(&mut have, c);
            if have.cited_text != s.text {
                s.text = have.cited_text;
                changed = true;
            }
            continue;
        }
        let web = sources
            .iter()
            .filter(|s| matches!(s.origin, Origin::Web { .. }))
            .count();
        if web >= MAX_WEB_SOURCES {
            break;
        }
        let mut n = web + 1;
        while sources.iter().any(|s| s.id == format!("W{n}")) {
            n += 1;
        }
        sources.push(Source {
            id: format!("W{n}"),
            title: c.label().to_string(),
            origin: Origin::Web { url: c.url.clone() },
            text: c.cited_text.clone(),
        });
        changed = true;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_pages_are_kept_and_their_text_is_one_bounded_line() {
        assert!(Citation::new("javascript:alert(1)", "x", "").is_none());
        assert!(Citation::new("data:text/html,<b>", "x", "").is_none());
        assert!(Citation::new("https://", "x", "").is_none());
        assert!(Citation::new("https:///path", "x", "").is_none());
        assert!(Citation::new("https://a.example/ b", "x", "").is_none());
        assert!(Citation::new("https://a.example/\"><script>", "x", "").is_none());
        let long = format!("https://a.example/{}", "x".repeat(MAX_URL_CHARS));
        assert!(Citation::new(&long, "x", "").is_none());
        let c = Citation::new(
            " HTTPS://a.example/p?q=1 ",
            "A\n\ttitle\u{0}",
            "said\r\nthis",
        )
        .unwrap();
        assert_eq!(c.url, "HTTPS://a.example/p?q=1");
        assert_eq!(c.title, "A title");
        assert_eq!(c.cited_text, "said this");
        assert_eq!(c.host(), "a.example");
        let untitled = Citation::new("http://user@b.example:8080/x", "", "").unwrap();
        assert_eq!(untitled.label(), "b.example:8080");
    }

    #[test]
    fn a_page_cited_twice_is_one_citation_and_one_source_with_both_passages() {
        let mut w = WebSearch::default();
        w.cite(Citation::new("https://a.example/", "A", "first words").unwrap());
        w.cite(Citation::new("https://a.example/", "", "second words").unwrap());
        w.cite(Citation::new("https://a.example/", "", "first words").unwrap());
        w.cite(Citation::new("https://b.example/", "", "").unwrap());
        assert_eq!(w.citations.len(), 2);
        assert_eq!(w.citations[0].cited_text, "first words\n\nsecond words");

        let mut sources = vec![Source {
            id: "S1".into(),
            title: "Report".into(),
            origin: Origin::Pasted,
            text: "words".into(),
        }];
        assert!(add_web(&mut sources, &w.citations));
        let ids: Vec<&str> = sources.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["S1", "W1", "W2"]);
        assert_eq!(
            sources[2].title, "b.example",
            "an untitled page goes by its host"
        );
        assert!(
            !add_web(&mut sources, &w.citations),
            "cited again, nothing new"
        );
        let more = [Citation::new("https://b.example/", "B", "now with words").unwrap()];
        assert!(add_web(&mut sources, &more));
        assert_eq!(sources.len(), 3);
        assert_eq!(sources[2].text, "now with words");
    }

    #[test]
    fn a_debate_keeps_a_bounded_number_of_pages() {
        let mut sources = Vec::new();
        let many: Vec<Citation> = (0..MAX_WEB_SOURCES + 5)
            .map(|i| Citation::new(&format!("https://p{i}.example/"), "", "").unwrap())
            .collect();
        add_web(&mut sources, &many);
        assert_eq!(sources.len(), MAX_WEB_SOURCES);
        assert_eq!(sources.last().unwrap().id, format!("W{MAX_WEB_SOURCES}"));
    }

    #[test]
    fn a_search_read_from_a_file_keeps_only_web_pages() {
        let forged = WebSearch {
            citations: vec![
                Citation {
                    url: "javascript:alert(1)".into(),
                    title: "x".into(),
                    cited_text: String::new(),
                },
                Citation {
                    url: "https://ok.example/".into(),
                    title: "Ok\n".into(),
                    cited_text: String::new(),
                },
            ],
            failed: String::new(),
        };
        let w = forged.checked();
        assert_eq!(w.citations.len(), 1);
        assert_eq!(w.citations[0].title, "Ok");
        let mut sources = Vec::new();
        add_web(&mut sources, &forged.citations);
        assert_eq!(sources.len(), 1, "a forged address never becomes a source");
    }
}
