//! The context a format runs in. Every model call goes through `DebateCtx::call` with a call
//! key the format assigns; the context records it in the event log, streams its tokens to the
//! observer, and on a resume returns the recorded result of any call already in the log
//! (without new events) so the first unrecorded call is the first to go live.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures::future::{select, Either};

use super::cancel::CancelToken;
use super::clock::Clock;
use super::config::{DebateConfig, Participant};
use super::cost::{dollars, Ledger};
use super::event::{
    CallKey, Event, EventKind, FinishReason, Input, Outcome, Purpose, Usage, SCHEMA_VERSION,
};
use super::json_extract;
use super::model::{ChatMessage, ChatModel, ChatRequest, ErrorKind, ModelError};
use super::rng::{fnv1a, Rng};
use super::small_map::SmallMap;

/// Receives everything the debate produces: finished events (to persist and render) and
/// live token deltas (to render only).
pub trait Observer {
    fn on_event(&self, event: &Event);
    fn on_delta(&self, call: &CallKey, seat: &str, delta: &str);
}

/// An observer that ignores everything.
pub struct NullObserver;
impl Observer for NullObserver {
    fn on_event(&self, _: &Event) {}
    fn on_delta(&self, _: &CallKey, _: &str, _: &str) {}
}

#[derive(Debug, Clone, PartialEq)]
pub enum DebateError {
    /// The user pressed Stop.
    Stopped,
    /// A model call failed; the turn is recorded as failed with its partial text.
    Model { seat: String, error: ModelError },
    /// The configuration does not fit the format.
    Config(String),
}

impl std::fmt::Display for DebateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DebateError::Stopped => f.write_str("Stopped."),
            DebateError::Model { seat, error } => write!(f, "{seat}: {error}"),
            DebateError::Config(m) => f.write_str(m),
        }
    }
}

/// One model call as a format asks for it.
pub struct CallSpec {
    pub path: String,
    pub seat: String,
    pub purpose: Purpose,
    /// What the turn is, for people: "Opening statement".
    pub label: String,
    pub messages: Vec<ChatMessage>,
    pub temperature: Option<f32>,
    pub max_tokens: u32,
    pub json: bool,
    pub schema: Option<serde_json::Value>,
    /// Lets the format cut this call mid-stream (an interruption); the partial text is kept.
    pub cancel: Option<CancelToken>,
    /// Lets the format watch this call's text as it streams.
    pub on_delta: Option<Rc<dyn Fn(&str)>>,
}

impl CallSpec {
    pub fn new(
        path: impl Into<String>,
        seat: impl Into<String>,
        purpose: Purpose,
        label: impl Into<String>,
    ) -> Self {
        CallSpec {
            path: path.into(),
            seat: seat.into(),
            purpose,
            label: label.into(),
            messages: Vec::new(),
            temperature: None,
            max_tokens: 256,
            json: false,
            schema: None,
            cancel: None,
            on_delta: None,
        }
    }
    pub fn messages(mut self, m: Vec<ChatMessage>) -> Self {
        self.messages = m;
        self
    }
    pub fn temperature(mut self, t: f32) -> Self {
        self.temperature = Some(t);
        self
    }
    pub fn max_tokens(mut self, n: u32) -> Self {
        self.max_tokens = n;
        self
    }
    pub fn json(mut self) -> Self {
        self.json = true;
        self
    }
    /// Asks for JSON following `schema`, natively where the provider can.
    pub fn json_schema(mut self, schema: serde_json::Value) -> Self {
        self.json = true;
        self.schema = Some(schema);
        self
    }
    pub fn cancel(mut self, c: CancelToken) -> Self {
        self.cancel = Some(c);
        self
    }
    pub fn on_delta(mut self, f: impl Fn(&str) + 'static) -> Self {
        self.on_delta = Some(Rc::new(f));
        self
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct CallOutput {
    pub key: CallKey,
    pub text: String,
    pub usage: Usage,
    pub finish: FinishReason,
    /// True when the result came from the recorded log rather than a live call.
    pub replayed: bool,
}

/// Inputs that arrive from outside (the UI or a test): consumed at call boundaries.
#[derive(Default)]
pub struct Inputs {
    pending: RefCell<VecDeque<Input>>,
    /// People's turns by the call that waits for them.
    human: RefCell<SmallMap<CallKey, String>>,
    paused: Cell<bool>,
    /// The browser is offline: a pause of its own, lifted by the `online` event, so that it
    /// never undoes (or is undone by) the user's own pause.
    offline: Cell<bool>,
    /// Held at a failed call until the user resumes.
    halted: Cell<bool>,
    wakers: RefCell<Vec<Waker>>,
}

impl Inputs {
    pub fn new() -> Rc<Self> {
        Rc::new(Self::default())
    }

    pub fn push(&self, input: Input) {
        match input {
            Input::HumanTurn { call, text } => {
                self.human.borrow_mut().insert(call, text);
            }
            other => self.pending.borrow_mut().push_back(other),
        }
        self.wake();
    }

    pub fn set_paused(&self, paused: bool) {
        self.paused.set(paused);
        self.wake();
    }

    pub fn set_offline(&self, offline: bool) {
        self.offline.set(offline);
        self.wake();
    }

    /// The user's Resume for a debate held at a failed call: that call is tried again.
    pub fn release(&self) {
        self.halted.set(false);
        self.wake();
    }

    pub fn is_halted(&self) -> bool {
        self.halted.get()
    }

    pub fn is_paused(&self) -> bool {
        self.paused.get() || self.offline.get()
    }

    fn pause_reason(&self) -> &'static str {
        if self.offline.get() {
            "You are offline. The debate goes on by itself when the connection returns."
        } else {
            "Paused by the user."
        }
    }

    fn wake(&self) {
        for w in self.wakers.borrow_mut().drain(..) {
            w.wake();
        }
    }

    fn wait_for<T>(
        self: &Rc<Self>,
        f: impl Fn(&Inputs) -> Option<T>,
    ) -> WaitFor<T, impl Fn(&Inputs) -> Option<T>> {
        WaitFor {
            inputs: self.clone(),
            f,
        }
    }
}

struct WaitFor<T, F: Fn(&Inputs) -> Option<T>> {
    inputs: Rc<Inputs>,
    f: F,
}

impl<T, F: Fn(&Inputs) -> Option<T>> Future for WaitFor<T, F> {
    type Output = T;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        match (self.f)(&self.inputs) {
            Some(v) => Poll::Ready(v),
            None => {
                self.inputs.wakers.borrow_mut().push(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

struct Recorded {
    text: String,
    usage: Usage,
    finish: FinishReason,
    request_hash: Option<String>,
}

struct State {
    config: DebateConfig,
    events: Vec<Event>,
    recorded_calls: SmallMap<CallKey, Recorded>,
    recorded_keys: Vec<String>,
    recorded_inputs: SmallMap<CallKey, Vec<Input>>,
    occurrences: SmallMap<String, u32>,
    notes: Vec<Input>,
    warnings: Vec<String>,
    rng: Rng,
    /// The spending cap in force: the configured one, or the last one given as an input.
    cap: Option<f64>,
}

#[derive(Clone)]
pub struct DebateCtx {
    state: Rc<RefCell<State>>,
    model: Rc<dyn ChatModel>,
    clock: Rc<dyn Clock>,
    observer: Rc<dyn Observer>,
    inputs: Rc<Inputs>,
    stop: CancelToken,
    retry: super::retry::RetryPolicy,
}

pub struct Wiring {
    pub retry: super::retry::RetryPolicy,
    pub model: Rc<dyn ChatModel>,
    pub clock: Rc<dyn Clock>,
    pub observer: Rc<dyn Observer>,
    pub inputs: Rc<Inputs>,
    pub stop: CancelToken,
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
        let mut recorded_calls = SmallMap::new();
        let mut recorded_keys = Vec::new();
        let mut recorded_inputs: SmallMap<CallKey, Vec<Input>> = SmallMap::new();
        let mut hashes = SmallMap::new();
        for e in &events {
            match &e.kind {
                EventKind::TurnStarted {
                    call, request_hash, ..
                } => {
                    hashes.insert(call.clone(), request_hash.clone());
                }
                EventKind::TurnFinished {
                    call,
                    text,
                    usage,
                    finish,
                    ..
                } => {
                    recorded_calls.insert(
                        call.clone(),
                        Recorded {
                            text: text.clone(),
                            usage: *usage,
                            finish: *finish,
                            request_hash: hashes.get(call).cloned(),
                        },
                    );
                }
                EventKind::PhaseStarted { key, .. } => {
                    recorded_keys.push(key.clone());
                }
                EventKind::InputReceived { before, input } => {
                    recorded_inputs
                        .entry_or_insert_with(before.clone(), Vec::new)
                        .push(input.clone());
                }
                _ => {}
            }
        }
        let cap = config.spending_cap;
        DebateCtx {
            state: Rc::new(RefCell::new(State {
                config,
                events,
                recorded_calls,
                recorded_keys,
                recorded_inputs,
                occurrences: SmallMap::new(),
                notes: Vec::new(),
                warnings: Vec::new(),
                rng: Rng::new(seed),
                cap,
            })),
            model: w.model,
            clock: w.clock,
            observer: w.observer,
            inputs: w.inputs,
            stop: w.stop,
            retry: w.retry,
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

    pub fn clock(&self) -> Rc<dyn Clock> {
        self.clock.clone()
    }

    /// Replay warnings (a recorded call whose request changed since).
    pub fn warnings(&self) -> Vec<String> {
        self.state.borrow().warnings.clone()
    }

    /// Questions and evidence the audience has sent so far, in order.
    pub fn notes(&self) -> Vec<Input> {
        self.state.borrow().notes.clone()
    }

    /// The next deterministic random number (the seed is in the log, so a replay agrees).
    pub fn random(&self) -> f64 {
        self.state.borrow_mut().rng.next_f64()
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

    /// Records a phase header once, however often the format is replayed.
    pub fn phase(&self, key: &str, title: &str, round: Option<u32>) {
        let fresh = {
            let keys = &mut self.state.borrow_mut().recorded_keys;
            let fresh = !keys.iter().any(|k| k == key);
            if fresh {
                keys.push(key.to_string());
            }
            fresh
        };
        if fresh {
            self.push(EventKind::PhaseStarted {
                key: key.into(),
                title: title.into(),
                round,
            });
        }
    }

    pub fn finish(&self, outcome: Outcome, message: Option<String>) {
        self.push(EventKind::Finished { outcome, message });
    }

    pub fn record_error(&self, message: String) {
        self.push(EventKind::Error { message });
    }

    fn next_key(&self, path: &str) -> CallKey {
        let mut st = self.state.borrow_mut();
        let n = st.occurrences.entry_or_insert_with(path.to_string(), || 0);
        let key = CallKey::new(path, *n);
        *n += 1;
        key
    }

    /// Waits while the debate is paused (by the user, or because the browser is offline),
    /// recording the pause and the resumption.
    async fn wait_while_paused(&self) -> Result<(), DebateError> {
        if self.inputs.is_paused() {
            let reason = self.inputs.pause_reason().into();
            self.hold(reason, false, |i| !i.is_paused()).await?;
        }
        Ok(())
    }

    /// Records a pause, waits until `done` holds (or Stop), and records the resumption.
    async fn hold(
        &self,
        reason: String,
        needs_resume: bool,
        done: impl Fn(&Inputs) -> bool,
    ) -> Result<(), DebateError> {
        self.push(EventKind::Paused {
            reason,
            needs_resume,
        });
        let inputs = self.inputs.clone();
        let wait = inputs.wait_for(|i| done(i).then_some(()));
        match select(Box::pin(wait), self.stop.cancelled()).await {
            Either::Left(_) => {
                self.push(EventKind::Resumed);
                Ok(())
            }
            Either::Right(_) => Err(DebateError::Stopped),
        }
    }

    /// The call boundary: pause is honoured, pending inputs are consumed and recorded (or,
    /// on a replay, the recorded ones are taken again), and a model call waits while the
    /// debate has spent its cap.
    async fn boundary(&self, key: &CallKey, model_call: bool) -> Result<(), DebateError> {
        self.wait_while_paused().await?;
        if self.stop.is_cancelled() {
            return Err(DebateError::Stopped);
        }
        let recorded = self.state.borrow_mut().recorded_inputs.remove(key);
        if let Some(inputs) = recorded {
            for input in inputs {
                self.take_input(input);
            }
            return Ok(());
        }
        // A replayed call costs nothing: the cap is only checked before live calls.
        let replayed = self.state.borrow().recorded_calls.contains_key(key);
        loop {
            let fresh: Vec<Input> = self.inputs.pending.borrow_mut().drain(..).collect();
            for input in fresh {
                self.push(EventKind::InputReceived {
                    before: key.clone(),
                    input: input.clone(),
                });
                self.take_input(input);
            }
            // Only a live model call under a cap needs the sum of what was spent.
            let over = {
                let st = self.state.borrow();
                st.cap.filter(|_| model_call && !replayed).and_then(|cap| {
                    let spent = Ledger::from_events(&st.config, &st.events).total;
                    (spent >= cap).then_some((cap, spent))
                })
            };
            let Some((cap, spent)) = over else {
                return Ok(());
            };
            let reason = format!(
                "The spending cap of {} is reached ({} spent). Raise the cap to go on.",
                dollars(cap),
                dollars(spent)
            );
            // Any input may be the raised cap: the loop takes it and checks again.
            self.hold(reason, false, |i| !i.pending.borrow().is_empty())
                .await?;
        }
    }

    async fn halt(&self, seat: &str, message: &str) -> Result<(), DebateError> {
        let name = self
            .state
            .borrow()
            .config
            .seat(seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone());
        let reason = format!(
            "{name}'s turn failed: {message} The debate is paused at this turn: fix the cause, then press Resume to try it again."
        );
        self.inputs.halted.set(true);
        let held = self.hold(reason, true, |i| !i.halted.get()).await;
        self.inputs.halted.set(false); // also when stopped while held
        held
    }

    fn take_input(&self, input: Input) {
        let mut st = self.state.borrow_mut();
        match input {
            Input::SpendingCap { usd } => st.cap = usd,
            other => st.notes.push(other),
        }
    }

    /// Makes one model call (or takes a human's turn for a human seat).
    pub async fn call(&self, mut spec: CallSpec) -> Result<CallOutput, DebateError> {
        let key = self.next_key(&spec.path);
        let participant = {
            let st = self.state.borrow();
            let seat = st.config.seat(&spec.seat).ok_or_else(|| {
                DebateError::Config(format!("no seat `{}` in this debate", spec.seat))
            })?;
            seat.participant.clone()
        };
        self.boundary(&key, !matches!(participant, Participant::Human))
            .await?;
        let (connection, model) = match &participant {
            Participant::Model {
                connection, model, ..
            } => (connection.clone(), model.clone()),
            Participant::Human => (String::new(), String::new()),
        };
        let request = ChatRequest {
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
        };
        let hash = request_hash(&request);
        let recorded = self.state.borrow_mut().recorded_calls.remove(&key);
        if let Some(r) = recorded {
            if r.request_hash.as_deref().is_some_and(|h| h != hash) {
                self.state.borrow_mut().warnings.push(format!(
                    "{key}: the prompt changed since it was recorded; the recorded answer is kept"
                ));
            }
            return Ok(CallOutput {
                key,
                text: r.text,
                usage: r.usage,
                finish: r.finish,
                replayed: true,
            });
        }
        let human = matches!(participant, Participant::Human);
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
            return self.human_turn(key, spec.seat).await;
        }
        let mut attempt = 1;
        loop {
            match self.attempt(&key, &spec, &request, &hash).await {
                Ok(out) => return Ok(out),
                Err(e) if e.kind == ErrorKind::Cancelled => return Err(DebateError::Stopped),
                Err(mut e) => {
                    let max = self.retry.max_attempts;
                    let wait = if e.retryable() && attempt < max {
                        self.retry.delay(attempt, e.retry_after_ms, self.random())
                    } else {
                        None
                    };
                    let Some(wait_ms) = wait else {
                        if e.retryable() && attempt >= max && max > 1 {
                            e.message = format!("{} (gave up after {attempt} attempts)", e.message);
                        } else if let (true, Some(ms)) = (e.retryable(), e.retry_after_ms) {
                            e.message = format!(
                                "{} (the provider asks to wait {} s)",
                                e.message,
                                ms / 1000
                            );
                        }
                        // Retrying cannot fix it now: hold the debate at this call, with
                        // everything said so far, until the user fixes the cause and resumes.
                        self.halt(&spec.seat, &e.message).await?;
                        attempt = 1;
                        continue;
                    };
                    attempt += 1;
                    self.push(EventKind::RetryScheduled {
                        call: key.clone(),
                        attempt,
                        max_attempts: max,
                        wait_ms,
                        reason: e.message.clone(),
                    });
                    if let Either::Right(_) =
                        select(self.clock.sleep(wait_ms), self.stop.cancelled()).await
                    {
                        return Err(DebateError::Stopped);
                    }
                    // Offline, or paused by the user meanwhile: wait before trying again.
                    self.wait_while_paused().await?;
                }
            }
        }
    }

    /// One attempt at a model call: `TurnStarted`, the stream, then `TurnFinished` or
    /// `TurnFailed` (whose partial text stays visible and is never fed to later prompts).
    async fn attempt(
        &self,
        key: &CallKey,
        spec: &CallSpec,
        request: &ChatRequest,
        hash: &str,
    ) -> Result<CallOutput, ModelError> {
        self.push(EventKind::TurnStarted {
            call: key.clone(),
            seat: spec.seat.clone(),
            purpose: spec.purpose,
            label: spec.label.clone(),
            request_hash: hash.to_string(),
            human: false,
            request: self.model.describe(request),
        });
        let (cancel, _stop_link) = self.stop.child();
        let _cut_link = spec.cancel.as_ref().map(|c| {
            let inner = cancel.clone();
            c.on_cancel(move || inner.cancel())
        });
        let observer = self.observer.clone();
        let watcher = spec.on_delta.clone();
        let (dkey, dseat) = (key.clone(), spec.seat.clone());
        let on_delta = move |d: &str| {
            observer.on_delta(&dkey, &dseat, d);
            if let Some(w) = &watcher {
                w(d);
            }
        };
        let result = self.model.complete(request, &on_delta, &cancel).await;
        let (text, reasoning, usage, finish) = match result {
            Ok(resp) => (resp.text, resp.reasoning, resp.usage, resp.finish),
            Err(e) if e.kind == ErrorKind::Cancelled && !self.stop.is_cancelled() => {
                // Cut on purpose by the format (an interruption): the partial text is the turn.
                let usage = Usage {
                    input_tokens: request
                        .messages
                        .iter()
                        .map(|m| super::tokens::estimate(&m.content))
                        .sum(),
                    output_tokens: super::tokens::estimate(&e.partial),
                    estimated: true,
                };
                (e.partial, String::new(), usage, FinishReason::Cut)
            }
            Err(e) => {
                let error = if e.kind == ErrorKind::Cancelled {
                    "Stopped.".to_string()
                } else {
                    e.message.clone()
                };
                self.push(EventKind::TurnFailed {
                    call: key.clone(),
                    seat: spec.seat.clone(),
                    partial: e.partial.clone(),
                    error,
                });
                return Err(e);
            }
        };
        self.push(EventKind::TurnFinished {
            call: key.clone(),
            seat: spec.seat.clone(),
            text: text.clone(),
            reasoning,
            usage,
            finish,
        });
        Ok(CallOutput {
            key: key.clone(),
            text,
            usage,
            finish,
            replayed: false,
        })
    }

    async fn human_turn(&self, key: CallKey, seat: String) -> Result<CallOutput, DebateError> {
        let k = key.clone();
        let wait = self
            .inputs
            .wait_for(move |i| i.human.borrow_mut().remove(&k));
        let text = match select(Box::pin(wait), self.stop.cancelled()).await {
            Either::Left((t, _)) => t,
            Either::Right(_) => {
                self.push(EventKind::TurnFailed {
                    call: key,
                    seat,
                    partial: String::new(),
                    error: "Stopped.".into(),
                });
                return Err(DebateError::Stopped);
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
    /// whatever the model wrapped it in and validated; on failure one repair request is made.
    /// `Ok(None)` means the model never produced valid JSON: the result is unscored, never a
    /// made-up default.
    pub async fn call_json<T>(
        &self,
        spec: CallSpec,
        validate: impl Fn(&serde_json::Value) -> Result<T, String>,
    ) -> Result<Option<T>, DebateError> {
        let path = spec.path.clone();
        let (seat, purpose, label, max_tokens) = (
            spec.seat.clone(),
            spec.purpose,
            spec.label.clone(),
            spec.max_tokens,
        );
        let mut messages = spec.messages.clone();
        let schema = spec.schema.clone();
        let first = self.call(spec.json()).await?;
        let problem = match json_extract::extract(&first.text) {
            Ok(v) => match validate(&v) {
                Ok(t) => return Ok(Some(t)),
                Err(e) => e,
            },
            Err(e) => e,
        };
        messages.push(ChatMessage {
            role: super::model::Role::Assistant,
            content: first.text,
        });
        messages.push(ChatMessage::user(super::prompt::render(
            super::prompt::JSON_REPAIR,
            &[("problem", problem.as_str())],
        )));
        let repair = CallSpec::new(
            format!("{path}/repair"),
            seat,
            purpose,
            format!("{label} (repair)"),
        )
        .messages(messages)
        .max_tokens(max_tokens)
        .temperature(0.0);
        let repair = match schema {
            Some(s) => repair.json_schema(s),
            None => repair.json(),
        };
        let second = self.call(repair).await?;
        Ok(json_extract::extract(&second.text)
            .ok()
            .and_then(|v| validate(&v).ok()))
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
