//! The debate's end: every persona's closing, the position shifts since the openings and
//! the final summary.

use super::*;

impl Crux<'_> {
    pub(super) async fn closings(&mut self) -> Result<Vec<(String, CallKey)>, DebateError> {
        self.ctx.phase("closing", "Closings", None);
        let context = self.turn_context();
        let user = render(
            p::CLOSING,
            &[
                ("topic", &self.config.topic),
                ("context", &context),
                ("max_words", &words(CLOSING_TOKENS)),
            ],
        );
        let calls = self.all().into_iter().map(|i| {
            (
                i,
                self.say(
                    i,
                    CruxPath::Closing {
                        seat: self.voices[i].seat.clone(),
                    }
                    .into(),
                    "Closing",
                    self.voices[i].system.clone(),
                    user.clone(),
                )
                .max_tokens(CLOSING_TOKENS)
                .temperature(self.o.temperatures.generation),
            )
        });
        self.speak_all(calls.collect()).await
    }

    pub(super) async fn shifts(&self, closings: &[(String, CallKey)]) -> Result<(), DebateError> {
        let all = self.all();
        let people = self.ids(&all);
        let pairs: Vec<String> = all
            .iter()
            .map(|&i| {
                format!(
                    "[{}] {}\nOpening: {}\nClosing: {}",
                    self.voices[i].seat,
                    self.voices[i].name,
                    clip(&self.openings[i], QUOTE_CHARS),
                    clip(&closings[i].0, 1200)
                )
            })
            .collect();
        let user = render(
            p::SHIFTS,
            &[("pairs", &pairs.join("\n\n")), ("ids", &self.id_list(&all))],
        );
        match self
            .analyse(
                self.analysis(
                    CruxPath::Shifts.into(),
                    Purpose::Evaluation,
                    "Position shifts",
                    user,
                )
                .max_tokens(SHIFT_TOKENS)
                .temperature(self.o.temperatures.analysis)
                .json_schema(schemas::shifts(&people)),
                |v| analysis::parse_shifts(v, &people),
            )
            .await?
        {
            Ok(shifts) => {
                for i in all {
                    let seat = &self.voices[i].seat;
                    let about = Some(closings[i].1.clone());
                    match shifts.iter().find(|s| &s.seat == seat) {
                        Some(s) => self.ctx.record(Finding {
                            key: format!("shift/{seat}"),
                            about,
                            seat: seat.clone(),
                            body: FindingBody::PositionShift {
                                shifted: s.shifted,
                                from: s.from.clone(),
                                to: s.to.clone(),
                                moved_by: s.moved_by.clone(),
                            },
                        }),
                        None => self.unscored(
                            format!("shift/{seat}"),
                            format!("{}'s position shift", self.voices[i].name),
                            "the analyst did not say",
                        ),
                    }
                }
            }
            Err(reason) => self.unscored(CruxPath::Shifts.into(), "Position shifts".into(), reason),
        }
        Ok(())
    }

    pub(super) async fn summary(&self, closings: &[(String, CallKey)]) -> Result<(), DebateError> {
        self.ctx.phase("summary", "Summary", None);
        let summaries: Vec<String> = self
            .summaries
            .iter()
            .map(|(t, s)| format!("- {t}: {}", clip(s, 600)))
            .collect();
        let cards: Vec<String> = self
            .cards
            .iter()
            .map(|c| {
                let sides: Vec<String> = c
                    .sides
                    .iter()
                    .map(|s| {
                        format!(
                            "  - {}: {} Because: {} Would change mind: {}",
                            self.name_of(&s.seat),
                            s.position,
                            s.reasoning,
                            if s.would_change_mind.is_empty() {
                                "not said"
                            } else {
                                &s.would_change_mind
                            }
                        )
                    })
                    .collect();
                format!("- {} ({})\n{}", c.crux, c.kind.id(), sides.join("\n"))
            })
            .collect();
        let closing: Vec<String> = closings
            .iter()
            .enumerate()
            .map(|(i, (t, _))| quote(&self.voices[i].name, &clip(t, 1500)))
            .collect();
        let none = |v: Vec<String>| {
            if v.is_empty() {
                "(none)".to_string()
            } else {
                v.join("\n")
            }
        };
        let user = render(
            p::FINAL_SUMMARY,
            &[
                ("topic", &self.config.topic),
                ("summaries", &none(summaries)),
                ("cards", &none(cards)),
                ("closings", &closing.join("\n\n")),
            ],
        );
        match self
            .analyse(
                self.analysis(
                    CruxPath::Summary.into(),
                    Purpose::Extraction,
                    "Debate summary",
                    user,
                )
                .max_tokens(SUMMARY_TOKENS)
                .temperature(self.o.temperatures.analysis)
                .json_schema(schemas::final_summary(&self.ids(&self.all()))),
                analysis::parse_final_summary,
            )
            .await?
        {
            Ok(text) => self.ctx.record(Finding {
                key: CruxPath::Summary.into(),
                about: None,
                seat: String::new(),
                body: FindingBody::Summary {
                    title: "Debate summary".into(),
                    text,
                },
            }),
            Err(reason) => self.unscored(CruxPath::Summary.into(), "Debate summary".into(), reason),
        }
        Ok(())
    }
}
