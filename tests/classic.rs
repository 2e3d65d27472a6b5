//! The classic format end to end on the scripted model, under the virtual clock.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::rc::Rc;

use agora::engine::cancel::CancelToken;
use agora::engine::clock::{run_virtual, run_virtual_with, Clock, VirtualClock};
use agora::engine::config::{ClassicOptions, ClassicStyle, Participant};
use agora::engine::context::{Inputs, Wiring};
use agora::engine::cost::{dollars, estimate, Price, Spent, NOISE};
use agora::engine::event::{Event, EventKind, Input, Outcome};
use agora::engine::export;
use agora::engine::formats::{self, classic};
use agora::engine::script::{Script, ScriptedModel};
use agora::engine::{tokens, CallKey, DebateConfig, DebateCtx};
use futures::task::LocalSpawnExt;

mod common;

fn config(rounds: u32, context_tokens: u32) -> DebateConfig {
    let options = ClassicOptions {
        rounds,
        style: ClassicStyle::Educational,
        ..Default::default()
    };
    classic::new_config(
        "Should cities ban cars from their centres?",
        "Yes, ban them",
        "No, keep access",
        options,
        |_| Participant::Model {
            connection: "local".into(),
            connection_label: "Local".into(),
            model: "m".into(),
            context_tokens,
            price: None,
        },
    )
}

use agora::engine::context::EventLog as Recorder;

/// Every seat on one local model with an 8,192-token window.
fn local(_: &str) -> Participant {
    Participant::Model {
        connection: "local".into(),
        connection_label: "Local".into(),
        model: "m".into(),
        context_tokens: 8192,
        price: None,
    }
}

struct Setup {
    clock: VirtualClock,
    model: Rc<ScriptedModel<VirtualClock>>,
    rec: Rc<Recorder>,
    stop: CancelToken,
    inputs: Rc<Inputs>,
}

fn setup(script: Script) -> Setup {
    let clock = VirtualClock::new(1_700_000_000_000);
    let model = Rc::new(ScriptedModel::new(script, clock.clone()));
    Setup {
        clock,
        model,
        rec: Rc::new(Recorder::default()),
        stop: CancelToken::new(),
        inputs: Inputs::new(),
    }
}

impl Setup {
    fn wiring(&self) -> Wiring {
        Wiring {
            retry: Default::default(),
            limits: Default::default(),
            model: self.model.clone(),
            clock: Rc::new(self.clock.clone()),
            observer: self.rec.clone(),
            inputs: self.inputs.clone(),
            stop: self.stop.clone(),
        }
    }
}

fn slow_script() -> Script {
    serde_json::from_value(serde_json::json!({"default": {"chunk_delay_ms": 20}})).unwrap()
}

fn turns(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnStarted { seat, label, .. } => Some((seat.clone(), label.clone())),
            _ => None,
        })
        .collect()
}

fn phases(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::PhaseStarted { title, .. } => Some(title.clone()),
            _ => None,
        })
        .collect()
}

/// The turns a debate of `style` and `rounds` takes, by hand from each style's rules:
/// casual alternates the lead and skips round summaries, educational explains each round,
/// competitive scores each round, formal and competitive score at the end.
fn schedule(style: ClassicStyle, rounds: u32) -> Vec<(&'static str, &'static str)> {
    let (a, b, m) = ("position-a", "position-b", "moderator");
    let mut want = vec![
        (m, "Opening remarks"),
        (a, "Opening statement"),
        (b, "Opening statement"),
    ];
    for round in 1..=rounds {
        let (first, second) = if style == ClassicStyle::Casual && round.is_multiple_of(2) {
            (b, a)
        } else {
            (a, b)
        };
        want.extend([
            (first, "Argument"),
            (second, "Rebuttal"),
            (second, "Argument"),
            (first, "Rebuttal"),
        ]);
        match style {
            ClassicStyle::Formal => want.push((m, "Round summary")),
            ClassicStyle::Educational => want.push((m, "Moderator's explanation")),
            ClassicStyle::Competitive => {
                want.extend([(m, "Round summary"), (m, "Round score"), (m, "Round score")])
            }
            ClassicStyle::Casual => {}
        }
    }
    want.extend([(a, "Closing statement"), (b, "Closing statement")]);
    if matches!(style, ClassicStyle::Formal | ClassicStyle::Competitive) {
        want.extend([(m, "Score"), (m, "Score")]);
    }
    want.push((m, "Closing summary"));
    want
}

#[test]
fn each_style_keeps_its_own_schedule_for_one_to_five_rounds() {
    for style in ClassicStyle::ALL {
        for rounds in 1..=5u32 {
            let s = setup(Script::default());
            let mut cfg = config(rounds, 8192);
            if let agora::engine::config::FormatOptions::Classic(o) = &mut cfg.options {
                o.style = style;
            }
            let planned = formats::planned_calls(&cfg);
            let ctx = DebateCtx::start(cfg, 7, planned, s.wiring());
            let outcome = run_virtual(&s.clock, async move { formats::drive(&ctx).await });
            assert_eq!(outcome, Outcome::Completed);
            let events = s.rec.events.borrow().clone();
            let want = schedule(style, rounds);
            let got = turns(&events);
            let got: Vec<(&str, &str)> =
                got.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
            assert_eq!(got, want, "{style:?}, {rounds} round(s)");
            assert_eq!(planned as usize, want.len(), "{style:?}, {rounds} round(s)");
            let mut want_phases = vec!["Opening statements".to_string()];
            want_phases.extend((1..=rounds).map(|r| format!("Round {r}")));
            want_phases.push("Closing statements".into());
            if style.always_scored() {
                want_phases.push("Scores".into());
            }
            want_phases.push("Moderator's summary".into());
            assert_eq!(phases(&events), want_phases, "{style:?}, {rounds} round(s)");
        }
    }
}

#[test]
fn a_classic_debate_runs_every_phase_in_order_and_streams_each_turn() {
    let s = setup(slow_script());
    let cfg = config(2, 8192);
    let planned = formats::planned_calls(&cfg);
    let ctx = DebateCtx::start(cfg, 7, planned, s.wiring());
    let outcome = run_virtual(&s.clock, async move { formats::drive(&ctx).await });
    assert_eq!(outcome, Outcome::Completed);

    let events = s.rec.events.borrow().clone();
    let order = turns(&events);
    let expect: Vec<(&str, &str)> = vec![
        ("moderator", "Opening remarks"),
        ("position-a", "Opening statement"),
        ("position-b", "Opening statement"),
        ("position-a", "Argument"),
        ("position-b", "Rebuttal"),
        ("position-b", "Argument"),
        ("position-a", "Rebuttal"),
        ("moderator", "Moderator's explanation"),
        ("position-a", "Argument"),
        ("position-b", "Rebuttal"),
        ("position-b", "Argument"),
        ("position-a", "Rebuttal"),
        ("moderator", "Moderator's explanation"),
        ("position-a", "Closing statement"),
        ("position-b", "Closing statement"),
        ("moderator", "Closing summary"),
    ];
    let got: Vec<(&str, &str)> = order
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(got, expect);
    assert_eq!(planned as usize, expect.len());

    assert_eq!(
        phases(&events),
        [
            "Opening statements",
            "Round 1",
            "Round 2",
            "Closing statements",
            "Moderator's summary"
        ]
    );

    // Every turn finished with text, and that text arrived as several deltas first.
    let deltas = s.rec.deltas.borrow();
    for e in &events {
        if let EventKind::TurnFinished { call, text, .. } = &e.kind {
            assert!(!text.trim().is_empty());
            let streamed: String = deltas
                .iter()
                .filter(|(k, _)| k == call)
                .map(|(_, d)| d.as_str())
                .collect();
            assert_eq!(
                &streamed, text,
                "{call} streamed differently from what was recorded"
            );
            assert!(deltas.iter().filter(|(k, _)| k == call).count() > 3);
        }
    }
    assert!(matches!(
        events.last().unwrap().kind,
        EventKind::Finished {
            outcome: Outcome::Completed,
            ..
        }
    ));
    // Sequence numbers are the log's positions.
    assert!(events.iter().enumerate().all(|(i, e)| e.seq as usize == i));
}

#[test]
fn prompts_carry_the_opponent_and_the_moderators_round_explanations() {
    let script: Script = serde_json::from_value(serde_json::json!({"answers": [
        {"path": "round/1/argument/position-a", "text": "Congestion pricing in Stockholm cut traffic by a fifth."},
        {"path": "round/1/explanation", "text": "ROUND-ONE-SUMMARY: both sides argued about traffic."}
    ]}))
    .unwrap();
    let s = setup(script);
    let cfg = config(2, 8192);
    let ctx = DebateCtx::start(cfg, 7, 16, s.wiring());
    run_virtual(&s.clock, async move { formats::drive(&ctx).await });
    let reqs = s.model.requests.borrow();
    let find = |call: &str| {
        reqs.iter()
            .find(|r| r.call == call)
            .unwrap_or_else(|| panic!("no call {call}"))
    };
    let rebuttal = &find("round/1/rebuttal/position-b").messages[1].content;
    assert!(
        rebuttal.contains("Stockholm cut traffic by a fifth"),
        "{rebuttal}"
    );
    // Round 2 and the final summary see round 1 only as its summary.
    let late = &find("summary").messages[1].content;
    assert!(late.contains("ROUND-ONE-SUMMARY"), "{late}");
    assert!(
        !late.contains("Stockholm"),
        "round 1's turns should be summarised, not repeated"
    );
    // Each side is told its own stance and the style.
    let sys_b = &find("opening/position-b").messages[0].content;
    assert!(sys_b.contains("Your position: No, keep access") && sys_b.contains("educational"));
    // No prompt leaves a template variable unfilled.
    for r in reqs.iter() {
        for m in &r.messages {
            assert!(!m.content.contains("{{"), "{}: {}", r.call, m.content);
        }
    }
}

#[test]
fn prompts_fit_a_small_context_window_however_many_rounds() {
    let long: String = "This is a long-winded answer that goes on. ".repeat(80);
    let script: Script =
        serde_json::from_value(serde_json::json!({"default": {"text": long}})).unwrap();
    let s = setup(script);
    let cfg = config(8, 4096);
    let ctx = DebateCtx::start(cfg, 7, 46, s.wiring());
    run_virtual(&s.clock, async move { formats::drive(&ctx).await });
    let reqs = s.model.requests.borrow();
    assert_eq!(reqs.len(), 46);
    for r in reqs.iter() {
        let input: u32 = r
            .messages
            .iter()
            .map(|m| tokens::estimate(&m.content))
            .sum();
        assert!(
            input + r.max_tokens <= 4096,
            "{} needs {} + {} tokens",
            r.call,
            input,
            r.max_tokens
        );
    }
}

#[test]
fn stop_aborts_the_turn_in_flight_and_keeps_its_partial_text() {
    let s = setup(slow_script());
    let cfg = config(2, 8192);
    let ctx = DebateCtx::start(cfg, 7, 16, s.wiring());
    let (stop, clock) = (s.stop.clone(), s.clock.clone());
    let outcome = run_virtual_with(&s.clock, move |spawner| {
        spawner
            .spawn_local(async move {
                clock.sleep(450).await;
                stop.cancel();
            })
            .unwrap();
        async move { formats::drive(&ctx).await }
    });
    assert_eq!(outcome, Outcome::Stopped);
    let events = s.rec.events.borrow();
    let failed = events.iter().rev().find_map(|e| match &e.kind {
        EventKind::TurnFailed { partial, error, .. } => {
            Some((partial.clone(), error.clone(), e.at_ms))
        }
        _ => None,
    });
    let (partial, _, at) = failed.expect("the turn in flight is recorded as failed");
    assert!(!partial.is_empty());
    assert_eq!(
        at - 1_700_000_000_000,
        450,
        "stopped at once, not at the end of the turn"
    );
    assert!(matches!(
        events.last().unwrap().kind,
        EventKind::Finished {
            outcome: Outcome::Stopped,
            ..
        }
    ));
}

#[test]
fn resuming_a_stopped_debate_continues_where_it_stopped_with_no_event_repeated() {
    // First run: stopped part-way through.
    let s = setup(slow_script());
    let ctx = DebateCtx::start(config(1, 8192), 7, 11, s.wiring());
    let (stop, clock) = (s.stop.clone(), s.clock.clone());
    run_virtual_with(&s.clock, move |spawner| {
        spawner
            .spawn_local(async move {
                clock.sleep(2_000).await;
                stop.cancel();
            })
            .unwrap();
        async move { formats::drive(&ctx).await }
    });
    let first = s.rec.events.borrow().clone();
    let done_before: Vec<CallKey> = first
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnFinished { call, .. } => Some(call.clone()),
            _ => None,
        })
        .collect();
    assert!(
        done_before.len() >= 2 && done_before.len() < 10,
        "{}",
        done_before.len()
    );

    // Second run over the stored log, with an audience question waiting.
    let s2 = setup(slow_script());
    s2.inputs.push(Input::Question {
        text: "What about deliveries?".into(),
    });
    let ctx = DebateCtx::resume(first.clone(), s2.wiring()).unwrap();
    let outcome = run_virtual(&s2.clock, async move { formats::drive(&ctx).await });
    assert_eq!(outcome, Outcome::Completed);
    let reqs = s2.model.requests.borrow();
    assert_eq!(
        reqs.len(),
        11 - done_before.len(),
        "only unrecorded calls go live"
    );
    let second = s2.rec.events.borrow();
    for e in second.iter() {
        if let EventKind::TurnFinished { call, .. } = &e.kind {
            assert!(!done_before.contains(call), "{call} finished twice");
        }
    }
    // The question was consumed at the next call boundary and reached that prompt.
    let first_live = &reqs[0].messages[1].content;
    assert!(
        first_live.contains("What about deliveries?"),
        "{first_live}"
    );
    assert!(second
        .iter()
        .any(|e| matches!(&e.kind, EventKind::InputReceived { .. })));
}

/// A classic debate whose every call reports 1,000 tokens in and 200 out, at $3/M in and
/// $15/M out for the positions (0.006 a call) and free for the moderator.
fn priced(cap: Option<f64>) -> DebateConfig {
    let mut cfg = config(1, 8192);
    for seat in cfg.seats.iter_mut() {
        if let Participant::Model { price, .. } = &mut seat.participant {
            *price = Some(if seat.id == classic::MODERATOR {
                Price::default()
            } else {
                Price {
                    input: 3.0,
                    output: 15.0,
                }
            });
        }
    }
    cfg.spending_cap = cap;
    cfg
}

fn metered() -> Script {
    serde_json::from_value(serde_json::json!({"default": {
        "chunk_delay_ms": 20, "usage": {"input_tokens": 1000, "output_tokens": 200}
    }}))
    .unwrap()
}

#[test]
fn cost_is_counted_per_turn_and_per_seat_from_the_prices_the_debate_started_with() {
    let s = setup(metered());
    let cfg = priced(None);
    let ctx = DebateCtx::start(cfg.clone(), 7, 11, s.wiring());
    assert_eq!(
        run_virtual(&s.clock, async move { formats::drive(&ctx).await }),
        Outcome::Completed
    );
    let ledger = Spent::from_events(&cfg, &s.rec.events.borrow());
    // 4 calls each for A and B (opening, argument, rebuttal, closing); 3 free moderator calls.
    let seat = |id: &str| ledger.seats.iter().find(|(s, _)| s == id).unwrap().1;
    assert!((seat("position-a") - 0.024).abs() < 1e-9, "{ledger:?}");
    assert!((seat("position-b") - 0.024).abs() < 1e-9);
    assert_eq!(seat("moderator"), 0.0);
    assert!((ledger.total - 0.048).abs() < 1e-9);
    assert!(!ledger.estimated && ledger.unpriced.is_empty());
    assert_eq!(dollars(ledger.total), "$0.0480");

    // Without a price the cost is unknown, not zero.
    let unpriced = Spent::from_events(&config(1, 8192), &s.rec.events.borrow());
    assert_eq!(unpriced.unpriced.len(), 3);
}

#[test]
fn the_estimate_before_start_counts_the_planned_calls_and_gives_a_range() {
    let cfg = priced(None);
    let plan = formats::plan(&cfg);
    assert_eq!(plan.len() as u32, formats::planned_calls(&cfg));
    assert_eq!(plan.len(), 11);
    let e = estimate(&cfg, &plan);
    assert_eq!(e.calls, 11);
    assert!(e.low > 0.0 && e.low < e.high, "{e:?}");
    // The high end: every answer at its limit, priced at $15/M out, is at least that much.
    let max_out: u32 = plan
        .iter()
        .filter(|c| c.seat != classic::MODERATOR)
        .map(|c| c.max_tokens)
        .sum();
    assert!(e.high >= max_out as f64 * 15.0 / 1e6);
    assert!(e.unpriced.is_empty());
    // Seats without a price are named rather than counted as free.
    let e = estimate(&config(1, 8192), &plan);
    assert_eq!((e.low, e.high), (0.0, 0.0));
    assert_eq!(e.unpriced.len(), 3);
}

/// Calls that report no usage are counted as the estimate, the same one the cap reserves.
fn unmetered() -> Script {
    serde_json::from_value(serde_json::json!({"default": {"chunk_delay_ms": 20}})).unwrap()
}

/// Every call started, in order.
fn started(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnStarted { call, .. } => Some(call.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_debate_pauses_before_a_call_that_could_pass_its_cap_and_goes_on_with_that_call_when_raised() {
    // What the whole debate costs without a cap: the cap is set at half of it.
    let free = setup(unmetered());
    let ctx = DebateCtx::start(priced(None), 7, 11, free.wiring());
    run_virtual(&free.clock, async move { formats::drive(&ctx).await });
    let uncapped = free.rec.events.borrow().clone();
    let total = Spent::from_events(&priced(None), &uncapped).total;
    let cap = total / 2.0;

    let s = setup(unmetered());
    let cfg = priced(Some(cap));
    let ctx = DebateCtx::start(cfg.clone(), 7, 11, s.wiring());
    let (inputs, clock, rec) = (s.inputs.clone(), s.clock.clone(), s.rec.clone());
    let calls_at_pause = Rc::new(RefCell::new(None));
    let (model, seen) = (s.model.clone(), calls_at_pause.clone());
    let short = cap + 0.000_01;
    let outcome = run_virtual_with(&s.clock, move |spawner| {
        spawner
            .spawn_local(async move {
                let pauses = || {
                    rec.events
                        .borrow()
                        .iter()
                        .filter(|e| matches!(&e.kind, EventKind::Paused { reason, .. } if reason.contains("spending cap")))
                        .count()
                };
                while pauses() == 0 {
                    clock.sleep(100).await;
                }
                // It stays paused: no call goes out while it waits.
                let n = model.requests.borrow().len();
                clock.sleep(60_000).await;
                assert_eq!(model.requests.borrow().len(), n);
                *seen.borrow_mut() = Some(n);
                // Raised, but not enough: it pauses again, saying so.
                inputs.push(Input::SpendingCap { usd: Some(short) });
                while pauses() < 2 {
                    clock.sleep(100).await;
                }
                inputs.push(Input::SpendingCap { usd: Some(1.0) });
            })
            .unwrap();
        async move { formats::drive(&ctx).await }
    });
    assert_eq!(outcome, Outcome::Completed);
    let events = s.rec.events.borrow();
    let second = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Paused { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .nth(1)
        .expect("a cap still short pauses again");
    assert!(second.contains(&dollars(short)), "{second}");
    let raised = events
        .iter()
        .rposition(|e| {
            matches!(
                &e.kind,
                EventKind::InputReceived {
                    input: Input::SpendingCap { .. },
                    ..
                }
            )
        })
        .expect("the cap was raised");
    // Until it was raised enough, spending never passed the cap, not even by a call.
    for end in 0..=raised {
        let spent = Spent::from_events(&cfg, &events[..end]).total;
        assert!(spent <= short + NOISE, "{spent} spent of a {short} cap");
    }
    // The pause says what the next call could cost and what cap lets it start.
    let reason = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Paused { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .unwrap();
    assert!(reason.contains(&dollars(cap)), "{reason}");
    assert!(reason.contains("could cost up to $0.0"), "{reason}");
    assert!(reason.contains("to at least $0.0"), "{reason}");
    let paid_before = calls_at_pause.borrow().unwrap();
    assert!((2..11).contains(&paid_before), "{paid_before}");
    // Raised, it went on with the very call that waited: the same calls in the same order
    // as without a cap, none made twice.
    assert_eq!(started(&events), started(&uncapped));
    assert_eq!(s.model.requests.borrow().len(), 11, "every call made once");
}

#[test]
fn a_raised_cap_is_replayed_on_resume_so_the_debate_does_not_pause_again() {
    let s = setup(metered());
    let ctx = DebateCtx::start(priced(Some(0.02)), 7, 11, s.wiring());
    let (inputs, clock, stop) = (s.inputs.clone(), s.clock.clone(), s.stop.clone());
    let rec = s.rec.clone();
    run_virtual_with(&s.clock, move |spawner| {
        spawner
            .spawn_local(async move {
                loop {
                    clock.sleep(100).await;
                    if rec
                        .events
                        .borrow()
                        .iter()
                        .any(|e| matches!(e.kind, EventKind::Paused { .. }))
                    {
                        inputs.push(Input::SpendingCap { usd: Some(0.05) });
                        clock.sleep(50).await;
                        stop.cancel();
                        break;
                    }
                }
            })
            .unwrap();
        async move { formats::drive(&ctx).await }
    });
    let first = s.rec.events.borrow().clone();
    let s2 = setup(metered());
    let ctx = DebateCtx::resume(first, s2.wiring()).unwrap();
    assert_eq!(
        run_virtual(&s2.clock, async move { formats::drive(&ctx).await }),
        Outcome::Completed
    );
    let second = s2.rec.events.borrow();
    assert!(
        !second
            .iter()
            .skip_while(|e| !matches!(e.kind, EventKind::Resumed))
            .skip(1)
            .any(|e| matches!(&e.kind, EventKind::Paused { .. })),
        "the raised cap ($0.05) covers the rest ($0.048 in all)"
    );
}

#[test]
fn exports_carry_the_whole_debate_and_its_cost() {
    let s = setup(metered());
    let cfg = priced(None);
    let ctx = DebateCtx::start(cfg, 7, 11, s.wiring());
    run_virtual(&s.clock, async move { formats::drive(&ctx).await });
    let events = s.rec.events.borrow().clone();

    // JSON: the event log as recorded (it reads back equal) and the cost.
    let json: serde_json::Value = serde_json::from_str(&export::to_json(&events)).unwrap();
    let back: Vec<Event> = serde_json::from_value(json["events"].clone()).unwrap();
    assert_eq!(back, events);
    assert!((json["cost"]["total"].as_f64().unwrap() - 0.048).abs() < 1e-9);
    assert!((json["cost"]["by_seat"]["Position A"].as_f64().unwrap() - 0.024).abs() < 1e-9);
    assert_eq!(json["cost"]["estimated"], false);

    // Markdown: every turn under its phase, with its usage and cost, and a cost table.
    let md = export::to_markdown(&events);
    assert!(md.starts_with("# Should cities ban cars from their centres?\n"));
    for heading in [
        "## Opening statements",
        "## Round 1",
        "## Closing statements",
        "### Moderator — Opening remarks",
        "### Position B — Rebuttal",
        "### Position A — Closing statement",
    ] {
        assert!(md.contains(heading), "{heading} missing from:\n{md}");
    }
    assert_eq!(md.matches("### ").count(), 11);
    assert_eq!(md.matches("*1000 tokens in, 200 out · $0.0060*").count(), 8);
    assert!(md.contains("| Position A | $0.0240 |"));
    assert!(md.contains("| **Total** | **$0.0480** |"));
    assert_eq!(
        export::file_name(&events, "md"),
        "should-cities-ban-cars-from-their-centres.md"
    );
}

#[test]
fn money_is_written_the_way_people_read_it() {
    assert_eq!(dollars(0.0), "$0.00");
    assert_eq!(
        dollars(0.00004),
        "< $0.0001",
        "a tiny cost is not shown as nothing"
    );
    assert_eq!(dollars(0.01234), "$0.0123");
    assert_eq!(dollars(0.99996), "$1.00");
    assert_eq!(dollars(12.345), "$12.35");
    assert_eq!(agora::engine::cost::short(2.5), "2.5");
    assert_eq!(agora::engine::cost::short(10.0), "10");
    assert_eq!(agora::engine::cost::short(0.15), "0.15");
}

/// Shown amounts round a half up at their last place, as people do, whatever the binary
/// value: the scorecard's 6.05 is 6.1, a share of 0.15 is 0.2.
#[test]
fn shown_amounts_round_a_half_up() {
    use agora::engine::cost::decimal;
    assert_eq!(decimal(6.05, 1), "6.1");
    assert_eq!(decimal(0.15, 1), "0.2");
    assert_eq!(decimal(12.5, 0), "13");
    assert_eq!(decimal(0.125, 2), "0.13");
    assert_eq!(decimal(2.675, 2), "2.68");
    assert_eq!(decimal(-1.0, 2), "0.00");
    // Every weighted total of integer scores shows as the integer rounding of its tenths.
    for a in 0..=10u32 {
        for b in 0..=10u32 {
            let total = (a as f64 * 250.0 + b as f64 * 150.0) / 400.0;
            let tenths = (total * 10.0).round() as u64;
            assert_eq!(
                decimal(total, 1),
                format!("{}.{}", tenths / 10, tenths % 10)
            );
        }
    }
}

#[test]
fn amounts_people_type_parse_and_anything_else_is_refused() {
    use agora::engine::cost::parse_decimal;
    assert_eq!(parse_decimal("0.5"), Some(0.5));
    assert_eq!(parse_decimal(" 12 "), Some(12.0));
    assert_eq!(parse_decimal("2.50"), Some(2.5));
    assert_eq!(parse_decimal(".25"), Some(0.25));
    assert_eq!(parse_decimal("3."), Some(3.0));
    for bad in [
        "",
        ".",
        "-1",
        "1e3",
        "1.2.3",
        "abc",
        "1,5",
        "99999999999999999999",
    ] {
        assert_eq!(parse_decimal(bad), None, "{bad}");
    }
}

#[test]
fn scoring_and_fact_checks_follow_the_configuration_and_never_invent_a_number() {
    use agora::engine::finding::{FindingBody, Verdict};
    let script: Script = serde_json::from_value(serde_json::json!({
        "answers": common::score_and_check_answers()
    }))
    .unwrap();
    let s = setup(script);
    let mut cfg = config(1, 8192);
    if let agora::engine::config::FormatOptions::Classic(o) = &mut cfg.options {
        o.style = ClassicStyle::Competitive;
        o.fact_checker = true;
        o.scoring = true;
    }
    assert!(
        cfg.seat(classic::FACT_CHECKER).is_none(),
        "added by new_config only"
    );
    let cfg = {
        let o = cfg.classic().unwrap().clone();
        classic::new_config(&cfg.topic, "Yes", "No", o, local)
    };
    let planned = formats::planned_calls(&cfg);
    let ctx = DebateCtx::start(cfg, 7, planned, s.wiring());
    let outcome = run_virtual(&s.clock, async move { formats::drive(&ctx).await });
    assert_eq!(outcome, Outcome::Completed);
    let events = s.rec.events.borrow().clone();
    let findings: Vec<_> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FindingRecorded(f) => Some(f.clone()),
            _ => None,
        })
        .collect();
    // Every position turn was checked: 2 openings, 4 round turns, 2 closings.
    let checks: Vec<_> = findings
        .iter()
        .filter(|f| matches!(&f.body, FindingBody::FactCheck { claims } if claims[0].verdict == Verdict::Supported))
        .collect();
    assert_eq!(checks.len(), 8);
    assert!(checks
        .iter()
        .all(|f| f.about.is_some() && f.seat.starts_with("position-")));
    // Competitive weights: .20 .20 .25 .25 .10 → 1.6 + 1.2 + 1.75 + 2.25 + 1.0 = 7.8.
    let a = findings
        .iter()
        .find(|f| f.key == "score/position-a")
        .unwrap();
    match &a.body {
        FindingBody::Score {
            total,
            criteria,
            rubric,
        } => {
            assert!((total - 7.8).abs() < 1e-9, "{total}");
            assert_eq!(rubric, "competitive");
            assert_eq!(criteria[3].weight, 0.25);
        }
        other => panic!("{other:?}"),
    }
    let b = findings
        .iter()
        .find(|f| f.key == "score/position-b")
        .unwrap();
    match &b.body {
        // No number for an unreadable score, and the reason says what was wrong.
        FindingBody::Unscored { what, reason } => {
            assert_eq!(what, "Position B's performance");
            assert_eq!(
                reason,
                "the answer could not be read, even after a repair: \
                 the answer contained no valid JSON object"
            );
        }
        other => panic!("{other:?}"),
    }
    // The configuration's rules reach the debaters' prompts.
    let asked = s.model.requests.borrow();
    let opening = asked
        .iter()
        .find(|r| r.call == "opening/position-a")
        .unwrap();
    assert!(opening.messages[0].content.contains("Competitive rules"));
    assert!(
        asked
            .iter()
            .all(|r| r.messages.iter().all(|m| !m.content.contains("{{"))),
        "every prompt variable is filled in"
    );
    // Exactly the planned calls, plus the one repair of B's unreadable score.
    assert_eq!(asked.len() as u32, planned + 1);
}

/// A formal one-round debate with the fact checker, on `answers`, run to its end: its
/// events and what the model was asked.
fn moderated(
    answers: serde_json::Value,
) -> (Vec<Event>, Vec<agora::engine::model::ChatRequest>, u32) {
    let script: Script = serde_json::from_value(serde_json::json!({ "answers": answers })).unwrap();
    let s = setup(script);
    let options = ClassicOptions {
        rounds: 1,
        style: ClassicStyle::Formal,
        fact_checker: true,
        ..Default::default()
    };
    let cfg = classic::new_config(
        "Should cities ban cars from their centres?",
        "Yes, ban them",
        "No, keep access",
        options,
        local,
    );
    let planned = formats::planned_calls(&cfg);
    let ctx = DebateCtx::start(cfg, 7, planned, s.wiring());
    let outcome = run_virtual(&s.clock, async move { formats::drive(&ctx).await });
    assert_eq!(outcome, Outcome::Completed);
    let events = s.rec.events.borrow().clone();
    let asked = s.model.requests.borrow().clone();
    (events, asked, planned)
}

fn notes(events: &[Event]) -> Vec<(String, String, agora::engine::finding::FindingBody)> {
    use agora::engine::finding::FindingBody;
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FindingRecorded(f)
                if matches!(f.body, FindingBody::ModeratorNote { .. }) =>
            {
                Some((f.key.clone(), f.seat.clone(), f.body.clone()))
            }
            _ => None,
        })
        .collect()
}

fn prompt_of<'r>(asked: &'r [agora::engine::model::ChatRequest], call: &str) -> &'r str {
    &asked
        .iter()
        .find(|r| r.call == call)
        .unwrap_or_else(|| panic!("no call {call}"))
        .messages
        .last()
        .unwrap()
        .content
}

/// A scoring prompt's part about the side it scores, before the other side's turns.
fn own_part(prompt: &str) -> &str {
    prompt.split("What the other side said").next().unwrap()
}

const NO_CLAIMS: &str = r#"{"claims": []}"#;

#[test]
fn a_turn_over_its_length_gets_a_moderators_note_before_the_next_turn_and_in_the_scores() {
    use agora::engine::finding::{Breach, FindingBody};
    // An argument of 250 tokens may run to 163 words, a fifth more in a formal debate.
    let long = "Traffic in the centre falls when cars are banned. ".repeat(25); // 225 words
    let (events, asked, planned) = moderated(serde_json::json!([
        {"seat": "fact-checker", "text": NO_CLAIMS},
        {"path": "round/1/argument/position-a", "text": long},
    ]));
    let n = notes(&events);
    assert_eq!(n.len(), 1, "{n:?}");
    let (key, seat, body) = &n[0];
    assert_eq!(key, "round/1/argument/position-a/length");
    assert_eq!(seat, "position-a");
    let FindingBody::ModeratorNote { breach, note, .. } = body else {
        unreachable!()
    };
    assert_eq!(*breach, Breach::Length);
    assert_eq!(
        note,
        "Position A spoke 225 words against a limit of 163; keep to the limit, please."
    );
    // No model was asked for it: the length is certain.
    assert_eq!(asked.len() as u32, planned);
    // The rebuttal that follows hears it, and A's score counts it.
    assert!(prompt_of(&asked, "round/1/rebuttal/position-b")
        .contains("spoke 225 words against a limit of 163"));
    assert!(prompt_of(&asked, "score/position-a")
        .contains("[The moderator noted 1 turn over the length limit]"));
    assert!(!own_part(prompt_of(&asked, "score/position-b")).contains("over the length limit"));
}

#[test]
fn a_personal_remark_is_put_to_the_moderator_who_rules_on_it_in_the_flow() {
    use agora::engine::finding::{Breach, FindingBody};
    let remark = "My opponent is naive about traffic: a ban frees streets for buses and bikes.";
    let ruling = r#"{"breach": true, "kind": "rule", "rule": "no personal remarks", "note": "Position A, argue against the case, not the person: no personal remarks."}"#;
    let (events, asked, planned) = moderated(serde_json::json!([
        {"seat": "fact-checker", "text": NO_CLAIMS},
        {"path": "round/1/argument/position-a/ruling", "text": ruling},
        {"path": "round/1/argument/position-a", "text": remark},
    ]));
    // One call beyond the plan: the ruling, which saw the turn, the rules and the hint.
    assert_eq!(asked.len() as u32, planned + 1);
    let asked_ruling = prompt_of(&asked, "round/1/argument/position-a/ruling");
    assert!(asked_ruling.contains(remark));
    assert!(asked_ruling.contains("Formal rules"));
    assert!(asked_ruling.contains("make a personal remark about the opponent"));
    let n = notes(&events);
    assert_eq!(n.len(), 1, "{n:?}");
    assert_eq!(n[0].0, "round/1/argument/position-a/ruling");
    assert_eq!(
        n[0].2,
        FindingBody::ModeratorNote {
            breach: Breach::Rule,
            rule: "no personal remarks".into(),
            note: "Position A, argue against the case, not the person: no personal remarks.".into()
        }
    );
    // Said before the next turn, and weighed in A's score.
    assert!(prompt_of(&asked, "round/1/rebuttal/position-b").contains("not the person"));
    assert!(prompt_of(&asked, "score/position-a")
        .contains("[Moderator's note] Position A, argue against"));
    assert!(!own_part(prompt_of(&asked, "score/position-b")).contains("not the person"));
}

#[test]
fn a_hint_the_moderator_finds_no_breach_leaves_no_note() {
    let question = "Do you really think drivers will vanish? They will not.";
    let (events, asked, planned) = moderated(serde_json::json!([
        {"seat": "fact-checker", "text": NO_CLAIMS},
        {"path": "round/1/rebuttal/position-b/ruling", "text": r#"{"breach": false, "kind": "rule", "rule": "", "note": ""}"#},
        {"path": "round/1/rebuttal/position-b", "text": question},
    ]));
    assert_eq!(
        asked.len() as u32,
        planned + 1,
        "the question was put to the moderator"
    );
    assert!(notes(&events).is_empty());
    assert!(!prompt_of(&asked, "round/1/argument/position-b").contains("Moderator's note"));
}

#[test]
fn an_off_topic_turn_is_ruled_off_topic() {
    use agora::engine::finding::{Breach, FindingBody};
    let football = "The league's new offside technology has changed how midfielders press, \
                    and goalkeepers now distribute faster from their penalty area, which \
                    rewards clubs with patient academies and punishes expensive transfers.";
    let ruling = r#"{"breach": true, "kind": "off_topic", "rule": "stay on the question", "note": "Position B, football is not the question: back to cars in city centres."}"#;
    let (events, asked, _) = moderated(serde_json::json!([
        {"seat": "fact-checker", "text": NO_CLAIMS},
        {"path": "round/1/argument/position-b/ruling", "text": ruling},
        {"path": "round/1/argument/position-b", "text": football},
    ]));
    assert!(prompt_of(&asked, "round/1/argument/position-b/ruling")
        .contains("leave the question being debated"));
    let n = notes(&events);
    assert_eq!(n.len(), 1, "{n:?}");
    assert_eq!(n[0].1, "position-b");
    assert!(matches!(
        &n[0].2,
        FindingBody::ModeratorNote {
            breach: Breach::OffTopic,
            ..
        }
    ));
    assert!(
        prompt_of(&asked, "round/1/rebuttal/position-a").contains("football is not the question")
    );
}

#[test]
fn a_disputed_claim_has_the_fact_checker_step_in_before_the_next_turn() {
    let disputed = r#"{"claims": [{"claim": "Pontevedra cut road deaths to zero", "verdict": "disputed", "reason": "Deaths fell sharply; zero holds for some years only."}]}"#;
    let (_, asked, planned) = moderated(serde_json::json!([
        {"path": "opening/position-a/fact-check", "text": disputed},
        {"seat": "fact-checker", "text": r#"{"claims": [{"claim": "Buses run every ten minutes", "verdict": "supported", "reason": "Timetable."}]}"#},
    ]));
    assert_eq!(asked.len() as u32, planned);
    // B's opening, the next turn, hears the correction; so does A's own next turn.
    let b = prompt_of(&asked, "opening/position-b");
    assert!(b.contains("Fact checker steps in"), "{b}");
    assert!(b.contains("\"Pontevedra cut road deaths to zero\" is disputed: Deaths fell sharply"));
    assert!(prompt_of(&asked, "round/1/argument/position-a")
        .contains("Pontevedra cut road deaths to zero"));
    // A supported claim is not stepped in on.
    assert!(!prompt_of(&asked, "round/1/argument/position-a")
        .contains("Buses run every ten minutes\" is"));
    // A's score weighs the correction; B's counts it as the other side's.
    assert!(prompt_of(&asked, "score/position-a").contains("[Fact checker steps in]"));
    let b_score = prompt_of(&asked, "score/position-b");
    assert!(!own_part(b_score).contains("Pontevedra cut road deaths"));
    assert!(b_score.contains("Pontevedra cut road deaths"));
}

#[test]
fn a_resumed_debate_replays_its_rulings_and_notes_without_asking_again() {
    let remark = "My opponent is naive about traffic: a ban frees streets for buses and bikes.";
    let ruling = r#"{"breach": true, "kind": "rule", "rule": "no personal remarks", "note": "No personal remarks, please."}"#;
    let answers = serde_json::json!([
        {"seat": "fact-checker", "text": NO_CLAIMS},
        {"path": "round/1/argument/position-a/ruling", "text": ruling},
        {"path": "round/1/argument/position-a", "text": remark},
    ]);
    let (events, _, _) = moderated(answers.clone());
    // From every prefix of the log, the rest of the debate is the same and nothing repeats.
    for cut in (0..events.len()).step_by(7) {
        let script: Script =
            serde_json::from_value(serde_json::json!({ "answers": answers })).unwrap();
        let s = setup(script);
        let prefix: Vec<Event> = events[..cut].to_vec();
        let Ok(ctx) = DebateCtx::resume(prefix, s.wiring()) else {
            continue;
        };
        assert_eq!(
            run_virtual(&s.clock, async move { formats::drive(&ctx).await }),
            Outcome::Completed
        );
        let after = s.rec.events.borrow().clone();
        let all: Vec<Event> = events[..cut]
            .iter()
            .cloned()
            .chain(after.iter().cloned())
            .collect();
        assert_eq!(notes(&all).len(), 1, "cut at {cut}");
        let asked_again = s
            .model
            .requests
            .borrow()
            .iter()
            .filter(|r| r.call.ends_with("/ruling"))
            .count();
        let ruled_before = events[..cut].iter().any(|e| matches!(&e.kind, EventKind::TurnFinished { call, .. } if call.to_string().ends_with("/ruling")));
        assert_eq!(asked_again, usize::from(!ruled_before), "cut at {cut}");
    }
}

#[test]
fn a_competitive_debate_scores_each_round_on_that_round_alone() {
    use agora::engine::finding::FindingBody;
    let script: Script = serde_json::from_value(serde_json::json!({"answers": [
        {"path": "round/1/argument/position-a", "text": "ROUND-ONE-CASE: Stockholm's charge cut traffic."},
        {"path": "round/2/argument/position-a", "text": "ROUND-TWO-CASE: Ghent's plan lifted trade."},
    ]}))
    .unwrap();
    let s = setup(script);
    let mut cfg = config(2, 8192);
    if let agora::engine::config::FormatOptions::Classic(o) = &mut cfg.options {
        o.style = ClassicStyle::Competitive;
    }
    let planned = formats::planned_calls(&cfg);
    let ctx = DebateCtx::start(cfg, 7, planned, s.wiring());
    assert_eq!(
        run_virtual(&s.clock, async move { formats::drive(&ctx).await }),
        Outcome::Completed
    );
    let asked = s.model.requests.borrow();
    let round_two = prompt_of(&asked, "round/2/score/position-a");
    assert!(round_two.contains("round 2 of a debate still going on"));
    assert!(round_two.contains("ROUND-TWO-CASE") && !round_two.contains("ROUND-ONE-CASE"));
    let last = prompt_of(&asked, "score/position-a");
    assert!(last.contains("a finished debate") && last.contains("ROUND-ONE-CASE"));
    // Each round's scores are findings of their own, weighted for a competitive debate.
    let events = s.rec.events.borrow();
    let scored: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FindingRecorded(f) if matches!(&f.body, FindingBody::Score { rubric, .. } if rubric == "competitive") => Some(f.key.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        scored,
        [
            "round/1/score/position-a",
            "round/1/score/position-b",
            "round/2/score/position-a",
            "round/2/score/position-b",
            "score/position-a",
            "score/position-b"
        ]
    );
}

#[test]
fn a_person_moderating_is_not_asked_to_type_rulings_but_length_notes_stand() {
    use agora::engine::finding::{Breach, FindingBody};
    let remark = "My opponent is naive about traffic: a ban frees streets for buses and bikes.";
    let long = "Traffic in the centre falls when cars are banned. ".repeat(25);
    let script: Script = serde_json::from_value(serde_json::json!({"answers": [
        {"path": "round/1/argument/position-a", "text": remark},
        {"path": "round/1/argument/position-b", "text": long},
    ]}))
    .unwrap();
    let s = setup(script);
    let mut cfg = config(1, 8192);
    cfg.seats
        .iter_mut()
        .find(|seat| seat.id == classic::MODERATOR)
        .unwrap()
        .participant = Participant::Human;
    for call in ["opening/moderator", "round/1/explanation", "summary"] {
        s.inputs.push(Input::HumanTurn {
            call: CallKey::new(call, 0),
            text: "The moderator speaks.".into(),
        });
    }
    let planned = formats::planned_calls(&cfg);
    let ctx = DebateCtx::start(cfg, 7, planned, s.wiring());
    assert_eq!(
        run_virtual(&s.clock, async move { formats::drive(&ctx).await }),
        Outcome::Completed
    );
    let asked = s.model.requests.borrow();
    assert!(!asked.iter().any(|r| r.call.ends_with("/ruling")));
    let events = s.rec.events.borrow();
    let n = notes(&events);
    assert_eq!(n.len(), 1, "{n:?}");
    assert_eq!(n[0].0, "round/1/argument/position-b/length");
    assert!(matches!(
        &n[0].2,
        FindingBody::ModeratorNote {
            breach: Breach::Length,
            ..
        }
    ));
}
