//! The council (after karpathy/llm-council and its forks, run in the page): members answer
//! a question on their own and at once; optionally each revises its answer after reading
//! the others' (a second round, as in Du et al.'s multi-agent debate); each member then
//! ranks every answer, labelled A, B, C… in an order drawn for that reviewer and recorded,
//! its own among them unmarked; a Borda count over the ballots (a reviewer's own
//! answer earns nothing from its own ballot) ranks the answers, and every ballot's self-preference and
//! position bias is measured (`tally`); the chair writes the final answer and a minority
//! report. Beside the review the analyst reads which first answers agree (the vote), and at
//! the end checks whether the final answer confirmed or changed it, with what deliberating
//! cost beyond the first answers: "was the debate worth it?".
//!
//! The parts, in the order a council meets them: `answering` (first answers, revisions),
//! `reviewing` (label orders, ballots, the ranking), `weighing` (the vote, the verdict
//! and the spend) and `chairing` (the final answer, the minority report).

use futures::future::join_all;

use super::super::config::{CouncilOptions, DebateConfig, FormatOptions, Participant, SeatConfig};
use super::super::context::{DebateCtx, DebateError};
use super::super::finding::{Finding, FindingBody};
use super::super::transcript;

mod answering;
mod chairing;
pub mod findings;
pub mod options;
pub mod paths;
pub(super) mod plan;
pub mod prompts;
mod reviewing;
pub mod tally;
#[cfg(test)]
mod tests;
mod weighing;

pub use reviewing::{ballot_schema, label, read_ballot, read_typed_ballot};
pub use weighing::{read_vote, vote_schema};

pub const CHAIR: &str = "chair";
/// Member seats are `member-1`, `member-2`…
pub const MEMBER: &str = "member-";
pub const MIN_MEMBERS: usize = 2;
pub const MAX_MEMBERS: usize = 8;
/// The most the analyst's reading of the vote may answer.
pub const VOTE_TOKENS: u32 = 500;
/// The most its check of the final answer against the vote may answer.
pub const VERDICT_TOKENS: u32 = 200;

/// The seat id of the `i`-th member (from 0).
pub fn member_seat(i: usize) -> String {
    format!("{MEMBER}{}", i + 1)
}

/// The member seats of a council, in order.
pub fn members(config: &DebateConfig) -> Vec<&str> {
    config
        .seats
        .iter()
        .map(|s| s.id.as_str())
        .filter(|id| id.starts_with(MEMBER))
        .collect()
}

/// A member's answer as the later stages read it.
#[derive(Clone, Debug)]
struct Answer {
    seat: String,
    text: String,
}

struct Council<'a> {
    ctx: &'a DebateCtx,
    config: DebateConfig,
    o: CouncilOptions,
    members: Vec<String>,
}

impl Council<'_> {
    fn name(&self, seat: &str) -> String {
        self.config
            .seat(seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    fn window(&self, seat: &str) -> u32 {
        self.config
            .seat(seat)
            .map_or(8192, |s| s.participant.context_tokens())
    }

    fn is_person(&self, seat: &str) -> bool {
        self.config
            .seat(seat)
            .is_some_and(|s| matches!(s.participant, Participant::Human))
    }

    /// `texts` each cut to an equal share of `tokens`, so a prompt carrying every member's
    /// answer fits the seat's window however many members there are. Each share leaves
    /// room for the heading and quotes the prompt wraps an answer in.
    fn shares(texts: &[&str], tokens: u32) -> Vec<String> {
        const WRAPPING: u32 = 16;
        let each = (tokens / texts.len().max(1) as u32).saturating_sub(WRAPPING);
        texts
            .iter()
            .map(|t| transcript::clip_tokens(t.trim(), each.max(40)))
            .collect()
    }

    fn record(&self, key: String, seat: &str, body: findings::CouncilFinding) {
        self.ctx.record(Finding {
            key,
            about: None,
            seat: seat.to_string(),
            body: FindingBody::Council(Box::new(body)),
        });
    }

    async fn run(&self) -> Result<(), DebateError> {
        let ctx = self.ctx;
        ctx.phase("answers", "First answers", None);
        let first: Vec<Answer> = join_all(self.members.iter().map(|m| self.answer(m)))
            .await
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .flatten()
            .collect();
        let (round, reviewed) = if self.o.second_round {
            ctx.phase("revision", "Revised answers", None);
            let revised = join_all(self.members.iter().map(|m| self.revise(m, &first)))
                .await
                .into_iter()
                .collect::<Result<Vec<_>, _>>()?;
            // A member whose revision came back empty stands by its first answer.
            let reviewed = first
                .iter()
                .map(|a| {
                    revised
                        .iter()
                        .flatten()
                        .find(|r| r.seat == a.seat)
                        .cloned()
                        .unwrap_or_else(|| a.clone())
                })
                .collect();
            (2, reviewed)
        } else {
            (1, first.clone())
        };

        ctx.phase("review", "Review", None);
        let (ballots, vote) = futures::join!(
            join_all(
                self.members
                    .iter()
                    .map(|m| self.review(round, m, &reviewed))
            ),
            self.vote(&first)
        );
        let (findings, ballots): (Vec<_>, Vec<_>) = ballots
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .unzip();
        // In seating order, as the ballots are read and exported, not in the order the
        // reviews happened to come back.
        for finding in findings.into_iter().flatten() {
            ctx.record(finding);
        }
        let vote = vote?;
        let ranking = self.rank(round, &reviewed, &ballots);

        ctx.phase("chair", "The chair's final answer", None);
        let Some(final_answer) = self.final_answer(&reviewed, &ranking).await? else {
            let verdict = self.verdict(&vote, None).await?;
            self.record_worth(verdict);
            return Ok(());
        };
        let (minority, verdict) = futures::join!(
            self.minority(&final_answer, &reviewed, &ranking),
            self.verdict(&vote, Some(&final_answer))
        );
        minority?;
        self.record_worth(verdict?);
        Ok(())
    }
}

pub async fn run(ctx: &DebateCtx) -> Result<(), DebateError> {
    let config = ctx.config();
    let FormatOptions::Council(o) = &config.options else {
        return Err(DebateError::Config("This is not a council.".into()));
    };
    let council = Council {
        ctx,
        o: o.clone(),
        members: members(&config).into_iter().map(String::from).collect(),
        config: config.clone(),
    };
    council.run().await
}

/// A council on `question`: the members (a name and who fills the seat each), the chair
/// and the analyst.
pub fn new_config(
    question: &str,
    members: Vec<(String, Participant)>,
    chair: Participant,
    analyst: Participant,
    options: CouncilOptions,
) -> DebateConfig {
    let mut seats: Vec<SeatConfig> = members
        .into_iter()
        .enumerate()
        .map(|(i, (name, participant))| SeatConfig {
            id: member_seat(i),
            name: if name.trim().is_empty() {
                format!("Member {}", i + 1)
            } else {
                name.trim().to_string()
            },
            stance: None,
            participant,
        })
        .collect();
    seats.push(SeatConfig {
        id: CHAIR.into(),
        name: "Chair".into(),
        stance: None,
        participant: chair,
    });
    seats.push(super::analyst_seat(analyst));
    DebateConfig::new(
        question,
        seats,
        super::ANALYST,
        FormatOptions::Council(options),
    )
}

/// Checks a council's configuration, with messages for the user.
pub fn validate(config: &DebateConfig, o: &CouncilOptions) -> Result<(), String> {
    let n = members(config).len();
    if !(MIN_MEMBERS..=MAX_MEMBERS).contains(&n) {
        return Err(format!(
            "A council has between {MIN_MEMBERS} and {MAX_MEMBERS} members; this one has {n}."
        ));
    }
    // The analyst's vote names members by name, so two of one name could not be told apart.
    let names: Vec<&str> = config
        .seats
        .iter()
        .filter(|s| s.id.starts_with(MEMBER))
        .map(|s| s.name.trim())
        .collect();
    if let Some((_, twice)) = names
        .iter()
        .enumerate()
        .find(|(i, n)| names[..*i].iter().any(|m| m.eq_ignore_ascii_case(n)))
    {
        return Err(format!(
            "Two members are named \"{twice}\": give each member a name of its own."
        ));
    }
    if config.seat(CHAIR).is_none() {
        return Err("A council needs its chair.".into());
    }
    if config.analyst == CHAIR || config.analyst.starts_with(MEMBER) {
        return Err(
            "The analyst checks the chair and the members, so it cannot be one of them.".into(),
        );
    }
    for (what, n) in [
        ("answers", o.answer_tokens),
        ("reviews", o.review_tokens),
        ("the chair's answers", o.chair_tokens),
    ] {
        if !(50..=32_000).contains(&n) {
            return Err(format!("The token limit of {what} goes from 50 to 32,000."));
        }
    }
    Ok(())
}
