//! A test-only format that uses every engine feature the real formats rely on: parallel
//! calls, a call cut mid-stream, a JSON analysis call on the analyst seat, a human turn, a
//! random choice and (in the tests) a resume from half its log.

use std::cell::RefCell;
use std::rc::Rc;

use crate::engine::cancel::CancelToken;
use crate::engine::context::{CallSpec, DebateCtx, DebateError};
use crate::engine::event::{FinishReason, Purpose};
use crate::engine::model::ChatMessage;

#[derive(Debug, PartialEq)]
pub struct ProbeResult {
    pub parallel: (String, String),
    pub cut: (String, FinishReason),
    pub score: Option<u32>,
    pub human: String,
    pub pick: u32,
    pub last: String,
}

fn msg(s: &str) -> Vec<ChatMessage> {
    vec![ChatMessage::user(s)]
}

pub async fn run(ctx: &DebateCtx) -> Result<ProbeResult, DebateError> {
    ctx.phase("parallel", "Parallel openings", None);
    let a = ctx
        .call(CallSpec::new("open/a", "a", Purpose::Argument, "Opening").messages(msg("open a")));
    let b = ctx
        .call(CallSpec::new("open/b", "b", Purpose::Argument, "Opening").messages(msg("open b")));
    let (a, b) = futures::join!(a, b);
    let (a, b) = (a?, b?);

    // A call cut once its text contains "CUT": the way an interruption stops a speaker.
    ctx.phase("cut", "Interruption", None);
    let token = CancelToken::new();
    let seen = Rc::new(RefCell::new(String::new()));
    let (t, s) = (token.clone(), seen.clone());
    let cut = ctx
        .call(
            CallSpec::new("speech/a", "a", Purpose::Argument, "Speech")
                .messages(msg("speak"))
                .cancel(token)
                .on_delta(move |d| {
                    s.borrow_mut().push_str(d);
                    if s.borrow().contains("CUT") {
                        t.cancel();
                    }
                }),
        )
        .await?;

    ctx.phase("analysis", "Analysis", None);
    let analyst = ctx.analyst();
    let score = ctx
        .call_json(
            CallSpec::new("score/a", analyst, Purpose::Evaluation, "Score")
                .messages(msg("score a as {\"score\": 0-10}"))
                .json_schema(serde_json::json!({
                    "type": "object",
                    "properties": {"score": {"type": "integer", "minimum": 0, "maximum": 10}},
                    "required": ["score"]
                })),
            |v| {
                v.get("score")
                    .and_then(|s| s.as_u64())
                    .filter(|s| *s <= 10)
                    .map(|s| s as u32)
                    .ok_or_else(|| "`score` must be a whole number from 0 to 10".to_string())
            },
        )
        .await?;

    ctx.phase("human", "Human turn", None);
    let human = ctx
        .call(
            CallSpec::new("human/h", "h", Purpose::Argument, "Your turn")
                .messages(msg("your turn")),
        )
        .await?;

    let pick = (ctx.random("pick") * 100.0) as u32;
    let last = ctx
        .call(
            CallSpec::new(format!("final/{pick}"), "b", Purpose::Argument, "Final")
                .messages(msg(&format!("finish after {}", human.text))),
        )
        .await?;

    Ok(ProbeResult {
        parallel: (a.text, b.text),
        cut: (cut.text, cut.finish),
        score,
        human: human.text,
        pick,
        last: last.text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::clock::{run_virtual_with, Clock, VirtualClock};
    use crate::engine::config::{DebateConfig, Participant, SeatConfig};
    use crate::engine::context::{Inputs, Observer, Wiring};
    use crate::engine::event::{Event, EventKind, Input};
    use crate::engine::script::{Script, ScriptedModel};
    use futures::task::LocalSpawnExt;

    fn seat(id: &str, human: bool) -> SeatConfig {
        let participant = if human {
            Participant::Human
        } else {
            Participant::Model {
                connection: "s".into(),
                connection_label: "Scripted".into(),
                model: "m".into(),
                context_tokens: 4096,
                price: None,
            }
        };
        SeatConfig {
            id: id.into(),
            name: id.to_uppercase(),
            stance: None,
            participant,
        }
    }

    fn config() -> DebateConfig {
        DebateConfig {
            topic: "probe".into(),
            seats: vec![
                seat("a", false),
                seat("b", false),
                seat("judge", false),
                seat("h", true),
            ],
            analyst: "judge".into(),
            options: crate::engine::config::FormatOptions::Probe,
            spending_cap: None,
        }
    }

    fn script() -> Script {
        serde_json::from_value(serde_json::json!({
            "answers": [
                {"path": "open/a", "chunks": ["A1 ", "A2 ", "A3"], "chunk_delay_ms": 100},
                {"path": "open/b", "chunks": ["B1 ", "B2 ", "B3"], "chunk_delay_ms": 100},
                {"path": "speech/a", "chunks": ["I will ", "make my point ", "CUT", " and never finish", " this"], "chunk_delay_ms": 50},
                {"seat": "judge", "purpose": "evaluation", "occurrence": 0, "text": "Here you go: ```json\n{\"score\": 11}\n```"},
                {"seat": "judge", "purpose": "evaluation", "occurrence": 1, "text": "Sorry. {\"score\": 7,}"},
                {"path": "final/", "text": "Final word."}
            ]
        }))
        .unwrap()
    }

    struct Log(RefCell<Vec<Event>>);
    impl Observer for Log {
        fn on_event(&self, e: &Event) {
            self.0.borrow_mut().push(e.clone());
        }
        fn on_delta(&self, _: &crate::engine::CallKey, _: &str, _: &str) {}
    }

    struct Run {
        result: Result<ProbeResult, DebateError>,
        events: Vec<Event>,
        requests: Vec<String>,
        human_asked_at: Option<u64>,
    }

    /// Runs the probe; the human answers 5 virtual seconds after being asked.
    fn run_probe(prior: Option<Vec<Event>>) -> Run {
        let clock = VirtualClock::new(1_000_000);
        let model = Rc::new(ScriptedModel::new(script(), clock.clone()));
        let log = Rc::new(Log(RefCell::new(Vec::new())));
        let inputs = Inputs::new();
        let wiring = Wiring {
            retry: Default::default(),
            limits: Default::default(),
            model: model.clone(),
            clock: Rc::new(clock.clone()),
            observer: log.clone(),
            inputs: inputs.clone(),
            stop: CancelToken::new(),
        };
        let ctx = match prior {
            None => DebateCtx::start(config(), 42, 7, wiring),
            Some(events) => DebateCtx::resume(events, wiring).unwrap(),
        };
        let asked = Rc::new(RefCell::new(None));
        let (c2, l2, a2, i2) = (clock.clone(), log.clone(), asked.clone(), inputs.clone());
        let result = run_virtual_with(&clock, move |spawner| {
            spawner
                .spawn_local(async move {
                    // Watch for the human's turn being asked for, then answer it.
                    loop {
                        let waiting =
                            l2.0.borrow().iter().any(|e| {
                                matches!(&e.kind, EventKind::TurnStarted { human: true, .. })
                            });
                        if waiting {
                            *a2.borrow_mut() = Some(c2.now_ms());
                            c2.sleep(5_000).await;
                            i2.push(Input::HumanTurn {
                                call: crate::engine::CallKey::new("human/h", 0),
                                text: "A person speaks.".into(),
                            });
                            break;
                        }
                        c2.sleep(10).await;
                        if c2.now_ms() > 1_000_000 + 600_000 {
                            break;
                        }
                    }
                })
                .unwrap();
            async move { run(&ctx).await }
        });
        let requests = model
            .requests
            .borrow()
            .iter()
            .map(|r| {
                // Calls that carry a JSON Schema are marked, to check it reaches the provider.
                let schema = if r.schema.is_some() { " +schema" } else { "" };
                format!("{}{schema}", r.call)
            })
            .collect();
        let events = log.0.borrow().clone();
        let human_asked_at = *asked.borrow();
        Run {
            result,
            events,
            requests,
            human_asked_at,
        }
    }

    #[test]
    fn parallel_calls_run_at_once_and_the_rest_in_order() {
        let run = run_probe(None);
        let r = run.result.unwrap();
        assert_eq!(r.parallel, ("A1 A2 A3".to_string(), "B1 B2 B3".to_string()));
        // Both openings stream 3 chunks 100 ms apart; run together they finish at +200 ms.
        let finished: Vec<u64> = run
            .events
            .iter()
            .filter(|e| matches!(&e.kind, EventKind::TurnFinished { call, .. } if call.path.starts_with("open/")))
            .map(|e| e.at_ms - 1_000_000)
            .collect();
        assert_eq!(finished, vec![200, 200]);
    }

    #[test]
    fn a_cut_call_keeps_its_partial_text_and_stops_streaming() {
        let r = run_probe(None).result.unwrap();
        assert_eq!(
            r.cut,
            ("I will make my point CUT".to_string(), FinishReason::Cut)
        );
    }

    #[test]
    fn invalid_json_gets_one_repair_request_then_validates() {
        let run = run_probe(None);
        assert_eq!(run.result.unwrap().score, Some(7));
        // Both the first call and its repair ask natively for the same JSON shape.
        assert!(run.requests.contains(&"score/a +schema".to_string()));
        assert!(run.requests.contains(&"score/a/repair +schema".to_string()));
    }

    #[test]
    fn a_human_turn_waits_for_the_person_and_is_recorded() {
        let run = run_probe(None);
        let r = run.result.unwrap();
        assert_eq!(r.human, "A person speaks.");
        let asked = run.human_asked_at.expect("the human was asked");
        let answered = run
            .events
            .iter()
            .find(|e| matches!(&e.kind, EventKind::TurnFinished { seat, .. } if seat == "h"))
            .unwrap();
        assert_eq!(answered.at_ms - asked, 5_000);
        assert!(
            !run.requests.iter().any(|c| c.starts_with("human/")),
            "no model is called for a human seat"
        );
    }

    #[test]
    fn resume_from_half_the_log_repeats_no_event_and_ends_the_same() {
        let full = run_probe(None);
        let full_result = full.result.unwrap();
        // Cut the log in the middle of the cut call: its TurnStarted is recorded, its finish not.
        let cut_at = full
            .events
            .iter()
            .position(|e| matches!(&e.kind, EventKind::TurnStarted { call, .. } if call.path == "speech/a"))
            .unwrap()
            + 1;
        let prefix: Vec<Event> = full.events[..cut_at].to_vec();
        let resumed = run_probe(Some(prefix.clone()));
        assert_eq!(resumed.result.unwrap(), full_result);
        // The recorded openings were not asked again; the interrupted speech was.
        assert!(
            !resumed.requests.iter().any(|c| c.starts_with("open/")),
            "{:?}",
            resumed.requests
        );
        assert_eq!(
            resumed.requests.first().map(String::as_str),
            Some("speech/a")
        );
        // No finished turn or phase from the prefix is recorded again.
        let keys = |evs: &[Event]| -> Vec<String> {
            evs.iter()
                .filter_map(|e| match &e.kind {
                    EventKind::TurnFinished { call, .. } => Some(call.to_string()),
                    EventKind::PhaseStarted { key, .. } => Some(key.clone()),
                    EventKind::DebateStarted { .. } => Some("start".into()),
                    _ => None,
                })
                .collect()
        };
        let before = keys(&prefix);
        for k in keys(&resumed.events) {
            assert!(!before.contains(&k), "{k} was recorded twice");
        }
        assert!(matches!(resumed.events[0].kind, EventKind::Resumed));
    }
}
