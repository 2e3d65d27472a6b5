//! One way the formats' native tests run a whole debate: on a scripted model under the
//! virtual clock, with inputs given up front, keeping every event and request.

use std::rc::Rc;

use crate::engine::cancel::CancelToken;
use crate::engine::clock::{run_virtual_with, Clock, VirtualClock};
use crate::engine::config::{DebateConfig, Participant};
use crate::engine::context::{DebateCtx, EventLog, Inputs, Wiring};
use crate::engine::event::{Event, Outcome};
use crate::engine::model::ChatRequest;
use crate::engine::script::{Script, ScriptedModel};
use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;

/// A seat on a scripted connection named `connection`, with an 8,192-token window.
pub fn model(connection: &str) -> Participant {
    model_with_window(connection, 8192)
}

/// A seat on a scripted connection with a context window of `tokens`.
pub fn model_with_window(connection: &str, tokens: u32) -> Participant {
    Participant::Model {
        connection: connection.into(),
        connection_label: connection.into(),
        model: "m".into(),
        context_tokens: tokens,
        price: None,
    }
}

pub struct Scripted {
    pub outcome: Outcome,
    pub events: Vec<Event>,
    /// Every request the model was sent, in order.
    pub requests: Vec<ChatRequest>,
    /// What the run noted as odd (a replay that did not match its log, say).
    pub warnings: Vec<String>,
}

impl Scripted {
    /// The call keys of the requests, in order.
    pub fn calls(&self) -> Vec<String> {
        self.requests.iter().map(|r| r.call.clone()).collect()
    }
}

pub fn run_scripted(config: DebateConfig, script: Script, inputs: Rc<Inputs>) -> Scripted {
    run_scripted_at(config, script, inputs, 0)
}

/// Like `run_scripted`, the clock starting at `start_ms` (milliseconds since 1970).
pub fn run_scripted_at(
    config: DebateConfig,
    script: Script,
    inputs: Rc<Inputs>,
    start_ms: u64,
) -> Scripted {
    let planned = crate::engine::formats::planned_calls(&config);
    drive_scripted(
        script,
        inputs,
        EventLog::default(),
        None,
        start_ms,
        |wiring| Ok(DebateCtx::start(config, 1, planned, wiring)),
    )
}

/// What a user does while a scripted debate runs: a task on the same virtual clock, given
/// the clock, the debate's inputs and its log so far.
pub type User =
    Box<dyn FnOnce(VirtualClock, Rc<Inputs>, Rc<EventLog>) -> LocalBoxFuture<'static, ()>>;

/// Like `run_scripted`, with `user` acting alongside (pausing, resuming a held debate…).
pub fn run_scripted_with_user(config: DebateConfig, script: Script, user: User) -> Scripted {
    drive_scripted(
        script,
        Inputs::new(),
        EventLog::default(),
        Some(user),
        0,
        |wiring| Ok(DebateCtx::start(config, 1, 0, wiring)),
    )
}

/// Resumes a debate from its log (a closed tab's) on a scripted model: a replay that
/// matches makes no call for what the log already holds.
pub fn resume_scripted(events: Vec<Event>, script: Script) -> Scripted {
    let log = EventLog::with(events.clone());
    drive_scripted(script, Inputs::new(), log, None, 0, |wiring| {
        DebateCtx::resume(events, wiring)
    })
}

/// One scripted run under the virtual clock, from a context `start` builds on its wiring;
/// `log` holds the events (those resumed from first).
fn drive_scripted(
    script: Script,
    inputs: Rc<Inputs>,
    log: EventLog,
    user: Option<User>,
    start_ms: u64,
    start: impl FnOnce(Wiring) -> Result<DebateCtx, String>,
) -> Scripted {
    let clock = VirtualClock::new(start_ms);
    let model = Rc::new(ScriptedModel::new(script, clock.clone()));
    let log = Rc::new(log);
    let stop = CancelToken::new();
    let ctx = start(Wiring {
        retry: Default::default(),
        limits: Default::default(),
        model: model.clone(),
        clock: Rc::new(clock.clone()),
        observer: log.clone(),
        inputs: inputs.clone(),
        stop: stop.clone(),
    })
    .expect("the scripted debate starts");
    let c2 = ctx.clone();
    // A debate held for the user (a refused key) is stopped after ten virtual hours, as a
    // user who never comes back would leave it.
    let c3 = clock.clone();
    let (user_clock, user_log) = (clock.clone(), log.clone());
    let outcome = run_virtual_with(&clock, move |spawner| {
        spawner
            .spawn_local(async move {
                c3.sleep(36_000_000).await;
                stop.cancel();
            })
            .expect("spawn the stopper");
        if let Some(user) = user {
            spawner
                .spawn_local(user(user_clock, inputs, user_log))
                .expect("spawn the user");
        }
        async move { super::super::drive(&c2).await }
    });
    let requests = model.requests.borrow().clone();
    let events = log.events.borrow().clone();
    Scripted {
        outcome,
        events,
        requests,
        warnings: ctx.warnings(),
    }
}
