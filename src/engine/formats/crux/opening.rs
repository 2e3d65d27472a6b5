//! The debate's start: the analyst splits the topic into aspects, then every persona
//! gives its opening.

use super::*;

impl Crux<'_> {
    pub(super) async fn decompose(&mut self) -> Result<Vec<Aspect>, DebateError> {
        self.ctx.phase("aspects", "Aspects", None);
        let count = self.o.aspects as usize;
        let user = render(
            p::DECOMPOSE,
            &[("topic", &self.config.topic), ("count", &count.to_string())],
        );
        let got = self
            .analyse(
                self.analysis(
                    CruxPath::Aspects.into(),
                    Purpose::Extraction,
                    "Topic decomposition",
                    user,
                )
                .max_tokens(DECOMPOSE_TOKENS)
                .temperature(self.o.temperatures.extraction)
                .json_schema(schemas::aspects(count)),
                |v| analysis::parse_aspects(v, count),
            )
            .await?;
        match got {
            Ok(aspects) => {
                self.ctx.record(Finding {
                    key: CruxPath::Aspects.into(),
                    about: None,
                    seat: String::new(),
                    body: FindingBody::Aspects(aspects.clone()),
                });
                Ok(aspects)
            }
            Err(reason) => {
                // The topic itself is debated as one aspect: nothing is made up.
                self.unscored(
                    CruxPath::Aspects.into(),
                    "Topic decomposition".into(),
                    format!("{reason}; the topic is debated as a whole"),
                );
                Ok(vec![Aspect {
                    label: "The topic as a whole".into(),
                    question: self.config.topic.clone(),
                }])
            }
        }
    }

    pub(super) async fn openings(&mut self) -> Result<(), DebateError> {
        self.ctx.phase("opening", "Openings", None);
        let words = words(OPENING_TOKENS);
        let user = render(
            p::OPENING,
            &[("topic", &self.config.topic), ("max_words", &words)],
        );
        let calls = self.all().into_iter().map(|i| {
            (
                i,
                self.say(
                    i,
                    CruxPath::Opening {
                        seat: self.voices[i].seat.clone(),
                    }
                    .into(),
                    "Opening",
                    self.voices[i].system.clone(),
                    user.clone(),
                )
                .max_tokens(OPENING_TOKENS)
                .temperature(self.o.temperatures.generation),
            )
        });
        let said = self.speak_all(calls.collect()).await?;
        for (i, (text, _)) in said.into_iter().enumerate() {
            self.openings[i] = text;
        }
        Ok(())
    }
}
