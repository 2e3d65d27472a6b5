//! A tournament run through the session on the scripted model and the in-memory store:
//! every debate is an ordinary stored debate, each model judge gives one verdict per debate
//! it may judge, and a tournament stopped half-way (a closed tab) goes on from its log with
//! no debate run twice.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use agora::engine::clock::{run_virtual_with, Clock, VirtualClock};
use agora::engine::config::{FormatId, Participant};
use agora::engine::model::ChatModel;
use agora::engine::script::{Script, ScriptedModel};
use agora::engine::tournament::progress::{Tournament, TournamentEvent};
use agora::engine::tournament::spec::TournamentSpec;
use agora::engine::tournament::standings::standings;
use agora::session::runner::{DebateLock, LockDebate};
use agora::session::tournament::TournamentRun;
use agora::session::{Connection, Session};
use agora::store::memory::MemoryStore;
use agora::store::Store;

fn locks() -> LockDebate {
    Rc::new(|_id: &str| Box::pin(async { Some(Box::new(()) as DebateLock) }))
}

fn session(
    clock: &VirtualClock,
    store: Rc<MemoryStore>,
    spawner: futures::executor::LocalSpawner,
) -> Rc<Session> {
    let c = clock.clone();
    let providers: agora::session::router::ProviderFactory = Rc::new(move |_c: &Connection| {
        Rc::new(ScriptedModel::new(Script::default(), c.clone())) as Rc<dyn ChatModel>
    });
    let env = common::session_env(clock, store, spawner, providers, locks());
    let mut conn = Connection::openai_compatible(
        "cloud",
        "Cloud",
        "https://api.example.com/v1",
        "m",
        "sk-test",
    );
    conn.concurrency = 2;
    Session::new(env, vec![conn])
}

/// Where a run hands its log: the store, as the app's does, and the test's copy.
fn saver(
    store: Rc<MemoryStore>,
    sink: Rc<RefCell<Vec<TournamentEvent>>>,
) -> impl Fn(&[TournamentEvent]) {
    use futures::FutureExt;
    move |l| {
        let json = serde_json::to_string(l).unwrap();
        store
            .put_tournament("t", &json)
            .now_or_never()
            .unwrap()
            .unwrap();
        *sink.borrow_mut() = l.to_vec();
    }
}

fn model(name: &str) -> Participant {
    Participant::Model {
        connection: "cloud".into(),
        connection_label: "Cloud".into(),
        model: name.into(),
        context_tokens: 16_000,
        price: Some(agora::engine::cost::Price {
            input: 1.0,
            output: 2.0,
        }),
    }
}

fn spec() -> TournamentSpec {
    TournamentSpec {
        name: "Three models".into(),
        format: FormatId::Classic,
        motions: vec!["Cities should ban cars".into()],
        contestants: vec![model("alpha"), model("beta"), model("gamma")],
        // The second judge is gamma's model: it judges only alpha against beta.
        judges: vec![model("judge-one"), model("gamma")],
        host: model("host"),
        seed: 42,
        spending_cap: None,
    }
}

/// Runs the tournament from `log` until it ends, or stops it after `stop_after` of its
/// events were recorded; returns the log.
fn run(
    clock: &VirtualClock,
    store: Rc<MemoryStore>,
    log: Vec<TournamentEvent>,
    stop_after: Option<usize>,
) -> Vec<TournamentEvent> {
    let clock2 = clock.clone();
    run_virtual_with(clock, move |spawner| {
        let store2 = store.clone();
        let s = session(&clock2, store, spawner);
        let saved: Rc<RefCell<Vec<TournamentEvent>>> = Rc::new(RefCell::new(log.clone()));
        let sink = saved.clone();
        let start = log.len();
        let run = TournamentRun::new(s, "t", log, saver(store2, sink)).unwrap();
        let stopper = run.clone();
        let watch = saved.clone();
        async move {
            let done = Rc::new(std::cell::Cell::new(false));
            let finished = done.clone();
            let go = async move {
                run.clone().run().await.unwrap();
                finished.set(true);
            };
            // Stops the run (as its Stop button does) once `n` more events are in, unless
            // it ended first.
            let stop = async move {
                if let Some(n) = stop_after {
                    while !done.get() && watch.borrow().len() < start + n {
                        clock2.sleep(5).await;
                    }
                    if !done.get() {
                        stopper.stop();
                    }
                }
            };
            futures::join!(go, stop);
            let out = saved.borrow().clone();
            out
        }
    })
}

/// Runs a new tournament of `spec` until its run ends.
fn run_new(spec: TournamentSpec) -> (VirtualClock, Rc<MemoryStore>, Vec<TournamentEvent>) {
    let clock = VirtualClock::new(1_700_000_000_000);
    let store = Rc::new(MemoryStore::new());
    let log = run(
        &clock,
        store.clone(),
        vec![TournamentEvent::Started { spec }],
        None,
    );
    (clock, store, log)
}

#[test]
fn a_tournament_runs_every_debate_once_and_each_judge_judges_what_it_may() {
    let (_, store, log) = run_new(spec());
    let t = Tournament::from_events(&log).unwrap();
    assert!(t.finished(), "{:?}", log.last());
    // 3 pairings × 1 motion × 2 legs, each an ordinary stored debate.
    let stored = futures::executor::block_on(store.list()).unwrap();
    assert_eq!(stored.len(), 6);
    assert!(t.progress.iter().all(|p| p.completed()));
    // Judge one judges all six; gamma's model only the two debates gamma is not in.
    let votes = |j: usize| {
        t.progress
            .iter()
            .filter(|p| p.votes.iter().any(|v| v.judge == j))
            .count()
    };
    assert_eq!((votes(0), votes(1)), (6, 2));
    let s = standings(&t);
    assert_eq!(s.judged, 6, "every debate has a result: {:?}", s.rows);
    assert_eq!(s.unreadable_votes, 0, "the schema's answers are read");
    // Every party's spend is counted, the judges' too.
    assert!(s
        .rows
        .iter()
        .all(|r| r.spend.output_tokens > 0 && r.spend.usd > 0.0));
    assert!(t.judges.iter().all(|j| j.usd > 0.0));
}

#[test]
fn a_stopped_tournament_goes_on_from_its_log_with_no_debate_run_twice() {
    let clock = VirtualClock::new(1_700_000_000_000);
    let store = Rc::new(MemoryStore::new());
    let mut log = vec![TournamentEvent::Started { spec: spec() }];
    // Stopped after every few events and run again from its log, until it is done.
    for round in 0..30 {
        log = run(&clock, store.clone(), log, Some(3));
        if Tournament::from_events(&log).unwrap().finished() {
            assert!(round > 1, "it was stopped on the way");
            break;
        }
    }
    let t = Tournament::from_events(&log).unwrap();
    assert!(t.finished());
    let stored = futures::executor::block_on(store.list()).unwrap();
    assert_eq!(stored.len(), 6, "no debate was started twice");
    let starts = log
        .iter()
        .filter(|e| matches!(e, TournamentEvent::DebateStarted { .. }))
        .count();
    assert_eq!(starts, 6);
    let verdicts = log
        .iter()
        .filter(|e| matches!(e, TournamentEvent::Verdict { .. }))
        .count();
    assert_eq!(verdicts, 8, "no judge was asked twice");
    // Resumed debates of a tournament without a cap are not told of one.
    for d in futures::executor::block_on(store.list()).unwrap() {
        let events = futures::executor::block_on(store.load(&d.id))
            .unwrap()
            .unwrap()
            .events;
        assert!(!events.iter().any(|e| matches!(
            &e.kind,
            agora::engine::event::EventKind::InputReceived {
                input: agora::engine::event::Input::SpendingCap { .. },
                ..
            }
        )));
    }
    assert!(log
        .iter()
        .any(|e| matches!(e, TournamentEvent::Stopped { .. })));
}

/// A tab closed before a debate's first event was stored leaves the log naming a debate
/// that does not exist: that match starts again instead of the tournament failing for good.
#[test]
fn a_match_whose_debate_was_never_stored_starts_again() {
    let clock = VirtualClock::new(1_700_000_000_000);
    let store = Rc::new(MemoryStore::new());
    let log = vec![
        TournamentEvent::Started { spec: spec() },
        TournamentEvent::DebateStarted {
            match_id: "m0-0v1".into(),
            debate_id: "never-stored".into(),
        },
    ];
    let log = run(&clock, store.clone(), log, None);
    let t = Tournament::from_events(&log).unwrap();
    assert!(t.finished(), "{:?}", log.last());
    assert_ne!(t.progress[0].debate_id.as_deref(), Some("never-stored"));
    let stored = futures::executor::block_on(store.list()).unwrap();
    assert_eq!(stored.len(), 6);
}

/// A debate that reaches its share of the tournament's cap waits for a higher cap: the
/// tournament stops it and says so instead of waiting without a word, and once the cap is
/// raised the same debate goes on (no debate started twice).
#[test]
fn a_tournament_at_its_cap_stops_saying_so_and_goes_on_when_it_is_raised() {
    let mut s = spec();
    s.spending_cap = Some(0.002);
    let (clock, store, log) = run_new(s);
    let t = Tournament::from_events(&log).unwrap();
    assert!(!t.finished());
    let why = t.stopped.clone().expect("it stopped");
    assert!(why.contains("spending cap is reached"), "{why}");
    // Each debate at once had half of the cap, and its calls start only while their worst
    // case fits. The scripted model reports more input than the estimate counts (its
    // prompts' framing), so each debate passes its half by about a fifth: the same bound a
    // lone debate has, not a tournament's doubling of it.
    assert!(t.spent() <= 0.002 * 1.25, "the cap held: {}", t.spent());
    assert!(t
        .progress
        .iter()
        .all(|p| p.ended != Some(agora::engine::event::Outcome::Completed)));
    let started = |log: &[TournamentEvent]| {
        log.iter()
            .filter(|e| matches!(e, TournamentEvent::DebateStarted { .. }))
            .count()
    };
    let before = started(&log);
    assert!(before >= 1);
    let mut log = log;
    log.push(TournamentEvent::CapChanged { usd: None });
    let log = run(&clock, store.clone(), log, None);
    let t = Tournament::from_events(&log).unwrap();
    assert!(t.finished(), "{:?}", t.stopped);
    assert_eq!(
        started(&log),
        6,
        "the capped debates were resumed, not started again"
    );
    let stored = futures::executor::block_on(store.list()).unwrap();
    assert_eq!(stored.len(), 6);
}

/// A person on the panel: the run does everything else and leaves the person's verdicts,
/// which are theirs alone to give, each in the order their blind view showed.
#[test]
fn a_person_judges_after_the_models_and_only_what_is_theirs() {
    let mut s = spec();
    s.judges = vec![model("judge-one"), Participant::Human];
    let (clock, store, log) = run_new(s);
    let t = Tournament::from_events(&log).unwrap();
    assert!(t.stopped.is_none(), "{:?}", t.stopped);
    assert_eq!(
        t.counts(),
        (6, 6),
        "every debate, and the model judge's verdicts"
    );
    let pending: Vec<_> = t.work(&[]);
    assert_eq!(pending.len(), 6, "{pending:?}");
    let clock2 = clock.clone();
    let log = run_virtual_with(&clock, move |spawner| {
        let store2 = store.clone();
        let s = session(&clock2, store, spawner);
        let saved = Rc::new(RefCell::new(log.clone()));
        let sink = saved.clone();
        let run = TournamentRun::new(s, "t", log, saver(store2, sink)).unwrap();
        async move {
            use agora::engine::tournament::verdict::Decision;
            assert!(run
                .decide(0, 0, Decision::Tie, String::new())
                .await
                .unwrap_err()
                .contains("not yours"));
            for i in 0..6 {
                run.decide(i, 1, Decision::Side(0), "clearer".into())
                    .await
                    .unwrap();
            }
            let out = saved.borrow().clone();
            out
        }
    });
    let t = Tournament::from_events(&log).unwrap();
    assert!(t.finished());
    let person: Vec<_> = t
        .progress
        .iter()
        .filter_map(|p| p.votes.iter().find(|v| v.judge == 1))
        .collect();
    assert_eq!(person.len(), 6);
    // Each blind order is the one drawn for that judge and debate, not always the same.
    assert!(person.iter().all(|v| v.reason == "clearer"));
    for (m, p) in t.matches.iter().zip(&t.progress) {
        let v = p.votes.iter().find(|v| v.judge == 1).unwrap();
        assert_eq!(
            v.shown_first,
            agora::engine::tournament::schedule::shown_first(t.spec.seed, &m.id, 1),
            "{}",
            m.id
        );
    }
}

/// Stop, then Run again on the same run (as the screen's buttons do in one tab): the
/// second run goes on where the first stopped, and another tab's run (a second
/// `TournamentRun` over an older copy of the log) goes on from the stored log, not its own.
#[test]
fn a_run_stopped_in_a_tab_goes_on_there_and_a_stale_copy_starts_nothing_twice() {
    let clock = VirtualClock::new(1_700_000_000_000);
    let store = Rc::new(MemoryStore::new());
    let first = vec![TournamentEvent::Started { spec: spec() }];
    let clock2 = clock.clone();
    let store2 = store.clone();
    let log = run_virtual_with(&clock, move |spawner| {
        let s = session(&clock2, store2.clone(), spawner);
        let saved = Rc::new(RefCell::new(first.clone()));
        let run = TournamentRun::new(
            s.clone(),
            "t",
            first.clone(),
            saver(store2.clone(), saved.clone()),
        )
        .unwrap();
        // A second tab's copy, made before anything ran.
        let stale = TournamentRun::new(s, "t", first, saver(store2, saved.clone())).unwrap();
        async move {
            let stopper = run.clone();
            let watch = saved.clone();
            let stop_soon = async move {
                while watch.borrow().len() < 4 {
                    clock2.sleep(5).await;
                }
                stopper.stop();
            };
            let (r, ()) = futures::join!(run.clone().run(), stop_soon);
            r.unwrap();
            let stopped = saved.borrow().clone();
            assert!(matches!(
                stopped.last(),
                Some(TournamentEvent::Stopped { .. })
            ));
            assert!(!Tournament::from_events(&stopped).unwrap().finished());
            // Run again in the same tab: it goes on.
            run.clone().run().await.unwrap();
            assert!(Tournament::from_events(&saved.borrow()).unwrap().finished());
            // The stale copy reads the stored log first: nothing is left to do.
            let before = saved.borrow().len();
            stale.clone().run().await.unwrap();
            assert_eq!(
                saved.borrow().len(),
                before,
                "the stale copy recorded nothing"
            );
            let out = saved.borrow().clone();
            out
        }
    });
    let starts = log
        .iter()
        .filter(|e| matches!(e, TournamentEvent::DebateStarted { .. }))
        .count();
    assert_eq!(starts, 6, "no debate started twice");
    assert_eq!(futures::executor::block_on(store.list()).unwrap().len(), 6);
}
