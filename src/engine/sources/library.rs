//! A debate's sources ready for use: split into passages, indexed, and folded for quote
//! checks. Which passages a call gets: BM25 over every passage of the debate's sources (the
//! `bm25` crate's scorer) with our own tokenizer (`Words`). The crate's default tokenizer
//! stems and drops stop words in some twenty languages, and its tables cost about 275 KB of
//! the first download (gzipped, measured): more than the rest of this feature. Plain words
//! rank the passages a speech needs well enough (the tests below).

use bm25::{SearchEngine, SearchEngineBuilder, Tokenizer};

use super::passages::{split, Passage};
use super::quotes::Folded;
use super::Source;

/// The passages of a debate's sources and their index.
pub struct Library {
    pub sources: Vec<Source>,
    pub passages: Vec<Passage>,
    /// Built on the first ranking: the screen's copy (`LogView`) only checks quotes and
    /// never needs it.
    engine: std::sync::OnceLock<SearchEngine<usize, u32, Words>>,
    /// Each source's text as quotes are compared with it.
    folded: Vec<Folded>,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids: Vec<&str> = self.sources.iter().map(|s| s.id.as_str()).collect();
        write!(f, "Library({ids:?}, {} passages)", self.passages.len())
    }
}

impl Library {
    pub fn new(sources: Vec<Source>) -> Library {
        let passages: Vec<Passage> = sources.iter().flat_map(split).collect();
        let folded = sources.iter().map(|s| Folded::of(&s.text)).collect();
        Library {
            sources,
            passages,
            engine: std::sync::OnceLock::new(),
            folded,
        }
    }

    /// The passages' BM25 index.
    fn engine(&self) -> &SearchEngine<usize, u32, Words> {
        self.engine.get_or_init(|| {
            let docs = self
                .passages
                .iter()
                .enumerate()
                .map(|(i, p)| bm25::Document::new(i, self.text(p)));
            SearchEngineBuilder::<usize, u32, Words>::with_tokenizer_and_documents(Words, docs)
                .build()
        })
    }

    pub fn folded(&self) -> &[Folded] {
        &self.folded
    }

    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    pub fn source(&self, id: &str) -> Option<&Source> {
        self.sources.iter().find(|s| s.id == id)
    }

    pub fn text(&self, p: &Passage) -> &str {
        self.source(&p.source).map_or("", |s| p.text(s))
    }

    /// Every passage, the most relevant to `query` first (ties in reading order), then
    /// those that share no word with it, in reading order: a call whose query matches
    /// nothing still gets the start of each source.
    pub fn ranked(&self, query: &str) -> Vec<&Passage> {
        // A call's prompt can be the whole debate: its distinct words, the first few
        // hundred, say what it is about, at a bounded cost per passage.
        let mut words: Vec<String> = Words.tokenize(query);
        let mut seen = std::collections::HashSet::new();
        words.retain(|w| seen.insert(w.clone()));
        words.truncate(MAX_QUERY_WORDS);
        let mut hits: Vec<(usize, f32)> = self
            .engine()
            .search(&words.join(" "), None)
            .into_iter()
            .map(|r| (r.document.id, r.score))
            .filter(|(_, score)| *score > 0.0)
            .collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut seen = vec![false; self.passages.len()];
        let mut out = Vec::with_capacity(self.passages.len());
        for (i, _) in hits {
            seen[i] = true;
            out.push(&self.passages[i]);
        }
        // The rest by their place in a source, so each source's opening comes first.
        let mut rest: Vec<usize> = (0..self.passages.len()).filter(|i| !seen[*i]).collect();
        rest.sort_by_key(|&i| (self.passages[i].number, i));
        out.extend(rest.into_iter().map(|i| &self.passages[i]));
        out
    }
}

/// The most distinct words of a query that rank the passages.
const MAX_QUERY_WORDS: usize = 300;

/// Words for ranking: letters and digits lowercased, English's commonest function words
/// left out; in scripts written without spaces (Chinese, Japanese, Thai…) each pair of
/// neighbouring characters, which is how such text is usually indexed without a dictionary.
#[derive(Clone, Copy, Default)]
pub struct Words;

const STOP: [&str; 40] = [
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "did", "do", "does", "for", "from",
    "had", "has", "have", "he", "in", "is", "it", "its", "of", "on", "or", "she", "that", "the",
    "their", "they", "this", "to", "was", "we", "were", "what", "which", "who", "will", "with",
];

/// A character of a script written without spaces between words.
pub(super) fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF
        | 0xAC00..=0xD7AF | 0x0E00..=0x0E7F | 0x0E80..=0x0EFF | 0x1000..=0x109F)
}

impl Tokenizer for Words {
    fn tokenize(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for word in text.split(|c: char| !c.is_alphanumeric()) {
            if word.is_empty() {
                continue;
            }
            if word.chars().any(unspaced) {
                let chars: Vec<char> = word.chars().flat_map(char::to_lowercase).collect();
                if chars.len() == 1 {
                    out.push(chars[0].to_string());
                }
                out.extend(chars.windows(2).map(|w| w.iter().collect::<String>()));
                continue;
            }
            let w = word.to_lowercase();
            if !STOP.contains(&w.as_str()) {
                out.push(w);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::Origin;
    use super::*;

    fn corpus() -> Library {
        let s = |id: &str, title: &str, text: &str| {
            Source::new(id, title, Origin::Pasted, text).unwrap()
        };
        let filler =
            "Nothing in this paragraph bears on any question a debate might ask. ".repeat(18);
        Library::new(vec![
            s(
                "S1",
                "Stockholm trial",
                &format!(
                    "{filler}\n\nThe congestion charge cut traffic across the cordon by twenty percent in the first year.\n\n{filler}\n\nBus ridership rose as drivers switched to public transport."
                ),
            ),
            s(
                "S2",
                "Retail survey",
                &format!("Shop owners feared lost customers when the charge began.\n\n{filler}"),
            ),
        ])
    }

    #[test]
    fn the_passage_that_answers_the_query_comes_first() {
        let lib = corpus();
        let top = lib.ranked("Did the congestion charge reduce traffic?");
        assert!(
            lib.text(top[0]).contains("cut traffic"),
            "{}",
            lib.text(top[0])
        );
        let top = lib.ranked("what did shop owners fear about customers");
        assert_eq!(top[0].source, "S2");
        assert!(lib.text(top[0]).contains("Shop owners"));
        let top = lib.ranked("public transport and buses");
        assert!(lib.text(top[0]).contains("Bus ridership"));
    }

    #[test]
    fn text_without_spaces_ranks_by_character_pairs() {
        let s = |id: &str, text: &str| Source::new(id, id, Origin::Pasted, text).unwrap();
        let lib = Library::new(vec![
            s("S1", "北京的交通拥堵问题十分严重。"),
            s("S2", "上海的地铁客流量持续增长。"),
        ]);
        assert_eq!(lib.ranked("地铁客流")[0].source, "S2");
        assert_eq!(lib.ranked("交通拥堵")[0].source, "S1");
        assert_eq!(
            Words.tokenize("The Charge, CUT traffic!"),
            ["charge", "cut", "traffic"]
        );
    }

    #[test]
    fn every_passage_is_ranked_once_and_unmatched_ones_start_with_each_sources_opening() {
        let lib = corpus();
        let all = lib.ranked("zebra quantum");
        assert_eq!(all.len(), lib.passages.len());
        assert_eq!(all[0].label(), "S1 ¶1");
        assert_eq!(all[1].label(), "S2 ¶1");
        let again = lib.ranked("zebra quantum");
        assert_eq!(all, again);
    }
}
