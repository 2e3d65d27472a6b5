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
//!
//! The files follow a forecast: `context` (what a role reads), `rounds` (an argument, its
//! score, a regeneration), `summaries` (after each round), `synthesis` (the judge's
//! synthesis and the result). `parse` reads the answers, `consensus` does the arithmetic,
//! `types` holds the findings, `ledger` and `report` serve the ledger and the exports.

pub mod board;
pub mod consensus;
mod context;
pub mod ledger;
pub mod options;
pub mod parse;
pub mod partial;
pub mod paths;
pub(super) mod plan;
pub mod prompts;
pub mod report;
mod rounds;
mod summaries;
mod synthesis;
pub mod types;

use std::cell::RefCell;

use futures::future::join_all;

use super::super::answer::Unread;
use super::super::config::{
    DebateConfig, ForecastContext, ForecastOptions, ForecastOutcome, ForecastRole, FormatOptions,
    Participant, RoleKind, SeatConfig,
};
use super::super::context::{Attempt, CallSpec, DebateCtx, DebateError};
use super::super::event::{CallKey, EventKind, Purpose};
use super::super::finding::{Criterion, Finding, FindingBody, OutcomeProbability};
use super::super::model::ChatMessage;
use super::super::prompt::{forecast as p, render};
use super::super::tokens;
use super::super::transcript::{self, clip};
use consensus as c;
use parse::{Parsed, Score};
use paths::ForecastPath;
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
        let kind = RoleKind::from_id(&kind);
        // A seed role takes its word as seat id, once; a custom role (or a second
        // historian) gets `role-N`.
        let seat = if kind != RoleKind::Custom
            && !options
                .roles
                .iter()
                .any(|r: &ForecastRole| r.seat == kind.id())
        {
            kind.id().to_string()
        } else {
            format!("role-{}", i + 1)
        };
        seats.push(SeatConfig {
            id: seat.clone(),
            name: if name.trim().is_empty() {
                role_name(kind.id())
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
    DebateConfig::new(
        question,
        seats,
        analyst_seat,
        FormatOptions::Forecast(options),
    )
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
        if r.kind == RoleKind::Custom && r.perspective.trim().is_empty() {
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

    fn record(&self, key: &str, f: ForecastFinding) {
        self.ctx.record(Finding {
            key: key.into(),
            about: None,
            seat: String::new(),
            body: FindingBody::Forecast(Box::new(f)),
        });
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
                key: ForecastPath::Synthesis.into(),
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
