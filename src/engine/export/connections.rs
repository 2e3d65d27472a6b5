//! The connections a debate's seats name, and mapping them to this device's own: a file
//! carries a connection's id and label, never its key, so an imported debate is resumed or
//! forked on a connection the user picks.

use super::super::config::Participant;
use super::super::event::{Event, EventKind};

/// The connection ids the seats use, each once, in seating order.
pub fn connections_named(events: &[Event]) -> Vec<String> {
    connection_labels(events)
        .into_iter()
        .map(|(id, _)| id)
        .collect()
}

/// The same, each with the name it had where the file was written ("Local", "OpenAI"),
/// for asking the user which of their own connections stands in for it.
pub fn connection_labels(events: &[Event]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for e in events {
        if let EventKind::DebateStarted { config, .. } = &e.kind {
            for s in &config.seats {
                if let Participant::Model {
                    connection,
                    connection_label,
                    ..
                } = &s.participant
                {
                    if !out.iter().any(|(id, _)| id == connection) {
                        out.push((connection.clone(), connection_label.clone()));
                    }
                }
            }
        }
    }
    out
}

/// Rewrites the seats' connection ids by `map` (`(id in the file, id here)`); ids not in
/// the map stay as they are. The label shown in exports stays the file's.
pub fn remap_connections(events: &mut [Event], map: &[(String, String)]) {
    for e in events {
        if let EventKind::DebateStarted { config, .. } = &mut e.kind {
            for s in &mut config.seats {
                if let Participant::Model { connection, .. } = &mut s.participant {
                    if let Some((_, to)) = map.iter().find(|(from, _)| from == connection) {
                        *connection = to.clone();
                    }
                }
            }
        }
    }
}
