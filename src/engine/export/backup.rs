//! Every debate in one file, and back. A debate of a backup that breaks a rule of
//! `import` is refused on its own, with the reason, and the others are restored.

use super::super::event::{Event, EventKind, SCHEMA_VERSION};
use super::import::{debate, opened, MAX_BACKUP_BYTES};
use serde_json::Value;

#[derive(serde::Serialize)]
struct BackupFile<'a> {
    agora_backup: u32,
    schema: u32,
    debates: Vec<BackupDebate<'a>>,
}

#[derive(serde::Serialize)]
struct BackupDebate<'a> {
    events: &'a [Event],
}

pub fn backup(debates: &[Vec<Event>]) -> String {
    serde_json::to_string(&BackupFile {
        agora_backup: 1,
        schema: SCHEMA_VERSION,
        debates: debates.iter().map(|d| BackupDebate { events: d }).collect(),
    })
    .unwrap_or_default()
}

/// What a backup gave back: the debates that passed every check, and one line per debate
/// that did not ("debate 3 (Should cities…): events[4]: …"). The caller stores the first
/// (skipping those it already has, see `same_debate`) and shows the second.
#[derive(Debug, Default, PartialEq)]
pub struct Restored {
    pub debates: Vec<Vec<Event>>,
    pub refused: Vec<String>,
}

/// Reads a backup. The whole file is refused (`Err`) when it is not a backup at all (too
/// large, not JSON, cut off, from a newer Agora, or carrying a key-like field).
pub fn restore(text: &str) -> Result<Restored, String> {
    let (file, schema) = opened(text, MAX_BACKUP_BYTES, "agora_backup", "backup")?;
    let list = file
        .get("debates")
        .and_then(Value::as_array)
        .ok_or("field `debates`: missing or not a list.")?;
    let mut out = Restored::default();
    for (i, d) in list.iter().enumerate() {
        match debate(schema, d.get("events"), &format!("debates[{i}].events")) {
            Ok(events) => out.debates.push(events),
            Err(e) => {
                let topic: String = d
                    .pointer("/events/0/kind/DebateStarted/config/topic")
                    .and_then(Value::as_str)
                    .map(|t| t.chars().take(60).collect())
                    .unwrap_or_default();
                out.refused.push(format!("debate {} ({topic}): {e}", i + 1));
            }
        }
    }
    Ok(out)
}

/// True when two logs are the same debate (the same start: time, seed, topic and fork
/// point; a fork starts like its original), however far each got: for skipping debates a
/// device already has.
pub fn same_debate(a: &[Event], b: &[Event]) -> bool {
    let start = |e: &[Event]| match e.first() {
        Some(Event {
            at_ms,
            kind: EventKind::DebateStarted { config, seed, .. },
            ..
        }) => Some((
            *at_ms,
            *seed,
            config.topic.clone(),
            config
                .forked_from
                .as_ref()
                .map(|f| (f.debate.clone(), f.call.clone())),
        )),
        _ => None,
    };
    start(a).is_some() && start(a) == start(b)
}
