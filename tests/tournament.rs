//! A tournament run through the session on the scripted model and the in-memory store:
//! every debate is an ordinary stored debate, each model judge gives one verdict per debate
//! it may judge, and a tournament stopped half-way (a closed tab) goes on from its log with
//! no debate run twice.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::rc::Rc;

use agora::engine::clock::{run_virtual_with, Clock, VirtualClock};
use agora::engine::config::{FormatId, Participant};
use agora::engine::cost::NOISE;
use agora::engine::model::ChatModel;
use agora::engine::script::{Script, ScriptedModel};
use agora::engine::tournament::progress::{Tournament, TournamentEvent};
use agora::engine::tournament::spec::TournamentSpec;
use agora::engine::tournament::standings::standings;
use agora::session::runner::{DebateLock, LockDebate};
use agora::session::tournament::TournamentRun;
use agora::session::{Connection, Session, TournamentError};
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

/// Stores a log as a run would have, one record per event, for a run to open.
fn store_log(store: &MemoryStore, id: &str, log: &[TournamentEvent]) {
    use futures::FutureExt;
    for (seq, e) in log.iter().enumerate() {
        let t = Tournament::from_events(&log[..=seq]).unwrap();
        let summary = agora::store::TournamentSummary::of(id, &t, 0);
        store
            .append_tournament(&summary, seq as u32, e)
            .now_or_never()
            .unwrap()
            .unwrap();
    }
}

/// The tournament's log as stored.
fn stored_log(store: &MemoryStore, id: &str) -> Vec<TournamentEvent> {
    use futures::FutureExt;
    // The memory store answers at once: no executor needed, so a test's run may call it.
    store
        .tournament(id)
        .now_or_never()
        .unwrap()
        .unwrap()
        .unwrap()
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
        sources: Vec::new(),
        judges_read_sources: false,
    }
}

/// Runs stored tournament "t" until its run ends, or stops it after `stop_after` more of
/// its events were recorded; returns its stored log.
fn run(
    clock: &VirtualClock,
    store: Rc<MemoryStore>,
    stop_after: Option<usize>,
) -> Vec<TournamentEvent> {
    let clock2 = clock.clone();
    let store2 = store.clone();
    run_virtual_with(clock, move |spawner| {
        let s = session(&clock2, store2, spawner);
        async move {
            let run = TournamentRun::open(s, "t").await.unwrap().unwrap();
            let start = run.log().len();
            let stopper = run.clone();
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
                    while !done.get() && stopper.log().len() < start + n {
                        clock2.sleep(5).await;
                    }
                    if !done.get() {
                        stopper.stop();
                    }
                }
            };
            futures::join!(go, stop);
        }
    });
    stored_log(&store, "t")
}

/// Runs a new tournament of `spec` until its run ends.
fn run_new(spec: TournamentSpec) -> (VirtualClock, Rc<MemoryStore>, Vec<TournamentEvent>) {
    let clock = VirtualClock::new(1_700_000_000_000);
    let store = Rc::new(MemoryStore::new());
    store_log(&store, "t", &[TournamentEvent::Started { spec }]);
    let log = run(&clock, store.clone(), None);
    (clock, store, log)
}

/// Runs `f` with a session on a new store, under a new virtual clock.
fn in_session<F, Fut>(f: F)
where
    F: FnOnce(Rc<Session>, Rc<MemoryStore>, VirtualClock) -> Fut + 'static,
    Fut: std::future::Future<Output = ()> + 'static,
{
    let clock = VirtualClock::new(1_700_000_000_000);
    let store = Rc::new(MemoryStore::new());
    let c = clock.clone();
    run_virtual_with(&clock, move |spawner| {
        f(session(&c, store.clone(), spawner), store, c)
    })
}

/// Opens stored tournament "t" on a fresh session and hands it to `f`.
fn with_run<F, Fut>(clock: &VirtualClock, store: Rc<MemoryStore>, f: F)
where
    F: FnOnce(Rc<TournamentRun>) -> Fut + 'static,
    Fut: std::future::Future<Output = ()> + 'static,
{
    let clock2 = clock.clone();
    run_virtual_with(clock, move |spawner| {
        let s = session(&clock2, store, spawner);
        async move {
            let run = TournamentRun::open(s, "t").await.unwrap().unwrap();
            f(run).await
        }
    })
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
    store_log(&store, "t", &[TournamentEvent::Started { spec: spec() }]);
    let mut log = Vec::new();
    // Stopped after every few events and run again from its log, until it is done. Each
    // run only appends: every record stored before it is still there, unchanged.
    for round in 0..30 {
        let before = store.tournament_records("t");
        log = run(&clock, store.clone(), Some(3));
        let after = store.tournament_records("t");
        assert!(after.len() > before.len(), "each run recorded something");
        assert_eq!(
            after[..before.len()],
            before[..],
            "no record was written again"
        );
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
    store_log(&store, "t", &log);
    let log = run(&clock, store.clone(), None);
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
    assert!(why.contains("spending cap of $0.0020"), "{why}");
    // Each debate at once had its share of the cap, and each of its calls started only if
    // its worst case fit in that share; each verdict held its own worst case: the cap held,
    // with no tolerance.
    assert!(t.spent() <= 0.002, "the cap held: {}", t.spent());
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
    // The cap taken away (as the screen's "Set cap" does with an empty field).
    with_run(&clock, store.clone(), |run| async move {
        run.set_cap(None).await.unwrap();
    });
    let log = run(&clock, store.clone(), None);
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

/// Whatever the cap, from less than one debate's worth to most of the tournament, it is
/// never passed: debates run two at a time on shares of it, and verdicts hold their own
/// worst case (the answer and its repair) before they are asked.
#[test]
fn no_cap_is_ever_passed_by_the_debates_and_verdicts_it_covers() {
    for cap in [0.000_4, 0.001, 0.003, 0.006, 0.012, 0.024, 0.048, 0.096] {
        let mut s = spec();
        s.spending_cap = Some(cap);
        let (_, _, log) = run_new(s);
        let t = Tournament::from_events(&log).unwrap();
        assert!(
            t.spent() <= cap + NOISE,
            "{} spent of a {cap} cap",
            t.spent()
        );
        println!(
            "cap {cap}: {} spent, {} verdicts, finished {}",
            t.spent(),
            t.counts().1,
            t.finished()
        );
        assert!(t.finished() || t.stopped.is_some());
    }
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
    with_run(&clock, store.clone(), |run| async move {
        use agora::engine::tournament::verdict::Decision;
        assert_eq!(
            run.decide(0, 0, Decision::Tie, String::new()).await,
            Err(TournamentError::NotYourVerdict)
        );
        for i in 0..5 {
            run.decide(i, 1, Decision::Side(0), "clearer".into())
                .await
                .unwrap();
        }
        // The last one could not be judged: recorded as such, counted apart.
        run.decide(5, 1, Decision::Unjudgeable, "B said nothing".into())
            .await
            .unwrap();
    });
    let log = stored_log(&store, "t");
    let t = Tournament::from_events(&log).unwrap();
    assert!(t.finished());
    let person: Vec<_> = t
        .progress
        .iter()
        .filter_map(|p| p.votes.iter().find(|v| v.judge == 1))
        .collect();
    assert_eq!(person.len(), 6);
    // Each blind order is the one drawn for that judge and debate, not always the same.
    assert_eq!(person.iter().filter(|v| v.reason == "clearer").count(), 5);
    assert_eq!(standings(&t).unjudgeable_votes, 1);
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
    store_log(&store, "t", &[TournamentEvent::Started { spec: spec() }]);
    let clock2 = clock.clone();
    let store2 = store.clone();
    run_virtual_with(&clock, move |spawner| {
        let s = session(&clock2, store2.clone(), spawner);
        async move {
            let run = TournamentRun::open(s.clone(), "t").await.unwrap().unwrap();
            // A second tab's copy, read before anything ran.
            let stale = TournamentRun::open(s, "t").await.unwrap().unwrap();
            let stopper = run.clone();
            let stop_soon = async move {
                while stopper.log().len() < 4 {
                    clock2.sleep(5).await;
                }
                stopper.stop();
            };
            let (r, ()) = futures::join!(run.clone().run(), stop_soon);
            r.unwrap();
            let stopped = stored_log(&store2, "t");
            assert!(matches!(
                stopped.last(),
                Some(TournamentEvent::Stopped { .. })
            ));
            assert!(!Tournament::from_events(&stopped).unwrap().finished());
            // Run again in the same tab: it goes on.
            run.clone().run().await.unwrap();
            assert!(Tournament::from_events(&stored_log(&store2, "t"))
                .unwrap()
                .finished());
            // The stale copy reads the stored log first: nothing is left to do.
            let before = stored_log(&store2, "t").len();
            stale.clone().run().await.unwrap();
            assert_eq!(
                stored_log(&store2, "t").len(),
                before,
                "the stale copy recorded nothing"
            );
            assert_eq!(stale.log().len(), before, "and it now holds the stored log");
        }
    });
    let log = stored_log(&store, "t");
    let starts = log
        .iter()
        .filter(|e| matches!(e, TournamentEvent::DebateStarted { .. }))
        .count();
    assert_eq!(starts, 6, "no debate started twice");
    assert_eq!(futures::executor::block_on(store.list()).unwrap().len(), 6);
}

/// A new tournament is checked before anything is stored: a pairing no judge may decide
/// is refused with the reason, and a good one is stored as its first record, listed with
/// its summary.
#[test]
fn a_new_tournament_is_checked_then_stored_as_its_first_record() {
    in_session(|s, store2, _| async move {
        {
            let mut only_gamma = spec();
            only_gamma.judges = vec![model("gamma")];
            let e = match TournamentRun::create(s.clone(), only_gamma).await {
                Err(e) => e,
                Ok(_) => panic!("a pairing without a judge was accepted"),
            };
            assert!(
                matches!(&e, TournamentError::Log(why) if why.contains("No judge may judge")),
                "{e}"
            );
            assert!(store2.tournaments().await.unwrap().is_empty());
            let run = TournamentRun::create(s, spec()).await.unwrap();
            let listed = store2.tournaments().await.unwrap();
            assert_eq!(listed.len(), 1);
            assert_eq!(listed[0].id, run.id());
            assert_eq!((listed[0].debates, listed[0].verdicts), (6, 8));
            assert_eq!(store2.tournament_records(run.id()).len(), 1);
        }
    });
}

/// What a tournament waits on wakes when the debate is held, not on a timer's next tick
/// (a background tab slows timers to one a minute): `settled` resolves at the very moment
/// the debate pauses at its cap.
#[test]
fn a_held_debate_wakes_its_waiter_at_once() {
    in_session(|s, _, clock2| async move {
        {
            let t = spec();
            let mut config = t.debate_config(0, 0, 1);
            config.spending_cap = Some(0.000_5);
            let id = s.start(config).unwrap();
            let held = s.settled(&id).await;
            assert_eq!(held, Some(agora::session::runner::Hold::Cap));
            let woke_at = clock2.now_ms();
            let paused_at = s
                .load(&id)
                .await
                .unwrap()
                .unwrap()
                .events
                .iter()
                .rev()
                .find_map(|e| match &e.kind {
                    agora::engine::event::EventKind::Paused { .. } => Some(e.at_ms),
                    _ => None,
                })
                .expect("it paused at its cap");
            assert_eq!(woke_at, paused_at, "woken by the pause itself");
            s.stop(&id);
            s.ended(&id).await;
        }
    });
}
