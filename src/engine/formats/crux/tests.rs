//! Crux on the scripted model under the virtual clock: a whole debate, then each rule seed
//! 004 fixes (the three gates, the exit-check cadence, the 14-turn cap, the bounded exchange
//! prompt, card extraction and the not-extracted case, shift detection, the clean-up).

use serde_json::{json, Value};

use super::*;
use crate::engine::context::Inputs;
use crate::engine::event::{EventKind, Outcome};
use crate::engine::finding::DisagreementKind;
use crate::engine::script::Script;

use super::super::testing::scripted::{model, resume_scripted};

fn contract(id: &str) -> PersonaContract {
    persona::catalogue()
        .into_iter()
        .find(|c| c.id == id)
        .unwrap()
}

fn config(aspects: u32, max_exchanges: u32) -> DebateConfig {
    new_config(
        "Should cities ban cars?",
        vec![
            (contract("actuary"), model("a")),
            (contract("founder"), model("b")),
        ],
        model("judge"),
        CruxOptions {
            aspects,
            max_exchanges,
            ..Default::default()
        },
    )
}

fn gates(opposition: bool, specific: bool, relevant: bool) -> String {
    json!({"has_direct_opposition": opposition, "has_specific_claim": specific,
        "topic_relevant": relevant, "personas": ["persona-1", "The Founder"],
        "claim": "Congestion pricing pays for itself.",
        "question": "Does congestion pricing pay for itself?"})
    .to_string()
}

fn card(kind: &str) -> String {
    json!({"crux": "Whether induced demand returns within five years.", "kind": kind,
        "sides": [
            {"persona": "persona-1", "position": "It returns.", "reasoning": "Base rates of road projects.", "would_change_mind": "Ten cities where it did not."},
            {"persona": "persona-2", "position": "It does not.", "reasoning": "Pricing changes behaviour.", "would_change_mind": "Traffic back within two years."}
        ],
        "diagnosis": "They read the same traffic data over different horizons.",
        "resolved": false, "resolution": ""})
    .to_string()
}

const LONG: &str = "This turn is deliberately long so that a prompt quoting it whole would grow with every exchange turn. ";

/// A debate's script; `extra` answers come first, so they win.
fn script(extra: Vec<Value>) -> Script {
    let mut answers = extra;
    let long = LONG.repeat(20);
    answers.extend([
        json!({"path": "aspects", "text": json!({"aspects": [
            {"label": "Cost", "question": "Will a ban pay for itself?"},
            {"label": "Fairness", "question": "Who pays for a ban?"}]}).to_string()}),
        json!({"path": "opening/persona-1", "text": "Great question! Absolutely, cars are a tail risk nobody prices."}),
        json!({"path": "opening/persona-2", "text": "Ban them and ship the alternative fast."}),
        json!({"path": "aspect/1/round/1/persona-2", "text": "The Actuary is wrong: pricing changes behaviour."}),
        json!({"path": "aspect/1/summary", "text": json!({"summary": "They split on cost.", "contested": ["induced demand"]}).to_string()}),
        json!({"path": "aspect/1/disagreement", "text": gates(true, true, true)}),
        json!({"path": "aspect/2/summary", "text": json!({"summary": "Fairness.", "contested": []}).to_string()}),
        json!({"path": "aspect/2/disagreement", "text": gates(false, true, true)}),
        json!({"path": "room/1/position/persona-1", "text": "POSITION-ONE: induced demand returns."}),
        json!({"path": "room/1/position/persona-2", "text": "POSITION-TWO: pricing holds traffic down."}),
        json!({"path": "room/1/turn/", "text": long}),
        json!({"path": "room/1/exit/", "text": json!({"crux_surfaced": false, "crux": "", "reason": "still circling"}).to_string()}),
        json!({"path": "room/1/convergence", "text": json!({"converged": false, "crux_identified": true, "crux": "induced demand", "summary": "Pinned down."}).to_string()}),
        json!({"path": "room/1/card", "text": card("factual")}),
        json!({"path": "closing/persona-1", "text": "I moved toward The Founder on pricing."}),
        json!({"path": "closing/persona-2", "text": "I still hold my view."}),
        json!({"path": "shifts", "text": json!({"shifts": [
            {"persona": "persona-1", "shifted": true, "from": "Cars are a tail risk.", "to": "Pricing may work.", "where": "The Founder's pricing data"},
            {"persona": "The Founder", "shifted": false, "from": "Ban them.", "to": "Ban them.", "where": ""}]}).to_string()}),
        json!({"path": "summary", "text": json!({
            "claims": [{"persona": "The Actuary", "claim": "Induced demand returns."}],
            "agreements": ["Congestion is costly."],
            "evidence": [], "flip_conditions": [{"persona": "The Founder", "condition": "Traffic back within two years."}],
            "open_questions": ["How long is the long run?"]}).to_string()}),
    ]);
    serde_json::from_value(json!({"answers": answers, "default": {"text": "A plain answer."}}))
        .unwrap()
}

use super::super::testing::scripted::{run_scripted, Scripted as Run};

impl Run {
    fn user_prompt(&self, call: &str) -> String {
        let r = self
            .requests
            .iter()
            .find(|r| r.call == call)
            .unwrap_or_else(|| panic!("no call {call}"));
        r.messages.last().unwrap().content.clone()
    }
    fn findings(&self) -> Vec<(String, FindingBody)> {
        self.events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::FindingRecorded(f) => Some((f.key.clone(), f.body.clone())),
                _ => None,
            })
            .collect()
    }
    fn finding(&self, key: &str) -> Option<FindingBody> {
        self.findings()
            .into_iter()
            .find(|(k, _)| k == key)
            .map(|(_, b)| b)
    }
    fn room_calls(&self) -> Vec<String> {
        self.calls()
            .into_iter()
            .filter(|c| c.starts_with("room/"))
            .collect()
    }
}

fn run_debate(config: DebateConfig, script: Script) -> Run {
    run_scripted(config, script, Inputs::new())
}

fn turns(n: u32) -> Vec<String> {
    (0..n).map(|t| format!("room/1/turn/{t}")).collect()
}

#[test]
fn a_whole_debate_runs_every_phase_in_the_seeds_order() {
    let run = run_debate(config(2, 14), script(vec![]));
    assert_eq!(run.outcome, Outcome::Completed);
    let mut expected: Vec<String> = vec![
        "aspects",
        "opening/persona-1",
        "opening/persona-2",
        "aspect/1/round/0/persona-1",
        "aspect/1/round/0/persona-2",
        "aspect/1/round/1/persona-1",
        "aspect/1/round/1/persona-2",
        "aspect/1/round/2/persona-1",
        "aspect/1/round/2/persona-2",
        "aspect/1/summary",
        "aspect/1/disagreement",
        "room/1/position/persona-1",
        "room/1/position/persona-2",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    for t in 0..14 {
        expected.push(format!("room/1/turn/{t}"));
        if exit_check_after(t) {
            expected.push(format!("room/1/exit/{t}"));
        }
    }
    expected.extend(
        [
            "room/1/convergence",
            "room/1/card",
            "aspect/2/round/0/persona-1",
            "aspect/2/round/0/persona-2",
            "aspect/2/round/1/persona-1",
            "aspect/2/round/1/persona-2",
            "aspect/2/round/2/persona-1",
            "aspect/2/round/2/persona-2",
            "aspect/2/summary",
            "aspect/2/disagreement",
            "closing/persona-1",
            "closing/persona-2",
            "shifts",
            "summary",
        ]
        .map(String::from),
    );
    assert_eq!(run.calls(), expected);
    // The plan expects as many calls (one room per aspect at its longest) or more.
    assert!(super::super::plan(&config(2, 14)).len() >= run.calls().len());

    // Aspects are sections, each with its three minirounds; the room has its own.
    let phases: Vec<String> = run
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::PhaseStarted { title, .. } => Some(title.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        &phases[..7],
        [
            "Aspects",
            "Openings",
            "Aspect 1: Cost",
            "Aspect 1, miniround 1: initial takes",
            "Aspect 1, miniround 2: reactions",
            "Aspect 1, miniround 3: replies",
            "Crux room: Does congestion pricing pay for itself?",
        ]
    );

    // Temperature tiers and the seed's token limits.
    let req = |c: &str| run.requests.iter().find(|r| r.call == c).unwrap().clone();
    assert_eq!(req("opening/persona-1").temperature, Some(0.85));
    assert_eq!(req("room/1/turn/0").temperature, Some(0.75));
    assert_eq!(req("aspect/1/disagreement").temperature, Some(0.2));
    assert_eq!(req("room/1/card").temperature, Some(0.3));
    assert_eq!(req("room/1/card").max_tokens, CARD_TOKENS);
    assert_eq!(req("summary").max_tokens, 1500);

    // Every persona call is system-prompted from its contract; rooms add the overlay.
    let system = |c: &str| req(c).messages[0].content.clone();
    assert!(system("opening/persona-1").contains("You are The Actuary"));
    assert!(!system("opening/persona-1").contains("Crux room"));
    assert!(system("room/1/turn/0").starts_with(&system("opening/persona-1")));
    assert!(system("room/1/turn/0").contains("Crux room"));
    assert!(system("room/1/turn/1").contains("You are The Founder"));

    // The banned opener is gone from what later prompts quote.
    let take = run.user_prompt("aspect/1/round/0/persona-2");
    assert!(
        take.contains("The Actuary: Cars are a tail risk nobody prices."),
        "{take}"
    );
    assert!(!take.contains("Great question"));

    // The Founder answered The Actuary by name, so the Actuary fires back at it.
    let reply = run.user_prompt("aspect/1/round/2/persona-1");
    assert!(reply.contains("The Founder replied"), "{reply}");
    assert!(run
        .user_prompt("aspect/1/round/2/persona-2")
        .contains("Others just said"));

    // Findings.
    assert!(matches!(run.finding("aspects"), Some(FindingBody::Aspects(a)) if a.len() == 2));
    assert!(
        matches!(run.finding("aspect/1/summary"), Some(FindingBody::Summary { text, .. }) if text.contains("induced demand"))
    );
    assert!(
        matches!(run.finding("aspect/1/disagreement"), Some(FindingBody::Disagreement(d)) if d.opened && d.seats == ["persona-1", "persona-2"])
    );
    assert!(
        matches!(run.finding("aspect/2/disagreement"), Some(FindingBody::Disagreement(d)) if !d.opened)
    );
    let Some(FindingBody::CruxCard(c)) = run.finding("room/1/card") else {
        panic!("no card: {:?}", run.findings());
    };
    assert_eq!(c.room, "room/1");
    assert_eq!(c.question, "Does congestion pricing pay for itself?");
    assert_eq!(c.kind, DisagreementKind::Factual);
    assert_eq!(
        c.sides[1].would_change_mind,
        "Traffic back within two years."
    );
    assert!(matches!(
        run.finding("room/1/convergence"),
        Some(FindingBody::RoomCheck { done: true, .. })
    ));
    // The card links back to the exchange's last turn.
    let about = run.events.iter().find_map(|e| match &e.kind {
        EventKind::FindingRecorded(f) if f.key == "room/1/card" => f.about.clone(),
        _ => None,
    });
    assert_eq!(about.unwrap().path, "room/1/turn/13");
    // Closings see the card; the final summary keeps to what was said.
    assert!(run
        .user_prompt("closing/persona-1")
        .contains("Whether induced demand returns"));
    assert!(
        matches!(run.finding("summary"), Some(FindingBody::Summary { text, .. })
        if text.contains("**The Actuary**: Induced demand returns.") && text.contains("Open questions"))
    );
}

#[test]
fn each_false_gate_keeps_the_room_closed() {
    for (o, s, r) in [
        (false, true, true),
        (true, false, true),
        (true, true, false),
    ] {
        let run = run_debate(
            config(1, 14),
            script(vec![
                json!({"path": "aspect/1/disagreement", "text": gates(o, s, r)}),
            ]),
        );
        assert_eq!(run.outcome, Outcome::Completed);
        assert!(
            run.room_calls().is_empty(),
            "{o} {s} {r}: {:?}",
            run.room_calls()
        );
        assert!(matches!(run.finding("aspect/1/disagreement"),
            Some(FindingBody::Disagreement(d)) if !d.opened
                && (d.direct_opposition, d.specific_claim, d.topic_relevant) == (o, s, r)));
        assert!(!run.findings().iter().any(|(_, b)| matches!(
            b,
            FindingBody::CruxCard(_) | FindingBody::CruxNotExtracted { .. }
        )));
    }
    // All three true: the room opens.
    let run = run_debate(config(1, 14), script(vec![]));
    assert!(!run.room_calls().is_empty());
    // A detection that cannot be read (even after its repair) opens nothing either.
    let run = run_debate(
        config(1, 14),
        script(vec![
            json!({"path": "aspect/1/disagreement", "text": "They disagree a lot!"}),
        ]),
    );
    assert!(run
        .calls()
        .contains(&"aspect/1/disagreement/repair".to_string()));
    assert!(run.room_calls().is_empty());
    assert!(matches!(
        run.finding("aspect/1/disagreement"),
        Some(FindingBody::Unscored { .. })
    ));
}

#[test]
fn exit_checks_run_after_turns_3_5_7_9_11_13_and_a_surfaced_crux_ends_the_exchange() {
    let checks: Vec<u32> = (0..20).filter(|&t| exit_check_after(t)).collect();
    assert_eq!(&checks[..6], [3, 5, 7, 9, 11, 13]);
    let surfaced =
        json!({"crux_surfaced": true, "crux": "induced demand", "reason": "named"}).to_string();
    let run = run_debate(
        config(1, 14),
        script(vec![json!({"path": "room/1/exit/5", "text": surfaced})]),
    );
    let mut expected: Vec<String> = vec![
        "room/1/position/persona-1".into(),
        "room/1/position/persona-2".into(),
    ];
    for t in 0..=5 {
        expected.push(format!("room/1/turn/{t}"));
        if t == 3 || t == 5 {
            expected.push(format!("room/1/exit/{t}"));
        }
    }
    expected.extend(["room/1/convergence".to_string(), "room/1/card".to_string()]);
    assert_eq!(run.room_calls(), expected);
    assert!(matches!(
        run.finding("room/1/exit/5"),
        Some(FindingBody::RoomCheck { done: true, .. })
    ));
    assert!(matches!(
        run.finding("room/1/exit/3"),
        Some(FindingBody::RoomCheck { done: false, .. })
    ));
}

#[test]
fn the_exchange_stops_at_14_turns_and_more_is_refused() {
    let run = run_debate(config(1, 14), script(vec![]));
    let room_turns: Vec<String> = run
        .room_calls()
        .into_iter()
        .filter(|c| c.contains("/turn/"))
        .collect();
    assert_eq!(room_turns, turns(14));
    // Turns alternate, the first side first.
    let seat = |t: u32| {
        run.requests
            .iter()
            .find(|r| r.call == format!("room/1/turn/{t}"))
            .unwrap()
            .seat
            .clone()
    };
    assert_eq!(
        (seat(0).as_str(), seat(1).as_str(), seat(13).as_str()),
        ("persona-1", "persona-2", "persona-2")
    );
    let mut c = config(1, 14);
    if let FormatOptions::Crux(o) = &mut c.options {
        o.max_exchanges = 15;
    }
    assert!(c.validate().unwrap_err().contains("14"));
    // A shorter cap is kept too.
    let run = run_debate(config(1, 6), script(vec![]));
    assert_eq!(
        run.room_calls()
            .into_iter()
            .filter(|c| c.contains("/turn/"))
            .count(),
        6
    );
}

#[test]
fn the_exchange_prompt_is_bounded_and_always_holds_the_position_summary() {
    let run = run_debate(config(1, 14), script(vec![]));
    let sizes: Vec<usize> = (0..14)
        .map(|t| run.user_prompt(&format!("room/1/turn/{t}")).len())
        .collect();
    for t in 0..14 {
        let prompt = run.user_prompt(&format!("room/1/turn/{t}"));
        assert!(
            prompt.contains("POSITION-ONE: induced demand returns."),
            "turn {t}"
        );
        assert!(
            prompt.contains("POSITION-TWO: pricing holds traffic down."),
            "turn {t}"
        );
        if t < 4 {
            assert!(
                prompt.contains("Where SPECIFICALLY do you disagree"),
                "turn {t}"
            );
        } else {
            assert!(
                prompt.contains("Steel-man their strongest argument"),
                "turn {t}"
            );
        }
    }
    // Once four messages are quoted, the prompt stops growing: turn 13 is no longer than
    // turn 5, though eight more long turns were said in between.
    assert_eq!(sizes[5], sizes[13], "{sizes:?}");
    assert!(sizes.iter().all(|&s| s < 6_000), "{sizes:?}");
    let said: usize = LONG.len() * 20 * 13;
    assert!(sizes[13] < said / 4);
}

#[test]
fn an_unreadable_card_is_recorded_as_not_extracted_with_its_room_never_filled_in() {
    let run = run_debate(
        config(1, 14),
        script(vec![
            json!({"path": "room/1/card", "text": card("emotional")}),
        ]),
    );
    assert_eq!(run.outcome, Outcome::Completed);
    assert!(run.calls().contains(&"room/1/card/repair".to_string()));
    match run.finding("room/1/card") {
        Some(FindingBody::CruxNotExtracted { room, reason }) => {
            assert_eq!(room, "room/1");
            assert!(
                reason.contains("`kind` must be factual, values or definitional"),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(!run
        .findings()
        .iter()
        .any(|(_, b)| matches!(b, FindingBody::CruxCard(_))));
    // The unresolved disagreement is still carried to the closings.
    assert!(run
        .user_prompt("closing/persona-1")
        .contains("Congestion pricing pays for itself."));
    // A card naming someone who was not in the room is not extracted either.
    let stranger = card("values").replace("persona-2", "The Historian");
    let run = run_debate(
        config(1, 14),
        script(vec![json!({"path": "room/1/card", "text": stranger})]),
    );
    assert!(matches!(
        run.finding("room/1/card"),
        Some(FindingBody::CruxNotExtracted { .. })
    ));
}

#[test]
fn shifts_compare_each_opening_with_its_closing_and_a_persona_left_out_is_unscored() {
    let run = run_debate(config(1, 14), script(vec![]));
    let shifts = run.user_prompt("shifts");
    assert!(
        shifts.contains("Opening: Cars are a tail risk nobody prices."),
        "{shifts}"
    );
    assert!(shifts.contains("Closing: I moved toward The Founder on pricing."));
    assert!(matches!(run.finding("shift/persona-1"),
        Some(FindingBody::PositionShift { shifted: true, moved_by, .. }) if moved_by == "The Founder's pricing data"));
    assert!(matches!(
        run.finding("shift/persona-2"),
        Some(FindingBody::PositionShift { shifted: false, .. })
    ));

    let one = json!({"shifts": [{"persona": "persona-1", "shifted": false, "from": "a", "to": "a", "where": ""}]}).to_string();
    let run = run_debate(
        config(1, 14),
        script(vec![json!({"path": "shifts", "text": one})]),
    );
    assert!(matches!(
        run.finding("shift/persona-1"),
        Some(FindingBody::PositionShift { shifted: false, .. })
    ));
    assert!(matches!(
        run.finding("shift/persona-2"),
        Some(FindingBody::Unscored { .. })
    ));

    let run = run_debate(
        config(1, 14),
        script(vec![json!({"path": "shifts", "text": "nobody moved"})]),
    );
    assert!(matches!(
        run.finding("shifts"),
        Some(FindingBody::Unscored { .. })
    ));
    assert!(run.finding("shift/persona-1").is_none());
}

#[test]
fn an_unreadable_decomposition_debates_the_topic_as_one_aspect() {
    let run = run_debate(
        config(3, 14),
        script(vec![json!({"path": "aspects", "text": "three aspects"})]),
    );
    assert_eq!(run.outcome, Outcome::Completed);
    match run.finding("aspects") {
        Some(FindingBody::Unscored { reason, .. }) => assert!(
            reason.starts_with("the answer could not be read, even after a repair: ")
                && reason.ends_with("; the topic is debated as a whole"),
            "{reason}"
        ),
        other => panic!("{other:?}"),
    }
    assert!(!run.calls().iter().any(|c| c.starts_with("aspect/2/")));
    assert!(run
        .user_prompt("aspect/1/round/0/persona-1")
        .contains("Should cities ban cars?"));
}

#[test]
fn a_configuration_is_checked_with_messages_for_the_user() {
    assert_eq!(config(3, 14).validate(), Ok(()));
    let one = new_config(
        "t",
        vec![(contract("actuary"), model("a"))],
        model("j"),
        CruxOptions::default(),
    );
    assert_eq!(
        one.validate().unwrap_err(),
        "A crux debate has between 2 and 6 personas."
    );
    let mut bad = contract("founder");
    bad.thinking.time_horizon = " ".into();
    let c = new_config(
        "t",
        vec![(contract("actuary"), model("a")), (bad, model("b"))],
        model("j"),
        CruxOptions::default(),
    );
    assert_eq!(
        c.validate().unwrap_err(),
        "The Founder: `thinking.time_horizon` is empty"
    );
    let mut hot = config(1, 14);
    if let FormatOptions::Crux(o) = &mut hot.options {
        o.temperatures.exchange = 3.0;
    }
    assert_eq!(
        hot.validate().unwrap_err(),
        "The crux exchange temperature goes from 0 to 2."
    );
}

#[test]
fn a_resumed_debate_replays_to_the_same_end_without_new_calls() {
    let run = run_debate(config(1, 14), script(vec![]));
    let mut events = run.events.clone();
    events.retain(|e| !matches!(e.kind, EventKind::Finished { .. }));
    let resumed = resume_scripted(events, script(vec![]));
    assert_eq!(resumed.outcome, Outcome::Completed);
    assert!(resumed.requests.is_empty());
    assert!(resumed.warnings.is_empty(), "{:?}", resumed.warnings);
}
