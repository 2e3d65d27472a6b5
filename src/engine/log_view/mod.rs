//! The debate as it is shown: the event log folded into blocks (phase headers, turns with
//! their state, findings, notes, retry countdowns), the findings attached to the turn they
//! judge or cut, the progress line, the holds and the outcome. Plain Rust, so what a live
//! debate and a reloaded one show is decided here and tested natively; the screens
//! (`ui::state::DebateView`) keep a reactive mirror of it, updated from the `Change`s each
//! event reports.
//!
//! A live debate and a stored one go through the same `apply`, so what is shown during a
//! debate is what a reload shows. A stored log ends with `finish_stored`: a turn it left
//! streaming was cut off by a closed tab.

use crate::engine::cost::Spent;
use crate::engine::event::{
    CallKey, Event, EventKind, FinishReason, Input, Outcome, Purpose, ReadTally, Usage,
};
use crate::engine::finding::{Finding, FindingBody};
use crate::engine::formats::forecast::ledger::Resolution;
use crate::engine::reading;
use crate::engine::sources::library::Library;
use crate::engine::sources::quotes::{self, Checked};
use crate::engine::sources::web::WebSearch;
use crate::engine::sources::{self as srcs, Source};
use crate::engine::DebateConfig;
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnStatus {
    /// Waiting for its connection's limit on calls at once (or the spending cap).
    Queued,
    Streaming,
    AwaitingHuman,
    Done,
    Truncated,
    /// Cut at Agora's own bound on one answer's size or time (which one, as recorded).
    Limit(FinishReason),
    Cut,
    Failed,
    /// A failed attempt that a later attempt of the same call replaced: kept, quietly.
    Retried,
    /// Was streaming when the tab closed: the saved partial text.
    Interrupted,
}

impl TurnStatus {
    /// The name used in the page's `data-status` attribute (and by the end-to-end tests).
    pub fn id(self) -> &'static str {
        match self {
            TurnStatus::Queued => "queued",
            TurnStatus::Streaming => "streaming",
            TurnStatus::AwaitingHuman => "awaiting-human",
            TurnStatus::Done => "done",
            TurnStatus::Truncated => "truncated",
            TurnStatus::Limit(_) => "limit",
            TurnStatus::Cut => "cut",
            TurnStatus::Failed => "failed",
            TurnStatus::Retried => "retried",
            TurnStatus::Interrupted => "interrupted",
        }
    }

    /// How a finished call ended, as its turn shows it.
    fn finished(finish: FinishReason) -> TurnStatus {
        match finish {
            FinishReason::Stop => TurnStatus::Done,
            FinishReason::Length => TurnStatus::Truncated,
            FinishReason::Cut => TurnStatus::Cut,
            limit => TurnStatus::Limit(limit),
        }
    }

    /// How a finished turn ended (the inverse of `finished`); `None` for a turn that did
    /// not finish (failed, or still under way when the log ends).
    pub fn finish(self) -> Option<FinishReason> {
        match self {
            TurnStatus::Done => Some(FinishReason::Stop),
            TurnStatus::Truncated => Some(FinishReason::Length),
            TurnStatus::Cut => Some(FinishReason::Cut),
            TurnStatus::Limit(why) => Some(why),
            _ => None,
        }
    }
}

/// One call's turn: who, under which label, and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    pub call: CallKey,
    pub purpose: Purpose,
    pub seat: String,
    /// The seat's name ("Position A"), or its id when the configuration has no such seat.
    pub speaker: String,
    /// The model or person filling the seat ("gpt-4o-mini via OpenAI").
    pub model: String,
    pub label: String,
    /// As the format cleaned it for later prompts once finished; the streamed text before.
    pub text: String,
    /// Reasoning streamed apart from the answer.
    pub reasoning: String,
    pub status: TurnStatus,
    pub error: Option<String>,
    pub usage: Option<Usage>,
    /// What the turn cost, when its seat has a price.
    pub cost: Option<f64>,
    /// The request as sent, key redacted (empty for human turns and queued calls).
    pub request: String,
    /// The analyst's judgement of this turn (an evaluation, a fact check, or "unscored").
    pub judged: Option<Finding>,
    /// Who cut this turn short, and why.
    pub cut_by: Option<Finding>,
    /// The quotes it marked, each checked against the sources (once it finished).
    pub quotes: Vec<Checked>,
    /// What its web search cited, or why it could not search.
    pub web: Option<WebSearch>,
}

/// Where a note comes from: the screens show every kind; the exports word inputs, skipped
/// calls and errors their own way and leave pauses out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// A question, evidence or a spending cap from outside the debate.
    Input,
    /// A call the format let go of.
    Skipped,
    /// The debate paused (by the user, at the cap, offline) or was held at a failed call.
    Paused,
    /// Something went wrong that the debate reports.
    Error,
}

/// A block of the debate as shown. A turn is `T`: here the index into `LogView::turns`; a
/// mirror puts its own view of the turn in its place (`try_map_turn`), so the other blocks
/// are one type everywhere.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockKind<T = usize> {
    Phase {
        title: String,
    },
    /// A call's turn.
    Turn(T),
    /// What the format found and did not attach to a turn: a score, a crux card…
    Finding(Finding),
    Note {
        text: String,
        /// Shown as an error (a failed call holding the debate, an error).
        error: bool,
        kind: NoteKind,
    },
    /// A failed attempt waits before the next one (counted down on screen).
    Retry {
        reason: String,
        attempt: u32,
        max_attempts: u32,
        until_ms: u64,
    },
}

impl<T> BlockKind<T> {
    /// The same block with its turn made by `f`; `None` where `f` makes none.
    pub fn try_map_turn<U>(self, f: impl FnOnce(T) -> Option<U>) -> Option<BlockKind<U>> {
        Some(match self {
            BlockKind::Turn(t) => BlockKind::Turn(f(t)?),
            BlockKind::Phase { title } => BlockKind::Phase { title },
            BlockKind::Finding(f) => BlockKind::Finding(f),
            BlockKind::Note { text, error, kind } => BlockKind::Note { text, error, kind },
            BlockKind::Retry {
                reason,
                attempt,
                max_attempts,
                until_ms,
            } => BlockKind::Retry {
                reason,
                attempt,
                max_attempts,
                until_ms,
            },
        })
    }
}

/// A block and its key, unique within the debate (from the event that made it).
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub key: String,
    pub kind: BlockKind,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    pub phase: String,
    pub calls_done: u32,
    pub planned: u32,
    pub input_tokens: u32,
    pub output_tokens: u32,
    pub estimated: bool,
}

/// What one event changed, for a mirror to update only that.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// The configuration, the planned calls, the spent and the cap were set.
    Started,
    Progress,
    /// Block `n` of `blocks` was added.
    Added(usize),
    /// Turn `n` of `turns` changed (its text, state, judgement…).
    Turn(usize),
    /// A finding was added to `findings`.
    Finding,
    Reads,
    Spent,
    Cap,
    /// `held`, `waiting` or `outcome` changed.
    Holds,
    Resolution,
    /// A source was added (the configuration's, or evidence).
    Sources,
}

/// The debate as shown; see the module's comment.
#[derive(Clone, Debug, Default)]
pub struct LogView {
    pub config: Option<DebateConfig>,
    pub blocks: Vec<Block>,
    pub turns: Vec<Turn>,
    pub progress: Progress,
    /// Every finding so far, in order (attached ones too).
    pub findings: Vec<Finding>,
    /// Spent so far, per seat and in all.
    pub spent: Spent,
    /// Structured answers by how they were read.
    pub reads: ReadTally,
    /// The spending cap in force.
    pub cap: Option<f64>,
    /// Held at a failed call until the user presses Resume.
    pub held: bool,
    /// Paused by the debate itself (at its spending cap, or offline) until it resumes.
    pub waiting: bool,
    pub outcome: Option<(Outcome, Option<String>)>,
    /// What happened, for a forecast resolved after it finished.
    pub resolution: Option<Resolution>,
    /// The sources so far: the configuration's, then evidence as it arrived.
    pub sources: Vec<Source>,
    /// Their library, for checking quotes; rebuilt when a source is added (shared by
    /// `Arc`, as the screens keep the view in a store that must be `Send`).
    library: Option<Arc<Library>>,
    /// Each call's turn, by its key as text: a retry or a queued call reuses its turn.
    by_call: HashMap<String, usize>,
}

/// One seat's quotes: how many it made and how many were verified.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QuoteCount {
    pub seat: String,
    pub speaker: String,
    pub made: u32,
    pub verified: u32,
}

impl QuoteCount {
    pub fn not_found(&self) -> u32 {
        self.made.saturating_sub(self.verified)
    }
}

impl LogView {
    /// The view of a whole log, as a reload shows it.
    pub fn of(events: &[Event]) -> LogView {
        let mut v = LogView::default();
        for e in events {
            v.apply(e);
        }
        v
    }

    /// The library of the sources so far, when there are any.
    pub fn library(&mut self) -> Option<Arc<Library>> {
        if self.sources.is_empty() {
            return None;
        }
        if self.library.is_none() {
            self.library = Some(Arc::new(Library::new(self.sources.clone())));
        }
        self.library.clone()
    }

    /// Quotes made and verified per seat, in seat order, for the seats that quoted.
    pub fn quote_counts(&self) -> Vec<QuoteCount> {
        let mut out: Vec<QuoteCount> = Vec::new();
        for t in self.turns.iter().filter(|t| !t.quotes.is_empty()) {
            let i = match out.iter().position(|c| c.seat == t.seat) {
                Some(i) => i,
                None => {
                    out.push(QuoteCount {
                        seat: t.seat.clone(),
                        speaker: t.speaker.clone(),
                        ..QuoteCount::default()
                    });
                    out.len() - 1
                }
            };
            out[i].made += t.quotes.len() as u32;
            out[i].verified += t.quotes.iter().filter(|q| q.verified()).count() as u32;
        }
        let order = |seat: &str| {
            self.config
                .as_ref()
                .and_then(|c| c.seats.iter().position(|s| s.id == seat))
                .unwrap_or(usize::MAX)
        };
        out.sort_by_key(|c| order(&c.seat));
        out
    }

    /// The turn of a call, by its key as text.
    pub fn turn(&self, call: &str) -> Option<&Turn> {
        self.by_call.get(call).map(|&i| &self.turns[i])
    }

    /// The index of a call's turn, by its key as text.
    pub fn turn_index(&self, call: &str) -> Option<usize> {
        self.by_call.get(call).copied()
    }

    /// Streamed text of a live call; `None` when the call has no turn.
    pub fn delta(&mut self, call: &str, delta: &str) -> Option<usize> {
        let i = self.turn_index(call)?;
        self.turns[i].text.push_str(delta);
        Some(i)
    }

    /// The end of a stored log: the partial text saved for calls that were streaming
    /// (`in_flight`: call key and text) is shown, and a turn still streaming was cut off
    /// by a closed tab. Returns the turns changed.
    pub fn finish_stored(&mut self, in_flight: &[(CallKey, String)]) -> Vec<usize> {
        for (call, text) in in_flight {
            if let Some(i) = self.turn_index(&call.to_string()) {
                if self.turns[i].status == TurnStatus::Streaming {
                    self.turns[i].text.clone_from(text);
                }
            }
        }
        let mut changed = Vec::new();
        for (i, t) in self.turns.iter_mut().enumerate() {
            if t.status == TurnStatus::Streaming {
                t.status = TurnStatus::Interrupted;
                changed.push(i);
            }
        }
        changed
    }

    fn push(&mut self, key: String, kind: BlockKind) -> Change {
        self.blocks.push(Block { key, kind });
        Change::Added(self.blocks.len() - 1)
    }

    fn note(&mut self, e: &Event, text: String, error: bool, kind: NoteKind) -> Change {
        self.push(format!("n{}", e.seq), BlockKind::Note { text, error, kind })
    }

    /// Folds one event in; returns what it changed.
    pub fn apply(&mut self, e: &Event) -> Vec<Change> {
        match &e.kind {
            EventKind::DebateStarted {
                config,
                planned_calls,
                ..
            } => {
                self.progress.planned = *planned_calls;
                self.spent = Spent::new(config);
                self.cap = config.spending_cap;
                self.sources.clone_from(&config.sources);
                self.library = None;
                self.config = Some(config.clone());
                vec![
                    Change::Started,
                    Change::Progress,
                    Change::Spent,
                    Change::Cap,
                    Change::Sources,
                ]
            }
            EventKind::PhaseStarted { title, .. } => {
                self.progress.phase.clone_from(title);
                let title = title.clone();
                vec![
                    Change::Progress,
                    self.push(format!("p{}", e.seq), BlockKind::Phase { title }),
                ]
            }
            EventKind::TurnQueued {
                call,
                seat,
                label,
                purpose,
            } => {
                let i = self.new_turn(call, seat, label, *purpose, TurnStatus::Queued);
                vec![self.push(format!("t{}", e.seq), BlockKind::Turn(i))]
            }
            EventKind::TurnStarted {
                call,
                seat,
                label,
                human,
                request,
                purpose,
                ..
            } => {
                let status = if *human {
                    TurnStatus::AwaitingHuman
                } else {
                    TurnStatus::Streaming
                };
                // A queued call already has its turn. A retry gets a turn of its own
                // under the same call, so the failed attempt stays visible; the call's turn
                // is then the latest attempt.
                let queued = self
                    .turn_index(&call.to_string())
                    .filter(|&i| self.turns[i].status == TurnStatus::Queued);
                // The failed attempt a retry replaces is kept, as a quiet note.
                let mut changes = Vec::new();
                if let Some(old) = self
                    .turn_index(&call.to_string())
                    .filter(|&i| self.turns[i].status == TurnStatus::Failed)
                {
                    self.turns[old].status = TurnStatus::Retried;
                    changes.push(Change::Turn(old));
                }
                let i = match queued {
                    Some(i) => {
                        self.turns[i].status = status;
                        i
                    }
                    None => self.new_turn(call, seat, label, *purpose, status),
                };
                self.turns[i].request.clone_from(request);
                changes.push(match queued {
                    Some(_) => Change::Turn(i),
                    // A new turn is shown whole when its block is added.
                    None => self.push(format!("t{}", e.seq), BlockKind::Turn(i)),
                });
                changes
            }
            EventKind::FindingRecorded(f) => self.finding(e, f),
            EventKind::CallSkipped { seat, reason, .. } => {
                let text = match &self.config {
                    Some(c) => reading::skipped(c, seat, reason),
                    None => reason.clone(),
                };
                vec![self.note(e, text, false, NoteKind::Skipped)]
            }
            EventKind::DecisionRecorded { .. } => Vec::new(),
            EventKind::StructuredRead { outcome, .. } => {
                self.reads.add(*outcome);
                vec![Change::Reads]
            }
            EventKind::TurnFinished {
                call,
                seat,
                text,
                reasoning,
                usage,
                finish,
                ..
            } => {
                let mut changes = vec![Change::Progress, Change::Spent];
                let cost = match &self.config {
                    Some(c) => self.spent.add(c, seat, usage),
                    None => None,
                };
                if let Some(i) = self.turn_index(&call.to_string()) {
                    // A turn shows as its format cleaned it for later prompts.
                    let shown = match &self.config {
                        Some(c) => reading::turn_text(c, seat, text),
                        None => text.clone(),
                    };
                    let t = &mut self.turns[i];
                    t.text = shown;
                    t.reasoning.clone_from(reasoning);
                    t.usage = Some(*usage);
                    t.cost = cost;
                    t.status = TurnStatus::finished(*finish);
                    if !quotes::marked(&t.text).is_empty() {
                        let text = t.text.clone();
                        let library = self.library();
                        self.turns[i].quotes = quotes::check(&text, library.as_deref());
                    }
                    changes.push(Change::Turn(i));
                }
                let p = &mut self.progress;
                p.calls_done += 1;
                p.input_tokens += usage.input_tokens;
                p.output_tokens += usage.output_tokens;
                p.estimated |= usage.estimated;
                changes
            }
            EventKind::TurnFailed {
                call,
                partial,
                error,
                ..
            } => match self.turn_index(&call.to_string()) {
                Some(i) => {
                    let t = &mut self.turns[i];
                    t.text.clone_from(partial);
                    t.error = Some(error.clone());
                    t.status = TurnStatus::Failed;
                    vec![Change::Turn(i)]
                }
                None => Vec::new(),
            },
            EventKind::RetryScheduled {
                attempt,
                max_attempts,
                wait_ms,
                reason,
                ..
            } => vec![self.push(
                format!("r{}", e.seq),
                BlockKind::Retry {
                    reason: reason.clone(),
                    attempt: *attempt,
                    max_attempts: *max_attempts,
                    until_ms: e.at_ms + wait_ms,
                },
            )],
            EventKind::WebSearched { call, web, .. } => {
                let mut changes = Vec::new();
                if srcs::web::add_web(&mut self.sources, &web.citations) {
                    self.library = None;
                    changes.push(Change::Sources);
                }
                if let Some(i) = self.turn_index(&call.to_string()) {
                    self.turns[i].web = Some(web.checked());
                    changes.push(Change::Turn(i));
                }
                changes
            }
            EventKind::InputReceived { input, .. } => {
                let mut changes = Vec::new();
                if let Input::SpendingCap { usd } = input {
                    self.cap = *usd;
                    changes.push(Change::Cap);
                }
                if let Input::Evidence { text } = input {
                    if srcs::add_evidence(&mut self.sources, text) {
                        self.library = None;
                        changes.push(Change::Sources);
                    }
                }
                if let Some(text) = reading::input(input) {
                    changes.push(self.note(e, text, false, NoteKind::Input));
                }
                changes
            }
            EventKind::Paused {
                reason,
                needs_resume,
            } => {
                // A pause of the user's or the browser's, while held at a failed call, is
                // not the end of the hold.
                if *needs_resume {
                    self.held = true;
                } else {
                    self.waiting = true;
                }
                vec![
                    Change::Holds,
                    self.note(e, reason.clone(), *needs_resume, NoteKind::Paused),
                ]
            }
            EventKind::Resumed => {
                // The end of one pause. (Whether a hold at a failed call is over too is
                // the running session's to say: the screens ask it.)
                self.outcome = None;
                self.waiting = false;
                self.held = false;
                vec![Change::Holds]
            }
            EventKind::Error { message } => {
                vec![self.note(e, message.clone(), true, NoteKind::Error)]
            }
            EventKind::Finished { outcome, message } => {
                self.outcome = Some((*outcome, message.clone()));
                self.held = false;
                self.waiting = false;
                vec![Change::Holds]
            }
            EventKind::Resolved(r) => {
                self.resolution = Some(r.clone());
                vec![Change::Resolution]
            }
        }
    }

    /// A judgement or a cut belongs to its turn; anything else stands where it happened.
    fn finding(&mut self, e: &Event, f: &Finding) -> Vec<Change> {
        self.findings.push(f.clone());
        let mut changes = vec![Change::Finding];
        let turn = f
            .about
            .as_ref()
            .and_then(|k| self.turn_index(&k.to_string()));
        match (&f.body, turn) {
            (
                FindingBody::Evaluation(_)
                | FindingBody::Unscored { .. }
                | FindingBody::FactCheck { .. },
                Some(i),
            ) => {
                self.turns[i].judged = Some(f.clone());
                changes.push(Change::Turn(i));
            }
            (FindingBody::Interruption { .. }, Some(i)) => {
                self.turns[i].cut_by = Some(f.clone());
                changes.push(Change::Turn(i));
            }
            _ => changes.push(self.push(format!("f{}", e.seq), BlockKind::Finding(f.clone()))),
        }
        changes
    }

    /// A new turn for `call`, which becomes the call's turn; returns its index (the caller
    /// adds its block).
    fn new_turn(
        &mut self,
        call: &CallKey,
        seat: &str,
        label: &str,
        purpose: Purpose,
        status: TurnStatus,
    ) -> usize {
        let (speaker, model) = self
            .config
            .as_ref()
            .and_then(|c| c.seat(seat))
            .map(|s| (s.name.clone(), s.participant.describe()))
            .unwrap_or_else(|| (seat.to_string(), String::new()));
        self.turns.push(Turn {
            call: call.clone(),
            purpose,
            seat: seat.to_string(),
            speaker,
            model,
            label: label.to_string(),
            text: String::new(),
            reasoning: String::new(),
            status,
            error: None,
            usage: None,
            cost: None,
            request: String::new(),
            judged: None,
            cut_by: None,
            quotes: Vec::new(),
            web: None,
        });
        let i = self.turns.len() - 1;
        self.by_call.insert(call.to_string(), i);
        i
    }
}

#[cfg(test)]
mod tests;
