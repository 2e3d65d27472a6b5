//! The forecast panel (seed 001): roles (by default the optimist, pessimist, contrarian,
//! historian and judge) argue a question with two to eight outcomes over an opening, any
//! rebuttals and a closing round. Within a round every role's argument is asked for at
//! once, and each argument is scored on the analyst seat as soon as it is in (an argument
//! under 0.2 is regenerated once and scored again); the next round starts when the last
//! role's argument of this one is final. After the last round the judge's synthesis waits
//! for all of them. The consensus (the mean of the non-judge roles), the judge's
//! probability and their blend are computed by `consensus`; everything is recorded as
//! findings. A role whose call fails is left out (a tolerated failure), and the result is
//! then partial with reduced confidence. The call order is listed in `prompts/README.md`.

pub mod consensus;
pub mod ledger;
pub mod options;
pub mod parse;
pub(super) mod plan;
pub mod prompts;
pub mod report;
pub mod types;

use std::cell::RefCell;

use futures::future::join_all;

use super::super::answer::Unread;
use super::super::config::{
    DebateConfig, ForecastContext, ForecastOptions, ForecastOutcome, ForecastRole, FormatOptions,
    Participant, SeatConfig,
};
use super::super::context::{CallSpec, DebateCtx, DebateError};
use super::super::event::{CallKey, EventKind, Purpose};
use super::super::finding::{Criterion, Finding, FindingBody, OutcomeProbability};
use super::super::model::ChatMessage;
use super::super::prompt::{forecast as p, render};
use super::super::tokens;
use super::super::transcript::{self, clip};
use consensus as c;
use parse::{Parsed, Score};
use types::*;

pub const JUDGE: &str = "judge";
pub use super::ANALYST;
/// The seed's roles, in order.
pub const DEFAULT_ROLES: [&str; 5] = ["optimist", "pessimist", "contrarian", "historian", "judge"];

/// A role's display name: "Optimist", or the custom role's own.
pub fn role_name(kind: &str) -> String {
    let mut c = kind.chars();
    c.next()
        // Role kinds are ASCII ids (`optimist`, `role-2`).
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// A forecast's configuration. Roles are given as (kind, display name, perspective for a
/// custom role, who fills the seat); the seed's roles keep their kind as seat id, custom
/// ones get `role-N`. Without a separate analyst, the judge scores the arguments.
pub fn new_config(
    question: &str,
    roles: Vec<(String, String, String, Participant)>,
    analyst: Option<Participant>,
    mut options: ForecastOptions,
) -> DebateConfig {
    let mut seats = Vec::new();
    options.roles.clear();
    for (i, (kind, name, perspective, participant)) in roles.into_iter().enumerate() {
        let kind = kind.trim().to_lowercase();
        let seat = if p::role(&kind).is_some()
            && !options.roles.iter().any(|r: &ForecastRole| r.seat == kind)
        {
            kind.clone()
        } else {
            format!("role-{}", i + 1)
        };
        let kind = if p::role(&kind).is_some() {
            kind
        } else {
            "custom".into()
        };
        seats.push(SeatConfig {
            id: seat.clone(),
            name: if name.trim().is_empty() {
                role_name(&kind)
            } else {
                name.trim().to_string()
            },
            stance: None,
            participant,
        });
        options.roles.push(ForecastRole {
            seat,
            kind,
            perspective: perspective.trim().to_string(),
        });
    }
    let analyst_seat = match analyst {
        Some(participant) => {
            seats.push(super::analyst_seat(participant));
            ANALYST
        }
        None => JUDGE,
    };
    DebateConfig {
        topic: question.trim().to_string(),
        seats,
        analyst: analyst_seat.into(),
        options: FormatOptions::Forecast(options),
        spending_cap: None,
        forked_from: None,
    }
}

/// Checks a forecast's configuration, with messages for the user.
pub fn validate(config: &DebateConfig, o: &ForecastOptions) -> Result<(), String> {
    if !(2..=8).contains(&o.outcomes.len()) {
        return Err("A forecast has between 2 and 8 outcomes.".into());
    }
    for (i, out) in o.outcomes.iter().enumerate() {
        let id = out.id.trim();
        if id.is_empty() || out.label.trim().is_empty() {
            return Err(format!("Outcome {} needs an id and a label.", i + 1));
        }
        if !id
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_')
        {
            return Err(format!(
                "The outcome id `{id}` may only use letters, digits, - and _."
            ));
        }
        if o.outcomes[..i].iter().any(|x| x.id.trim() == id) {
            return Err(format!("Two outcomes have the id `{id}`."));
        }
    }
    if !o.roles.iter().any(|r| r.seat == JUDGE) {
        return Err("A forecast needs the judge.".into());
    }
    if o.roles.len() < 2 {
        return Err("A forecast needs at least one role besides the judge.".into());
    }
    if o.roles.len() > 9 {
        return Err("A forecast has at most 8 roles besides the judge.".into());
    }
    for r in &o.roles {
        let seat = config
            .seat(&r.seat)
            .ok_or_else(|| format!("The role `{}` has no seat.", r.seat))?;
        if r.kind == "custom" && r.perspective.trim().is_empty() {
            return Err(format!("Say what {} argues from.", seat.name));
        }
    }
    if !(2..=10).contains(&o.rounds) {
        return Err("A forecast has between 2 and 10 rounds.".into());
    }
    if !(0.0..=1.0).contains(&o.judge_weight) {
        return Err("The judge's weight goes from 0 to 1.".into());
    }
    if o.argument_input_tokens < 200 || o.argument_output_tokens < 100 {
        return Err("An argument needs at least 200 input and 100 output tokens.".into());
    }
    if o.scoring_output_tokens < 50 || o.synthesis_output_tokens < 200 {
        return Err("Scoring needs at least 50 output tokens and the synthesis 200.".into());
    }
    Ok(())
}

/// One role's final argument of a round.
#[derive(Clone)]
struct Turn {
    role: String,
    round: u32,
    parsed: Parsed,
    score: Option<Score>,
}

struct Forecast<'a> {
    ctx: &'a DebateCtx,
    config: DebateConfig,
    o: ForecastOptions,
    /// Final arguments of finished rounds.
    turns: Vec<Turn>,
    /// Consensus after each round (for the direction it moves in).
    consensus_by_round: Vec<Option<Vec<f64>>>,
    parsed: RefCell<u32>,
    rejected: RefCell<u32>,
    regenerated: RefCell<u32>,
    summaries: Vec<String>,
}

impl<'a> Forecast<'a> {
    fn new(ctx: &'a DebateCtx) -> Result<Self, DebateError> {
        let config = ctx.config();
        let o = match &config.options {
            FormatOptions::Forecast(o) => o.clone(),
            _ => return Err(DebateError::Config("This is not a forecast.".into())),
        };
        validate(&config, &o).map_err(DebateError::Config)?;
        Ok(Forecast {
            ctx,
            config,
            o,
            turns: Vec::new(),
            consensus_by_round: Vec::new(),
            parsed: RefCell::new(0),
            rejected: RefCell::new(0),
            regenerated: RefCell::new(0),
            summaries: Vec::new(),
        })
    }

    fn ids(&self) -> Vec<&str> {
        self.o.outcomes.iter().map(|o| o.id.as_str()).collect()
    }

    fn roles(&self) -> Vec<&str> {
        self.o.roles.iter().map(|r| r.seat.as_str()).collect()
    }

    fn name(&self, seat: &str) -> String {
        self.config
            .seat(seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    fn role(&self, seat: &str) -> &ForecastRole {
        self.o
            .roles
            .iter()
            .find(|r| r.seat == seat)
            .expect("a role")
    }

    fn system(&self, role: &ForecastRole) -> String {
        match p::role(&role.kind) {
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

    fn outcomes_text(&self) -> String {
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

    fn background(&self) -> String {
        background(&self.o.context)
    }

    fn pct(p: f64) -> String {
        format!("{}%", crate::engine::cost::decimal(p * 100.0, 0))
    }

    fn probs_text(&self, d: &[f64]) -> String {
        self.ids()
            .iter()
            .zip(d)
            .map(|(id, p)| format!("{id} {}", Self::pct(*p)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Earlier rounds' arguments, newest round first, each clipped so the whole fits
    /// `budget` tokens; rounds that do not fit are left out, oldest first.
    fn debate_text(&self, budget: u32) -> String {
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

    fn user_prompt(&self, round: u32, seat: &str, debate: &str) -> String {
        let ph = Phase::of_round(round, self.o.rounds);
        let historian = self.role(seat).kind == "historian";
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

    /// One argument call (`again` for the regenerated one): its JSON read, repaired once if
    /// it does not validate, and recorded. `None` when the call failed or no argument text
    /// could be read.
    async fn argue(
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
        let schema = parse::argument_schema(&ids, &roles, ph, self.role(seat).kind == "historian");
        // The seed's input budget, over the messages the model reads: what the system,
        // the fixed prompt and their framing leave for the earlier rounds (at least a
        // little, so a rebuttal always sees something). The schema rides beside them for
        // providers that take one; the window fit and the spending cap count it too.
        let shell = tokens::request([system.as_str(), fixed.as_str()], None);
        let room = self.o.argument_input_tokens.saturating_sub(shell).max(80);
        let user = self.user_prompt(round, seat, &self.debate_text(room));
        let path = if again {
            format!("regenerate/{round}/{seat}")
        } else {
            format!("round/{round}/{seat}")
        };
        let spec = CallSpec::new(
            path.clone(),
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
                parse::complete(&parsed, ph)?;
                Ok(parsed)
            })
            .await?;
        let key = answer.key;
        let Some(parsed) = answer.read.ok().or_else(|| partial.into_inner()) else {
            return Ok(None);
        };
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
            key: format!("{path}/argument"),
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
            }))),
        });
        Ok(Some((key, parsed)))
    }

    /// Scores an argument on the analyst seat; `None` (recorded as unscored) when the
    /// answer could not be read.
    async fn score(
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
        let path = if again {
            format!("rescore/{round}/{seat}")
        } else {
            format!("score/{round}/{seat}")
        };
        let score = self
            .ctx
            .call_json(
                CallSpec::new(
                    path.clone(),
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
            (path, Some(key.clone()), seat),
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
    async fn role_round(&self, round: u32, seat: &str) -> Result<Option<Turn>, DebateError> {
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

    /// The latest readable distribution of each role (with its confidence), in role order.
    fn latest(&self, upto: u32) -> Vec<(String, Vec<f64>, Option<f64>)> {
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

    fn non_judge_rows(&self, upto: u32) -> Vec<Vec<f64>> {
        self.latest(upto)
            .into_iter()
            .filter(|(r, _, _)| r != JUDGE)
            .map(|(_, d, _)| d)
            .collect()
    }

    fn summarise_round(&mut self, round: u32) {
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
            key: format!("round/{round}/summary"),
            about: None,
            seat: String::new(),
            body: FindingBody::Forecast(Box::new(ForecastFinding::RoundSummary(summary))),
        });
    }

    async fn synthesis(&self) -> Result<Result<parse::Synthesis, Unread>, DebateError> {
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
                CallSpec::new("synthesis", JUDGE, Purpose::Summary, "Final synthesis")
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

    fn record(&self, key: &str, f: ForecastFinding) {
        self.ctx.record(Finding {
            key: key.into(),
            about: None,
            seat: String::new(),
            body: FindingBody::Forecast(Box::new(f)),
        });
    }

    fn result(&self, synthesis: Option<&parse::Synthesis>) -> ForecastResult {
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
        if self.o.roles.iter().any(|r| r.kind == "historian") && precedents.len() < 2 {
            notes.push(format!(
                "The historian cited {} dated precedent(s); at least two were asked for.",
                precedents.len()
            ));
        }
        let base = synthesis.and_then(|s| s.confidence).or_else(|| {
            let confs: Vec<f64> = latest.iter().filter_map(|(_, _, c)| *c).collect();
            (!confs.is_empty()).then(|| confs.iter().sum::<f64>() / confs.len() as f64)
        });
        ForecastResult {
            outcomes,
            consensus_score: scores.map(|(_, o)| o),
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

    fn precedents(&self) -> Vec<Precedent> {
        let mut out: Vec<Precedent> = Vec::new();
        for t in &self.turns {
            if self.role(&t.role).kind != "historian" {
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

    async fn run(&mut self) -> Result<(), DebateError> {
        let roles: Vec<String> = self.roles().iter().map(|s| s.to_string()).collect();
        for round in 1..=self.o.rounds {
            let ph = Phase::of_round(round, self.o.rounds);
            self.ctx.phase(
                &format!("round/{round}"),
                &format!("Round {round}: {}", ph.title()),
                Some(round),
            );
            let this: &Self = self;
            let results = join_all(roles.iter().map(|r| this.role_round(round, r))).await;
            let mut turns = Vec::new();
            for r in results {
                if let Some(t) = r? {
                    turns.push(t);
                }
            }
            self.turns.extend(turns);
            self.summarise_round(round);
        }
        self.ctx.phase("synthesis", "Synthesis", None);
        let synthesis = self.synthesis().await?;
        let precedents = self.precedents();
        if !precedents.is_empty() {
            self.record("precedents", ForecastFinding::Precedents(precedents));
        }
        match &synthesis {
            Ok(s) => {
                self.record(
                    "disagreements",
                    ForecastFinding::Disagreements(s.disagreements.clone()),
                );
                self.record("insights", ForecastFinding::Insights(s.insights.clone()));
            }
            Err(unread) => self.ctx.record(Finding {
                key: "synthesis".into(),
                about: None,
                seat: JUDGE.into(),
                body: FindingBody::Unscored {
                    what: "The judge's synthesis".into(),
                    reason: unread.to_string(),
                },
            }),
        }
        let result = self.result(synthesis.as_ref().ok());
        self.record("result", ForecastFinding::Result(result));
        Ok(())
    }
}

/// The optional context as prompt lines.
pub fn background(x: &ForecastContext) -> String {
    let mut out = Vec::new();
    let list = |title: &str, v: &[String]| {
        let items: Vec<String> = v
            .iter()
            .filter(|s| !s.trim().is_empty())
            .map(|s| format!("- {}", clip(s.trim(), 200)))
            .collect();
        (!items.is_empty()).then(|| format!("{title}:\n{}", items.join("\n")))
    };
    out.extend(list("Key variables", &x.key_variables));
    if !x.prior.is_empty() {
        let p: Vec<String> = x
            .prior
            .iter()
            .map(|p| {
                format!(
                    "{} {}%",
                    p.outcome,
                    crate::engine::cost::decimal(p.probability * 100.0, 0)
                )
            })
            .collect();
        out.push(format!("Prior distribution: {}", p.join(", ")));
    }
    out.extend(list("Highlights", &x.highlights));
    out.extend(list("Known data gaps", &x.data_gaps));
    if out.is_empty() {
        String::new()
    } else {
        format!("\n{}\n", out.join("\n"))
    }
}

/// The prior as a distribution in outcome order, when it gives every outcome.
fn prior(o: &ForecastOptions) -> Option<Vec<f64>> {
    let ids: Vec<&str> = o.outcomes.iter().map(|x| x.id.as_str()).collect();
    let given: Vec<(String, f64)> = o
        .context
        .prior
        .iter()
        .map(|p| (p.outcome.clone(), p.probability))
        .collect();
    c::normalise(&ids, &given).ok().map(|(d, _)| d)
}

/// Arguments, calls, tokens, wall-clock time and models, from the log.
pub fn metadata(
    config: &DebateConfig,
    events: &[super::super::event::Event],
    arguments: u32,
) -> Metadata {
    let mut m = Metadata {
        total_arguments: arguments,
        ..Default::default()
    };
    for e in events {
        match &e.kind {
            EventKind::TurnStarted { .. } => m.calls += 1,
            EventKind::TurnFinished { usage, .. } => {
                m.input_tokens += usage.input_tokens as u64;
                m.output_tokens += usage.output_tokens as u64;
            }
            _ => {}
        }
    }
    if let (Some(a), Some(b)) = (events.first(), events.last()) {
        m.wall_clock_ms = b.at_ms.saturating_sub(a.at_ms);
    }
    for s in &config.seats {
        if let Participant::Model { .. } = s.participant {
            let d = s.participant.describe();
            if !m.models.contains(&d) {
                m.models.push(d);
            }
        }
    }
    m
}

/// The outcomes of a new forecast: "Yes" and "No".
pub fn default_outcomes() -> Vec<ForecastOutcome> {
    vec![
        ForecastOutcome {
            id: "yes".into(),
            label: "Yes".into(),
            description: String::new(),
        },
        ForecastOutcome {
            id: "no".into(),
            label: "No".into(),
            description: String::new(),
        },
    ]
}

pub async fn run(ctx: &DebateCtx) -> Result<(), DebateError> {
    Forecast::new(ctx)?.run().await
}

#[cfg(test)]
mod tests;
