//! What a role reads: its system prompt, the outcomes and the background, the earlier
//! rounds fitted to the seed's input budget, and the round's instruction.

use super::*;

impl Forecast<'_> {
    pub(super) fn system(&self, role: &ForecastRole) -> String {
        match p::role(role.kind) {
            Some(t) => render(t, &[]),
            None => render(
                p::CUSTOM,
                &[
                    ("name", &self.name(&role.seat)),
                    ("perspective", &role.perspective),
                ],
            ),
        }
    }

    pub(super) fn outcomes_text(&self) -> String {
        self.o
            .outcomes
            .iter()
            .map(|o| {
                if o.description.trim().is_empty() {
                    format!("- {}: {}", o.id, o.label)
                } else {
                    format!(
                        "- {}: {} ({})",
                        o.id,
                        o.label,
                        clip(o.description.trim(), 200)
                    )
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub(super) fn background(&self) -> String {
        background(&self.o.context)
    }

    pub(super) fn pct(p: f64) -> String {
        format!("{}%", crate::engine::cost::decimal(p * 100.0, 0))
    }

    pub(super) fn probs_text(&self, d: &[f64]) -> String {
        self.ids()
            .iter()
            .zip(d)
            .map(|(id, p)| format!("{id} {}", Self::pct(*p)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Earlier rounds' arguments, newest round first, each clipped so the whole fits
    /// `budget` tokens; rounds that do not fit are left out, oldest first.
    pub(super) fn debate_text(&self, budget: u32) -> String {
        if self.turns.is_empty() {
            return String::new();
        }
        // About 20 tokens of each line are the role, round, outcome and probabilities.
        let n = self.turns.len().max(1) as u32;
        let per = (budget / n).saturating_sub(20).max(16);
        let mut lines: Vec<String> = Vec::new();
        let mut used = 16u32;
        for t in self.turns.iter().rev() {
            let probs = match &t.parsed.probabilities {
                Ok((d, _)) => self.probs_text(d),
                Err(_) => "no readable probabilities".into(),
            };
            let line = format!(
                "- {} [{}, r{}] for {}; {}: {}",
                self.name(&t.role),
                t.role,
                t.round,
                if t.parsed.outcome_supported.is_empty() {
                    "?"
                } else {
                    &t.parsed.outcome_supported
                },
                probs,
                transcript::clip_tokens(&t.parsed.argument, per)
            );
            let cost = tokens::estimate(&line) + 1;
            if used + cost > budget && !lines.is_empty() {
                break;
            }
            used += cost;
            lines.push(line);
        }
        lines.reverse();
        format!("Earlier arguments:\n{}", lines.join("\n"))
    }

    pub(super) fn user_prompt(&self, round: u32, seat: &str, debate: &str) -> String {
        let ph = Phase::of_round(round, self.o.rounds);
        let historian = self.role(seat).kind == RoleKind::Historian;
        let instruction = match ph {
            Phase::Opening => "Make your opening case.".to_string(),
            Phase::Rebuttal => "Rebut the strongest points of other roles, naming them by id in `rebuts`, and update your probabilities if they convinced you.".to_string(),
            Phase::Closing => "Close: reference the points from the earlier rounds that decided your view (in `references`), say which roles you still rebut, and give your final probabilities.".to_string(),
        };
        let rounds = self.o.rounds.to_string();
        let round_s = round.to_string();
        let words = transcript::words(self.o.argument_output_tokens);
        let outcomes = self.outcomes_text();
        let background = self.background();
        render(
            p::ARGUMENT,
            &[
                ("question", &self.config.topic),
                ("outcomes", &outcomes),
                ("background", &background),
                ("debate", debate),
                ("round", &round_s),
                ("rounds", &rounds),
                ("phase", ph.id()),
                ("instruction", &instruction),
                ("max_words", &words),
                (
                    "rebuts_hint",
                    if ph == Phase::Opening {
                        ""
                    } else {
                        "\"a role id\""
                    },
                ),
                (
                    "references_hint",
                    if ph == Phase::Closing {
                        "\"a point from an earlier round\""
                    } else {
                        ""
                    },
                ),
                (
                    "precedents_hint",
                    if historian {
                        ", \"precedents\": [{\"event\": \"…\", \"date\": \"YYYY or YYYY-MM\", \"outcome\": \"…\", \"similarity\": 0.0, \"relevance\": \"…\"}]"
                    } else {
                        ""
                    },
                ),
            ],
        )
    }
}
