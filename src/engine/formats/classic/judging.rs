//! Classic's judgement: the fact checker's verdicts on each position's turn, and the
//! analyst's weighted scores of each position after the closings (`scoring` reads them).

use super::*;
use crate::engine::finding::{flagged, ClaimCheck};

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
                .max_tokens(FACT_CHECK_TOKENS)
                .temperature(0.2)
                .json_schema(scoring::claims_schema())
                .tolerate_failure(),
                scoring::parse_claims,
            )
            .await?;
        if let Ok(claims) = &checked.read {
            self.step_in(seat, claims)?;
        }
        self.ctx.record_structured(
            (format!("{key}/fact-check"), Some(key.clone()), seat),
            || format!("{name}'s claims"),
            checked.read,
            |claims| FindingBody::FactCheck { claims },
        );
        Ok(())
    }

    /// The fact checker steps in when it finds a claim false or disputed: its correction
    /// is said before the next turn, so the speaker can answer it and everyone after sees
    /// it (the round's summary, the scores).
    fn step_in(&mut self, seat: &str, claims: &[ClaimCheck]) -> Result<(), DebateError> {
        let flagged = flagged(claims);
        if flagged.is_empty() {
            return Ok(());
        }
        let speaker = self.seat(FACT_CHECKER)?.name.clone();
        let name = self.seat(seat)?.name.clone();
        let text = std::iter::once(format!("On what {name} just said:"))
            .chain(
                flagged
                    .iter()
                    .map(|c| format!("- \"{}\" is {}: {}", c.claim, c.verdict.id(), c.reason)),
            )
            .collect::<Vec<_>>()
            .join("\n");
        self.about.insert(self.said.len(), seat.to_string());
        self.said.push(Said {
            seat: FACT_CHECKER.into(),
            speaker,
            label: "Fact checker steps in".into(),
            text,
        });
        Ok(())
    }

    /// The analyst's weighted 0–10 score for each position: of the whole debate after the
    /// closing statements (`round` None), or of one round from `said[from..]`.
    pub(super) async fn score(
        &mut self,
        round: Option<u32>,
        from: usize,
    ) -> Result<(), DebateError> {
        let (rules, weights) = scoring::configuration(self.o.style);
        const MAX_TOKENS: u32 = super::plan::SCORE_TOKENS;
        let scope = match round {
            None => "a finished debate".to_string(),
            Some(r) => format!("round {r} of a debate still going on (score this round alone)"),
        };
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
                        ("scope", &scope),
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
            // Each side's turns and the notes about them (the moderator's, the fact
            // checker's), with whose they are.
            let both: Vec<(&str, &Said)> = self.said[from..]
                .iter()
                .enumerate()
                .filter_map(|(i, s)| {
                    let whose = self.about.get(&(from + i)).map_or(s.seat.as_str(), |w| w);
                    (whose == seat || whose == other).then_some((whose, s))
                })
                .collect();
            let fit = ((room / (FLOOR + PER_TURN)) as usize).max(1);
            let dropped = both.len().saturating_sub(fit);
            let kept = &both[dropped..];
            let share = (room / kept.len().max(1) as u32)
                .saturating_sub(PER_TURN)
                .max(FLOOR);
            let said_by = |who: &str| {
                let left_out = both[..dropped].iter().filter(|(w, _)| *w == who).count();
                let note = (left_out > 0).then(|| {
                    format!(
                        "[{} left out for length]",
                        crate::engine::reading::count(left_out, "earlier turn")
                    )
                });
                let overran = self
                    .overran
                    .iter()
                    .filter(|(i, s)| *i >= from && s == who)
                    .count();
                let overran = (overran > 0).then(|| {
                    format!(
                        "[The moderator noted {} over the length limit]",
                        crate::engine::reading::count(overran, "turn")
                    )
                });
                note.into_iter()
                    .chain(overran)
                    .chain(kept.iter().filter(|(w, _)| *w == who).map(|(_, s)| {
                        let text = transcript::clip(s.text.trim(), 1200);
                        format!("[{}] {}", s.label, transcript::clip_tokens(&text, share))
                    }))
                    .collect::<Vec<_>>()
                    .join("\n\n")
            };
            let user = prompt(&said_by(seat), &said_by(other));
            let analyst = self.config.analyst.clone();
            let (path, label) = match round {
                None => (ClassicPath::Score { seat: seat.into() }, "Score"),
                Some(round) => (
                    ClassicPath::RoundScore {
                        round,
                        seat: seat.into(),
                    },
                    "Round score",
                ),
            };
            let scored = self
                .ctx
                .call_json(
                    CallSpec::new(path.to_string(), analyst, Purpose::Evaluation, label)
                        .messages(vec![ChatMessage::user(user)])
                        .max_tokens(MAX_TOKENS)
                        .temperature(0.2)
                        .json_schema(schema)
                        .tolerate_failure(),
                    |v| scoring::parse_scores(v, weights),
                )
                .await?;
            self.ctx.record_structured(
                (path.to_string(), None, seat),
                || match round {
                    None => format!("{name}'s performance"),
                    Some(r) => format!("{name}'s round {r}"),
                },
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
