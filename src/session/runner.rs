//! The session: starts, resumes, pauses and stops debates, and answers the UI's questions
//! about connections and stored debates.

use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::mpsc;
use futures::future::LocalBoxFuture;

use super::connections::{key_after_edit, Connection, KeyEdit};
use super::error::SessionError;
use super::router::{ProviderFactory, Router};
use super::writer::{run_writer, Kept, Listener, Recorder};
use crate::engine::cancel::CancelToken;
use crate::engine::clock::Clock;
use crate::engine::context::{DebateCtx, Inputs, Wiring};
use crate::engine::event::{Event, EventKind, Input, Purpose};
use crate::engine::formats;
use crate::engine::formats::forecast::ledger::{self, Resolution};
use crate::engine::model::{ChatMessage, ChatModel, ChatRequest};
use crate::engine::{CallKey, DebateConfig};
use crate::store::{DebateSummary, Store, StoredDebate};

/// Longest audience question, and longest turn or evidence a person may add: every later
/// prompt carries them, so a pasted document must not crowd out the debate.
pub const MAX_QUESTION_CHARS: usize = 2_000;
pub const MAX_TURN_CHARS: usize = 20_000;

/// What the UI hears about a running debate.
#[derive(Clone, Debug)]
pub enum Update {
    /// Boxed: an event is far larger than the other updates.
    Event(Box<Event>),
    Delta {
        call: CallKey,
        seat: String,
        delta: String,
    },
    /// Something the user should know that is not part of the debate (a failed save).
    Notice(String),
    /// The debate's task ended (finished, stopped or failed).
    Ended,
}

/// Why a running debate waits for the user (`Session::held`).
#[derive(Clone, Debug, PartialEq)]
pub enum Hold {
    /// At its spending cap: a higher one lets it go on.
    Cap,
    /// At a call that failed in a way retrying cannot fix, saying why.
    Failed(String),
}

/// Held while a debate runs in this tab; dropping it lets another tab take the debate.
pub type DebateLock = Box<dyn std::any::Any>;
/// Takes a debate's lock if no other tab holds it (`None`: another tab is running it).
pub type LockDebate = Rc<dyn Fn(&str) -> LocalBoxFuture<'static, Option<DebateLock>>>;

/// What the session needs from its surroundings; the browser and the tests differ here.
pub struct SessionEnv {
    /// One debate, one tab: a Web Lock per debate in the browser.
    pub lock: LockDebate,
    pub store: Rc<dyn Store>,
    pub clock: Rc<dyn Clock>,
    pub spawn: Rc<dyn Fn(LocalBoxFuture<'static, ()>)>,
    pub providers: ProviderFactory,
    pub random: Rc<dyn Fn() -> u64>,
    /// How failed calls are retried (tests shorten the waits).
    pub retry: crate::engine::retry::RetryPolicy,
    /// Bounds on every call (tests shorten them).
    pub limits: crate::engine::context::CallLimits,
    /// Calls admitted in the same task go on each in a browser task of its own (a sleep of
    /// 0 on `clock`): five calls that start at once never hold the page as one long task.
    pub pace_calls: bool,
}

struct Running {
    stop: CancelToken,
    inputs: Rc<Inputs>,
}

/// What `wiring` prepares for a debate besides its wiring, for `launch`: where its events
/// are written from, its controls, and the copy this tab keeps.
struct Prepared {
    rx: mpsc::UnboundedReceiver<super::writer::Write>,
    running: Running,
    kept: Rc<Kept>,
}

pub struct Session {
    env: SessionEnv,
    connections: Rc<RefCell<Vec<Connection>>>,
    router: Rc<Router>,
    running: RefCell<std::collections::HashMap<String, Running>>,
    listener: Rc<RefCell<Option<Listener>>>,
    offline: std::cell::Cell<bool>,
    /// The debates running in this tab, and those whose store failed: their logs in memory.
    kept: Rc<RefCell<std::collections::HashMap<String, Rc<Kept>>>>,
    /// Questions and evidence a stopped debate had not yet taken, for its next run.
    unconsumed: RefCell<std::collections::HashMap<String, Vec<Input>>>,
    /// Who waits for a debate's task to end (`ended`): a tournament, for its next step.
    enders: RefCell<Vec<(String, futures::channel::oneshot::Sender<()>)>>,
}

impl Session {
    pub fn new(env: SessionEnv, connections: Vec<Connection>) -> Rc<Self> {
        let connections = Rc::new(RefCell::new(connections));
        let router = Rc::new(Router::new(connections.clone(), env.providers.clone()));
        if env.pace_calls {
            router.pace_with(env.clock.clone(), env.spawn.clone());
        }
        Rc::new(Session {
            env,
            connections,
            router,
            running: RefCell::new(std::collections::HashMap::new()),
            listener: Rc::new(RefCell::new(None)),
            offline: Default::default(),
            kept: Default::default(),
            unconsumed: Default::default(),
            enders: Default::default(),
        })
    }

    /// Where updates of every debate go (the UI's reactive store).
    pub fn set_listener(&self, l: impl Fn(&str, &Update) + 'static) {
        *self.listener.borrow_mut() = Some(Rc::new(l));
    }

    fn notify(&self, id: &str, u: &Update) {
        let l = self.listener.borrow().clone();
        if let Some(l) = l {
            l(id, u);
        }
    }

    // ---- connections ----

    /// Called when a call found how a connection's server takes a schema (the connection
    /// changed in this session's list; the app saves it).
    pub fn on_connections_learned(&self, f: impl Fn() + 'static) {
        self.router.on_learned(Rc::new(f));
    }

    pub fn connections(&self) -> Vec<Connection> {
        self.connections.borrow().clone()
    }

    /// Adds or replaces a connection (matched by id), with its key as `key` says: a saved
    /// key is kept only while the connection stays on the origin it was given for
    /// (`key_after_edit`). Whatever key `c` carries is ignored.
    pub fn save_connection(&self, c: Connection, key: KeyEdit) -> Result<(), SessionError> {
        let c = self.with_key(c, key);
        c.validate()?;
        let mut list = self.connections.borrow_mut();
        match list.iter_mut().find(|x| x.id == c.id) {
            Some(x) => *x = c,
            None => list.push(c),
        }
        Ok(())
    }

    /// One tiny call, with the result in words.
    pub fn test_connection(
        self: &Rc<Self>,
        connection_id: &str,
        model: &str,
    ) -> LocalBoxFuture<'static, Result<String, SessionError>> {
        let this = self.clone();
        let (connection, model) = (connection_id.to_string(), model.to_string());
        let checked = match self
            .connections
            .borrow()
            .iter()
            .find(|c| c.id == connection)
        {
            Some(c) => c.validate().map_err(SessionError::from),
            None => Err(SessionError::NoConnectionChosen),
        };
        Box::pin(async move {
            // Checked as Save checks it, before anything is sent.
            checked?;
            let req = ChatRequest {
                connection,
                model: model.clone(),
                seat: "test".into(),
                purpose: Purpose::Check,
                call: "connection-test".into(),
                messages: vec![ChatMessage::user("Reply with the single word: ready")],
                temperature: Some(0.0),
                max_tokens: 8,
                json: false,
                schema: None,
                search_web: false,
            };
            let cancel = CancelToken::new();
            let timeout = this.env.clock.sleep(30_000);
            // Through the connection's limit on calls at once, like every debate call: a
            // local server that takes one call at a time is not sent a second one.
            let router = this.router.clone();
            let call = async {
                let _place = router.admit(&req, true).await?;
                router.complete(&req, &|_| {}, &cancel).await
            };
            let call = Box::pin(call);
            let outcome = match futures::future::select(call, timeout).await {
                futures::future::Either::Left((Ok(r), _)) => {
                    let said = crate::engine::transcript::clip(r.text.trim(), 60);
                    Ok(format!("Connected: {model} answered \"{said}\"."))
                }
                futures::future::Either::Left((Err(e), _)) => Err(SessionError::Call(e.message)),
                futures::future::Either::Right(_) => {
                    cancel.cancel();
                    Err(SessionError::NoAnswerWithin { seconds: 30 })
                }
            };
            outcome
        })
    }

    /// The models a connection (saved or still in the form) lists, for the form's choices.
    /// `c` with the key an edit gives it, by the rule of `save_connection`.
    fn with_key(&self, mut c: Connection, key: KeyEdit) -> Connection {
        let list = self.connections.borrow();
        c.api_key = key_after_edit(list.iter().find(|x| x.id == c.id), &c, key);
        c
    }

    /// The models a connection's provider lists, asked with the key Save would give it.
    pub fn list_models(
        self: &Rc<Self>,
        c: Connection,
        key: KeyEdit,
    ) -> LocalBoxFuture<'static, Result<Vec<String>, SessionError>> {
        let c = self.with_key(c, key);
        let this = self.clone();
        Box::pin(async move { this.router.list_models(&c).await })
    }

    // ---- debates ----

    /// A new connection's id, from its name and a random tail.
    pub fn new_connection_id(&self, label: &str) -> String {
        super::connection_draft::new_connection_id(label, (self.env.random)())
    }

    /// A fresh debate id (time-ordered, with a random tail).
    pub fn new_id(&self) -> String {
        format!(
            "{:x}-{:06x}",
            self.env.clock.now_ms(),
            (self.env.random)() & 0xff_ffff
        )
    }

    /// Starts a debate; returns its id at once while it runs in the background.
    pub fn start(self: &Rc<Self>, config: DebateConfig) -> Result<String, SessionError> {
        let id = self.new_id();
        self.start_as(id.clone(), config)?;
        Ok(id)
    }

    /// Starts a debate under an id the caller chose with `new_id`, so that a view can listen
    /// for it before its first event is recorded.
    pub fn start_as(self: &Rc<Self>, id: String, config: DebateConfig) -> Result<(), SessionError> {
        config.validate().map_err(SessionError::Config)?;
        for seat in &config.seats {
            if let crate::engine::config::Participant::Model { connection, .. } = &seat.participant
            {
                if !self
                    .connections
                    .borrow()
                    .iter()
                    .any(|c| &c.id == connection)
                {
                    return Err(SessionError::SeatWithoutConnection {
                        seat: seat.name.clone(),
                    });
                }
            }
        }
        let seed = (self.env.random)();
        let planned = formats::planned_calls(&config);
        let (wiring, prepared) = self.wiring(&id, Vec::new());
        let ctx = DebateCtx::start(config, seed, planned, wiring);
        self.launch(id.clone(), ctx, prepared, DebateSummary::new(&id), None);
        Ok(())
    }

    /// Continues a debate held at a failed call (in place), or a stored debate that was
    /// stopped, failed or interrupted by a closed tab (replaying its log).
    pub fn resume(self: &Rc<Self>, id: &str) -> LocalBoxFuture<'static, Result<(), SessionError>> {
        let this = self.clone();
        let id = id.to_string();
        Box::pin(async move {
            if let Some(r) = this.running.borrow().get(&id) {
                if !r.inputs.is_halted() {
                    return Err(SessionError::AlreadyRunning);
                }
                r.inputs.release();
                return Ok(());
            }
            // This tab's copy when it has one: after a failed write it is the whole log.
            let stored = this.load(&id).await?.ok_or(SessionError::NotStored)?;
            let lock = (this.env.lock)(&id)
                .await
                .ok_or(SessionError::RunningElsewhere)?;
            let (wiring, prepared) = this.wiring(&id, stored.events.clone());
            let ctx =
                DebateCtx::resume(stored.events, wiring).map_err(SessionError::Unreplayable)?;
            this.launch(id, ctx, prepared, stored.summary, Some(lock));
            Ok(())
        })
    }

    fn wiring(&self, id: &str, log: Vec<Event>) -> (Wiring, Prepared) {
        let (tx, rx) = mpsc::unbounded();
        // A debate whose store already failed is not written again: a gap would follow.
        let unsaved = self.kept.borrow().get(id).is_some_and(|k| k.unsaved.get());
        let kept = Rc::new(Kept::new(log, unsaved));
        self.kept.borrow_mut().insert(id.to_string(), kept.clone());
        let recorder = Rc::new(Recorder {
            debate: id.to_string(),
            connections: self.connections.clone(),
            tx,
            clock: self.env.clock.clone(),
            listener: self.listener.clone(),
            kept: kept.clone(),
        });
        let running = Running {
            stop: CancelToken::new(),
            inputs: Inputs::new(),
        };
        running.inputs.set_offline(self.offline.get());
        for input in self.unconsumed.borrow_mut().remove(id).unwrap_or_default() {
            running.inputs.push(input);
        }
        let wiring = Wiring {
            retry: self.env.retry,
            limits: self.env.limits,
            model: self.router.clone(),
            clock: self.env.clock.clone(),
            observer: recorder,
            inputs: running.inputs.clone(),
            stop: running.stop.clone(),
        };
        (wiring, Prepared { rx, running, kept })
    }

    fn launch(
        self: &Rc<Self>,
        id: String,
        ctx: DebateCtx,
        Prepared { rx, running, kept }: Prepared,
        summary: DebateSummary,
        lock: Option<DebateLock>,
    ) {
        self.running.borrow_mut().insert(id.clone(), running);
        let this = self.clone();
        let (eid, notice_to) = (id.clone(), self.clone());
        let on_error: Rc<dyn Fn(String)> =
            Rc::new(move |m| notice_to.notify(&eid, &Update::Notice(m)));
        let (all_kept, wid, done_kept) = (self.kept.clone(), id.clone(), kept.clone());
        // Everything stored: the store is the copy to read from now on. A debate whose
        // store failed stays in memory until the tab closes.
        let on_done = Box::new(move || {
            let mut all = all_kept.borrow_mut();
            if !done_kept.unsaved.get() && all.get(&wid).is_some_and(|k| Rc::ptr_eq(k, &done_kept))
            {
                all.remove(&wid);
            }
        });
        (self.env.spawn)(Box::pin(run_writer(
            id.clone(),
            self.env.store.clone(),
            summary,
            rx,
            kept,
            on_error,
            on_done,
        )));
        (self.env.spawn)(Box::pin(async move {
            // A new debate's id is this tab's alone: its lock is asked for as it starts (so
            // it is first in line) and held to the end, and its first calls go out meanwhile
            // rather than when the browser grants it, after the page's next tasks. In the
            // browser they go in a task of their own, ahead of the screens Start queued, so
            // neither makes a long task (BENCHMARKS.md, "Five streams at once").
            let paced = this.env.pace_calls;
            let clock = this.env.clock.clone();
            let run = async {
                if paced {
                    clock.sleep(0).await;
                }
                // The formats' runs are a chunk of their own in the browser (`chunk`).
                formats::conclude(&ctx, super::chunk::run(&ctx).await);
            };
            let lock = async {
                match lock {
                    Some(l) => Some(l),
                    None => (this.env.lock)(&id).await,
                }
            };
            let (_lock, ()) = futures::join!(lock, run);
            for w in ctx.warnings() {
                this.notify(&id, &Update::Notice(w));
            }
            drop(ctx); // closes the writer's queue once it has drained
            let ended = this.running.borrow_mut().remove(&id);
            let left = ended
                .map(|r| r.inputs.take_unconsumed())
                .unwrap_or_default();
            if !left.is_empty() {
                this.unconsumed.borrow_mut().insert(id.clone(), left);
            }
            this.notify(&id, &Update::Ended);
            let waiting: Vec<_> = {
                let mut enders = this.enders.borrow_mut();
                let (these, others) = enders.drain(..).partition(|(d, _)| *d == id);
                *enders = others;
                these
            };
            for (_, tx) in waiting {
                let _ = tx.send(());
            }
        }));
    }

    /// Resolves when debate `id`'s task in this tab has ended (at once when it is not
    /// running here): what a tournament waits for before it reads the debate's result.
    pub fn ended(&self, id: &str) -> LocalBoxFuture<'static, ()> {
        if !self.is_running(id) {
            return Box::pin(async {});
        }
        let (tx, rx) = futures::channel::oneshot::channel();
        self.enders.borrow_mut().push((id.to_string(), tx));
        Box::pin(async move {
            let _ = rx.await;
        })
    }

    /// Whether debate `id`, running here, is held for something only the user can give: a
    /// higher spending cap, or a Resume after a call that failed for good (with the reason).
    /// `None` while it runs, waits for its connection or is paused otherwise (offline, by
    /// the user), which end by themselves or by the user's own hand.
    pub fn held(&self, id: &str) -> Option<Hold> {
        let inputs = self.running.borrow().get(id)?.inputs.clone();
        if inputs.is_at_cap() {
            return Some(Hold::Cap);
        }
        if !inputs.is_halted() {
            return None;
        }
        let kept = self.kept.borrow().get(id).cloned();
        let reason = kept.and_then(|k| {
            k.events.borrow().iter().rev().find_map(|e| match &e.kind {
                EventKind::Paused {
                    reason,
                    needs_resume: true,
                } => Some(reason.clone()),
                _ => None,
            })
        });
        Some(Hold::Failed(reason.unwrap_or_default()))
    }

    /// Resolves when debate `id` has ended here (`None`) or is held (`Some(why)`, see
    /// `held`): what a tournament waits for, so a debate that needs the user never keeps it
    /// waiting without a word. Woken by the debate's own end or hold, not by a timer.
    pub fn settled(self: &Rc<Self>, id: &str) -> LocalBoxFuture<'static, Option<Hold>> {
        let this = self.clone();
        let id = id.to_string();
        let inputs = self.running.borrow().get(&id).map(|r| r.inputs.clone());
        Box::pin(async move {
            let inputs = inputs?;
            let mut ended = this.ended(&id);
            loop {
                let held = Box::pin(inputs.held());
                match futures::future::select(ended, held).await {
                    futures::future::Either::Left(_) => return None,
                    futures::future::Either::Right((_, still)) => {
                        if let Some(why) = this.held(&id) {
                            return Some(why);
                        }
                        // Let go of already (a Resume came first): wait on.
                        ended = still;
                        this.env.clock.sleep(0).await;
                    }
                }
            }
        })
    }

    /// The session clock's time (virtual in tests).
    pub fn now_ms(&self) -> u64 {
        self.env.clock.now_ms()
    }

    /// Waits on the session's clock (virtual in tests).
    pub fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        self.env.clock.sleep(ms)
    }

    /// Where debates, and tournaments' logs, are kept.
    pub fn store(&self) -> Rc<dyn Store> {
        self.env.store.clone()
    }

    /// Takes the Web Lock named after `name` if no other tab holds it: one tournament, one tab.
    pub fn lock(&self, name: &str) -> LocalBoxFuture<'static, Option<DebateLock>> {
        (self.env.lock)(name)
    }

    /// The most `req` can be billed on its connection (what a cap reserves before asking).
    pub fn ceiling(&self, req: &ChatRequest) -> crate::engine::model::Ceiling {
        use crate::engine::model::ChatModel;
        self.router.ceiling(req)
    }

    /// One call outside any debate (a tournament judge's verdict): in its connection's
    /// limit on calls at once, and retried as a debate's calls are.
    pub fn ask(
        &self,
        req: ChatRequest,
        stop: CancelToken,
    ) -> LocalBoxFuture<
        'static,
        Result<crate::engine::model::ChatResponse, crate::engine::model::ModelError>,
    > {
        let (router, clock, retry, random) = (
            self.router.clone(),
            self.env.clock.clone(),
            self.env.retry,
            self.env.random.clone(),
        );
        Box::pin(async move {
            let mut attempt = 1;
            loop {
                let place = router.admit(&req, true).await?;
                let result = router.complete(&req, &|_| {}, &stop).await;
                drop(place);
                match result {
                    Err(e) if e.retryable() && attempt < retry.max_attempts => {
                        let jitter = (random() >> 11) as f64 / (1u64 << 53) as f64;
                        let Some(wait) = retry.delay(attempt, e.retry_after_ms, jitter) else {
                            return Err(e);
                        };
                        clock.sleep(wait).await;
                        if stop.is_cancelled() {
                            return Err(crate::engine::model::ModelError::cancelled(String::new()));
                        }
                        attempt += 1;
                    }
                    other => return other,
                }
            }
        })
    }

    pub fn is_running(&self, id: &str) -> bool {
        self.running.borrow().contains_key(id)
    }

    /// Whether a running debate is held at a failed call, waiting for Resume.
    pub fn is_halted(&self, id: &str) -> bool {
        self.running
            .borrow()
            .get(id)
            .is_some_and(|r| r.inputs.is_halted())
    }

    /// Aborts the call in flight at once; the debate ends as stopped.
    pub fn stop(&self, id: &str) {
        if let Some(r) = self.running.borrow().get(id) {
            r.stop.cancel();
        }
    }

    /// The browser went offline (or came back): every running debate waits at its next call
    /// until the connection returns.
    pub fn set_offline(&self, offline: bool) {
        self.offline.set(offline);
        for r in self.running.borrow().values() {
            r.inputs.set_offline(offline);
        }
    }

    pub fn set_paused(&self, id: &str, paused: bool) {
        if let Some(r) = self.running.borrow().get(id) {
            r.inputs.set_paused(paused);
        }
    }

    /// A question, evidence or a human's turn, consumed at the next call boundary. One too
    /// long is refused with a message, before anything is recorded.
    pub fn input(&self, id: &str, input: Input) -> Result<(), SessionError> {
        let (what, text, max) = match &input {
            Input::Question { text } => ("question", text, MAX_QUESTION_CHARS),
            Input::Evidence { text } => ("evidence", text, MAX_TURN_CHARS),
            Input::HumanTurn { text, .. } => ("turn", text, MAX_TURN_CHARS),
            Input::SpendingCap { .. } => ("", &String::new(), 0),
        };
        let n = text.chars().count();
        if n > max {
            return Err(SessionError::TooLong {
                what,
                chars: n,
                max,
            });
        }
        match self.running.borrow().get(id) {
            Some(r) => {
                r.inputs.push(input);
                Ok(())
            }
            None => Err(SessionError::NotRunning),
        }
    }

    /// Every debate, newest first: the stored ones, with this tab's copy of those running
    /// here or not saved whole.
    pub fn list(&self) -> LocalBoxFuture<'static, Result<Vec<DebateSummary>, SessionError>> {
        let store = self.env.store.clone();
        let here: Vec<DebateSummary> = self
            .kept
            .borrow()
            .keys()
            .zip(self.kept.borrow().values())
            .map(|(id, k)| k.summary(id))
            .filter(|s| !s.topic.is_empty())
            .collect();
        Box::pin(async move {
            let mut list = store.list().await.map_err(SessionError::Store)?;
            for s in here {
                match list.iter_mut().find(|x| x.id == s.id) {
                    Some(x) => *x = s,
                    None => list.push(s),
                }
            }
            crate::store::newest_first(&mut list);
            Ok(list)
        })
    }

    /// A debate: this tab's copy while it runs here (or when its store failed), which is
    /// never behind the store; otherwise the stored one.
    pub fn load(
        &self,
        id: &str,
    ) -> LocalBoxFuture<'static, Result<Option<StoredDebate>, SessionError>> {
        let here = self.kept.borrow().get(id).map(|k| k.snapshot(id));
        let (store, id) = (self.env.store.clone(), id.to_string());
        Box::pin(async move {
            match here {
                Some(d) => Ok(Some(d)),
                None => store.load(&id).await.map_err(SessionError::Store),
            }
        })
    }

    /// Stores a whole log (an import, a restored backup, a fork) as a new debate and returns
    /// its id. Nothing runs until it is resumed. A write that fails removes what was written,
    /// so a failed import leaves the stored debates as they were.
    pub fn adopt(
        &self,
        events: Vec<Event>,
    ) -> LocalBoxFuture<'static, Result<String, SessionError>> {
        let (store, id) = (self.env.store.clone(), self.new_id());
        Box::pin(async move {
            let mut summary = DebateSummary::new(&id);
            for e in &events {
                summary.apply(e);
            }
            if let Err(e) = store.put_debate(&summary, &events).await {
                let _ = store.delete(&id).await;
                return Err(SessionError::Store(e));
            }
            Ok(id)
        })
    }

    /// How each stored debate started (its first event), by id: what a restore compares
    /// to skip debates already here, without reading whole logs.
    /// Those kept only in this tab's memory (a store that failed) count too.
    pub fn starts(&self) -> LocalBoxFuture<'static, Result<Vec<Event>, SessionError>> {
        let store = self.env.store.clone();
        let here: Vec<String> = self.kept.borrow().keys().cloned().collect();
        let mut out: Vec<Event> = here
            .iter()
            .filter_map(|id| {
                let k = self.kept.borrow().get(id.as_str()).cloned()?;
                k.snapshot(id).events.into_iter().next()
            })
            .collect();
        Box::pin(async move {
            for d in store.list().await.map_err(SessionError::Store)? {
                if here.contains(&d.id) {
                    continue;
                }
                if let Some(e) = store
                    .first_event(&d.id)
                    .await
                    .map_err(SessionError::Store)?
                {
                    out.push(e);
                }
            }
            Ok(out)
        })
    }

    /// Records what happened to a finished forecast: one `Resolved` event appended to its
    /// stored log (a later one corrects an earlier one). Returns the event, for the view.
    pub fn resolve(
        &self,
        id: &str,
        resolution: Resolution,
    ) -> LocalBoxFuture<'static, Result<Event, SessionError>> {
        let busy = self.running.borrow().get(id).is_some() || self.kept.borrow().get(id).is_some();
        let (store, clock, id) = (
            self.env.store.clone(),
            self.env.clock.clone(),
            id.to_string(),
        );
        Box::pin(async move {
            if busy {
                return Err(SessionError::ForecastBusy);
            }
            let stored = store
                .load(&id)
                .await
                .map_err(SessionError::Store)?
                .ok_or(SessionError::ForecastNotStored)?;
            ledger::check(&stored.events, &resolution).map_err(SessionError::Resolution)?;
            let event = Event {
                seq: stored.events.last().map_or(0, |e| e.seq + 1),
                at_ms: clock.now_ms(),
                kind: EventKind::Resolved(resolution),
            };
            store
                .append(&id, &event)
                .await
                .map_err(SessionError::Store)?;
            let mut summary = stored.summary;
            summary.apply(&event);
            store
                .put_summary(&summary)
                .await
                .map_err(SessionError::Store)?;
            Ok(event)
        })
    }

    pub fn delete(&self, id: &str) -> LocalBoxFuture<'static, Result<(), SessionError>> {
        self.stop(id);
        self.kept.borrow_mut().remove(id);
        let (store, id) = (self.env.store.clone(), id.to_string());
        Box::pin(async move { store.delete(&id).await.map_err(SessionError::Store) })
    }
}
