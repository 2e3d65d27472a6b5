//! The replay index: what a stored log already holds, by key, so a resumed debate takes the
//! recorded result of every call, input, decision and finding instead of making it again,
//! and the first unrecorded call goes live. What a replay never asked for is reported.

use super::super::event::{CallKey, Event, EventKind, FinishReason, Input, Usage};
use super::super::sources::web::WebSearch;
use std::collections::HashMap;

pub(super) struct Recorded {
    pub text: String,
    pub usage: Usage,
    pub finish: FinishReason,
    pub request_hash: Option<String>,
    /// What the call's web search cited (recorded just before it finished).
    pub web: Option<WebSearch>,
}

/// A call the log records as skipped (never made, or failed where the format tolerated it).
pub(super) struct Skipped {
    pub reason: String,
}

#[derive(Default)]
pub(super) struct Replay {
    pub calls: HashMap<CallKey, Recorded>,
    pub skipped: HashMap<CallKey, Skipped>,
    pub inputs: HashMap<CallKey, Vec<Input>>,
    pub decisions: HashMap<String, serde_json::Value>,
    /// Keys of phases and findings already in the log (recorded once, however often the
    /// format passes by).
    pub recorded_keys: Vec<String>,
}

impl Replay {
    pub fn index(events: &[Event]) -> Self {
        let mut r = Replay::default();
        let mut hashes: HashMap<CallKey, String> = HashMap::new();
        let mut webs: HashMap<CallKey, WebSearch> = HashMap::new();
        for e in events {
            match &e.kind {
                EventKind::TurnStarted {
                    call, request_hash, ..
                } => {
                    hashes.insert(call.clone(), request_hash.clone());
                }
                EventKind::TurnFinished {
                    call,
                    text,
                    usage,
                    finish,
                    ..
                } => {
                    r.calls.insert(
                        call.clone(),
                        Recorded {
                            text: text.clone(),
                            usage: *usage,
                            finish: *finish,
                            request_hash: hashes.get(call).cloned(),
                            web: webs.remove(call),
                        },
                    );
                }
                EventKind::WebSearched { call, web, .. } => {
                    webs.insert(call.clone(), web.clone());
                }
                EventKind::CallSkipped { call, reason, .. } => {
                    r.skipped.insert(
                        call.clone(),
                        Skipped {
                            reason: reason.clone(),
                        },
                    );
                }
                EventKind::PhaseStarted { key, .. } => r.recorded_keys.push(phase_key(key)),
                EventKind::FindingRecorded(f) => r.recorded_keys.push(finding_key(&f.key)),
                EventKind::StructuredRead { call, .. } => r.recorded_keys.push(read_key(call)),
                EventKind::DecisionRecorded { key, value } => {
                    r.decisions.insert(key.clone(), value.clone());
                }
                EventKind::InputReceived { before, input } => {
                    r.inputs
                        .entry(before.clone())
                        .or_default()
                        .push(input.clone());
                }
                _ => {}
            }
        }
        r
    }

    /// Marks `key` as recorded; false when it already was.
    pub fn first_time(&mut self, key: String) -> bool {
        if self.recorded_keys.contains(&key) {
            return false;
        }
        self.recorded_keys.push(key);
        true
    }

    /// Recorded calls, skips and decisions that this run never asked for: the format took
    /// another path than the one recorded (its code or its configuration changed).
    pub fn unused(&self) -> Vec<String> {
        let mut out: Vec<String> = self.calls.keys().map(|k| format!("call {k}")).collect();
        out.extend(self.skipped.keys().map(|k| format!("skipped call {k}")));
        out.extend(self.decisions.keys().map(|k| format!("decision {k}")));
        out.extend(self.inputs.keys().map(|k| format!("input before {k}")));
        // In one order on every run, whatever the maps' order.
        out.sort();
        out
    }
}

pub(super) fn phase_key(key: &str) -> String {
    format!("phase:{key}")
}

pub(super) fn read_key(call: &CallKey) -> String {
    format!("read:{call}")
}

pub(super) fn finding_key(key: &str) -> String {
    format!("finding:{key}")
}
