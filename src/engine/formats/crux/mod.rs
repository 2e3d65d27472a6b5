//! The crux format (seed 004): personas, each speaking from a contract (`persona`), debate a
//! topic the analyst first breaks into aspects. Every persona opens with a micro-turn; each
//! aspect runs three minirounds (initial takes, reactions to whoever they disagree with most,
//! then a reply to whoever answered them), a round summary and a disagreement detection with
//! three gates. When all three hold, the two personas go into a crux room: position
//! statements, an alternating exchange of at most 14 turns whose prompts carry only the
//! position summary and the last four messages, exit checks after turns 3, 5, …, 13, a
//! convergence check and a crux card. Closings, position-shift detection and a final summary
//! end the debate. Every analysis answer goes through `call_json` and is validated; what
//! cannot be read is recorded as not extracted or unscored, never filled in. The call order
//! is listed in `prompts/README.md`.
//!
//! The files follow a debate: `opening` (the decomposition and the openings), `aspects`
//! (minirounds, round summary, disagreement detection), `rooms` (a crux room and its card),
//! `closing` (closings, shifts, the summary). `calls` is how personas speak and the analyst
//! is asked; `analysis` and `schemas` read and shape the analyst's answers; `paths` names
//! every call; `persona` holds the contracts.

pub mod analysis;
mod aspects;
mod calls;
mod closing;
pub mod findings;
mod opening;
pub mod options;
pub mod paths;
pub mod persona;
pub(super) mod plan;
pub mod prompts;
mod rooms;
pub(super) mod schemas;

use futures::future::join_all;

use super::super::answer::{Problem, Unread};
use super::super::config::{CruxOptions, DebateConfig, FormatOptions, Participant, SeatConfig};
use super::super::context::{Attempt, CallSpec, DebateCtx, DebateError};
use super::super::event::{CallKey, Purpose};
use super::super::finding::{Aspect, CruxCard, Disagreement, Finding, FindingBody, RoomCheckKind};
use super::super::prompt::{crux as p, render};
use super::super::transcript::{clip, words};
use analysis::Detection;
use paths::CruxPath;
use persona::{CruxPersona, PersonaContract};

pub use super::ANALYST;

/// Seed 004's token limits.
pub const DECOMPOSE_TOKENS: u32 = 300;
pub const OPENING_TOKENS: u32 = 200;
pub const TAKE_TOKENS: u32 = 250;
pub const ROUND_SUMMARY_TOKENS: u32 = 100;
pub const DETECTION_TOKENS: u32 = 150;
pub const POSITION_TOKENS: u32 = 200;
pub const EXCHANGE_TOKENS: u32 = 250;
pub const EXIT_TOKENS: u32 = 200;
pub const CONVERGENCE_TOKENS: u32 = 200;
pub const CARD_TOKENS: u32 = 600;
pub const CLOSING_TOKENS: u32 = 350;
pub const SHIFT_TOKENS: u32 = 300;
pub const SUMMARY_TOKENS: u32 = 1500;

/// Minirounds per aspect: initial takes, reactions, replies.
pub const MINIROUNDS: u32 = 3;
/// The seed's cap on a crux room's exchange.
pub const MAX_EXCHANGES: u32 = 14;
/// Exchange prompts carry this many of the latest messages, and exit checks this many.
const RECENT: usize = 4;
const EXIT_WINDOW: usize = 6;
/// Each message quoted in a bounded prompt is clipped to this many characters.
const QUOTE_CHARS: usize = 700;

/// An exit check runs after this exchange turn (numbered from 0): 3, 5, 7, 9, 11, 13.
pub fn exit_check_after(turn: u32) -> bool {
    turn >= 3 && turn % 2 == 1
}

/// The seat of the `i`-th persona (from 0).
pub fn persona_seat(i: usize) -> String {
    format!("persona-{}", i + 1)
}

/// A crux debate's configuration: personas in order, each with who fills its seat, and the
/// analyst who decomposes, detects, checks and extracts.
pub fn new_config(
    topic: &str,
    personas: Vec<(PersonaContract, Participant)>,
    analyst: Participant,
    mut options: CruxOptions,
) -> DebateConfig {
    let mut seats = Vec::new();
    options.personas.clear();
    for (i, (contract, participant)) in personas.into_iter().enumerate() {
        let seat = persona_seat(i);
        seats.push(SeatConfig {
            id: seat.clone(),
            name: contract.name.clone(),
            stance: Some(clip(&contract.identity.bias, 120)),
            participant,
        });
        options.personas.push(CruxPersona::new(seat, &contract));
    }
    seats.push(super::analyst_seat(analyst));
    DebateConfig::new(topic, seats, ANALYST, FormatOptions::Crux(options))
}

/// Checks a crux configuration, with messages for the user.
pub fn validate(config: &DebateConfig, o: &CruxOptions) -> Result<(), String> {
    if !(2..=6).contains(&o.personas.len()) {
        return Err("A crux debate has between 2 and 6 personas.".into());
    }
    if !(1..=5).contains(&o.aspects) {
        return Err("A crux debate has between 1 and 5 aspects.".into());
    }
    if !(2..=MAX_EXCHANGES).contains(&o.max_exchanges) {
        return Err(format!(
            "A crux room's exchange has between 2 and {MAX_EXCHANGES} turns."
        ));
    }
    let t = o.temperatures;
    for (name, v) in [
        ("generation", t.generation),
        ("crux exchange", t.exchange),
        ("analysis", t.analysis),
        ("extraction", t.extraction),
    ] {
        if !(0.0..=2.0).contains(&v) {
            return Err(format!("The {name} temperature goes from 0 to 2."));
        }
    }
    for (i, cp) in o.personas.iter().enumerate() {
        if cp.seat == config.analyst {
            return Err("The analyst cannot also be a persona.".into());
        }
        if o.personas[..i].iter().any(|q| q.seat == cp.seat) {
            return Err(format!("The seat `{}` holds two personas.", cp.seat));
        }
        let Some(seat) = config.seat(&cp.seat) else {
            return Err(format!("The persona of `{}` has no seat.", cp.seat));
        };
        cp.read().map_err(|e| format!("{}: {e}", seat.name))?;
    }
    Ok(())
}

/// A persona as the format uses it.
struct Voice {
    seat: String,
    name: String,
    contract: PersonaContract,
    system: String,
    banned: Vec<String>,
}

/// What was said in a crux room, for its prompts and its card.
struct Room {
    /// The aspect the room digs into; its key is `room/{aspect}`.
    aspect: u32,
    key: String,
    question: String,
    /// The two seats, in speaking order.
    sides: [usize; 2],
    positions: [String; 2],
    /// (persona index, cleaned text).
    messages: Vec<(usize, String)>,
    last_key: Option<CallKey>,
}

struct Crux<'a> {
    ctx: &'a DebateCtx,
    config: DebateConfig,
    o: CruxOptions,
    voices: Vec<Voice>,
    /// Finished aspects' summaries: (title, text).
    summaries: Vec<(String, String)>,
    /// Disagreements detected, in words, with no card that resolved them.
    open: Vec<String>,
    cards: Vec<CruxCard>,
    openings: Vec<String>,
}

fn quote(name: &str, text: &str) -> String {
    format!("{name}: {}", clip(text.trim(), QUOTE_CHARS))
}

/// Does `text` address the persona called `name` ("The Actuary", or "Actuary")?
fn mentions(text: &str, name: &str) -> bool {
    let text = text.to_lowercase();
    let name = name.trim().to_lowercase();
    let short = name.strip_prefix("the ").unwrap_or(&name);
    !short.is_empty() && (text.contains(&name) || text.contains(short))
}

impl<'a> Crux<'a> {
    fn new(ctx: &'a DebateCtx) -> Result<Self, DebateError> {
        let config = ctx.config();
        let o = match &config.options {
            FormatOptions::Crux(o) => o.clone(),
            _ => return Err(DebateError::Config("This is not a crux debate.".into())),
        };
        validate(&config, &o).map_err(DebateError::Config)?;
        let voices: Vec<Voice> = o
            .personas
            .iter()
            .filter_map(|cp| {
                let contract = cp.read().ok()?;
                Some(Voice {
                    seat: cp.seat.clone(),
                    name: config
                        .seat(&cp.seat)
                        .map_or_else(|| contract.name.clone(), |s| s.name.clone()),
                    system: persona::system_prompt(&contract, &config.topic),
                    banned: persona::banned(&contract),
                    contract,
                })
            })
            .collect();
        let n = voices.len();
        Ok(Crux {
            ctx,
            config,
            o,
            voices,
            summaries: Vec::new(),
            open: Vec::new(),
            cards: Vec::new(),
            openings: vec![String::new(); n],
        })
    }

    fn ids(&self, only: &[usize]) -> Vec<(String, String)> {
        only.iter()
            .map(|&i| (self.voices[i].seat.clone(), self.voices[i].name.clone()))
            .collect()
    }

    fn all(&self) -> Vec<usize> {
        (0..self.voices.len()).collect()
    }

    fn id_list(&self, only: &[usize]) -> String {
        only.iter()
            .map(|&i| format!("{} ({})", self.voices[i].seat, self.voices[i].name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn name_of(&self, seat: &str) -> String {
        self.config
            .seat(seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    async fn run(&mut self) -> Result<(), DebateError> {
        let aspects = self.decompose().await?;
        self.openings().await?;
        for (i, aspect) in aspects.iter().enumerate() {
            self.aspect(i as u32 + 1, aspect).await?;
        }
        let closings = self.closings().await?;
        self.shifts(&closings).await?;
        self.summary(&closings).await
    }
}

/// What a persona's turn shows: its text cleaned as the format cleaned it for later
/// prompts (no speaker label, no banned opener). Other seats' text is shown as it came.
pub fn shown_text(config: &DebateConfig, seat: &str, text: &str) -> String {
    let FormatOptions::Crux(o) = &config.options else {
        return text.to_string();
    };
    match o.personas.iter().find(|p| p.seat == seat).map(|p| p.read()) {
        Some(Ok(c)) => {
            let name = config
                .seat(seat)
                .map_or(c.name.as_str(), |s| s.name.as_str());
            persona::clean(text, name, &persona::banned(&c))
        }
        _ => text.to_string(),
    }
}

pub async fn run(ctx: &DebateCtx) -> Result<(), DebateError> {
    Crux::new(ctx)?.run().await
}

#[cfg(test)]
mod tests;
