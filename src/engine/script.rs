//! The JSON script format for a scripted model: answers matched by seat, purpose and
//! occurrence, each as chunks with delays, usage figures and faults. One format drives the
//! native test model (here) and the OpenAI-compatible stand-in of the end-to-end and
//! browser tests (`src/bin/standin.rs`).

use std::cell::RefCell;
use std::collections::HashMap;

use futures::future::{select, Either, LocalBoxFuture};
use serde::{Deserialize, Serialize};

use super::cancel::CancelToken;
use super::clock::Clock;
use super::event::{FinishReason, Usage};
use super::model::{ChatModel, ChatRequest, ChatResponse, ErrorKind, ModelError};
use super::tokens;

// Unknown fields are refused, so a misspelt `frist_delay_ms` is an error that names it
// rather than a script that silently plays something else.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    #[serde(default)]
    pub answers: Vec<Answer>,
    /// How unmatched calls are answered; without it they get generated prose.
    #[serde(default)]
    pub default: Option<Answer>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// Matches the seat id; absent matches any seat.
    #[serde(default)]
    pub seat: Option<String>,
    #[serde(default)]
    pub purpose: Option<String>,
    /// Matches when the call path starts with this.
    #[serde(default)]
    pub path: Option<String>,
    /// 0-based count of earlier requests with the same seat and purpose (retries included);
    /// absent matches every occurrence.
    #[serde(default)]
    pub occurrence: Option<u32>,
    /// The text, streamed in `chunks` if given, else split into words.
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub chunks: Option<Vec<String>>,
    /// Wait before the first byte.
    #[serde(default)]
    pub first_delay_ms: u64,
    /// Wait between chunks.
    #[serde(default)]
    pub chunk_delay_ms: u64,
    #[serde(default)]
    pub usage: Option<ScriptUsage>,
    #[serde(default)]
    pub finish: Option<FinishReason>,
    #[serde(default)]
    pub fault: Option<FaultSpec>,
    /// Stream the chunks again and again, never finishing: a broken or hostile server that
    /// only Agora's own bounds on a call can stop.
    #[serde(default)]
    pub endless: bool,
    /// Pages a web search cited, for a call that asked to search (the stand-in sends them
    /// as OpenAI `url_citation` annotations).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub citations: Vec<crate::engine::sources::web::Citation>,
}

impl Answer {
    /// Whether this answer is the one for a call: `occurrence` counts the earlier requests
    /// with the same seat and purpose.
    pub fn matches(&self, seat: &str, purpose: &str, path: &str, occurrence: u32) -> bool {
        self.seat.as_deref().is_none_or(|s| s == seat)
            && self.purpose.as_deref().is_none_or(|p| p == purpose)
            && self.path.as_deref().is_none_or(|p| path.starts_with(p))
            && self.occurrence.is_none_or(|o| o == occurrence)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptUsage {
    pub input_tokens: u32,
    pub output_tokens: u32,
}

/// A failure to play instead of (or part-way through) the answer. Exactly one of `status`,
/// `cut_after_bytes` or `stall_after_bytes` is set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultSpec {
    /// Answer with this HTTP status (and headers, e.g. `retry-after`) instead of a stream.
    #[serde(default)]
    pub status: Option<u16>,
    #[serde(default)]
    pub headers: HashMap<String, String>,
    /// The error's text; a JSON object is sent as the whole body (a provider's own error
    /// shape), other text as the message of an OpenAI-style error.
    #[serde(default)]
    pub body: Option<String>,
    /// Stream this many bytes of text, then drop the connection.
    #[serde(default)]
    pub cut_after_bytes: Option<usize>,
    /// Stream this many bytes, then go silent for `stall_ms`.
    #[serde(default)]
    pub stall_after_bytes: Option<usize>,
    #[serde(default)]
    pub stall_ms: u64,
}

/// The fault of a `FaultSpec`, as players act on it.
#[derive(Clone, Debug)]
pub enum Fault {
    Status {
        status: u16,
        headers: HashMap<String, String>,
        body: Option<String>,
    },
    Cut {
        cut_after_bytes: usize,
    },
    Stall {
        stall_after_bytes: usize,
        stall_ms: u64,
    },
}

impl FaultSpec {
    pub fn fault(&self) -> Option<Fault> {
        if let Some(status) = self.status {
            Some(Fault::Status {
                status,
                headers: self.headers.clone(),
                body: self.body.clone(),
            })
        } else if let Some(n) = self.cut_after_bytes {
            Some(Fault::Cut { cut_after_bytes: n })
        } else {
            self.stall_after_bytes.map(|n| Fault::Stall {
                stall_after_bytes: n,
                stall_ms: self.stall_ms,
            })
        }
    }
}

/// What is wrong with a script: the path of the field inside it (`answers[1].fault.status`;
/// empty for the script as a whole) and why. A caller that embeds the script in something
/// larger puts its own path in front (`connections[0].script.answers[1]…`).
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptError {
    pub path: String,
    pub why: String,
}

impl ScriptError {
    fn at(path: impl Into<String>, why: impl Into<String>) -> Self {
        ScriptError {
            path: path.into(),
            why: why.into(),
        }
    }
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.why)
        } else {
            write!(f, "{}: {}", self.path, self.why)
        }
    }
}

impl Script {
    /// Reads a script from JSON text, naming the field that is wrong
    /// (`answers[1].fault.status: invalid type…`).
    pub fn from_json(text: &str) -> Result<Script, ScriptError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let script: Script = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." { String::new() } else { path };
            ScriptError::at(path, e.into_inner().to_string())
        })?;
        script.check()?;
        Ok(script)
    }

    /// Reads a stored connection's script through the same path-tracking reader as
    /// `from_json`, so the app links one copy of the script's deserializer, not two
    /// (4 KB gzipped). Errors are the plain serde ones, as before.
    pub fn deserialize_stored<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Script>, D::Error> {
        let mut track = serde_path_to_error::Track::new();
        <Option<Script> as serde::Deserialize>::deserialize(serde_path_to_error::Deserializer::new(
            d, &mut track,
        ))
    }

    /// What serde cannot see: a fault names exactly one failure, and a status is an HTTP
    /// error. The message names the answer (`answers[2].fault`).
    pub fn check(&self) -> Result<(), ScriptError> {
        let answers = self
            .answers
            .iter()
            .enumerate()
            .map(|(i, a)| (format!("answers[{i}]"), a));
        for (at, a) in answers.chain(self.default.iter().map(|a| ("default".to_string(), a))) {
            let Some(f) = &a.fault else { continue };
            let set = [
                f.status.is_some(),
                f.cut_after_bytes.is_some(),
                f.stall_after_bytes.is_some(),
            ];
            if set.iter().filter(|s| **s).count() != 1 {
                return Err(ScriptError::at(
                    format!("{at}.fault"),
                    "set exactly one of status, cut_after_bytes or stall_after_bytes",
                ));
            }
            if f.status.is_some_and(|s| !(400..=599).contains(&s)) {
                return Err(ScriptError::at(
                    format!("{at}.fault.status"),
                    "an HTTP error status (400 to 599)",
                ));
            }
        }
        Ok(())
    }
}

/// What one request gets, resolved from the script.
#[derive(Clone, Debug)]
pub struct Plan {
    pub chunks: Vec<String>,
    pub first_delay_ms: u64,
    pub chunk_delay_ms: u64,
    pub usage: Option<ScriptUsage>,
    pub finish: FinishReason,
    pub fault: Option<Fault>,
    pub endless: bool,
    pub citations: Vec<crate::engine::sources::web::Citation>,
}

impl Plan {
    /// Chunks truncated to the first `n` bytes of text (on a character boundary).
    pub fn chunks_up_to(&self, n: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut left = n;
        for c in &self.chunks {
            if left == 0 {
                break;
            }
            if c.len() <= left {
                out.push(c.clone());
                left -= c.len();
            } else {
                let mut cut = left;
                while !c.is_char_boundary(cut) {
                    cut -= 1;
                }
                out.push(c[..cut].to_string());
                left = 0;
            }
        }
        out
    }
}

/// Counts occurrences and picks answers; shared by the native model and the stand-in.
#[derive(Debug, Default)]
pub struct ScriptPlayer {
    script: Script,
    seen: std::collections::HashMap<(String, String), u32>,
}

impl ScriptPlayer {
    pub fn new(script: Script) -> Self {
        ScriptPlayer {
            script,
            seen: Default::default(),
        }
    }

    pub fn parse(json: &str) -> Result<Self, String> {
        Script::from_json(json)
            .map(Self::new)
            .map_err(|e| format!("the script is not valid: {e}"))
    }

    /// `schema`: the structured answer the call asks for, which generated answers follow.
    pub fn plan(
        &mut self,
        seat: &str,
        purpose: &str,
        path: &str,
        json: bool,
        schema: Option<&serde_json::Value>,
    ) -> Plan {
        let n = self
            .seen
            .entry((seat.to_string(), purpose.to_string()))
            .or_insert(0);
        let occurrence = *n;
        *n += 1;
        let found = self
            .script
            .answers
            .iter()
            .find(|a| a.matches(seat, purpose, path, occurrence));
        let answer = found.or(self.script.default.as_ref());
        let text_default = || match schema {
            Some(s) => super::schema_sample::sample(s, occurrence).to_string(),
            None => generated_text(seat, purpose, occurrence, json),
        };
        match answer {
            Some(a) => {
                let chunks = match (&a.chunks, &a.text) {
                    (Some(c), _) => c.clone(),
                    (None, Some(t)) => split_words(t),
                    (None, None) => split_words(&text_default()),
                };
                Plan {
                    chunks,
                    first_delay_ms: a.first_delay_ms,
                    chunk_delay_ms: a.chunk_delay_ms,
                    usage: a.usage,
                    finish: a.finish.unwrap_or_default(),
                    fault: a.fault.as_ref().and_then(FaultSpec::fault),
                    endless: a.endless && !a.chunks.as_ref().is_some_and(|c| c.is_empty()),
                    citations: a.citations.clone(),
                }
            }
            None => Plan {
                chunks: split_words(&text_default()),
                first_delay_ms: 0,
                chunk_delay_ms: 1,
                usage: None,
                finish: FinishReason::Stop,
                fault: None,
                endless: false,
                citations: Vec::new(),
            },
        }
    }
}

/// Splits text into word-sized chunks that keep their spacing, so a stream looks real.
pub fn split_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in text.chars() {
        if ch == ' ' && !cur.trim().is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(ch);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Deterministic prose for calls a script does not mention.
fn generated_text(seat: &str, purpose: &str, occurrence: u32, json: bool) -> String {
    if json {
        return serde_json::json!({ "seat": seat, "occurrence": occurrence }).to_string();
    }
    format!(
        "**{seat}**, {purpose} {n}: this scripted answer stands in for a model. It makes a claim, \
         gives a reason, and ends with a clear point so the transcript reads like a debate.",
        n = occurrence + 1
    )
}

/// A `ChatModel` that plays a script on a `Clock` (virtual in tests, real in the browser).
pub struct ScriptedModel<C: Clock> {
    player: RefCell<ScriptPlayer>,
    clock: C,
    /// Every request seen, for tests that check what was sent.
    pub requests: RefCell<Vec<ChatRequest>>,
    /// Whether `requests` is kept (a demo connection in the app plays for hours).
    record: bool,
}

impl<C: Clock> ScriptedModel<C> {
    pub fn new(script: Script, clock: C) -> Self {
        ScriptedModel {
            player: RefCell::new(ScriptPlayer::new(script)),
            clock,
            requests: RefCell::new(Vec::new()),
            record: true,
        }
    }

    /// A model that plays the script without keeping the requests it was sent.
    pub fn playing(script: Script, clock: C) -> Self {
        ScriptedModel {
            record: false,
            ..Self::new(script, clock)
        }
    }

    async fn wait(&self, ms: u64, cancel: &CancelToken) -> bool {
        if ms == 0 {
            return !cancel.is_cancelled();
        }
        matches!(
            select(self.clock.sleep(ms), cancel.cancelled()).await,
            Either::Left(_)
        )
    }
}

impl<C: Clock> ChatModel for ScriptedModel<C> {
    fn complete<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: &'a dyn Fn(&str),
        cancel: &'a CancelToken,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        Box::pin(async move {
            if self.record {
                self.requests.borrow_mut().push(req.clone());
            }
            let plan = self.player.borrow_mut().plan(
                &req.seat,
                req.purpose.id(),
                &req.call,
                req.json,
                req.schema.as_ref(),
            );
            // A search cites what the script says (from the first byte, as a provider's
            // search comes before its answer); a call that did not ask reports none.
            let web = req.search_web.then(|| {
                let mut web = crate::engine::sources::web::WebSearch::default();
                for c in &plan.citations {
                    if let Some(c) =
                        crate::engine::sources::web::Citation::new(&c.url, &c.title, &c.cited_text)
                    {
                        web.cite(c);
                    }
                }
                web
            });
            let cancelled = |text: String| {
                let mut e = ModelError::cancelled(text);
                e.web = web.clone().filter(|w| !w.is_empty()).map(Box::new);
                e
            };
            let mut text = String::new();
            if !self.wait(plan.first_delay_ms, cancel).await {
                return Err(cancelled(text));
            }
            let (chunks, after) = match &plan.fault {
                Some(Fault::Status {
                    status,
                    headers,
                    body,
                }) => {
                    let retry_after_ms = headers
                        .iter()
                        .find(|(k, _)| k.eq_ignore_ascii_case("retry-after"))
                        .and_then(|(_, v)| super::cost::parse_decimal(v))
                        .map(|s| (s * 1000.0) as u64);
                    let kind = super::model::kind_for_status(*status);
                    let mut e = ModelError::new(
                        kind,
                        format!(
                            "scripted model answered HTTP {status}: {}",
                            body.clone().unwrap_or_default()
                        ),
                    );
                    e.status = Some(*status);
                    e.detail = body.clone().unwrap_or_default();
                    e.retry_after_ms = retry_after_ms;
                    return Err(e);
                }
                Some(Fault::Cut { cut_after_bytes }) => {
                    (plan.chunks_up_to(*cut_after_bytes), Some(None))
                }
                Some(Fault::Stall {
                    stall_after_bytes,
                    stall_ms,
                }) => (plan.chunks_up_to(*stall_after_bytes), Some(Some(*stall_ms))),
                None => (plan.chunks.clone(), None),
            };
            let times = if plan.endless && after.is_none() {
                usize::MAX
            } else {
                1
            };
            let all = std::iter::repeat_n(chunks.iter(), times).flatten();
            for (i, chunk) in all.enumerate() {
                if i > 0 && !self.wait(plan.chunk_delay_ms, cancel).await {
                    return Err(cancelled(text));
                }
                if cancel.is_cancelled() {
                    return Err(cancelled(text));
                }
                text.push_str(chunk);
                on_delta(chunk);
            }
            if let Some(stall) = after {
                if let Some(ms) = stall {
                    if !self.wait(ms, cancel).await {
                        return Err(cancelled(text));
                    }
                }
                let mut e =
                    ModelError::new(ErrorKind::Cut, "the scripted stream was cut mid-answer");
                e.partial = text;
                return Err(e);
            }
            let usage = match plan.usage {
                Some(u) => Usage {
                    input_tokens: u.input_tokens,
                    output_tokens: u.output_tokens,
                    estimated: false,
                },
                None => tokens::usage(req, &text, ""),
            };
            Ok(ChatResponse {
                reasoning: String::new(),
                text,
                usage,
                finish: plan.finish,
                web,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::generated_text;

    #[test]
    fn a_generated_structured_answer_is_json_whatever_the_seat_is_called() {
        let text = generated_text("chair \"one\"\n", "check", 2, true);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["seat"], "chair \"one\"\n");
        assert_eq!(v["occurrence"], 2);
    }
}
