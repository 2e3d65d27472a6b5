//! One streamed answer as the transport reads it: network chunks in, deltas out, and the
//! time of the last progress for the stall timer. Plain data, so it is tested natively; the
//! browser transport only feeds it what `fetch` reads.

use super::dialect::Dialect;
use super::sse::{SseEvent, SseParser};
use super::stream_state::StreamState;
use crate::engine::cancel::CancelToken;
use crate::engine::event::FinishReason;

/// The largest index at most `n` that starts a character of `s`.
fn floor_char_boundary(s: &str, n: usize) -> usize {
    let mut n = n.min(s.len());
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    n
}
use crate::engine::model::{ChatRequest, ChatResponse, ErrorKind, ModelError};
use crate::engine::tokens;

pub struct AnswerStream {
    dialect: Dialect,
    /// "label (model)", for messages.
    who: String,
    parser: SseParser,
    state: StreamState,
    stall_ms: u64,
    last_progress_ms: u64,
    /// Most bytes of reasoning kept: a provider thinking without end is cut there.
    max_reasoning: usize,
    /// The stream was ended at one of Agora's size bounds.
    cut_at_bound: bool,
}

/// The reasoning a call may stream before it is cut: its token limit's worth four times over
/// (what reasoning models are given, see `openai::request_body`), and at least 1 MiB, which
/// a thinking budget of a few ten thousand tokens stays under.
pub fn reasoning_bound(max_tokens: u32) -> usize {
    crate::engine::context::output_bound(max_tokens)
        .saturating_mul(4)
        .max(1 << 20)
}

/// Whether an event shows the model is still working. Comments never become events; an
/// Anthropic `ping` is a keep-alive with data, and does not count either.
fn is_progress(ev: &SseEvent) -> bool {
    ev.event != "ping"
}

impl AnswerStream {
    /// `now_ms` starts the silence count; `max_tokens` is the call's, for the reasoning bound.
    pub fn new(dialect: Dialect, who: String, stall_ms: u64, now_ms: u64, max_tokens: u32) -> Self {
        AnswerStream {
            dialect,
            who,
            parser: SseParser::new(),
            state: StreamState::default(),
            stall_ms,
            last_progress_ms: now_ms,
            max_reasoning: reasoning_bound(max_tokens),
            cut_at_bound: false,
        }
    }

    /// The same stream with other bounds (tests use small ones).
    pub fn with_bounds(mut self, event_bytes: usize, reasoning_bytes: usize) -> Self {
        self.parser = SseParser::bounded(event_bytes);
        self.max_reasoning = reasoning_bytes;
        self
    }

    /// Ends the stream at a size bound: the answer so far is kept and marked as cut there,
    /// as an answer past the engine's own bound is.
    fn cut_at_bound(&mut self) -> Result<bool, ModelError> {
        self.cut_at_bound = true;
        let keep = floor_char_boundary(&self.state.reasoning, self.max_reasoning);
        self.state.reasoning.truncate(keep);
        Ok(true)
    }

    /// The answer text so far.
    pub fn text(&self) -> &str {
        &self.state.text
    }

    /// Applies one network read (`None` once the body has ended). True when the answer is
    /// over. A cancel between two events of the same read stops there: the events after
    /// it are not applied.
    pub fn feed(
        &mut self,
        bytes: Option<&[u8]>,
        now_ms: u64,
        on_delta: &dyn Fn(&str),
        cancel: &CancelToken,
    ) -> Result<bool, ModelError> {
        let events = match bytes {
            Some(b) => self.parser.push(b),
            None => self.parser.finish(),
        };
        for ev in events {
            if cancel.is_cancelled() {
                return Err(self.cancelled());
            }
            if is_progress(&ev) {
                self.last_progress_ms = now_ms;
            }
            let delta = self
                .dialect
                .accept(&mut self.state, &ev.event, &ev.data)
                .map_err(|mut e| {
                    e.partial = self.state.text.clone();
                    e.message = format!("{}: {}", self.who, e.message);
                    e
                })?;
            if !delta.is_empty() {
                on_delta(&delta);
            }
            if self.state.reasoning.len() > self.max_reasoning {
                return self.cut_at_bound();
            }
        }
        if self.parser.overflowed() {
            return self.cut_at_bound();
        }
        Ok(self.state.done || bytes.is_none())
    }

    /// The call was cancelled: the text so far, and what a search had cited by then.
    pub fn cancelled(&mut self) -> ModelError {
        let mut e = ModelError::cancelled(self.state.text.clone());
        let web = std::mem::take(&mut self.state.web);
        e.web = (!web.is_empty()).then(|| Box::new(web));
        e
    }

    /// The stall timer fired at `now_ms`: how long to wait again when there was progress
    /// meanwhile, or `None` when the stream has been silent for the whole limit.
    pub fn stall_timer_fired(&self, now_ms: u64) -> Option<u64> {
        let silent = now_ms.saturating_sub(self.last_progress_ms);
        (silent < self.stall_ms).then(|| self.stall_ms - silent)
    }

    /// A failure that keeps the text that had arrived.
    pub fn fail(&self, kind: ErrorKind, message: String) -> ModelError {
        let mut e = ModelError::new(kind, message);
        e.partial = self.state.text.clone();
        e
    }

    pub fn stalled(&self) -> ModelError {
        self.fail(
            ErrorKind::Cut,
            format!(
                "{} sent nothing for {} seconds; the turn was abandoned.",
                self.who,
                self.stall_ms / 1000
            ),
        )
    }

    /// The answer, once the stream is over; cut when it ended before its end.
    pub fn finish(mut self, req: &ChatRequest) -> Result<ChatResponse, ModelError> {
        if self.cut_at_bound && self.state.text.trim().is_empty() {
            // Nothing answered: an empty turn would be fed on as if it were said.
            return Err(self.fail(
                ErrorKind::Cut,
                format!(
                    "{} went past Agora's size limit for one answer (in its reasoning) without answering.",
                    self.who
                ),
            ));
        }
        if self.cut_at_bound {
            self.state.finish = Some(FinishReason::SizeLimit);
            self.state.usage = None; // what the provider would have counted is unknown
        } else if !self.state.done && self.state.finish.is_none() {
            return Err(self.fail(
                ErrorKind::Cut,
                format!(
                    "The stream from {} ended before the answer was complete.",
                    self.who
                ),
            ));
        }
        let usage = self
            .state
            .usage
            .unwrap_or_else(|| tokens::usage(req, &self.state.text, &self.state.reasoning));
        Ok(ChatResponse {
            reasoning: std::mem::take(&mut self.state.reasoning),
            text: self.state.text,
            usage,
            finish: self.state.finish.unwrap_or_default(),
            web: req.search_web.then(|| std::mem::take(&mut self.state.web)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    fn delta(text: &str) -> String {
        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}]}}\n\n")
    }

    #[test]
    fn a_cancel_from_a_delta_drops_the_rest_of_the_same_read() {
        let cancel = CancelToken::new();
        let seen = RefCell::new(Vec::<String>::new());
        let on_delta = |d: &str| {
            seen.borrow_mut().push(d.to_string());
            cancel.cancel();
        };
        let mut s = AnswerStream::new(Dialect::OpenAi, "X (m)".into(), 1_000, 0, 100);
        let read = [
            delta("one "),
            delta("two "),
            delta("three"),
            "data: [DONE]\n\n".into(),
        ]
        .concat();
        let e = s
            .feed(Some(read.as_bytes()), 5, &on_delta, &cancel)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Cancelled);
        assert_eq!(e.partial, "one ");
        assert_eq!(*seen.borrow(), ["one "]);
    }

    #[test]
    fn only_events_count_as_progress_not_comments_or_pings() {
        let cancel = CancelToken::new();
        let mut s = AnswerStream::new(Dialect::OpenAi, "X (m)".into(), 1_000, 0, 100);
        s.feed(Some(delta("hi").as_bytes()), 400, &|_| {}, &cancel)
            .unwrap();
        // Fired at 1 s, 600 ms after the last delta: wait the 400 ms left.
        assert_eq!(s.stall_timer_fired(1_000), Some(400));
        s.feed(
            Some(b": keep-alive\n\nevent: ping\ndata: {\"type\": \"ping\"}\n\n"),
            1_300,
            &|_| {},
            &cancel,
        )
        .unwrap();
        let e = s
            .stall_timer_fired(1_400)
            .map(|_| ())
            .ok_or_else(|| s.stalled());
        let e = e.unwrap_err();
        assert_eq!(e.kind, ErrorKind::Cut);
        assert_eq!(e.partial, "hi");
        assert!(
            e.message.contains("X (m) sent nothing for 1 seconds"),
            "{}",
            e.message
        );
    }

    fn request() -> ChatRequest {
        ChatRequest {
            connection: "c".into(),
            model: "m".into(),
            seat: "a".into(),
            purpose: crate::engine::event::Purpose::Argument,
            call: "opening/a".into(),
            messages: vec![crate::engine::model::ChatMessage::user("Go.")],
            temperature: None,
            max_tokens: 100,
            json: false,
            schema: None,
            search_web: false,
        }
    }

    #[test]
    fn a_line_that_never_ends_is_cut_at_the_event_bound_keeping_the_answer_so_far() {
        let cancel = CancelToken::new();
        let mut s = AnswerStream::new(Dialect::OpenAi, "X (m)".into(), 1_000, 0, 100)
            .with_bounds(1_000, 10_000);
        assert!(!s
            .feed(Some(delta("Said so far. ").as_bytes()), 1, &|_| {}, &cancel)
            .unwrap());
        // A line with no end, in reads of 300 bytes: cut once it passes 1,000 bytes.
        let mut over = false;
        for i in 0..10 {
            let read = if i == 0 {
                format!("data: {}", "x".repeat(294))
            } else {
                "x".repeat(300)
            };
            if s.feed(Some(read.as_bytes()), 2 + i, &|_| {}, &cancel)
                .unwrap()
            {
                over = true;
                assert!(
                    i <= 4,
                    "cut as soon as the line passed the bound, not at read {i}"
                );
                break;
            }
        }
        assert!(over, "the endless line ended the stream");
        let r = s.finish(&request()).unwrap();
        assert_eq!(r.text, "Said so far. ");
        assert_eq!(r.finish, FinishReason::SizeLimit);
        assert!(r.usage.estimated);
    }

    #[test]
    fn reasoning_that_never_ends_is_cut_at_its_bound_and_marked() {
        let cancel = CancelToken::new();
        let mut s = AnswerStream::new(Dialect::OpenAi, "X (m)".into(), 1_000, 0, 100)
            .with_bounds(1_000_000, 500);
        let thought =
            "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"Hmm, let me think. \"}}]}\n\n";
        let mut reads = 0;
        while !s
            .feed(Some(thought.as_bytes()), reads, &|_| {}, &cancel)
            .unwrap()
        {
            reads += 1;
            assert!(reads < 100, "never cut");
        }
        assert_eq!(
            reads, 26,
            "cut at the read that passed 500 bytes (19 bytes a read)"
        );
        // Nothing was answered: a cut (retried), never an empty turn.
        let e = s.finish(&request()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Cut);
        assert!(e.message.contains("without answering"), "{}", e.message);

        // With some answer before it, the answer is kept and marked.
        let mut s = AnswerStream::new(Dialect::OpenAi, "X (m)".into(), 1_000, 0, 100)
            .with_bounds(1_000_000, 500);
        s.feed(Some(delta("An answer. ").as_bytes()), 0, &|_| {}, &cancel)
            .unwrap();
        while !s
            .feed(Some(thought.as_bytes()), 1, &|_| {}, &cancel)
            .unwrap()
        {}
        let r = s.finish(&request()).unwrap();
        assert_eq!(
            (r.text.as_str(), r.finish),
            ("An answer. ", FinishReason::SizeLimit)
        );
        assert_eq!(r.reasoning.len(), 500);
    }

    #[test]
    fn the_real_bounds_leave_room_for_any_real_answer() {
        assert_eq!(super::super::sse::MAX_EVENT_BYTES, 16 << 20);
        assert_eq!(reasoning_bound(400), 1 << 20, "at least 1 MiB");
        assert_eq!(
            reasoning_bound(100_000),
            3_200_000,
            "four times the answer's bound"
        );
    }
}
