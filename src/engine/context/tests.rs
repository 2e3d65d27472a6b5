//! Bounds on every call, and randomness that retries cannot disturb, on the scripted model
//! under the virtual clock.

use std::rc::Rc;

use super::*;
use crate::engine::clock::{run_virtual_with, VirtualClock};
use crate::engine::config::{FormatOptions, SeatConfig};
use crate::engine::event::Purpose;
use crate::engine::script::{Script, ScriptedModel};
use futures::task::LocalSpawnExt;

fn config() -> DebateConfig {
    DebateConfig::new(
        "bounds",
        vec![SeatConfig {
            id: "a".into(),
            name: "A".into(),
            stance: None,
            participant: Participant::Model {
                connection: "c".into(),
                connection_label: "C".into(),
                model: "m".into(),
                context_tokens: 4096,
                price: None,
            },
        }],
        "a",
        FormatOptions::Probe,
    )
}

struct Outcome {
    result: Attempt<CallOutput, CallFailure>,
    random: f64,
    events: Vec<Event>,
    requests: usize,
}

/// One call on seat `a` (then a random draw), with `wall_ms` as the call limit. A Stop comes
/// after ten virtual hours, so a debate held at a failed call ends.
fn one_call(
    script: serde_json::Value,
    wall_ms: u64,
    spec: impl FnOnce(CallSpec) -> CallSpec,
) -> Outcome {
    let clock = VirtualClock::new(0);
    let script: Script = serde_json::from_value(script).unwrap();
    let model = Rc::new(ScriptedModel::new(script, clock.clone()));
    let log = Rc::new(EventLog::default());
    let stop = CancelToken::new();
    let ctx = DebateCtx::start(
        config(),
        9,
        1,
        Wiring {
            retry: Default::default(),
            limits: CallLimits { wall_ms },
            model: model.clone(),
            clock: Rc::new(clock.clone()),
            observer: log.clone(),
            inputs: Inputs::new(),
            stop: stop.clone(),
        },
    );
    let spec = spec(CallSpec::new("call/a", "a", Purpose::Argument, "Turn").max_tokens(100));
    let c2 = clock.clone();
    let (result, random) = run_virtual_with(&clock, move |spawner| {
        spawner
            .spawn_local(async move {
                c2.sleep(36_000_000).await;
                stop.cancel();
            })
            .unwrap();
        async move {
            let r = ctx.try_call(spec).await;
            (r, ctx.random("after"))
        }
    });
    let events = log.events.borrow().clone();
    let requests = model.requests.borrow().len();
    Outcome {
        result,
        random,
        events,
        requests,
    }
}

#[test]
fn an_answer_past_its_size_bound_is_cut_there_and_marked() {
    // 5 MB for a call limited to 100 tokens.
    let huge = "word ".repeat(1_000_000);
    let out = one_call(
        serde_json::json!({"answers": [{"chunks": [huge.clone(), huge]}]}),
        60_000,
        |s| s,
    );
    let o = out.result.unwrap().unwrap();
    assert_eq!(o.finish, FinishReason::SizeLimit);
    assert_eq!(o.text.len(), output_bound(100));
    assert!(o.text.starts_with("word word"));
}

#[test]
fn an_answer_still_streaming_at_the_wall_clock_limit_keeps_its_text_and_is_marked() {
    let out = one_call(
        serde_json::json!({"answers": [{"chunks": ["one ", "two ", "three ", "four ", "five"],
            "chunk_delay_ms": 10_000}]}),
        25_000,
        |s| s,
    );
    let o = out.result.unwrap().unwrap();
    assert_eq!(
        (o.text.as_str(), o.finish),
        ("one two three ", FinishReason::TimeLimit)
    );
    let finished_at = out
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::TurnFinished { .. }))
        .unwrap()
        .at_ms;
    assert_eq!(finished_at, 25_000);
}

#[test]
fn a_silent_call_past_the_wall_clock_limit_holds_the_debate_with_a_message() {
    let out = one_call(
        serde_json::json!({"answers": [{"text": "late", "first_delay_ms": 7_200_000}]}),
        60_000,
        |s| s,
    );
    // Not retried (waiting again would not help); held until the user acts (here: Stop).
    assert_eq!(out.result, Err(DebateError::Stopped));
    assert_eq!(out.requests, 1);
    assert!(out.events.iter().any(|e| matches!(&e.kind,
        EventKind::Paused { reason, needs_resume: true } if reason.contains("no answer within 1 minute ("))));
}

#[test]
fn a_tolerated_silent_call_is_recorded_as_failed_and_the_debate_goes_on() {
    let out = one_call(
        serde_json::json!({"answers": [{"text": "late", "first_delay_ms": 7_200_000}]}),
        60_000,
        |s| s.tolerate_failure(),
    );
    let failure = out.result.unwrap().unwrap_err();
    assert!(
        failure.message.contains("no answer within"),
        "{}",
        failure.message
    );
    assert!(out
        .events
        .iter()
        .any(|e| matches!(&e.kind, EventKind::CallSkipped { failed: true, .. })));
}

#[test]
fn retries_do_not_change_the_debates_random_choices() {
    let plain = one_call(
        serde_json::json!({"answers": [{"text": "ok"}]}),
        60_000,
        |s| s,
    );
    let retried = one_call(
        serde_json::json!({"answers": [
            {"occurrence": 0, "fault": {"status": 503}},
            {"occurrence": 1, "fault": {"status": 500}},
            {"text": "ok"}
        ]}),
        60_000,
        |s| s,
    );
    assert_eq!(retried.requests, 3);
    assert_eq!(retried.result.unwrap().unwrap().text, "ok");
    assert_eq!(plain.random, retried.random);
}

/// Three structured calls: read at once, read after a repair, and never read. Then the same
/// debate resumed from its log: it replays the calls and records no reading twice.
#[test]
fn structured_answers_are_recorded_as_parsed_repaired_or_unread_once_each() {
    use crate::engine::event::{ReadOutcome, ReadTally};
    let clock = VirtualClock::new(0);
    let script: Script = serde_json::from_value(serde_json::json!({"answers": [
        {"path": "fixed/repair", "text": "{\"n\": 2}"},
        {"path": "bad/repair", "text": "{\"m\": 3}"},
        {"path": "ok", "text": "{\"n\": 1}"},
        {"path": "fixed", "text": "not json"},
        {"path": "bad", "text": "no"},
    ]}))
    .unwrap();
    let model = Rc::new(ScriptedModel::new(script, clock.clone()));
    let wiring = |log: Rc<EventLog>| Wiring {
        retry: Default::default(),
        limits: CallLimits::default(),
        model: model.clone(),
        clock: Rc::new(clock.clone()),
        observer: log,
        inputs: Inputs::new(),
        stop: CancelToken::new(),
    };
    let n = |v: &serde_json::Value| v["n"].as_u64().ok_or_else(|| Problem::missing("n"));
    let three = |ctx: DebateCtx| async move {
        let mut got = Vec::new();
        for path in ["ok", "fixed", "bad"] {
            let spec = CallSpec::new(path, "a", Purpose::Evaluation, "Score")
                .max_tokens(50)
                .json_schema(serde_json::json!({"type": "object"}))
                .tolerate_failure();
            got.push(ctx.call_json(spec, n).await.unwrap());
        }
        (got, ctx.events())
    };
    let first = DebateCtx::start(config(), 1, 5, wiring(Rc::new(EventLog::default())));
    let (got, events) = run_virtual_with(&clock, |_| three(first));
    let read: Vec<(String, Result<u64, Unread>)> = got
        .into_iter()
        .map(|s| (s.key.to_string(), s.read))
        .collect();
    // Each comes back with the key of the answer read (the repair's when repaired) and,
    // when nothing could be read, why.
    assert_eq!(
        read,
        vec![
            ("ok".into(), Ok(1)),
            ("fixed/repair".into(), Ok(2)),
            (
                "bad/repair".into(),
                // The last problem: the repair's answer was JSON without `n`.
                Err(Unread::Unreadable {
                    problem: Problem::missing("n")
                })
            ),
        ]
    );
    let reads: Vec<(String, ReadOutcome, String)> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::StructuredRead {
                call,
                outcome,
                problem,
                ..
            } => Some((call.path.clone(), *outcome, problem.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        reads,
        vec![
            ("ok".into(), ReadOutcome::Parsed, String::new()),
            (
                "fixed".into(),
                ReadOutcome::Repaired,
                "the answer contained no valid JSON object".into()
            ),
            (
                "bad".into(),
                ReadOutcome::Unread,
                "the answer contained no valid JSON object".into()
            ),
        ]
    );
    let tally = ReadTally::of(&events);
    assert_eq!(
        (tally.parsed, tally.repaired, tally.unread, tally.total()),
        (1, 1, 1, 3)
    );

    let asked = model.requests.borrow().len();
    let again = DebateCtx::resume(events.clone(), wiring(Rc::new(EventLog::default()))).unwrap();
    let (got, resumed) = run_virtual_with(&clock, |_| three(again));
    let values: Vec<Option<u64>> = got.into_iter().map(Structured::ok).collect();
    assert_eq!(values, vec![Some(1), Some(2), None]);
    assert_eq!(model.requests.borrow().len(), asked, "no call made again");
    assert_eq!(ReadTally::of(&resumed), tally, "no reading recorded twice");
}

/// A check beside a stream that finds no room under the cap is skipped at once, saying
/// so: it neither waits for the speech it checks to end nor pauses the debate.
#[test]
fn a_check_with_no_room_under_the_cap_is_skipped_not_queued() {
    let clock = VirtualClock::new(0);
    let script: Script = serde_json::from_value(serde_json::json!({"answers": [
        {"path": "speech", "chunks": ["One. ", "Two. ", "Three."], "chunk_delay_ms": 100}
    ]}))
    .unwrap();
    let model = Rc::new(ScriptedModel::new(script, clock.clone()));
    let log = Rc::new(EventLog::default());
    let mut cfg = config();
    if let Participant::Model { price, .. } = &mut cfg.seats[0].participant {
        // $1,000 per million tokens: each call's worst case is about $0.12.
        *price = Some(crate::engine::cost::Price {
            input: 1000.0,
            output: 1000.0,
        });
    }
    cfg.spending_cap = Some(0.15);
    let ctx = DebateCtx::start(
        cfg,
        9,
        2,
        Wiring {
            retry: Default::default(),
            limits: Default::default(),
            model: model.clone(),
            clock: Rc::new(clock.clone()),
            observer: log.clone(),
            inputs: Inputs::new(),
            stop: CancelToken::new(),
        },
    );
    let c2 = clock.clone();
    let (speech, check) = run_virtual_with(&clock, move |_| async move {
        let speech =
            ctx.call(CallSpec::new("speech", "a", Purpose::Argument, "Speech").max_tokens(100));
        let check = async {
            c2.sleep(50).await;
            let c = ctx
                .check(CallSpec::new("check", "a", Purpose::Check, "Check").max_tokens(100))
                .await;
            (c, c2.now_ms())
        };
        futures::join!(speech, check)
    });
    assert_eq!(speech.unwrap().text, "One. Two. Three.");
    let (check, at) = check;
    assert!(check.unwrap().is_none());
    assert_eq!(at, 50, "skipped at once, not after the speech");
    let events = log.events.borrow();
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::CallSkipped { call, reason, failed: false, .. }
            if call.path == "check" && reason.contains("spending cap"))));
    assert!(!events
        .iter()
        .any(|e| matches!(e.kind, EventKind::Paused { .. })));
    assert_eq!(model.requests.borrow().len(), 1);
}
