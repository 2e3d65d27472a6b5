//! The engine's view of a language model: one streaming chat call. The session implements it
//! over real providers (routing by connection), tests over the scripted model.

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};

use super::cancel::CancelToken;
use super::event::{FinishReason, Purpose, Usage};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    System,
    User,
    Assistant,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
}

impl ChatMessage {
    pub fn system(s: impl Into<String>) -> Self {
        ChatMessage {
            role: Role::System,
            content: s.into(),
        }
    }
    pub fn user(s: impl Into<String>) -> Self {
        ChatMessage {
            role: Role::User,
            content: s.into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    pub connection: String,
    pub model: String,
    /// Seat, purpose and call path travel with the request so that routing, scripts and the
    /// end-to-end stand-in can tell calls apart.
    pub seat: String,
    pub purpose: Purpose,
    pub call: String,
    pub messages: Vec<ChatMessage>,
    pub temperature: Option<f32>,
    pub max_tokens: u32,
    /// Ask for a JSON object (the provider's JSON mode where it has one).
    pub json: bool,
    /// The JSON Schema the answer must follow, for providers with native structured output
    /// (OpenAI `json_schema`, Gemini `responseSchema`, Anthropic forced tool use).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<serde_json::Value>,
    /// Let the provider search the web for this call (a speaking turn of a seat the user
    /// switched it on for). A connection that cannot search sends the call without it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub search_web: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ChatResponse {
    pub text: String,
    /// Reasoning the provider streamed apart from the answer (shown folded, never fed on).
    pub reasoning: String,
    pub usage: Usage,
    pub finish: FinishReason,
    /// What the call's web search cited, or why it did not search (calls that asked to).
    pub web: Option<super::sources::web::WebSearch>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// 401/403: the key is wrong or lacks access.
    Auth,
    /// 404: unknown model or wrong base URL.
    NotFound,
    /// The account's credit or quota is used up (a 402, OpenAI's `insufficient_quota`):
    /// waiting does not help, the user must act.
    Billing,
    /// The request is larger than the model takes (its context window, or a size limit).
    TooLarge,
    /// 429.
    RateLimited,
    /// 5xx or overloaded.
    Server,
    /// The request never got an answer (offline, CORS, refused).
    Network,
    /// The stream stopped before its end, or went silent.
    Cut,
    /// The caller cancelled (Stop, or an interruption).
    Cancelled,
    /// Any other 4xx, or a body we could not understand.
    BadRequest,
    /// The connection had no free place and the call asked not to wait for one.
    Busy,
    /// Agora's own wall-clock limit for one call passed with no answer.
    TimedOut,
    /// The server refused the way a JSON Schema was sent; the connection has moved on to
    /// the next form, so the call is asked again at once.
    FormRefused,
}

/// A provider failure, worded for the user. It never contains the API key.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelError {
    pub kind: ErrorKind,
    pub message: String,
    pub status: Option<u16>,
    /// What the server itself said about the error (its body's message, key redacted),
    /// apart from Agora's words around it; empty when it said nothing.
    pub detail: String,
    pub retry_after_ms: Option<u64>,
    /// Text that had streamed before the failure.
    pub partial: String,
    /// What a web search had cited before the call was cut (a turn cut on purpose keeps
    /// its text, and the pages it drew on).
    pub web: Option<Box<super::sources::web::WebSearch>>,
}

impl ModelError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        ModelError {
            kind,
            message: message.into(),
            status: None,
            detail: String::new(),
            retry_after_ms: None,
            partial: String::new(),
            web: None,
        }
    }

    pub fn cancelled(partial: String) -> Self {
        ModelError {
            partial,
            ..Self::new(ErrorKind::Cancelled, "Stopped.")
        }
    }

    pub fn retryable(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::RateLimited | ErrorKind::Server | ErrorKind::Cut | ErrorKind::Network
        )
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The most one request can be billed, in tokens: all it sends (an upper-bound estimate,
/// `tokens::prompt`, plus what its provider adds around it) and the most output it allows
/// (its answer, and the reasoning a provider bills on top).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ceiling {
    pub input_tokens: u32,
    pub output_tokens: u32,
}

impl Ceiling {
    /// A request as it is: its messages and schema, and its own output limit.
    pub fn of(req: &ChatRequest) -> Self {
        Ceiling {
            input_tokens: super::tokens::prompt(req),
            output_tokens: req.max_tokens,
        }
    }

    pub fn usage(self) -> Usage {
        Usage {
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
            estimated: true,
        }
    }
}

/// A place among a connection's calls at once; dropping it frees the place.
pub type Admission = Box<dyn std::any::Any>;

pub trait ChatModel {
    /// Waits for room on the call's connection (its limit on calls at once), so the engine
    /// can show a call as queued until it really starts. With `wait == false` it answers
    /// at once, with `ErrorKind::Busy` when there is no room. Models without limits admit
    /// every call.
    fn admit<'a>(
        &'a self,
        _req: &'a ChatRequest,
        _wait: bool,
    ) -> LocalBoxFuture<'a, Result<Admission, ModelError>> {
        Box::pin(async { Ok(Box::new(()) as Admission) })
    }

    /// Streams one completion. `on_delta` receives each text fragment as it arrives; when
    /// `cancel` fires the call ends at once with `ErrorKind::Cancelled` carrying the partial text.
    fn complete<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: &'a dyn Fn(&str),
        cancel: &'a CancelToken,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>>;

    /// The most the request can be billed: what the spending cap reserves before it starts.
    /// Providers add their own framing and the reasoning they allow beyond the answer.
    fn ceiling(&self, req: &ChatRequest) -> Ceiling {
        Ceiling::of(req)
    }

    /// The request as it goes out, for people to read under the turn (never with a key).
    /// Providers show the HTTP request; the default shows the call itself.
    fn describe(&self, req: &ChatRequest) -> String {
        serde_json::to_string_pretty(req).unwrap_or_default()
    }

    /// The models the provider offers, where its API lists them.
    fn list_models(&self) -> LocalBoxFuture<'_, Result<Vec<String>, ModelError>> {
        Box::pin(async {
            Err(ModelError::new(
                ErrorKind::BadRequest,
                "This connection does not list its models; type the model's name.",
            ))
        })
    }
}

/// How an HTTP status maps to what the user can do about it.
pub fn kind_for_status(status: u16) -> ErrorKind {
    match status {
        401 | 403 => ErrorKind::Auth,
        404 => ErrorKind::NotFound,
        408 | 429 => ErrorKind::RateLimited,
        500..=599 => ErrorKind::Server,
        _ => ErrorKind::BadRequest,
    }
}
