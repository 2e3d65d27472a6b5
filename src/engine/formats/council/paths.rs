//! The council's call paths, printed and read in one place (see `crux::paths`).

use std::fmt;

/// One of the council's calls. `round` is 1 for the first answers, 2 for the revisions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CouncilPath {
    /// A member's first answer: `answer/{seat}`.
    Answer { seat: String },
    /// A member's revised answer in the second round: `revision/{seat}`.
    Revision { seat: String },
    /// A member's ballot on the answers of `round`: `review/{round}/{seat}`.
    Review { round: u32, seat: String },
    /// The analyst's reading of which first answers agree: `vote`.
    Vote,
    /// The chair's final answer: `chair/final`.
    Final,
    /// The chair's minority report: `chair/minority`.
    Minority,
    /// The analyst's check of the final answer against the vote: `verdict`.
    Verdict,
}

impl CouncilPath {
    /// Reads a path this format printed; a repair (`…/repair`) reads as the call it
    /// repairs.
    pub fn parse(path: &str) -> Option<CouncilPath> {
        let path = path.strip_suffix("/repair").unwrap_or(path);
        let parts: Vec<&str> = path.split('/').collect();
        let seat = |s: &str| (!s.is_empty()).then(|| s.to_string());
        Some(match parts.as_slice() {
            ["answer", s] => CouncilPath::Answer { seat: seat(s)? },
            ["revision", s] => CouncilPath::Revision { seat: seat(s)? },
            ["review", r, s] => CouncilPath::Review {
                round: r.parse().ok()?,
                seat: seat(s)?,
            },
            ["vote"] => CouncilPath::Vote,
            ["chair", "final"] => CouncilPath::Final,
            ["chair", "minority"] => CouncilPath::Minority,
            ["verdict"] => CouncilPath::Verdict,
            _ => return None,
        })
    }
}

impl fmt::Display for CouncilPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CouncilPath::Answer { seat } => write!(f, "answer/{seat}"),
            CouncilPath::Revision { seat } => write!(f, "revision/{seat}"),
            CouncilPath::Review { round, seat } => write!(f, "review/{round}/{seat}"),
            CouncilPath::Vote => f.write_str("vote"),
            CouncilPath::Final => f.write_str("chair/final"),
            CouncilPath::Minority => f.write_str("chair/minority"),
            CouncilPath::Verdict => f.write_str("verdict"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_reads_back_as_printed() {
        let s = || "member-2".to_string();
        for p in [
            CouncilPath::Answer { seat: s() },
            CouncilPath::Revision { seat: s() },
            CouncilPath::Review {
                round: 2,
                seat: s(),
            },
            CouncilPath::Vote,
            CouncilPath::Final,
            CouncilPath::Minority,
            CouncilPath::Verdict,
        ] {
            assert_eq!(CouncilPath::parse(&p.to_string()), Some(p.clone()));
            assert_eq!(CouncilPath::parse(&format!("{p}/repair")), Some(p));
        }
        assert_eq!(CouncilPath::parse("review/x/member-1"), None);
        assert_eq!(CouncilPath::parse("answer/"), None);
    }
}
