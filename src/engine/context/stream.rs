//! The streaming loop of one attempt at a model call: `TurnStarted`, the stream (each
//! fragment to the observer, the format's watch and its own callback), then `TurnFinished`
//! or `TurnFailed`. Every call is bounded here, whatever the transport: its output by a
//! size derived from its token limit, its duration by a wall-clock limit. A call cut on
//! purpose (an interruption, or one of those bounds) keeps the text it had.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::future::{select, Either};

use super::super::event::{CallKey, EventKind, FinishReason};
use super::super::model::{ChatRequest, ErrorKind, ModelError};
use super::super::tokens;
use super::spec::{CallOutput, CallSpec};
use super::DebateCtx;

/// Bounds on every call, whatever its provider does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallLimits {
    /// The longest a call may take from its first byte sent to its last received. Longer
    /// than any connection's silence limit, so a reasoning model that thinks for minutes
    /// before its first token is not cut by it.
    pub wall_ms: u64,
}

impl Default for CallLimits {
    fn default() -> Self {
        CallLimits {
            wall_ms: 15 * 60_000,
        }
    }
}

/// Most bytes of answer a call may stream: generous for its token limit (a token is rarely
/// more than 4 bytes of UTF-8 text, twice that leaves room for a provider's own counting),
/// so only a provider that ignores the limit, or a hostile one, reaches it.
pub fn output_bound(max_tokens: u32) -> usize {
    (max_tokens as usize).saturating_mul(8).max(4_096)
}

/// Why the call was cut, when it was cut on purpose.
#[derive(Clone, Copy, PartialEq)]
enum Cut {
    No,
    /// At a sentence, for the format's watch.
    Sentence,
    /// At Agora's bound on the output size.
    Size,
    /// At Agora's wall-clock limit for the call.
    Time,
}

/// The longest prefix of `s` of at most `n` bytes that ends on a character boundary.
fn prefix(s: &str, n: usize) -> &str {
    let mut n = n.min(s.len());
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    &s[..n]
}

impl DebateCtx {
    pub(super) async fn attempt(
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
        let link = |t: &super::super::cancel::CancelToken| {
            let inner = cancel.clone();
            t.on_cancel(move || inner.cancel())
        };
        let _cut_link = spec.cancel.as_ref().map(link);
        if let Some(w) = &spec.watch {
            w.reset();
        }
        let _watch_link = spec.watch.as_ref().map(|w| link(&w.cancel_token()));

        let cut = Rc::new(Cell::new(Cut::No));
        let said = Rc::new(RefCell::new(String::new()));
        let bound = output_bound(spec.max_tokens);
        let on_delta = {
            let (cut, said, cancel) = (cut.clone(), said.clone(), cancel.clone());
            let (observer, watch, extra) = (
                self.observer.clone(),
                spec.watch.clone(),
                spec.on_delta.clone(),
            );
            let (key, seat) = (key.clone(), spec.seat.clone());
            move |d: &str| {
                if cut.get() != Cut::No {
                    return; // fragments read after a cut are not part of the turn
                }
                let passed = match &watch {
                    Some(w) => {
                        let p = w.push(d);
                        if w.cut_at().is_some() {
                            cut.set(Cut::Sentence);
                        }
                        p
                    }
                    None => d.to_string(),
                };
                let room = bound.saturating_sub(said.borrow().len());
                let passed = if passed.len() > room {
                    cut.set(Cut::Size);
                    cancel.cancel();
                    prefix(&passed, room).to_string()
                } else {
                    passed
                };
                if passed.is_empty() {
                    return;
                }
                said.borrow_mut().push_str(&passed);
                observer.on_delta(&key, &seat, &passed);
                if let Some(f) = &extra {
                    f(&passed);
                }
            }
        };

        let complete = self.model.complete(request, &on_delta, &cancel);
        let result = match select(complete, self.clock.sleep(self.limits.wall_ms)).await {
            Either::Left((r, _)) => r,
            Either::Right((_, complete)) => {
                cut.set(Cut::Time);
                cancel.cancel();
                drop(complete);
                if said.borrow().is_empty() {
                    Err(ModelError::new(
                        ErrorKind::TimedOut,
                        format!(
                            "no answer within {} (Agora's limit for one call)",
                            duration_words(self.limits.wall_ms)
                        ),
                    ))
                } else {
                    Err(ModelError::cancelled(said.borrow().clone()))
                }
            }
        };
        let estimate = |text: &str| tokens::usage(request, text, "");
        // What a search cited stands whether or not the turn was cut (a cut by cancelling
        // comes back as an error that carries the citations so far).
        let cited = match &result {
            Ok(r) => r.web.clone(),
            Err(e) if cut.get() != Cut::No => e.web.as_deref().cloned(),
            Err(_) => None,
        };
        if let Some(web) = cited {
            if !web.is_empty() {
                self.add_web(&web);
                self.push(EventKind::WebSearched {
                    call: key.clone(),
                    seat: spec.seat.clone(),
                    web,
                });
            }
        }
        let (text, reasoning, usage, finish) = match (result, cut.get()) {
            // Cut on purpose: the text passed on so far is the turn, whatever the transport
            // still read (or finished with) after the cut.
            (Ok(resp), c) if c != Cut::No => {
                let text = said.borrow().clone();
                (text, resp.reasoning, resp.usage, finish_of(c))
            }
            (Err(e), c) if c != Cut::No && e.kind == ErrorKind::Cancelled => {
                let text = said.borrow().clone();
                let usage = estimate(&text);
                (text, String::new(), usage, finish_of(c))
            }
            (Ok(resp), _) => (resp.text, resp.reasoning, resp.usage, resp.finish),
            // Cut by the format's own token (`CallSpec::cancel`), not by Stop.
            (Err(e), _) if e.kind == ErrorKind::Cancelled && !self.stop.is_cancelled() => {
                let text = said.borrow().clone();
                let usage = estimate(&text);
                (text, String::new(), usage, FinishReason::Cut)
            }
            (Err(e), _) => {
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
}

/// "1 minute", "15 minutes", "90 seconds".
fn duration_words(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        60 => "1 minute".into(),
        s if s % 60 == 0 => format!("{} minutes", s / 60),
        s => format!("{s} seconds"),
    }
}

fn finish_of(c: Cut) -> FinishReason {
    match c {
        Cut::Size => FinishReason::SizeLimit,
        Cut::Time => FinishReason::TimeLimit,
        _ => FinishReason::Cut,
    }
}
