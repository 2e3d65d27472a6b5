//! Forecast's call paths and the keys of the findings made beside them, printed in one
//! place for the engine, the panel and the report. Stored logs keep the printed words.

use std::fmt;

/// One of forecast's calls. A regenerated argument (`again`) and its score have paths of
/// their own, so the first attempt and its score stay in the log beside them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForecastPath {
    /// A role's argument: `round/{r}/{seat}`, or `regenerate/{r}/{seat}`.
    Argument {
        round: u32,
        seat: String,
        again: bool,
    },
    /// The analyst's score of it: `score/{r}/{seat}`, or `rescore/{r}/{seat}`.
    Score {
        round: u32,
        seat: String,
        again: bool,
    },
    /// The judge's synthesis after the last round: `synthesis`.
    Synthesis,
}

impl ForecastPath {
    /// The argument and the score of `seat` in `round`, the regenerated ones first: what
    /// the latest word of a role is looked up by.
    pub fn latest_first(round: u32, seat: &str) -> [(ForecastPath, ForecastPath); 2] {
        let pair = |again| {
            let seat = seat.to_string();
            (
                ForecastPath::Argument {
                    round,
                    seat: seat.clone(),
                    again,
                },
                ForecastPath::Score { round, seat, again },
            )
        };
        [pair(true), pair(false)]
    }

    /// The key of the finding an argument call records: `{path}/argument`.
    pub fn argument_key(&self) -> String {
        format!("{self}/argument")
    }
}

/// The key of a round's summary finding: `round/{r}/summary`.
pub fn round_summary_key(round: u32) -> String {
    format!("round/{round}/summary")
}

impl fmt::Display for ForecastPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForecastPath::Argument { round, seat, again } => {
                let head = if *again { "regenerate" } else { "round" };
                write!(f, "{head}/{round}/{seat}")
            }
            ForecastPath::Score { round, seat, again } => {
                let head = if *again { "rescore" } else { "score" };
                write!(f, "{head}/{round}/{seat}")
            }
            ForecastPath::Synthesis => f.write_str("synthesis"),
        }
    }
}

impl From<ForecastPath> for String {
    fn from(p: ForecastPath) -> String {
        p.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_keys_print_the_stored_words() {
        let [(arg2, score2), (arg, score)] = ForecastPath::latest_first(2, "optimist");
        assert_eq!(arg.to_string(), "round/2/optimist");
        assert_eq!(arg.argument_key(), "round/2/optimist/argument");
        assert_eq!(score.to_string(), "score/2/optimist");
        assert_eq!(arg2.to_string(), "regenerate/2/optimist");
        assert_eq!(arg2.argument_key(), "regenerate/2/optimist/argument");
        assert_eq!(score2.to_string(), "rescore/2/optimist");
        assert_eq!(ForecastPath::Synthesis.to_string(), "synthesis");
        assert_eq!(round_summary_key(3), "round/3/summary");
    }
}
