//! Duelogic on the scripted model under the virtual clock: a whole episode, then each rule
//! of the format (the urgency threshold by aggressiveness, the cooldown, the six reasons,
//! unscored evaluations, each accountability level, a person in a chair).

use std::rc::Rc;

use serde_json::{json, Value};

use super::*;
use crate::engine::config::Accountability;
use crate::engine::context::Inputs;
use crate::engine::event::{Event, EventKind, FinishReason, Outcome};
use crate::engine::script::Script;

use super::super::testing::scripted::model;

fn options(rounds: u32, aggressiveness: u8, cooldown_s: u32) -> DuelogicOptions {
    DuelogicOptions {
        rounds,
        aggressiveness,
        cooldown_s,
        accountability: Accountability::Moderate,
        ..Default::default()
    }
}

fn config(o: DuelogicOptions) -> DebateConfig {
    new_config(
        "Should cities ban cars?",
        vec![
            ("Chair 1".into(), "utilitarian".into(), model("a")),
            ("Chair 2".into(), "virtue".into(), model("b")),
        ],
        model("host"),
        Some(model("judge")),
        o,
    )
}

fn evaluation(adherence: u32, requires: bool) -> String {
    json!({
        "steel_manning": {"attempted": true, "quality": "weak", "notes": "thin"},
        "self_critique": {"attempted": requires, "quality": "adequate", "notes": ""},
        "framework_consistency": {"consistent": true, "violations": []},
        "intellectual_honesty": {"score": "medium", "issues": []},
        "adherence_score": adherence,
        "requires_interjection": requires,
        "interjection_reason": if requires { "no steel-man" } else { "" }
    })
    .to_string()
}

fn proposal(reason: &str, urgency: f64) -> String {
    json!({"should_interrupt": true, "interrupting_chair": "chair-2", "reason": reason,
        "trigger": "80% of people agree", "urgency": urgency, "opener": "Hold on,"})
    .to_string()
}

/// An episode's script; `extra` answers come first, so they win.
fn script(extra: Vec<Value>) -> Script {
    let mut answers = extra;
    answers.extend([
        json!({"path": "intro", "text": "Welcome to Duelogic. Today: cars."}),
        json!({"path": "round/1/chair-1/check/1", "text": proposal("factual_correction", 0.85), "first_delay_ms": 50}),
        json!({"path": "round/1/chair-1/interruption", "text": "Hold on, that figure is not established."}),
        json!({"path": "round/1/chair-1/resume", "text": "Fair, the figure is uncertain. My point stands."}),
        json!({"path": "round/1/chair-1/evaluation", "text": evaluation(80, false)}),
        json!({"path": "round/1/chair-1", "chunks": ["Utility matters. ", "Studies show ",
            "that 80% of people agree. ", "Second point goes here. ", "Third point never heard. ", "End."],
            "chunk_delay_ms": 100}),
        json!({"path": "round/1/chair-2/evaluation", "text": evaluation(30, true)}),
        json!({"path": "round/1/chair-2/interjection", "text": "Hold on, Chair 2: steel-man Chair 1 first."}),
        json!({"path": "round/1/chair-2/answer", "text": "You are right. Their strongest case is welfare."}),
        json!({"path": "round/1/chair-2", "text": "Character matters more than sums. A wise person weighs each case."}),
        json!({"path": "round/2/chair-1/evaluation", "text": evaluation(75, false)}),
        json!({"path": "round/2/chair-2/evaluation", "text": evaluation(70, false)}),
        json!({"path": "round/2/chair-1/check/", "text": proposal("direct_challenge", 0.9)}),
        json!({"path": "round/2/chair-1", "chunks": ["Again, ", "studies show a 5% gain. ", "More follows. ", "The end."],
            "first_delay_ms": 5000, "chunk_delay_ms": 100}),
        json!({"path": "closing", "text": "And that brings us to the close. This has been Duelogic."}),
    ]);
    serde_json::from_value(json!({"answers": answers, "default": {"text": "A plain answer."}}))
        .unwrap()
}

struct Run {
    outcome: Outcome,
    events: Vec<Event>,
    calls: Vec<String>,
    /// Calls whose prompt still holds a `{{variable}}` nobody filled in.
    unfilled: Vec<String>,
}

fn run_episode(config: DebateConfig, script: Script) -> Run {
    run_episode_with(config, script, Inputs::new())
}

fn run_episode_with(config: DebateConfig, script: Script, inputs: Rc<Inputs>) -> Run {
    let s = super::super::testing::scripted::run_scripted(config, script, inputs);
    Run {
        calls: s.calls(),
        // Calls whose prompt still holds a `{{variable}}` nobody filled in.
        unfilled: s
            .requests
            .iter()
            .filter(|r| r.messages.iter().any(|m| m.content.contains("{{")))
            .map(|r| r.call.clone())
            .collect(),
        outcome: s.outcome,
        events: s.events,
    }
}

fn findings(events: &[Event]) -> Vec<(String, &FindingBody)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FindingRecorded(f) => Some((f.key.clone(), &f.body)),
            _ => None,
        })
        .collect()
}

fn turn_text(events: &[Event], path: &str) -> Option<(String, FinishReason)> {
    events.iter().find_map(|e| match &e.kind {
        EventKind::TurnFinished {
            call, text, finish, ..
        } if call.path == path => Some((text.clone(), *finish)),
        _ => None,
    })
}

#[test]
fn a_whole_episode_has_intro_turns_evaluations_an_interjection_an_interruption_and_a_closing() {
    let run = run_episode(config(options(1, 3, 60)), script(vec![]));
    assert_eq!(run.outcome, Outcome::Completed);
    assert!(
        run.unfilled.is_empty(),
        "unfilled prompt variables in {:?}",
        run.unfilled
    );
    let labels: Vec<String> = run
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnStarted { call, .. } => Some(call.path.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        labels,
        vec![
            "intro",
            "round/1/chair-1",
            "round/1/chair-1/check/1",
            "round/1/chair-1/interruption",
            "round/1/chair-1/resume",
            "round/1/chair-1/evaluation",
            "round/1/chair-2",
            "round/1/chair-2/evaluation",
            "round/1/chair-2/interjection",
            "round/1/chair-2/answer",
            "closing",
        ]
    );
    // The check ran while chair 1 spoke, and cut it at the next sentence end.
    assert_eq!(
        turn_text(&run.events, "round/1/chair-1"),
        Some((
            "Utility matters. Studies show that 80% of people agree. Second point goes here."
                .to_string(),
            FinishReason::Cut
        ))
    );
    let f = findings(&run.events);
    assert!(
        matches!(f[0].1, FindingBody::Interruption { by, reason, urgency: 85, .. }
        if by == "chair-2" && *reason == InterruptReason::FactualCorrection)
    );
    assert!(matches!(f[1].1, FindingBody::Evaluation(e) if e.adherence == 80));
    assert!(matches!(f[2].1, FindingBody::Evaluation(e) if e.adherence == 30));
    assert!(
        matches!(f[3].1, FindingBody::Interjection { violation, .. } if violation == "straw-manning")
    );
    assert_eq!(f.len(), 4);
    // The closing prompt carried the scorecard.
    let stats = stats::Stats::from_events(&config(options(1, 3, 60)), &run.events);
    assert_eq!(stats.chairs[0].average_adherence(), Some(80));
    assert_eq!(stats.chairs[1].interjections, 1);
    assert_eq!(stats.chairs[1].interrupted_others, 1);
    assert_eq!(stats.chairs[0].was_interrupted, 1);
    assert_eq!(
        stats.by_reason,
        vec![(InterruptReason::FactualCorrection, 1)]
    );
}

#[test]
fn every_interruption_reason_is_recorded_as_given() {
    for reason in InterruptReason::ALL {
        let run = run_episode(
            config(options(1, 3, 60)),
            script(vec![
                json!({"path": "round/1/chair-1/check/1", "text": proposal(reason.id(), 0.8)}),
            ]),
        );
        let f = findings(&run.events);
        assert!(
            f.iter().any(
                |(_, b)| matches!(b, FindingBody::Interruption { reason: r, .. } if *r == reason)
            ),
            "{reason:?}"
        );
    }
}

#[test]
fn the_urgency_threshold_follows_aggressiveness() {
    // Urgency 0.65: under level 3's 0.7, over level 4's 0.6.
    let low = vec![
        json!({"path": "round/1/chair-1/check/1", "text": proposal("direct_challenge", 0.65)}),
    ];
    let calm = run_episode(config(options(1, 3, 60)), script(low.clone()));
    assert_eq!(
        turn_text(&calm.events, "round/1/chair-1").unwrap().1,
        FinishReason::Stop,
        "not urgent enough at level 3"
    );
    let keen = run_episode(config(options(1, 4, 60)), script(low));
    assert_eq!(
        turn_text(&keen.events, "round/1/chair-1").unwrap().1,
        FinishReason::Cut
    );
}

#[test]
fn a_chair_on_cooldown_is_not_asked_about_until_it_expires() {
    // Chair 2 cut in during round 1; chair 1 speaks again about 5.7 s later.
    let long = run_episode(config(options(2, 3, 600)), script(vec![]));
    assert!(!long
        .calls
        .iter()
        .any(|c| c.starts_with("round/2/chair-1/check/")));
    assert_eq!(
        turn_text(&long.events, "round/2/chair-1").unwrap().1,
        FinishReason::Stop
    );
    let short = run_episode(config(options(2, 3, 3)), script(vec![]));
    assert!(short.calls.contains(&"round/2/chair-1/check/1".to_string()));
    assert_eq!(
        turn_text(&short.events, "round/2/chair-1").unwrap().1,
        FinishReason::Cut
    );
}

#[test]
fn an_evaluation_that_cannot_be_read_is_unscored_never_a_default_number() {
    let run = run_episode(
        config(options(1, 3, 60)),
        script(vec![
            json!({"path": "round/1/chair-2/evaluation/repair", "text": "Still not JSON, sorry."}),
            json!({"path": "round/1/chair-2/evaluation", "text": "{\"adherence_score\": \"great\"}"}),
        ]),
    );
    assert_eq!(run.outcome, Outcome::Completed);
    let f = findings(&run.events);
    assert!(f.iter().any(
        |(k, b)| k == "round/1/chair-2/evaluation" && matches!(b, FindingBody::Unscored { .. })
    ));
    assert!(
        !f.iter()
            .any(|(k, b)| k == "round/1/chair-2/evaluation"
                && matches!(b, FindingBody::Evaluation(_)))
    );
    // No evaluation, no interjection.
    assert!(!run
        .calls
        .contains(&"round/1/chair-2/interjection".to_string()));
}

#[test]
fn relaxed_accountability_evaluates_nothing_and_strict_interjects_under_60() {
    let mut o = options(1, 3, 60);
    o.accountability = Accountability::Relaxed;
    let relaxed = run_episode(config(o), script(vec![]));
    assert!(!relaxed.calls.iter().any(|c| c.ends_with("/evaluation")));
    let mut o = options(1, 3, 60);
    o.accountability = Accountability::Strict;
    let strict = run_episode(
        config(o),
        script(vec![
            json!({"path": "round/1/chair-1/evaluation", "text": evaluation(55, false)}),
        ]),
    );
    assert!(strict
        .calls
        .contains(&"round/1/chair-1/interjection".to_string()));
}

#[test]
fn a_configuration_that_does_not_fit_is_refused_with_a_reason() {
    let mut c = config(options(1, 3, 60));
    if let FormatOptions::Duelogic(o) = &mut c.options {
        o.chairs.truncate(1);
    }
    assert!(c.validate().unwrap_err().contains("between 2 and 6 chairs"));
    let mut c = config(options(1, 3, 60));
    if let FormatOptions::Duelogic(o) = &mut c.options {
        o.chairs[1].framework = "astrology".into();
    }
    assert!(c.validate().unwrap_err().contains("unknown framework"));
}

#[test]
fn a_person_can_take_a_chair_and_the_arbiter_evaluates_their_turn() {
    let mut config = config(options(1, 3, 60));
    let chair = config.seats.iter_mut().find(|s| s.id == "chair-2").unwrap();
    chair.participant = Participant::Human;
    let inputs = Inputs::new();
    let said = "Character matters more than sums, and I say so myself.";
    inputs.push(crate::engine::event::Input::HumanTurn {
        call: CallKey::new("round/1/chair-2", 0),
        text: said.into(),
    });
    // The Arbiter calls the person out (the script's evaluation asks for it): they answer.
    inputs.push(crate::engine::event::Input::HumanTurn {
        call: CallKey::new("round/1/chair-2/answer", 0),
        text: "Fair: the welfare case is strong.".into(),
    });
    let run = run_episode_with(config, script(vec![]), inputs);
    assert_eq!(run.outcome, Outcome::Completed);
    assert_eq!(
        turn_text(&run.events, "round/1/chair-2"),
        Some((said.to_string(), FinishReason::Stop))
    );
    // The model was never asked for the person's turn; the Arbiter judged it all the same.
    assert!(!run
        .calls
        .iter()
        .any(|c| c == "round/1/chair-2#0" || c == "round/1/chair-2"));
    assert!(run
        .calls
        .iter()
        .any(|c| c.starts_with("round/1/chair-2/evaluation")));
    // Nobody checks whether to cut the person off, and the person (the only other chair) is
    // never asked to cut in on chair 1: no interruption check runs at all.
    assert!(
        !run.calls.iter().any(|c| c.contains("/check")),
        "{:?}",
        run.calls
    );
    assert!(!findings(&run.events)
        .iter()
        .any(|(_, b)| matches!(b, FindingBody::Interruption { .. })));
    assert!(is_evaluated(&CallKey::new("round/1/chair-2", 0)));
    assert!(!is_evaluated(&CallKey::new("round/1/chair-2/answer", 0)));
}

#[test]
fn a_digest_line_keeps_whole_sentences_where_one_fits() {
    let speech = "Cars cost the centre its air. Shops depend on footfall, not parking. And the rest follows from that long argument about who pays.";
    assert_eq!(super::lead(speech, 200), speech);
    assert_eq!(
        super::lead(speech, 20),
        "Cars cost the centre its air. Shops depend on footfall, not parking."
    );
    // No sentence ends in reach: the opening words, marked as cut.
    let lead = super::lead("An opening that runs on and on without a stop", 5);
    assert!(lead.ends_with('…') && lead.len() < 30, "{lead}");
}

#[test]
fn an_interruption_check_sees_the_topic_the_debate_so_far_and_the_whole_speech() {
    // Chair 2 said what it holds in round 1; in round 2 chair 1, a long way into its speech,
    // puts words in its mouth. The check must see both, and the speech's start.
    let long_start = "My opening point, which the check must still see. ".to_string()
        + &"Consequences are what we can measure and compare. ".repeat(20);
    let script: Script = serde_json::from_value(json!({"answers": [
        {"path": "round/1/chair-2/", "text": evaluation(80, false)},
        {"path": "round/1/chair-1/", "text": evaluation(80, false)},
        {"path": "round/2/chair-1/evaluation", "text": evaluation(80, false)},
        {"path": "round/2/chair-2/evaluation", "text": evaluation(80, false)},
        {"path": "round/2/chair-1/check/", "text": json!({"should_interrupt": false, "interrupting_chair": null,
            "reason": "straw_man_detected", "trigger": "", "urgency": 0.2, "opener": ""}).to_string()},
        {"path": "round/1/chair-2", "text": "Character is formed by habits; a good city forms good habits in those who live in it."},
        {"path": "round/2/chair-1", "chunks": [long_start, "Virtue ethics people just want to feel good about themselves. ", "The end."],
            "chunk_delay_ms": 50}
    ], "default": {"text": "A plain answer."}}))
    .unwrap();
    let run = super::super::testing::scripted::run_scripted(
        config(options(2, 3, 60)),
        script,
        Inputs::new(),
    );
    assert_eq!(run.outcome, Outcome::Completed);
    let check = run
        .requests
        .iter()
        .find(|r| r.call.starts_with("round/2/chair-1/check/"))
        .expect("the straw man was checked");
    let prompt = &check.messages.last().unwrap().content;
    assert!(prompt.contains("Should cities ban cars?"), "the topic");
    assert!(
        prompt.contains("a good city forms good habits"),
        "what chair 2 actually said: {prompt}"
    );
    assert!(
        prompt.contains("My opening point, which the check must still see."),
        "the speech's start"
    );
    assert!(prompt.contains("just want to feel good about themselves"));
    assert!(
        prompt.contains("- chair-2 (Chair 2, Virtue ethics)"),
        "the interrupter's framework"
    );
}

#[test]
fn a_fallback_opener_comes_from_the_debates_seed_and_a_replay_takes_the_same() {
    let quiet = json!({"should_interrupt": true, "interrupting_chair": "chair-2",
        "reason": "straw_man_detected", "trigger": "80% of people agree", "urgency": 0.9, "opener": ""})
    .to_string();
    let script = || {
        script(vec![
            json!({"path": "round/1/chair-1/check/1", "text": quiet, "first_delay_ms": 50}),
        ])
    };
    let first = super::super::testing::scripted::run_scripted(
        config(options(1, 3, 60)),
        script(),
        Inputs::new(),
    );
    assert_eq!(first.outcome, Outcome::Completed);
    let asked = |s: &super::super::testing::scripted::Scripted| {
        s.requests
            .iter()
            .find(|r| r.call == "round/1/chair-1/interruption")
            .map(|r| r.messages.last().unwrap().content.clone())
            .unwrap()
    };
    let prompt = asked(&first);
    let opener = InterruptReason::StrawManDetected
        .openers()
        .iter()
        .find(|o| prompt.contains(*o))
        .expect("one of the reason's openers");
    // Resumed just before the interruption was asked, the replay draws nothing new.
    let cut = first
        .events
        .iter()
        .position(|e| matches!(&e.kind, EventKind::TurnStarted { call, .. } if call.path == "round/1/chair-1/interruption"))
        .unwrap();
    let again =
        super::super::testing::scripted::resume_scripted(first.events[..cut].to_vec(), script());
    assert!(asked(&again).contains(opener));
}

#[test]
fn the_arbiters_prompts_ask_for_the_seeds_lengths_and_elements() {
    let mut o = options(1, 3, 60);
    o.call_to_action = true;
    let run =
        super::super::testing::scripted::run_scripted(config(o), script(vec![]), Inputs::new());
    assert_eq!(run.outcome, Outcome::Completed);
    let prompt = |path: &str| {
        let r = run.requests.iter().find(|r| r.call == path).unwrap();
        (r.messages.last().unwrap().content.clone(), r.max_tokens)
    };
    let (intro, intro_max) = prompt("intro");
    assert!(intro.contains("in 200 to 350 words"), "{intro}");
    assert!(intro.contains("Welcome the audience to"));
    assert!(intro.contains("Hand the floor to Chair 1"));
    let (closing, closing_max) = prompt("closing");
    assert!(closing.contains("in 350 to 500 words"), "{closing}");
    assert!(closing.contains("Call to action: invite listeners to subscribe"));
    assert!(closing.contains("Sign off from"));
    let (interjection, interjection_max) = prompt("round/1/chair-2/interjection");
    assert!(interjection.contains("30 to 75 words"), "{interjection}");
    assert!(interjection.contains("straw-manning"));
    assert!(interjection.contains(rules::Violation::StrawManning.remedy()));
    // Each call's limit leaves room for the most words it asks for.
    for (max_tokens, (_, most)) in [
        (intro_max, INTRO_WORDS),
        (closing_max, CLOSING_WORDS),
        (interjection_max, INTERJECTION_WORDS),
    ] {
        let room: u32 = transcript::words(max_tokens).parse().unwrap();
        assert!(
            room >= most,
            "{max_tokens} tokens hold {room} words, fewer than {most}"
        );
    }
}

#[test]
fn a_speech_cut_by_an_interruption_keeps_the_pages_its_search_cited() {
    let mut config = config(options(1, 3, 60));
    config.search_web = vec!["chair-1".into()];
    let mut s = script(vec![]);
    let speech = s
        .answers
        .iter_mut()
        .find(|a| a.path.as_deref() == Some("round/1/chair-1"))
        .unwrap();
    speech.citations = vec![crate::engine::sources::web::Citation::new(
        "https://example.org/survey",
        "Commuter survey",
        "80% of people agree.",
    )
    .unwrap()];
    let run = super::super::testing::scripted::run_scripted(config, s, Inputs::new());
    assert_eq!(run.outcome, Outcome::Completed);
    assert_eq!(
        turn_text(&run.events, "round/1/chair-1").map(|(_, f)| f),
        Some(FinishReason::Cut)
    );
    let view = crate::engine::log_view::LogView::of(&run.events);
    let ids: Vec<&str> = view.sources.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["W1"], "the cut speech's page is a source");
    let cut = view
        .turns
        .iter()
        .find(|t| t.call.path == "round/1/chair-1")
        .unwrap();
    assert_eq!(
        cut.web.as_ref().unwrap().citations[0].title,
        "Commuter survey"
    );
}
