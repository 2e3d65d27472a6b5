//! Provider failures during a debate, on the scripted model and the virtual clock: what is
//! retried, how long it waits, what stays visible, and that nothing said before is lost.
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;

use agora::engine::cancel::CancelToken;
use agora::engine::clock::{run_virtual, run_virtual_with, Clock, VirtualClock};
use agora::engine::config::{ClassicOptions, ClassicStyle, Participant};
use agora::engine::context::{Inputs, Wiring};
use agora::engine::event::{Event, EventKind, Outcome};
use agora::engine::formats::{self, classic};
use agora::engine::retry::RetryPolicy;
use agora::engine::script::{Script, ScriptedModel};
use agora::engine::DebateCtx;
use futures::task::LocalSpawnExt;

const T0: u64 = 1_700_000_000_000;

use agora::engine::context::EventLog as Log;

struct Run {
    outcome: Outcome,
    events: Vec<Event>,
    model: Rc<ScriptedModel<VirtualClock>>,
}

/// What a debate in these tests runs on; shared by every scenario.
struct Rig {
    clock: VirtualClock,
    model: Rc<ScriptedModel<VirtualClock>>,
    log: Rc<Log>,
    inputs: Rc<Inputs>,
    stop: CancelToken,
}

impl Rig {
    fn new(script: serde_json::Value, start_ms: u64) -> Self {
        let script: Script = serde_json::from_value(script).unwrap();
        let clock = VirtualClock::new(start_ms);
        let model = Rc::new(ScriptedModel::new(script, clock.clone()));
        Rig {
            clock,
            model,
            log: Rc::new(Log::default()),
            inputs: Inputs::new(),
            stop: CancelToken::new(),
        }
    }

    fn wiring(&self) -> Wiring {
        Wiring {
            retry: RetryPolicy::default(),
            limits: Default::default(),
            model: self.model.clone(),
            clock: Rc::new(self.clock.clone()),
            observer: self.log.clone(),
            inputs: self.inputs.clone(),
            stop: self.stop.clone(),
        }
    }

    fn start(&self) -> DebateCtx {
        let config = classic::new_config(
            "Is tea better than coffee?",
            "",
            "",
            // Educational: 11 calls, all of them turns (a formal debate adds two scores).
            ClassicOptions {
                rounds: 1,
                style: ClassicStyle::Educational,
                ..Default::default()
            },
            |_| Participant::Model {
                connection: "c".into(),
                connection_label: "Cloud".into(),
                model: "m".into(),
                context_tokens: 8000,
                price: None,
            },
        );
        DebateCtx::start(config, 1, 11, self.wiring())
    }

    fn events(&self) -> Vec<Event> {
        self.log.events.borrow().clone()
    }
}

/// A one-round classic debate where the moderator's opening meets `faults` (answers for
/// seat moderator, purpose moderation, by occurrence) before succeeding.
fn run(faults: serde_json::Value, stop_at_ms: Option<u64>) -> Run {
    let mut answers = faults.as_array().cloned().unwrap_or_default();
    answers.push(serde_json::json!({"path": "opening/moderator", "text": "Welcome to the debate.", "chunk_delay_ms": 10}));
    let rig = Rig::new(
        serde_json::json!({"answers": answers, "default": {"chunk_delay_ms": 10}}),
        T0,
    );
    let ctx = rig.start();
    let (c, stop) = (rig.clock.clone(), rig.stop.clone());
    let (c2, stop2, log) = (rig.clock.clone(), rig.stop.clone(), rig.log.clone());
    let outcome = run_virtual_with(&rig.clock, move |spawner| {
        if let Some(at) = stop_at_ms {
            spawner
                .spawn_local(async move {
                    c.sleep(at).await;
                    stop.cancel();
                })
                .unwrap();
        }
        // A debate held at a failed call waits for the user: here the user stops it.
        spawner
            .spawn_local(async move {
                loop {
                    c2.sleep(100).await;
                    let events = log.events.borrow();
                    if events
                        .iter()
                        .any(|e| matches!(e.kind, EventKind::Finished { .. }))
                    {
                        break;
                    }
                    if events.iter().any(|e| {
                        matches!(
                            e.kind,
                            EventKind::Paused {
                                needs_resume: true,
                                ..
                            }
                        )
                    }) {
                        stop2.cancel();
                        break;
                    }
                }
            })
            .unwrap();
        async move { formats::drive(&ctx).await }
    });
    Run {
        outcome,
        events: rig.events(),
        model: rig.model,
    }
}

/// Why the debate was held at a failed call.
fn held_message(events: &[Event]) -> String {
    events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Paused {
                reason,
                needs_resume: true,
            } => Some(reason.clone()),
            _ => None,
        })
        .expect("the debate was held at the failed call")
}

fn kinds(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .take_while(|e| !matches!(&e.kind, EventKind::TurnFinished { .. }))
        .filter_map(|e| match &e.kind {
            EventKind::TurnStarted { .. } => Some("started".into()),
            EventKind::TurnFailed { .. } => Some("failed".into()),
            EventKind::RetryScheduled {
                attempt, wait_ms, ..
            } => Some(format!("retry#{attempt} in {wait_ms}")),
            _ => None,
        })
        .collect()
}

fn status(status: u16, headers: serde_json::Value, occurrence: u32) -> serde_json::Value {
    serde_json::json!({"seat": "moderator", "purpose": "moderation", "occurrence": occurrence, "fault": {"status": status, "headers": headers}})
}

#[test]
fn a_429_waits_as_long_as_retry_after_says_then_carries_on() {
    let r = run(
        serde_json::json!([status(429, serde_json::json!({"retry-after": "3"}), 0)]),
        None,
    );
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(
        kinds(&r.events),
        ["started", "failed", "retry#2 in 3000", "started"]
    );
    let started: Vec<u64> = r
        .events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::TurnStarted { call, .. } if call.path == "opening/moderator"))
        .map(|e| e.at_ms - T0)
        .collect();
    assert_eq!(started, [0, 3_000]);
}

#[test]
fn server_errors_back_off_exponentially_with_jitter() {
    let r = run(
        serde_json::json!([
            status(503, serde_json::json!({}), 0),
            status(529, serde_json::json!({}), 1)
        ]),
        None,
    );
    assert_eq!(r.outcome, Outcome::Completed);
    let waits: Vec<u64> = r
        .events
        .iter()
        .filter_map(|e| {
            if let EventKind::RetryScheduled { wait_ms, .. } = &e.kind {
                Some(*wait_ms)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(waits.len(), 2);
    assert!(
        (750..=1_250).contains(&waits[0]) && (1_500..=2_500).contains(&waits[1]),
        "{waits:?}"
    );
}

#[test]
fn a_cut_stream_is_retried_and_the_cut_text_never_reaches_a_later_prompt() {
    let cut = serde_json::json!([{"seat": "moderator", "purpose": "moderation", "occurrence": 0,
        "text": "PARTIAL-SECRET-WORDS that will be cut off", "chunk_delay_ms": 10, "fault": {"cut_after_bytes": 20}}]);
    let r = run(cut, None);
    assert_eq!(r.outcome, Outcome::Completed);
    let failed = r.events.iter().find_map(|e| {
        if let EventKind::TurnFailed { partial, .. } = &e.kind {
            Some(partial.clone())
        } else {
            None
        }
    });
    assert_eq!(
        failed.as_deref(),
        Some("PARTIAL-SECRET-WORDS"),
        "the cut attempt stays visible in the log"
    );
    for req in r.model.requests.borrow().iter() {
        assert!(
            !req.messages
                .iter()
                .any(|m| m.content.contains("PARTIAL-SECRET")),
            "{} was fed the cut text",
            req.call
        );
    }
    let finished = r
        .events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::TurnFinished { .. }))
        .count();
    assert_eq!(finished, 11);
}

#[test]
fn a_silent_stream_is_abandoned_and_retried() {
    let stall = serde_json::json!([{"seat": "moderator", "purpose": "moderation", "occurrence": 0,
        "text": "Hello and then nothing", "fault": {"stall_after_bytes": 5, "stall_ms": 30000}}]);
    let r = run(stall, None);
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(&kinds(&r.events)[..2], ["started", "failed"]);
}

#[test]
fn a_wrong_key_is_not_retried_and_holds_the_debate_with_a_message_naming_the_turn() {
    let r = run(
        serde_json::json!([status(401, serde_json::json!({}), 0)]),
        None,
    );
    assert_eq!(r.outcome, Outcome::Stopped, "held until the user acts");
    assert_eq!(kinds(&r.events), ["started", "failed"]);
    let msg = held_message(&r.events);
    assert!(
        msg.starts_with("Moderator's turn failed") && msg.contains("401") && msg.contains("Resume"),
        "{msg}"
    );
}

#[test]
fn retries_stop_after_the_cap_with_a_message() {
    let faults: Vec<_> = (0..4)
        .map(|i| status(502, serde_json::json!({}), i))
        .collect();
    let r = run(serde_json::Value::Array(faults), None);
    assert_eq!(r.outcome, Outcome::Stopped);
    assert_eq!(r.model.requests.borrow().len(), 4);
    let msg = held_message(&r.events);
    assert!(msg.contains("gave up after 4 attempts"), "{msg}");
}

#[test]
fn a_retry_after_longer_than_a_minute_is_not_waited_out() {
    let r = run(
        serde_json::json!([status(429, serde_json::json!({"retry-after": "3600"}), 0)]),
        None,
    );
    assert_eq!(r.outcome, Outcome::Stopped);
    let msg = held_message(&r.events);
    assert!(msg.contains("asks to wait 3600 s"), "{msg}");
}

#[test]
fn stop_during_a_backoff_wait_ends_the_debate_at_once() {
    let r = run(
        serde_json::json!([status(429, serde_json::json!({"retry-after": "30"}), 0)]),
        Some(2_000),
    );
    assert_eq!(r.outcome, Outcome::Stopped);
    let last = r.events.last().unwrap();
    assert_eq!(last.at_ms - T0, 2_000);
}

#[test]
fn resuming_after_a_failure_continues_from_the_failed_call() {
    let faults: Vec<_> = (0..4)
        .map(|i| status(502, serde_json::json!({}), i))
        .collect();
    let first = run(serde_json::Value::Array(faults), None);
    assert_eq!(first.outcome, Outcome::Stopped);
    // The provider is healthy again: resume over the stored log.
    let rig = Rig::new(
        serde_json::json!({"default": {"chunk_delay_ms": 10}}),
        T0 + 600_000,
    );
    let ctx = DebateCtx::resume(first.events.clone(), rig.wiring()).unwrap();
    assert_eq!(
        run_virtual(&rig.clock, async move { formats::drive(&ctx).await }),
        Outcome::Completed
    );
    assert_eq!(rig.model.requests.borrow()[0].call, "opening/moderator");
    assert_eq!(rig.model.requests.borrow().len(), 11);
}

#[test]
fn a_held_debate_goes_on_in_place_when_the_user_resumes() {
    // The provider fails four times (the retry cap), then is healthy again.
    let faults: Vec<_> = (0..4)
        .map(|i| status(502, serde_json::json!({}), i))
        .collect();
    let rig = Rig::new(
        serde_json::json!({"answers": faults, "default": {"chunk_delay_ms": 10}}),
        T0,
    );
    let ctx = rig.start();
    let (clock, inputs, log) = (rig.clock.clone(), rig.inputs.clone(), rig.log.clone());
    let outcome = run_virtual_with(&rig.clock, move |spawner| {
        spawner
            .spawn_local(async move {
                while !inputs.is_halted() {
                    clock.sleep(100).await;
                }
                // Held: nothing goes out until the user resumes, however long that takes.
                let n = log.events.borrow().len();
                clock.sleep(600_000).await;
                assert_eq!(log.events.borrow().len(), n);
                inputs.release();
            })
            .unwrap();
        async move { formats::drive(&ctx).await }
    });
    assert_eq!(outcome, Outcome::Completed);
    assert_eq!(rig.model.requests.borrow().len(), 4 + 11);
    let events = rig.events();
    let held = events
        .iter()
        .position(|e| {
            matches!(
                e.kind,
                EventKind::Paused {
                    needs_resume: true,
                    ..
                }
            )
        })
        .unwrap();
    assert!(matches!(events[held + 1].kind, EventKind::Resumed));
}

#[test]
fn offline_waits_for_the_connection_and_then_goes_on_by_itself() {
    let rig = Rig::new(serde_json::json!({"default": {"chunk_delay_ms": 10}}), T0);
    let ctx = rig.start();
    let (clock, inputs) = (rig.clock.clone(), rig.inputs.clone());
    inputs.set_offline(true);
    inputs.set_paused(true); // the user also paused: coming back online must not undo that
    let (c, i) = (clock.clone(), inputs.clone());
    let outcome = run_virtual_with(&clock, move |spawner| {
        spawner
            .spawn_local(async move {
                c.sleep(5_000).await;
                i.set_offline(false);
                c.sleep(1_000).await;
                assert_eq!(c.now_ms() - T0, 6_000);
                i.set_paused(false);
            })
            .unwrap();
        async move { formats::drive(&ctx).await }
    });
    assert_eq!(outcome, Outcome::Completed);
    let events = rig.events();
    let paused = events
        .iter()
        .find_map(|e| {
            if let EventKind::Paused { reason, .. } = &e.kind {
                Some(reason.clone())
            } else {
                None
            }
        })
        .unwrap();
    assert!(paused.contains("offline"), "{paused}");
    let first_call = events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::TurnStarted { .. }))
        .unwrap();
    assert_eq!(
        first_call.at_ms - T0,
        6_000,
        "no call went out while offline or paused"
    );
}
