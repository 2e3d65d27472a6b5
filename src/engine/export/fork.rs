//! "Continue from here": a new debate sharing a debate's history up to one finished turn.

use super::super::config::ForkPoint;
use super::super::event::{config_of, CallKey, Event, EventKind};
use super::seat_name;

/// A new log: every event before `at_call`'s `TurnFinished`, and that event, with
/// `forked_from` set on the configuration. What came later (turns, inputs, decisions,
/// `Finished`) is dropped, so resuming it (`DebateCtx::resume`) replays the kept calls and
/// makes every later one live.
///
/// The log carries no id of its own (the store keys it), so `source_id` is the id of the
/// debate forked from, recorded in `ForkPoint`; the caller stores the fork under a fresh id.
pub fn fork(events: &[Event], at_call: &CallKey, source_id: &str) -> Result<Vec<Event>, String> {
    let end = events
        .iter()
        .position(|e| matches!(&e.kind, EventKind::TurnFinished { call, .. } if call == at_call))
        .ok_or_else(|| format!("The debate has no finished turn {at_call} to continue from."))?;
    let config = config_of(events).ok_or("The debate's log has no configuration.")?;
    let label = events[..end]
        .iter()
        .rev()
        .find_map(|e| match &e.kind {
            EventKind::TurnStarted {
                call, label, seat, ..
            } if call == at_call => Some(format!("{} — {label}", seat_name(config, seat))),
            _ => None,
        })
        .unwrap_or_default();
    let mut out = events[..=end].to_vec();
    // A call that was still in flight then (calls run side by side) has a `TurnStarted`
    // and no end here: a resume makes it live again, as after a crash.
    match &mut out[0].kind {
        EventKind::DebateStarted { config, .. } => {
            config.forked_from = Some(ForkPoint {
                debate: source_id.to_string(),
                call: at_call.to_string(),
                label,
            });
        }
        _ => return Err("The debate's log does not start with its configuration.".into()),
    }
    Ok(out)
}
