//! A debate as a file: JSON (the whole event log, which Agora can read back, plus its cost)
//! and Markdown (the transcript for people). Both are built from the event log alone, so
//! they hold what the log holds: never an API key.

use super::config::{DebateConfig, Participant};
use super::cost::{dollars, Ledger};
use super::event::{config_of, Event, EventKind, FinishReason, Input, SCHEMA_VERSION};

fn seat_name(config: &DebateConfig, seat: &str) -> String {
    config
        .seat(seat)
        .map_or_else(|| seat.to_string(), |s| s.name.clone())
}

/// A file name from the topic: "should-cities-ban-cars.md".
pub fn file_name(events: &[Event], ext: &str) -> String {
    let topic = config_of(events).map_or("debate", |c| c.topic.as_str());
    let mut slug = String::new();
    // ASCII only: Unicode case tables would cost the bundle ~10 KB for a file name.
    for c in topic.chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.chars().count() >= 60 {
            break;
        }
    }
    let slug = slug.trim_matches('-');
    format!("{}.{ext}", if slug.is_empty() { "debate" } else { slug })
}

/// The cost as plain data, for the JSON export.
fn cost_json(config: &DebateConfig, ledger: &Ledger) -> serde_json::Value {
    let seats: serde_json::Map<String, serde_json::Value> = ledger
        .seats
        .iter()
        .map(|(id, usd)| {
            let known = !ledger.unpriced.contains(id);
            (
                seat_name(config, id),
                if known {
                    (*usd).into()
                } else {
                    serde_json::Value::Null
                },
            )
        })
        .collect();
    serde_json::json!({
        "currency": "USD",
        "total": ledger.total,
        "by_seat": seats,
        "estimated": ledger.estimated,
        "unpriced_seats": ledger.unpriced,
    })
}

pub fn to_json(events: &[Event]) -> String {
    let mut doc = serde_json::json!({
        "agora_export": 1,
        "schema": SCHEMA_VERSION,
        "events": events,
    });
    if let Some(config) = config_of(events) {
        doc["cost"] = cost_json(config, &Ledger::from_events(config, events));
    }
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

fn usage_line(config: &DebateConfig, seat: &str, ledger: &mut Ledger, e: &EventKind) -> String {
    let EventKind::TurnFinished { usage, .. } = e else {
        return String::new();
    };
    let est = if usage.estimated { " (estimated)" } else { "" };
    let money = match ledger.add(config, seat, usage) {
        Some(c) => format!(" · {}{est}", dollars(c)),
        None => String::new(),
    };
    format!(
        "*{} tokens in, {} out{est}{money}*\n\n",
        usage.input_tokens, usage.output_tokens
    )
}

pub fn to_markdown(events: &[Event]) -> String {
    let Some(config) = config_of(events) else {
        return String::new();
    };
    let mut md = format!("# {}\n\n", config.topic.trim());
    md.push_str(&format!(
        "*{}. Exported from Agora.*\n\n",
        config.options.describe()
    ));
    for s in &config.seats {
        let stance = s
            .stance
            .as_deref()
            .map(|x| format!(": {x}"))
            .unwrap_or_default();
        let who = match &s.participant {
            Participant::Model { .. } => s.participant.describe(),
            Participant::Human => "a person".into(),
        };
        md.push_str(&format!("- **{}**{stance} ({who})\n", s.name));
    }
    md.push('\n');
    let mut ledger = Ledger::new(config);
    let mut labels: Vec<(String, String)> = Vec::new();
    for e in events {
        match &e.kind {
            EventKind::PhaseStarted { title, .. } => md.push_str(&format!("## {title}\n\n")),
            EventKind::TurnStarted { call, label, .. } => {
                labels.push((call.to_string(), label.clone()));
            }
            EventKind::TurnFinished {
                call,
                seat,
                text,
                finish,
                ..
            } => {
                let label = labels
                    .iter()
                    .rev()
                    .find(|(c, _)| *c == call.to_string())
                    .map_or("", |(_, l)| l.as_str());
                md.push_str(&format!("### {} — {label}\n\n", seat_name(config, seat)));
                md.push_str(text.trim());
                md.push_str("\n\n");
                match finish {
                    FinishReason::Length => md.push_str("*Cut off by the token limit.*\n\n"),
                    FinishReason::Cut => md.push_str("*Interrupted.*\n\n"),
                    FinishReason::Limit => {
                        md.push_str("*Cut at Agora's size or time limit for one answer.*\n\n")
                    }
                    FinishReason::Stop => {}
                }
                md.push_str(&usage_line(config, seat, &mut ledger, &e.kind));
            }
            EventKind::TurnFailed { seat, error, .. } => md.push_str(&format!(
                "> {}'s attempt failed: {error}\n\n",
                seat_name(config, seat)
            )),
            EventKind::InputReceived { input, .. } => match input {
                Input::Question { text } => {
                    md.push_str(&format!("> Audience question: {text}\n\n"))
                }
                Input::Evidence { text } => {
                    md.push_str(&format!("> Evidence submitted: {text}\n\n"))
                }
                Input::SpendingCap { usd } => md.push_str(&format!(
                    "> Spending cap set to {}.\n\n",
                    usd.map_or("none".into(), dollars)
                )),
                Input::HumanTurn { .. } => {}
            },
            EventKind::Error { message } => md.push_str(&format!("> {message}\n\n")),
            EventKind::FindingRecorded(f) => md.push_str(&format!(
                "> **{}**: {}\n\n",
                f.body.label(),
                f.body.summary()
            )),
            EventKind::CallSkipped { seat, reason, .. } => md.push_str(&format!(
                "> {}'s call was skipped: {reason}\n\n",
                seat_name(config, seat)
            )),
            _ => {}
        }
    }
    md.push_str("## Cost\n\n| Seat | Cost (USD) |\n|---|---|\n");
    for (id, usd) in &ledger.seats {
        let v = ledger.shown(id, *usd);
        md.push_str(&format!("| {} | {v} |\n", seat_name(config, id)));
    }
    let est = if ledger.estimated {
        " (estimated: the provider reported no usage for some calls)"
    } else {
        ""
    };
    md.push_str(&format!(
        "| **Total** | **{}**{est} |\n",
        dollars(ledger.total)
    ));
    md
}
