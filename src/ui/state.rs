//! The UI's reactive store: a mirror of the debate on screen, plus app-wide state. What a
//! debate shows is decided by `engine::log_view::LogView` (plain Rust, tested natively);
//! `DebateView` applies each event to it and copies what the event changed into signals,
//! so a live debate, a stored one and a replay show the same thing.

use leptos::prelude::*;

use crate::engine::cost::Spent;
use crate::engine::event::{Event, EventKind, Outcome, ReadTally, Usage};
use crate::engine::finding::Finding;
use crate::engine::log_view::QuoteCount;
use crate::engine::log_view::{self, Change, LogView};
use crate::engine::reading;
use crate::engine::sources::quotes::{Checked, Found};
use crate::engine::sources::Source;
use crate::engine::{CallKey, DebateConfig};
use crate::session::SessionError;
use crate::store::{DebateSummary, StoredDebate};

pub use super::route::Route;
pub use crate::engine::log_view::{Progress, TurnStatus};

/// The element id of a turn, so a finding (a crux card) can link back to it.
pub fn turn_anchor(call: &CallKey) -> String {
    let mut id = format!("turn-{}", call.path.replace('/', "-"));
    if call.occurrence > 0 {
        id.push_str(&format!("-{}", call.occurrence));
    }
    id
}

/// `TurnView`: one signal per field of the model's turn (`log_view::Turn`) that the screen
/// shows, named as the turn names it. A field shown on screen is one line here (and its
/// field in `Turn`): making the signals and copying a changed turn into them follow.
macro_rules! turn_view {
    ($($(#[$doc:meta])* $field:ident: $ty:ty,)*) => {
        #[derive(Clone, Copy)]
        pub struct TurnView {
            $($(#[$doc])* pub $field: RwSignal<$ty>,)*
        }

        impl TurnView {
            /// Signals holding `turn`.
            fn of(turn: log_view::Turn) -> Self {
                TurnView { $($field: RwSignal::new(turn.$field),)* }
            }

            /// Copies `turn` into the signals, each only where it changed.
            fn sync(&self, turn: log_view::Turn) {
                $(set_changed(self.$field, turn.$field);)*
            }
        }
    };
}

turn_view! {
    text: String,
    /// Reasoning streamed apart from the answer, shown folded.
    reasoning: String,
    status: TurnStatus,
    error: Option<String>,
    usage: Option<Usage>,
    /// What the turn cost, when its seat has a price.
    cost: Option<f64>,
    /// The request as sent, key redacted (empty for human turns and queued calls).
    request: String,
    /// The analyst's judgement of this turn (an evaluation, or "unscored"), once it came.
    judged: Option<Finding>,
    /// Who cut this turn short, and why.
    cut_by: Option<Finding>,
    /// The quotes it marked, each checked against the sources.
    quotes: Vec<Checked>,
    /// What its web search cited, or why it could not search.
    web: Option<crate::engine::sources::web::WebSearch>,
}

/// A turn as the transcript shows it: who, under which label, and its signals.
#[derive(Clone)]
pub struct TurnBlock {
    pub call: crate::engine::CallKey,
    /// An analysis call (an evaluation, a check, an extraction): its result is shown
    /// where it belongs (a scorecard…), so the call itself is shown folded.
    pub analysis: bool,
    pub seat: String,
    pub speaker: String,
    pub model: String,
    pub label: String,
    pub view: TurnView,
}

/// The model's blocks (`log_view::BlockKind`), each turn as its `TurnBlock`.
pub type BlockKind = log_view::BlockKind<TurnBlock>;

/// A source in the viewer: which, and the byte range of its text to highlight (a
/// verified quote's words), if any.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceAt {
    pub source: String,
    pub mark: Option<(usize, usize)>,
}

impl From<&Found> for SourceAt {
    fn from(f: &Found) -> Self {
        SourceAt {
            source: f.source.clone(),
            mark: Some((f.start, f.end)),
        }
    }
}

#[derive(Clone)]
pub struct Block {
    pub key: String,
    pub kind: BlockKind,
    /// Which `reset` of the view made it: a redrawn view (a replay's scrub, a reload) gets
    /// new rows even where keys repeat, so no row stays bound to the signals of before.
    pub epoch: u32,
}

/// `DebateView`: the signals a new debate starts afresh, each named once with its starting
/// value (`fresh` makes them, `reset` sets them back to it), and the parts it keeps.
macro_rules! debate_view {
    (
        fresh { $($(#[$doc:meta])* $field:ident: $ty:ty = $init:expr,)* }
        kept { $($(#[$kdoc:meta])* $kvis:vis $kfield:ident: $kty:ty = $kinit:expr,)* }
    ) => {
        /// The debate on screen.
        #[derive(Clone, Copy)]
        pub struct DebateView {
            $($(#[$doc])* pub $field: RwSignal<$ty>,)*
            /// The session this view's debate runs on.
            pub session: super::app::SessionHandle,
            $($(#[$kdoc])* $kvis $kfield: $kty,)*
        }

        impl DebateView {
            pub fn new(session: super::app::SessionHandle) -> Self {
                DebateView {
                    $($field: RwSignal::new($init),)*
                    session,
                    $($kfield: $kinit,)*
                }
            }

            /// Every signal of `fresh` back to its starting value.
            fn start_afresh(&self) {
                $(self.$field.set($init);)*
            }
        }
    };
}

debate_view! {
    fresh {
        id: Option<String> = None,
        config: Option<DebateConfig> = None,
        blocks: Vec<Block> = Vec::new(),
        progress: Progress = Progress::default(),
        running: bool = false,
        /// Paused by the user: the debate waits at the next call boundary.
        paused: bool = false,
        /// Held at a failed call until the user presses Resume.
        held: bool = false,
        /// Paused by the debate itself (at its spending cap, or offline) until it resumes.
        waiting: bool = false,
        outcome: Option<(Outcome, Option<String>)> = None,
        load_error: Option<String> = None,
        /// Spent so far, per seat and in all.
        spent: Spent = Spent::default(),
        /// Structured answers by how they were read (a model's JSON, at a glance).
        reads: ReadTally = ReadTally::default(),
        /// The last finished turn of a live debate, for screen readers (a polite live region
        /// that speaks once per turn, not token by token).
        announced: String = String::new(),
        /// The spending cap in force.
        cap: Option<f64> = None,
        /// Every finding so far, in order (the per-chair panel adds them up).
        findings: Vec<Finding> = Vec::new(),
        /// The block being read aloud by Listen.
        speaking: Option<String> = None,
        /// A format's panel can hide the transcript (crux's deck read on its own).
        transcript_hidden: bool = false,
        /// The log of a debate opened from a share link: shown read-only, stored nowhere
        /// until the visitor keeps a copy (`id` is then `None`). A new debate (or none) is
        /// not the shared one.
        shared: Option<std::sync::Arc<Vec<Event>>> = None,
        /// The gallery example on screen (its name): shown as a shared debate is, and
        /// replayed from its start as it opens.
        example: Option<String> = None,
        /// The finding a share link opened on (one crux card, one forecast), shown alone.
        focus: Option<String> = None,
        /// What happened, for a forecast resolved after it finished.
        resolution: Option<crate::engine::formats::forecast::ledger::Resolution> = None,
        /// The debate's sources (the configuration's, then evidence as it arrived).
        sources: Vec<Source> = Vec::new(),
        /// The source open in the viewer, with the words a verified quote was found at.
        source_open: Option<SourceAt> = None,
        /// Quotes made and verified per seat.
        quote_counts: Vec<QuoteCount> = Vec::new(),
    }
    kept {
        /// A stored debate is being fetched: set by whoever fetches it, around `reset`.
        pub loading: RwSignal<bool> = RwSignal::new(false),
        /// Where share links made in this view open: a widget's Agora (`None`: this page).
        pub share_base: StoredValue<Option<String>> = StoredValue::new(None),
        /// What the debate shows, in plain Rust: the signals above mirror it.
        model: StoredValue<LogView> = StoredValue::new(LogView::default()),
        /// The signals of each of the model's turns, by the same index.
        turns: StoredValue<Vec<TurnView>> = StoredValue::new(Vec::new()),
        epoch: StoredValue<u32> = StoredValue::new(0),
        /// Owns every turn's signals: they are made while an event is applied, which may be
        /// in a replay control or a panel that is redrawn (and disposed) meanwhile; owned
        /// here, a turn's signals live as long as the view.
        owner: StoredValue<Owner> = StoredValue::new(Owner::new()),
    }
}

impl DebateView {
    /// Shows debate `id` (or none) from nothing: every signal afresh, the model emptied, and
    /// the rows of before never reused.
    pub fn reset(&self, id: Option<String>) {
        self.start_afresh();
        self.id.set(id);
        self.model.set_value(LogView::default());
        self.turns.update_value(|t| t.clear());
        self.epoch.update_value(|e| *e += 1);
    }

    pub fn show_stored(&self, d: &StoredDebate) {
        self.reset(Some(d.summary.id.clone()));
        for e in &d.events {
            self.apply(e);
        }
        let saved: Vec<(CallKey, String)> = d
            .in_flight
            .iter()
            .map(|r| (r.call.clone(), r.text.clone()))
            .collect();
        let changed = self
            .model
            .try_update_value(|m| m.finish_stored(&saved))
            .unwrap_or_default();
        for i in changed {
            self.sync_turn(i);
        }
    }

    /// A shared debate's log, shown as a stored one is (it is kept only here).
    pub fn show_shared(&self, events: Vec<Event>) {
        self.reset(None);
        for e in &events {
            self.apply(e);
        }
        self.shared.set(Some(std::sync::Arc::new(events)));
    }

    /// The session and id of the debate on screen: the one place the intents below check
    /// that there is a debate to act on.
    fn on_session(&self) -> Option<(std::rc::Rc<crate::session::Session>, String)> {
        Some((self.session.get()?, self.id.get_untracked()?))
    }

    /// Stops the debate on screen. False when there is none to stop.
    pub fn stop(&self) -> bool {
        let Some((s, id)) = self.on_session() else {
            return false;
        };
        s.stop(&id);
        true
    }

    /// Pauses the debate on screen at its next call boundary, or lets it go on.
    pub fn toggle_pause(&self) {
        if let Some((s, id)) = self.on_session() {
            let now = !self.paused.get_untracked();
            s.set_paused(&id, now);
            self.paused.set(now);
        }
    }

    /// Resumes the debate on screen (a stopped, held or closed-tab one); shown running at
    /// once, and not running again if it could not resume, with why.
    pub fn resume(&self) -> futures::future::LocalBoxFuture<'static, Result<(), SessionError>> {
        let Some((s, id)) = self.on_session() else {
            return Box::pin(async { Ok(()) });
        };
        self.running.set(true);
        let running = self.running;
        Box::pin(async move {
            let resumed = s.resume(&id).await;
            if resumed.is_err() {
                running.set(false);
            }
            resumed
        })
    }

    /// Gives the debate on screen an input: a question, evidence, a person's turn, a
    /// spending cap. Refused with why (too long, the debate is over…).
    pub fn input(&self, input: crate::engine::event::Input) -> Result<(), SessionError> {
        match self.on_session() {
            Some((s, id)) => s.input(&id, input),
            None => Err(SessionError::NotRunning),
        }
    }

    /// Asks the debaters a question, or gives them evidence the next turns must take into
    /// account. Blank text asks nothing.
    pub fn ask(&self, text: &str, evidence: bool) -> Result<(), SessionError> {
        use crate::engine::event::Input;
        let text = text.trim().to_string();
        if text.is_empty() {
            return Ok(());
        }
        self.input(if evidence {
            Input::Evidence { text }
        } else {
            Input::Question { text }
        })
    }

    /// Sets the running debate's spending cap anew (`None`: no cap).
    pub fn set_cap(&self, usd: Option<f64>) -> Result<(), SessionError> {
        self.input(crate::engine::event::Input::SpendingCap { usd })
    }

    /// Keeps the shared debate on screen: stored in this browser as a debate of its own,
    /// whose id the future gives. `None` when there is no shared debate (or no session).
    pub fn keep_copy(
        &self,
    ) -> Option<futures::future::LocalBoxFuture<'static, Result<String, SessionError>>> {
        let (s, events) = (self.session.get()?, self.shared.get_untracked()?);
        Some(s.adopt(events.as_ref().clone()))
    }

    /// Records what happened to the finished forecast on screen. Once stored, it is shown
    /// on that forecast, unless the view has moved to another debate meanwhile. `None` when
    /// no stored debate is on screen.
    pub fn resolve(
        &self,
        r: crate::engine::formats::forecast::ledger::Resolution,
    ) -> Option<futures::future::LocalBoxFuture<'static, Result<(), SessionError>>> {
        let (s, id) = self.on_session()?;
        let (view, write) = (*self, s.resolve(&id, r));
        Some(Box::pin(async move {
            let e = write.await?;
            if view.id.get_untracked().as_deref() == Some(id.as_str()) {
                view.apply(&e);
            }
            Ok(())
        }))
    }

    /// Follows the session's update of the debate on screen: an event is applied (and a
    /// finished turn said to screen readers), streamed text shown, the end of the run
    /// noted. A notice is the caller's to show (a page's notice line, a widget's event).
    pub fn follow(&self, update: &crate::session::Update) {
        use crate::session::Update;
        match update {
            Update::Event(e) => {
                self.apply(e);
                self.announce_finished(e);
            }
            Update::Delta { call, delta, .. } => self.delta(&call.to_string(), delta),
            Update::Ended => self.running.set(false),
            Update::Notice(_) => {}
        }
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
                .await
                .map_err(|e| e.to_string())?
                .map(|d| d.events)
                .ok_or_else(|| "This debate is not saved in this browser.".into())
        })
    }

    /// The view as it was after the log's first events (a replay's position).
    pub fn show_prefix(&self, events: &[Event]) {
        // Replay redraws the same debate: a shared one stays shared.
        let (shared, example) = (self.shared.get_untracked(), self.example.get_untracked());
        self.reset(self.id.get_untracked());
        self.shared.set(shared);
        self.example.set(example);
        for e in events {
            self.apply(e);
        }
    }

    pub fn apply(&self, e: &Event) {
        let changes = self
            .model
            .try_update_value(|m| m.apply(e))
            .unwrap_or_default();
        for change in changes {
            self.mirror(change);
        }
        match &e.kind {
            // The end of one pause: the debate may still be held at a failed call (a pause
            // while offline ended, the refused key not yet fixed); the session knows.
            EventKind::Resumed => {
                let still_held = match (self.session.get(), self.id.get_untracked()) {
                    (Some(s), Some(id)) => s.is_halted(&id),
                    _ => false,
                };
                self.held.set(still_held);
            }
            EventKind::Finished { .. } => {
                self.running.set(false);
                self.paused.set(false);
            }
            _ => {}
        }
    }

    /// Copies what one event changed in the model into the signals.
    fn mirror(&self, change: Change) {
        let m = self.model;
        match change {
            Change::Started => {
                let config = m.with_value(|m| m.config.clone());
                // The format's drawing comes beside the debate screen, not after it.
                if let Some(c) = &config {
                    crate::ui::formats::views_chunk(c.format()).prefetch();
                }
                self.config.set(config);
            }
            Change::Progress => set_changed(self.progress, m.with_value(|m| m.progress.clone())),
            Change::Spent => self.spent.set(m.with_value(|m| m.spent.clone())),
            Change::Cap => set_changed(self.cap, m.with_value(|m| m.cap)),
            Change::Reads => self.reads.set(m.with_value(|m| m.reads)),
            Change::Finding => {
                if let Some(f) = m.with_value(|m| m.findings.last().cloned()) {
                    self.findings.update(|all| all.push(f));
                }
            }
            Change::Holds => {
                let (held, waiting, outcome) =
                    m.with_value(|m| (m.held, m.waiting, m.outcome.clone()));
                set_changed(self.held, held);
                set_changed(self.waiting, waiting);
                set_changed(self.outcome, outcome);
            }
            Change::Resolution => self.resolution.set(m.with_value(|m| m.resolution.clone())),
            Change::Sources => self.sources.set(m.with_value(|m| m.sources.clone())),
            Change::Added(i) => self.add_block(i),
            Change::Turn(i) => self.sync_turn(i),
        }
    }

    /// Shows the model's block `i`: a turn gets its signals; a finding the format's panel
    /// shows instead stays out of the transcript.
    fn add_block(&self, i: usize) {
        let Some(block) = self.model.with_value(|m| m.blocks.get(i).cloned()) else {
            return;
        };
        if let log_view::BlockKind::Finding(f) = &block.kind {
            if !self.format_ui().is_some_and(|u| (u.in_transcript)(f)) {
                return;
            }
        }
        let Some(kind) = block.kind.try_map_turn(|t| self.turn_block(t)) else {
            return;
        };
        let epoch = self.epoch.get_value();
        self.blocks.update(|b| {
            b.push(Block {
                key: block.key,
                kind,
                epoch,
            })
        });
    }

    /// The model's turn `t` as the transcript shows it, its signals made (and kept by the
    /// view).
    fn turn_block(&self, t: usize) -> Option<TurnBlock> {
        let turn = self.model.with_value(|m| m.turns.get(t).cloned())?;
        if !turn.quotes.is_empty() {
            set_changed(
                self.quote_counts,
                self.model.with_value(|m| m.quote_counts()),
            );
        }
        let view = self.owner.get_value().with(|| TurnView::of(turn.clone()));
        self.turns.update_value(|views| {
            if views.len() == t {
                views.push(view);
            }
        });
        Some(TurnBlock {
            call: turn.call,
            // The format says which calls are shown folded, as analysis.
            analysis: self
                .format_ui()
                .map_or(crate::ui::formats::analysis_folded(turn.purpose), |u| {
                    (u.folded)(turn.purpose)
                }),
            seat: turn.seat,
            speaker: turn.speaker,
            model: turn.model,
            label: turn.label,
            view,
        })
    }

    /// Copies the model's turn `i` into its signals (each only where it changed).
    fn sync_turn(&self, i: usize) {
        let Some(view) = self.turns.with_value(|v| v.get(i).copied()) else {
            // Not shown yet: its block copies the whole turn when it is added.
            return;
        };
        let Some(t) = self.model.with_value(|m| m.turns.get(i).cloned()) else {
            return;
        };
        let quotes_changed = view.quotes.with_untracked(|q| *q != t.quotes);
        view.sync(t);
        if quotes_changed {
            set_changed(
                self.quote_counts,
                self.model.with_value(|m| m.quote_counts()),
            );
        }
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
                BlockKind::Turn(TurnBlock {
                    call: c,
                    analysis: false,
                    speaker,
                    label,
                    view,
                    ..
                }) if c == call => Some((speaker.clone(), label.clone(), *view)),
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
        let turn = self
            .model
            .try_update_value(|m| m.delta(call, delta))
            .flatten();
        if let Some(v) = turn.and_then(|i| self.turns.with_value(|v| v.get(i).copied())) {
            v.text.update(|t| t.push_str(delta));
        }
    }

    /// The screens of this debate's format.
    fn format_ui(&self) -> Option<&'static crate::ui::formats::FormatUi> {
        self.config
            .with_untracked(|c| c.as_ref().map(|c| crate::ui::formats::ui_for(c.format())))
    }

    /// The signals of a call's turn (its latest attempt).
    pub fn turn(&self, call: &str) -> Option<TurnView> {
        let i = self.model.with_value(|m| m.turn_index(call))?;
        self.turns.with_value(|v| v.get(i).copied())
    }
}

/// Sets `signal` to `value` only when it differs, so nothing re-renders for no change.
fn set_changed<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    if signal.with_untracked(|v| *v != value) {
        signal.set(value);
    }
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

    /// The session for a Start pressed in a form, or `None` with the form's error saying
    /// the app has not started yet.
    pub fn session_for_start(
        &self,
        error: RwSignal<Option<String>>,
    ) -> Option<std::rc::Rc<crate::session::Session>> {
        let s = self.session();
        if s.is_none() {
            error.set(Some(
                "Agora is still starting; try again in a moment.".into(),
            ));
        }
        s
    }
}
