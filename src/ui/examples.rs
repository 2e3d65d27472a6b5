//! The gallery's example debates: which there are, as the first screen and History offer
//! them. Each is a stored debate in `www/examples/NAME.json`, made from `gallery/NAME.json`
//! by running its format on a scripted model (`engine::formats::testing::gallery`).

use crate::engine::config::FormatId;

/// One example debate.
pub struct Example {
    /// Its file's name in `examples/`, and its address (`?example=NAME`).
    pub name: &'static str,
    pub format: FormatId,
    pub topic: &'static str,
    /// What the example shows of its format, in a line.
    pub shows: &'static str,
}

/// One per format, in the order the setup screen offers the formats.
pub const EXAMPLES: [Example; 5] = [
    Example {
        name: "classic",
        format: FormatId::Classic,
        topic: "Should cities charge drivers a congestion fee to enter their centres?",
        shows: "A formal debate over a source: quotes checked word for word, one misquote caught and reflected in the scores.",
    },
    Example {
        name: "duelogic",
        format: FormatId::Duelogic,
        topic: "Should social media platforms be required by law to verify their users' ages?",
        shows: "A utilitarian and a deontologist argue; one cuts in over a straw man, and the Arbiter scores every speech and calls out a dodge.",
    },
    Example {
        name: "forecast",
        format: FormatId::Forecast,
        topic: "Will a fusion power plant deliver electricity to a grid before 2040?",
        shows: "Five forecasters give odds, revise them after reading each other, and a judge scores each argument; Agora draws the consensus.",
    },
    Example {
        name: "crux",
        format: FormatId::Crux,
        topic: "Should a twelve-person software startup move to a four-day work week?",
        shows: "Two personas split the question into aspects, debate each, then pin every clash to a testable crux card.",
    },
    Example {
        name: "council",
        format: FormatId::Council,
        topic: "Python or JavaScript: which should a 14-year-old learn as a first programming language?",
        shows: "Three members answer alone, rank each other's answers blind, and a chair builds on what the Borda count put first.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The list names each example as its file holds it, so a link never opens another
    /// debate than the one it describes.
    #[test]
    fn each_example_listed_is_the_debate_its_file_holds() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for e in &EXAMPLES {
            let text = std::fs::read_to_string(root.join(format!("www/examples/{}.json", e.name)))
                .unwrap_or_else(|_| panic!("www/examples/{}.json", e.name));
            let events = crate::engine::export::import(&text).unwrap();
            let config = crate::engine::event::config_of(&events).unwrap();
            assert_eq!(config.topic, e.topic, "{}", e.name);
            assert_eq!(config.format(), e.format, "{}", e.name);
        }
    }
}
