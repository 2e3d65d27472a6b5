//! The call builder: one model call as a format asks for it, and what comes back.

use std::rc::Rc;

use super::super::cancel::CancelToken;
use super::super::event::{CallKey, FinishReason, Purpose, Usage};
use super::super::model::{ChatMessage, Role};
use super::super::prompt::{render, JSON_REPAIR};
use super::watch::Watch;

/// Receives each text fragment of a call as it streams.
pub type DeltaFn = Rc<dyn Fn(&str)>;

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
    /// Lets the format cut this call at once; the partial text is kept.
    pub cancel: Option<CancelToken>,
    /// Lets the format watch this call's text as it streams (and cut it at a sentence).
    pub watch: Option<Watch>,
    /// Lets the format see each fragment as it streams.
    pub on_delta: Option<DeltaFn>,
    /// A failure the format can do without: the call is recorded as failed and the debate
    /// goes on instead of being held at this call.
    pub tolerate_failure: bool,
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
            watch: None,
            on_delta: None,
            tolerate_failure: false,
        }
    }
    pub fn messages(mut self, m: Vec<ChatMessage>) -> Self {
        self.messages = m;
        self
    }
    /// The two messages most calls are: a system prompt and the user's.
    pub fn system_and_user(self, system: impl Into<String>, user: impl Into<String>) -> Self {
        self.messages(vec![ChatMessage::system(system), ChatMessage::user(user)])
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
    pub fn watch(mut self, w: Watch) -> Self {
        self.watch = Some(w);
        self
    }
    pub fn on_delta(mut self, f: impl Fn(&str) + 'static) -> Self {
        self.on_delta = Some(Rc::new(f));
        self
    }
    pub fn tolerate_failure(mut self) -> Self {
        self.tolerate_failure = true;
        self
    }

    /// The repair of this call, made once its answer has come back unreadable: the same
    /// conversation with that answer and what was wrong with it, on `{path}/repair`, at
    /// temperature 0.
    pub fn repair_of(&self) -> impl FnOnce(String, &str) -> CallSpec {
        let mut repair = CallSpec::new(
            format!("{}/repair", self.path),
            self.seat.clone(),
            self.purpose,
            format!("{} (repair)", self.label),
        )
        .max_tokens(self.max_tokens)
        .temperature(0.0);
        repair.tolerate_failure = self.tolerate_failure;
        repair.json = true;
        repair.schema = self.schema.clone();
        let mut messages = self.messages.clone();
        move |answer, problem| {
            messages.push(ChatMessage {
                role: Role::Assistant,
                content: answer,
            });
            messages.push(ChatMessage::user(render(
                JSON_REPAIR,
                &[("problem", problem)],
            )));
            repair.messages(messages)
        }
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

/// A call that failed (or was skipped) where the format said it could do without it.
#[derive(Clone, Debug, PartialEq)]
pub struct CallFailure {
    pub key: CallKey,
    pub seat: String,
    pub message: String,
}
