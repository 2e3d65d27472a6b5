//! The classic format's call paths, printed and read in one place. Stored logs keep the
//! printed words, so `Display` writes exactly what the format has always written.

use std::fmt;

/// One of the classic format's calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassicPath {
    /// An opening, the moderator's remarks first: `opening/{seat}`.
    Opening { seat: String },
    /// The side that opens a round's exchange: `round/{r}/argument/{seat}`.
    Argument { round: u32, seat: String },
    /// The other side's answer to it: `round/{r}/rebuttal/{seat}`.
    Rebuttal { round: u32, seat: String },
    /// The moderator's summary of a round: `round/{r}/summary`.
    RoundSummary { round: u32 },
    /// The moderator's explanation of a round, in an educational debate:
    /// `round/{r}/explanation`.
    RoundExplanation { round: u32 },
    /// The judge's scores of one side for one round, in a competitive debate:
    /// `round/{r}/score/{seat}`.
    RoundScore { round: u32, seat: String },
    /// A side's closing statement: `closing/{seat}`.
    Closing { seat: String },
    /// The judge's scores of one side: `score/{seat}`.
    Score { seat: String },
    /// The fact checker's reading of a spoken turn: `{turn}/fact-check`.
    FactCheck(Box<ClassicPath>),
    /// The moderator's ruling on a turn whose wording hinted at a broken rule:
    /// `{turn}/ruling`.
    Ruling(Box<ClassicPath>),
    /// The moderator's closing summary: `summary`.
    Summary,
}

impl fmt::Display for ClassicPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassicPath::Opening { seat } => write!(f, "opening/{seat}"),
            ClassicPath::Argument { round, seat } => write!(f, "round/{round}/argument/{seat}"),
            ClassicPath::Rebuttal { round, seat } => write!(f, "round/{round}/rebuttal/{seat}"),
            ClassicPath::RoundSummary { round } => write!(f, "round/{round}/summary"),
            ClassicPath::RoundExplanation { round } => write!(f, "round/{round}/explanation"),
            ClassicPath::RoundScore { round, seat } => write!(f, "round/{round}/score/{seat}"),
            ClassicPath::Closing { seat } => write!(f, "closing/{seat}"),
            ClassicPath::Score { seat } => write!(f, "score/{seat}"),
            ClassicPath::FactCheck(turn) => write!(f, "{turn}/fact-check"),
            ClassicPath::Ruling(turn) => write!(f, "{turn}/ruling"),
            ClassicPath::Summary => f.write_str("summary"),
        }
    }
}

impl ClassicPath {
    /// Reads a path this format printed; `None` for anything else.
    pub fn parse(path: &str) -> Option<ClassicPath> {
        if let Some(turn) = path.strip_suffix("/fact-check") {
            return Some(ClassicPath::FactCheck(Box::new(Self::parse(turn)?)));
        }
        if let Some(turn) = path.strip_suffix("/ruling") {
            return Some(ClassicPath::Ruling(Box::new(Self::parse(turn)?)));
        }
        let parts: Vec<&str> = path.split('/').collect();
        let seat = |s: &str| (!s.is_empty()).then(|| s.to_string());
        let n = |s: &str| s.parse::<u32>().ok();
        Some(match parts.as_slice() {
            ["summary"] => ClassicPath::Summary,
            ["opening", s] => ClassicPath::Opening { seat: seat(s)? },
            ["closing", s] => ClassicPath::Closing { seat: seat(s)? },
            ["score", s] => ClassicPath::Score { seat: seat(s)? },
            ["round", r, "summary"] => ClassicPath::RoundSummary { round: n(r)? },
            ["round", r, "explanation"] => ClassicPath::RoundExplanation { round: n(r)? },
            ["round", r, "score", s] => ClassicPath::RoundScore {
                round: n(r)?,
                seat: seat(s)?,
            },
            ["round", r, "argument", s] => ClassicPath::Argument {
                round: n(r)?,
                seat: seat(s)?,
            },
            ["round", r, "rebuttal", s] => ClassicPath::Rebuttal {
                round: n(r)?,
                seat: seat(s)?,
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::ClassicPath as P;

    #[test]
    fn every_path_prints_the_stored_words_and_reads_back() {
        let seat = || "position-b".to_string();
        let cases = [
            (
                P::Opening {
                    seat: "moderator".into(),
                },
                "opening/moderator",
            ),
            (
                P::Argument {
                    round: 2,
                    seat: seat(),
                },
                "round/2/argument/position-b",
            ),
            (
                P::Rebuttal {
                    round: 3,
                    seat: seat(),
                },
                "round/3/rebuttal/position-b",
            ),
            (P::RoundSummary { round: 1 }, "round/1/summary"),
            (P::RoundExplanation { round: 2 }, "round/2/explanation"),
            (
                P::RoundScore {
                    round: 4,
                    seat: seat(),
                },
                "round/4/score/position-b",
            ),
            (
                P::Ruling(Box::new(P::Opening { seat: seat() })),
                "opening/position-b/ruling",
            ),
            (P::Closing { seat: seat() }, "closing/position-b"),
            (P::Score { seat: seat() }, "score/position-b"),
            (
                P::FactCheck(Box::new(P::Rebuttal {
                    round: 3,
                    seat: seat(),
                })),
                "round/3/rebuttal/position-b/fact-check",
            ),
            (P::Summary, "summary"),
        ];
        for (path, printed) in cases {
            assert_eq!(path.to_string(), printed);
            assert_eq!(P::parse(printed), Some(path));
        }
        for other in [
            "",
            "opening/",
            "round/x/summary",
            "round/1/verdict/a",
            "aspects",
            "fact-check",
            "ruling",
            "round/1/score/",
        ] {
            assert_eq!(P::parse(other), None, "{other}");
        }
    }
}
