//! The debate formats. Each is plain async code over a `DebateCtx`.

pub mod classic;
pub mod council;
pub mod crux;
pub mod defaults;
pub mod duelogic;
pub mod forecast;
mod plans;
#[cfg(test)]
pub(crate) mod testing;

use super::config::{DebateConfig, FormatId};
use super::context::{DebateCtx, DebateError};

pub use defaults::default_config;
pub use plans::{plan, stages};

pub fn planned_calls(config: &DebateConfig) -> u32 {
    plan(config).len() as u32
}

/// The seat analysis calls run on when a debate gives them a model of their own.
pub const ANALYST: &str = "analyst";

/// The analyst's seat, filled by `participant`.
pub fn analyst_seat(participant: super::config::Participant) -> super::config::SeatConfig {
    super::config::SeatConfig {
        id: ANALYST.into(),
        name: "Analyst".into(),
        stance: None,
        participant,
    }
}

/// The seats whose speeches may search the web: the model seats that argue in free text
/// (not the analyst, the classic moderator or the duelogic Arbiter, and none in forecast,
/// whose roles answer in JSON, where no provider searches).
pub fn searching_seats(config: &DebateConfig) -> Vec<&super::config::SeatConfig> {
    let leading = match config.format() {
        FormatId::Forecast => return Vec::new(),
        FormatId::Classic => classic::MODERATOR,
        FormatId::Duelogic => duelogic::ARBITER,
        FormatId::Council => council::CHAIR,
        _ => "",
    };
    config
        .seats
        .iter()
        .filter(|s| s.id != leading && s.id != config.analyst)
        .filter(|s| matches!(s.participant, super::config::Participant::Model { .. }))
        .collect()
}

/// What a finished turn shows, on screen and in every export: the text as its format
/// cleaned it for later prompts (crux strips a speaker label and banned openers from a
/// persona's turn); other formats show it as it came.
pub fn shown_text(config: &DebateConfig, seat: &str, text: &str) -> String {
    match config.format() {
        FormatId::Crux => crux::shown_text(config, seat, text),
        _ => text.to_string(),
    }
}

/// Runs the configured format to its end (or to the first error).
pub async fn run(ctx: &DebateCtx) -> Result<(), DebateError> {
    let config = ctx.config();
    match config.format() {
        FormatId::Classic => Box::pin(classic::run(ctx)).await,
        FormatId::Duelogic => Box::pin(duelogic::run(ctx)).await,
        FormatId::Crux => Box::pin(crux::run(ctx)).await,
        FormatId::Forecast => Box::pin(forecast::run(ctx)).await,
        FormatId::Council => Box::pin(council::run(ctx)).await,
        // The probe is run by its own tests, never through here.
        #[cfg(test)]
        FormatId::Probe => Err(DebateError::Config(
            "The probe runs only in its tests.".into(),
        )),
    }
}

/// Runs the format and records how it ended: `Finished` with the outcome, preceded by an
/// `Error` event worded for the user when a call failed.
pub async fn drive(ctx: &DebateCtx) -> super::event::Outcome {
    conclude(ctx, run(ctx).await)
}

/// Records how a run ended (what `drive` does after `run`), for a caller that ran the
/// format its own way (the app fetches the runs in a chunk of their own).
pub fn conclude(ctx: &DebateCtx, ended: Result<(), DebateError>) -> super::event::Outcome {
    use super::event::Outcome;
    match ended {
        Ok(()) => {
            ctx.finish(Outcome::Completed, None);
            Outcome::Completed
        }
        Err(DebateError::Stopped) => {
            ctx.finish(
                Outcome::Stopped,
                Some("Stopped by the user. Resume continues from the interrupted turn.".into()),
            );
            Outcome::Stopped
        }
        Err(e) => {
            let message = match &e {
                DebateError::Failed(f) => {
                    let name = ctx
                        .config()
                        .seat(&f.seat)
                        .map(|s| s.name.clone())
                        .unwrap_or_else(|| f.seat.clone());
                    format!("{name}'s turn failed: {}", f.message)
                }
                other => other.to_string(),
            };
            ctx.record_error(message.clone());
            ctx.finish(Outcome::Failed, Some(message));
            Outcome::Failed
        }
    }
}
