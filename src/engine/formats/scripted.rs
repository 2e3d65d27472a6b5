//! One way the formats' native tests run a whole debate: on a scripted model under the
//! virtual clock, with inputs given up front, keeping every event and request.

use std::rc::Rc;

use super::super::cancel::CancelToken;
use super::super::clock::{run_virtual, VirtualClock};
use super::super::config::{DebateConfig, Participant};
use super::super::context::{DebateCtx, EventLog, Inputs, Wiring};
use super::super::event::{Event, Outcome};
use super::super::model::ChatRequest;
use super::super::script::{Script, ScriptedModel};

/// A seat on a scripted connection named `connection`, with an 8,192-token window.
pub fn model(connection: &str) -> Participant {
    Participant::Model {
        connection: connection.into(),
        connection_label: connection.into(),
        model: "m".into(),
        context_tokens: 8192,
        price: None,
    }
}

pub struct Scripted {
    pub outcome: Outcome,
    pub events: Vec<Event>,
    /// Every request the model was sent, in order.
    pub requests: Vec<ChatRequest>,
}

impl Scripted {
    /// The call keys of the requests, in order.
    pub fn calls(&self) -> Vec<String> {
        self.requests.iter().map(|r| r.call.clone()).collect()
    }
}

pub fn run_scripted(config: DebateConfig, script: Script, inputs: Rc<Inputs>) -> Scripted {
    let clock = VirtualClock::new(0);
    let model = Rc::new(ScriptedModel::new(script, clock.clone()));
    let log = Rc::new(EventLog::default());
    let ctx = DebateCtx::start(
        config,
        1,
        0,
        Wiring {
            retry: Default::default(),
            limits: Default::default(),
            model: model.clone(),
            clock: Rc::new(clock.clone()),
            observer: log.clone(),
            inputs,
            stop: CancelToken::new(),
        },
    );
    let outcome = run_virtual(&clock, async move { super::drive(&ctx).await });
    let requests = model.requests.borrow().clone();
    let events = log.events.borrow().clone();
    Scripted {
        outcome,
        events,
        requests,
    }
}
