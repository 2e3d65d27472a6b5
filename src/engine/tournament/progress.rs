//! A tournament's own event log and what it implies: which debates ran, which verdicts are
//! in, what is left. The log is the tournament, as a debate's is the debate: a tournament
//! stopped by a fault, its cap or a closed tab is folded back from it and goes on with the
//! work left — a debate already started is resumed, never started again, and a judge that
//! has given its verdict is never asked again.

use serde::{Deserialize, Serialize};

use super::schedule::{schedule, Match};
use super::spec::TournamentSpec;
use super::verdict::Decision;
use crate::engine::event::Outcome;

/// Tokens and dollars of one party's calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spend {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub usd: f64,
    /// Some calls had no price: `usd` leaves them out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unpriced: bool,
}

impl Spend {
    pub fn add(&mut self, other: &Spend) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.usd += other.usd;
        self.unpriced |= other.unpriced;
    }
}

/// One side's quotes in a debate: how many it made and how many were verified.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quotes {
    pub made: u32,
    pub verified: u32,
}

impl Quotes {
    pub fn add(&mut self, other: &Quotes) {
        self.made += other.made;
        self.verified += other.verified;
    }

    pub fn not_found(&self) -> u32 {
        // Saturating: a tampered log may claim more verified than made.
        self.made.saturating_sub(self.verified)
    }
}

// Externally tagged, as a debate's events are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TournamentEvent {
    Started {
        spec: TournamentSpec,
    },
    /// A match's debate was created; `debate_id` is an ordinary debate in History.
    DebateStarted {
        match_id: String,
        debate_id: String,
    },
    /// The debate ended. A stopped or failed one is resumed by the next run.
    DebateEnded {
        match_id: String,
        outcome: Outcome,
        /// What each side's contestant spent (side 0 first), and the host's seats.
        sides: [Spend; 2],
        host: Spend,
        /// Each side's quotes of the sources (none in a debate without sources, and in
        /// logs written before sources).
        #[serde(default, skip_serializing_if = "no_quotes")]
        quotes: [Quotes; 2],
    },
    /// One judge's verdict; `decision` is `None` when its answer could not be read even
    /// after a repair (the vote is left out, and the reason says why).
    Verdict {
        match_id: String,
        judge: usize,
        /// The side the judge was shown as A.
        shown_first: usize,
        decision: Option<Decision>,
        reason: String,
        spend: Spend,
    },
    /// The run stopped (the user, the spending cap, a fault); the next run goes on.
    Stopped {
        reason: String,
    },
    /// The user set the tournament's spending cap anew (`None`: no cap).
    CapChanged {
        usd: Option<f64>,
    },
}

fn no_quotes(q: &[Quotes; 2]) -> bool {
    q.iter().all(|q| q.made == 0)
}

/// One judge's vote on one debate.
#[derive(Clone, Debug, PartialEq)]
pub struct Vote {
    pub judge: usize,
    pub shown_first: usize,
    pub decision: Option<Decision>,
    pub reason: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchProgress {
    pub debate_id: Option<String>,
    pub ended: Option<Outcome>,
    pub sides: [Spend; 2],
    pub host: Spend,
    pub quotes: [Quotes; 2],
    pub votes: Vec<Vote>,
}

impl MatchProgress {
    pub fn completed(&self) -> bool {
        self.ended == Some(Outcome::Completed)
    }
}

/// What the runner does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Work {
    /// Create and run match `.0`'s debate.
    Start(usize),
    /// Resume match `.0`'s debate `.1`, stopped before its end.
    Resume(usize, String),
    /// Ask judge `.1` for its verdict on match `.0`.
    Judge(usize, usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    pub spec: TournamentSpec,
    pub matches: Vec<Match>,
    /// One per match, in the order of `matches`.
    pub progress: Vec<MatchProgress>,
    /// Every judge's calls, by judge.
    pub judges: Vec<Spend>,
    pub stopped: Option<String>,
}

impl Tournament {
    /// Folds a tournament's log. The first event must be `Started`; events about matches
    /// the spec does not have are refused, so a corrupt log is said to be one.
    pub fn from_events(events: &[TournamentEvent]) -> Result<Self, String> {
        let Some(TournamentEvent::Started { spec }) = events.first() else {
            return Err("This tournament's log does not start with its set-up.".into());
        };
        spec.validate()?;
        let matches = schedule(spec)?;
        let mut t = Tournament {
            progress: vec![MatchProgress::default(); matches.len()],
            judges: vec![Spend::default(); spec.judges.len()],
            spec: spec.clone(),
            matches,
            stopped: None,
        };
        for e in &events[1..] {
            t.apply(e)?;
        }
        Ok(t)
    }

    fn index(&self, match_id: &str) -> Result<usize, String> {
        self.matches
            .iter()
            .position(|m| m.id == match_id)
            .ok_or_else(|| {
                format!("The log names a debate `{match_id}` this tournament does not have.")
            })
    }

    pub fn apply(&mut self, e: &TournamentEvent) -> Result<(), String> {
        match e {
            TournamentEvent::Started { .. } => return Err("The log starts twice.".into()),
            TournamentEvent::DebateStarted {
                match_id,
                debate_id,
            } => {
                let i = self.index(match_id)?;
                self.progress[i].debate_id = Some(debate_id.clone());
                self.progress[i].ended = None;
                self.stopped = None;
            }
            TournamentEvent::DebateEnded {
                match_id,
                outcome,
                sides,
                host,
                quotes,
            } => {
                let i = self.index(match_id)?;
                let p = &mut self.progress[i];
                p.ended = Some(*outcome);
                // A resumed debate reports its whole spend again: the latest is the total.
                p.sides = *sides;
                p.host = *host;
                p.quotes = *quotes;
            }
            TournamentEvent::Verdict {
                match_id,
                judge,
                shown_first,
                decision,
                reason,
                spend,
            } => {
                let i = self.index(match_id)?;
                if !self.matches[i].judges.contains(judge) {
                    return Err(format!("Judge {} may not judge `{match_id}`.", judge + 1));
                }
                if *shown_first > 1 || matches!(decision, Some(Decision::Side(s)) if *s > 1) {
                    return Err(format!("A verdict on `{match_id}` names a third side."));
                }
                self.judges[*judge].add(spend);
                let votes = &mut self.progress[i].votes;
                votes.retain(|v| v.judge != *judge);
                votes.push(Vote {
                    judge: *judge,
                    shown_first: *shown_first,
                    decision: *decision,
                    reason: reason.clone(),
                });
            }
            TournamentEvent::Stopped { reason } => self.stopped = Some(reason.clone()),
            TournamentEvent::CapChanged { usd } => {
                if usd.is_some_and(|c| !(c.is_finite() && c >= 0.0)) {
                    return Err("The spending cap is not an amount of dollars.".into());
                }
                self.spec.spending_cap = *usd;
            }
        }
        Ok(())
    }

    /// Everything left to do, in schedule order: debates to run or resume first, then the
    /// verdicts of finished debates. `busy` are matches the runner already has in hand.
    pub fn work(&self, busy: &[usize]) -> Vec<Work> {
        let mut out = Vec::new();
        for (i, p) in self.progress.iter().enumerate() {
            if busy.contains(&i) {
                continue;
            }
            match (&p.debate_id, p.ended) {
                (None, _) => out.push(Work::Start(i)),
                (Some(id), None | Some(Outcome::Stopped | Outcome::Failed)) => {
                    out.push(Work::Resume(i, id.clone()))
                }
                (Some(_), Some(Outcome::Completed)) => {
                    for &j in &self.matches[i].judges {
                        if !p.votes.iter().any(|v| v.judge == j) {
                            out.push(Work::Judge(i, j));
                        }
                    }
                }
            }
        }
        out
    }

    pub fn finished(&self) -> bool {
        self.work(&[]).is_empty()
    }

    /// Dollars spent so far, by every party, for the tournament's cap.
    pub fn spent(&self) -> f64 {
        let debates: f64 = self
            .progress
            .iter()
            .map(|p| p.sides[0].usd + p.sides[1].usd + p.host.usd)
            .sum();
        debates + self.judges.iter().map(|j| j.usd).sum::<f64>()
    }

    /// Debates completed and verdicts in, for the progress line.
    pub fn counts(&self) -> (usize, usize) {
        let debates = self.progress.iter().filter(|p| p.completed()).count();
        let verdicts = self.progress.iter().map(|p| p.votes.len()).sum();
        (debates, verdicts)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::spec::tests::spec;
    use super::*;

    pub fn spend(usd: f64) -> Spend {
        Spend {
            input_tokens: 100,
            output_tokens: 50,
            usd,
            unpriced: false,
        }
    }

    pub fn ended(match_id: &str, outcome: Outcome) -> TournamentEvent {
        TournamentEvent::DebateEnded {
            match_id: match_id.into(),
            outcome,
            sides: [spend(0.01), spend(0.02)],
            host: spend(0.005),
            quotes: Default::default(),
        }
    }

    pub fn verdict(match_id: &str, judge: usize, decision: Option<Decision>) -> TournamentEvent {
        TournamentEvent::Verdict {
            match_id: match_id.into(),
            judge,
            shown_first: 0,
            decision,
            reason: String::new(),
            spend: spend(0.001),
        }
    }

    /// Runs a tournament's work to the end as a runner would, recording every event, and
    /// stops after `stop_after` units of work; returns the log and how often each debate
    /// was started and each verdict asked.
    fn run(
        log: &mut Vec<TournamentEvent>,
        stop_after: usize,
        started: &mut Vec<String>,
        asked: &mut Vec<(usize, usize)>,
    ) {
        let mut done = 0;
        loop {
            let t = Tournament::from_events(log).unwrap();
            let Some(w) = t.work(&[]).into_iter().next() else {
                return;
            };
            if done == stop_after {
                log.push(TournamentEvent::Stopped {
                    reason: "tab closed".into(),
                });
                return;
            }
            done += 1;
            match w {
                Work::Start(i) => {
                    let id = t.matches[i].id.clone();
                    started.push(id.clone());
                    log.push(TournamentEvent::DebateStarted {
                        match_id: id.clone(),
                        debate_id: format!("debate-{id}"),
                    });
                    // Every third debate is interrupted once before it ends.
                    let first_run = started.iter().filter(|s| **s == id).count() == 1;
                    let outcome = if i % 3 == 0 && first_run {
                        Outcome::Stopped
                    } else {
                        Outcome::Completed
                    };
                    log.push(ended(&id, outcome));
                }
                Work::Resume(i, debate) => {
                    assert_eq!(debate, format!("debate-{}", t.matches[i].id));
                    log.push(ended(&t.matches[i].id, Outcome::Completed));
                }
                Work::Judge(i, j) => {
                    asked.push((i, j));
                    log.push(verdict(&t.matches[i].id, j, Some(Decision::Side(0))));
                }
            }
        }
    }

    #[test]
    fn a_stopped_tournament_resumes_with_no_debate_run_twice() {
        let s = spec(&["a", "b", "c"], &["m0", "m1"], &["x", "y"]);
        let mut log = vec![TournamentEvent::Started { spec: s }];
        let (mut started, mut asked) = (Vec::new(), Vec::new());
        // Stop (a closed tab) after every 5 units of work, and go on each time.
        for _ in 0..40 {
            run(&mut log, 5, &mut started, &mut asked);
        }
        let t = Tournament::from_events(&log).unwrap();
        assert!(t.finished());
        assert_eq!(started.len(), 12, "each of the 12 debates started once");
        let mut unique = started.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 12);
        assert_eq!(asked.len(), 24, "two judges, each asked once per debate");
        assert_eq!(t.counts(), (12, 24));
        // Interrupted debates were resumed: the same debate id, ended completed.
        assert!(t.progress.iter().all(|p| p.completed()));
        let stops = log
            .iter()
            .filter(|e| matches!(e, TournamentEvent::Stopped { .. }))
            .count();
        assert!(stops >= 5, "{stops}");
        // 12 debates at $0.035 and 24 verdicts at $0.001.
        assert!((t.spent() - (12.0 * 0.035 + 24.0 * 0.001)).abs() < 1e-9);
    }

    #[test]
    fn a_log_that_does_not_fit_its_tournament_is_refused() {
        let s = spec(&["a", "b"], &["m0"], &["x"]);
        let start = TournamentEvent::Started { spec: s };
        assert!(Tournament::from_events(&[]).is_err());
        let e = Tournament::from_events(&[start.clone(), ended("m9-0v1", Outcome::Completed)])
            .unwrap_err();
        assert!(e.contains("m9-0v1"), "{e}");
        let e = Tournament::from_events(&[start.clone(), verdict("m0-0v1", 3, None)]).unwrap_err();
        assert!(e.contains("may not judge"), "{e}");
        let e = Tournament::from_events(&[
            start.clone(),
            verdict("m0-0v1", 0, Some(Decision::Side(2))),
        ])
        .unwrap_err();
        assert!(e.contains("third side"), "{e}");
        let e = Tournament::from_events(&[
            start.clone(),
            TournamentEvent::CapChanged { usd: Some(-1.0) },
        ])
        .unwrap_err();
        assert!(e.contains("not an amount"), "{e}");
        let e = Tournament::from_events(&[start.clone(), start]).unwrap_err();
        assert!(e.contains("twice"), "{e}");
    }

    /// A log where the first match's debate ran to its end.
    fn first_debate_played(s: TournamentSpec) -> Vec<TournamentEvent> {
        vec![
            TournamentEvent::Started { spec: s },
            TournamentEvent::DebateStarted {
                match_id: "m0-0v1".into(),
                debate_id: "d".into(),
            },
            ended("m0-0v1", Outcome::Completed),
        ]
    }

    #[test]
    fn the_cap_can_be_raised_and_taken_away_between_runs() {
        let mut s = spec(&["a", "b"], &["m0"], &["x"]);
        s.spending_cap = Some(1.0);
        let mut log = first_debate_played(s);
        let t = Tournament::from_events(&log).unwrap();
        // $0.035 spent of $1.
        assert!((t.spent() - 0.035).abs() < 1e-12);
        log.push(TournamentEvent::CapChanged { usd: Some(3.0) });
        let t = Tournament::from_events(&log).unwrap();
        assert_eq!(t.spec.spending_cap, Some(3.0));
        log.push(TournamentEvent::CapChanged { usd: None });
        assert_eq!(
            Tournament::from_events(&log).unwrap().spec.spending_cap,
            None
        );
    }

    #[test]
    fn an_unreadable_verdict_is_not_asked_again_and_a_retaken_one_replaces_it() {
        let mut log = first_debate_played(spec(&["a", "b"], &["m0"], &["x"]));
        log.push(verdict("m0-0v1", 0, None));
        let t = Tournament::from_events(&log).unwrap();
        assert_eq!(t.work(&[]), vec![Work::Start(1)]);
        log.push(verdict("m0-0v1", 0, Some(Decision::Tie)));
        let t = Tournament::from_events(&log).unwrap();
        assert_eq!(t.progress[0].votes.len(), 1);
        assert_eq!(t.progress[0].votes[0].decision, Some(Decision::Tie));
        assert_eq!(t.work(&[1]), vec![], "busy matches are left to the runner");
    }
}
