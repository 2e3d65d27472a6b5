//! Runs a tournament through the session: each match's debate is an ordinary debate
//! (stored, replayable, exportable), started or resumed here, and each model judge's verdict
//! is one call once the debate has finished. Everything that happens is a
//! `TournamentEvent` handed to `save`, so a tournament stopped by a fault, its spending cap
//! or a closed tab is built again from its log and goes on where it was.

use std::cell::RefCell;
use std::rc::Rc;

use futures::stream::{FuturesUnordered, StreamExt};

use super::runner::{Session, RUNNING_ELSEWHERE_TOURNAMENT as RUNNING_ELSEWHERE};
use crate::engine::cancel::CancelToken;
use crate::engine::config::Participant;
use crate::engine::cost::Ledger;
use crate::engine::event::{Event, EventKind, Input, Outcome, Purpose};
use crate::engine::model::{ChatMessage, ChatRequest, ErrorKind, Role};
use crate::engine::prompt::{render, JSON_REPAIR};
use crate::engine::tournament::progress::{Spend, Tournament, TournamentEvent, Work};
use crate::engine::tournament::schedule::shown_first;
use crate::engine::tournament::spec::{entrant_name, side_seats};
use crate::engine::tournament::verdict::{self, Decision, VERDICT_TOKENS};

/// Most debates a tournament runs at once, whatever its connections allow.
pub const MAX_PARALLEL: usize = 8;

/// Where a run hands its whole log after each event.
type Save = Box<dyn Fn(&[TournamentEvent])>;

pub struct TournamentRun {
    session: Rc<Session>,
    log: RefCell<Vec<TournamentEvent>>,
    /// The log folded, kept up to date event by event rather than folded again per step.
    state: RefCell<Tournament>,
    /// Called with the whole log after each event: the app stores it.
    save: Save,
    stop: CancelToken,
    /// The debates this run has in hand, to stop them with the tournament.
    debates: RefCell<Vec<String>>,
}

/// The JSON Schema of a verdict, so a connection that takes schemas answers in shape.
fn verdict_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "winner": {"type": "string", "enum": ["A", "B", "tie"]},
            "reason": {"type": "string"}
        },
        "required": ["winner", "reason"]
    })
}

/// What one party spent in a debate: the tokens and cost of its seats' finished turns.
fn spend(ledger: &Ledger, events: &[Event], seats: &[&str]) -> Spend {
    let mut s = Spend::default();
    for e in events {
        if let EventKind::TurnFinished { seat, usage, .. } = &e.kind {
            if seats.contains(&seat.as_str()) {
                s.input_tokens += usage.input_tokens as u64;
                s.output_tokens += usage.output_tokens as u64;
            }
        }
    }
    for (seat, usd) in &ledger.seats {
        if seats.contains(&seat.as_str()) {
            s.usd += usd;
        }
    }
    s.unpriced = seats.iter().any(|x| ledger.unpriced.iter().any(|u| u == x));
    s
}

impl TournamentRun {
    /// A run of the tournament whose log is `log` (its first event `Started`); refused
    /// with the reason when the log does not fold.
    pub fn new(
        session: Rc<Session>,
        log: Vec<TournamentEvent>,
        save: impl Fn(&[TournamentEvent]) + 'static,
    ) -> Result<Rc<Self>, String> {
        let state = Tournament::from_events(&log)?;
        Ok(Rc::new(TournamentRun {
            session,
            log: RefCell::new(log),
            state: RefCell::new(state),
            save: Box::new(save),
            stop: CancelToken::new(),
            debates: RefCell::new(Vec::new()),
        }))
    }

    pub fn state(&self) -> Tournament {
        self.state.borrow().clone()
    }

    pub fn log(&self) -> Vec<TournamentEvent> {
        self.log.borrow().clone()
    }

    fn record(&self, e: TournamentEvent) {
        // Only the run makes these events, about the matches it was given.
        self.state
            .borrow_mut()
            .apply(&e)
            .expect("a run records only events its tournament has");
        self.log.borrow_mut().push(e);
        (self.save)(&self.log.borrow());
    }

    /// Stops the debates in hand and every call; the log keeps what was done.
    pub fn stop(&self) {
        self.stop.cancel();
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

    /// Runs what is left until the tournament is done (a person's verdicts aside), it is
    /// stopped, its cap is reached or a call fails in a way retrying cannot fix; the last
    /// three end with a `Stopped` event that says why. Refused, with nothing recorded,
    /// while another tab of this browser runs the same tournament.
    pub async fn run(self: Rc<Self>, id: &str) -> Result<(), String> {
        let Some(_lock) = self.session.lock(&format!("tournament-{id}")).await else {
            return Err(RUNNING_ELSEWHERE.into());
        };
        let mut in_hand: Vec<Work> = Vec::new();
        let mut running = FuturesUnordered::new();
        let mut failure: Option<String> = None;
        loop {
            let t = self.state();
            let capped = t.spec.spending_cap.is_some_and(|cap| t.spent() >= cap);
            let left = !t.work(&[]).is_empty();
            if capped
                && left
                && running.is_empty()
                && failure.is_none()
                && !self.stop.is_cancelled()
            {
                failure = Some(format!(
                    "The tournament's spending cap of {} is reached; it stops here with what is done.",
                    crate::engine::cost::dollars(t.spec.spending_cap.unwrap_or_default())
                ));
            }
            let go_on = !capped && failure.is_none() && !self.stop.is_cancelled();
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
        if let Some(reason) = failure {
            self.record(TournamentEvent::Stopped { reason });
        } else if self.stop.is_cancelled() {
            self.record(TournamentEvent::Stopped {
                reason: "Stopped by you.".into(),
            });
        }
        Ok(())
    }

    /// A person's verdict on match `i` as judge `j`, who was shown the sides in the
    /// order `blind` gives them; refused when it is not theirs to give.
    pub fn decide(
        &self,
        i: usize,
        j: usize,
        decision: Decision,
        reason: String,
    ) -> Result<(), String> {
        let t = self.state();
        let m = t
            .matches
            .get(i)
            .ok_or("There is no such debate in this tournament.")?;
        if t.spec.judges.get(j) != Some(&Participant::Human) || !m.judges.contains(&j) {
            return Err("This verdict is not yours to give.".into());
        }
        if !t.progress[i].completed() {
            return Err("This debate has not finished yet.".into());
        }
        self.record(TournamentEvent::Verdict {
            match_id: m.id.clone(),
            judge: j,
            shown_first: shown_first(t.spec.seed, &m.id, j),
            decision: Some(decision),
            reason,
            spend: Spend::default(),
        });
        Ok(())
    }

    /// Sets the tournament's spending cap anew (`None`: none), between runs.
    pub fn set_cap(&self, usd: Option<f64>) -> Result<(), String> {
        if usd.is_some_and(|c| !(c.is_finite() && c >= 0.0)) {
            return Err("The spending cap is not an amount of dollars.".into());
        }
        self.record(TournamentEvent::CapChanged { usd });
        Ok(())
    }

    async fn play(self: Rc<Self>, w: Work) -> (Work, Result<(), String>) {
        let result = match &w {
            Work::Start(i) => self.start(*i).await,
            Work::Resume(i, id) => self.resume(*i, id).await,
            Work::Judge(i, j) => self.judge(*i, *j).await,
        };
        (w, result)
    }

    async fn start(&self, i: usize) -> Result<(), String> {
        let t = self.state();
        let m = &t.matches[i];
        let mut config = t.spec.debate_config(m.motion, m.first, m.second);
        // Each debate at once gets its share of what is left of the tournament's cap, so
        // together they cannot pass it.
        config.spending_cap = t.cap_share(self.parallel(&t));
        let id = self.session.new_id();
        // Started first: a start refused (a connection not set up) records nothing.
        self.session.start_as(id.clone(), config)?;
        self.record(TournamentEvent::DebateStarted {
            match_id: m.id.clone(),
            debate_id: id.clone(),
        });
        self.debates.borrow_mut().push(id.clone());
        self.finish(i, &id).await
    }

    async fn resume(&self, i: usize, id: &str) -> Result<(), String> {
        // A tab closed before the debate's first event was stored (or the debate deleted
        // since): nothing of it ran to keep, so the match starts again.
        if self.session.load(id).await?.is_none() {
            return self.start(i).await;
        }
        self.debates.borrow_mut().push(id.to_string());
        self.session.resume(id).await?;
        // A debate stopped at its share of the cap goes on with a new share of what is left
        // (or none, when the tournament's cap was taken away).
        let t = self.state();
        let p = &t.progress[i];
        let spent = p.sides[0].usd + p.sides[1].usd + p.host.usd;
        let usd = t.cap_share(self.parallel(&t)).map(|share| spent + share);
        self.session.input(id, Input::SpendingCap { usd })?;
        self.finish(i, id).await
    }

    /// Waits for the debate's end and records how it ended and what each party spent.
    async fn finish(&self, i: usize, id: &str) -> Result<(), String> {
        // A debate held for the user (a failed call, its cap) is stopped, and the
        // tournament with it, saying why; the next run resumes it.
        let held = self.session.settled(id).await;
        if held.is_some() {
            self.session.stop(id);
            self.session.ended(id).await;
        }
        self.debates.borrow_mut().retain(|d| d != id);
        let stored = self
            .session
            .load(id)
            .await?
            .ok_or("A tournament debate is no longer stored.")?;
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
            .ok_or("A tournament debate has no start.")?;
        let ledger = Ledger::from_events(config, &stored.events);
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
                spend(&ledger, &stored.events, &[a]),
                spend(&ledger, &stored.events, &[b]),
            ],
            host: spend(&ledger, &stored.events, &host),
        });
        match (outcome, held) {
            (Outcome::Completed, _) => Ok(()),
            (_, Some(why)) if crate::engine::context::is_cap_pause(&why) => Err(format!(
                "The tournament's spending cap is reached ({} spent). Raise it to go on.",
                crate::engine::cost::dollars(self.state().spent())
            )),
            (_, Some(why)) => Err(format!(
                "The debate on \"{}\" is held: {why} Resume the tournament once it is fixed.",
                config.topic
            )),
            _ if self.stop.is_cancelled() => Ok(()),
            _ => Err(format!(
                "The debate on \"{}\" did not finish: open it in History to see why, then resume the tournament.",
                config.topic
            )),
        }
    }

    /// One model judge's verdict on a finished debate, with one repair when its answer
    /// cannot be read; an answer still unreadable is recorded as such.
    async fn judge(&self, i: usize, j: usize) -> Result<(), String> {
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
            .ok_or("A verdict was asked before its debate.")?;
        let stored = self
            .session
            .load(&debate)
            .await?
            .ok_or("A tournament debate is no longer stored.")?;
        let config = crate::engine::event::config_of(&stored.events)
            .ok_or("A tournament debate has no start.")?;
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
            schema: Some(verdict_schema()),
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
        let ask = |req: ChatRequest| self.session.ask(req, self.stop.clone());
        let judge = entrant_name(&t.spec.judges[j]);
        let failed = |e: crate::engine::model::ModelError| match e.kind {
            ErrorKind::Cancelled => "Stopped by you.".to_string(),
            _ => format!("The judge {judge} could not be asked: {e}"),
        };
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
                    &[("problem", &problem)],
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
        });
        Ok(())
    }
}
