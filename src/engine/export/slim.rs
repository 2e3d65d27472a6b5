//! A debate without its documents, for a share link that would be too long with them: the
//! configuration keeps how many it left out, so the quotes say they cannot be checked
//! there instead of "not found". Evidence added during the debate stays (it is in the log).

use super::super::event::{Event, EventKind};

/// `events` with the configuration's sources taken out; `None` when it has none.
pub fn without_sources(events: &[Event]) -> Option<Vec<Event>> {
    let mut out = events.to_vec();
    let config = out.iter_mut().find_map(|e| match &mut e.kind {
        EventKind::DebateStarted { config, .. } => Some(config),
        _ => None,
    })?;
    if config.sources.is_empty() {
        return None;
    }
    config.sources_left_out += config.sources.len() as u32;
    config.sources.clear();
    Some(out)
}
