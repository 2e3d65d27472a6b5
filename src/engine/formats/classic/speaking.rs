//! How one classic turn is asked: the seat's system prompt (its stance and the
//! configuration's rules), the user prompt with the rolling context fitted to the seat's
//! window, and the call, with the fact check and the moderator's rulings after a
//! position's turn.

use super::*;

impl Classic<'_> {
    pub(super) fn seat(&self, id: &str) -> Result<&SeatConfig, DebateError> {
        self.config
            .seat(id)
            .ok_or_else(|| DebateError::Config(format!("A classic debate needs a `{id}` seat.")))
    }

    pub(super) fn stance(&self, id: &str) -> String {
        self.config
            .seat(id)
            .and_then(|s| s.stance.clone())
            .unwrap_or_default()
    }

    pub(super) fn system_prompt(&self, seat: &str) -> Result<String, DebateError> {
        let c = &self.config;
        let style = p::style(self.o.style);
        let rules = self.rules.as_str();
        let rounds = self.o.rounds.to_string();
        let (a, b) = (self.stance(POSITION_A), self.stance(POSITION_B));
        Ok(if seat == MODERATOR {
            render(
                p::MODERATOR_SYSTEM,
                &[
                    ("topic", &c.topic),
                    ("position_a", &a),
                    ("position_b", &b),
                    ("rounds", &rounds),
                    ("style", style),
                    ("rules", rules),
                ],
            )
        } else {
            let me = self.seat(seat)?;
            let opponent = if seat == POSITION_A { &b } else { &a };
            render(
                p::POSITION_SYSTEM,
                &[
                    ("topic", &c.topic),
                    ("name", &me.name),
                    ("stance", &self.stance(seat)),
                    ("opponent_stance", opponent),
                    ("rounds", &rounds),
                    ("style", style),
                    ("rules", rules),
                ],
            )
        })
    }

    /// Renders `template` with a `{{context}}` sized to the seat's window.
    pub(super) fn user_prompt(
        &self,
        seat: &str,
        template: &str,
        system: &str,
        max_tokens: u32,
        vars: &[(&str, &str)],
    ) -> Result<String, DebateError> {
        let window = self
            .ctx
            .speaking_window(self.seat(seat)?.participant.context_tokens());
        let fixed = render(template, vars);
        let budget = transcript::budget(window, max_tokens, system, &fixed, None);
        let notes = self.ctx.notes();
        let context = transcript::build(&ContextParts {
            summaries: &self.summaries,
            recent: &self.said[self.unsummarised_from..],
            notes: &notes,
            budget,
        });
        let mut all: Vec<(&str, &str)> = vars.to_vec();
        all.push(("context", &context));
        Ok(render(template, &all))
    }

    pub(super) async fn speak(
        &mut self,
        turn: Turn<'_>,
        extra: &[(&str, &str)],
    ) -> Result<String, DebateError> {
        let Turn {
            path,
            seat,
            purpose,
            label,
            template,
            max_tokens,
            temperature,
        } = turn;
        let system = self.system_prompt(seat)?;
        let w = transcript::words(max_tokens);
        let rounds = self.o.rounds.to_string();
        let mut vars: Vec<(&str, &str)> = vec![("max_words", &w), ("rounds", &rounds)];
        vars.extend_from_slice(extra);
        let user = self.user_prompt(seat, template, &system, max_tokens, &vars)?;
        let spec = CallSpec::new(path.to_string(), seat, purpose, label)
            .system_and_user(system, user)
            .max_tokens(max_tokens)
            .temperature(temperature);
        let out = self.ctx.call(spec).await?;
        let speaker = self.seat(seat)?.name.clone();
        let at = self.said.len();
        self.said.push(Said {
            seat: seat.into(),
            speaker,
            label: label.into(),
            text: out.text.clone(),
        });
        if seat != MODERATOR {
            if self.o.fact_checker {
                self.fact_check(path.clone(), &out.key, seat, &out.text)
                    .await?;
            }
            self.moderate(moderating::Spoken {
                path: &path,
                key: &out.key,
                seat,
                label,
                text: &out.text,
                finish: out.finish,
                max_tokens,
                at,
            })
            .await?;
        }
        Ok(out.text)
    }

    pub(super) fn last_from(&self, seat: &str) -> String {
        self.said
            .iter()
            .rev()
            .find(|s| s.seat == seat)
            .map(|s| s.text.clone())
            .unwrap_or_default()
    }
}
