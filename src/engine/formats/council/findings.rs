//! What a council finds out: each reviewer's ballot, the aggregate ranking with each
//! reviewer's biases, the vote of the first answers, a chair that gave nothing usable, and
//! whether deliberating changed the answer. Seats are kept by id (for the screens) and by
//! name (so an export's one-line summary reads without the configuration).

use serde::{Deserialize, Serialize};

use crate::engine::cost::decimal;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CouncilFinding {
    Ballot(Ballot),
    Ranking(Ranking),
    Vote(Vote),
    /// The chair failed or wrote nothing readable: the answers and the ranking stand.
    ChairFailed {
        message: String,
    },
    Worth(Worth),
}

/// One reviewer's ranking of the answers of a round, its own among them unmarked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ballot {
    pub round: u32,
    /// The answers in the order they were shown, as seat ids: labelled A, B, C… in order.
    pub shown: Vec<String>,
    /// Best first.
    pub ranking: Vec<Ranked>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ranked {
    pub seat: String,
    pub name: String,
    /// The label the reviewer saw ("B").
    pub label: String,
    pub reason: String,
}

/// The Borda count over every readable ballot (`tally::borda`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ranking {
    pub round: u32,
    /// Best first.
    pub standings: Vec<Standing>,
    /// How each tie on points was broken, in words.
    pub ties: Vec<String>,
    /// Readable ballots counted.
    pub ballots: u32,
    /// Reviewers (by name) whose ballot could not be read or never came.
    pub unread: Vec<String>,
    pub biases: Vec<ReviewerBias>,
    /// Ballots that ranked best the answer they were shown first (by chance, one in the
    /// number of answers): position bias across reviewers.
    #[serde(default)]
    pub shown_first_best: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub seat: String,
    pub name: String,
    pub points: u32,
    /// Ballots that put it first (among the others' answers).
    pub firsts: u32,
    /// Ballots that put it last.
    pub lasts: u32,
}

/// How one reviewer's ballot leans, from its placements alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewerBias {
    pub reviewer: String,
    pub name: String,
    /// Where it placed its own answer (1 = best) among `of`, when its answer was shown.
    pub own_place: Option<u32>,
    pub of: u32,
    /// Where the other reviewers placed that answer, on average, on the same scale.
    pub others_place: Option<f64>,
    /// The others' mean placement of its answer minus its own, each as a share of the
    /// ballot (0 best, 1 worst): above 0, it ranks itself higher than the others do.
    pub self_preference: Option<f64>,
    /// Spearman's rank correlation between the order answers were shown in and the order
    /// it ranked them: 1 ranks them exactly as shown (the first shown best).
    pub position_bias: Option<f64>,
}

/// Which first answers agree, as the analyst read them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vote {
    pub groups: Vec<VoteGroup>,
    /// The group more than half the answering members are in.
    pub majority: Option<usize>,
    /// First answers read.
    pub answers: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VoteGroup {
    /// The answer they share, in a line.
    pub answer: String,
    pub seats: Vec<String>,
    pub names: Vec<String>,
}

/// Whether deliberating changed the answer the members' first answers voted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Confirmed,
    Changed,
    NoMajority,
    /// The chair gave no final answer to compare, or the check could not be read.
    Undecided,
}

impl Verdict {
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Confirmed => "confirmed the vote",
            Verdict::Changed => "changed the vote",
            Verdict::NoMajority => "no majority to confirm",
            Verdict::Undecided => "could not be compared with the vote",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Worth {
    pub verdict: Verdict,
    /// The majority's answer, empty when there was none.
    pub vote: String,
    /// The analyst's reason, or why there is no comparison.
    pub reason: String,
    /// The first answers.
    pub first: Spend,
    /// Everything after them that made the final answer: revisions, reviews, the chair.
    pub deliberation: Spend,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spend {
    pub calls: u32,
    pub tokens: u32,
    /// `None` when a seat had no price: unknown, not free.
    pub dollars: Option<f64>,
}

impl Spend {
    pub fn words(&self) -> String {
        let money = match self.dollars {
            Some(d) => crate::engine::cost::dollars(d),
            None => "no price set".into(),
        };
        format!(
            "{}, {} tokens, {money}",
            crate::engine::reading::count(self.calls as usize, "call"),
            self.tokens
        )
    }
}

impl CouncilFinding {
    pub fn label(&self) -> &'static str {
        match self {
            CouncilFinding::Ballot(_) => "Ballot",
            CouncilFinding::Ranking(_) => "Council ranking",
            CouncilFinding::Vote(_) => "Vote of the first answers",
            CouncilFinding::ChairFailed { .. } => "No final answer",
            CouncilFinding::Worth(_) => "Was the debate worth it?",
        }
    }

    pub fn summary(&self) -> String {
        match self {
            CouncilFinding::Ballot(b) => b
                .ranking
                .iter()
                .map(|r| {
                    if r.reason.is_empty() {
                        format!("{} ({})", r.label, r.name)
                    } else {
                        format!("{} ({}: {})", r.label, r.name, r.reason)
                    }
                })
                .collect::<Vec<_>>()
                .join(" > "),
            CouncilFinding::Ranking(r) => {
                let mut s = r
                    .standings
                    .iter()
                    .enumerate()
                    .map(|(i, st)| format!("{}. {} {} pt", i + 1, st.name, st.points))
                    .collect::<Vec<_>>()
                    .join(", ");
                s += &format!(
                    " (Borda over {})",
                    crate::engine::reading::count(r.ballots as usize, "ballot")
                );
                for t in &r.ties {
                    s += &format!("; {t}");
                }
                if !r.unread.is_empty() {
                    s += &format!("; not counted: {}", r.unread.join(", "));
                }
                let leanings: Vec<String> = r
                    .biases
                    .iter()
                    .map(|b| {
                        let opt = |x: Option<f64>| x.map_or("–".to_string(), signed);
                        format!(
                            "{} self-preference {}, position bias {}",
                            b.name,
                            opt(b.self_preference),
                            opt(b.position_bias)
                        )
                    })
                    .collect();
                if !leanings.is_empty() {
                    s += &format!("; leanings: {}", leanings.join("; "));
                }
                s
            }
            CouncilFinding::Vote(v) => match v.majority.and_then(|i| v.groups.get(i)) {
                Some(g) => format!(
                    "majority ({} of {}): {}",
                    g.seats.len(),
                    v.answers,
                    g.answer
                ),
                None => format!(
                    "no majority among {} answers: {}",
                    v.answers,
                    v.groups
                        .iter()
                        .map(|g| format!("{} ({})", g.answer, g.names.join(", ")))
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            },
            CouncilFinding::ChairFailed { message } => message.clone(),
            CouncilFinding::Worth(w) => format!(
                "The final answer {}. {} First answers: {}; deliberation: {}.",
                w.verdict.words(),
                w.reason,
                w.first.words(),
                w.deliberation.words()
            ),
        }
    }
}

/// How finely one ballot of `answers` answers can show a reviewer's position bias (a rank
/// correlation moves in steps of 12 / (n(n² − 1))), for the leanings table's hint: one ballot
/// says little, so it is read across reviewers. `None` where a ballot ranks nothing.
pub fn bias_steps(answers: usize) -> Option<String> {
    let across = "read it across reviewers";
    match answers {
        0 | 1 => None,
        2 => Some(format!(
            "One ballot of two answers can only give +1 or −1: {across}."
        )),
        3 => Some(format!(
            "One ballot of three answers can only give ±0.5 or ±1: {across}."
        )),
        n => {
            let step = 12.0 / (n * (n * n - 1)) as f64;
            Some(format!(
                "One ballot of {n} answers moves it in steps of {}: {across}.",
                decimal(step, if step >= 0.1 { 1 } else { 2 })
            ))
        }
    }
}

/// A share of a ballot as shown to people ("+0.50").
pub fn signed(x: f64) -> String {
    let s = decimal(x.abs(), 2);
    if x > 0.004 {
        format!("+{s}")
    } else if x < -0.004 {
        format!("−{s}")
    } else {
        s
    }
}

/// "1st", "2nd", "3rd", "11th", "22nd".
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::bias_steps;

    /// A rank correlation over n answers moves in steps of 12 / (n(n² − 1)): 2 for two
    /// answers (only ±1), 0.5 for three, 0.2 for four, 0.1 for five.
    #[test]
    fn the_bias_hint_fits_the_council_size() {
        assert_eq!(bias_steps(1), None);
        assert!(bias_steps(2).unwrap().contains("only give +1 or −1"));
        assert!(bias_steps(3).unwrap().contains("±0.5 or ±1"));
        assert!(bias_steps(4)
            .unwrap()
            .contains("of 4 answers moves it in steps of 0.2"));
        assert!(bias_steps(5).unwrap().contains("steps of 0.1"));
        assert!(bias_steps(8).unwrap().contains("steps of 0.02"));
    }
}
