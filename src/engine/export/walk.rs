//! One walk that every transcript export renders (Markdown, plain text, the folder's
//! message files, Argdown): the debate as the screen shows it (`engine::log_view`), in
//! words, so a transcript and the screen never disagree on what was said in which order.

use super::super::config::DebateConfig;
use super::super::event::{CallKey, Event, EventKind, FinishReason, Purpose, Usage};
use super::super::finding::{CouncilFinding, Finding, FindingBody};
use super::super::log_view::{BlockKind, LogView, NoteKind, TurnStatus};
use super::super::reading;
use super::super::sources::quotes::Checked;
use super::super::sources::web::WebSearch;
use super::one_line;

/// A finished turn.
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
    /// What it cost, when its seat has a price.
    pub cost: Option<f64>,
    pub finish: FinishReason,
    /// The quotes it marked, with their checks.
    pub quotes: &'a [Checked],
    /// What its web search cited, or why it did not search.
    pub web: Option<&'a WebSearch>,
}

pub(super) enum Item<'a> {
    Phase(&'a str),
    Turn(Turn<'a>),
    /// Plain text (several lines for a user's question or evidence): failed attempts,
    /// inputs, errors, skipped calls.
    Note(String),
    Finding {
        /// What it is ("Score", "Ballot of Member 2").
        label: String,
        summary: String,
        /// The turn it concerns (a fact check), if any.
        about: Option<&'a CallKey>,
    },
}

/// How a turn ended, when it did not end on its own (worded by `engine::reading`).
pub(super) fn finish_note(finish: FinishReason) -> Option<&'static str> {
    reading::finish(finish)
}

/// What the screen shows, in its order (`LogView`'s blocks), in words: a turn where it
/// started, with the judgement or cut attached to it right after it; a failed attempt as a
/// note; inputs, skipped calls and errors; what the forecast's question resolved to. Pauses,
/// retry countdowns and turns that never finished are the screen's alone.
pub(super) fn walk<'a>(view: &'a LogView, events: &'a [Event]) -> Vec<Item<'a>> {
    let Some(config) = view.config.as_ref() else {
        return Vec::new();
    };
    let mut items = Vec::new();
    let mut phase = "";
    let mut n = 0;
    for block in &view.blocks {
        match &block.kind {
            BlockKind::Phase { title } => {
                phase = title;
                items.push(Item::Phase(title));
            }
            BlockKind::Turn(i) => {
                let t = &view.turns[*i];
                let finished = t.status.finish().zip(t.usage.as_ref());
                if let Some((finish, usage)) = finished {
                    n += 1;
                    items.push(Item::Turn(Turn {
                        n,
                        call: &t.call,
                        seat: &t.seat,
                        label: &t.label,
                        purpose: Some(t.purpose),
                        phase,
                        text: t.text.clone(),
                        usage,
                        cost: t.cost,
                        finish,
                        quotes: &t.quotes,
                        web: t.web.as_ref(),
                    }));
                } else if matches!(t.status, TurnStatus::Failed | TurnStatus::Retried) {
                    let error = t.error.as_deref().unwrap_or_default();
                    items.push(Item::Note(one_line(&reading::failed_attempt(
                        config, &t.seat, error,
                    ))));
                }
                // A judgement or a cut is exported even when its turn never finished.
                for f in t.cut_by.iter().chain(&t.judged) {
                    items.push(finding(config, f));
                }
            }
            BlockKind::Finding(f) => items.push(finding(config, f)),
            BlockKind::Note { text, kind, .. } => match kind {
                NoteKind::Input => items.push(Item::Note(text.clone())),
                NoteKind::Skipped | NoteKind::Error => items.push(Item::Note(one_line(text))),
                NoteKind::Paused => {}
            },
            BlockKind::Retry { .. } => {}
        }
    }
    // What happened, recorded when the question settled, after the forecast: each
    // resolution in order, so a correction reads after the word it corrects.
    for e in events {
        if let EventKind::Resolved(r) = &e.kind {
            items.push(Item::Finding {
                label: "Resolved".into(),
                summary: one_line(&super::super::formats::forecast::ledger::describe(
                    events, r,
                )),
                about: None,
            });
        }
    }
    items
}

fn finding<'a>(config: &DebateConfig, f: &'a Finding) -> Item<'a> {
    // A ballot is its reviewer's: named, so two reviewers' ballots are told apart and a
    // reason is not read as the ranked member's own.
    let label = match &f.body {
        FindingBody::Council(c) if matches!(**c, CouncilFinding::Ballot(_)) => {
            format!("Ballot of {}", reading::seat_name(config, &f.seat))
        }
        body => body.label().to_string(),
    };
    Item::Finding {
        label,
        summary: one_line(&f.body.summary()),
        about: f.about.as_ref(),
    }
}

/// Only the finished turns, in order.
pub(super) fn turns<'a>(view: &'a LogView, events: &'a [Event]) -> Vec<Turn<'a>> {
    walk(view, events)
        .into_iter()
        .filter_map(|i| match i {
            Item::Turn(t) => Some(t),
            _ => None,
        })
        .collect()
}
