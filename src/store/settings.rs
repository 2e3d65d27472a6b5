//! The user's connections, kept in localStorage so a reload (or a stored debate's Resume)
//! finds them again. Keys are not part of this: `Connection::api_key` is skipped by serde,
//! so this entry never holds one.

use crate::session::Connection;

const CONNECTIONS: &str = "agora.connections";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Saved connections; an unreadable entry counts as none rather than breaking start-up.
pub fn load_connections() -> Vec<Connection> {
    storage()
        .and_then(|s| s.get_item(CONNECTIONS).ok().flatten())
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default()
}

/// Saves the user's own connections (presets are rebuilt at start).
pub fn save_connections(all: &[Connection]) {
    let own: Vec<&Connection> = all.iter().filter(|c| c.id.starts_with("c-")).collect();
    if let (Some(s), Ok(json)) = (storage(), serde_json::to_string(&own)) {
        let _ = s.set_item(CONNECTIONS, &json);
    }
}
