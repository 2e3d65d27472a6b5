//! One walk over the event log that every transcript export renders (Markdown, plain text,
//! the folder's message files, Argdown): what happened, in order, in words.

use super::super::config::DebateConfig;
use super::super::event::{CallKey, Event, EventKind, FinishReason, Purpose, Usage};
use super::super::reading;
use super::one_line;

/// A finished turn, with what its `TurnStarted` said about it.
pub(super) struct Turn<'a> {
    /// 1 for the first finished turn of the debate, then in order.
    pub n: usize,
    pub call: &'a CallKey,
    pub seat: &'a str,
    pub label: &'a str,
    pub purpose: Option<Purpose>,
    /// The title of the phase it belongs to ("" before the first phase).
    pub phase: &'a str,
    /// As the screens show it (`reading::turn_text`).
    pub text: String,
    pub usage: &'a Usage,
    pub finish: FinishReason,
}

pub(super) enum Item<'a> {
    Phase(&'a str),
    Turn(Turn<'a>),
    /// Plain text (several lines for a user's question or evidence): failed attempts,
    /// inputs, errors, skipped calls.
    Note(String),
    Finding {
        label: &'static str,
        summary: String,
        /// The turn it concerns (a fact check), if any.
        about: Option<&'a CallKey>,
    },
}

/// How a turn ended, when it did not end on its own (worded by `engine::reading`).
pub(super) fn finish_note(finish: FinishReason) -> Option<&'static str> {
    reading::finish(finish)
}

pub(super) fn walk<'a>(config: &DebateConfig, events: &'a [Event]) -> Vec<Item<'a>> {
    let mut items = Vec::new();
    let mut started: Vec<(&CallKey, &str, Purpose)> = Vec::new();
    let mut phase = "";
    let mut n = 0;
    for e in events {
        let item = match &e.kind {
            EventKind::PhaseStarted { title, .. } => {
                phase = title;
                Item::Phase(title)
            }
            EventKind::TurnStarted {
                call,
                label,
                purpose,
                ..
            } => {
                started.push((call, label, *purpose));
                continue;
            }
            EventKind::TurnFinished {
                call,
                seat,
                text,
                usage,
                finish,
                ..
            } => {
                let how = started.iter().rev().find(|(c, ..)| *c == call);
                n += 1;
                Item::Turn(Turn {
                    n,
                    call,
                    seat,
                    label: how.map_or("", |h| h.1),
                    purpose: how.map(|h| h.2),
                    phase,
                    text: reading::turn_text(config, seat, text),
                    usage,
                    finish: *finish,
                })
            }
            EventKind::TurnFailed { seat, error, .. } => {
                Item::Note(one_line(&reading::failed_attempt(config, seat, error)))
            }
            EventKind::InputReceived { input, .. } => match reading::input(input) {
                Some(text) => Item::Note(text),
                None => continue,
            },
            EventKind::Error { message } => Item::Note(one_line(message)),
            EventKind::FindingRecorded(f) => Item::Finding {
                label: f.body.label(),
                summary: one_line(&f.body.summary()),
                about: f.about.as_ref(),
            },
            EventKind::CallSkipped { seat, reason, .. } => {
                Item::Note(one_line(&reading::skipped(config, seat, reason)))
            }
            // What happened, recorded when the question settled: after the forecast.
            EventKind::Resolved(r) => Item::Finding {
                label: "Resolved",
                summary: one_line(&super::super::formats::forecast::ledger::describe(
                    events, r,
                )),
                about: None,
            },
            _ => continue,
        };
        items.push(item);
    }
    items
}

/// Only the finished turns, in order.
pub(super) fn turns<'a>(config: &DebateConfig, events: &'a [Event]) -> Vec<Turn<'a>> {
    walk(config, events)
        .into_iter()
        .filter_map(|i| match i {
            Item::Turn(t) => Some(t),
            _ => None,
        })
        .collect()
}
