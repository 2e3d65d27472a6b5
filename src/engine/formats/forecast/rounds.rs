//! A role's round: its argument (read, and kept when only partly complete), the analyst's
//! score of it, and one regeneration when it scores under the seed's floor.

use super::*;

impl Forecast<'_> {
    /// One argument call (`again` for the regenerated one): its JSON read, repaired once if
    /// it does not validate, and recorded. `None` when the call failed or no argument text
    /// could be read.
    pub(super) async fn argue(
        &self,
        round: u32,
        seat: &str,
        again: bool,
    ) -> Result<Option<(CallKey, Parsed)>, DebateError> {
        let role = self.role(seat);
        let ph = Phase::of_round(round, self.o.rounds);
        let system = self.system(role);
        let fixed = self.user_prompt(round, seat, "");
        let ids = self.ids();
        let roles = self.roles();
        let historian = self.role(seat).kind == RoleKind::Historian;
        let schema = parse::argument_schema(&ids, &roles, ph, historian);
        // The seed's input budget, over the messages the model reads: what the system,
        // the fixed prompt and their framing leave for the earlier rounds (at least a
        // little, so a rebuttal always sees something). The schema rides beside them for
        // providers that take one; the window fit and the spending cap count it too.
        let shell = tokens::request([system.as_str(), fixed.as_str()], None);
        let room = self.o.argument_input_tokens.saturating_sub(shell).max(80);
        let user = self.user_prompt(round, seat, &self.debate_text(room));
        let path = ForecastPath::Argument {
            round,
            seat: seat.to_string(),
            again,
        };
        let spec = CallSpec::new(
            path.to_string(),
            seat,
            Purpose::Argument,
            if again {
                format!("{} (regenerated)", ph.title())
            } else {
                ph.title().to_string()
            },
        )
        .system_and_user(system, user)
        .max_tokens(self.o.argument_output_tokens)
        .temperature(0.8)
        // The shape is spelled out in the prompt too, and the answer is validated and
        // repaired once either way; the schema lets a provider (or llama.cpp's grammar)
        // hold the model to it.
        .json_schema(schema)
        .tolerate_failure();
        // An answer with its argument but short of a complete one (no readable
        // probabilities, no outcome named…) is kept when even its repair is no better: the
        // argument still counts, marked as it is.
        let partial: RefCell<Option<Parsed>> = RefCell::new(None);
        let answer = self
            .ctx
            .call_json(spec, |v| {
                let parsed = parse::argument(v, &ids, &roles, seat)?;
                *partial.borrow_mut() = Some(parsed.clone());
                parse::complete(&parsed, ph, historian)?;
                Ok(parsed)
            })
            .await?;
        let key = answer.key;
        // Kept short of complete even after its repair: used, and marked with what it lacks.
        let incomplete = match &answer.read {
            Err(Unread::Unreadable { problem }) => Some(problem.to_string()),
            _ => None,
        };
        let Some(mut parsed) = answer.read.ok().or_else(|| partial.into_inner()) else {
            return Ok(None);
        };
        parsed.incomplete.clone_from(&incomplete);
        match &parsed.probabilities {
            Ok(_) => *self.parsed.borrow_mut() += 1,
            Err(_) => *self.rejected.borrow_mut() += 1,
        }
        let (probabilities, rejected, given_sum) = match &parsed.probabilities {
            Ok((d, sum)) => (
                ids.iter()
                    .zip(d)
                    .map(|(id, p)| OutcomeProbability {
                        outcome: id.to_string(),
                        probability: *p,
                    })
                    .collect(),
                None,
                Some(*sum),
            ),
            Err(e) => (Vec::new(), Some(e.to_string()), None),
        };
        self.ctx.record(Finding {
            key: path.argument_key(),
            about: Some(key.clone()),
            seat: seat.to_string(),
            body: FindingBody::Forecast(Box::new(ForecastFinding::Argument(ArgumentFinding {
                round,
                phase: ph,
                argument: parsed.argument.clone(),
                outcome_supported: parsed.outcome_supported.clone(),
                evidence: parsed.evidence.clone(),
                rebuts: parsed.rebuts.clone(),
                references: parsed.references.clone(),
                probabilities,
                rejected,
                given_sum,
                confidence: parsed.confidence,
                regenerated: again,
                incomplete,
            }))),
        });
        Ok(Some((key, parsed)))
    }

    /// Scores an argument on the analyst seat; `None` (recorded as unscored) when the
    /// answer could not be read.
    pub(super) async fn score(
        &self,
        round: u32,
        seat: &str,
        key: &CallKey,
        parsed: &Parsed,
        again: bool,
    ) -> Result<Option<Score>, DebateError> {
        let ph = Phase::of_round(round, self.o.rounds);
        let earlier = if round == 1 {
            String::new()
        } else {
            "Novelty is judged against the earlier rounds:\n".to_string() + &self.debate_text(400)
        };
        let user = render(
            p::SCORE,
            &[
                ("question", &self.config.topic),
                ("outcomes", &self.outcomes_text()),
                ("role", &self.name(seat)),
                ("phase", ph.id()),
                (
                    "outcome",
                    if parsed.outcome_supported.is_empty() {
                        "no named outcome"
                    } else {
                        &parsed.outcome_supported
                    },
                ),
                ("argument", &clip(&parsed.argument, 3000)),
                ("evidence", &parsed.evidence.join("; ")),
                ("earlier", &earlier),
            ],
        );
        let path = ForecastPath::Score {
            round,
            seat: seat.to_string(),
            again,
        };
        let score = self
            .ctx
            .call_json(
                CallSpec::new(
                    path.to_string(),
                    self.config.analyst.clone(),
                    Purpose::Evaluation,
                    format!("Score: {}", self.name(seat)),
                )
                .messages(vec![ChatMessage::user(user)])
                .max_tokens(self.o.scoring_output_tokens)
                .temperature(0.2)
                .json_schema(parse::score_schema())
                .tolerate_failure(),
                parse::score,
            )
            .await?;
        let criterion = |name: &str, weight, value| Criterion {
            name: name.into(),
            weight,
            value,
            max: 1.0,
            reason: String::new(),
        };
        let read = score.read;
        self.ctx.record_structured(
            (path.into(), Some(key.clone()), seat),
            || format!("{}'s {}", self.name(seat), ph.id()),
            read.clone(),
            |s| FindingBody::Score {
                rubric: "forecast".into(),
                criteria: vec![
                    Criterion {
                        reason: s.reason,
                        ..criterion("logical strength", 0.4, s.logical)
                    },
                    criterion("evidence quality", 0.4, s.evidence),
                    criterion("novelty", 0.2, s.novelty),
                ],
                total: s.composite,
            },
        );
        let score = read.ok();
        Ok(score)
    }

    /// One role's round: its argument, its score, and once more when that scored under
    /// 0.2. `None` when the role gave no readable argument.
    pub(super) async fn role_round(
        &self,
        round: u32,
        seat: &str,
    ) -> Result<Option<Turn>, DebateError> {
        let Some((key, parsed)) = self.argue(round, seat, false).await? else {
            return Ok(None);
        };
        let score = self.score(round, seat, &key, &parsed, false).await?;
        if score
            .as_ref()
            .is_some_and(|s| c::needs_regeneration(s.composite))
        {
            if let Some((key2, parsed2)) = self.argue(round, seat, true).await? {
                *self.regenerated.borrow_mut() += 1;
                let score2 = self.score(round, seat, &key2, &parsed2, true).await?;
                return Ok(Some(Turn {
                    role: seat.into(),
                    round,
                    parsed: parsed2,
                    score: score2,
                }));
            }
        }
        Ok(Some(Turn {
            role: seat.into(),
            round,
            parsed,
            score,
        }))
    }
}
