//! The classic format (seed 003): a neutral moderator and two positions. Opening remarks,
//! opening statements, N rounds of argument and rebuttal in both directions, closing
//! statements, and the moderator's final summary. The style changes the structure as well
//! as the tone (`options::ClassicStyle`): who leads a round, what the moderator says after
//! it, and when the positions are scored. The call order is listed in `prompts/README.md`.
//! How one turn is asked is in `speaking`; the moderator's rulings on a turn in
//! `moderating` (hinted by `rules`); the fact checks and the scores in `judging`, read by
//! `scoring`.

use super::super::config::{ClassicOptions, ClassicStyle, DebateConfig, FormatOptions, SeatConfig};
use super::super::context::{CallSpec, DebateCtx, DebateError};
use super::super::event::Purpose;
use super::super::finding::FindingBody;
use super::super::model::ChatMessage;
use super::super::prompt::{classic as p, render};
use super::super::transcript::{self, ContextParts, Said};
use options::{Lead, RoundClose};
use paths::ClassicPath;

pub mod findings;
mod judging;
mod moderating;
pub mod options;
pub mod paths;
pub(super) mod plan;
pub mod prompts;
pub mod rules;
pub mod scoring;
mod speaking;

pub const MODERATOR: &str = "moderator";
/// The optional fact checker's seat.
pub const FACT_CHECKER: &str = "fact-checker";
pub const POSITION_A: &str = "position-a";
pub const POSITION_B: &str = "position-b";
/// The most a fact check may answer.
pub const FACT_CHECK_TOKENS: u32 = 400;

/// One spoken turn: its call, whose it is, and the prompt and limits it is asked with.
struct Turn<'a> {
    path: ClassicPath,
    seat: &'a str,
    purpose: Purpose,
    label: &'a str,
    template: &'a str,
    max_tokens: u32,
    temperature: f32,
}

struct Classic<'a> {
    ctx: &'a DebateCtx,
    config: DebateConfig,
    o: ClassicOptions,
    rules: String,
    said: Vec<Said>,
    summaries: Vec<(String, String)>,
    /// Index into `said` of the first turn no summary covers.
    unsummarised_from: usize,
    /// Which position each note in `said` is about (a moderator's note, the fact checker
    /// stepping in), by its index: the scores weigh it with that side's turns.
    about: std::collections::BTreeMap<usize, String>,
    /// The moderator's length notes, by index into `said`, with the side each is about.
    overran: Vec<(usize, String)>,
}

impl<'a> Classic<'a> {
    async fn run(&mut self) -> Result<(), DebateError> {
        let o = self.o.clone();
        for id in [MODERATOR, POSITION_A, POSITION_B] {
            self.seat(id)?;
        }
        let ctx = self.ctx;

        ctx.phase("opening", "Opening statements", None);
        self.speak(
            Turn {
                path: ClassicPath::Opening {
                    seat: MODERATOR.into(),
                },
                seat: MODERATOR,
                purpose: Purpose::Moderation,
                label: "Opening remarks",
                template: p::MODERATOR_OPENING,
                max_tokens: o.summary_tokens,
                temperature: 0.5,
            },
            &[],
        )
        .await?;
        for seat in [POSITION_A, POSITION_B] {
            self.speak(
                Turn {
                    path: ClassicPath::Opening { seat: seat.into() },
                    seat,
                    purpose: Purpose::Argument,
                    label: "Opening statement",
                    template: p::OPENING,
                    max_tokens: o.opening_tokens,
                    temperature: 0.8,
                },
                &[],
            )
            .await?;
        }

        for round in 1..=o.rounds {
            ctx.phase(
                &format!("round/{round}"),
                &format!("Round {round}"),
                Some(round),
            );
            self.round(round).await?;
        }

        ctx.phase("closing", "Closing statements", None);
        for seat in [POSITION_A, POSITION_B] {
            self.speak(
                Turn {
                    path: ClassicPath::Closing { seat: seat.into() },
                    seat,
                    purpose: Purpose::Argument,
                    label: "Closing statement",
                    template: p::CLOSING,
                    max_tokens: o.closing_tokens,
                    temperature: 0.7,
                },
                &[],
            )
            .await?;
        }

        if o.scored() {
            ctx.phase("scores", "Scores", None);
            self.score(None, 0).await?;
        }

        ctx.phase("summary", "Moderator's summary", None);
        self.speak(
            Turn {
                path: ClassicPath::Summary,
                seat: MODERATOR,
                purpose: Purpose::Summary,
                label: "Closing summary",
                template: p::FINAL_SUMMARY,
                max_tokens: o.summary_tokens,
                temperature: 0.3,
            },
            &[],
        )
        .await?;
        Ok(())
    }

    /// One round: each side argues once and the other rebuts it (who leads depends on the
    /// style), then what the style has the moderator say and, in a competitive debate, the
    /// round's scores.
    async fn round(&mut self, round: u32) -> Result<(), DebateError> {
        let o = self.o.clone();
        let r = round.to_string();
        let round_start = self.said.len();
        for (seat, kind) in exchanges(o.style, round) {
            let seat: &str = seat;
            match kind {
                Exchange::Argument => {
                    self.speak(
                        Turn {
                            path: ClassicPath::Argument {
                                round,
                                seat: seat.into(),
                            },
                            seat,
                            purpose: Purpose::Argument,
                            label: "Argument",
                            template: p::ARGUMENT,
                            max_tokens: o.argument_tokens,
                            temperature: 0.8,
                        },
                        &[("round", &r)],
                    )
                    .await?;
                }
                Exchange::Rebuttal => {
                    let last = transcript::clip(&self.last_from(opponent(seat)), 2400);
                    self.speak(
                        Turn {
                            path: ClassicPath::Rebuttal {
                                round,
                                seat: seat.into(),
                            },
                            seat,
                            purpose: Purpose::Argument,
                            label: "Rebuttal",
                            template: p::REBUTTAL,
                            max_tokens: o.argument_tokens,
                            temperature: 0.8,
                        },
                        &[("round", &r), ("opponent_last", &last)],
                    )
                    .await?;
                }
            }
        }
        let exchanges = self.said[round_start..]
            .iter()
            .map(|s| {
                format!(
                    "[{} — {}]\n{}",
                    s.speaker,
                    s.label,
                    transcript::clip(s.text.trim(), 1600)
                )
            })
            .collect::<Vec<_>>()
            .join("\n\n");
        let close = match o.style.round_close() {
            RoundClose::Summary => Some((
                ClassicPath::RoundSummary { round },
                p::ROUND_SUMMARY,
                "Round summary",
            )),
            RoundClose::Explanation => Some((
                ClassicPath::RoundExplanation { round },
                p::ROUND_EXPLANATION,
                "Moderator's explanation",
            )),
            RoundClose::Nothing => None,
        };
        if let Some((path, template, label)) = close {
            let text = self
                .close_round(round, path, template, label, &exchanges)
                .await?;
            self.summaries.push((format!("Round {round}"), text));
            self.unsummarised_from = self.said.len();
        }
        if o.style.scores_each_round() {
            self.score(Some(round), round_start).await?;
        }
        Ok(())
    }

    /// The moderator's word on a round (a summary, or an explanation for learners) sees the
    /// round itself, not the rolling context.
    async fn close_round(
        &mut self,
        round: u32,
        path: ClassicPath,
        template: &str,
        label: &str,
        exchanges: &str,
    ) -> Result<String, DebateError> {
        let max_tokens = self.o.summary_tokens;
        let system = self.system_prompt(MODERATOR)?;
        let window = self.seat(MODERATOR)?.participant.context_tokens();
        let w = transcript::words(max_tokens);
        let r = round.to_string();
        let shell = render(
            template,
            &[("round", &r), ("max_words", &w), ("exchanges", "")],
        );
        let budget = transcript::budget(window, max_tokens, &system, &shell, None);
        let exchanges = transcript::clip_tokens(exchanges, budget);
        let user = render(
            template,
            &[("round", &r), ("max_words", &w), ("exchanges", &exchanges)],
        );
        let spec = CallSpec::new(path.to_string(), MODERATOR, Purpose::Summary, label)
            .system_and_user(system, user)
            .max_tokens(max_tokens)
            .temperature(0.3);
        let out = self.ctx.call(spec).await?;
        let speaker = self.seat(MODERATOR)?.name.clone();
        self.said.push(Said {
            seat: MODERATOR.into(),
            speaker,
            label: label.into(),
            text: out.text.clone(),
        });
        Ok(out.text)
    }
}

/// The two kinds of turn in a round's exchanges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exchange {
    Argument,
    Rebuttal,
}

/// The other position.
pub fn opponent(seat: &str) -> &'static str {
    if seat == POSITION_A {
        POSITION_B
    } else {
        POSITION_A
    }
}

/// A round's four turns in order: the lead argues and the other side rebuts, then the
/// other way round.
pub fn exchanges(style: ClassicStyle, round: u32) -> [(&'static str, Exchange); 4] {
    let (first, second) = match style.leads_round(round) {
        Lead::A => (POSITION_A, POSITION_B),
        Lead::B => (POSITION_B, POSITION_A),
    };
    [
        (first, Exchange::Argument),
        (second, Exchange::Rebuttal),
        (second, Exchange::Argument),
        (first, Exchange::Rebuttal),
    ]
}

pub async fn run(ctx: &DebateCtx) -> Result<(), DebateError> {
    let config = ctx.config();
    let o = config
        .classic()
        .cloned()
        .ok_or_else(|| DebateError::Config("This is not a classic debate.".into()))?;
    // The configuration's rules, read once: every system prompt carries them.
    let rules = scoring::configuration(o.style).0;
    let mut c = Classic {
        ctx,
        config,
        o,
        rules,
        said: Vec::new(),
        summaries: Vec::new(),
        unsummarised_from: 0,
        about: Default::default(),
        overran: Vec::new(),
    };
    c.run().await
}

/// A classic debate's configuration: the three seats, the analyst (the moderator), and the
/// options. `participant` says who fills each seat id.
/// What a user can get wrong in classic's own options.
pub fn validate(o: &super::super::config::ClassicOptions) -> Result<(), String> {
    if !(1..=10).contains(&o.rounds) {
        return Err("A classic debate has between 1 and 10 rounds.".into());
    }
    Ok(())
}

pub fn new_config(
    topic: &str,
    stance_a: &str,
    stance_b: &str,
    options: super::super::config::ClassicOptions,
    participant: impl Fn(&str) -> super::super::config::Participant,
) -> DebateConfig {
    let stance = |s: &str, fallback: &str| {
        if s.trim().is_empty() {
            fallback.to_string()
        } else {
            s.trim().to_string()
        }
    };
    let fact_checker = options.fact_checker;
    let mut config = DebateConfig::new(
        topic,
        vec![
            SeatConfig {
                id: MODERATOR.into(),
                name: "Moderator".into(),
                stance: None,
                participant: participant(MODERATOR),
            },
            SeatConfig {
                id: POSITION_A.into(),
                name: "Position A".into(),
                stance: Some(stance(stance_a, "In favour of the motion")),
                participant: participant(POSITION_A),
            },
            SeatConfig {
                id: POSITION_B.into(),
                name: "Position B".into(),
                stance: Some(stance(stance_b, "Against the motion")),
                participant: participant(POSITION_B),
            },
        ],
        MODERATOR,
        FormatOptions::Classic(options),
    );
    if fact_checker {
        config.seats.push(SeatConfig {
            id: FACT_CHECKER.into(),
            name: "Fact checker".into(),
            stance: None,
            participant: participant(FACT_CHECKER),
        });
    }
    config
}
