//! The probe under the virtual clock: each engine feature, then all of them resumed from
//! every prefix of the log.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;

use super::*;
use crate::engine::cancel::CancelToken;
use crate::engine::clock::{run_virtual_with, Clock, VirtualClock};
use crate::engine::config::{DebateConfig, FormatOptions, Participant, SeatConfig};
use crate::engine::context::{EventLog, Inputs, Wiring};
use crate::engine::cost::{Price, Spent};
use crate::engine::event::{CallKey, Event, EventKind, Input};
use crate::engine::limiter::Limiter;
use crate::engine::model::{
    Admission, ChatModel, ChatRequest, ChatResponse, ErrorKind, ModelError,
};
use crate::engine::script::{Script, ScriptedModel};
use std::collections::HashMap;

const START: u64 = 1_000_000;
/// Three of the round's calls fit under it at once (each may cost up to $0.119: 19 tokens
/// in, 100 out), not the whole round.
const CAP: f64 = 0.40;

/// The scripted model behind per-connection limits on calls at once, as the session's
/// router puts real providers.
struct Limited {
    inner: ScriptedModel<VirtualClock>,
    limits: HashMap<String, Rc<Limiter>>,
}

impl ChatModel for Limited {
    fn admit<'a>(
        &'a self,
        req: &'a ChatRequest,
        wait: bool,
    ) -> LocalBoxFuture<'a, Result<Admission, ModelError>> {
        Box::pin(async move {
            let limiter = self.limits.get(req.connection.as_str()).unwrap().clone();
            limiter
                .place(wait)
                .await
                .map(|p| Box::new(p) as Admission)
                .ok_or_else(|| ModelError::new(ErrorKind::Busy, "busy"))
        })
    }

    fn complete<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: &'a dyn Fn(&str),
        cancel: &'a CancelToken,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        self.inner.complete(req, on_delta, cancel)
    }

    fn ceiling(&self, req: &ChatRequest) -> crate::engine::model::Ceiling {
        self.inner.ceiling(req)
    }
}

fn seat(id: &str, connection: Option<&str>) -> SeatConfig {
    let participant = match connection {
        None => Participant::Human,
        Some(c) => Participant::Model {
            connection: c.into(),
            connection_label: c.into(),
            model: "m".into(),
            context_tokens: 4096,
            // $1,000 per million tokens: a tenth of a dollar per 100 tokens.
            price: Some(Price {
                input: 1000.0,
                output: 1000.0,
            }),
        },
    };
    SeatConfig {
        id: id.into(),
        name: id.to_uppercase(),
        stance: None,
        participant,
    }
}

fn config() -> DebateConfig {
    let mut seats: Vec<SeatConfig> = ROUND.iter().map(|s| seat(s, Some("pair"))).collect();
    seats.push(seat("s", Some("speaker")));
    seats.push(seat("s2", Some("speaker")));
    seats.push(seat("judge", Some("solo")));
    seats.push(seat("h", None));
    DebateConfig {
        topic: "probe".into(),
        seats,
        analyst: "judge".into(),
        options: FormatOptions::Probe,
        spending_cap: Some(CAP),
        forked_from: None,
        sources: Vec::new(),
        judges_read_sources: false,
        sources_left_out: 0,
        search_web: Vec::new(),
    }
}

fn script() -> Script {
    let usage = serde_json::json!({"input_tokens": 50, "output_tokens": 50});
    serde_json::from_value(serde_json::json!({
        "answers": [
            {"path": "round/a", "text": "Alpha argues.", "chunk_delay_ms": 100, "usage": usage},
            {"path": "round/b", "occurrence": 0, "fault": {"status": 503, "body": "overloaded"}},
            {"path": "round/b", "text": "Bravo argues.", "chunk_delay_ms": 100, "usage": usage},
            {"path": "round/c", "first_delay_ms": 50, "fault": {"status": 400, "body": "refused by the content filter"}},
            {"path": "round/d", "text": "Delta argues.", "chunk_delay_ms": 150, "usage": usage},
            {"path": "round/e", "text": "Echo argues.", "chunk_delay_ms": 100, "usage": usage},
            {"path": "speech/s", "chunks": ["First sentence ", "is here. ", "Second sentence ",
                "keeps going. ", "Third sentence ", "is never ", "heard. ", "The end."],
             "chunk_delay_ms": 100, "usage": {"input_tokens": 5, "output_tokens": 5}},
            {"path": "speech/check/1", "text": "INTERRUPT now", "first_delay_ms": 150},
            {"path": "score/s/repair", "text": "Sorry. {\"score\": 7,}"},
            {"path": "score/s", "text": "Here you go: ```json\n{\"score\": 11}\n```"},
            {"path": "final/", "text": "Final word.", "usage": {"input_tokens": 1, "output_tokens": 1}}
        ],
        "default": {"text": "fine", "usage": {"input_tokens": 1, "output_tokens": 1}}
    }))
    .unwrap()
}

struct Run {
    result: Result<ProbeResult, DebateError>,
    /// The whole log: the prefix resumed from, then what this run added.
    log: Vec<Event>,
    requests: Vec<String>,
    warnings: Vec<String>,
    /// Listeners left on the Stop token once the debate is over.
    stop_listeners: usize,
}

/// Runs the probe (or resumes it from `prior`). A person plays the tester: raises the cap
/// when the debate pauses at it, and answers room 2 before room 1.
fn run_probe(prior: Option<Vec<Event>>) -> Run {
    let clock = VirtualClock::new(START);
    let mut limits = HashMap::new();
    limits.insert("pair".to_string(), Limiter::new(2));
    limits.insert("speaker".to_string(), Limiter::new(1));
    limits.insert("solo".to_string(), Limiter::new(1));
    let model = Rc::new(Limited {
        inner: ScriptedModel::new(script(), clock.clone()),
        limits,
    });
    let prefix = prior.clone().unwrap_or_default();
    let log = Rc::new(EventLog::with(prefix.clone()));
    let inputs = Inputs::new();
    let stop = CancelToken::new();
    let wiring = Wiring {
        retry: Default::default(),
        limits: Default::default(),
        model: model.clone(),
        clock: Rc::new(clock.clone()),
        observer: log.clone(),
        inputs: inputs.clone(),
        stop: stop.clone(),
    };
    let ctx = match prior {
        None => DebateCtx::start(config(), 42, 0, wiring),
        Some(events) => DebateCtx::resume(events, wiring).unwrap(),
    };
    let fresh_from = prefix.len();
    let (c2, l2, i2) = (clock.clone(), log.clone(), inputs.clone());
    let ctx2 = ctx.clone();
    let result = run_virtual_with(&clock, move |spawner| {
        spawner
            .spawn_local(async move {
                // Room 2 may have been answered before the resume.
                let room2_done = l2.events.borrow()[..fresh_from].iter().any(|e| {
                    matches!(&e.kind, EventKind::TurnFinished { call, .. } if call.path == "room/2/h")
                });
                let (mut raised, mut answered) = (false, [false, room2_done]);
                while c2.now_ms() < START + 3_600_000 {
                    let new: Vec<Event> = l2.events.borrow()[fresh_from..].to_vec();
                    for e in &new {
                        match &e.kind {
                            EventKind::Paused { reason, .. }
                                if reason.contains("spending cap") && !raised =>
                            {
                                raised = true;
                                i2.push(Input::SpendingCap { usd: Some(1.0) });
                            }
                            EventKind::TurnStarted {
                                call, human: true, ..
                            } => {
                                let room = if call.path == "room/1/h" { 0 } else { 1 };
                                // Room 2 is answered first; room 1 only after it.
                                if !answered[room] && (room == 1 || answered[1]) {
                                    answered[room] = true;
                                    i2.push(Input::HumanTurn {
                                        call: call.clone(),
                                        text: format!("Room {} speaks.", room + 1),
                                    });
                                }
                            }
                            _ => {}
                        }
                    }
                    c2.sleep(10).await;
                }
            })
            .unwrap();
        async move { run(&ctx2).await }
    });
    if result.is_ok() {
        ctx.finish(crate::engine::event::Outcome::Completed, None);
    }
    let requests = model
        .inner
        .requests
        .borrow()
        .iter()
        .map(|r| r.call.clone())
        .collect();
    let log = log.events.borrow().clone();
    Run {
        result,
        log,
        requests,
        warnings: ctx.warnings(),
        stop_listeners: stop.listeners(),
    }
}

fn time_of(log: &[Event], f: impl Fn(&EventKind) -> bool) -> Vec<u64> {
    log.iter()
        .filter(|e| f(&e.kind))
        .map(|e| e.at_ms - START)
        .collect()
}

#[test]
fn the_round_runs_two_at_a_time_and_shows_the_others_queued() {
    let run = run_probe(None);
    let r = run.result.unwrap();
    assert_eq!(
        r.round,
        vec![
            Some("Alpha argues.".to_string()),
            Some("Bravo argues.".to_string()),
            None,
            Some("Delta argues.".to_string()),
            Some("Echo argues.".to_string()),
        ]
    );
    // Never more than two of the round's calls in flight at once.
    let mut in_flight = 0i32;
    let mut most = 0;
    for e in &run.log {
        match &e.kind {
            EventKind::TurnStarted { call, .. } if call.path.starts_with("round/") => {
                in_flight += 1
            }
            EventKind::TurnFinished { call, .. } | EventKind::TurnFailed { call, .. }
                if call.path.starts_with("round/") =>
            {
                in_flight -= 1
            }
            _ => {}
        }
        most = most.max(in_flight);
    }
    assert_eq!(most, 2);
    // Calls beyond the limit were queued first, and started only when a place freed up.
    let queued: Vec<String> = run
        .log
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnQueued { call, .. } => Some(call.path.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(queued, vec!["round/d".to_string(), "round/e".to_string()]);
    let started = |p: &str| {
        time_of(
            &run.log,
            |k| matches!(k, EventKind::TurnStarted { call, .. } if call.path == p),
        )[0]
    };
    assert_eq!(started("round/c"), 0);
    assert!(
        started("round/d") >= 50,
        "d started when a place freed, not at once"
    );
}

#[test]
fn a_tolerated_failure_is_recorded_and_the_debate_goes_on() {
    let run = run_probe(None);
    assert!(run.result.is_ok());
    let skipped: Vec<_> = run
        .log
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::CallSkipped {
                call,
                failed,
                reason,
                ..
            } => Some((call.path.clone(), *failed, reason.clone())),
            _ => None,
        })
        .collect();
    assert!(skipped
        .iter()
        .any(|(p, failed, reason)| p == "round/c" && *failed && reason.contains("400")));
    assert!(
        !run.log.iter().any(|e| matches!(
            &e.kind,
            EventKind::Paused {
                needs_resume: true,
                ..
            }
        )),
        "a tolerated failure does not hold the debate"
    );
}

#[test]
fn the_spending_cap_pauses_the_round_once_and_is_never_passed() {
    let run = run_probe(None);
    let config = config();
    let (at_pause, reason) = run
        .log
        .iter()
        .enumerate()
        .find_map(|(i, e)| match &e.kind {
            EventKind::Paused { reason, .. } if reason.contains("spending cap") => {
                Some((i, reason.clone()))
            }
            _ => None,
        })
        .expect("the cap was reached");
    // Five calls competed for the room; each started only if its worst case fit beside
    // what was spent and what the others in flight held: spending never passed the cap.
    let raised = run
        .log
        .iter()
        .position(|e| {
            matches!(
                &e.kind,
                EventKind::InputReceived {
                    input: Input::SpendingCap { .. },
                    ..
                }
            )
        })
        .unwrap();
    for end in at_pause..=raised {
        let spent = Spent::from_events(&config, &run.log[..end]).total;
        assert!(
            spent <= CAP + crate::engine::cost::NOISE,
            "spent {spent} of {CAP}"
        );
    }
    // It paused because the next call's worst case ($0.119) did not fit, and says so.
    let spent = Spent::from_events(&config, &run.log[..at_pause]).total;
    assert!(spent + 0.119 > CAP, "spent {spent}");
    assert!(
        reason.contains("could cost up to $0.1190") && reason.contains("$0.4000"),
        "{reason}"
    );
    let pauses = run
        .log
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Paused { .. }))
        .count();
    assert_eq!(pauses, 1, "one pause for all the waiting calls");
    // Raised to $1: the waiting call went on, and nothing deadlocked.
    assert_eq!(
        run.result.unwrap().round[4].as_deref(),
        Some("Echo argues.")
    );
}

#[test]
fn a_check_on_another_single_call_connection_cuts_the_speech_at_a_sentence() {
    let run = run_probe(None);
    let r = run.result.unwrap();
    assert_eq!(
        r.speech,
        (
            "First sentence is here. Second sentence keeps going.".to_string(),
            FinishReason::Cut
        )
    );
    // The check ran while the speaker streamed (the judge's connection was free), and the
    // one on the speaker's own connection was skipped rather than queued behind it.
    assert_eq!(r.checks, (1, 1));
    assert_eq!(r.trigger.as_deref(), Some("First sentence is here."));
    let check_done = time_of(
        &run.log,
        |k| matches!(k, EventKind::TurnFinished { call, .. } if call.path == "speech/check/1"),
    )[0];
    let speech_done = time_of(
        &run.log,
        |k| matches!(k, EventKind::TurnFinished { call, .. } if call.path == "speech/s"),
    )[0];
    assert!(check_done < speech_done);
    assert!(run.log.iter().any(|e| matches!(&e.kind,
        EventKind::CallSkipped { call, failed: false, .. } if call.path == "speech/self-check/1")));
    assert!(run.log.iter().any(|e| matches!(&e.kind,
        EventKind::FindingRecorded(f) if matches!(f.body, FindingBody::Interruption { kept_chars: 52, .. }))));
}

#[test]
fn findings_scores_rooms_and_the_random_pick_are_recorded() {
    let run = run_probe(None);
    let r = run.result.unwrap();
    assert_eq!(r.score, Some(7));
    assert!(run.requests.contains(&"score/s/repair".to_string()));
    assert_eq!(
        r.rooms,
        ("Room 1 speaks.".to_string(), "Room 2 speaks.".to_string()),
        "each room got its own person's turn though room 2 answered first"
    );
    assert!(run.log.iter().any(|e| matches!(&e.kind,
        EventKind::FindingRecorded(f) if matches!(f.body, FindingBody::Score { total, .. } if total == 7.0))));
    assert!(run.log.iter().any(|e| matches!(&e.kind,
        EventKind::DecisionRecorded { key, .. } if key == "random/pick")));
    assert_eq!(r.last, "Final word.");
    assert_eq!(run.stop_listeners, 0, "no abort listener left behind");
    assert!(run.warnings.is_empty(), "{:?}", run.warnings);
}

/// What a log says happened, apart from scheduling: every finished turn, skipped call,
/// decision, finding and phase, in a canonical order. Queued, started, paused and resumed
/// events depend on when a resume happened; failed attempts before a resume repeat after
/// it, so they are left out too.
fn substance(log: &[Event]) -> Vec<String> {
    let mut out: Vec<String> = log
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnFinished {
                call, text, finish, ..
            } => Some(format!("turn {call} {text:?} {finish:?}")),
            EventKind::CallSkipped {
                call,
                failed,
                reason,
                ..
            } => Some(format!("skipped {call} {failed} {reason}")),
            EventKind::DecisionRecorded { key, value } => Some(format!("decision {key} {value}")),
            EventKind::FindingRecorded(f) => Some(format!("finding {f:?}")),
            EventKind::PhaseStarted { key, .. } => Some(format!("phase {key}")),
            EventKind::DebateStarted { .. } => Some("start".into()),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

#[test]
fn resumed_from_every_prefix_of_its_log_it_ends_the_same() {
    let full = run_probe(None);
    let full_result = full.result.unwrap();
    let want = substance(&full.log);
    // The full log ends with `Finished`; every shorter prefix is a debate cut off there.
    for n in 1..full.log.len() - 1 {
        let prefix = full.log[..n].to_vec();
        let resumed = run_probe(Some(prefix.clone()));
        let at = format!("resumed after event {n} ({:?})", full.log[n - 1].kind);
        assert_eq!(resumed.result.as_ref().ok(), Some(&full_result), "{at}");
        assert_eq!(substance(&resumed.log), want, "{at}");
        assert!(resumed.warnings.is_empty(), "{at}: {:?}", resumed.warnings);
        // Nothing finished in the prefix was asked of a model again.
        for e in &prefix {
            if let EventKind::TurnFinished { call, .. } = &e.kind {
                assert!(
                    !resumed.requests.contains(&call.to_string()),
                    "{at}: {call} asked again"
                );
            }
        }
    }
}

#[test]
fn recorded_calls_a_replay_never_uses_are_reported() {
    let mut log = run_probe(None).log;
    log.pop(); // Finished
    let extra = Event {
        seq: log.len() as u32,
        at_ms: START,
        kind: EventKind::TurnFinished {
            call: CallKey::new("gone/x", 0),
            seat: "a".into(),
            text: "a call this format no longer makes".into(),
            reasoning: String::new(),
            usage: Default::default(),
            finish: FinishReason::Stop,
        },
    };
    log.insert(3, extra);
    let resumed = run_probe(Some(log));
    assert!(resumed.result.is_ok());
    assert!(
        resumed.warnings.iter().any(|w| w.contains("call gone/x")),
        "{:?}",
        resumed.warnings
    );
}
