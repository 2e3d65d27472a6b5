//! The context a format runs in. Every model call goes through `DebateCtx::call` (or
//! `try_call`, or `check`) with a call key the format assigns; the context records it in
//! the event log, streams its tokens to the observer, and on a resume returns the recorded
//! result of any call already in the log (without new events) so the first unrecorded call
//! is the first to go live. What a format finds is recorded with `record`, and every choice
//! it makes from randomness, the clock or a stream's content with `decide`.
//!
//! Its parts: `spec` (the call builder), `inputs` (inputs and pausing), `replay` (the
//! replay index), `spending` (the spending cap), `retries`, `stream` (one attempt's
//! streaming loop and its bounds), `watch` (following and cutting a stream) and `evidence`
//! (the debate's sources in its requests).

mod evidence;
mod inputs;
mod replay;
mod retries;
mod spec;
mod spending;
mod stream;
mod watch;

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::{select, Either};
use serde::de::DeserializeOwned;
use serde::Serialize;

pub use inputs::Inputs;
pub use spec::{CallFailure, CallOutput, CallSpec, DeltaFn};
pub use stream::{output_bound, CallLimits};
pub use watch::{sentence_end_from, sentence_ends, Watch};

use super::answer::{Problem, Structured, Unread};
use super::cancel::CancelToken;
use super::clock::Clock;
use super::config::{DebateConfig, Participant};
use super::event::{
    CallKey, Event, EventKind, FinishReason, Input, Outcome, ReadOutcome, Usage, SCHEMA_VERSION,
};
use super::finding::{Finding, FindingBody};
use super::json_extract;
use super::model::{Admission, ChatModel, ChatRequest, ModelError};
use super::rng::{self, fnv1a};
use replay::{finding_key, phase_key, read_key, Replay};
use spending::{worst_case, Budget, Room};
use std::collections::HashMap;

/// Receives everything the debate produces: finished events (to persist and render) and
/// live token deltas (to render only).
pub trait Observer {
    fn on_event(&self, event: &Event);
    fn on_delta(&self, call: &CallKey, seat: &str, delta: &str);
}

/// An observer that keeps everything: the events, and each call's streamed fragments
/// (for tests, and for callers that want the log in memory).
#[derive(Default)]
pub struct EventLog {
    pub events: RefCell<Vec<Event>>,
    pub deltas: RefCell<Vec<(CallKey, String)>>,
}

impl EventLog {
    /// A log that starts with `events` (a stored debate about to be resumed).
    pub fn with(events: Vec<Event>) -> Self {
        EventLog {
            events: RefCell::new(events),
            deltas: RefCell::default(),
        }
    }
}

impl Observer for EventLog {
    fn on_event(&self, e: &Event) {
        self.events.borrow_mut().push(e.clone());
    }
    fn on_delta(&self, call: &CallKey, _: &str, d: &str) {
        self.deltas.borrow_mut().push((call.clone(), d.to_string()));
    }
}

/// What trying a step the debate can go on without comes to: `Ok(Ok(value))` it worked;
/// `Ok(Err(why))` it failed, and the debate goes on without it; `Err` the debate itself
/// stopped, was held or cannot go on.
pub type Attempt<T, E> = Result<Result<T, E>, DebateError>;

#[derive(Debug, Clone, PartialEq)]
pub enum DebateError {
    /// The user pressed Stop.
    Stopped,
    /// A call the format marked as tolerated failed, and the format could not go on
    /// without it after all.
    Failed(CallFailure),
    /// The configuration does not fit the format.
    Config(String),
}

impl std::fmt::Display for DebateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DebateError::Stopped => f.write_str("Stopped."),
            DebateError::Failed(c) => write!(f, "{}: {}", c.seat, c.message),
            DebateError::Config(m) => f.write_str(m),
        }
    }
}

struct State {
    config: DebateConfig,
    seed: u64,
    events: Vec<Event>,
    replay: Replay,
    occurrences: HashMap<String, u32>,
    notes: Vec<Input>,
    warnings: Vec<String>,
    /// Calls held, by the reason: calls held for the same reason record one `Paused` and
    /// one `Resumed`, and a hold for another reason (a refused key while the user has
    /// paused) has its own pair, so ending one never ends or hides the other.
    holds: HashMap<String, u32>,
    /// The sources so far: the configuration's, then evidence as it arrives.
    sources: Vec<super::sources::Source>,
    /// Their library, built when a call first needs it after they change.
    library: Option<Rc<super::sources::library::Library>>,
}

#[derive(Clone)]
pub struct DebateCtx {
    state: Rc<RefCell<State>>,
    budget: Rc<Budget>,
    model: Rc<dyn ChatModel>,
    clock: Rc<dyn Clock>,
    observer: Rc<dyn Observer>,
    inputs: Rc<Inputs>,
    stop: CancelToken,
    retry: super::retry::RetryPolicy,
    limits: CallLimits,
}

pub struct Wiring {
    pub retry: super::retry::RetryPolicy,
    pub limits: CallLimits,
    pub model: Rc<dyn ChatModel>,
    pub clock: Rc<dyn Clock>,
    pub observer: Rc<dyn Observer>,
    pub inputs: Rc<Inputs>,
    pub stop: CancelToken,
}

/// A live call's share of the spending cap, given back when the call ends (which may let
/// a waiting call start).
struct Reservation {
    budget: Rc<Budget>,
    inputs: Rc<Inputs>,
    id: u64,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget.release(self.id);
        self.inputs.wake();
    }
}

/// Ends a call's watch however the call ends, so a task following it never waits forever.
struct WatchEnd(Option<Watch>);

impl Drop for WatchEnd {
    fn drop(&mut self) {
        if let Some(w) = &self.0 {
            if !w.is_done() {
                w.finish(None);
            }
        }
    }
}

impl DebateCtx {
    /// A new debate: records `DebateStarted`.
    pub fn start(config: DebateConfig, seed: u64, planned_calls: u32, w: Wiring) -> Self {
        let ctx = Self::with_log(config.clone(), seed, Vec::new(), w);
        ctx.push(EventKind::DebateStarted {
            schema: SCHEMA_VERSION,
            config,
            seed,
            planned_calls,
        });
        ctx
    }

    /// Continues a stored debate: its finished calls replay, the rest go live.
    pub fn resume(events: Vec<Event>, w: Wiring) -> Result<Self, String> {
        let (config, seed) = events
            .iter()
            .find_map(|e| match &e.kind {
                EventKind::DebateStarted { config, seed, .. } => Some((config.clone(), *seed)),
                _ => None,
            })
            .ok_or("the stored debate has no start event")?;
        let ctx = Self::with_log(config, seed, events, w);
        ctx.push(EventKind::Resumed);
        Ok(ctx)
    }

    fn with_log(config: DebateConfig, seed: u64, events: Vec<Event>, w: Wiring) -> Self {
        let replay = Replay::index(&events);
        let budget = Rc::new(Budget::new(config.spending_cap));
        DebateCtx {
            state: Rc::new(RefCell::new(State {
                sources: config.sources.clone(),
                library: None,
                config,
                seed,
                events,
                replay,
                occurrences: HashMap::new(),
                notes: Vec::new(),
                warnings: Vec::new(),
                holds: HashMap::new(),
            })),
            budget,
            model: w.model,
            clock: w.clock,
            observer: w.observer,
            inputs: w.inputs,
            stop: w.stop,
            retry: w.retry,
            limits: w.limits,
        }
    }

    pub fn config(&self) -> DebateConfig {
        self.state.borrow().config.clone()
    }

    pub fn analyst(&self) -> String {
        self.state.borrow().config.analyst.clone()
    }

    pub fn events(&self) -> Vec<Event> {
        self.state.borrow().events.clone()
    }

    fn seed(&self) -> u64 {
        self.state.borrow().seed
    }

    /// Replay warnings: a recorded call whose request changed since, or recorded calls,
    /// decisions and inputs a finished replay never asked for.
    pub fn warnings(&self) -> Vec<String> {
        self.state.borrow().warnings.clone()
    }

    /// Questions and evidence the audience has sent so far, in order.
    pub fn notes(&self) -> Vec<Input> {
        self.state.borrow().notes.clone()
    }

    fn push(&self, kind: EventKind) -> Event {
        let event = {
            let mut st = self.state.borrow_mut();
            let e = Event {
                seq: st.events.len() as u32,
                at_ms: self.clock.now_ms(),
                kind,
            };
            st.events.push(e.clone());
            e
        };
        self.observer.on_event(&event);
        event
    }

    /// Records an event once under `key`, however often the format is replayed (a resumed
    /// debate runs its format again from the start).
    fn push_once(&self, key: String, kind: impl FnOnce() -> EventKind) {
        let fresh = self.state.borrow_mut().replay.first_time(key);
        if fresh {
            self.push(kind());
        }
    }

    /// Records a phase header once, however often the format is replayed.
    pub fn phase(&self, key: &str, title: &str, round: Option<u32>) {
        self.push_once(phase_key(key), || EventKind::PhaseStarted {
            key: key.into(),
            title: title.into(),
            round,
        });
    }

    /// Records what the format found (an evaluation, a score, a crux card…) once, however
    /// often the format is replayed. `finding.key` must be unique within the debate.
    pub fn record(&self, finding: Finding) {
        self.push_once(finding_key(&finding.key), || {
            EventKind::FindingRecorded(finding)
        });
    }

    /// A choice made from randomness, the clock or a stream's content: made by `choose`
    /// the first time and recorded; a replay gets the recorded value back. `key` must be
    /// unique within the debate.
    pub fn decide<T: Serialize + DeserializeOwned>(
        &self,
        key: &str,
        choose: impl FnOnce() -> T,
    ) -> T {
        let recorded = self.state.borrow_mut().replay.decisions.remove(key);
        if let Some(v) = recorded {
            match serde_json::from_value(v) {
                Ok(t) => return t,
                Err(e) => self.state.borrow_mut().warnings.push(format!(
                    "decision {key}: the recorded value no longer fits ({e}); made again"
                )),
            }
        }
        let value = choose();
        self.push(EventKind::DecisionRecorded {
            key: key.into(),
            value: serde_json::to_value(&value).unwrap_or(serde_json::Value::Null),
        });
        value
    }

    /// A uniform number in [0, 1) for the choice named `key`, from the debate's seed,
    /// recorded as a decision.
    pub fn random(&self, key: &str) -> f64 {
        let seed = self.seed();
        self.decide(&format!("random/{key}"), || rng::uniform(seed, key))
    }

    /// `items` in a random order drawn from the debate's seed and `key` (Fisher–Yates),
    /// recorded as the decision `order/{key}`, so the log says which order was used and a
    /// replay uses it again.
    pub fn shuffle<T: Serialize + DeserializeOwned>(&self, key: &str, mut items: Vec<T>) -> Vec<T> {
        let seed = self.seed();
        self.decide(&format!("order/{key}"), move || {
            for i in (1..items.len()).rev() {
                let j = (rng::uniform(seed, &format!("{key}/{i}")) * (i + 1) as f64) as usize;
                items.swap(i, j.min(i));
            }
            items
        })
    }

    /// The debate's time now (virtual in tests), recorded as a decision under `key`, for
    /// choices that depend on it (a cooldown).
    pub fn now_ms(&self, key: &str) -> u64 {
        let clock = self.clock.clone();
        self.decide(&format!("clock/{key}"), || clock.now_ms())
    }

    pub fn finish(&self, outcome: Outcome, message: Option<String>) {
        if outcome == Outcome::Completed {
            let unused = self.state.borrow().replay.unused();
            if !unused.is_empty() {
                self.state.borrow_mut().warnings.push(format!(
                    "This replay did not use {}: {}. The debate took another path than the one recorded.",
                    crate::engine::reading::count(unused.len(), "recorded item"),
                    unused.join(", ")
                ));
            }
        }
        self.push(EventKind::Finished { outcome, message });
    }

    pub fn record_error(&self, message: String) {
        self.push(EventKind::Error { message });
    }

    fn next_key(&self, path: &str) -> CallKey {
        let mut st = self.state.borrow_mut();
        let n = st.occurrences.entry(path.to_string()).or_insert(0);
        let key = CallKey::new(path, *n);
        *n += 1;
        key
    }

    fn seat_name(&self, seat: &str) -> String {
        self.state
            .borrow()
            .config
            .seat(seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    /// Waits while another call holds the debate at its failure (that call records the
    /// hold), so a held debate asks nothing new; then while it is paused (by the user, or
    /// because the browser is offline), recording the pause and the resumption. The hold
    /// is waited out first: a pause that ends while the debate is still held must not
    /// leave this call recorded as going on.
    async fn wait_while_paused(&self) -> Result<(), DebateError> {
        loop {
            if self.inputs.is_halted() {
                self.or_stop(self.inputs.wait_for(|i| (!i.is_halted()).then_some(())))
                    .await?;
            } else if self.inputs.is_paused() {
                let reason = self.inputs.pause_reason().into();
                self.hold(reason, false, |i| !i.is_paused()).await?;
            } else {
                return Ok(());
            }
        }
    }

    /// Records a pause, waits until `done` holds (or Stop), and records the resumption.
    /// Calls held together for the same reason share one `Paused` and one `Resumed`.
    async fn hold(
        &self,
        reason: String,
        needs_resume: bool,
        done: impl Fn(&Inputs) -> bool,
    ) -> Result<(), DebateError> {
        let fresh = {
            let mut st = self.state.borrow_mut();
            let n = st.holds.entry(reason.clone()).or_insert(0);
            *n += 1;
            *n == 1
        };
        if fresh {
            self.push(EventKind::Paused {
                reason: reason.clone(),
                needs_resume,
            });
        }
        let outcome = self
            .or_stop(self.inputs.wait_for(|i| done(i).then_some(())))
            .await;
        let last = {
            let mut st = self.state.borrow_mut();
            let n = st.holds.get_mut(&reason).map_or(0, |n| {
                *n -= 1;
                *n
            });
            if n == 0 {
                st.holds.remove(&reason);
            }
            n == 0
        };
        if outcome.is_ok() && last {
            self.push(EventKind::Resumed);
        }
        outcome
    }

    async fn halt(&self, seat: &str, message: &str) -> Result<(), DebateError> {
        let name = self.seat_name(seat);
        let reason = format!(
            "{name}'s turn failed: {message} The debate is paused at this turn: fix the cause, then press Resume to try it again."
        );
        self.inputs.set_halted(true);
        let held = self.hold(reason, true, |i| !i.is_halted()).await;
        self.inputs.set_halted(false); // also when stopped while held
        held
    }

    fn take_input(&self, input: Input) {
        match input {
            Input::SpendingCap { usd } => self.budget.cap.set(usd),
            other => {
                if let Input::Evidence { text } = &other {
                    self.add_evidence(text);
                }
                self.state.borrow_mut().notes.push(other)
            }
        }
    }

    /// Waits until `f` resolves or Stop is pressed.
    async fn or_stop<T>(&self, f: impl std::future::Future<Output = T>) -> Result<T, DebateError> {
        match select(Box::pin(f), self.stop.cancelled()).await {
            Either::Left((t, _)) => Ok(t),
            Either::Right(_) => Err(DebateError::Stopped),
        }
    }

    fn queue(&self, key: &CallKey, spec: &CallSpec, queued: &mut bool) {
        if !*queued {
            *queued = true;
            self.push(EventKind::TurnQueued {
                call: key.clone(),
                seat: spec.seat.clone(),
                purpose: spec.purpose,
                label: spec.label.clone(),
            });
        }
    }

    /// The call boundary: pause is honoured, pending inputs are consumed and recorded (or,
    /// on a replay, the recorded ones are taken again), and a live call waits for room
    /// under the spending cap, which it then reserves. With `wait == false` a call that
    /// finds no room comes back at once with why (`Ok(Err(reason))`).
    async fn boundary(
        &self,
        key: &CallKey,
        spec: &CallSpec,
        live: Option<f64>,
        wait: bool,
        queued: &mut bool,
    ) -> Attempt<Option<Reservation>, String> {
        self.wait_while_paused().await?;
        if self.stop.is_cancelled() {
            return Err(DebateError::Stopped);
        }
        let recorded = self.state.borrow_mut().replay.inputs.remove(key);
        for input in recorded.into_iter().flatten() {
            self.take_input(input);
        }
        loop {
            let fresh: Vec<Input> = self.inputs.pending.borrow_mut().drain(..).collect();
            for input in fresh {
                self.push(EventKind::InputReceived {
                    before: key.clone(),
                    input: input.clone(),
                });
                self.take_input(input);
            }
            let Some(worst) = live else {
                return Ok(Ok(None));
            };
            let seen = self.inputs.generation();
            let room = {
                let st = self.state.borrow();
                self.budget.try_start(&st.config, &st.events, worst)
            };
            match room {
                Room::Go(id) => {
                    if self.budget.paused_at.take().is_some() {
                        self.inputs.set_at_cap(false);
                        self.push(EventKind::Resumed);
                    }
                    return Ok(Ok(id.map(|id| Reservation {
                        budget: self.budget.clone(),
                        inputs: self.inputs.clone(),
                        id,
                    })));
                }
                _ if !wait => {
                    return Ok(Err("The spending cap left no room for this check beside the speech it is about, so it was skipped rather than run after the speech.".to_string()))
                }
                Room::WaitForOthers => self.queue(key, spec, queued),
                Room::Spent { cap, spent, next } => {
                    // Once per pause, and again when a raised cap is still short.
                    if self.budget.paused_at.replace(Some(cap)) != Some(cap) {
                        self.inputs.set_at_cap(true);
                        self.push(EventKind::Paused {
                            reason: Room::paused_reason(cap, spent, next),
                            needs_resume: false,
                        });
                    }
                }
            }
            self.or_stop(self.inputs.changed_since(seen)).await?;
            self.wait_while_paused().await?;
        }
    }

    /// A place on the call's connection: at once, or after waiting in line (shown as
    /// queued). With `wait == false` a full connection answers `Busy` at once.
    async fn admit(
        &self,
        key: &CallKey,
        spec: &CallSpec,
        request: &ChatRequest,
        wait: bool,
        queued: &mut bool,
    ) -> Attempt<Admission, ModelError> {
        let mut admit = self.model.admit(request, wait);
        if let std::task::Poll::Ready(r) = futures::poll!(&mut admit) {
            return Ok(r);
        }
        self.queue(key, spec, queued);
        self.or_stop(admit).await
    }

    /// Makes one model call (or takes a person's turn for a human seat). A failure that
    /// retrying cannot fix holds the debate at this call until the user resumes.
    pub async fn call(&self, spec: CallSpec) -> Result<CallOutput, DebateError> {
        self.try_call(spec).await?.map_err(DebateError::Failed)
    }

    /// Like `call`, but where the spec says `tolerate_failure`, a failed call comes back as
    /// `Err(CallFailure)` (recorded as failed) and the debate goes on.
    pub async fn try_call(&self, spec: CallSpec) -> Attempt<CallOutput, CallFailure> {
        self.run_call(spec, true).await
    }

    /// A check that runs beside a stream (an interruption check on another seat): it never
    /// queues. When its connection has no free place, or it fails, it is recorded as skipped
    /// and comes back `None`, and the debate goes on. Checks are skipped rather than queued
    /// because a queued check would only run after the speech it checks has ended.
    pub async fn check(&self, spec: CallSpec) -> Result<Option<CallOutput>, DebateError> {
        Ok(self.run_call(spec.tolerate_failure(), false).await?.ok())
    }

    async fn run_call(&self, mut spec: CallSpec, wait: bool) -> Attempt<CallOutput, CallFailure> {
        let key = self.next_key(&spec.path);
        let _watch_end = WatchEnd(spec.watch.clone());
        let participant = {
            let st = self.state.borrow();
            let seat = st.config.seat(&spec.seat).ok_or_else(|| {
                DebateError::Config(format!("no seat `{}` in this debate", spec.seat))
            })?;
            seat.participant.clone()
        };
        // A seat's speeches may search the web when the user switched it on; a structured
        // answer never does (no provider searches inside a JSON schema).
        let search_web = spec.purpose == super::event::Purpose::Argument
            && !spec.json
            && spec.schema.is_none()
            && self.state.borrow().config.search_web.contains(&spec.seat);
        let (connection, model) = match &participant {
            Participant::Model {
                connection, model, ..
            } => (connection.clone(), model.clone()),
            Participant::Human => (String::new(), String::new()),
        };
        let mut request = ChatRequest {
            connection,
            model,
            seat: spec.seat.clone(),
            purpose: spec.purpose,
            call: key.to_string(),
            messages: std::mem::take(&mut spec.messages),
            temperature: spec.temperature,
            max_tokens: spec.max_tokens,
            json: spec.json,
            schema: spec.schema.clone(),
            search_web,
        };
        self.ground(&mut request, &participant);
        let hash = request_hash(&request);
        let human = matches!(participant, Participant::Human);

        let skipped = self.state.borrow_mut().replay.skipped.remove(&key);
        let recorded = self.state.borrow_mut().replay.calls.remove(&key);
        let live = (skipped.is_none() && recorded.is_none() && !human).then(|| {
            let st = self.state.borrow();
            worst_case(&st.config, &request, self.model.ceiling(&request))
        });
        let mut queued = false;
        // A check beside a stream never waits for room under the cap either: it would
        // come after the speech it checks, or pause the debate for a call it can skip.
        let reservation = match self.boundary(&key, &spec, live, wait, &mut queued).await? {
            Ok(r) => r,
            Err(reason) => {
                self.push(EventKind::CallSkipped {
                    call: key.clone(),
                    seat: spec.seat.clone(),
                    reason: reason.clone(),
                    failed: false,
                });
                return Ok(Err(CallFailure {
                    key,
                    seat: spec.seat,
                    message: reason,
                }));
            }
        };

        if let Some(s) = skipped {
            return Ok(Err(CallFailure {
                key,
                seat: spec.seat,
                message: s.reason,
            }));
        }
        if let Some(r) = recorded {
            if r.request_hash.as_deref().is_some_and(|h| h != hash) {
                self.state.borrow_mut().warnings.push(format!(
                    "{key}: the prompt changed since it was recorded; the recorded answer is kept"
                ));
            }
            if let Some(w) = &spec.watch {
                w.finish(Some(&r.text));
            }
            if let Some(web) = &r.web {
                self.add_web(web);
            }
            return Ok(Ok(CallOutput {
                key,
                text: r.text,
                usage: r.usage,
                finish: r.finish,
                replayed: true,
            }));
        }
        if human {
            self.push(EventKind::TurnStarted {
                call: key.clone(),
                seat: spec.seat.clone(),
                purpose: spec.purpose,
                label: spec.label.clone(),
                request_hash: hash,
                human,
                request: String::new(),
            });
            return self.human_turn(key, spec.seat).await.map(Ok);
        }
        let out = self
            .with_retries(&key, &spec, &request, &hash, wait, &mut queued)
            .await;
        drop(reservation);
        if let (Some(w), Ok(Ok(o))) = (&spec.watch, &out) {
            w.finish(Some(&o.text));
        }
        out
    }

    async fn human_turn(&self, key: CallKey, seat: String) -> Result<CallOutput, DebateError> {
        let k = key.clone();
        let wait = self
            .inputs
            .wait_for(move |i| i.human.borrow_mut().remove(&k));
        let text = match self.or_stop(wait).await {
            Ok(t) => t,
            Err(e) => {
                self.push(EventKind::TurnFailed {
                    call: key,
                    seat,
                    partial: String::new(),
                    error: "Stopped.".into(),
                });
                return Err(e);
            }
        };
        let usage = Usage::default();
        self.push(EventKind::TurnFinished {
            call: key.clone(),
            seat,
            text: text.clone(),
            reasoning: String::new(),
            usage,
            finish: FinishReason::Stop,
        });
        Ok(CallOutput {
            key,
            text,
            usage,
            finish: FinishReason::Stop,
            replayed: false,
        })
    }

    /// An analysis call that must return JSON of a given shape: the JSON is extracted from
    /// whatever the model wrapped it in and read by `read`; when that finds a problem, one
    /// repair request names it. Returns the key of the call whose answer was read beside
    /// the value, or why there is none: the result is then unscored, never a made-up
    /// default.
    pub async fn call_json<T>(
        &self,
        spec: CallSpec,
        read: impl Fn(&serde_json::Value) -> Result<T, Problem>,
    ) -> Result<Structured<T>, DebateError> {
        let repair = spec.repair_of();
        let seat = spec.seat.clone();
        let read_text = |text: &str| json_extract::extract(text).and_then(|v| read(&v));
        let first = match self.try_call(spec.json()).await? {
            Ok(first) => first,
            Err(failed) => {
                self.record_read(&failed.key, &seat, ReadOutcome::Unread, &failed.message);
                return Ok(Structured {
                    key: failed.key,
                    read: Err(Unread::NoAnswer {
                        message: failed.message,
                    }),
                });
            }
        };
        let problem = match read_text(&first.text) {
            Ok(t) => {
                self.record_read(&first.key, &seat, ReadOutcome::Parsed, "");
                return Ok(Structured {
                    key: first.key,
                    read: Ok(t),
                });
            }
            Err(problem) => problem,
        };
        let said = problem.to_string();
        let (key, read) = match self.try_call(repair(first.text, &said)).await? {
            Ok(second) => (
                second.key,
                read_text(&second.text).map_err(|problem| Unread::Unreadable { problem }),
            ),
            // The repair brought nothing: what was wrong is still the first answer's problem.
            Err(_) => (first.key.clone(), Err(Unread::Unreadable { problem })),
        };
        let outcome = if read.is_ok() {
            ReadOutcome::Repaired
        } else {
            ReadOutcome::Unread
        };
        self.record_read(&first.key, &seat, outcome, &said);
        Ok(Structured { key, read })
    }

    /// Records what a structured call found, once: `body` of the value read, or "not
    /// scored" (`what` could not be judged) with the reason the answer could not be read.
    pub fn record_structured<T>(
        &self,
        finding: (String, Option<CallKey>, &str),
        what: impl FnOnce() -> String,
        read: Result<T, Unread>,
        body: impl FnOnce(T) -> FindingBody,
    ) {
        self.record(structured_finding(finding, what, read, body));
    }

    /// How a structured answer was read, once per call (a resumed debate replays the calls
    /// and comes back here without recording it again).
    fn record_read(&self, call: &CallKey, seat: &str, outcome: ReadOutcome, problem: &str) {
        self.push_once(read_key(call), || EventKind::StructuredRead {
            call: call.clone(),
            seat: seat.to_string(),
            outcome,
            problem: problem.to_string(),
        });
    }
}

/// What a structured call found, to record: `body` of the value read, or "not scored"
/// (`what` could not be judged) with the reason the answer could not be read. Apart from
/// recording it, for a step that records several in an order of its own.
pub fn structured_finding<T>(
    (key, about, seat): (String, Option<CallKey>, &str),
    what: impl FnOnce() -> String,
    read: Result<T, Unread>,
    body: impl FnOnce(T) -> FindingBody,
) -> Finding {
    let body = match read {
        Ok(t) => body(t),
        Err(unread) => FindingBody::Unscored {
            what: what(),
            reason: unread.to_string(),
        },
    };
    Finding {
        key,
        about,
        seat: seat.to_string(),
        body,
    }
}

fn request_hash(r: &ChatRequest) -> String {
    let mut body = serde_json::json!({
        "model": r.model, "messages": r.messages, "temperature": r.temperature,
        "max_tokens": r.max_tokens, "json": r.json,
    });
    // Only when present, so debates recorded before schemas existed still match.
    if let Some(s) = &r.schema {
        body["schema"] = s.clone();
    }
    format!("{:016x}", fnv1a(body.to_string().as_bytes()))
}

#[cfg(test)]
mod tests;
