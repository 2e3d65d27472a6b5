//! The JSON export: the whole event log, which Agora reads back (`import`), and its cost.

use super::super::config::DebateConfig;
use super::super::cost::Spent;
use super::super::event::{config_of, Event, SCHEMA_VERSION};
use super::seat_name;

/// The cost as plain data, for the JSON export.
fn cost_json(config: &DebateConfig, spent: &Spent) -> serde_json::Value {
    let seats: serde_json::Map<String, serde_json::Value> = spent
        .seats
        .iter()
        .map(|(id, usd)| {
            let known = !spent.unpriced.contains(id);
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
        "total": spent.total,
        "by_seat": seats,
        "estimated": spent.estimated,
        "unpriced_seats": spent.unpriced,
    })
}

/// The export file. Written straight to text with the same serializer the store uses for
/// events (going through a generic value, or pretty-printing, would link another copy of
/// the events' serializer into the app).
#[derive(serde::Serialize)]
struct ExportFile<'a> {
    agora_export: u32,
    schema: u32,
    events: &'a [Event],
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<serde_json::Value>,
}

pub fn to_json(events: &[Event]) -> String {
    let cost = config_of(events).map(|c| cost_json(c, &Spent::from_events(c, events)));
    serde_json::to_string(&ExportFile {
        agora_export: 1,
        schema: SCHEMA_VERSION,
        events,
        cost,
    })
    .unwrap_or_default()
}
