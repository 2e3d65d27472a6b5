//! Runs a tournament through the session: each match's debate is an ordinary debate
//! (stored, replayable, exportable), started or resumed here, and each model judge's verdict
//! is one call once the debate has finished. Everything that happens is a
//! `TournamentEvent` appended to the tournament's stored log (one record per event, never a
//! rewrite), so a tournament stopped by a fault, its spending cap or a closed tab is built
//! again from its log and goes on where it was.

use std::cell::RefCell;
use std::rc::Rc;

use futures::stream::{FuturesUnordered, StreamExt};

use super::error::TournamentError;
use super::runner::{DebateLock, Hold, Session};
use crate::engine::cancel::CancelToken;
use crate::engine::config::Participant;
use crate::engine::cost::Spent;
use crate::engine::event::{Event, EventKind, Input, Outcome, Purpose};
use crate::engine::model::{ChatMessage, ChatRequest, ErrorKind, Role};
use crate::engine::prompt::{render, JSON_REPAIR};
use crate::engine::tournament::progress::{Quotes, Spend, Tournament, TournamentEvent, Work};
use crate::engine::tournament::schedule::shown_first;
use crate::engine::tournament::spec::{entrant_name, side_seats, TournamentSpec};
use crate::engine::tournament::verdict::{self, Decision, VERDICT_TOKENS};
use crate::engine::transcript::clip;
use crate::store::TournamentSummary;

/// Most debates a tournament runs at once, whatever its connections allow.
pub const MAX_PARALLEL: usize = 8;

/// Told of the tournament's state after each event, and whether a run goes on in this tab
/// (the screen that shows it).
type Observer = Rc<dyn Fn(&Tournament, bool)>;

pub struct TournamentRun {
    session: Rc<Session>,
    /// The tournament's id: its Web Lock and its stored log are named after it.
    id: String,
    log: RefCell<Vec<TournamentEvent>>,
    /// The log folded, kept up to date event by event rather than folded again per step
    /// (`None` only while `create` stores the first event).
    state: RefCell<Option<Tournament>>,
    /// Told after each event.
    observer: RefCell<Option<Observer>>,
    /// Cancelled by Stop, a fault or the cap; each run starts with a fresh one.
    stop: RefCell<CancelToken>,
    /// The debates this run has in hand, to stop them with the tournament.
    debates: RefCell<Vec<String>>,
    /// What the debates and verdicts in hand may still spend, by what they are: the cap
    /// leaves it to them, so that all of them together cannot pass it.
    reserved: RefCell<Vec<Reserved>>,
    /// This tab holds the tournament's Web Lock (a run is going on).
    locked: std::cell::Cell<bool>,
}

/// A share of the cap held by work in hand.
struct Reserved {
    /// `Start(i)` for match `i`'s debate (started or resumed), `Judge(i, j)` for a verdict.
    work: Work,
    /// What it may still spend, beyond what the log already counts.
    usd: f64,
    /// A debate's own cap as it was last given.
    cap: f64,
}

/// What one party spent in a debate: the tokens and cost of its seats' finished turns.
fn spend(spent: &Spent, events: &[Event], seats: &[&str]) -> Spend {
    let mut s = Spend::default();
    for e in events {
        if let EventKind::TurnFinished { seat, usage, .. } = &e.kind {
            if seats.contains(&seat.as_str()) {
                s.input_tokens += usage.input_tokens as u64;
                s.output_tokens += usage.output_tokens as u64;
            }
        }
    }
    for (seat, usd) in &spent.seats {
        if seats.contains(&seat.as_str()) {
            s.usd += usd;
        }
    }
    s.unpriced = seats.iter().any(|x| spent.unpriced.iter().any(|u| u == x));
    s
}

impl TournamentRun {
    /// A new tournament of `spec`: checked and scheduled (a pairing no judge may decide is
    /// refused here, before anything runs), and its first event stored.
    pub async fn create(
        session: Rc<Session>,
        spec: TournamentSpec,
    ) -> Result<Rc<Self>, TournamentError> {
        let id = session.new_id();
        let run = Self::new(session, &id, Vec::new())?;
        run.record(TournamentEvent::Started { spec }).await?;
        Ok(run)
    }

    /// A stored tournament, its log read once; `None` when it is not stored here.
    pub async fn open(session: Rc<Session>, id: &str) -> Result<Option<Rc<Self>>, TournamentError> {
        match session.store().tournament(id).await.map_err(stored)? {
            Some(log) => Self::new(session, id, log).map(Some),
            None => Ok(None),
        }
    }

    /// A run over `log`, which is stored already (or empty, for `create`); refused with the
    /// reason when it does not fold.
    fn new(
        session: Rc<Session>,
        id: &str,
        log: Vec<TournamentEvent>,
    ) -> Result<Rc<Self>, TournamentError> {
        let state = if log.is_empty() {
            None
        } else {
            Some(Tournament::from_events(&log).map_err(TournamentError::Log)?)
        };
        Ok(Rc::new(TournamentRun {
            session,
            id: id.to_string(),
            log: RefCell::new(log),
            state: RefCell::new(state),
            observer: RefCell::new(None),
            stop: RefCell::new(CancelToken::new()),
            debates: RefCell::new(Vec::new()),
            reserved: RefCell::new(Vec::new()),
            locked: Default::default(),
        }))
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether a run is going on in this tab.
    pub fn is_running(&self) -> bool {
        self.locked.get()
    }

    /// Tells `f` the tournament's state after each event, and when a run starts or ends,
    /// from now on.
    pub fn observe(&self, f: impl Fn(&Tournament, bool) + 'static) {
        *self.observer.borrow_mut() = Some(Rc::new(f));
    }

    fn notify(&self) {
        let observer = self.observer.borrow().clone();
        if let Some(f) = observer {
            f(&self.state(), self.locked.get());
        }
    }

    fn stopped(&self) -> bool {
        self.stop.borrow().is_cancelled()
    }

    /// Takes the tournament's Web Lock and reads its log again from the store: another tab
    /// may have gone on with it since this one read it, and its log is the one to extend.
    async fn take_over(&self) -> Result<Option<DebateLock>, TournamentError> {
        if self.locked.get() {
            return Ok(None);
        }
        // A run of this tab that just ended lets go of the lock a moment later: a verdict
        // given at once waits for it rather than being refused.
        let name = format!("tournament-{}", self.id);
        let mut lock = None;
        for _ in 0..5 {
            lock = self.session.lock(&name).await;
            if lock.is_some() {
                break;
            }
            self.session.sleep(100).await;
        }
        let lock = lock.ok_or(TournamentError::RunningElsewhere)?;
        if let Some(log) = self
            .session
            .store()
            .tournament(&self.id)
            .await
            .map_err(stored)?
        {
            if log.len() > self.log.borrow().len() {
                *self.state.borrow_mut() =
                    Some(Tournament::from_events(&log).map_err(TournamentError::Log)?);
                *self.log.borrow_mut() = log;
                self.notify();
            }
        }
        Ok(Some(lock))
    }

    pub fn state(&self) -> Tournament {
        self.state
            .borrow()
            .clone()
            .expect("a tournament's state is read only once its first event is in")
    }

    pub fn log(&self) -> Vec<TournamentEvent> {
        self.log.borrow().clone()
    }

    /// Records one event: folded into the state at once, then appended to the stored log as
    /// one record (with the list's summary row), never by writing the log again.
    async fn record(&self, e: TournamentEvent) -> Result<(), TournamentError> {
        if self.state.borrow().is_none() {
            return self.record_first(e).await;
        }
        // Only the run makes these events, about the matches it was given.
        if let Some(t) = self.state.borrow_mut().as_mut() {
            t.apply(&e)
                .expect("a run records only events its tournament has");
        }
        let seq = {
            let mut log = self.log.borrow_mut();
            log.push(e.clone());
            log.len() - 1
        };
        self.notify();
        self.store(seq, &e).await
    }

    /// The `Started` event of a new tournament: the spec is checked and scheduled first.
    async fn record_first(&self, e: TournamentEvent) -> Result<(), TournamentError> {
        let t = Tournament::from_events(std::slice::from_ref(&e)).map_err(TournamentError::Log)?;
        *self.state.borrow_mut() = Some(t);
        self.log.borrow_mut().push(e.clone());
        self.store(0, &e).await
    }

    async fn store(&self, seq: usize, e: &TournamentEvent) -> Result<(), TournamentError> {
        let summary = TournamentSummary::of(&self.id, &self.state(), self.session.now_ms());
        self.session
            .store()
            .append_tournament(&summary, seq as u32, e)
            .await
            .map_err(TournamentError::NotSaved)
    }

    /// Stops the debates in hand and every call; the log keeps what was done.
    pub fn stop(&self) {
        self.stop.borrow().cancel();
        for id in self.debates.borrow().iter() {
            self.session.stop(id);
        }
    }

    /// Debates at once: the calls at once the contestants' connections allow together.
    fn parallel(&self, t: &Tournament) -> usize {
        let connections = self.session.connections();
        let mut used: Vec<&str> = Vec::new();
        for c in &t.spec.contestants {
            if let Participant::Model { connection, .. } = c {
                if !used.contains(&connection.as_str()) {
                    used.push(connection);
                }
            }
        }
        let calls: u32 = connections
            .iter()
            .filter(|c| used.contains(&c.id.as_str()))
            .map(|c| c.concurrency.max(1))
            .sum();
        (calls as usize).clamp(1, MAX_PARALLEL)
    }

    /// What is left of the cap once the work in hand has what it may spend (`None`: no cap).
    fn unreserved(&self, t: &Tournament) -> Option<f64> {
        let cap = t.spec.spending_cap?;
        let held: f64 = self.reserved.borrow().iter().map(|r| r.usd).sum();
        Some((cap - t.spent() - held).max(0.0))
    }

    fn reserve(&self, work: Work, usd: f64, cap: f64) {
        self.release(&work);
        self.reserved.borrow_mut().push(Reserved { work, usd, cap });
    }

    fn release(&self, work: &Work) {
        self.reserved.borrow_mut().retain(|r| r.work != *work);
    }

    /// A debate about to start or resume: its share of what is unreserved, split with the
    /// other debates that may run at once (`None`: no cap).
    fn debate_share(&self, t: &Tournament) -> Option<f64> {
        let left = self.unreserved(t)?;
        let in_hand = self
            .reserved
            .borrow()
            .iter()
            .filter(|r| !matches!(r.work, Work::Judge(..)))
            .count();
        let debates_left = t
            .work(&[])
            .iter()
            .filter(|w| !matches!(w, Work::Judge(..)))
            .count();
        let slots = (self.parallel(t).saturating_sub(in_hand))
            .min(debates_left.saturating_sub(in_hand))
            .max(1);
        Some(left / slots as f64)
    }

    /// Why the run stopped at the cap; `next` is the worst case of the call that did not
    /// fit, where it is known here (a verdict's; a debate's own pause names its call's).
    fn cap_reached(&self, next: Option<f64>) -> TournamentError {
        let t = self.state();
        TournamentError::CapReached {
            cap: t.spec.spending_cap.unwrap_or_default(),
            spent: t.spent(),
            next,
        }
    }

    /// Runs what is left until the tournament is done (a person's verdicts aside), it is
    /// stopped, its cap is reached or a call fails in a way retrying cannot fix; the last
    /// three end with a `Stopped` event that says why. Refused, with nothing recorded,
    /// while another tab of this browser runs the same tournament.
    pub async fn run(self: Rc<Self>) -> Result<(), TournamentError> {
        if self.locked.get() {
            return Err(TournamentError::AlreadyRunning);
        }
        let _lock = self.take_over().await?;
        self.locked.set(true);
        self.notify();
        let result = self.clone().go_on().await;
        self.locked.set(false);
        self.notify();
        result
    }

    async fn go_on(self: Rc<Self>) -> Result<(), TournamentError> {
        *self.stop.borrow_mut() = CancelToken::new();
        self.reserved.borrow_mut().clear();
        let mut in_hand: Vec<Work> = Vec::new();
        let mut running = FuturesUnordered::new();
        let mut failure: Option<TournamentError> = None;
        loop {
            let t = self.state();
            // Everything left of the cap is held by work in hand (or spent).
            let capped = self.unreserved(&t).is_some_and(|x| x <= 0.0);
            let left = !t.work(&[]).is_empty();
            if capped && left && running.is_empty() && failure.is_none() && !self.stopped() {
                failure = Some(self.cap_reached(None));
            }
            let go_on = !capped && failure.is_none() && !self.stopped();
            if go_on {
                let limit = self.parallel(&t);
                for w in t.work(&[]) {
                    if running.len() >= limit {
                        break;
                    }
                    let taken = in_hand.iter().any(|h| match (h, &w) {
                        (Work::Judge(a, x), Work::Judge(b, y)) => a == b && x == y,
                        (Work::Judge(..), _) | (_, Work::Judge(..)) => false,
                        (
                            Work::Start(a) | Work::Resume(a, _),
                            Work::Start(b) | Work::Resume(b, _),
                        ) => a == b,
                    });
                    let person =
                        matches!(w, Work::Judge(_, j) if t.spec.judges[j] == Participant::Human);
                    if taken || person {
                        continue;
                    }
                    in_hand.push(w.clone());
                    running.push(self.clone().play(w));
                }
            }
            match running.next().await {
                None => break,
                Some((w, result)) => {
                    in_hand.retain(|h| *h != w);
                    if let Err(e) = result {
                        if failure.is_none() {
                            failure = Some(e);
                            self.stop();
                        }
                    }
                }
            }
        }
        let reason = match failure {
            Some(reason) => reason,
            None if self.stopped() => TournamentError::StoppedByYou,
            None => return Ok(()),
        };
        let reason = reason.to_string();
        // A stop that cannot be saved is still shown: the state holds it.
        self.record(TournamentEvent::Stopped { reason }).await
    }

    /// A person's verdict on match `i` as judge `j`, who was shown the sides in the
    /// order `blind` gives them; refused when it is not theirs to give.
    pub async fn decide(
        &self,
        i: usize,
        j: usize,
        decision: Decision,
        reason: String,
    ) -> Result<(), TournamentError> {
        // From a tab that runs nothing: under the lock, onto the latest log.
        let _lock = self.take_over().await?;
        let t = self.state();
        let m = t.matches.get(i).ok_or(TournamentError::NoSuchDebate)?;
        if t.spec.judges.get(j) != Some(&Participant::Human) || !m.judges.contains(&j) {
            return Err(TournamentError::NotYourVerdict);
        }
        if !t.progress[i].completed() {
            return Err(TournamentError::NotFinished);
        }
        self.record(TournamentEvent::Verdict {
            match_id: m.id.clone(),
            judge: j,
            shown_first: shown_first(t.spec.seed, &m.id, j),
            decision: Some(decision),
            reason,
            spend: Spend::default(),
        })
        .await
    }

    /// Sets the tournament's spending cap anew (`None`: none), between runs.
    pub async fn set_cap(&self, usd: Option<f64>) -> Result<(), TournamentError> {
        if usd.is_some_and(|c| !(c.is_finite() && c >= 0.0)) {
            return Err(TournamentError::CapNotDollars);
        }
        let _lock = self.take_over().await?;
        self.record(TournamentEvent::CapChanged { usd }).await
    }

    async fn play(self: Rc<Self>, w: Work) -> (Work, Result<(), TournamentError>) {
        let result = match &w {
            Work::Start(i) => self.start(*i).await,
            Work::Resume(i, id) => self.resume(*i, id).await,
            Work::Judge(i, j) => self.judge(*i, *j).await,
        };
        self.release(&match w {
            Work::Judge(i, j) => Work::Judge(i, j),
            Work::Start(i) | Work::Resume(i, _) => Work::Start(i),
        });
        (w, result)
    }

    async fn start(&self, i: usize) -> Result<(), TournamentError> {
        let t = self.state();
        let m = &t.matches[i];
        let mut config = t.spec.debate_config(m.motion, m.first, m.second);
        // Each debate at once gets its share of what is left of the tournament's cap, so
        // together they cannot pass it.
        config.spending_cap = self.debate_share(&t);
        if let Some(share) = config.spending_cap {
            self.reserve(Work::Start(i), share, share);
        }
        let id = self.session.new_id();
        // Started first: a start refused (a connection not set up) records nothing.
        self.session.start_as(id.clone(), config)?;
        self.record(TournamentEvent::DebateStarted {
            match_id: m.id.clone(),
            debate_id: id.clone(),
        })
        .await?;
        self.debates.borrow_mut().push(id.clone());
        self.finish(i, &id).await
    }

    async fn resume(&self, i: usize, id: &str) -> Result<(), TournamentError> {
        // A tab closed before the debate's first event was stored (or the debate deleted
        // since): nothing of it ran to keep, so the match starts again.
        let Some(stored) = self.session.load(id).await? else {
            return self.start(i).await;
        };
        // A debate stopped at its share of the cap goes on with a new share of what is left
        // (or none, when the tournament's cap was taken away), on top of what it spent,
        // read from its own log (a closed tab recorded no end for it).
        let config = crate::engine::event::config_of(&stored.events)
            .ok_or(TournamentError::DebateWithoutStart)?;
        let spent = Spent::from_events(config, &stored.events).total;
        let had_cap = config.spending_cap.is_some();
        let t = self.state();
        let share = self.debate_share(&t);
        let usd = share.map(|share| {
            // The log counts what an earlier end recorded; the rest is new.
            let counted =
                t.progress[i].sides[0].usd + t.progress[i].sides[1].usd + t.progress[i].host.usd;
            self.reserve(
                Work::Start(i),
                share + (spent - counted).max(0.0),
                spent + share,
            );
            spent + share
        });
        self.debates.borrow_mut().push(id.to_string());
        self.session.resume(id).await?;
        // (A debate that never had a cap is not told so again.)
        if usd.is_some() || had_cap {
            self.session.input(id, Input::SpendingCap { usd })?;
        }
        self.finish(i, id).await
    }

    /// Waits for the debate's end and records how it ended and what each party spent.
    async fn finish(&self, i: usize, id: &str) -> Result<(), TournamentError> {
        // A debate at its share of the cap gets what is still unreserved; one held for the
        // user (its cap with nothing left, a failed call) is stopped, and the tournament
        // with it, saying why; the next run resumes it.
        let held = loop {
            match self.session.settled(id).await {
                Some(Hold::Cap) => {
                    let more = self.unreserved(&self.state()).filter(|m| *m > 0.0);
                    let had = self
                        .reserved
                        .borrow()
                        .iter()
                        .find(|r| r.work == Work::Start(i))
                        .map(|r| (r.usd, r.cap));
                    match (more, had) {
                        (Some(more), Some((usd, cap))) => {
                            self.reserve(Work::Start(i), usd + more, cap + more);
                            self.session.input(
                                id,
                                Input::SpendingCap {
                                    usd: Some(cap + more),
                                },
                            )?;
                        }
                        _ => break Some(Hold::Cap),
                    }
                }
                other => break other,
            }
        };
        if held.is_some() {
            self.session.stop(id);
            self.session.ended(id).await;
        }
        self.debates.borrow_mut().retain(|d| d != id);
        let stored = self
            .session
            .load(id)
            .await?
            .ok_or(TournamentError::DebateNotStored)?;
        let t = self.state();
        let outcome = stored
            .events
            .iter()
            .rev()
            .find_map(|e| match &e.kind {
                EventKind::Finished { outcome, .. } => Some(*outcome),
                _ => None,
            })
            .unwrap_or(Outcome::Stopped);
        let config = crate::engine::event::config_of(&stored.events)
            .ok_or(TournamentError::DebateWithoutStart)?;
        let spent = Spent::from_events(config, &stored.events);
        let [a, b] = side_seats(t.spec.format);
        let host: Vec<&str> = config
            .seats
            .iter()
            .map(|s| s.id.as_str())
            .filter(|s| *s != a && *s != b)
            .collect();
        self.record(TournamentEvent::DebateEnded {
            match_id: t.matches[i].id.clone(),
            outcome,
            sides: [
                spend(&spent, &stored.events, &[a]),
                spend(&spent, &stored.events, &[b]),
            ],
            host: spend(&spent, &stored.events, &host),
            quotes: quotes_of(&stored.events, [a, b]),
        })
        .await?;
        match (outcome, held) {
            (Outcome::Completed, _) => Ok(()),
            (_, Some(Hold::Cap)) => Err(self.cap_reached(None)),
            (_, Some(Hold::Failed(why))) => Err(TournamentError::DebateHeld {
                topic: config.topic.clone(),
                why,
            }),
            _ if self.stopped() => Ok(()),
            _ => Err(TournamentError::DebateUnfinished {
                topic: config.topic.clone(),
            }),
        }
    }

    /// One model judge's verdict on a finished debate, with one repair when its answer
    /// cannot be read; an answer still unreadable is recorded as such.
    async fn judge(&self, i: usize, j: usize) -> Result<(), TournamentError> {
        let t = self.state();
        let m = &t.matches[i];
        let Participant::Model {
            connection,
            model,
            price,
            ..
        } = t.spec.judges[j].clone()
        else {
            return Ok(());
        };
        let debate = t.progress[i]
            .debate_id
            .clone()
            .ok_or(TournamentError::VerdictBeforeDebate)?;
        let stored = self
            .session
            .load(&debate)
            .await?
            .ok_or(TournamentError::DebateNotStored)?;
        let config = crate::engine::event::config_of(&stored.events)
            .ok_or(TournamentError::DebateWithoutStart)?;
        let shown = shown_first(t.spec.seed, &m.id, j);
        let mut req = ChatRequest {
            connection,
            model,
            seat: format!("judge-{}", j + 1),
            purpose: Purpose::Evaluation,
            call: format!("verdict/{}/{}", m.id, j + 1),
            messages: vec![ChatMessage::user(verdict::prompt(
                &t.spec,
                config,
                &stored.events,
                shown,
            ))],
            temperature: Some(0.0),
            max_tokens: VERDICT_TOKENS,
            json: true,
            schema: Some(verdict::schema()),
            search_web: false,
        };
        let mut spent = Spend::default();
        let answer = |r: &crate::engine::model::ChatResponse, spent: &mut Spend| {
            spent.input_tokens += r.usage.input_tokens as u64;
            spent.output_tokens += r.usage.output_tokens as u64;
            match price {
                Some(p) => spent.usd += p.cost(&r.usage),
                None => spent.unpriced = true,
            }
            verdict::read(&r.text, shown)
        };
        let ask = |req: ChatRequest| self.session.ask(req, self.stop.borrow().clone());
        let judge = entrant_name(&t.spec.judges[j]);
        let failed = |e: crate::engine::model::ModelError| match e.kind {
            ErrorKind::Cancelled => TournamentError::StoppedByYou,
            _ => TournamentError::JudgeUnreachable {
                judge: judge.clone(),
                why: e.to_string(),
            },
        };
        // Its worst case (all it sends and a whole answer, as its provider bills them, twice
        // with the repair) is held from the cap before it is asked.
        if let (Some(left), Some(p)) = (self.unreserved(&t), price) {
            let first = self.session.ceiling(&req);
            let worst = crate::engine::tournament::cost::verdict_worst_case(&p, first);
            if worst > left {
                return Err(self.cap_reached(Some(worst)));
            }
            self.reserve(Work::Judge(i, j), worst, worst);
        }
        let first = ask(req.clone()).await.map_err(failed)?;
        let (decision, reason) = match answer(&first, &mut spent) {
            Ok(v) => (Some(v.0), v.1),
            Err(problem) => {
                req.messages.push(ChatMessage {
                    role: Role::Assistant,
                    content: first.text.clone(),
                });
                req.messages.push(ChatMessage::user(render(
                    JSON_REPAIR,
                    &[(
                        "problem",
                        &clip(&problem.to_string(), verdict::PROBLEM_CHARS),
                    )],
                )));
                req.call.push_str("/repair");
                let second = ask(req).await.map_err(failed)?;
                match answer(&second, &mut spent) {
                    Ok(v) => (Some(v.0), v.1),
                    Err(problem) => (None, format!("Unreadable verdict: {problem}")),
                }
            }
        };
        self.record(TournamentEvent::Verdict {
            match_id: m.id.clone(),
            judge: j,
            shown_first: shown,
            decision,
            reason,
            spend: spent,
        })
        .await
    }
}

/// The store's failure to read a tournament's log.
fn stored(why: crate::store::StoreError) -> TournamentError {
    super::SessionError::Store(why).into()
}

/// Each side's quotes in a finished debate, as its screen counts them.
fn quotes_of(events: &[crate::engine::event::Event], sides: [&str; 2]) -> [Quotes; 2] {
    let counts = crate::engine::log_view::LogView::of(events).quote_counts();
    sides.map(|seat| {
        counts
            .iter()
            .find(|c| c.seat == seat)
            .map_or_else(Quotes::default, |c| Quotes {
                made: c.made,
                verified: c.verified,
            })
    })
}
