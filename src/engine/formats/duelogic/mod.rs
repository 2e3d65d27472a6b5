//! The duelogic format (seeds 000 and 002): two to six chairs argue a question from assigned
//! philosophical frameworks under the Arbiter, the podcast's host. The Arbiter introduces
//! the episode; in each round every chair speaks in turn while another chair may cut in
//! (a pattern check gates a model check on the analyst seat, which runs while the speaker
//! is still streaming; an accepted interruption cuts the speaker at the next sentence, the
//! interrupter speaks, the interrupted chair answers and goes on); each response is then
//! evaluated on the analyst seat, and by the accountability level's decision table the
//! Arbiter interjects and the chair answers; the Arbiter closes with a synthesis. The call
//! order is listed in `prompts/README.md`.
//!
//! The files follow an episode: this one has the intro and the closing; `turns` a chair's
//! speech and what follows it (the evaluation, an interjection), `interruptions` the checks
//! beside a speech and the cut, `context` what each seat reads. `evaluation` and `rules`
//! read the analyst's answers and decide by the accountability level.

mod context;
pub mod evaluation;
pub mod findings;
pub mod frameworks;
mod interruptions;
pub mod options;
pub mod paths;
pub(super) mod plan;
pub mod prompts;
pub mod rules;
pub mod stats;
mod turns;

use super::super::config::{
    Chair, DebateConfig, DuelogicOptions, FormatOptions, Framework, Participant, SeatConfig,
};
use super::super::context::{sentence_ends, CallSpec, DebateCtx, DebateError, Watch};
use super::super::event::{CallKey, Purpose};
use super::super::finding::{Finding, FindingBody};
use super::super::json_extract;
use super::super::model::ChatMessage;
use super::super::prompt::{duelogic as p, render};
use super::super::tokens;
use super::super::transcript::{self, clip, ContextParts, Said};
use evaluation::{evaluation_schema, parse_evaluation, parse_proposal, proposal_schema, Proposal};
use paths::{DuelogicPath, Part, Turn};
use rules::InterruptReason;
use std::collections::HashMap;

pub const ARBITER: &str = "arbiter";
/// The seat of a separate analyst model, when the user chose one.
pub use super::ANALYST;

/// Most model checks for interruptions during one speech, so a long speech full of
/// trigger words cannot run up the bill.
const MAX_CHECKS_PER_TURN: u32 = 3;

/// The seed's lengths (000), in words: the introduction 200–350, the closing 350–500, an
/// interjection 30–75. Each call's token limit leaves room for the most words it asks for.
pub const INTRO_WORDS: (u32, u32) = (200, 350);
pub const CLOSING_WORDS: (u32, u32) = (350, 500);
pub const INTERJECTION_WORDS: (u32, u32) = (30, 75);

pub const INTRO_TOKENS: u32 = 600;
pub const TURN_TOKENS: u32 = 450;
pub const EVALUATION_TOKENS: u32 = 500;
pub const CLOSING_TOKENS: u32 = 900;
const CHECK_TOKENS: u32 = 250;
const INTERRUPTION_TOKENS: u32 = 100;
const RESUME_TOKENS: u32 = 250;
const INTERJECTION_TOKENS: u32 = 150;
const ANSWER_TOKENS: u32 = 250;

/// Whether a call is a chair's response of a round (`round/N/chair-K`): the calls the
/// Arbiter evaluates, unless accountability is relaxed.
pub fn is_evaluated(call: &CallKey) -> bool {
    matches!(
        DuelogicPath::parse(&call.path),
        Some(DuelogicPath::Turn(t)) if t.seat.starts_with("chair-")
    )
}

/// A duelogic debate's configuration. Chairs are given in speaking order as (display name,
/// framework id, who fills the seat); without a separate analyst the Arbiter evaluates.
pub fn new_config(
    topic: &str,
    chairs: Vec<(String, String, Participant)>,
    arbiter: Participant,
    analyst: Option<Participant>,
    mut options: DuelogicOptions,
) -> DebateConfig {
    let mut seats = vec![SeatConfig {
        id: ARBITER.into(),
        name: "The Arbiter".into(),
        stance: None,
        participant: arbiter,
    }];
    options.chairs.clear();
    for (i, (name, framework, participant)) in chairs.into_iter().enumerate() {
        let seat = format!("chair-{}", i + 1);
        let fw = frameworks::find(&options, &framework);
        seats.push(SeatConfig {
            id: seat.clone(),
            name,
            stance: fw.map(|f| f.name),
            participant,
        });
        options.chairs.push(Chair { seat, framework });
    }
    let analyst_seat = match analyst {
        Some(participant) => {
            seats.push(super::analyst_seat(participant));
            ANALYST
        }
        None => ARBITER,
    };
    DebateConfig::new(topic, seats, analyst_seat, FormatOptions::Duelogic(options))
}

/// Checks a duelogic configuration, with messages for the user.
pub fn validate(config: &DebateConfig, o: &DuelogicOptions) -> Result<(), String> {
    if config.seat(ARBITER).is_none() {
        return Err("A duelogic debate needs the Arbiter's seat.".into());
    }
    if !(2..=6).contains(&o.chairs.len()) {
        return Err("A duelogic debate has between 2 and 6 chairs.".into());
    }
    if !(1..=10).contains(&o.rounds) {
        return Err("A duelogic debate has between 1 and 10 rounds.".into());
    }
    if !(1..=5).contains(&o.aggressiveness) {
        return Err("Interruption aggressiveness goes from 1 to 5.".into());
    }
    for f in &o.frameworks {
        frameworks::validate(f)?;
    }
    for c in &o.chairs {
        let seat = config
            .seat(&c.seat)
            .ok_or_else(|| format!("The chair `{}` has no seat.", c.seat))?;
        if frameworks::find(o, &c.framework).is_none() {
            return Err(format!(
                "{} argues from an unknown framework `{}`.",
                seat.name, c.framework
            ));
        }
    }
    Ok(())
}

/// A chair as the format uses it.
#[derive(Clone)]
struct Seat {
    id: String,
    name: String,
    /// "gpt-4o-mini via OpenAI", for the introduction.
    model: String,
    framework: Framework,
}

struct Duelogic<'a> {
    ctx: &'a DebateCtx,
    config: DebateConfig,
    o: DuelogicOptions,
    chairs: Vec<Seat>,
    said: Vec<Said>,
    /// Where each round (and then the closing) starts in `said`; what comes before the
    /// first is the introduction.
    round_starts: Vec<usize>,
    /// When each chair last cut in, in debate time (recorded, so a replay agrees).
    last_interrupt: HashMap<String, u64>,
}

/// An accepted interruption.
struct Cut {
    by: String,
    proposal: Proposal,
}

impl<'a> Duelogic<'a> {
    fn new(ctx: &'a DebateCtx) -> Result<Self, DebateError> {
        let config = ctx.config();
        let o = match &config.options {
            FormatOptions::Duelogic(o) => o.clone(),
            _ => return Err(DebateError::Config("This is not a duelogic debate.".into())),
        };
        validate(&config, &o).map_err(DebateError::Config)?;
        let chairs = o
            .chairs
            .iter()
            .filter_map(|c| {
                let seat = config.seat(&c.seat)?;
                Some(Seat {
                    id: c.seat.clone(),
                    name: seat.name.clone(),
                    model: seat.participant.describe(),
                    framework: frameworks::find(&o, &c.framework)?,
                })
            })
            .collect();
        Ok(Duelogic {
            ctx,
            config,
            o,
            chairs,
            said: Vec::new(),
            round_starts: Vec::new(),
            last_interrupt: HashMap::new(),
        })
    }

    fn show(&self) -> (&str, String) {
        (self.o.show_name.as_str(), self.o.episode.to_string())
    }

    fn name_of(&self, seat: &str) -> String {
        self.config
            .seat(seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    fn remember(&mut self, seat: &str, label: &str, text: &str) {
        self.said.push(Said {
            seat: seat.into(),
            speaker: self.name_of(seat),
            label: label.into(),
            text: text.into(),
        });
    }

    /// A turn of the debate: the call made, and what it said remembered for the prompts
    /// after it.
    async fn speak(&mut self, spec: CallSpec) -> Result<String, DebateError> {
        let (seat, label) = (spec.seat.clone(), spec.label.clone());
        let out = self.ctx.call(spec).await?;
        self.remember(&seat, &label, &out.text);
        Ok(out.text)
    }

    async fn intro(&mut self) -> Result<(), DebateError> {
        let (show, episode) = self.show();
        let chairs: Vec<String> = self
            .chairs
            .iter()
            .map(|c| {
                format!(
                    "- {} ({}), arguing from {}: {} Core question: {}",
                    c.name,
                    c.model,
                    c.framework.name,
                    c.framework.description,
                    c.framework.core_question
                )
            })
            .collect();
        let context = if self.o.context.trim().is_empty() {
            String::new()
        } else {
            format!("Context: {}", self.o.context.trim())
        };
        let user = render(
            p::INTRO,
            &[
                ("show", show),
                ("episode", &episode),
                ("topic", &self.config.topic),
                ("proposition_context", &context),
                ("chairs", &chairs.join("\n")),
                ("first_chair", &self.chairs[0].name),
                ("min_words", &INTRO_WORDS.0.to_string()),
                ("max_words", &INTRO_WORDS.1.to_string()),
            ],
        );
        let system = self.arbiter_system();
        self.speak(
            CallSpec::new(
                DuelogicPath::Intro.to_string(),
                ARBITER,
                Purpose::Moderation,
                "Introduction",
            )
            .system_and_user(system, user)
            .max_tokens(INTRO_TOKENS)
            .temperature(0.8),
        )
        .await?;
        Ok(())
    }

    async fn closing(&mut self) -> Result<(), DebateError> {
        let (show, episode) = self.show();
        let stats = stats::Stats::from_events(&self.config, &self.ctx.events());
        let scorecard = stats.scorecard(&self.config);
        let system = self.arbiter_system();
        let cta = if self.o.call_to_action {
            "Call to action: invite listeners to subscribe, to share the episode with someone who loves a good argument, and to leave a review."
        } else {
            ""
        };
        let vars = [
            ("show", show),
            ("episode", episode.as_str()),
            ("topic", &self.config.topic),
            ("scorecard", &scorecard),
            ("call_to_action", cta),
            ("min_words", &CLOSING_WORDS.0.to_string()),
            ("max_words", &CLOSING_WORDS.1.to_string()),
        ];
        let user = self.prompt(ARBITER, &system, p::CLOSING, CLOSING_TOKENS, &vars);
        self.speak(
            CallSpec::new(
                DuelogicPath::Closing.to_string(),
                ARBITER,
                Purpose::Summary,
                "Closing",
            )
            .system_and_user(system, user)
            .max_tokens(CLOSING_TOKENS)
            .temperature(0.7),
        )
        .await?;
        Ok(())
    }

    async fn run(&mut self) -> Result<(), DebateError> {
        self.ctx.phase("intro", "Introduction", None);
        self.intro().await?;
        for round in 1..=self.o.rounds {
            self.ctx.phase(
                &format!("round/{round}"),
                &format!("Round {round}"),
                Some(round),
            );
            self.round_starts.push(self.said.len());
            for i in 0..self.chairs.len() {
                self.turn(round, i).await?;
            }
        }
        self.ctx.phase("closing", "Closing", None);
        self.round_starts.push(self.said.len());
        self.closing().await
    }
}

pub async fn run(ctx: &DebateCtx) -> Result<(), DebateError> {
    Duelogic::new(ctx)?.run().await
}

/// The opening of `text` in about `tokens`: whole sentences where one fits, else cut.
fn lead(text: &str, tokens: u32) -> String {
    let text = text.trim();
    let cut = transcript::clip_tokens(text, tokens);
    if cut == text {
        return cut;
    }
    let room = cut.len().saturating_sub('…'.len_utf8());
    match sentence_ends(text)
        .into_iter()
        .take_while(|&e| e <= room)
        .last()
    {
        Some(end) => text[..end].to_string(),
        None => cut,
    }
}

#[cfg(test)]
mod tests;
