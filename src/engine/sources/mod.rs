//! The evidence a debate argues from: the user's documents and pasted text, and evidence
//! added while it runs. Sources stay in the browser with the debate (they ride in its
//! configuration, the first event of the log); they are split into passages, the passages
//! most relevant to a speaking call go into its prompt (`grounding`), and every quote a
//! turn marks is checked word for word against them (`quotes`).

pub mod grounding;
pub mod library;
pub mod passages;
pub mod quotes;
pub mod web;

use serde::{Deserialize, Serialize};

use super::event::{EventKind, Input};

/// Where a source came from, for people and for the exports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Origin {
    /// A file the user picked or dropped, by its name.
    File { name: String },
    /// Text pasted into the form or given to the JS API.
    Pasted,
    /// Evidence added while the debate ran ("Add evidence").
    Evidence,
    /// A page a provider's web search cited (`web`); its text is what the provider
    /// returned of the page's words, if anything.
    Web { url: String },
}

/// One document the debaters may quote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Short and stable within the debate (`S1`, `E1`): prompts, quotes and links name it.
    pub id: String,
    pub title: String,
    pub origin: Origin,
    pub text: String,
}

/// Longest text one source may have: a long report (about 80,000 words). A book is more
/// than a debate's prompts could ever draw on, and a hostile file must not fill memory.
pub const MAX_SOURCE_CHARS: usize = 500_000;
/// Most sources one debate may carry.
pub const MAX_SOURCES: usize = 20;
/// Most text all of them may hold together: a debate with its sources must still import
/// (`export::MAX_IMPORT_BYTES`, 20 MB) in any script.
pub const MAX_TOTAL_CHARS: usize = 2_000_000;
pub const MAX_TITLE_CHARS: usize = 200;

/// Why a source was refused; the message says what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceProblem {
    Empty { title: String },
    TooLong { title: String, chars: usize },
    TooMany,
    SameId { id: String },
    BadId { id: String },
    WebInConfig { id: String },
    TooMuch { chars: usize },
}

impl std::fmt::Display for SourceProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceProblem::Empty { title } => {
                write!(f, "“{title}” has no text to quote.")
            }
            SourceProblem::TooLong { title, chars } => write!(
                f,
                "“{title}” is {chars} characters long; a source may have up to {MAX_SOURCE_CHARS}. Split it, or keep the part the debate is about."
            ),
            SourceProblem::TooMany => {
                write!(f, "A debate may carry up to {MAX_SOURCES} sources.")
            }
            SourceProblem::SameId { id } => write!(f, "Two sources have the id `{id}`."),
            SourceProblem::BadId { id } => write!(
                f,
                "A source's id must be S and a number (E and a number for evidence), not `{id}`."
            ),
            SourceProblem::WebInConfig { id } => write!(
                f,
                "`{id}` claims to be a page a web search cited; those come only from the debate's searches, never from its configuration."
            ),
            SourceProblem::TooMuch { chars } => write!(
                f,
                "The sources hold {chars} characters together; a debate may carry up to {MAX_TOTAL_CHARS}."
            ),
        }
    }
}

impl Source {
    /// A source from the user: its text as given (line breaks normalised), its title
    /// trimmed and bounded, and `id` (`S1`…) given by the caller, who knows the others.
    pub fn new(
        id: impl Into<String>,
        title: &str,
        origin: Origin,
        text: &str,
    ) -> Result<Source, SourceProblem> {
        let title: String = match title.trim() {
            "" => "Untitled source".into(),
            t => t.chars().take(MAX_TITLE_CHARS).collect(),
        };
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        let text = text.trim();
        if text.is_empty() {
            return Err(SourceProblem::Empty { title });
        }
        let chars = text.chars().count();
        if chars > MAX_SOURCE_CHARS {
            return Err(SourceProblem::TooLong { title, chars });
        }
        Ok(Source {
            id: id.into(),
            title,
            origin,
            text: text.to_string(),
        })
    }
}

/// Checks a configuration's sources: each with text, within the limits, ids unique.
pub fn check_all(sources: &[Source]) -> Result<(), SourceProblem> {
    if sources.len() > MAX_SOURCES {
        return Err(SourceProblem::TooMany);
    }
    let mut total = 0;
    for (i, s) in sources.iter().enumerate() {
        if matches!(s.origin, Origin::Web { .. }) {
            return Err(SourceProblem::WebInConfig { id: s.id.clone() });
        }
        Source::new(s.id.clone(), &s.title, s.origin.clone(), &s.text)?;
        let prefix = if s.origin == Origin::Evidence {
            'E'
        } else {
            'S'
        };
        let digits = s.id.strip_prefix(prefix).unwrap_or("");
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(SourceProblem::BadId { id: s.id.clone() });
        }
        if sources[..i].iter().any(|o| o.id == s.id) {
            return Err(SourceProblem::SameId { id: s.id.clone() });
        }
        total += s.text.chars().count();
    }
    if total > MAX_TOTAL_CHARS {
        return Err(SourceProblem::TooMuch { chars: total });
    }
    Ok(())
}

/// The id the `n`th (from 1) source the user gives a debate gets.
pub fn user_id(n: usize) -> String {
    format!("S{n}")
}

/// Evidence added while the debate runs becomes a source too, numbered in the order it
/// arrived (`E1`, `E2`…), so its words can be quoted and checked like a document's. False
/// when it has no text to add.
pub fn add_evidence(sources: &mut Vec<Source>, text: &str) -> bool {
    // The next number no source has taken (a crafted file may have taken one).
    let mut n = 1 + sources
        .iter()
        .filter(|s| s.origin == Origin::Evidence)
        .count();
    while sources.iter().any(|s| s.id == format!("E{n}")) {
        n += 1;
    }
    let title = format!("Evidence {n}");
    match Source::new(format!("E{n}"), &title, Origin::Evidence, text) {
        Ok(source) => {
            sources.push(source);
            true
        }
        Err(_) => false,
    }
}

/// Every source of a recorded debate: its configuration's, then each piece of evidence and
/// each page a web search cited, in the order they arrived.
pub fn of_log(events: &[super::event::Event]) -> Vec<Source> {
    let mut out = Vec::new();
    for e in events {
        match &e.kind {
            EventKind::DebateStarted { config, .. } => out.extend(config.sources.iter().cloned()),
            EventKind::InputReceived {
                input: Input::Evidence { text },
                ..
            } => {
                add_evidence(&mut out, text);
            }
            EventKind::WebSearched { web, .. } => {
                web::add_web(&mut out, &web.citations);
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_keeps_its_words_and_normalises_line_breaks() {
        let s = Source::new("S1", "  Report ", Origin::Pasted, "One.\r\nTwo.\rThree.\n").unwrap();
        assert_eq!(s.title, "Report");
        assert_eq!(s.text, "One.\nTwo.\nThree.");
    }

    #[test]
    fn ids_are_checked_and_evidence_never_takes_one_in_use() {
        let s = |id: &str, origin: Origin| Source::new(id, "T", origin, "text").unwrap();
        assert!(check_all(&[s("S1", Origin::Pasted), s("S2", Origin::Pasted)]).is_ok());
        for bad in [
            vec![s("E1", Origin::Pasted)],
            vec![s("s1", Origin::Pasted)],
            vec![s("S1\"", Origin::Pasted)],
            vec![s("S1", Origin::Evidence)],
        ] {
            assert!(
                matches!(check_all(&bad), Err(SourceProblem::BadId { .. })),
                "{bad:?}"
            );
        }
        assert!(matches!(
            check_all(&[s("S1", Origin::Pasted), s("S1", Origin::Pasted)]),
            Err(SourceProblem::SameId { .. })
        ));
        let big = "a".repeat(MAX_SOURCE_CHARS);
        let many: Vec<Source> = (1..=5)
            .map(|i| Source::new(user_id(i), "Big", Origin::Pasted, &big).unwrap())
            .collect();
        assert!(matches!(
            check_all(&many),
            Err(SourceProblem::TooMuch { .. })
        ));
        let mut sources = vec![s("E1", Origin::Evidence)];
        sources[0].origin = Origin::Pasted; // as a crafted file might have it
        assert!(add_evidence(&mut sources, "more"));
        assert_eq!(sources[1].id, "E2");
    }

    #[test]
    fn empty_and_oversized_sources_are_refused_with_their_title() {
        let empty = Source::new("S1", "Notes", Origin::Pasted, "  \n ").unwrap_err();
        assert_eq!(empty.to_string(), "“Notes” has no text to quote.");
        let big = "a".repeat(MAX_SOURCE_CHARS + 1);
        let e = Source::new("S1", "Dump", Origin::Pasted, &big).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("“Dump” is 500001 characters long"),
            "{e}"
        );
    }

    #[test]
    fn a_configuration_never_carries_a_web_page_as_a_source() {
        let forged = Source {
            id: "S1".into(),
            title: "Click me".into(),
            origin: Origin::Web {
                url: "javascript:alert(1)".into(),
            },
            text: "words".into(),
        };
        let e = check_all(&[forged]).unwrap_err();
        assert_eq!(e, SourceProblem::WebInConfig { id: "S1".into() });
        assert!(e.to_string().contains("only from the debate's searches"));
    }
}
