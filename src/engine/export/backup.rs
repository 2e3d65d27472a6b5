//! Every debate in one file, and back. A debate of a backup that breaks a rule of
//! `import` is refused on its own, with the reason, and the others are restored.

use super::super::event::{Event, EventKind, SCHEMA_VERSION};
use super::import::{debate, opened, schema_of, shortened, MAX_BACKUP_BYTES};
use serde_json::value::RawValue;

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
/// that did not ("debate 3: debates[2].events[4]: …"). The caller stores the first
/// (skipping those it already has, see `same_debate`) and shows the second.
#[derive(Debug, Default, PartialEq)]
pub struct Restored {
    pub debates: Vec<Vec<Event>>,
    pub refused: Vec<String>,
}

/// A backup as read: each debate kept as its text until it is checked on its own.
#[derive(serde::Deserialize)]
struct BackupRead<'a> {
    #[serde(default)]
    agora_backup: Option<u64>,
    #[serde(default)]
    schema: Option<u64>,
    #[serde(default, borrow)]
    debates: Option<Vec<&'a RawValue>>,
}

#[derive(serde::Deserialize)]
struct DebateRead<'a> {
    #[serde(default, borrow)]
    events: Option<Vec<&'a RawValue>>,
}

/// Reads a backup. The whole file is refused (`Err`) when it is not a backup at all (too
/// large, not JSON, cut off, from a newer Agora, or carrying a key-like field).
pub fn restore(text: &str) -> Result<Restored, String> {
    let file: BackupRead = opened(text, MAX_BACKUP_BYTES, "backup")?;
    let schema = schema_of(file.agora_backup, file.schema, "backup")?;
    let list = file.debates.ok_or("field `debates`: missing.")?;
    let mut out = Restored::default();
    for (i, raw) in list.into_iter().enumerate() {
        let at = format!("debates[{i}].events");
        let read = serde_json::from_str::<DebateRead>(raw.get())
            .map_err(|e| format!("debates[{i}]: {}", shortened(&e.to_string())))
            .and_then(|d| debate(schema, d.events, &at));
        match read {
            Ok(events) => out.debates.push(events),
            Err(e) => out.refused.push(format!("debate {}: {e}", i + 1)),
        }
    }
    Ok(out)
}

/// True when two logs are the same debate (the same start: time, seed and topic), however
/// far each got: for skipping debates a device already has.
pub fn same_debate(a: &[Event], b: &[Event]) -> bool {
    let start = |e: &[Event]| match e.first() {
        Some(Event {
            at_ms,
            kind: EventKind::DebateStarted { config, seed, .. },
            ..
        }) => Some((*at_ms, *seed, config.topic.clone())),
        _ => None,
    };
    start(a).is_some() && start(a) == start(b)
}
