//! Reading a JSON export (or a backup) back, treating the file as hostile: it may be cut
//! off, from another version, or made to break a reader. Every rule is checked before
//! anything is kept, and a refusal says what is wrong and where, without echoing the file.

use super::super::event::{migrate_one, Event, EventKind, SCHEMA_VERSION};
use serde_json::Value;

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
    let (file, schema) = opened(text, MAX_IMPORT_BYTES, "agora_export", "export")?;
    debate(schema, file.get("events"), "events")
}

/// The file parsed, checked to be Agora's `what` (its `magic` field is 1), with the schema
/// it was written with. It is read as a generic JSON value, which the app's reader of
/// schema 1 logs links already: a typed reader over raw text measured 2.6 KB (gzipped)
/// more.
pub(super) fn opened(
    text: &str,
    limit: usize,
    magic: &str,
    what: &str,
) -> Result<(Value, u32), String> {
    let file = parse(text, limit)?;
    if !file.is_object() {
        return Err(format!(
            "The file is not an Agora {what}: it is not a JSON object."
        ));
    }
    if file.get(magic).and_then(Value::as_u64) != Some(1) {
        return Err(format!(
            "The file is not an Agora {what}: `{magic}` is not 1."
        ));
    }
    let schema = schema_of(file.get("schema"))?;
    Ok((file, schema))
}

/// The JSON text, size-checked and parsed (serde_json refuses nesting deeper than 128).
fn parse(text: &str, limit: usize) -> Result<Value, String> {
    if text.len() > limit {
        // Tenths of a megabyte in integers: formatting a float would link ~6 KB (gzipped)
        // of float printing the app has no other use for.
        let tenths = text.len() * 10 / 1_048_576;
        return Err(format!(
            "The file is {}.{} MB; Agora reads files up to {} MB.",
            tenths / 10,
            tenths % 10,
            limit / 1_048_576
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        if e.is_eof() {
            format!("The file ends too early (cut off?): {e}.")
        } else {
            format!("The file is not valid JSON: {e}.")
        }
    })?;
    check_values(&value, &mut String::from("file"))?;
    Ok(value)
}

fn schema_of(v: Option<&Value>) -> Result<u32, String> {
    let schema = v
        .and_then(Value::as_u64)
        .ok_or("field `schema`: missing or not a number.")?;
    if schema > u64::from(SCHEMA_VERSION) {
        return Err(format!(
            "The file is from a newer Agora (schema {schema}; this one reads up to {SCHEMA_VERSION}). Update Agora to read it."
        ));
    }
    Ok(schema as u32)
}

/// Every string bounded, no field that looks like a key, anywhere in the file.
fn check_values(v: &Value, path: &mut String) -> Result<(), String> {
    match v {
        Value::String(s) if s.len() > MAX_STRING_BYTES => Err(format!(
            "{path}: a text of {} bytes; the limit is {MAX_STRING_BYTES}.",
            s.len()
        )),
        Value::Array(items) => items.iter().enumerate().try_for_each(|(i, item)| {
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            check_values(item, path)?;
            path.truncate(len);
            Ok(())
        }),
        Value::Object(map) => map.iter().try_for_each(|(k, item)| {
            let shown: String = k.chars().take(40).collect();
            if key_like(k) {
                return Err(format!(
                    "{path}.{shown}: a field that looks like an API key. Agora never writes keys to a file, so this file was not written by Agora (or was changed)."
                ));
            }
            if k.len() > 200 {
                return Err(format!("{path}: a field name of {} bytes.", k.len()));
            }
            let len = path.len();
            path.push('.');
            path.push_str(&shown);
            check_values(item, path)?;
            path.truncate(len);
            Ok(())
        }),
        _ => Ok(()),
    }
}

/// A reader's message cut to a readable length: serde's own messages quote the value they
/// could not read, which in a hostile file can be megabytes.
fn shortened(message: &str) -> String {
    const MAX: usize = 300;
    match message.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &message[..i]),
        None => message.to_string(),
    }
}

/// One debate's events from the file's value: read, migrated, and held to the log's rules.
pub(super) fn debate(schema: u32, events: Option<&Value>, at: &str) -> Result<Vec<Event>, String> {
    let list = events
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{at}: missing or not a list."))?;
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
    for (i, v) in list.iter().enumerate() {
        let event = migrate_one(schema, i, v.to_string())
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
        // A stopped debate may be resumed later: then `Resumed` follows its `Finished`. A
        // finished forecast may be resolved (and the resolution corrected) after it.
        let ended = out
            .last()
            .is_some_and(|p| matches!(p.kind, EventKind::Finished { .. } | EventKind::Resolved(_)));
        match (&event.kind, ended) {
            (EventKind::Resolved(r), true) => {
                crate::engine::formats::forecast::ledger::check(&out, r)
                    .map_err(|e| format!("{at}[{i}]: {e}"))?;
            }
            (EventKind::Resumed, true) => {}
            (EventKind::Resolved(_), false) => {
                return Err(format!(
                    "{at}[{i}]: a resolution before the debate finished."
                ))
            }
            (_, true) => return Err(format!("{at}[{i}]: an event after the debate finished.")),
            _ => {}
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
