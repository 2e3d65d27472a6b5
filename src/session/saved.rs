//! What the session keeps in localStorage: the user's connections, so a reload (or a stored
//! debate's Resume) finds them again, and the user's model prices. Keys are not part of the
//! connections' entry: `Connection::api_key` is skipped by serde. Only when the user
//! explicitly asks to remember a key does it go to localStorage, in one entry of its own
//! (`agora.key.<connection id>`), so it can be found and removed on its own and nothing
//! else ever holds it.

use super::connections::{Connection, ConnectionOrigin};
use super::prices::PriceTable;

const CONNECTIONS: &str = "agora.connections";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Whether this browser has ever loaded a model in the page (`www/inpage/agora-inpage.js`
/// keeps its settings in `agora.inpage` from then on): only then does History import the
/// in-page code to list the models kept.
pub fn in_page_used() -> bool {
    storage()
        .and_then(|s| s.get_item("agora.inpage").ok()?)
        .is_some()
}

/// The localStorage entry that holds a remembered key.
pub fn key_entry(connection_id: &str) -> String {
    format!("agora.key.{connection_id}")
}

/// Saved connections, with their keys where the user asked to remember them. An unreadable
/// entry counts as none rather than breaking start-up.
pub fn load_connections() -> Vec<Connection> {
    let Some(s) = storage() else {
        return Vec::new();
    };
    let mut list: Vec<Connection> = s
        .get_item(CONNECTIONS)
        .ok()
        .flatten()
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default();
    for c in &mut list {
        if c.remember_key {
            c.api_key = s
                .get_item(&key_entry(&c.id))
                .ok()
                .flatten()
                .unwrap_or_default();
        }
    }
    list
}

/// Saves the user's own connections (built-in ones are rebuilt at start), and each key the
/// user asked to remember; a key not (or no longer) to be remembered is removed.
pub fn save_connections(all: &[Connection]) {
    let Some(s) = storage() else { return };
    let own: Vec<&Connection> = all
        .iter()
        .filter(|c| c.origin == ConnectionOrigin::User)
        .collect();
    if let Ok(json) = serde_json::to_string(&own) {
        let _ = s.set_item(CONNECTIONS, &json);
    }
    for c in own {
        let entry = key_entry(&c.id);
        if c.remember_key && !c.api_key.is_empty() {
            let _ = s.set_item(&entry, &c.api_key);
        } else {
            let _ = s.remove_item(&entry);
        }
    }
}

const PRICES: &str = "agora.prices";

/// The user's own model prices; an unreadable entry counts as none.
pub fn load_prices() -> PriceTable {
    storage()
        .and_then(|s| s.get_item(PRICES).ok().flatten())
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default()
}

pub fn save_prices(table: &PriceTable) {
    if let (Some(s), Ok(json)) = (storage(), serde_json::to_string(table)) {
        let _ = s.set_item(PRICES, &json);
    }
}

const FRAMEWORKS: &str = "agora.frameworks";

/// The user's own duelogic frameworks; an unreadable entry counts as none, and each one is
/// checked again, so a hand-edited entry cannot reach a debate unvalidated.
pub fn load_frameworks() -> Vec<crate::engine::config::Framework> {
    let all: Vec<crate::engine::config::Framework> = storage()
        .and_then(|s| s.get_item(FRAMEWORKS).ok().flatten())
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default();
    all.into_iter()
        .filter(|f| crate::engine::formats::duelogic::frameworks::validate(f).is_ok())
        .collect()
}

pub fn save_frameworks(all: &[crate::engine::config::Framework]) {
    if let (Some(s), Ok(json)) = (storage(), serde_json::to_string(all)) {
        let _ = s.set_item(FRAMEWORKS, &json);
    }
}
