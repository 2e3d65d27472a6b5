//! The UI's reactive store: the debate on screen as blocks derived from its event log, plus
//! app-wide state. Live debates and stored ones go through the same `apply` path, so what
//! is shown during a debate is what a reload shows.

use leptos::prelude::*;

use crate::engine::cost::Ledger;
use crate::engine::event::{
    Event, EventKind, FinishReason, Input, Outcome, Purpose, ReadTally, Usage,
};
use crate::engine::finding::{Finding, FindingBody};
use crate::engine::reading;
use crate::engine::{CallKey, DebateConfig};
use crate::store::{DebateSummary, StoredDebate};

/// The element id of a turn, so a finding (a crux card) can link back to it.
pub fn turn_anchor(call: &CallKey) -> String {
    let mut id = format!("turn-{}", call.path.replace('/', "-"));
    if call.occurrence > 0 {
        id.push_str(&format!("-{}", call.occurrence));
    }
    id
}

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
            TurnStatus::Interrupted => "interrupted",
        }
    }
}

#[derive(Clone, Copy)]
pub struct TurnView {
    pub text: RwSignal<String>,
    /// Reasoning streamed apart from the answer, shown folded.
    pub reasoning: RwSignal<String>,
    pub status: RwSignal<TurnStatus>,
    pub error: RwSignal<Option<String>>,
    pub usage: RwSignal<Option<Usage>>,
    /// What the turn cost, when its seat has a price.
    pub cost: RwSignal<Option<f64>>,
    /// The request as sent, key redacted (empty for human turns and queued calls).
    pub request: RwSignal<String>,
    /// The analyst's judgement of this turn (an evaluation, or "unscored"), once it came.
    pub judged: RwSignal<Option<Finding>>,
    /// Who cut this turn short, and why.
    pub cut_by: RwSignal<Option<Finding>>,
}

#[derive(Clone)]
pub enum BlockKind {
    Phase {
        title: String,
    },
    Turn {
        call: crate::engine::CallKey,
        /// An analysis call (an evaluation, a check, an extraction): its result is shown
        /// where it belongs (a scorecard…), so the call itself is shown folded.
        analysis: bool,
        seat: String,
        speaker: String,
        model: String,
        label: String,
        view: TurnView,
    },
    /// What the format found: an evaluation, a score, a crux card…
    Finding(crate::engine::finding::Finding),
    Note {
        text: String,
        error: bool,
    },
    /// A failed attempt waits before the next one (counted down on screen).
    Retry {
        reason: String,
        attempt: u32,
        max_attempts: u32,
        until_ms: u64,
    },
}

#[derive(Clone)]
pub struct Block {
    pub key: String,
    pub kind: BlockKind,
    /// Which `reset` of the view made it: a redrawn view (a replay's scrub, a reload) gets
    /// new rows even where keys repeat, so no row stays bound to the signals of before.
    pub epoch: u32,
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

/// The debate on screen.
#[derive(Clone, Copy)]
pub struct DebateView {
    pub id: RwSignal<Option<String>>,
    pub config: RwSignal<Option<DebateConfig>>,
    pub blocks: RwSignal<Vec<Block>>,
    pub progress: RwSignal<Progress>,
    pub running: RwSignal<bool>,
    /// Paused by the user: the debate waits at the next call boundary.
    pub paused: RwSignal<bool>,
    /// Held at a failed call until the user presses Resume.
    pub held: RwSignal<bool>,
    /// Paused by the debate itself (at its spending cap, or offline) until it resumes.
    pub waiting: RwSignal<bool>,
    pub outcome: RwSignal<Option<(Outcome, Option<String>)>>,
    pub loading: RwSignal<bool>,
    pub load_error: RwSignal<Option<String>>,
    /// Spent so far, per seat and in all.
    pub ledger: RwSignal<Ledger>,
    /// Structured answers by how they were read (a model's JSON, at a glance).
    pub reads: RwSignal<ReadTally>,
    /// The last finished turn of a live debate, for screen readers (a polite live region
    /// that speaks once per turn, not token by token).
    pub announced: RwSignal<String>,
    /// The spending cap in force.
    pub cap: RwSignal<Option<f64>>,
    /// Every finding so far, in order (the per-chair panel adds them up).
    pub findings: RwSignal<Vec<Finding>>,
    /// The block being read aloud by Listen.
    pub speaking: RwSignal<Option<String>>,
    /// A format's panel can hide the transcript (crux's deck read on its own).
    pub transcript_hidden: RwSignal<bool>,
    /// The log of a debate opened from a share link: shown read-only, stored nowhere
    /// until the visitor keeps a copy (`id` is then `None`).
    pub shared: RwSignal<Option<std::sync::Arc<Vec<Event>>>>,
    /// The finding a share link opened on (one crux card, one forecast), shown alone.
    pub focus: RwSignal<Option<String>>,
    /// What happened, for a forecast resolved after it finished.
    pub resolution: RwSignal<Option<crate::engine::formats::forecast::ledger::Resolution>>,
    /// The session this view's debate runs on.
    pub session: super::app::SessionHandle,
    /// Where share links made in this view open: a widget's Agora (`None`: this page).
    pub share_base: StoredValue<Option<String>>,
    turns: StoredValue<crate::engine::small_map::SmallMap<String, TurnView>>,
    epoch: StoredValue<u32>,
    /// Owns every turn's signals: they are made while an event is applied, which may be in
    /// a replay control or a panel that is redrawn (and disposed) meanwhile; owned here, a
    /// turn's signals live as long as the view.
    owner: StoredValue<Owner>,
}

impl DebateView {
    pub fn new(session: super::app::SessionHandle) -> Self {
        DebateView {
            session,
            share_base: StoredValue::new(None),
            id: RwSignal::new(None),
            config: RwSignal::new(None),
            blocks: RwSignal::new(Vec::new()),
            progress: RwSignal::new(Progress::default()),
            running: RwSignal::new(false),
            paused: RwSignal::new(false),
            waiting: RwSignal::new(false),
            held: RwSignal::new(false),
            outcome: RwSignal::new(None),
            loading: RwSignal::new(false),
            load_error: RwSignal::new(None),
            ledger: RwSignal::new(Ledger::default()),
            reads: RwSignal::new(ReadTally::default()),
            announced: RwSignal::new(String::new()),
            cap: RwSignal::new(None),
            findings: RwSignal::new(Vec::new()),
            speaking: RwSignal::new(None),
            transcript_hidden: RwSignal::new(false),
            shared: RwSignal::new(None),
            focus: RwSignal::new(None),
            resolution: RwSignal::new(None),
            turns: StoredValue::new(crate::engine::small_map::SmallMap::new()),
            epoch: StoredValue::new(0),
            owner: StoredValue::new(Owner::new()),
        }
    }

    pub fn reset(&self, id: Option<String>) {
        self.id.set(id);
        self.config.set(None);
        self.blocks.set(Vec::new());
        self.progress.set(Progress::default());
        self.running.set(false);
        self.paused.set(false);
        self.held.set(false);
        self.waiting.set(false);
        self.outcome.set(None);
        self.load_error.set(None);
        self.ledger.set(Ledger::default());
        self.reads.set(ReadTally::default());
        self.announced.set(String::new());
        self.cap.set(None);
        self.findings.set(Vec::new());
        self.transcript_hidden.set(false);
        self.focus.set(None);
        self.resolution.set(None);
        // A new debate (or none) is not the shared one.
        self.shared.set(None);
        self.turns.update_value(|t| t.clear());
        self.epoch.update_value(|e| *e += 1);
    }

    pub fn show_stored(&self, d: &StoredDebate) {
        self.reset(Some(d.summary.id.clone()));
        for e in &d.events {
            self.apply(e);
        }
        for rec in &d.in_flight {
            if let Some(t) = self
                .turns
                .with_value(|t| t.get(rec.call.to_string().as_str()).copied())
            {
                if t.status.get_untracked() == TurnStatus::Streaming {
                    t.text.set(rec.text.clone());
                }
            }
        }
        // A turn still "streaming" in a stored log was cut off by a closed tab.
        self.turns.with_value(|t| {
            for v in t.values() {
                if v.status.get_untracked() == TurnStatus::Streaming {
                    v.status.set(TurnStatus::Interrupted);
                }
            }
        });
    }

    /// The view as it was after the log's first events (a replay's position).
    /// A shared debate's log, shown as a stored one is (it is kept only here).
    pub fn show_shared(&self, events: Vec<Event>) {
        self.reset(None);
        for e in &events {
            self.apply(e);
        }
        self.shared.set(Some(std::sync::Arc::new(events)));
    }

    /// The whole log behind the view: a shared debate's, or the stored one's (for exports,
    /// replay, share and fork).
    pub fn log(&self) -> futures::future::LocalBoxFuture<'static, Result<Vec<Event>, String>> {
        let shared = self.shared.get_untracked();
        let (session, id) = (self.session.get(), self.id.get_untracked());
        Box::pin(async move {
            if let Some(events) = shared {
                return Ok(events.as_ref().clone());
            }
            let (Some(s), Some(id)) = (session, id) else {
                return Err("This debate is not saved in this browser.".into());
            };
            s.load(&id)
                .await?
                .map(|d| d.events)
                .ok_or_else(|| "This debate is not saved in this browser.".into())
        })
    }

    pub fn show_prefix(&self, events: &[Event]) {
        // Replay redraws the same debate: a shared one stays shared.
        let shared = self.shared.get_untracked();
        self.reset(self.id.get_untracked());
        self.shared.set(shared);
        for e in events {
            self.apply(e);
        }
    }

    fn push(&self, key: String, kind: BlockKind) {
        let epoch = self.epoch.get_value();
        self.blocks.update(|b| b.push(Block { key, kind, epoch }));
    }

    pub fn apply(&self, e: &Event) {
        match &e.kind {
            EventKind::DebateStarted {
                config,
                planned_calls,
                ..
            } => {
                self.config.set(Some(config.clone()));
                self.progress.update(|p| p.planned = *planned_calls);
                self.ledger.set(Ledger::new(config));
                self.cap.set(config.spending_cap);
            }
            EventKind::PhaseStarted { title, .. } => {
                self.progress.update(|p| p.phase = title.clone());
                self.push(
                    format!("p{}", e.seq),
                    BlockKind::Phase {
                        title: title.clone(),
                    },
                );
            }
            EventKind::TurnQueued {
                call,
                seat,
                label,
                purpose,
            } => {
                self.turn_block(e.seq, call, seat, label, *purpose, TurnStatus::Queued);
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
                // A queued call already has its block; a retry reuses it too.
                let view = self
                    .turn(&call.to_string())
                    .filter(|v| v.status.get_untracked() == TurnStatus::Queued);
                match view {
                    Some(v) => v.status.set(status),
                    None => self.turn_block(e.seq, call, seat, label, *purpose, status),
                }
                if let Some(v) = self.turn(&call.to_string()) {
                    v.request.set(request.clone());
                }
            }
            EventKind::FindingRecorded(f) => {
                self.findings.update(|all| all.push(f.clone()));
                // A judgement or a cut belongs to its turn; anything else stands where it
                // happened.
                let turn = f.about.as_ref().and_then(|k| self.turn(&k.to_string()));
                match (&f.body, turn) {
                    (
                        FindingBody::Evaluation(_)
                        | FindingBody::Unscored { .. }
                        | FindingBody::FactCheck { .. },
                        Some(t),
                    ) => t.judged.set(Some(f.clone())),
                    (FindingBody::Interruption { .. }, Some(t)) => t.cut_by.set(Some(f.clone())),
                    // A format whose panel shows its findings keeps them out of the
                    // transcript.
                    _ if !self.format_ui().is_some_and(|u| (u.in_transcript)(f)) => {}
                    _ => self.push(format!("f{}", e.seq), BlockKind::Finding(f.clone())),
                }
            }
            EventKind::CallSkipped { seat, reason, .. } => {
                let text = self.config.with_untracked(|c| match c {
                    Some(c) => reading::skipped(c, seat, reason),
                    None => reason.clone(),
                });
                self.push(
                    format!("n{}", e.seq),
                    BlockKind::Note { text, error: false },
                );
            }
            EventKind::DecisionRecorded { .. } => {}
            EventKind::StructuredRead { outcome, .. } => self.reads.update(|t| t.add(*outcome)),
            EventKind::TurnFinished {
                call,
                seat,
                text,
                reasoning,
                usage,
                finish,
                ..
            } => {
                let cost = self.config.with_untracked(|c| {
                    let c = c.as_ref()?;
                    self.ledger.try_update(|l| l.add(c, seat, usage)).flatten()
                });
                if let Some(v) = self.turn(&call.to_string()) {
                    // A turn shows as its format cleaned it for later prompts.
                    let shown = self.config.with_untracked(|c| match c {
                        Some(c) => reading::turn_text(c, seat, text),
                        None => text.clone(),
                    });
                    v.text.set(shown);
                    v.reasoning.set(reasoning.clone());
                    v.usage.set(Some(*usage));
                    v.cost.set(cost);
                    v.status.set(match finish {
                        FinishReason::Stop => TurnStatus::Done,
                        FinishReason::Length => TurnStatus::Truncated,
                        FinishReason::Cut => TurnStatus::Cut,
                        limit => TurnStatus::Limit(*limit),
                    });
                }
                self.progress.update(|p| {
                    p.calls_done += 1;
                    p.input_tokens += usage.input_tokens;
                    p.output_tokens += usage.output_tokens;
                    p.estimated |= usage.estimated;
                });
            }
            EventKind::TurnFailed {
                call,
                partial,
                error,
                ..
            } => {
                if let Some(v) = self.turn(&call.to_string()) {
                    v.text.set(partial.clone());
                    v.error.set(Some(error.clone()));
                    v.status.set(TurnStatus::Failed);
                }
            }
            EventKind::RetryScheduled {
                attempt,
                max_attempts,
                wait_ms,
                reason,
                ..
            } => self.push(
                format!("r{}", e.seq),
                BlockKind::Retry {
                    reason: reason.clone(),
                    attempt: *attempt,
                    max_attempts: *max_attempts,
                    until_ms: e.at_ms + wait_ms,
                },
            ),
            EventKind::InputReceived { input, .. } => {
                if let Input::SpendingCap { usd } = input {
                    self.cap.set(*usd);
                }
                let Some(text) = reading::input(input) else {
                    return;
                };
                self.push(
                    format!("n{}", e.seq),
                    BlockKind::Note { text, error: false },
                );
            }
            EventKind::Paused {
                reason,
                needs_resume,
            } => {
                // A pause of the user's or the browser's, while held at a failed call, is
                // not the end of the hold.
                if *needs_resume {
                    self.held.set(true);
                } else {
                    self.waiting.set(true);
                }
                self.push(
                    format!("n{}", e.seq),
                    BlockKind::Note {
                        text: reason.clone(),
                        error: *needs_resume,
                    },
                )
            }
            EventKind::Resumed => {
                self.outcome.set(None);
                self.waiting.set(false);
                // The end of one pause: the debate may still be held at a failed call
                // (a pause while offline ended, the refused key not yet fixed).
                let still_held = match (self.session.get(), self.id.get_untracked()) {
                    (Some(s), Some(id)) => s.is_halted(&id),
                    _ => false,
                };
                self.held.set(still_held);
            }
            EventKind::Error { message } => self.push(
                format!("n{}", e.seq),
                BlockKind::Note {
                    text: message.clone(),
                    error: true,
                },
            ),
            EventKind::Finished { outcome, message } => {
                self.outcome.set(Some((*outcome, message.clone())));
                self.running.set(false);
                self.paused.set(false);
                self.held.set(false);
                self.waiting.set(false);
            }
            EventKind::Resolved(r) => self.resolution.set(Some(r.clone())),
        }
    }

    fn turn_block(
        &self,
        seq: u32,
        call: &CallKey,
        seat: &str,
        label: &str,
        purpose: Purpose,
        status: TurnStatus,
    ) {
        let (speaker, model) = self
            .config
            .with_untracked(|c| {
                c.as_ref()
                    .and_then(|c| c.seat(seat))
                    .map(|s| (s.name.clone(), s.participant.describe()))
            })
            .unwrap_or_else(|| (seat.to_string(), String::new()));
        let view = self.owner.get_value().with(|| TurnView {
            text: RwSignal::new(String::new()),
            reasoning: RwSignal::new(String::new()),
            status: RwSignal::new(status),
            error: RwSignal::new(None),
            usage: RwSignal::new(None),
            cost: RwSignal::new(None),
            request: RwSignal::new(String::new()),
            judged: RwSignal::new(None),
            cut_by: RwSignal::new(None),
        });
        self.turns.update_value(|t| {
            t.insert(call.to_string(), view);
        });
        self.push(
            format!("t{seq}"),
            BlockKind::Turn {
                call: call.clone(),
                // The format says which calls are shown folded, as analysis.
                analysis: self
                    .format_ui()
                    .map_or(crate::ui::formats::analysis_folded(purpose), |u| {
                        (u.folded)(purpose)
                    }),
                seat: seat.to_string(),
                speaker,
                model,
                label: label.to_string(),
                view,
            },
        );
    }

    /// Says a turn of a live debate that just ended: who spoke, under which label, and
    /// what they said (a long turn is cut, the rest is in the transcript). Folded analysis
    /// calls (scores, checks) are not said.
    pub fn announce_finished(&self, e: &Event) {
        // A failed attempt is said with its error, as it happens (a stored debate's are not).
        if let EventKind::TurnFailed { seat, error, .. } = &e.kind {
            let who = self
                .config
                .with_untracked(|c| c.as_ref().map(|c| reading::seat_name(c, seat)))
                .unwrap_or_else(|| seat.clone());
            self.announced.set(format!("{who}'s turn failed: {error}"));
            return;
        }
        let EventKind::TurnFinished { call, .. } = &e.kind else {
            return;
        };
        let found = self.blocks.with_untracked(|blocks| {
            blocks.iter().rev().find_map(|b| match &b.kind {
                BlockKind::Turn {
                    call: c,
                    analysis: false,
                    speaker,
                    label,
                    view,
                    ..
                } if c == call => Some((speaker.clone(), label.clone(), *view)),
                _ => None,
            })
        });
        if let Some((speaker, label, view)) = found {
            let text = view.text.get_untracked();
            let said = crate::engine::transcript::clip(text.trim(), 1_200);
            self.announced.set(format!("{speaker}, {label}: {said}"));
        }
    }

    pub fn delta(&self, call: &str, delta: &str) {
        if let Some(v) = self.turn(call) {
            v.text.update(|t| t.push_str(delta));
        }
    }

    /// The screens of this debate's format.
    fn format_ui(&self) -> Option<&'static crate::ui::formats::FormatUi> {
        self.config
            .with_untracked(|c| c.as_ref().map(|c| crate::ui::formats::ui_for(c.format())))
    }

    pub fn turn(&self, call: &str) -> Option<TurnView> {
        self.turns.with_value(|t| t.get(call).copied())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Route {
    Setup,
    Debate(String),
    History,
    /// The forecast ledger.
    Ledger,
    /// The tournaments list and the set-up of a new one.
    Tournaments,
    /// One tournament.
    Tournament(String),
    /// A debate carried in a share link's fragment (`#share=1.…`).
    Shared,
}

/// The app shell's state, provided as context by the app only: its route, History, the
/// notice line, and the debate view it shows (`DebateView`, provided on its own too, which
/// is all a widget provides). All fields are signals or handles, so it is `Copy`.
#[derive(Clone, Copy)]
pub struct AppState {
    pub route: RwSignal<Route>,
    pub debate: DebateView,
    pub history: RwSignal<Vec<DebateSummary>>,
    /// Bumped when connections change so views re-read them from the session.
    pub connections_version: RwSignal<u32>,
    pub ready: RwSignal<bool>,
    pub notice: RwSignal<Option<String>>,
    /// The tournaments this tab runs or has open.
    pub tournaments: super::tournaments::TournamentRuns,
    /// Which no-key connections this page can use, once found (`None` until then).
    pub no_key: RwSignal<Option<crate::session::NoKeyChoices>>,
}

impl AppState {
    /// The session this Agora runs debates on (none until its store is open).
    pub fn session(&self) -> Option<std::rc::Rc<crate::session::Session>> {
        self.debate.session.get()
    }
}
