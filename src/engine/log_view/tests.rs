use std::cell::RefCell;
use std::rc::Rc;

use super::*;
use crate::engine::cancel::CancelToken;
use crate::engine::clock::{run_virtual_with, VirtualClock};
use crate::engine::config::FormatId;
use crate::engine::context::{DebateCtx, EventLog, Inputs, Observer, Wiring};
use crate::engine::export::to_markdown;
use crate::engine::formats::defaults::default_config;
use crate::engine::formats::testing::scripted::model;
use crate::engine::script::{Script, ScriptedModel};

/// Follows a debate as the screens do: each event and each streamed fragment as it comes.
#[derive(Default)]
struct Live {
    view: RefCell<LogView>,
    log: EventLog,
}

impl Observer for Live {
    fn on_event(&self, event: &Event) {
        self.view.borrow_mut().apply(event);
        self.log.on_event(event);
    }
    fn on_delta(&self, call: &CallKey, seat: &str, delta: &str) {
        self.view.borrow_mut().delta(&call.to_string(), delta);
        self.log.on_delta(call, seat, delta);
    }
}

/// Runs `config` on a scripted model; returns the live view and the log.
fn run(config: DebateConfig, script: serde_json::Value) -> (LogView, Vec<Event>) {
    let script: Script = serde_json::from_value(script).unwrap();
    let clock = VirtualClock::new(1_000);
    let live = Rc::new(Live::default());
    let ctx = DebateCtx::start(
        config,
        7,
        0,
        Wiring {
            retry: Default::default(),
            limits: Default::default(),
            model: Rc::new(ScriptedModel::new(script, clock.clone())),
            clock: Rc::new(clock.clone()),
            observer: live.clone(),
            inputs: Inputs::new(),
            stop: CancelToken::new(),
        },
    );
    run_virtual_with(&clock, |_| async move {
        crate::engine::formats::drive(&ctx).await
    });
    let view = live.view.borrow().clone();
    let events = live.log.events.borrow().clone();
    (view, events)
}

fn debate(format: FormatId) -> DebateConfig {
    let mut c = default_config(format, "Should cities ban private cars?", &|_| {
        model("local")
    });
    if let crate::engine::config::FormatOptions::Classic(o) = &mut c.options {
        o.rounds = 1;
        o.scoring = true;
        o.fact_checker = true;
        c = crate::engine::formats::classic::new_config(
            &c.topic.clone(),
            "Yes",
            "No",
            o.clone(),
            |_| model("local"),
        );
    }
    c
}

const FORMATS: [FormatId; 5] = [
    FormatId::Classic,
    FormatId::Duelogic,
    FormatId::Forecast,
    FormatId::Crux,
    FormatId::Council,
];

/// What the screens show of a view: every block with its turn, the findings, the progress,
/// the reads, the spent's total, the holds and the outcome.
fn shown(v: &LogView) -> String {
    let blocks: Vec<String> = v
        .blocks
        .iter()
        .map(|b| match &b.kind {
            BlockKind::Turn(i) => format!("{} {:?}", b.key, v.turns[*i]),
            other => format!("{} {other:?}", b.key),
        })
        .collect();
    format!(
        "{}\n{:?}\n{:?}\n{:?}\n{} {:?} {} {} {:?}",
        blocks.join("\n"),
        v.findings,
        v.progress,
        v.reads,
        v.spent.total,
        v.cap,
        v.held,
        v.waiting,
        v.outcome
    )
}

#[test]
fn a_stored_log_shows_what_the_live_debate_showed_in_every_format() {
    for format in FORMATS {
        let (live, events) = run(debate(format), serde_json::json!({}));
        assert_eq!(
            live.outcome.as_ref().map(|o| o.0),
            Some(Outcome::Completed),
            "{format:?}"
        );
        let mut stored = LogView::of(&events);
        assert_eq!(stored.finish_stored(&[]), Vec::<usize>::new());
        assert_eq!(shown(&stored), shown(&live), "{format:?}");
        assert!(
            live.turns.len() > 4,
            "{format:?}: {} turns",
            live.turns.len()
        );
        assert!(
            live.turns.iter().all(|t| t.status == TurnStatus::Done),
            "{format:?}"
        );
    }
}

/// The turns' headings as the screen shows them: in its blocks' order.
fn screen_headings(view: &LogView) -> Vec<String> {
    view.blocks
        .iter()
        .filter_map(|b| match b.kind {
            BlockKind::Turn(i) => Some(&view.turns[i]),
            _ => None,
        })
        .map(|t| format!("### {} — {}", t.speaker, t.label))
        .collect()
}

/// The Markdown export and the view agree on every finished turn: its speaker, its label
/// and its text, under one heading each, in the screen's order.
#[test]
fn the_markdown_export_and_the_view_agree_on_every_turn_in_every_format() {
    for format in FORMATS {
        let (view, events) = run(debate(format), serde_json::json!({}));
        let md = to_markdown(&events);
        let headings: Vec<&str> = md.lines().filter(|l| l.starts_with("### ")).collect();
        assert_eq!(headings, screen_headings(&view), "{format:?}");
        for t in &view.turns {
            let section = format!("### {} — {}\n\n{}\n\n", t.speaker, t.label, t.text.trim());
            assert!(md.contains(&section), "{format:?}: {section}\nnot in\n{md}");
        }
    }
}

/// A forecast's roles speak at once and finish in any order; the transcript lists them as
/// the screen does (in the order they started), not in the order they finished.
#[test]
fn calls_that_run_at_once_are_exported_in_the_screens_order() {
    // The first role to start answers last.
    let script = serde_json::json!({ "answers": [
        { "seat": "optimist", "purpose": "argument", "first_delay_ms": 5_000 }
    ]});
    let (view, events) = run(debate(FormatId::Forecast), script);
    let finished: Vec<&str> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnFinished { seat, .. } => Some(seat.as_str()),
            _ => None,
        })
        .collect();
    let started: Vec<&str> = view
        .blocks
        .iter()
        .filter_map(|b| match b.kind {
            BlockKind::Turn(i) => Some(view.turns[i].seat.as_str()),
            _ => None,
        })
        .collect();
    assert_ne!(finished, started, "the optimist finishes after the others");
    // Read from the log itself: each call's heading where its turn started.
    let config = view.config.as_ref().unwrap();
    let by_start: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnStarted { seat, label, .. } => {
                Some(format!("### {} — {label}", config.seat(seat).unwrap().name))
            }
            _ => None,
        })
        .collect();
    let md = to_markdown(&events);
    let headings: Vec<&str> = md.lines().filter(|l| l.starts_with("### ")).collect();
    assert_eq!(headings, by_start);
    assert_eq!(headings, screen_headings(&view));
}

#[test]
fn a_turn_left_streaming_in_a_stored_log_shows_as_interrupted_with_its_saved_text() {
    let (_, events) = run(debate(FormatId::Classic), serde_json::json!({}));
    // The tab closed while the second turn streamed: the log ends at its start.
    let started: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.kind, EventKind::TurnStarted { .. }))
        .map(|(i, _)| i)
        .collect();
    let cut = &events[..=started[1]];
    let EventKind::TurnStarted { call, .. } = &cut.last().unwrap().kind else {
        unreachable!()
    };
    let mut v = LogView::of(cut);
    let i = v.turn_index(&call.to_string()).unwrap();
    assert_eq!(v.turns[i].status, TurnStatus::Streaming);
    let changed = v.finish_stored(&[(call.clone(), "Cars crowd the".into())]);
    assert_eq!(changed, vec![i]);
    assert_eq!(v.turns[i].status, TurnStatus::Interrupted);
    assert_eq!(v.turns[i].status.id(), "interrupted");
    assert_eq!(v.turns[i].text, "Cars crowd the");
    assert_eq!(
        v.turns[0].status,
        TurnStatus::Done,
        "the finished turn stays"
    );
}

#[test]
fn a_retried_call_keeps_its_failed_attempt_quietly_and_shows_the_retry_after_its_countdown() {
    let config = debate(FormatId::Classic);
    let (view, _) = run(
        config,
        serde_json::json!({"answers": [
            {"path": "opening/position-a", "occurrence": 0, "fault": {"status": 503}},
        ]}),
    );
    let call = "opening/position-a";
    let attempts: Vec<&Turn> = view
        .turns
        .iter()
        .filter(|t| t.call.to_string() == call)
        .collect();
    assert_eq!(attempts.len(), 2, "the failed attempt stays visible");
    // Kept as a quiet note, not as a failed turn: its call was answered.
    assert_eq!(attempts[0].status, TurnStatus::Retried);
    assert!(attempts[0].error.as_deref().unwrap().contains("503"));
    assert_eq!(attempts[1].status, TurnStatus::Done);
    // The call's turn is its latest attempt, and its countdown stands between the two.
    assert_eq!(view.turn(call).unwrap().status, TurnStatus::Done);
    let at = |want: &dyn Fn(&BlockKind) -> bool| view.blocks.iter().position(|b| want(&b.kind));
    let first =
        at(&|k| matches!(k, BlockKind::Turn(i) if view.turns[*i].status == TurnStatus::Retried));
    let retry = at(&|k| matches!(k, BlockKind::Retry { attempt: 2, .. }));
    let second = view.blocks.iter().rposition(
        |b| matches!(b.kind, BlockKind::Turn(i) if view.turns[i].call.to_string() == call),
    );
    assert!(
        first < retry && retry < second,
        "{first:?} {retry:?} {second:?}"
    );
}

#[test]
fn every_judgement_attaches_to_its_turn_and_other_findings_stand_where_they_happened() {
    for format in [FormatId::Classic, FormatId::Duelogic] {
        let (view, _) = run(debate(format), serde_json::json!({}));
        let attached = |f: &Finding| {
            matches!(
                f.body,
                FindingBody::Evaluation(_) | FindingBody::FactCheck { .. }
            )
        };
        let judged: Vec<&Finding> = view.findings.iter().filter(|f| attached(f)).collect();
        assert!(!judged.is_empty(), "{format:?}");
        for f in judged {
            let about = f.about.as_ref().unwrap().to_string();
            assert_eq!(
                view.turn(&about).unwrap().judged.as_ref(),
                Some(f),
                "{format:?}"
            );
            assert!(
                !view
                    .blocks
                    .iter()
                    .any(|b| b.kind == BlockKind::Finding(f.clone())),
                "{format:?}: a judgement is not shown twice"
            );
        }
        for f in view.findings.iter().filter(|f| !attached(f)) {
            assert!(
                view.blocks
                    .iter()
                    .any(|b| b.kind == BlockKind::Finding(f.clone())),
                "{format:?}: {}",
                f.key
            );
        }
    }
}

/// Held at a failed call, the view shows the hold (the screens offer Resume); paused at
/// the cap it shows the wait; resumed, neither; finished, the outcome and no hold.
#[test]
fn holds_pauses_and_the_end_show_the_right_state() {
    let (_, events) = run(debate(FormatId::Classic), serde_json::json!({}));
    let start = events[0].clone();
    let ev = |seq: u32, kind: EventKind| Event {
        seq,
        at_ms: 2_000 + seq as u64,
        kind,
    };
    let mut v = LogView::of(&[start]);
    let held = v.apply(&ev(
        1,
        EventKind::Paused {
            reason: "The key was refused.".into(),
            needs_resume: true,
        },
    ));
    assert!(held.contains(&Change::Holds));
    assert!(v.held && !v.waiting);
    let note = v.blocks.last().unwrap();
    assert_eq!(
        note.kind,
        BlockKind::Note {
            text: "The key was refused.".into(),
            error: true,
            kind: NoteKind::Paused
        }
    );
    v.apply(&ev(2, EventKind::Resumed));
    assert!(!v.held && !v.waiting);
    v.apply(&ev(
        3,
        EventKind::Paused {
            reason: "Paused at the spending cap.".into(),
            needs_resume: false,
        },
    ));
    assert!(v.waiting && !v.held);
    v.apply(&ev(
        4,
        EventKind::Finished {
            outcome: Outcome::Stopped,
            message: None,
        },
    ));
    assert!(!v.waiting && !v.held);
    assert_eq!(v.outcome, Some((Outcome::Stopped, None)));
    // A spending cap set while it ran shows in force, with its note.
    let changes = v.apply(&ev(
        5,
        EventKind::InputReceived {
            input: Input::SpendingCap { usd: Some(0.5) },
            before: CallKey::new("closing/position-a", 0),
        },
    ));
    assert!(changes.contains(&Change::Cap));
    assert_eq!(v.cap, Some(0.5));
}

/// A speech cut at a sentence (duelogic's interruption) shows the text up to the cut,
/// however much more had streamed by then, live and stored alike.
#[test]
fn a_turn_cut_at_a_sentence_shows_the_text_up_to_the_cut() {
    let mut config = debate(FormatId::Duelogic);
    if let crate::engine::config::FormatOptions::Duelogic(o) = &mut config.options {
        o.rounds = 1;
    }
    let script: serde_json::Value =
        serde_json::from_str(include_str!("../../../tests/scripts/e2e-duelogic.json")).unwrap();
    let (live, events) = run(config, script);
    let cut = live.turn("round/1/chair-1").unwrap();
    assert_eq!(cut.status, TurnStatus::Cut);
    assert!(
        cut.text.ends_with("Fewer cars means fewer deaths."),
        "{}",
        cut.text
    );
    assert!(cut.cut_by.is_some());
    let stored = LogView::of(&events);
    assert_eq!(stored.turn("round/1/chair-1").unwrap().text, cut.text);
}

#[test]
fn quotes_are_checked_against_the_sources_and_evidence_and_survive_export_and_import() {
    use crate::engine::event::Input;
    use crate::engine::export::{import, to_json};
    use crate::engine::formats::testing::scripted::run_scripted;
    use crate::engine::sources::{Origin, Source};

    let mut config = debate(FormatId::Classic);
    config.sources = vec![Source::new(
        "S1",
        "Stockholm report",
        Origin::File {
            name: "stockholm.txt".into(),
        },
        "The charge cut traffic across the cordon by about 20 percent.\n\nShops did not lose customers.",
    )
    .unwrap()];
    let inputs = Inputs::new();
    inputs.push(Input::Evidence {
        text: "Residents voted 53 to 47 to keep the charge.".into(),
    });
    let script: Script = serde_json::from_value(serde_json::json!({"answers": [
        {"seat": "position-a", "purpose": "argument",
         "text": "Cut it: <quote>the charge cut traffic across the cordon</quote>, and <quote>residents voted 53 to 47</quote>."},
        {"seat": "position-b", "purpose": "argument",
         "text": "But <quote>shops lost half their customers</quote>."}
    ]}))
    .unwrap();
    let r = run_scripted(config, script, inputs);
    assert_eq!(r.outcome, Outcome::Completed);
    let view = LogView::of(&r.events);
    assert_eq!(
        view.sources
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>(),
        ["S1", "E1"]
    );
    let a = view
        .turns
        .iter()
        .find(|t| t.seat == "position-a" && !t.quotes.is_empty())
        .expect("a quoting turn");
    let found: Vec<Option<String>> = a
        .quotes
        .iter()
        .map(|q| q.found.as_ref().map(|f| f.label()))
        .collect();
    assert_eq!(
        found,
        [Some("S1 ¶1".to_string()), Some("E1 ¶1".to_string())]
    );
    let b = view
        .turns
        .iter()
        .find(|t| t.seat == "position-b" && !t.quotes.is_empty())
        .unwrap();
    assert!(!b.quotes[0].verified());

    let counts = view.quote_counts();
    let a_count = counts.iter().find(|c| c.seat == "position-a").unwrap();
    let b_count = counts.iter().find(|c| c.seat == "position-b").unwrap();
    assert!(a_count.made >= 2 && a_count.verified == a_count.made);
    assert!(b_count.made >= 1 && b_count.not_found() == b_count.made);

    let md = to_markdown(&r.events);
    assert!(md.contains("- Quote verified in S1 ¶1 (Stockholm report): “the charge cut traffic across the cordon”"), "{md}");
    assert!(md.contains("- Quote not found in any source: “shops lost half their customers”"));
    assert!(md.contains("## Sources"));
    assert!(
        md.contains("- **S1** Stockholm report (file stockholm.txt, 92 characters)"),
        "{md}"
    );
    assert!(md.contains(&format!(
        "| Position A | {} | {} | 0 |",
        a_count.made, a_count.verified
    )));

    // The folder (the zip) carries each source whole and each message its quotes.
    let files = crate::engine::export::to_folder(&r.events, false);
    let file = |name: &str| {
        files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    };
    assert!(file("sources/s1.md").is_some_and(|t| t.contains("Shops did not lose customers.")));
    assert!(file("sources/e1.md").is_some_and(|t| t.contains("Residents voted 53 to 47")));
    assert!(file("index.md").is_some_and(|t| t.contains("- [S1 Stockholm report](sources/s1.md)")));
    assert!(files
        .iter()
        .any(|(n, t)| n.starts_with("messages/") && t.contains("- Quote not found in any source")));

    // A share link too long with the documents carries the debate without them: its
    // quotes of them read as not checked, never as not found; the evidence stays.
    let slim = crate::engine::export::without_sources(&r.events).unwrap();
    let slim = import(&to_json(&slim)).expect("a slim copy imports");
    let md = to_markdown(&slim);
    assert!(md.contains("- Quote not checked (this copy of the debate left its sources out): “the charge cut traffic across the cordon”"), "{md}");
    assert!(md.contains("- Quote verified in E1 ¶1"));
    assert!(md.contains("left its 1 source document out"));
    assert!(!md.contains("Quote not found"));

    // The export carries the sources, and the imported debate checks its quotes the same.
    let back = import(&to_json(&r.events)).expect("imports");
    let again = LogView::of(&back);
    assert_eq!(again.sources, view.sources);
    assert_eq!(again.quote_counts(), counts);
}

#[test]
fn every_format_checks_its_speakers_quotes_against_the_sources() {
    use crate::engine::sources::{Origin, Source};
    let said = "As the report says, <quote>the charge cut traffic across the cordon</quote>, though some claim <quote>the charge doubled rents</quote>.";
    for format in FORMATS {
        let mut config = debate(format);
        config.sources = vec![Source::new(
            "S1",
            "Report",
            Origin::Pasted,
            "The charge cut traffic across the cordon by about 20 percent.",
        )
        .unwrap()];
        let text = if format == FormatId::Forecast {
            serde_json::json!({
                "argument": said,
                "outcome_supported": "yes",
                "evidence": ["the report"],
                "rebuts": ["pessimist"],
                "references": ["the report"],
                "probabilities": [{"outcome": "yes", "probability": 0.6}, {"outcome": "no", "probability": 0.4}],
                "confidence": 0.7,
                "precedents": [
                    {"event": "London 2003", "date": "2003", "outcome": "kept", "similarity": 0.6, "relevance": "same charge"},
                    {"event": "Edinburgh 2005", "date": "2005", "outcome": "rejected", "similarity": 0.5, "relevance": "a vote"}
                ]
            })
            .to_string()
        } else {
            said.to_string()
        };
        let (view, _) = run(
            config,
            serde_json::json!({"answers": [{"purpose": "argument", "text": text}]}),
        );
        let quoted: Vec<&Turn> = view
            .turns
            .iter()
            .filter(|t| t.purpose == Purpose::Argument && !t.quotes.is_empty())
            .collect();
        assert!(
            quoted.len() >= 2,
            "{format:?}: {} quoting turns",
            quoted.len()
        );
        for t in &quoted {
            let found: Vec<bool> = t.quotes.iter().map(|q| q.verified()).collect();
            assert_eq!(found, [true, false], "{format:?} {}", t.call);
        }
        let counts = view.quote_counts();
        assert!(!counts.is_empty(), "{format:?}");
        assert!(
            counts.iter().all(|c| c.made == 2 * c.verified),
            "{format:?} {counts:?}"
        );
    }
}

#[test]
fn pages_a_web_search_cited_become_sources_the_next_speeches_read_and_quote() {
    use crate::engine::export::{import, to_json};
    use crate::engine::formats::testing::scripted::{resume_scripted, run_scripted};

    let mut config = debate(FormatId::Classic);
    config.search_web = vec!["position-a".into()];
    let script: Script = serde_json::from_value(serde_json::json!({"answers": [
        {"seat": "position-a", "purpose": "argument", "occurrence": 0,
         "text": "Stockholm shows it works.",
         "citations": [
            {"url": "https://example.org/stockholm", "title": "Stockholm trial", "cited_text": "Traffic across the cordon fell by about 20 percent."},
            {"url": "javascript:alert(1)", "title": "hostile"},
            {"url": "https://example.org/map", "title": ""}
         ]},
        {"seat": "position-b", "purpose": "argument",
         "text": "Even their page says <quote>traffic across the cordon fell by about 20 percent</quote>, no more."},
        {"seat": "position-a", "purpose": "argument", "text": "Twenty percent is a lot."}
    ]}))
    .unwrap();
    let r = run_scripted(config.clone(), script.clone(), Inputs::new());
    assert_eq!(r.outcome, Outcome::Completed);

    // Only the seat that searches asks for it, and only in its speeches.
    for q in &r.requests {
        assert_eq!(
            q.search_web,
            q.seat == "position-a" && q.purpose == Purpose::Argument && !q.json,
            "{}",
            q.call
        );
    }
    let view = LogView::of(&r.events);
    let first = view.turns.iter().find(|t| t.seat == "position-a").unwrap();
    let web = first.web.as_ref().expect("the search shows under its turn");
    let urls: Vec<&str> = web.citations.iter().map(|c| c.url.as_str()).collect();
    assert_eq!(
        urls,
        ["https://example.org/stockholm", "https://example.org/map"]
    );
    let ids: Vec<&str> = view.sources.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["W1", "W2"]);

    // The next speech gets the page's words as a passage, and its quote of them verifies.
    let b = r.requests.iter().find(|q| q.seat == "position-b").unwrap();
    assert!(b
        .messages
        .iter()
        .any(|m| m.content.contains("[W1 ¶1 · Stockholm trial]")));
    let quoted = view
        .turns
        .iter()
        .find(|t| t.seat == "position-b" && !t.quotes.is_empty())
        .unwrap();
    assert_eq!(
        quoted.quotes[0].found.as_ref().map(|f| f.label()),
        Some("W1 ¶1".to_string())
    );

    // Exports carry the links, and an imported or resumed debate has the same sources.
    let md = to_markdown(&r.events);
    assert!(md.contains("- Web: [Stockholm trial](https://example.org/stockholm) — “Traffic across the cordon fell by about 20 percent.”"), "{md}");
    assert!(md.contains(
        "- **W1** Stockholm trial (cited by a web search, https://example.org/stockholm"
    ));
    assert!(!md.contains("javascript"));
    let files = crate::engine::export::to_folder(&r.events, false);
    let page = files.iter().find(|(n, _)| n == "sources/w2.md").unwrap();
    assert!(page.1.contains("- Page: https://example.org/map"));
    assert!(page.1.contains("has not read the page"));
    let back = import(&to_json(&r.events)).expect("imports");
    assert_eq!(LogView::of(&back).sources, view.sources);
    for cut in 1..r.events.len() {
        let resumed = resume_scripted(r.events[..cut].to_vec(), script.clone());
        assert_eq!(resumed.outcome, Outcome::Completed, "resumed at {cut}");
        assert_eq!(
            LogView::of(&resumed.events).sources,
            view.sources,
            "resumed at {cut}"
        );
    }
}

#[test]
fn a_turn_written_without_its_search_says_why() {
    let mut config = debate(FormatId::Classic);
    config.search_web = vec!["position-a".into()];
    let (view, events) = run(
        config,
        serde_json::json!({"answers": [{"seat": "position-a", "purpose": "argument", "text": "From memory."}]}),
    );
    // The scripted model searched and cited nothing: nothing to show, nothing recorded.
    assert!(view.turns.iter().all(|t| t.web.is_none()));
    assert!(!events
        .iter()
        .any(|e| matches!(e.kind, EventKind::WebSearched { .. })));

    // A refused search, as the router records it.
    let mut with_refusal = Vec::new();
    for e in &events {
        with_refusal.push(e.clone());
        if let EventKind::TurnStarted { call, seat, .. } = &e.kind {
            if seat == "position-a" {
                with_refusal.push(Event {
                    seq: 999,
                    at_ms: 0,
                    kind: EventKind::WebSearched {
                        call: call.clone(),
                        seat: seat.clone(),
                        web: crate::engine::sources::web::WebSearch::failed(
                            "The provider refused the web search (no tool); this turn was written without it.",
                        ),
                    },
                });
            }
        }
    }
    let v = LogView::of(&with_refusal);
    let t = v.turns.iter().find(|t| t.seat == "position-a").unwrap();
    assert!(t
        .web
        .as_ref()
        .unwrap()
        .failed
        .contains("written without it"));
    assert!(v.sources.is_empty());
    assert!(to_markdown(&with_refusal)
        .contains("- Web search: The provider refused the web search (no tool); this turn was written without it."));
}
