//! After each round: the latest distribution of every role, the consensus, and the round's
//! summary (the dominant role, the key disagreements, the emerging consensus).

use super::*;

impl Forecast<'_> {
    /// The latest readable distribution of each role (with its confidence), in role order.
    pub(super) fn latest(&self, upto: u32) -> Vec<(String, Vec<f64>, Option<f64>)> {
        self.roles()
            .iter()
            .filter_map(|r| {
                self.turns
                    .iter()
                    .rev()
                    .filter(|t| t.role == *r && t.round <= upto)
                    .find_map(|t| {
                        t.parsed
                            .probabilities
                            .as_ref()
                            .ok()
                            .map(|(d, _)| (r.to_string(), d.clone(), t.parsed.confidence))
                    })
            })
            .collect()
    }

    pub(super) fn non_judge_rows(&self, upto: u32) -> Vec<Vec<f64>> {
        self.latest(upto)
            .into_iter()
            .filter(|(r, _, _)| r != JUDGE)
            .map(|(_, d, _)| d)
            .collect()
    }

    pub(super) fn summarise_round(&mut self, round: u32) {
        let this: Vec<&Turn> = self.turns.iter().filter(|t| t.round == round).collect();
        let dominant = this
            .iter()
            .filter_map(|t| t.score.as_ref().map(|s| (t.role.clone(), s.composite)))
            .fold(None::<(String, f64)>, |best, (r, s)| match best {
                Some((_, b)) if b >= s => best,
                _ => Some((r, s)),
            })
            .map(|(r, _)| r);
        let ids = self.ids();
        let mut key_disagreements = Vec::new();
        // Roles backing different outcomes.
        let backing: Vec<String> = this
            .iter()
            .filter(|t| t.role != JUDGE && !t.parsed.outcome_supported.is_empty())
            .map(|t| format!("{} → {}", self.name(&t.role), t.parsed.outcome_supported))
            .collect();
        let mut distinct: Vec<&str> = Vec::new();
        for t in this.iter().filter(|t| t.role != JUDGE) {
            let o = t.parsed.outcome_supported.as_str();
            if !o.is_empty() && !distinct.contains(&o) {
                distinct.push(o);
            }
        }
        if distinct.len() > 1 {
            key_disagreements.push(format!("Outcomes backed: {}", backing.join(", ")));
        }
        // Outcomes the roles spread widely on (consensus score under 0.7).
        let latest: Vec<(String, Vec<f64>)> = this
            .iter()
            .filter(|t| t.role != JUDGE)
            .filter_map(|t| {
                t.parsed
                    .probabilities
                    .as_ref()
                    .ok()
                    .map(|(d, _)| (t.role.clone(), d.clone()))
            })
            .collect();
        for (i, id) in ids.iter().enumerate() {
            let vals: Vec<f64> = latest.iter().map(|(_, d)| d[i]).collect();
            if vals.len() < 2 || c::consensus_score(&vals) >= 0.7 {
                continue;
            }
            let hi = latest
                .iter()
                .max_by(|a, b| a.1[i].total_cmp(&b.1[i]))
                .unwrap();
            let lo = latest
                .iter()
                .min_by(|a, b| a.1[i].total_cmp(&b.1[i]))
                .unwrap();
            key_disagreements.push(format!(
                "{id}: {} {} vs {} {}",
                self.name(&hi.0),
                Self::pct(hi.1[i]),
                self.name(&lo.0),
                Self::pct(lo.1[i])
            ));
        }
        let now = c::mean(&self.non_judge_rows(round));
        let before: Option<Vec<f64>> = match round {
            1 => prior(&self.o),
            r => self
                .consensus_by_round
                .get(r as usize - 2)
                .cloned()
                .flatten(),
        };
        let emerging = match (&before, &now) {
            (Some(b), Some(n)) => ids
                .iter()
                .enumerate()
                .filter_map(|(i, id)| {
                    c::direction(b[i], n[i]).map(|toward| Direction {
                        outcome: id.to_string(),
                        toward,
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        self.consensus_by_round.push(now);
        let ph = Phase::of_round(round, self.o.rounds);
        let summary = RoundSummary {
            round,
            phase: ph,
            dominant,
            key_disagreements,
            emerging,
        };
        self.summaries.push(format!(
            "Round {round} ({}): strongest {}; {}",
            ph.id(),
            summary
                .dominant
                .as_deref()
                .map_or("unscored".into(), |d| self.name(d)),
            if summary.key_disagreements.is_empty() {
                "no wide disagreement".into()
            } else {
                summary.key_disagreements.join("; ")
            }
        ));
        self.ctx.record(Finding {
            key: paths::round_summary_key(round),
            about: None,
            seat: String::new(),
            body: FindingBody::Forecast(Box::new(ForecastFinding::RoundSummary(summary))),
        });
    }
}
