//! The end: the judge's synthesis, then the result (the judge's weight against the
//! consensus, the quality gates, the notes) and the precedents the historian cited.

use super::*;

impl Forecast<'_> {
    pub(super) async fn synthesis(&self) -> Attempt<parse::Synthesis, Unread> {
        let last = self.o.rounds;
        let roles = self.roles();
        let ids = self.ids();
        let judge = self.role(JUDGE);
        let system = self.system(judge);
        let schema = parse::synthesis_schema(&ids, &roles);
        let words = transcript::words(self.o.synthesis_output_tokens / 4);
        let prompt = |arguments: &str| {
            render(
                p::SYNTHESIS,
                &[
                    ("question", &self.config.topic),
                    ("outcomes", &self.outcomes_text()),
                    ("background", &self.background()),
                    ("arguments", arguments),
                    ("summaries", &self.summaries.join("\n")),
                    ("roles", &roles.join(", ")),
                    ("max_words", &words),
                ],
            )
        };
        // The last round's arguments share what the judge's window leaves (700 characters
        // each at most), their heading lines (about 40 tokens) aside.
        let window = self
            .config
            .seat(JUDGE)
            .map_or(4096, |s| s.participant.context_tokens());
        let room = transcript::budget(
            window,
            self.o.synthesis_output_tokens,
            &system,
            &prompt(""),
            Some(&schema),
        );
        let count = self.turns.iter().filter(|t| t.round == last).count().max(1) as u32;
        let each = (room / count).saturating_sub(40).max(16);
        let arguments: Vec<String> = self
            .turns
            .iter()
            .filter(|t| t.round == last)
            .map(|t| {
                let probs = match &t.parsed.probabilities {
                    Ok((d, _)) => self.probs_text(d),
                    Err(e) => format!("probabilities rejected ({e})"),
                };
                let score = t.score.as_ref().map_or("unscored".into(), |s| {
                    let d = |x: f64| crate::engine::cost::decimal(x, 2);
                    format!(
                        "score {} (logic {}, evidence {}, novelty {})",
                        d(s.composite),
                        d(s.logical),
                        d(s.evidence),
                        d(s.novelty)
                    )
                });
                format!(
                    "- {} [{}] for {}; {probs}; {score}: {}",
                    self.name(&t.role),
                    t.role,
                    t.parsed.outcome_supported,
                    transcript::clip_tokens(&clip(&t.parsed.argument, 700), each)
                )
            })
            .collect();
        let user = prompt(&arguments.join("\n"));
        let rounds = self.o.rounds;
        let answer = self
            .ctx
            .call_json(
                CallSpec::new(
                    ForecastPath::Synthesis,
                    JUDGE,
                    Purpose::Summary,
                    "Final synthesis",
                )
                .system_and_user(system, user)
                .max_tokens(self.o.synthesis_output_tokens)
                .temperature(0.3)
                .json_schema(schema)
                .tolerate_failure(),
                |v| parse::synthesis(v, &ids, &roles, rounds),
            )
            .await?;
        Ok(answer.read)
    }

    pub(super) fn result(&self, synthesis: Option<&parse::Synthesis>) -> ForecastResult {
        let ids = self.ids();
        let latest = self.latest(self.o.rounds);
        let rows = self.non_judge_rows(self.o.rounds);
        let consensus = c::mean(&rows);
        let scores = c::consensus_scores(&rows);
        let mut notes = Vec::new();
        let (judge, judge_source) = match synthesis {
            Some(s) => (Some(s.probabilities.0.clone()), JudgeSource::Synthesis),
            None => match latest.iter().find(|(r, _, _)| r == JUDGE) {
                Some((_, d, _)) => {
                    notes.push("The judge's synthesis could not be read; the judge's probabilities are from its last argument.".to_string());
                    (Some(d.clone()), JudgeSource::ClosingArgument)
                }
                None => {
                    notes.push(if consensus.is_some() {
                        "The judge gave no readable probabilities; the final distribution is the consensus alone.".to_string()
                    } else {
                        "Neither the judge nor any role gave readable probabilities: there is no final distribution.".to_string()
                    });
                    (None, JudgeSource::None)
                }
            },
        };
        let weight = self.o.judge_weight;
        let blended = c::blend(judge.as_deref(), consensus.as_deref(), weight);
        let outcomes = ids
            .iter()
            .enumerate()
            .map(|(i, id)| OutcomeResult {
                outcome: id.to_string(),
                label: self.o.outcomes[i].label.clone(),
                roles: latest
                    .iter()
                    .map(|(r, d, conf)| RoleAssessment {
                        role: r.clone(),
                        probability: d[i],
                        confidence: *conf,
                    })
                    .collect(),
                consensus: consensus.as_ref().map(|v| v[i]),
                judge: judge.as_ref().map(|v| v[i]),
                final_probability: blended.as_ref().map(|v| v[i]),
                consensus_score: scores.as_ref().map(|(per, _)| per[i]),
            })
            .collect();
        let composites: Vec<f64> = self
            .turns
            .iter()
            .filter_map(|t| t.score.as_ref().map(|s| s.composite))
            .collect();
        let q = c::quality(&composites);
        if q.scored == 0 && !self.turns.is_empty() {
            notes.push("No argument could be scored, so their quality is unknown.".to_string());
        }
        if q.low {
            notes.push(format!(
                "Low quality: {} of {} scored arguments scored above 0.4; the seed asks for 80%.",
                q.good, q.scored
            ));
        }
        let configured = self.o.roles.len();
        let succeeded: Vec<&str> = latest.iter().map(|(r, _, _)| r.as_str()).collect();
        let failed_roles: Vec<String> = self
            .roles()
            .into_iter()
            .filter(|r| !succeeded.contains(r))
            .map(String::from)
            .collect();
        if !failed_roles.is_empty() {
            notes.push(format!(
                "Partial result: {} of {configured} roles gave a readable forecast ({} did not).",
                succeeded.len(),
                failed_roles
                    .iter()
                    .map(|r| self.name(r))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let precedents = self.precedents();
        let dated = parse::dated(&precedents);
        if self.o.roles.iter().any(|r| r.kind == RoleKind::Historian) && dated < 2 {
            notes.push(format!(
                "The historian's precedents are incomplete: {dated} with a date and an outcome; at least two were asked for."
            ));
        }
        // Arguments kept short of complete after their repair, each said, never used silently.
        for t in &self.turns {
            if let Some(what) = &t.parsed.incomplete {
                notes.push(format!(
                    "{}'s round {} argument was used incomplete: {what}.",
                    self.name(&t.role),
                    t.round
                ));
            }
        }
        let consensus_roles: Vec<String> = latest
            .iter()
            .filter(|(r, _, _)| r != JUDGE)
            .map(|(r, _, _)| self.name(r))
            .collect();
        let base = synthesis.and_then(|s| s.confidence).or_else(|| {
            let confs: Vec<f64> = latest.iter().filter_map(|(_, _, c)| *c).collect();
            (!confs.is_empty()).then(|| confs.iter().sum::<f64>() / confs.len() as f64)
        });
        ForecastResult {
            outcomes,
            consensus_score: scores.map(|(_, o)| o),
            consensus_roles,
            judge_weight: weight,
            judge_source,
            scored: q.scored,
            good: q.good,
            good_share: q.share,
            low_quality: q.low,
            regenerated: *self.regenerated.borrow(),
            roles_configured: configured as u32,
            roles_succeeded: succeeded.len() as u32,
            failed_roles: failed_roles.clone(),
            partial: !failed_roles.is_empty(),
            confidence: base.map(|b| c::result_confidence(b, succeeded.len(), configured)),
            probabilities_parsed: *self.parsed.borrow(),
            probabilities_rejected: *self.rejected.borrow(),
            notes,
            metadata: metadata(&self.config, &self.ctx.events(), self.turns.len() as u32),
        }
    }

    pub(super) fn precedents(&self) -> Vec<Precedent> {
        let mut out: Vec<Precedent> = Vec::new();
        for t in &self.turns {
            if self.role(&t.role).kind != RoleKind::Historian {
                continue;
            }
            for p in &t.parsed.precedents {
                if !out.iter().any(|o| o.event == p.event) {
                    out.push(p.clone());
                }
            }
        }
        out.sort_by(|a, b| a.date.cmp(&b.date));
        out
    }
}
