//! The council on the scripted model under the virtual clock: its stages in order with the
//! members at once, label orders drawn per reviewer and recorded, the ranking over the
//! ballots as read, the vote and the verdict, a failed chair, the second round, the spend,
//! and a resume from every prefix of its log.

use serde_json::{json, Value};

use super::findings::{Ballot, CouncilFinding, Ranking, Verdict, Vote, Worth};
use super::*;
use crate::engine::config::Participant;
use crate::engine::context::Inputs;
use crate::engine::cost::Price;
use crate::engine::event::{Event, EventKind, Outcome};
use crate::engine::script::Script;

use super::super::testing::scripted::{model, resume_scripted, run_scripted, Scripted};

fn priced(connection: &str) -> Participant {
    match model(connection) {
        Participant::Model {
            connection,
            connection_label,
            model,
            context_tokens,
            ..
        } => Participant::Model {
            connection,
            connection_label,
            model,
            context_tokens,
            price: Some(Price {
                input: 1.0,
                output: 2.0,
            }),
        },
        p => p,
    }
}

fn config(members: usize, second_round: bool) -> DebateConfig {
    new_config(
        "Is a four-day week good for a small software company?",
        (0..members)
            .map(|i| (String::new(), priced(&format!("c{i}"))))
            .collect(),
        priced("chair"),
        priced("analyst"),
        CouncilOptions {
            second_round,
            ..Default::default()
        },
    )
}

fn ballot(labels: &[&str]) -> String {
    json!({"ranking": labels.iter().map(|l| json!({"label": l, "reason": format!("{l} reasons well.")})).collect::<Vec<_>>()})
        .to_string()
}

fn usage() -> Value {
    json!({"input_tokens": 100, "output_tokens": 50})
}

/// A council's script; `extra` answers come first, so they win.
fn script(extra: Vec<Value>) -> Script {
    let mut answers = extra;
    answers.extend([
        json!({"path": "answer/member-1", "text": "ANSWER-ONE: yes, with core hours.", "first_delay_ms": 1000, "usage": usage()}),
        json!({"path": "answer/member-2", "text": "ANSWER-TWO: yes, if output is measured.", "first_delay_ms": 1000, "usage": usage()}),
        json!({"path": "answer/member-3", "text": "ANSWER-THREE: no, clients expect five days.", "first_delay_ms": 1000, "usage": usage()}),
        json!({"path": "revision/member-1", "text": "REVISED-ONE: yes, with core hours and cover.", "usage": usage()}),
        json!({"path": "revision/member-2", "text": "REVISED-TWO: yes.", "usage": usage()}),
        json!({"path": "revision/member-3", "text": "REVISED-THREE: yes, with client cover.", "usage": usage()}),
        json!({"path": "review/", "seat": "member-1", "text": ballot(&["A", "B", "C"]), "usage": usage()}),
        json!({"path": "review/", "seat": "member-2", "text": ballot(&["C", "B", "A"]), "usage": usage()}),
        json!({"path": "review/", "seat": "member-3", "text": ballot(&["B", "A", "C"]), "usage": usage()}),
        json!({"path": "vote", "text": json!({"groups": [
            {"answer": "Yes, a four-day week works.", "members": ["Member 1", "member 2"]},
            {"answer": "No.", "members": ["Member 3"]}]}).to_string(), "usage": usage()}),
        json!({"path": "chair/final", "text": "FINAL: yes, with core hours and client cover.", "usage": usage()}),
        json!({"path": "chair/minority", "text": "MINORITY: clients may still expect five days.", "usage": usage()}),
        json!({"path": "verdict", "text": json!({"same": true, "reason": "The final answer keeps the yes."}).to_string(), "usage": usage()}),
    ]);
    serde_json::from_value(json!({ "answers": answers })).unwrap()
}

fn run(config: DebateConfig, script: Script) -> Scripted {
    let run = run_scripted(config, script, Inputs::new());
    assert_eq!(run.outcome, Outcome::Completed);
    run
}

fn council_findings(events: &[Event]) -> Vec<CouncilFinding> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FindingRecorded(f) => match &f.body {
                FindingBody::Council(c) => Some((**c).clone()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn ballots(events: &[Event]) -> Vec<Ballot> {
    council_findings(events)
        .into_iter()
        .filter_map(|f| match f {
            CouncilFinding::Ballot(b) => Some(b),
            _ => None,
        })
        .collect()
}

fn ranking(events: &[Event]) -> Ranking {
    council_findings(events)
        .into_iter()
        .find_map(|f| match f {
            CouncilFinding::Ranking(r) => Some(r),
            _ => None,
        })
        .expect("a ranking")
}

fn worth(events: &[Event]) -> Worth {
    council_findings(events)
        .into_iter()
        .find_map(|f| match f {
            CouncilFinding::Worth(w) => Some(w),
            _ => None,
        })
        .expect("a verdict")
}

fn vote(events: &[Event]) -> Option<Vote> {
    council_findings(events).into_iter().find_map(|f| match f {
        CouncilFinding::Vote(v) => Some(v),
        _ => None,
    })
}

fn first_index(calls: &[String], prefix: &str) -> usize {
    calls.iter().position(|c| c.starts_with(prefix)).unwrap()
}

#[test]
fn the_stages_run_in_order_with_the_members_at_once() {
    let run = run(config(3, false), script(vec![]));
    let calls = run.calls();
    assert_eq!(calls.len(), 3 + 3 + 1 + 1 + 1 + 1, "{calls:?}");
    assert!(first_index(&calls, "answer/") < first_index(&calls, "review/1/"));
    assert!(first_index(&calls, "review/1/") < first_index(&calls, "chair/final"));
    assert!(first_index(&calls, "chair/final") < first_index(&calls, "chair/minority"));
    assert!(first_index(&calls, "chair/final") < first_index(&calls, "verdict"));
    // The three answers all started before the first finished: they ran at once.
    let kinds: Vec<(&str, bool)> = run
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnStarted { call, .. } if call.path.starts_with("answer/") => {
                Some((call.path.as_str(), true))
            }
            EventKind::TurnFinished { call, .. } if call.path.starts_with("answer/") => {
                Some((call.path.as_str(), false))
            }
            _ => None,
        })
        .collect();
    assert!(kinds[..3].iter().all(|(_, started)| *started), "{kinds:?}");
    // The plan is exact: a call per planned call, in as many stages.
    let plan = crate::engine::formats::plan(&config(3, false));
    assert_eq!(plan.len(), calls.len());
    assert_eq!(crate::engine::formats::stages(&plan), [3, 4, 1, 2]);
    // The phases, once each, in order.
    let phases: Vec<&str> = run
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::PhaseStarted { key, .. } => Some(key.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(phases, ["answers", "review", "chair"]);
}

#[test]
fn ballots_stand_in_seating_order_whichever_review_comes_back_first() {
    // Member 1 is the slowest to review and member 3 the quickest: the transcript and the
    // exports still list the ballots as the members are seated.
    let slow = |seat: &str, ms: u64, labels: &[&str]| json!({"path": "review/", "seat": seat, "text": ballot(labels), "first_delay_ms": ms, "usage": usage()});
    let run = run(
        config(3, false),
        script(vec![
            slow("member-1", 3000, &["A", "B", "C"]),
            slow("member-2", 2000, &["C", "B", "A"]),
            slow("member-3", 1000, &["B", "A", "C"]),
        ]),
    );
    let finished: Vec<String> = run
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnFinished { call, .. } if call.path.starts_with("review/") => {
                Some(call.path.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        finished.first().map(String::as_str),
        Some("review/1/member-3"),
        "the quickest review came back first: {finished:?}"
    );
    let reviewers: Vec<String> = run
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FindingRecorded(f)
                if matches!(&f.body, FindingBody::Council(c) if matches!(**c, CouncilFinding::Ballot(_))) =>
            {
                Some(f.seat.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(reviewers, ["member-1", "member-2", "member-3"]);
    // The Markdown export names each ballot's reviewer, in the same order: a reason in it is
    // not read as the ranked member's own.
    let md = crate::engine::export::to_markdown(&run.events);
    let names: Vec<String> = run
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::DebateStarted { config, .. } => Some(
                config
                    .seats
                    .iter()
                    .filter(|s| s.id.starts_with("member-"))
                    .map(|s| s.name.clone())
                    .collect(),
            ),
            _ => None,
        })
        .unwrap();
    let at: Vec<usize> = names
        .iter()
        .map(|n| {
            md.find(&format!("**Ballot of {n}**"))
                .unwrap_or_else(|| panic!("{n}'s ballot is not named:\n{md}"))
        })
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{names:?} at {at:?}");
}

#[test]
fn each_reviewer_gets_its_own_recorded_order_and_its_ballot_reads_through_it() {
    let run = run(config(3, false), script(vec![]));
    let orders: Vec<Vec<String>> = ["member-1", "member-2", "member-3"]
        .iter()
        .map(|m| {
            run.events
                .iter()
                .find_map(|e| match &e.kind {
                    EventKind::DecisionRecorded { key, value }
                        if key == &format!("order/council/1/{m}") =>
                    {
                        serde_json::from_value(value.clone()).ok()
                    }
                    _ => None,
                })
                .unwrap_or_else(|| panic!("no recorded order for {m}"))
        })
        .collect();
    assert!(
        orders.iter().any(|o| o != &orders[0]),
        "every reviewer saw the same order: {orders:?}"
    );
    let texts = [
        ("member-1", "ANSWER-ONE"),
        ("member-2", "ANSWER-TWO"),
        ("member-3", "ANSWER-THREE"),
    ];
    let text_of = |seat: &str| texts.iter().find(|(s, _)| *s == seat).unwrap().1;
    let scripted: [(&str, [&str; 3]); 3] = [
        ("member-1", ["A", "B", "C"]),
        ("member-2", ["C", "B", "A"]),
        ("member-3", ["B", "A", "C"]),
    ];
    let ballots = ballots(&run.events);
    assert_eq!(ballots.len(), 3);
    for ((reviewer, labels), (order, ballot)) in scripted.iter().zip(orders.iter().zip(&ballots)) {
        assert_eq!(&ballot.shown, order);
        // The prompt showed the answers in that order, labelled A, B, C, with no names.
        let request = run
            .requests
            .iter()
            .find(|r| r.call == format!("review/1/{reviewer}"))
            .unwrap();
        let prompt = &request.messages.last().unwrap().content;
        let at: Vec<usize> = order
            .iter()
            .map(|s| prompt.find(text_of(s)).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{reviewer}: {at:?}");
        for (i, seat) in order.iter().enumerate() {
            let l = label(i);
            let shown = prompt.find(&format!("Answer {l}:")).unwrap();
            assert!(shown < at[i]);
            assert!(!prompt.contains(&format!("Member {}", &seat[7..])));
        }
        // Its labels read as the seats shown under them.
        let ranked: Vec<&str> = ballot.ranking.iter().map(|r| r.seat.as_str()).collect();
        let expected: Vec<&str> = labels
            .iter()
            .map(|l| order[(l.as_bytes()[0] - b'A') as usize].as_str())
            .collect();
        assert_eq!(ranked, expected, "{reviewer}");
    }
    // The ranking is the Borda count of exactly these ballots.
    let r = ranking(&run.events);
    let casts: Vec<tally::Cast> = ballots
        .iter()
        .zip(["member-1", "member-2", "member-3"])
        .map(|(b, m)| tally::Cast {
            reviewer: m,
            shown: &b.shown,
            ranking: b
                .ranking
                .iter()
                .map(|r| r.seat.clone())
                .collect::<Vec<_>>()
                .leak(),
        })
        .collect();
    let seats: Vec<String> = ["member-1", "member-2", "member-3"]
        .map(String::from)
        .to_vec();
    let (expected, _) = tally::borda(&seats, &|s| s.to_string(), &casts);
    let got: Vec<(String, u32)> = r
        .standings
        .iter()
        .map(|s| (s.seat.clone(), s.points))
        .collect();
    let want: Vec<(String, u32)> = expected
        .iter()
        .map(|s| (s.seat.clone(), s.points))
        .collect();
    assert_eq!(got, want);
    assert_eq!(r.ballots, 3);
    assert!(r.unread.is_empty());
    assert_eq!(r.biases.len(), 3);
    // Best first: the points never rise down the ranking.
    assert!(r.standings.windows(2).all(|w| w[0].points >= w[1].points));
}

#[test]
fn the_vote_and_the_final_answer_say_whether_deliberating_changed_anything() {
    let run = run(config(3, false), script(vec![]));
    let v = vote(&run.events).unwrap();
    assert_eq!(v.answers, 3);
    assert_eq!(v.majority, Some(0));
    assert_eq!(v.groups[0].seats, ["member-1", "member-2"]);
    let w = worth(&run.events);
    assert_eq!(w.verdict, Verdict::Confirmed);
    assert_eq!(w.vote, "Yes, a four-day week works.");
    assert_eq!(w.reason, "The final answer keeps the yes.");
    // First answers: 3 calls of 150 tokens at $1 and $2 per million: 3 × $0.0002.
    assert_eq!(w.first.calls, 3);
    assert_eq!(w.first.tokens, 450);
    assert!((w.first.dollars.unwrap() - 0.0006).abs() < 1e-12);
    // Deliberation: three reviews, the final answer and the minority report; the analyst's
    // vote and verdict are the measurement and count in neither.
    assert_eq!(w.deliberation.calls, 5);
    assert!((w.deliberation.dollars.unwrap() - 0.001).abs() < 1e-12);

    // The chair turned the majority around.
    let changed = run_scripted(
        config(3, false),
        script(vec![
            json!({"path": "verdict", "text": json!({"same": false, "reason": "It now says no."}).to_string()}),
        ]),
        Inputs::new(),
    );
    assert_eq!(worth(&changed.events).verdict, Verdict::Changed);

    // Three answers, three conclusions: no majority, and no verdict call.
    let split = run_scripted(
        config(3, false),
        script(vec![json!({"path": "vote", "text": json!({"groups": [
            {"answer": "Yes.", "members": ["Member 1"]},
            {"answer": "No.", "members": ["Member 2"]},
            {"answer": "Only for some teams.", "members": ["Member 3"]}]}).to_string()})]),
        Inputs::new(),
    );
    assert_eq!(worth(&split.events).verdict, Verdict::NoMajority);
    assert!(worth(&split.events).reason.contains("split 3 ways"));
    assert!(!split.calls().contains(&"verdict".to_string()));

    // A grouping that leaves a member out is repaired once, then not made up.
    let unread = run_scripted(
        config(3, false),
        script(vec![json!({"path": "vote", "text": json!({"groups": [
            {"answer": "Yes.", "members": ["Member 1"]}]}).to_string()})]),
        Inputs::new(),
    );
    assert!(vote(&unread.events).is_none());
    assert!(unread.calls().contains(&"vote/repair".to_string()));
    assert_eq!(worth(&unread.events).verdict, Verdict::Undecided);
}

#[test]
fn a_chair_that_fails_leaves_the_answers_and_the_ranking_standing() {
    let run = run(
        config(3, false),
        script(vec![
            json!({"path": "chair/final", "fault": {"status": 400, "body": "the model cannot answer this"}}),
        ]),
    );
    let found = council_findings(&run.events);
    let message = found
        .iter()
        .find_map(|f| match f {
            CouncilFinding::ChairFailed { message } => Some(message.clone()),
            _ => None,
        })
        .expect("the chair's failure is said");
    assert!(message.contains("m via chair"), "{message}");
    assert!(message.contains("400"), "{message}");
    assert_eq!(ranking(&run.events).standings.len(), 3);
    assert_eq!(worth(&run.events).verdict, Verdict::Undecided);
    assert!(!run.calls().iter().any(|c| c == "chair/minority"));
    // Every member's answer is still in the log.
    let answers = run
        .events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::TurnFinished { call, .. } if call.path.starts_with("answer/")))
        .count();
    assert_eq!(answers, 3);

    // A chair that answers a word is not taken as a final answer either.
    let terse = run_scripted(
        config(3, false),
        script(vec![json!({"path": "chair/final", "text": "Yes."})]),
        Inputs::new(),
    );
    let message = council_findings(&terse.events)
        .into_iter()
        .find_map(|f| match f {
            CouncilFinding::ChairFailed { message } => Some(message),
            _ => None,
        })
        .unwrap();
    assert!(message.contains("it wrote “Yes.”"), "{message}");
}

#[test]
fn a_second_round_revises_the_answers_and_reviews_the_revisions() {
    let run = run(config(3, true), script(vec![]));
    let calls = run.calls();
    assert!(first_index(&calls, "answer/") < first_index(&calls, "revision/"));
    assert!(first_index(&calls, "revision/") < first_index(&calls, "review/2/"));
    assert!(!calls.iter().any(|c| c.starts_with("review/1/")));
    // A revision reads the others' first answers, without their names.
    let revise = run
        .requests
        .iter()
        .find(|r| r.call == "revision/member-1")
        .unwrap();
    let prompt = &revise.messages.last().unwrap().content;
    assert!(
        prompt.contains("ANSWER-ONE")
            && prompt.contains("ANSWER-TWO")
            && prompt.contains("ANSWER-THREE")
    );
    assert!(!prompt.contains("Member 2"));
    // The review ranks the revised answers; the vote still reads the first ones.
    let review = run
        .requests
        .iter()
        .find(|r| r.call == "review/2/member-1")
        .unwrap();
    let prompt = &review.messages.last().unwrap().content;
    assert!(prompt.contains("REVISED-TWO") && !prompt.contains("ANSWER-TWO"));
    let vote = run.requests.iter().find(|r| r.call == "vote").unwrap();
    assert!(vote
        .messages
        .last()
        .unwrap()
        .content
        .contains("ANSWER-THREE"));
    assert_eq!(ranking(&run.events).round, 2);
    assert_eq!(ballots(&run.events)[0].round, 2);
    assert_eq!(worth(&run.events).deliberation.calls, 3 + 3 + 2);
    assert_eq!(
        crate::engine::formats::plan(&config(3, true)).len(),
        calls.len()
    );
}

#[test]
fn an_unreadable_ballot_is_left_out_of_the_count_and_named() {
    let run = run(
        config(3, false),
        script(vec![
            json!({"path": "review/", "seat": "member-2", "text": ballot(&["A", "A", "B"])}),
        ]),
    );
    let r = ranking(&run.events);
    assert_eq!(r.ballots, 2);
    assert_eq!(r.unread, ["Member 2"]);
    assert!(run
        .calls()
        .contains(&"review/1/member-2/repair".to_string()));
    let unscored = run.events.iter().any(|e| {
        matches!(&e.kind,
        EventKind::FindingRecorded(f) if matches!(&f.body, FindingBody::Unscored { what, reason }
            if what == "Member 2's ballot" && reason.contains("A is ranked twice")))
    });
    assert!(unscored);
}

#[test]
fn a_person_ranks_by_typing_the_labels() {
    let mut c = config(3, false);
    c.seats[1].participant = Participant::Human;
    // The person's answer and ballot, typed for the calls that wait for them.
    let inputs = Inputs::new();
    for (path, text) in [
        ("answer/member-2", "Yes, try it for a quarter."),
        ("review/1/member-2", "1. C: concrete\n2. a\n3. B — vague"),
    ] {
        inputs.push(crate::engine::event::Input::HumanTurn {
            call: crate::engine::CallKey::new(path, 0),
            text: text.into(),
        });
    }
    let run = run_scripted(c, script(vec![]), inputs);
    assert_eq!(run.outcome, Outcome::Completed);
    let b = ballots(&run.events);
    let mine = b
        .iter()
        .find(|b| b.ranking.iter().any(|r| r.reason == "concrete"))
        .unwrap();
    assert_eq!(
        mine.ranking
            .iter()
            .map(|r| r.label.as_str())
            .collect::<Vec<_>>(),
        ["C", "A", "B"]
    );
    assert_eq!(mine.ranking[2].reason, "vague");
    let labels: Vec<String> = (0..3).map(label).collect();
    assert!(read_typed_ballot("B, A, C", &labels).is_ok());
    assert!(read_typed_ballot("B > c > answer a", &labels).is_ok());
    let dashed = read_typed_ballot("- B - clearest\n- A – fine\n- C", &labels).unwrap();
    assert_eq!(
        dashed,
        [
            (1, "clearest".to_string()),
            (0, "fine".into()),
            (2, String::new())
        ]
    );
    let missing = read_typed_ballot("B, A", &labels).unwrap_err().to_string();
    assert!(missing.contains("C not ranked"), "{missing}");
    assert!(read_typed_ballot("B, A, D", &labels).is_err());
}

#[test]
fn resumed_from_every_prefix_of_its_log_it_ends_the_same() {
    let full = run(config(3, true), script(vec![]));
    let end = |events: &[Event]| -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::FindingRecorded(f) => Some(format!("{}: {}", f.key, f.body.summary())),
                _ => None,
            })
            .collect()
    };
    let expected = end(&full.events);
    for n in 1..full.events.len() {
        let prefix = full.events[..n].to_vec();
        let finished: Vec<String> = prefix
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::TurnFinished { call, .. } => Some(call.to_string()),
                _ => None,
            })
            .collect();
        let resumed = resume_scripted(prefix, script(vec![]));
        assert_eq!(resumed.outcome, Outcome::Completed, "from {n}");
        assert!(
            resumed.warnings.is_empty(),
            "from {n}: {:?}",
            resumed.warnings
        );
        for call in resumed.calls() {
            assert!(!finished.contains(&call), "from {n}: {call} asked again");
        }
        assert_eq!(end(&resumed.events), expected, "from {n}");
    }
}

#[test]
fn a_council_has_two_to_eight_members_and_an_analyst_of_its_own() {
    assert!(config(2, false).validate().is_ok());
    assert!(config(8, false).validate().is_ok());
    let one = config(1, false).validate().unwrap_err();
    assert!(one.contains("between 2 and 8"), "{one}");
    assert!(config(9, false).validate().is_err());
    let mut c = config(3, false);
    c.analyst = CHAIR.into();
    assert!(c.validate().is_err());
    // The vote names members by name: two alike could not be told apart.
    let mut c = config(3, false);
    c.seats[2].name = "member 1".into();
    let twice = c.validate().unwrap_err();
    assert!(
        twice.contains("Two members are named \"member 1\""),
        "{twice}"
    );
}

#[test]
fn a_council_of_two_is_ranked_by_whether_each_member_puts_the_other_first() {
    let run = run(
        config(2, false),
        script(vec![
            json!({"path": "review/", "seat": "member-1", "text": ballot(&["B", "A"])}),
            json!({"path": "review/", "seat": "member-2", "text": ballot(&["A", "B"])}),
        ]),
    );
    let ballots = ballots(&run.events);
    assert_eq!(ballots.len(), 2);
    // A point for each ballot that put the other member's answer above the reviewer's own.
    let mut points = std::collections::BTreeMap::new();
    for (b, reviewer) in ballots.iter().zip(["member-1", "member-2"]) {
        assert_eq!(b.ranking.len(), 2, "both answers, its own among them");
        let best = &b.ranking[0].seat;
        *points.entry(best.clone()).or_insert(0u32) += u32::from(best != reviewer);
    }
    let r = ranking(&run.events);
    assert_eq!(r.standings.len(), 2);
    for s in &r.standings {
        assert_eq!(
            s.points,
            points.get(&s.seat).copied().unwrap_or(0),
            "{}",
            s.seat
        );
    }
    // Each reviewer placed its own answer somewhere, so each has a self-preference.
    assert!(r.biases.iter().all(|b| b.self_preference.is_some()));
}
