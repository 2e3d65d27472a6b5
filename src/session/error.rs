//! What the session refuses or fails at, as data: the screens show the message each
//! derives (`Display`) and may tell the cases apart (`matches!`), but never read a
//! message back.

use std::fmt;

use super::connections::ConnectionProblem;
use crate::engine::cost::dollars;

/// Why a debate, a connection check or a stored log could not do what was asked.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionError {
    Connection(ConnectionProblem),
    /// "Test connection" with no connection chosen.
    NoConnectionChosen,
    /// A connection test's call failed (its message never holds the key).
    Call(String),
    NoAnswerWithin {
        seconds: u64,
    },
    /// The debate's configuration fails its format's checks, in the format's words.
    Config(String),
    /// A seat runs on a connection this page does not have.
    SeatWithoutConnection {
        seat: String,
    },
    AlreadyRunning,
    NotRunning,
    NotStored,
    /// One debate, one tab: another tab of this browser holds its lock, so no call is made
    /// (and paid for) twice.
    RunningElsewhere,
    /// A stored log that cannot be replayed (the engine's words).
    Unreplayable(String),
    /// A question, evidence or a person's turn over its limit.
    TooLong {
        what: &'static str,
        chars: usize,
        max: usize,
    },
    /// A forecast is resolved only once it is stored and not running.
    ForecastBusy,
    ForecastNotStored,
    /// A resolution the forecast's ledger refuses (its words).
    Resolution(String),
    /// The store (IndexedDB) failed.
    Store(crate::store::StoreError),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SessionError as E;
        match self {
            E::Connection(p) => p.fmt(f),
            E::NoConnectionChosen => f.write_str("Choose a connection first."),
            E::Call(message) | E::Config(message) | E::Unreplayable(message) => {
                f.write_str(message)
            }
            E::Resolution(message) => f.write_str(message),
            E::Store(e) => e.fmt(f),
            E::NoAnswerWithin { seconds } => write!(f, "No answer within {seconds} seconds."),
            E::SeatWithoutConnection { seat } => {
                write!(f, "{seat} uses a connection that is not set up.")
            }
            E::AlreadyRunning => f.write_str("This debate is already running."),
            E::NotRunning => f.write_str("This debate is not running."),
            E::NotStored => f.write_str("This debate is no longer stored."),
            E::RunningElsewhere => f.write_str("This debate is running in another tab of this browser. Follow it there, or close that tab and press Resume here."),
            E::TooLong { what, chars, max } => write!(
                f,
                "This {what} is {chars} characters long; the limit is {max}. Shorten it and send it again."
            ),
            E::ForecastBusy => f.write_str("This forecast is running or not saved in this browser; it can be resolved once it is stored."),
            E::ForecastNotStored => f.write_str("This forecast is no longer stored."),
        }
    }
}

impl From<ConnectionProblem> for SessionError {
    fn from(p: ConnectionProblem) -> Self {
        SessionError::Connection(p)
    }
}

/// Why a tournament run stopped or a verdict was refused. The reason a run stopped is
/// recorded in its log as this message.
#[derive(Clone, Debug, PartialEq)]
pub enum TournamentError {
    /// One of its debates could not be started, resumed or read back.
    Debate(SessionError),
    AlreadyRunning,
    /// One tournament, one tab.
    RunningElsewhere,
    /// Its log could not be read into a tournament (the engine's words).
    Log(String),
    NotSaved(crate::store::StoreError),
    NoSuchDebate,
    NotYourVerdict,
    NotFinished,
    CapNotDollars,
    /// A debate of it has no `DebateStarted` event.
    DebateWithoutStart,
    DebateNotStored,
    VerdictBeforeDebate,
    /// The cap is reached; `next` is the worst case of the verdict that did not fit.
    CapReached {
        cap: f64,
        spent: f64,
        next: Option<f64>,
    },
    /// A debate is held for the user (a failed call) and the run with it.
    DebateHeld {
        topic: String,
        why: String,
    },
    DebateUnfinished {
        topic: String,
    },
    JudgeUnreachable {
        judge: String,
        why: String,
    },
    StoppedByYou,
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TournamentError as E;
        match self {
            E::Debate(e) => e.fmt(f),
            E::AlreadyRunning => f.write_str("This tournament is already running."),
            E::RunningElsewhere => f.write_str("This tournament is running in another tab of this browser. Follow it there, or close that tab and press Run here."),
            E::Log(why) => f.write_str(why),
            E::NotSaved(why) => write!(f, "The tournament could not be saved: {why}."),
            E::NoSuchDebate => f.write_str("There is no such debate in this tournament."),
            E::NotYourVerdict => f.write_str("This verdict is not yours to give."),
            E::NotFinished => f.write_str("This debate has not finished yet."),
            E::CapNotDollars => f.write_str("The spending cap is not an amount of dollars."),
            E::DebateWithoutStart => f.write_str("A tournament debate has no start."),
            E::DebateNotStored => f.write_str("A tournament debate is no longer stored."),
            E::VerdictBeforeDebate => f.write_str("A verdict was asked before its debate."),
            E::CapReached { cap, spent, next: Some(next) } => write!(
                f,
                "The next verdict could cost up to {}, more than the tournament's spending cap of {} leaves ({} spent). Raise it to go on.",
                dollars(*next),
                dollars(*cap),
                dollars(*spent)
            ),
            E::CapReached { cap, spent, next: None } => write!(
                f,
                "The tournament's spending cap of {} is reached ({} spent, and the next call would pass it). Raise it to go on.",
                dollars(*cap),
                dollars(*spent)
            ),
            E::DebateHeld { topic, why } => write!(
                f,
                "The debate on \"{topic}\" is held: {why} Resume the tournament once it is fixed."
            ),
            E::DebateUnfinished { topic } => write!(
                f,
                "The debate on \"{topic}\" did not finish: open it in History to see why, then resume the tournament."
            ),
            E::JudgeUnreachable { judge, why } => {
                write!(f, "The judge {judge} could not be asked: {why}")
            }
            E::StoppedByYou => f.write_str("Stopped by you."),
        }
    }
}

impl From<SessionError> for TournamentError {
    fn from(e: SessionError) -> Self {
        TournamentError::Debate(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_carries_its_data() {
        let long = SessionError::TooLong {
            what: "question",
            chars: 2_001,
            max: 2_000,
        };
        assert_eq!(
            long.to_string(),
            "This question is 2001 characters long; the limit is 2000. Shorten it and send it again."
        );
        let cap = TournamentError::CapReached {
            cap: 1.0,
            spent: 0.75,
            next: Some(0.5),
        };
        assert!(cap.to_string().contains("up to $0.5000"), "{cap}");
        assert!(
            cap.to_string()
                .contains("cap of $1.00 leaves ($0.7500 spent)"),
            "{cap}"
        );
        let held = TournamentError::DebateHeld {
            topic: "Ban cars?".into(),
            why: "The key was refused.".into(),
        };
        assert_eq!(
            held.to_string(),
            "The debate on \"Ban cars?\" is held: The key was refused. Resume the tournament once it is fixed."
        );
        let inner = TournamentError::from(SessionError::NotStored);
        assert_eq!(inner.to_string(), SessionError::NotStored.to_string());
    }
}
