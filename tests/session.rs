//! The session on the scripted model and the in-memory store: what a user would notice about
//! saving, history, the concurrency cap and the key.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use agora::engine::cancel::CancelToken;
use agora::engine::clock::{run_virtual_with, Clock, VirtualClock};
use agora::engine::config::{ClassicOptions, ClassicStyle, Participant};
use agora::engine::event::{EventKind, Outcome, Purpose};
use agora::engine::formats::classic;
use agora::engine::model::{ChatMessage, ChatModel, ChatRequest};
use agora::engine::script::{Script, ScriptedModel};
use agora::engine::CallKey;
use agora::session::router::Router;
use agora::session::runner::{DebateLock, LockDebate};
use agora::session::SessionError;
use agora::session::{Connection, Session, Update};
use agora::store::memory::MemoryStore;
use agora::store::{DebateSummary, InFlight, Store, StoreError, StoreResult, StoredDebate};
use futures::future::LocalBoxFuture;

/// Counts in-flight writes and remembers everything written, to search it for the key.
struct Spy {
    inner: MemoryStore,
    in_flight_writes: Cell<u32>,
    everything: RefCell<String>,
    /// Appends so far, and from which one every write fails (as a full quota does).
    appends: Cell<u32>,
    fail_from: Cell<u32>,
}

impl Spy {
    fn full(&self) -> bool {
        self.appends.get() >= self.fail_from.get()
    }
}

fn quota<'a>() -> LocalBoxFuture<'a, StoreResult<()>> {
    Box::pin(futures::future::ready(Err(StoreError::Full(
        "QuotaExceededError".to_string(),
    ))))
}

impl Store for Spy {
    fn put_summary<'a>(&'a self, s: &'a DebateSummary) -> LocalBoxFuture<'a, StoreResult<()>> {
        if self.full() {
            return quota();
        }
        self.everything
            .borrow_mut()
            .push_str(&serde_json::to_string(s).unwrap());
        self.inner.put_summary(s)
    }
    fn append<'a>(
        &'a self,
        id: &'a str,
        e: &'a agora::engine::Event,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        self.appends.set(self.appends.get() + 1);
        if self.full() {
            return quota();
        }
        self.everything
            .borrow_mut()
            .push_str(&serde_json::to_string(e).unwrap());
        self.inner.append(id, e)
    }
    fn put_in_flight<'a>(
        &'a self,
        id: &'a str,
        r: &'a InFlight,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        self.in_flight_writes.set(self.in_flight_writes.get() + 1);
        if self.full() {
            return quota();
        }
        self.everything
            .borrow_mut()
            .push_str(&serde_json::to_string(r).unwrap());
        self.inner.put_in_flight(id, r)
    }
    fn clear_in_flight<'a>(
        &'a self,
        id: &'a str,
        c: &'a CallKey,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        self.inner.clear_in_flight(id, c)
    }
    fn list(&self) -> LocalBoxFuture<'_, StoreResult<Vec<DebateSummary>>> {
        self.inner.list()
    }
    fn load<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<Option<StoredDebate>>> {
        self.inner.load(id)
    }
    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>> {
        self.inner.delete(id)
    }
    fn append_tournament<'a>(
        &'a self,
        summary: &'a agora::store::TournamentSummary,
        seq: u32,
        event: &'a agora::engine::tournament::progress::TournamentEvent,
    ) -> LocalBoxFuture<'a, StoreResult<()>> {
        self.inner.append_tournament(summary, seq, event)
    }
    fn tournaments(&self) -> LocalBoxFuture<'_, StoreResult<Vec<agora::store::TournamentSummary>>> {
        self.inner.tournaments()
    }
    fn tournament<'a>(
        &'a self,
        id: &'a str,
    ) -> LocalBoxFuture<
        'a,
        StoreResult<Option<Vec<agora::engine::tournament::progress::TournamentEvent>>>,
    > {
        self.inner.tournament(id)
    }
    fn delete_tournament<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, StoreResult<()>> {
        self.inner.delete_tournament(id)
    }
}

const KEY: &str = "sk-test-SECRET-0123456789";

struct World {
    clock: VirtualClock,
    store: Rc<Spy>,
    heard: Rc<RefCell<Vec<Update>>>,
    /// The browser's lock manager, shared by every tab (session) of the world.
    locks: LockDebate,
}

/// A lock held by one tab until dropped.
struct Held(Rc<RefCell<Vec<String>>>, String);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.borrow_mut().retain(|x| *x != self.1);
    }
}

fn lock_manager() -> LockDebate {
    let held: Rc<RefCell<Vec<String>>> = Default::default();
    Rc::new(move |id: &str| {
        let (held, id) = (held.clone(), id.to_string());
        Box::pin(async move {
            if held.borrow().contains(&id) {
                return None;
            }
            held.borrow_mut().push(id.clone());
            Some(Box::new(Held(held, id)) as DebateLock)
        })
    })
}

fn world() -> World {
    World {
        clock: VirtualClock::new(1_700_000_000_000),
        store: Rc::new(Spy {
            inner: MemoryStore::new(),
            in_flight_writes: Cell::new(0),
            everything: RefCell::new(String::new()),
            appends: Cell::new(0),
            fail_from: Cell::new(u32::MAX),
        }),
        heard: Rc::new(RefCell::new(Vec::new())),
        locks: lock_manager(),
    }
}

fn session(w: &World, spawner: futures::executor::LocalSpawner, script: &str) -> Rc<Session> {
    let clock = w.clock.clone();
    let script: Script = serde_json::from_str(script).unwrap();
    let providers: agora::session::router::ProviderFactory = Rc::new(move |_c: &Connection| {
        Rc::new(ScriptedModel::new(script.clone(), clock.clone())) as Rc<dyn ChatModel>
    });
    session_with(w, spawner, providers)
}

/// A session on `providers`, with one connection (`cloud`, two calls at once).
fn session_with(
    w: &World,
    spawner: futures::executor::LocalSpawner,
    providers: agora::session::router::ProviderFactory,
) -> Rc<Session> {
    let env = common::session_env(
        &w.clock,
        w.store.clone(),
        spawner,
        providers,
        w.locks.clone(),
    );
    let mut conn =
        Connection::openai_compatible("cloud", "Cloud", "https://api.example.com/v1", "gpt-x", KEY);
    conn.concurrency = 2;
    let s = Session::new(env, vec![conn]);
    let heard = w.heard.clone();
    s.set_listener(move |_, u| heard.borrow_mut().push(u.clone()));
    s
}

fn classic_config(rounds: u32) -> agora::engine::DebateConfig {
    classic::new_config(
        "Is remote work better for teams?",
        "",
        "",
        // Educational: 6 + 5 × rounds calls, every one a turn (formal adds two scores).
        ClassicOptions {
            rounds,
            style: ClassicStyle::Educational,
            ..Default::default()
        },
        |_| Participant::Model {
            connection: "cloud".into(),
            connection_label: "Cloud".into(),
            model: "gpt-x".into(),
            context_tokens: 16_000,
            price: None,
        },
    )
}

/// Waits (in virtual time) until the debate's task has ended.
async fn until_ended(clock: &VirtualClock, heard: &Rc<RefCell<Vec<Update>>>) {
    while !heard.borrow().iter().any(|u| matches!(u, Update::Ended)) {
        clock.sleep(50).await;
    }
    clock.sleep(10).await; // let the writer drain
}

#[test]
fn an_edit_that_moves_a_connection_to_another_origin_drops_its_key() {
    use agora::session::connection_draft::ConnectionDraft;
    use agora::session::KeyEdit;
    let w = world();
    run_virtual_with(&w.clock, |spawner| {
        let s = session(&w, spawner, r#"{"default": {}}"#);
        async move {
            let key_of = |s: &Session| s.connections()[0].api_key.clone();
            let saved = || s.connections()[0].clone();
            // The form's draft of an edit never holds the key; Save keeps it on the origin.
            let mut d = ConnectionDraft::new(Some(saved()));
            d.set_base_url("https://api.example.com/v2".into());
            let (c, key) = d.to_save("unused").unwrap();
            assert!(c.api_key.is_empty());
            s.save_connection(c, key).unwrap();
            assert_eq!(key_of(&s), KEY);
            // A key the caller slips into the connection is not how a key is given.
            let mut c = saved();
            c.base_url = "https://collector.example.net/v1".into();
            c.api_key = KEY.into();
            s.save_connection(c, KeyEdit::Keep).unwrap();
            assert_eq!(key_of(&s), "", "the key stays behind on its own origin");
            // Moving back does not bring it back: it was dropped, and is typed again.
            let mut c = saved();
            c.base_url = "https://api.example.com/v1".into();
            s.save_connection(c.clone(), KeyEdit::Keep).unwrap();
            assert_eq!(key_of(&s), "");
            s.save_connection(c, KeyEdit::Replace("sk-typed".into()))
                .unwrap();
            assert_eq!(key_of(&s), "sk-typed");
            // A new connection's id comes from its name.
            assert!(s.new_connection_id("My Server").starts_with("c-my-server-"));
        }
    });
}

#[test]
fn a_finished_debate_is_in_history_and_reloads_identically() {
    let w = world();
    let (clock, heard, store) = (w.clock.clone(), w.heard.clone(), w.store.clone());
    let (id, listed, loaded) = run_virtual_with(&w.clock, |spawner| {
        let s = session(&w, spawner, r#"{"default": {"chunk_delay_ms": 10}}"#);
        async move {
            let id = s.start(classic_config(1)).unwrap();
            until_ended(&clock, &heard).await;
            let listed = s.list().await.unwrap();
            let loaded = s.load(&id).await.unwrap().unwrap();
            (id, listed, loaded)
        }
    });
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, id);
    assert_eq!(listed[0].outcome, Some(Outcome::Completed));
    assert_eq!(listed[0].turns, 11);
    assert_eq!(listed[0].topic, "Is remote work better for teams?");
    // What was stored is exactly what the UI was shown, in order.
    let shown: Vec<_> = w
        .heard
        .borrow()
        .iter()
        .filter_map(|u| {
            if let Update::Event(e) = u {
                Some((**e).clone())
            } else {
                None
            }
        })
        .collect();
    assert_eq!(loaded.events, shown);
    assert!(
        loaded.in_flight.is_empty(),
        "finished turns leave no in-flight text behind"
    );
    assert!(store.everything.borrow().contains("Closing summary"));
}

/// Streams every call's answer as `chunks`, `delay_ms` apart, and returns what the store
/// holds `after_ms` into the first turn (what a tab closed then would leave), then stops.
fn stored_mid_turn(w: &World, chunks: Vec<String>, delay_ms: u64, after_ms: u64) -> StoredDebate {
    let script =
        serde_json::json!({"default": {"chunks": chunks, "chunk_delay_ms": delay_ms}}).to_string();
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    run_virtual_with(&w.clock, |spawner| {
        let s = session(w, spawner, &script);
        let store = w.store.clone();
        async move {
            let id = s.start(classic_config(1)).unwrap();
            clock.sleep(after_ms).await;
            let snapshot = store.load(&id).await.unwrap().unwrap();
            s.stop(&id);
            until_ended(&clock, &heard).await;
            snapshot
        }
    })
}

#[test]
fn a_streaming_turn_is_saved_about_once_a_second_not_per_token() {
    let w = world();
    // One 10-second turn: 200 chunks 50 ms apart.
    let words: Vec<String> = (0..200).map(|i| format!("w{i} ")).collect();
    // Closing the tab now loses at most the last second of the turn in flight.
    let mid_turn = stored_mid_turn(&w, words, 50, 5_500);
    let writes = w.store.in_flight_writes.get();
    assert!(
        (4..=6).contains(&writes),
        "{writes} in-flight writes for 5.5 s of streaming"
    );
    let saved = &mid_turn.in_flight[0].text;
    assert!(
        saved.starts_with("w0 w1 ") && saved.split_whitespace().count() >= 80,
        "{saved}"
    );
}

#[test]
fn the_key_never_reaches_storage_or_the_ui() {
    let w = world();
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    run_virtual_with(&w.clock, |spawner| {
        let s = session(
            &w,
            spawner,
            r#"{"answers": [{"path": "round/1/explanation", "fault": {"status": 401, "body": "bad key sk-test-SECRET-0123456789"}}], "default": {"chunk_delay_ms": 100}}"#,
        );
        async move {
            let id = s.start(classic_config(1)).unwrap();
            // The 401 holds the debate at the failed call; the user then stops it.
            while !format!("{:?}", heard.borrow()).contains("needs_resume: true") {
                clock.sleep(50).await;
            }
            s.stop(&id);
            until_ended(&clock, &heard).await;
        }
    });
    let stored = w.store.everything.borrow();
    assert!(
        stored.contains("Moderator's explanation"),
        "the debate was saved"
    );
    assert!(!stored.contains("SECRET"), "the key reached storage");
    let shown = format!("{:?}", w.heard.borrow());
    assert!(shown.contains("401"));
    assert!(!shown.contains("SECRET"), "the key reached the UI");
}

/// A model that repeats the key back (a prompt injection, a confused proxy) streams it in
/// pieces: the turn's text saved while it is in flight has the key replaced, as a finished
/// turn's has, even where the key is split across chunks.
#[test]
fn a_key_echoed_in_a_streaming_turn_is_not_saved_with_its_text() {
    let w = world();
    let chunks = [
        "Your key is sk-test-SEC",
        "RET-0123",
        "456789, and ",
        "again ",
        KEY,
        " — ",
    ];
    let chunks: Vec<String> = chunks
        .iter()
        .cycle()
        .take(60)
        .map(|c| c.to_string())
        .collect();
    let mid_turn = stored_mid_turn(&w, chunks, 300, 4_000);
    assert!(
        w.store.in_flight_writes.get() >= 2,
        "the turn was saved while streaming"
    );
    let saved = &mid_turn.in_flight[0].text;
    assert!(
        saved.contains("Your key is [key], and again [key]"),
        "{saved}"
    );
    let stored = w.store.everything.borrow();
    let at = stored
        .find("SECRET")
        .map(|i| &stored[i.saturating_sub(300)..(i + 100).min(stored.len())]);
    assert!(at.is_none(), "the key reached storage: {at:?}");
}

/// A short call on `conn`, told apart by `i`.
fn request(conn: &str, i: u32) -> ChatRequest {
    ChatRequest {
        connection: conn.into(),
        model: "m".into(),
        seat: format!("s{i}"),
        purpose: Purpose::Argument,
        call: format!("c{i}"),
        messages: vec![ChatMessage::user("hi")],
        temperature: None,
        max_tokens: 10,
        json: false,
        schema: None,
        search_web: false,
    }
}

/// Calls that start in the same task (a forecast round's five) go on one task each, so the
/// page is never held by all of them at once; a call that starts alone goes at once.
#[test]
fn calls_admitted_in_the_same_task_after_the_first_wait_for_the_page() {
    use futures::FutureExt;
    /// A sleep that lets one turn go by: pending when first asked, done when asked again.
    struct NextTurn;
    impl Clock for NextTurn {
        fn now_ms(&self) -> u64 {
            0
        }
        fn sleep(&self, _ms: u64) -> LocalBoxFuture<'static, ()> {
            let mut once = false;
            Box::pin(futures::future::poll_fn(move |cx| {
                if std::mem::replace(&mut once, true) {
                    std::task::Poll::Ready(())
                } else {
                    cx.waker().wake_by_ref();
                    std::task::Poll::Pending
                }
            }))
        }
    }
    let providers: agora::session::router::ProviderFactory = Rc::new(|_c: &Connection| {
        Rc::new(ScriptedModel::new(Script::default(), VirtualClock::new(0))) as Rc<dyn ChatModel>
    });
    let mut wide = Connection::openai_compatible("wide", "Wide", "https://x.example/v1", "m", "");
    wide.concurrency = 5;
    let router = Router::new(Rc::new(RefCell::new(vec![wide])), providers);
    // What the browser runs after the current task's work: here, held until `end_task`.
    let after_task: Rc<RefCell<Vec<LocalBoxFuture<'static, ()>>>> = Rc::default();
    let queue = after_task.clone();
    router.pace_with(
        Rc::new(NextTurn),
        Rc::new(move |f| queue.borrow_mut().push(f)),
    );
    let end_task = || {
        for f in after_task.borrow_mut().drain(..) {
            futures::executor::block_on(f);
        }
    };
    let (r1, r2, r3) = (request("wide", 1), request("wide", 2), request("wide", 3));
    // The first call of a task goes at once; the second waits for the page's next turn.
    assert!(router.admit(&r1, true).now_or_never().is_some());
    let mut second = router.admit(&r2, true);
    assert!(
        (&mut second).now_or_never().is_none(),
        "the second call went on in the same task"
    );
    end_task();
    // In a later task, a call on its own goes at once again.
    assert!(router.admit(&r3, true).now_or_never().is_some());
    // And the one that waited goes on at the page's next turn.
    assert!(matches!(second.now_or_never(), Some(Ok(_))));
}

#[test]
fn a_connection_runs_no_more_calls_at_once_than_its_cap() {
    let clock = VirtualClock::new(0);
    let script: Script = serde_json::from_str(
        r#"{"default": {"chunks": ["a ", "b ", "c"], "chunk_delay_ms": 100}}"#,
    )
    .unwrap();
    let c2 = clock.clone();
    let providers: agora::session::router::ProviderFactory = Rc::new(move |_c: &Connection| {
        Rc::new(ScriptedModel::new(script.clone(), c2.clone())) as Rc<dyn ChatModel>
    });
    let mut local = Connection::local_model();
    local.concurrency = 1;
    let mut wide = Connection::openai_compatible("wide", "Wide", "https://x.example/v1", "m", "");
    wide.concurrency = 3;
    let router = Rc::new(Router::new(
        Rc::new(RefCell::new(vec![local, wide])),
        providers,
    ));
    let c = clock.clone();
    let elapsed = agora::engine::clock::run_virtual(&clock, async move {
        let req = request;
        let cancel = CancelToken::new();
        let mut out = Vec::new();
        for conn in ["local", "wide"] {
            let start = c.now_ms();
            let reqs: Vec<_> = (0..3).map(|i| req(conn, i)).collect();
            let router = &router;
            let cancel = &cancel;
            let calls = reqs.iter().map(|r| async move {
                let _place = router.admit(r, true).await.unwrap();
                router.complete(r, &|_| {}, cancel).await
            });
            let results = futures::future::join_all(calls).await;
            assert!(results.iter().all(|r| r.as_ref().unwrap().text == "a b c"));
            out.push(c.now_ms() - start);
        }
        // A check that must not wait is refused at once while the one place is taken.
        let held = router.admit(&req("local", 9), true).await.unwrap();
        let busy = router.admit(&req("local", 10), false).await.err().unwrap();
        assert_eq!(busy.kind, agora::engine::model::ErrorKind::Busy);
        drop(held);
        assert!(router.admit(&req("local", 11), false).await.is_ok());
        out
    });
    // Each call streams for 200 ms: one at a time takes 600 ms, three at once 200 ms.
    assert_eq!(elapsed, vec![600, 200]);
}

#[test]
fn stop_ends_a_running_debate_as_stopped_and_it_can_resume_to_the_end() {
    let w = world();
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    let (first, second) = run_virtual_with(&w.clock, |spawner| {
        let s = session(&w, spawner, r#"{"default": {"chunk_delay_ms": 40}}"#);
        async move {
            let id = s.start(classic_config(1)).unwrap();
            clock.sleep(3_000).await;
            s.stop(&id);
            until_ended(&clock, &heard).await;
            let first = s.list().await.unwrap()[0].clone();
            heard.borrow_mut().clear();
            s.resume(&id).await.unwrap();
            until_ended(&clock, &heard).await;
            let second = s.load(&id).await.unwrap().unwrap();
            (first, second)
        }
    });
    assert_eq!(first.outcome, Some(Outcome::Stopped));
    assert_eq!(second.summary.outcome, Some(Outcome::Completed));
    let finished: Vec<String> = second
        .events
        .iter()
        .filter_map(|e| {
            if let EventKind::TurnFinished { call, .. } = &e.kind {
                Some(call.to_string())
            } else {
                None
            }
        })
        .collect();
    let mut unique = finished.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(finished.len(), 11);
    assert_eq!(unique.len(), 11, "no turn recorded twice");
}

#[test]
fn a_second_tab_does_not_run_a_debate_running_in_the_first() {
    let w = world();
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    let (refused, later) = run_virtual_with(&w.clock, |spawner| {
        let first_tab = session(
            &w,
            spawner.clone(),
            r#"{"default": {"chunk_delay_ms": 40}}"#,
        );
        let second_tab = session(&w, spawner, r#"{"default": {"chunk_delay_ms": 40}}"#);
        async move {
            let id = first_tab.start(classic_config(1)).unwrap();
            clock.sleep(3_000).await;
            let refused = second_tab.resume(&id).await;
            // Once the first tab lets go (here: Stop), the second may take the debate on.
            first_tab.stop(&id);
            until_ended(&clock, &heard).await;
            heard.borrow_mut().clear();
            second_tab.resume(&id).await.unwrap();
            until_ended(&clock, &heard).await;
            (refused, second_tab.load(&id).await.unwrap().unwrap())
        }
    });
    assert_eq!(refused, Err(SessionError::RunningElsewhere));
    assert_eq!(later.summary.outcome, Some(Outcome::Completed));
}

#[test]
fn a_failed_write_is_told_once_and_the_debate_goes_on_whole_in_memory() {
    let w = world();
    // The sixth event does not fit: the store keeps the first five.
    w.store.fail_from.set(6);
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    let (id, listed, here) = run_virtual_with(&w.clock, |spawner| {
        let s = session(&w, spawner, r#"{"default": {"chunk_delay_ms": 10}}"#);
        async move {
            let id = s.start(classic_config(1)).unwrap();
            until_ended(&clock, &heard).await;
            let listed = s.list().await.unwrap();
            let here = s.load(&id).await.unwrap().unwrap();
            (id, listed, here)
        }
    });
    let heard = w.heard.borrow();
    let notices: Vec<&String> = heard
        .iter()
        .filter_map(|u| match u {
            Update::Notice(m) => Some(m),
            _ => None,
        })
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0]
        .contains("Saving this debate stopped: the browser's storage for this site is full"));
    assert!(notices[0].contains("Export"));
    // The debate ran to its end, and this tab's copy is all of it: what the screen showed.
    let shown: Vec<_> = heard
        .iter()
        .filter_map(|u| match u {
            Update::Event(e) => Some((**e).clone()),
            _ => None,
        })
        .collect();
    assert!(matches!(
        shown.last().unwrap().kind,
        EventKind::Finished {
            outcome: Outcome::Completed,
            ..
        }
    ));
    assert_eq!(here.events, shown);
    assert_eq!(here.summary.turns, 11);
    assert_eq!(listed[0].id, id);
    assert_eq!(listed[0].turns, 11, "history lists this tab's copy");
    assert_eq!(
        agora::engine::export::to_json(&here.events),
        agora::engine::export::to_json(&shown),
        "an export is built from the whole log"
    );
    // The store kept a beginning of the log with no gap, and nothing after the failure.
    let stored = futures::executor::block_on(w.store.inner.load(&id))
        .unwrap()
        .unwrap();
    let seqs: Vec<u32> = stored.events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (0..5).collect::<Vec<u32>>());
}

#[test]
fn hostile_sizes_are_refused_with_a_message_and_change_nothing_stored() {
    let w = world();
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    let big = "x".repeat(100_000);
    let (refusals, stored) = run_virtual_with(&w.clock, |spawner| {
        let s = session(&w, spawner, r#"{"default": {"chunk_delay_ms": 10}}"#);
        let big = big.clone();
        async move {
            let mut refusals = Vec::new();
            let mut topic = classic_config(1);
            topic.topic = big.clone();
            refusals.push(s.start(topic).unwrap_err());
            let mut position = classic_config(1);
            position.seats[1].stance = Some(big.clone());
            refusals.push(s.start(position).unwrap_err());
            let id = s.start(classic_config(1)).unwrap();
            clock.sleep(30).await;
            let before = s.load(&id).await.unwrap().unwrap().events.len();
            refusals.push(
                s.input(
                    &id,
                    agora::engine::event::Input::Question { text: big.clone() },
                )
                .unwrap_err(),
            );
            refusals.push(
                s.input(
                    &id,
                    agora::engine::event::Input::HumanTurn {
                        call: CallKey::new("opening/position-a", 0),
                        text: big.clone(),
                    },
                )
                .unwrap_err(),
            );
            let after = s.load(&id).await.unwrap().unwrap().events.len();
            assert!(after >= before);
            until_ended(&clock, &heard).await;
            (refusals, s.load(&id).await.unwrap().unwrap())
        }
    });
    for (r, what) in refusals
        .iter()
        .zip(["topic", "position", "question", "turn"])
    {
        assert!(
            r.to_string()
                .contains("100000 characters long; the limit is"),
            "{what}: {r}"
        );
    }
    assert!(!format!("{:?}", stored.events).contains("xxxxxxxxxx"));
    assert!(matches!(
        stored.events.last().unwrap().kind,
        EventKind::Finished {
            outcome: Outcome::Completed,
            ..
        }
    ));
}

#[test]
fn an_answer_that_never_ends_is_cut_at_the_calls_bound_and_marked() {
    let w = world();
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    let id = run_virtual_with(&w.clock, |spawner| {
        let s = session(
            &w,
            spawner,
            r#"{"default": {"chunks": ["word "], "chunk_delay_ms": 1, "endless": true}}"#,
        );
        async move {
            let id = s.start(classic_config(1)).unwrap();
            until_ended(&clock, &heard).await;
            id
        }
    });
    let stored = futures::executor::block_on(w.store.load(&id))
        .unwrap()
        .unwrap();
    let mut turns = 0;
    for e in &stored.events {
        if let EventKind::TurnFinished { text, finish, .. } = &e.kind {
            turns += 1;
            assert_eq!(*finish, agora::engine::event::FinishReason::SizeLimit);
            assert!(
                text.len() <= 16_000 && text.starts_with("word word"),
                "{}",
                text.len()
            );
        }
    }
    assert_eq!(turns, 11, "the debate went on to its end");
}

/// A server that takes a schema only in llama.cpp's form and refuses OpenAI's the way
/// llama-cpp-python does (a 500 naming `response_format`).
struct LlamaLike {
    inner: ScriptedModel<VirtualClock>,
    form: agora::llm::openai::SchemaForm,
    refused: Rc<Cell<u32>>,
}

impl ChatModel for LlamaLike {
    fn complete<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: &'a dyn Fn(&str),
        cancel: &'a CancelToken,
    ) -> LocalBoxFuture<
        'a,
        Result<agora::engine::model::ChatResponse, agora::engine::model::ModelError>,
    > {
        if req.schema.is_some() && self.form != agora::llm::openai::SchemaForm::JsonObjectSchema {
            self.refused.set(self.refused.get() + 1);
            let body = r#"{"error":{"message":"1 validation error: ('body', 'response_format', 'type') Input should be 'text' or 'json_object'"}}"#;
            return Box::pin(futures::future::ready(Err(agora::llm::openai::http_error(
                500,
                body,
                None,
                "Local (m)",
                "",
            ))));
        }
        self.inner.complete(req, on_delta, cancel)
    }
}

#[test]
fn a_server_that_refuses_openais_schema_form_is_asked_in_the_next_and_the_form_is_kept() {
    use agora::llm::openai::SchemaForm;
    let w = world();
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    let refused = Rc::new(Cell::new(0));
    let learned = Rc::new(Cell::new(0));
    let (events, conn) = run_virtual_with(&w.clock, |spawner| {
        let (c2, r2) = (w.clock.clone(), refused.clone());
        let providers: agora::session::router::ProviderFactory = Rc::new(move |c: &Connection| {
            let script: Script =
                serde_json::from_str(r#"{"default": {"chunk_delay_ms": 5}}"#).unwrap();
            Rc::new(LlamaLike {
                inner: ScriptedModel::new(script, c2.clone()),
                form: c.schema_form,
                refused: r2.clone(),
            }) as Rc<dyn ChatModel>
        });
        let s = session_with(&w, spawner, providers);
        let l2 = learned.clone();
        s.on_connections_learned(move || l2.set(l2.get() + 1));
        async move {
            let mut cfg = classic_config(1);
            if let agora::engine::config::FormatOptions::Classic(o) = &mut cfg.options {
                o.scoring = true;
            }
            let id = s.start(cfg).unwrap();
            until_ended(&clock, &heard).await;
            let events = s.load(&id).await.unwrap().unwrap().events;
            (
                events,
                s.connections()
                    .into_iter()
                    .find(|c| c.id == "cloud")
                    .unwrap(),
            )
        }
    });
    assert_eq!(
        refused.get(),
        1,
        "one refusal, then every structured call uses the kept form"
    );
    assert_eq!(
        (conn.schema_form, conn.schema_form_known),
        (SchemaForm::JsonObjectSchema, true)
    );
    assert_eq!(
        learned.get(),
        2,
        "told when the form moved and when it was settled"
    );
    let failed: Vec<&str> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnFailed { error, .. } => Some(error.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(failed.len(), 1);
    assert!(failed[0].contains("llama.cpp's form"), "{}", failed[0]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::Paused { .. })),
        "the refusal does not hold the debate"
    );
    let scored = events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::FindingRecorded(f) if matches!(f.body, agora::engine::finding::FindingBody::Score { .. })))
        .count();
    assert_eq!(scored, 2, "both positions scored");
    assert!(matches!(
        events.last().map(|e| &e.kind),
        Some(EventKind::Finished { .. })
    ));
}

#[test]
fn adopted_debates_are_stored_whole_and_their_starts_read_without_their_logs() {
    let w = world();
    let (clock, heard, store) = (w.clock.clone(), w.heard.clone(), w.store.clone());
    let (ids, starts, copies, refused, after_refusal) = run_virtual_with(&w.clock, |spawner| {
        let s = session(&w, spawner, r#"{"default": {"chunk_delay_ms": 1}}"#);
        async move {
            let id = s.start(classic_config(1)).unwrap();
            until_ended(&clock, &heard).await;
            let log = s.load(&id).await.unwrap().unwrap().events;
            let mut ids = vec![id];
            for _ in 0..2 {
                ids.push(s.adopt(log.clone()).await.unwrap());
            }
            let starts = s.starts().await.unwrap();
            let mut copies = Vec::new();
            for id in &ids[1..] {
                copies.push(s.load(id).await.unwrap().unwrap());
            }
            // A store that fails midway keeps nothing of the debate it was writing.
            store.fail_from.set(store.appends.get() + 5);
            let refused = s.adopt(log).await;
            let after = s.list().await.unwrap().len();
            (ids, starts, copies, refused, after)
        }
    });
    assert_eq!(starts.len(), 3);
    assert!(starts
        .iter()
        .all(|e| matches!(e.kind, EventKind::DebateStarted { .. })));
    for c in &copies {
        assert_eq!(c.summary.outcome, Some(Outcome::Completed));
        assert_eq!(c.summary.turns, 11);
    }
    assert_eq!(ids.len(), 3);
    assert!(
        matches!(refused, Err(SessionError::Store(StoreError::Full(_)))),
        "{refused:?}"
    );
    assert_eq!(after_refusal, 3, "the half-written debate was removed");
}

#[test]
fn a_backup_restores_each_debate_once_names_what_it_refuses_and_an_import_maps_unknown_connections()
{
    use agora::session::backups::ImportDraft;
    let (w, elsewhere, third) = (world(), world(), world());
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    let (backup, exported, same_here, there, twice, broken) =
        run_virtual_with(&w.clock, |spawner| {
            let s = session(&w, spawner.clone(), r#"{"default": {"chunk_delay_ms": 1}}"#);
            let other = session(
                &elsewhere,
                spawner.clone(),
                r#"{"default": {"chunk_delay_ms": 1}}"#,
            );
            let fresh = session(&third, spawner, "{}");
            async move {
                let id = s.start(classic_config(1)).unwrap();
                until_ended(&clock, &heard).await;
                let backup = s.backup().await.unwrap();
                let log = s.load(&id).await.unwrap().unwrap().events;
                let exported = agora::engine::export::to_json(&log);
                // Restored where it came from: already here, nothing added.
                let same_here = s.restore(&backup.1).await.unwrap();
                // On another device: added, and listed there.
                let there = other.restore(&backup.1).await.unwrap();
                // The same debate twice in one file is stored once.
                let doubled = agora::engine::export::backup(&[log.clone(), log.clone()]);
                let twice = fresh.restore(&doubled).await.unwrap();
                let broken = other.restore("{\"agora_backup\": 1").await;
                (backup.0, exported, same_here, there, twice, broken)
            }
        });
    assert_eq!(backup, 1);
    assert_eq!((same_here.added, same_here.skipped), (0, 1));
    assert_eq!(
        same_here.message(),
        (false, "Restored 0 debates; 1 were already here.".into())
    );
    assert_eq!((there.added, there.skipped), (1, 0));
    assert_eq!((twice.added, twice.skipped), (1, 1));
    assert!(
        broken.is_err(),
        "a cut-off file is refused whole: {broken:?}"
    );

    // An import naming a connection this browser lacks is mapped before it is stored.
    let mine = [Connection::openai_compatible(
        "mine",
        "Mine",
        "https://api.example.com/v1",
        "m",
        "",
    )];
    let mut draft = ImportDraft::read(&exported, &mine).unwrap();
    assert!(draft.needs_mapping());
    assert_eq!(draft.unknown[0].0, "cloud");
    assert_eq!(
        draft.unknown[0].2, "mine",
        "the user's first connection until they pick"
    );
    draft.map(0, "other".into());
    let log = draft.into_log();
    let config = agora::engine::event::config_of(&log).unwrap();
    assert!(config.seats.iter().all(|s| !matches!(&s.participant,
        agora::engine::config::Participant::Model { connection, .. } if connection == "cloud")));
    // A browser that has the connection imports it as it is.
    let cloud = [Connection::openai_compatible(
        "cloud",
        "Cloud",
        "https://api.example.com/v1",
        "gpt-x",
        "",
    )];
    assert!(!ImportDraft::read(&exported, &cloud)
        .unwrap()
        .needs_mapping());
    assert!(ImportDraft::read("not json", &cloud).is_err());
}

#[test]
fn a_question_sent_just_before_stop_is_taken_by_the_resumed_run() {
    let w = world();
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    let events = run_virtual_with(&w.clock, |spawner| {
        let s = session(&w, spawner, r#"{"default": {"chunk_delay_ms": 40}}"#);
        async move {
            let id = s.start(classic_config(1)).unwrap();
            clock.sleep(3_000).await;
            // Sent mid-turn, then stopped before any call boundary could take it.
            s.input(
                &id,
                agora::engine::event::Input::Question {
                    text: "What about deliveries?".into(),
                },
            )
            .unwrap();
            s.stop(&id);
            until_ended(&clock, &heard).await;
            heard.borrow_mut().clear();
            s.resume(&id).await.unwrap();
            until_ended(&clock, &heard).await;
            s.load(&id).await.unwrap().unwrap().events
        }
    });
    let asked: Vec<_> = events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::InputReceived { input: agora::engine::event::Input::Question { text }, .. } if text == "What about deliveries?"))
        .collect();
    assert_eq!(asked.len(), 1, "taken once, by the resumed run");
    assert!(matches!(
        events.last().map(|e| &e.kind),
        Some(EventKind::Finished {
            outcome: Outcome::Completed,
            ..
        })
    ));
}

/// A forecast resolved later keeps its resolution in its log, scored by the ledger; a
/// resolution that cannot be right is refused with a reason and stores nothing.
#[test]
fn a_finished_forecast_is_resolved_in_its_log_and_scored() {
    use agora::engine::config::FormatId;
    use agora::engine::formats::defaults::default_config;
    use agora::engine::formats::forecast::ledger::{entry, scores, Forecaster, Resolution};
    let w = world();
    let (clock, heard) = (w.clock.clone(), w.heard.clone());
    let resolution = |outcome: &str, on: &str| Resolution {
        outcome: outcome.into(),
        value: None,
        on: on.into(),
        note: String::new(),
    };
    let (refused, loaded, open_book, book) = run_virtual_with(&w.clock, |spawner| {
        let s = session(&w, spawner, r#"{"default": {"chunk_delay_ms": 5}}"#);
        async move {
            let config = default_config(FormatId::Forecast, "Will it rain tomorrow?", &|_| {
                Participant::Model {
                    connection: "cloud".into(),
                    connection_label: "Cloud".into(),
                    model: "gpt-x".into(),
                    context_tokens: 16_000,
                    price: None,
                }
            });
            let id = s.start(config).unwrap();
            // While it runs: not yet.
            let early = s
                .resolve(&id, resolution("yes", "2027-01-01"))
                .await
                .unwrap_err();
            until_ended(&clock, &heard).await;
            let open_book = s.ledger().await.unwrap();
            let mut refused = vec![early];
            for r in [
                resolution("maybe", "2027-01-01"),
                resolution("yes", "2027-02-30"),
                resolution("yes", "tomorrow"),
            ] {
                refused.push(s.resolve(&id, r).await.unwrap_err());
            }
            s.resolve(&id, resolution("no", "2027-01-01"))
                .await
                .unwrap();
            // Corrected: the later resolution is the one that counts.
            s.resolve(&id, resolution("yes", "2027-01-02"))
                .await
                .unwrap();
            (
                refused,
                s.load(&id).await.unwrap().unwrap(),
                open_book,
                s.ledger().await.unwrap(),
            )
        }
    });
    // The ledger lists it open until it is resolved, then scored.
    assert_eq!(open_book.summary(), "1 forecast: 0 resolved, 1 open.");
    assert!(open_book.open[0].likely.is_some(), "{open_book:?}");
    assert_eq!(open_book.debate_helped(), None);
    assert_eq!(book.summary(), "1 forecast: 1 resolved, 0 open.");
    let line = book.resolved[0].resolved.as_ref().unwrap();
    assert_eq!(
        (line.resolution.outcome.as_str(), line.label.as_str()),
        ("yes", "Yes")
    );
    assert_eq!(book.points().len(), 1);
    assert_eq!(
        book.calibration(),
        None,
        "one resolved forecast is too few to draw"
    );
    assert!(
        book.models().iter().any(|a| a.who == "gpt-x"),
        "{:?}",
        book.models()
    );
    let helped = book.debate_helped().unwrap();
    assert!(
        helped.contains("in 0 of 1") || helped.contains("in 1 of 1"),
        "{helped}"
    );
    let refused_as = |i: usize, words: &str| matches!(&refused[i], SessionError::Resolution(why) if why.contains(words));
    assert!(
        refused_as(1, "not one of this forecast's outcomes"),
        "{refused:?}"
    );
    assert_eq!(refused[0], SessionError::ForecastBusy);
    assert!(refused_as(2, "not a date") && refused_as(3, "not a date"));
    let resolved = loaded
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Resolved(_)))
        .count();
    assert_eq!(resolved, 2, "only the accepted resolutions are stored");
    let seqs: Vec<u32> = loaded.events.iter().map(|e| e.seq).collect();
    assert!(seqs.windows(2).all(|p| p[1] == p[0] + 1), "{seqs:?}");
    let e = entry(&loaded.events).unwrap();
    let r = e.resolution.clone().unwrap();
    assert_eq!((r.outcome.as_str(), r.on.as_str()), ("yes", "2027-01-02"));
    let scored = scores(e.config, &e.result, e.opening.as_deref(), &r).unwrap();
    let last = scored
        .iter()
        .find(|s| s.forecaster == Forecaster::Final)
        .unwrap();
    // Brier's score of the final blend, by hand from its own probabilities.
    let p_yes = last.probabilities[0];
    let by_hand = (p_yes - 1.0).powi(2) + (last.probabilities[1]).powi(2);
    assert!((last.brier - by_hand).abs() < 1e-12);
    assert!((last.log - p_yes.max(0.001).ln()).abs() < 1e-12);
    assert!(
        scored.len() >= 4,
        "roles, consensus, judge and blend: {scored:?}"
    );
}
