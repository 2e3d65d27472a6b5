//! The event log is the debate: the UI renders it, every export renders it, and a resume
//! replays it. Token deltas are not events; they are live-only.

use serde::{Deserialize, Serialize};

use super::config::DebateConfig;

/// Version of the stored event schema; bump it and add a step to `migrate` on any change.
/// 2: format options as one typed `options` value, human turns addressed to a call, format
/// findings, queued and skipped calls, recorded decisions.
/// 3: a score criterion's weight as a share (`weight: 0.25`, was `weight_permille: 250`).
/// 4: a forecast's resolution (`Resolved`), appended after `Finished`; nothing to migrate.
/// 5: a turn's web search (`WebSearched`, before its `TurnFinished`); nothing to migrate.
pub const SCHEMA_VERSION: u32 = 5;

/// Identifies one model call: the path the format gives it plus how many times that path
/// was called before in this debate.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CallKey {
    pub path: String,
    #[serde(default)]
    pub occurrence: u32,
}

impl CallKey {
    pub fn new(path: impl Into<String>, occurrence: u32) -> Self {
        CallKey {
            path: path.into(),
            occurrence,
        }
    }
}

impl std::fmt::Display for CallKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.occurrence == 0 {
            write!(f, "{}", self.path)
        } else {
            write!(f, "{}#{}", self.path, self.occurrence)
        }
    }
}

/// Why a call was made; scripts match on it and analysis purposes run on the analyst seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    Moderation,
    Argument,
    Summary,
    Evaluation,
    Extraction,
    Check,
}

impl Purpose {
    pub fn id(self) -> &'static str {
        match self {
            Purpose::Moderation => "moderation",
            Purpose::Argument => "argument",
            Purpose::Summary => "summary",
            Purpose::Evaluation => "evaluation",
            Purpose::Extraction => "extraction",
            Purpose::Check => "check",
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
    /// True when the provider reported nothing and these are our estimates.
    #[serde(default)]
    pub estimated: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    #[default]
    Stop,
    /// Cut by the token limit: the text is truncated.
    Length,
    /// Cut on purpose by the format (an interruption), keeping the partial text.
    Cut,
    /// Cut by Agora's own bound on the call, in logs from before the two were told apart.
    Limit,
    /// Cut at Agora's bound on one answer's size (a model that ignores its token limit).
    SizeLimit,
    /// Cut at Agora's wall-clock limit for one call.
    TimeLimit,
}

/// Something the user (or a test) feeds in between calls. Consumed at a call boundary and
/// recorded, so a replay takes the same path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    Question {
        text: String,
    },
    Evidence {
        text: String,
    },
    /// A person's turn, for the call that waits for it (two rooms side by side can each
    /// wait for a person at once).
    HumanTurn {
        call: CallKey,
        text: String,
    },
    /// The debate's spending cap from here on (`None`: no cap). Raising it past what has
    /// been spent lets a debate paused at its cap go on.
    SpendingCap {
        usd: Option<f64>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Completed,
    Stopped,
    Failed,
}

// Externally tagged (`{"TurnStarted": {…}}`): serde's tagged and flattened forms buffer
// every event through a generic value and cost tens of kilobytes of wasm.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EventKind {
    DebateStarted {
        schema: u32,
        config: DebateConfig,
        seed: u64,
        /// Calls the format plans to make, for the progress line.
        planned_calls: u32,
    },
    PhaseStarted {
        key: String,
        title: String,
        #[serde(default)]
        round: Option<u32>,
    },
    /// A call waits for its connection's limit on calls at once (or for the spending cap
    /// to leave room); `TurnStarted` follows when it goes out.
    TurnQueued {
        call: CallKey,
        seat: String,
        purpose: Purpose,
        label: String,
    },
    TurnStarted {
        call: CallKey,
        seat: String,
        purpose: Purpose,
        label: String,
        request_hash: String,
        #[serde(default)]
        human: bool,
        /// The request as sent (key redacted), shown under the turn.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        request: String,
    },
    TurnFinished {
        call: CallKey,
        seat: String,
        text: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reasoning: String,
        usage: Usage,
        finish: FinishReason,
    },
    /// What the provider's web search cited for the turn that finishes next (or why it did
    /// not search). Its pages become sources (`W1`…) before the turn's quotes are checked.
    WebSearched {
        call: CallKey,
        seat: String,
        web: super::sources::web::WebSearch,
    },
    /// The partial text stays visible but is never fed to later prompts.
    TurnFailed {
        call: CallKey,
        seat: String,
        partial: String,
        error: String,
    },
    /// A failed attempt will be tried again after `wait_ms`.
    RetryScheduled {
        call: CallKey,
        /// The attempt about to be made (2 for the first retry).
        attempt: u32,
        max_attempts: u32,
        wait_ms: u64,
        reason: String,
    },
    /// A call the format let go of: a check that would have queued behind the stream it
    /// checks, or a tolerated failure. A replay skips it the same way.
    CallSkipped {
        call: CallKey,
        seat: String,
        reason: String,
        /// True when the call failed (and the format tolerates that); false when it was
        /// never made.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        failed: bool,
    },
    /// A choice the format made from randomness, the clock or a stream's content, so a
    /// replay makes the same one.
    DecisionRecorded {
        key: String,
        value: serde_json::Value,
    },
    FindingRecorded(super::finding::Finding),
    /// How a structured answer (a score, an evaluation, a forecast, a card…) was read: on
    /// the first answer, after one repair, or not at all. `call` is the first call asked.
    StructuredRead {
        call: CallKey,
        seat: String,
        outcome: ReadOutcome,
        /// What was wrong with the first answer (empty when it was read).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        problem: String,
    },
    InputReceived {
        /// The call boundary where it was consumed.
        before: CallKey,
        input: Input,
    },
    Paused {
        reason: String,
        /// A call failed in a way retrying cannot fix: the debate waits at that call until
        /// the user, having fixed the cause, presses Resume.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        needs_resume: bool,
    },
    Resumed,
    Error {
        message: String,
    },
    Finished {
        outcome: Outcome,
        #[serde(default)]
        message: Option<String>,
    },
    /// What happened, for a forecast resolved after it finished (the ledger scores it).
    /// A later one replaces an earlier one: a resolution can be corrected.
    Resolved(super::formats::forecast::ledger::Resolution),
}

/// How a structured answer was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadOutcome {
    /// The first answer was valid JSON of the asked shape.
    Parsed,
    /// The first was not; the answer to one repair request was.
    Repaired,
    /// Neither was (or the call failed): the format records it as not scored.
    Unread,
}

/// Structured answers of a debate by how they were read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadTally {
    pub parsed: u32,
    pub repaired: u32,
    pub unread: u32,
}

impl ReadTally {
    pub fn of(events: &[Event]) -> ReadTally {
        let mut t = ReadTally::default();
        for e in events {
            if let EventKind::StructuredRead { outcome, .. } = &e.kind {
                t.add(*outcome);
            }
        }
        t
    }

    pub fn add(&mut self, outcome: ReadOutcome) {
        match outcome {
            ReadOutcome::Parsed => self.parsed += 1,
            ReadOutcome::Repaired => self.repaired += 1,
            ReadOutcome::Unread => self.unread += 1,
        }
    }

    pub fn total(&self) -> u32 {
        self.parsed + self.repaired + self.unread
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub seq: u32,
    /// Milliseconds since the Unix epoch (virtual in tests).
    pub at_ms: u64,
    pub kind: EventKind,
}

/// Brings stored events of any earlier schema to the current one, one version step at a
/// time; an unknown newer version is refused with a message rather than misread.
pub fn migrate(schema: u32, events: Vec<String>) -> Result<Vec<Event>, String> {
    if schema > SCHEMA_VERSION {
        return Err(format!(
            "This debate was saved by a newer Agora (schema {schema}; this one reads up to {SCHEMA_VERSION})."
        ));
    }
    events
        .into_iter()
        .enumerate()
        .map(|(i, text)| migrate_one(schema, i, text))
        .collect()
}

/// One event of a log saved with `schema` (checked by `migrate`), the `i`th, from its JSON
/// text: for a reader that reads a long log a piece at a time. Events are read from their
/// text; only an older schema goes through a generic value to be rewritten (reading events
/// from values too would link a second copy of their whole deserializer into the app).
pub fn migrate_one(schema: u32, i: usize, text: String) -> Result<Event, String> {
    let text = if schema < 3 {
        let mut v: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("event {i} is unreadable: {e}"))?;
        if schema < 2 {
            v1_to_v2(&mut v);
        }
        v2_to_v3(&mut v);
        v.to_string()
    } else {
        text
    };
    serde_json::from_str(&text).map_err(|e| format!("event {i} is unreadable: {e}"))
}

/// Schema 1 kept classic's options in `config.classic` beside `config.format`; schema 2
/// holds the format and its options as one value. (Schema 1 never stored a human turn as an
/// input, so nothing else changes.)
fn v1_to_v2(event: &mut serde_json::Value) {
    let Some(config) = event
        .get_mut("kind")
        .and_then(|k| k.get_mut("DebateStarted"))
        .and_then(|d| d.get_mut("config"))
        .and_then(|c| c.as_object_mut())
    else {
        return;
    };
    if config.contains_key("options") {
        return; // already schema 2 (a v1 debate resumed since appends v2 events)
    }
    let format = config
        .remove("format")
        .and_then(|f| f.as_str().map(str::to_string))
        .unwrap_or_else(|| "classic".into());
    let classic = config.remove("classic");
    let options = match (format.as_str(), classic) {
        ("classic", Some(o)) => serde_json::json!({ "classic": o }),
        (other, _) => serde_json::json!({ other: {} }),
    };
    config.insert("options".into(), options);
}

/// Schema 2 kept a score criterion's weight in per mille (`weight_permille: 250`) beside
/// its value; schema 3 keeps it as the share it is (`weight: 0.25`), like every other
/// number of a score. A criterion already in the new form (an event a resumed older debate
/// appended since) is left as it is.
fn v2_to_v3(event: &mut serde_json::Value) {
    let Some(criteria) = event
        .get_mut("kind")
        .and_then(|k| k.get_mut("FindingRecorded"))
        .and_then(|f| f.get_mut("body"))
        .and_then(|b| b.get_mut("Score"))
        .and_then(|s| s.get_mut("criteria"))
        .and_then(|c| c.as_array_mut())
    else {
        return;
    };
    for c in criteria.iter_mut().filter_map(|c| c.as_object_mut()) {
        if let Some(w) = c.remove("weight_permille") {
            let share = w.as_u64().unwrap_or(0) as f64 / 1000.0;
            c.insert("weight".into(), serde_json::json!(share));
        }
    }
}

/// The first event's configuration, if the log has one.
pub fn config_of(events: &[Event]) -> Option<&DebateConfig> {
    events.iter().find_map(|e| match &e.kind {
        EventKind::DebateStarted { config, .. } => Some(config),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schema_1_log_reads_as_schema_2() {
        let v1 = serde_json::json!({"seq": 0, "at_ms": 5, "kind": {"DebateStarted": {
            "schema": 1, "seed": 7, "planned_calls": 16,
            "config": {"format": "classic", "topic": "Cars?", "analyst": "moderator",
                "seats": [{"id": "moderator", "name": "Moderator", "participant": "human"}],
                "classic": {"rounds": 3, "style": "casual", "opening_tokens": 300,
                    "argument_tokens": 250, "closing_tokens": 350, "summary_tokens": 300}}}}});
        let turn = serde_json::json!({"seq": 1, "at_ms": 6, "kind": {"PhaseStarted": {
            "key": "opening", "title": "Opening"}}});
        let events = migrate(1, vec![v1.to_string(), turn.to_string()]).unwrap();
        let config = config_of(&events).unwrap();
        assert_eq!(config.format(), super::super::config::FormatId::Classic);
        assert_eq!(config.classic().unwrap().rounds, 3);
        // Migrating again (a v1 debate resumed, then loaded) changes nothing.
        let again = serde_json::to_string(&events[0]).unwrap();
        assert_eq!(migrate(1, vec![again]).unwrap()[0], events[0]);
        assert!(migrate(SCHEMA_VERSION + 1, vec![v1.to_string()])
            .unwrap_err()
            .contains("newer Agora"));
    }

    #[test]
    fn a_schema_2_score_reads_its_weights_as_shares() {
        let score = |criterion: serde_json::Value| {
            serde_json::json!({"seq": 40, "at_ms": 9, "kind": {"FindingRecorded": {
                "key": "score/position-a", "seat": "position-a", "body": {"Score": {
                    "rubric": "formal", "total": 7.5, "criteria": [criterion]}}}}})
            .to_string()
        };
        let old = score(
            serde_json::json!({"name": "Evidence", "weight_permille": 250,
            "value": 8.0, "max": 10.0, "reason": "cited"}),
        );
        let events = migrate(2, vec![old]).unwrap();
        let EventKind::FindingRecorded(f) = &events[0].kind else {
            panic!("not a finding")
        };
        let super::super::finding::FindingBody::Score { criteria, .. } = &f.body else {
            panic!("not a score")
        };
        assert_eq!(criteria[0].weight, 0.25);
        assert_eq!(criteria[0].value, 8.0);
        // An event a resumed schema-2 debate appended in the new form is read as it is.
        let new = serde_json::to_string(&events[0]).unwrap();
        assert_eq!(migrate(2, vec![new]).unwrap()[0], events[0]);
    }
}
