//! Classic's judgement: the fact checker's verdicts on each position's turn, and the
//! analyst's weighted scores of each position after the closings (`scoring` reads them).

use super::*;

impl Classic<'_> {
    /// The fact checker's verdicts on a position's turn, shown on that turn; an answer
    /// that cannot be read is recorded as unchecked, never as a verdict.
    pub(super) async fn fact_check(
        &mut self,
        turn: ClassicPath,
        key: &crate::engine::event::CallKey,
        seat: &str,
        text: &str,
    ) -> Result<(), DebateError> {
        let name = self.seat(seat)?.name.clone();
        let user = render(
            p::FACT_CHECK,
            &[
                ("topic", &self.config.topic),
                ("name", &name),
                ("text", &transcript::clip(text, 4000)),
            ],
        );
        let checked = self
            .ctx
            .call_json(
                CallSpec::new(
                    ClassicPath::FactCheck(Box::new(turn)).to_string(),
                    FACT_CHECKER,
                    Purpose::Check,
                    "Fact check",
                )
                .messages(vec![ChatMessage::user(user)])
                .max_tokens(400)
                .temperature(0.2)
                .json_schema(scoring::claims_schema())
                .tolerate_failure(),
                scoring::parse_claims,
            )
            .await?;
        self.ctx.record_structured(
            (format!("{key}/fact-check"), Some(key.clone()), seat),
            || format!("{name}'s claims"),
            checked.read,
            |claims| FindingBody::FactCheck { claims },
        );
        Ok(())
    }

    /// The analyst's weighted 0–10 score for each position, after the closing statements.
    pub(super) async fn score(&mut self) -> Result<(), DebateError> {
        let (rules, weights) = scoring::configuration(self.o.style);
        const MAX_TOKENS: u32 = 500;
        let window = self
            .seat(&self.config.analyst)?
            .participant
            .context_tokens();
        for (seat, other) in [(POSITION_A, POSITION_B), (POSITION_B, POSITION_A)] {
            let name = self.seat(seat)?.name.clone();
            let prompt = |said: &str, other_said: &str| {
                render(
                    p::SCORING,
                    &[
                        ("topic", &self.config.topic),
                        ("name", &name),
                        ("stance", &self.stance(seat)),
                        ("rules", &rules),
                        ("said", said),
                        ("other", other_said),
                    ],
                )
            };
            // Every turn of both sides, each cut to an equal share of what the analyst's
            // window leaves (1,200 characters at most): ten rounds fit a local model's
            // 4,096 tokens with every turn represented. Where a share would fall under
            // FLOOR tokens (a smaller window, a longer debate), the oldest turns are left
            // out instead, and each side's list says how many.
            const FLOOR: u32 = 48;
            const PER_TURN: u32 = 8; // its label and the blank line after it
            let schema = scoring::scores_schema();
            // Less the two notes of turns left out, 12 tokens or so each.
            let room = transcript::budget(window, MAX_TOKENS, "", &prompt("", ""), Some(&schema))
                .saturating_sub(2 * 16);
            let both: Vec<&Said> = self
                .said
                .iter()
                .filter(|s| s.seat == seat || s.seat == other)
                .collect();
            let fit = ((room / (FLOOR + PER_TURN)) as usize).max(1);
            let dropped = both.len().saturating_sub(fit);
            let kept = &both[dropped..];
            let share = (room / kept.len().max(1) as u32)
                .saturating_sub(PER_TURN)
                .max(FLOOR);
            let said_by = |who: &str| {
                let left_out = both[..dropped].iter().filter(|s| s.seat == who).count();
                let note = (left_out > 0)
                    .then(|| format!("[{left_out} earlier turn(s) left out for length]"));
                note.into_iter()
                    .chain(kept.iter().filter(|s| s.seat == who).map(|s| {
                        let text = transcript::clip(s.text.trim(), 1200);
                        format!("[{}] {}", s.label, transcript::clip_tokens(&text, share))
                    }))
                    .collect::<Vec<_>>()
                    .join("\n\n")
            };
            let user = prompt(&said_by(seat), &said_by(other));
            let analyst = self.config.analyst.clone();
            let scored = self
                .ctx
                .call_json(
                    CallSpec::new(
                        ClassicPath::Score { seat: seat.into() }.to_string(),
                        analyst,
                        Purpose::Evaluation,
                        "Score",
                    )
                    .messages(vec![ChatMessage::user(user)])
                    .max_tokens(MAX_TOKENS)
                    .temperature(0.2)
                    .json_schema(schema)
                    .tolerate_failure(),
                    |v| scoring::parse_scores(v, weights),
                )
                .await?;
            self.ctx.record_structured(
                (
                    ClassicPath::Score { seat: seat.into() }.to_string(),
                    None,
                    seat,
                ),
                || format!("{name}'s performance"),
                scored.read,
                |(criteria, total)| FindingBody::Score {
                    rubric: self.o.style.id().into(),
                    criteria,
                    total,
                },
            );
        }
        Ok(())
    }
}
