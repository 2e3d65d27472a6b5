//! Reading a JSON export (or a backup) back, treating the file as hostile: it may be cut
//! off, from another version, or made to break a reader. Every rule is checked before
//! anything is kept, and a refusal says what is wrong and where, without echoing the file.

use super::super::event::{migrate_one, Event, EventKind, SCHEMA_VERSION};
use serde::Deserialize;
use serde_json::value::RawValue;

/// Largest file read: far above a long debate's log (a few megabytes), far below what
/// would stall the tab.
pub const MAX_IMPORT_BYTES: usize = 20 * 1024 * 1024;
/// Largest backup read: every debate of a device in one file.
pub const MAX_BACKUP_BYTES: usize = 100 * 1024 * 1024;
/// Longest string anywhere in a file, in bytes: above any answer Agora keeps (answers are
/// cut by their size bound) and any request it records (a prompt fitted to a
/// million-token window), so only a made-up file has more.
pub const MAX_STRING_BYTES: usize = 4 * 1024 * 1024;
/// Most events in one debate.
pub const MAX_EVENTS: usize = 100_000;

/// Field names that would carry a secret, by how they end once only ASCII letters are
/// kept and lowercased ("api_key", "X-Api-Key", "client_secret"). The configuration has
/// none (a seat names its connection by id; the key stays in the session), so a file with
/// one was not written by Agora and is refused rather than stored with a key in it.
const KEY_FIELD_ENDINGS: [&str; 7] = [
    "apikey",
    "secret",
    "password",
    "authorization",
    "accesstoken",
    "authtoken",
    "bearer",
];

pub(super) fn key_like(field: &str) -> bool {
    let f: String = field
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    KEY_FIELD_ENDINGS.iter().any(|k| f.ends_with(k))
}

/// Reads a JSON export (`to_json`'s format) into a debate's event log.
pub fn import(text: &str) -> Result<Vec<Event>, String> {
    let file: ExportFile = opened(text, MAX_IMPORT_BYTES, "export")?;
    let schema = schema_of(file.agora_export, file.schema, "export")?;
    debate(schema, file.events, "events")
}

/// An export as read: each event kept as its text, read (and migrated) one at a time.
/// Reading through raw text rather than a generic JSON value keeps a second copy of the
/// events' reader (and a value printer) out of the app.
#[derive(Deserialize)]
struct ExportFile<'a> {
    #[serde(default)]
    agora_export: Option<u64>,
    #[serde(default)]
    schema: Option<u64>,
    #[serde(default, borrow)]
    events: Option<Vec<&'a RawValue>>,
}

/// The file checked as text (size, string lengths, key-like field names), then read as `T`
/// (serde_json refuses nesting deeper than 128).
pub(super) fn opened<'a, T: Deserialize<'a>>(
    text: &'a str,
    limit: usize,
    what: &str,
) -> Result<T, String> {
    if text.len() > limit {
        return Err(format!(
            "The file is {:.1} MB; Agora reads files up to {} MB.",
            text.len() as f64 / 1_048_576.0,
            limit / 1_048_576
        ));
    }
    scan(text)?;
    // serde reads a struct from a list too; an export is an object.
    if !text.trim_start().starts_with('{') && !text.trim().is_empty() {
        return Err(format!(
            "The file is not an Agora {what}: it is not a JSON object."
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        if e.is_eof() {
            format!("The file ends too early (cut off?): {e}.")
        } else if e.is_data() {
            format!(
                "The file is not an Agora {what}: {}.",
                shortened(&e.to_string())
            )
        } else {
            format!("The file is not valid JSON: {e}.")
        }
    })
}

/// The file's own version checks: written by Agora as `what` (its marker field is 1), with
/// a schema this Agora reads.
pub(super) fn schema_of(
    marker: Option<u64>,
    schema: Option<u64>,
    what: &str,
) -> Result<u32, String> {
    if marker != Some(1) {
        return Err(format!(
            "The file is not an Agora {what}: its `agora_{what}` field is not 1."
        ));
    }
    let schema = schema.ok_or("field `schema`: missing or not a number.")?;
    if schema > u64::from(SCHEMA_VERSION) {
        return Err(format!(
            "The file is from a newer Agora (schema {schema}; this one reads up to {SCHEMA_VERSION}). Update Agora to read it."
        ));
    }
    Ok(schema as u32)
}

/// Every JSON string of the file, found by a scan of its text: none longer than
/// `MAX_STRING_BYTES`, and no field name that looks like a key. Places are given as line
/// and column; the text itself is never quoted back.
fn scan(text: &str) -> Result<(), String> {
    let b = text.as_bytes();
    let at = |i: usize| {
        let before = &text.as_bytes()[..i];
        let line = 1 + before.iter().filter(|c| **c == b'\n').count();
        let col = 1 + before.iter().rev().take_while(|c| **c != b'\n').count();
        format!("line {line}, column {col}")
    };
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'"' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < b.len() && b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        let end = i.min(b.len());
        if end - start - 1 > MAX_STRING_BYTES {
            return Err(format!(
                "{}: a text of {} bytes; the limit is {MAX_STRING_BYTES}.",
                at(start),
                end - start - 1
            ));
        }
        i += 1;
        let rest = b.get(i..).unwrap_or_default();
        let is_name = rest.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b':');
        if is_name {
            let name = String::from_utf8_lossy(&b[start + 1..end]);
            if key_like(&name) {
                let shown: String = name.chars().take(40).collect();
                return Err(format!(
                    "{}: the field `{shown}` looks like an API key. Agora never writes keys to a file, so this file was not written by Agora (or was changed).",
                    at(start)
                ));
            }
        }
    }
    Ok(())
}

/// A reader's message cut to a readable length: serde's own messages quote the value they
/// could not read, which in a hostile file can be megabytes.
pub(super) fn shortened(message: &str) -> String {
    const MAX: usize = 300;
    match message.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &message[..i]),
        None => message.to_string(),
    }
}

/// One debate's events, each from its text: read, migrated, and held to the log's rules.
pub(super) fn debate(
    schema: u32,
    events: Option<Vec<&RawValue>>,
    at: &str,
) -> Result<Vec<Event>, String> {
    let list = events.ok_or_else(|| format!("{at}: missing."))?;
    if list.is_empty() {
        return Err(format!("{at}: the debate has no events."));
    }
    if list.len() > MAX_EVENTS {
        return Err(format!(
            "{at}: {} events; the limit is {MAX_EVENTS}.",
            list.len()
        ));
    }
    let mut out: Vec<Event> = Vec::with_capacity(list.len());
    for (i, raw) in list.into_iter().enumerate() {
        let event = migrate_one(schema, i, raw.get().to_string())
            .map_err(|e| format!("{at}[{i}]: {}", shortened(&e)))?;
        match (i, &event.kind) {
            (
                0,
                EventKind::DebateStarted {
                    config, schema: s, ..
                },
            ) => {
                if *s > SCHEMA_VERSION {
                    return Err(format!("{at}[0]: written by a newer Agora (schema {s})."));
                }
                config
                    .validate()
                    .map_err(|e| format!("{at}[0].config: {}", shortened(&e)))?;
            }
            (0, _) => {
                return Err(format!(
                    "{at}[0]: the first event must start the debate (with its configuration)."
                ))
            }
            (_, EventKind::DebateStarted { .. }) => {
                return Err(format!("{at}[{i}]: a second start of the debate."))
            }
            _ => {}
        }
        let expected = out.last().map_or(0, |p| p.seq + 1);
        if (i == 0 && event.seq != 0) || event.seq < expected {
            return Err(format!(
                "{at}[{i}]: event number {} out of order (expected {expected} or more).",
                event.seq
            ));
        }
        // A stopped debate may be resumed later: then `Resumed` follows its `Finished`.
        if out
            .last()
            .is_some_and(|p| matches!(p.kind, EventKind::Finished { .. }))
            && !matches!(event.kind, EventKind::Resumed)
        {
            return Err(format!("{at}[{i}]: an event after the debate finished."));
        }
        out.push(event);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::super::config::{ClassicOptions, Participant};
    use super::super::super::cost::Price;
    use super::super::super::formats::classic;
    use super::key_like;

    fn fields(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| {
                out.push(k.clone());
                fields(x, out)
            }),
            serde_json::Value::Array(a) => a.iter().for_each(|x| fields(x, out)),
            _ => {}
        }
    }

    #[test]
    fn a_configuration_has_no_key_field_and_key_fields_are_recognised() {
        // Every option on, every seat a priced model: each field a config can have.
        let options = ClassicOptions {
            fact_checker: true,
            scoring: true,
            ..Default::default()
        };
        let mut config = classic::new_config("T", "A", "B", options, |_| Participant::Model {
            connection: "c".into(),
            connection_label: "C".into(),
            model: "m".into(),
            context_tokens: 1,
            price: Some(Price::default()),
        });
        config.spending_cap = Some(1.0);
        let mut names = Vec::new();
        fields(&serde_json::to_value(&config).unwrap(), &mut names);
        assert!(names.contains(&"connection".to_string()));
        assert!(!names.iter().any(|n| key_like(n)), "{names:?}");
        for key in [
            "api_key",
            "apiKey",
            "X-Api-Key",
            "openai_api_key",
            "client_secret",
            "password",
            "Authorization",
        ] {
            assert!(key_like(key), "{key}");
        }
        for fine in ["key", "input_tokens", "context_tokens", "keyword"] {
            assert!(!key_like(fine), "{fine}");
        }
    }
}
