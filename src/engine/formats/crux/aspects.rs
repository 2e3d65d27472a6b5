//! One aspect: three minirounds of takes, the round summary and the disagreement
//! detection that may open a crux room. The turn context every persona reads is built
//! here too.

use super::*;

impl Crux<'_> {
    /// Seed 004's turn context: topic, earlier aspects' summaries, open disagreements and
    /// the crux cards so far; each part clipped, so it stays bounded.
    pub(super) fn turn_context(&self) -> String {
        let mut parts = vec![format!("Debate topic: {}", self.config.topic)];
        if !self.summaries.is_empty() {
            let s: Vec<String> = self
                .summaries
                .iter()
                .map(|(t, s)| format!("- {t}: {}", clip(s, 500)))
                .collect();
            parts.push(format!("Earlier rounds:\n{}", s.join("\n")));
        }
        if !self.open.is_empty() {
            let s: Vec<String> = self
                .open
                .iter()
                .rev()
                .take(5)
                .rev()
                .map(|d| format!("- {}", clip(d, 300)))
                .collect();
            parts.push(format!("Open disagreements:\n{}", s.join("\n")));
        }
        if !self.cards.is_empty() {
            let s: Vec<String> = self
                .cards
                .iter()
                .rev()
                .take(5)
                .rev()
                .map(|c| {
                    let sides: Vec<String> = c
                        .sides
                        .iter()
                        .map(|s| format!("{}: {}", self.name_of(&s.seat), clip(&s.position, 200)))
                        .collect();
                    format!(
                        "- {} ({}, {}) {}",
                        clip(&c.crux, 300),
                        c.kind.id(),
                        if c.resolved { "resolved" } else { "unresolved" },
                        sides.join("; ")
                    )
                })
                .collect();
            parts.push(format!("Crux cards so far:\n{}", s.join("\n")));
        }
        parts.join("\n\n")
    }

    pub(super) async fn aspect(&mut self, a: u32, aspect: &Aspect) -> Result<(), DebateError> {
        self.ctx.phase(
            &format!("aspect/{a}"),
            &format!("Aspect {a}: {}", aspect.label),
            Some(a),
        );
        let n = self.voices.len();
        let gen = self.o.temperatures.generation;
        let max_words = words(TAKE_TOKENS);
        let context = self.turn_context();
        let openings: Vec<String> = (0..n)
            .map(|i| quote(&self.voices[i].name, &clip(&self.openings[i], 400)))
            .collect();
        let openings = openings.join("\n");
        let mut rounds: Vec<Vec<String>> = Vec::new();
        for m in 0..MINIROUNDS {
            let what = ["initial takes", "reactions", "replies"][m as usize % 3];
            self.ctx.phase(
                &format!("aspect/{a}/round/{m}"),
                &format!("Aspect {a}, miniround {}: {what}", m + 1),
                Some(a),
            );
            let prev = rounds.last().cloned().unwrap_or_default();
            let first = rounds.first().cloned().unwrap_or_default();
            let calls = (0..n).map(|i| {
                let others = |takes: &[String]| {
                    (0..n)
                        .filter(|&j| j != i)
                        .map(|j| quote(&self.voices[j].name, &takes[j]))
                        .collect::<Vec<_>>()
                        .join("\n\n")
                };
                let (label, user) = if m == 0 {
                    (
                        "Take".to_string(),
                        render(
                            p::TAKE,
                            &[
                                ("aspect", &aspect.label),
                                ("question", &aspect.question),
                                ("context", &context),
                                ("openings", &openings),
                                ("max_words", &max_words),
                            ],
                        ),
                    )
                } else {
                    // From the third miniround, whoever was answered by name fires back.
                    let replier = (m >= 2)
                        .then(|| {
                            (0..n).find(|&j| j != i && mentions(&prev[j], &self.voices[i].name))
                        })
                        .flatten();
                    match replier {
                        Some(j) => (
                            format!("Reply to {}", self.voices[j].name),
                            render(
                                p::REPLY,
                                &[
                                    ("aspect", &aspect.label),
                                    ("mine", &clip(&first[i], QUOTE_CHARS)),
                                    ("replier", &self.voices[j].name),
                                    ("reply", &clip(&prev[j], QUOTE_CHARS)),
                                    ("max_words", &max_words),
                                ],
                            ),
                        ),
                        None => (
                            "Reaction".to_string(),
                            render(
                                p::REACTION,
                                &[
                                    ("aspect", &aspect.label),
                                    ("question", &aspect.question),
                                    ("context", &context),
                                    ("takes", &others(&prev)),
                                    ("max_words", &max_words),
                                ],
                            ),
                        ),
                    }
                };
                (
                    i,
                    self.say(
                        i,
                        CruxPath::Take {
                            aspect: a,
                            miniround: m,
                            seat: self.voices[i].seat.clone(),
                        }
                        .into(),
                        label,
                        self.voices[i].system.clone(),
                        user,
                    )
                    .max_tokens(TAKE_TOKENS)
                    .temperature(gen),
                )
            });
            let said = self.speak_all(calls.collect()).await?;
            rounds.push(said.into_iter().map(|(t, _)| t).collect());
        }
        self.round_summary(a, aspect, &rounds).await?;
        let last = rounds.last().cloned().unwrap_or_default();
        let detection = self.detect(a, aspect, &last).await?;
        if let Some(d) = detection {
            self.room(a, d).await?;
        }
        Ok(())
    }

    pub(super) async fn round_summary(
        &mut self,
        a: u32,
        aspect: &Aspect,
        rounds: &[Vec<String>],
    ) -> Result<(), DebateError> {
        let mut takes = Vec::new();
        for (m, round) in rounds.iter().enumerate() {
            for (i, t) in round.iter().enumerate() {
                takes.push(format!(
                    "[miniround {}] {}",
                    m + 1,
                    quote(&self.voices[i].name, &clip(t, 500))
                ));
            }
        }
        let user = render(
            p::ROUND_SUMMARY,
            &[("aspect", &aspect.label), ("takes", &takes.join("\n\n"))],
        );
        let key: String = CruxPath::RoundSummary { aspect: a }.into();
        let title = format!("Aspect {a}: {}", aspect.label);
        match self
            .analyse(
                self.analysis(key.clone(), Purpose::Extraction, "Round summary", user)
                    .max_tokens(ROUND_SUMMARY_TOKENS)
                    .temperature(self.o.temperatures.analysis)
                    .json_schema(schemas::round_summary()),
                analysis::parse_round_summary,
            )
            .await?
        {
            Ok((summary, contested)) => {
                let mut text = summary.clone();
                if !contested.is_empty() {
                    text.push_str("\n\nContested:\n");
                    text.push_str(
                        &contested
                            .iter()
                            .map(|c| format!("- {c}"))
                            .collect::<Vec<_>>()
                            .join("\n"),
                    );
                }
                self.ctx.record(Finding {
                    key,
                    about: None,
                    seat: String::new(),
                    body: FindingBody::Summary {
                        title: title.clone(),
                        text,
                    },
                });
                self.summaries.push((title, summary));
            }
            Err(reason) => self.unscored(key, format!("{title} summary"), reason),
        }
        Ok(())
    }

    /// The disagreement detection over the last miniround: a room opens only when all three
    /// gates hold and two different personas are named.
    pub(super) async fn detect(
        &mut self,
        a: u32,
        aspect: &Aspect,
        last: &[String],
    ) -> Result<Option<Detection>, DebateError> {
        let takes: Vec<String> = last
            .iter()
            .enumerate()
            .map(|(i, t)| {
                format!(
                    "[{}] {}",
                    self.voices[i].seat,
                    quote(&self.voices[i].name, t)
                )
            })
            .collect();
        let all = self.all();
        let people = self.ids(&all);
        let user = render(
            p::DISAGREEMENT,
            &[
                ("aspect", &aspect.label),
                ("topic", &self.config.topic),
                ("takes", &takes.join("\n\n")),
                ("ids", &self.id_list(&all)),
            ],
        );
        let key: String = CruxPath::Detection { aspect: a }.into();
        let got = self
            .analyse(
                self.analysis(key.clone(), Purpose::Check, "Disagreement detection", user)
                    .max_tokens(DETECTION_TOKENS)
                    .temperature(self.o.temperatures.analysis)
                    .json_schema(schemas::detection(&people)),
                |v| analysis::parse_detection(v, &people),
            )
            .await?;
        let d = match got {
            Ok(d) => d,
            Err(reason) => {
                self.unscored(key, "Disagreement detection".into(), reason);
                return Ok(None);
            }
        };
        let opened = d.opens_room();
        self.ctx.record(Finding {
            key,
            about: None,
            seat: String::new(),
            body: FindingBody::Disagreement(Disagreement {
                direct_opposition: d.direct_opposition,
                specific_claim: d.specific_claim,
                topic_relevant: d.topic_relevant,
                seats: d.seats.clone(),
                claim: d.claim.clone(),
                question: d.question.clone(),
                opened,
            }),
        });
        Ok(opened.then_some(d))
    }
}
