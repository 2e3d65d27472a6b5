//! "Was the debate worth it?": the analyst reads which of the members' first answers agree
//! (the vote, given before any member read another's), checks whether the chair's final
//! answer reached the majority's conclusion, and the spend of the first answers is set
//! against what deliberating (revisions, reviews, the chair) cost on top. The analyst's own
//! two calls are the measurement and count in neither.

use serde_json::{json, Value};

use super::findings::{CouncilFinding, Spend, Verdict, Vote, VoteGroup, Worth};
use super::paths::CouncilPath;
use super::prompts as p;
use super::{Answer, Council, VERDICT_TOKENS, VOTE_TOKENS};
use crate::engine::answer::Problem;
use crate::engine::context::{CallSpec, DebateError};
use crate::engine::cost::seat_price;
use crate::engine::event::{EventKind, Purpose};
use crate::engine::finding::FindingBody;
use crate::engine::json_fields;
use crate::engine::prompt::render;

pub fn vote_schema(names: &[String]) -> Value {
    json!({"type": "object", "properties": {
        "groups": {"type": "array", "minItems": 1, "items": {"type": "object", "properties": {
            "answer": {"type": "string"},
            "members": {"type": "array", "minItems": 1,
                "items": {"type": "string", "enum": names}}},
            "required": ["answer", "members"]}}},
        "required": ["groups"]})
}

/// Reads the analyst's grouping: each group's answer and its members (indices into
/// `names`); every member in exactly one group.
pub fn read_vote(v: &Value, names: &[String]) -> Result<Vec<(String, Vec<usize>)>, Problem> {
    let groups = json_fields::array(v, "groups")?;
    let mut out: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let at = format!("groups[{i}]");
        let answer = json_fields::required_text(g, "answer").map_err(|p| p.within(&at))?;
        let mut members = Vec::new();
        for m in json_fields::array(g, "members").map_err(|p| p.within(&at))? {
            let given = m.as_str().unwrap_or("").trim();
            let Some(k) = names.iter().position(|n| n.eq_ignore_ascii_case(given)) else {
                return Err(
                    Problem::wrong("members", format!("name only {}", names.join(", ")))
                        .within(&at),
                );
            };
            if out.iter().any(|(_, ms)| ms.contains(&k)) || members.contains(&k) {
                return Err(Problem::rule(format!("{} is in two groups", names[k])));
            }
            members.push(k);
        }
        if !members.is_empty() {
            out.push((answer, members));
        }
    }
    let missing: Vec<&str> = (0..names.len())
        .filter(|k| !out.iter().any(|(_, ms)| ms.contains(k)))
        .map(|k| names[k].as_str())
        .collect();
    if !missing.is_empty() {
        return Err(Problem::rule(format!("{} in no group", missing.join(", "))));
    }
    Ok(out)
}

impl Council<'_> {
    fn analyst_system(&self) -> String {
        p::ANALYST_SYSTEM.to_string()
    }

    /// Which first answers agree, as the analyst reads them; `None` when unreadable.
    pub(super) async fn vote(&self, first: &[Answer]) -> Result<Option<Vote>, DebateError> {
        if first.is_empty() {
            return Ok(None);
        }
        let analyst = self.config.analyst.clone();
        let names: Vec<String> = first.iter().map(|a| self.name(&a.seat)).collect();
        let schema = vote_schema(&names);
        let fixed = [
            ("question", self.config.topic.as_str()),
            ("members", &names.join(", ")),
            ("first_member", &names[0]),
        ];
        let system = self.analyst_system();
        let shell = render(p::VOTE, &fixed);
        let budget = crate::engine::transcript::budget(
            self.window(&analyst),
            VOTE_TOKENS,
            &system,
            &shell,
            Some(&schema),
        );
        let texts: Vec<&str> = first.iter().map(|a| a.text.as_str()).collect();
        let listed = Self::shares(&texts, budget)
            .iter()
            .zip(&names)
            .map(|(t, n)| format!("{n}:\n\"\"\"\n{t}\n\"\"\""))
            .collect::<Vec<_>>()
            .join("\n\n");
        let mut vars = fixed.to_vec();
        vars.push(("answers", &listed));
        let spec = CallSpec::new(
            CouncilPath::Vote.to_string(),
            &analyst,
            Purpose::Extraction,
            "Vote of the first answers",
        )
        .system_and_user(system, render(p::VOTE, &vars))
        .max_tokens(VOTE_TOKENS)
        .temperature(0.0)
        .json_schema(schema)
        .tolerate_failure();
        let answer = self.ctx.call_json(spec, |v| read_vote(v, &names)).await?;
        let n = first.len();
        let read = answer.read.map(|groups| {
            let groups: Vec<VoteGroup> = groups
                .into_iter()
                .map(|(answer, ms)| VoteGroup {
                    answer,
                    seats: ms.iter().map(|k| first[*k].seat.clone()).collect(),
                    names: ms.iter().map(|k| names[*k].clone()).collect(),
                })
                .collect();
            Vote {
                majority: groups.iter().position(|g| g.seats.len() * 2 > n),
                groups,
                answers: n as u32,
            }
        });
        let vote = read.as_ref().ok().cloned();
        self.ctx.record_structured(
            ("council/vote".into(), Some(answer.key), &analyst),
            || "The vote of the first answers".into(),
            read,
            |v| FindingBody::Council(Box::new(CouncilFinding::Vote(v))),
        );
        Ok(vote)
    }

    /// Whether the final answer kept the majority's conclusion, with the reason.
    pub(super) async fn verdict(
        &self,
        vote: &Option<Vote>,
        final_answer: Option<&str>,
    ) -> Result<(Verdict, String, String), DebateError> {
        let Some(vote) = vote else {
            return Ok((
                Verdict::Undecided,
                String::new(),
                "The vote of the first answers could not be read, so there is nothing to compare the final answer with.".into(),
            ));
        };
        let Some(group) = vote.majority.and_then(|i| vote.groups.get(i)) else {
            return Ok((
                Verdict::NoMajority,
                String::new(),
                format!(
                    "The {} first answers split {} ways: no answer had a majority to confirm or change.",
                    vote.answers,
                    vote.groups.len()
                ),
            ));
        };
        let majority = group.answer.clone();
        let Some(final_answer) = final_answer else {
            return Ok((
                Verdict::Undecided,
                majority,
                "The chair gave no final answer.".into(),
            ));
        };
        let analyst = self.config.analyst.clone();
        let user = render(
            p::VERDICT,
            &[
                ("question", &self.config.topic),
                ("vote", &majority),
                (
                    "final",
                    &crate::engine::transcript::clip_tokens(final_answer, 2000),
                ),
            ],
        );
        let spec = CallSpec::new(
            CouncilPath::Verdict.to_string(),
            &analyst,
            Purpose::Check,
            "Final answer against the vote",
        )
        .system_and_user(self.analyst_system(), user)
        .max_tokens(VERDICT_TOKENS)
        .temperature(0.0)
        .json_schema(json!({"type": "object", "properties": {
            "same": {"type": "boolean"}, "reason": {"type": "string"}},
            "required": ["same", "reason"]}))
        .tolerate_failure();
        let answer = self
            .ctx
            .call_json(spec, |v| {
                Ok((
                    json_fields::lenient_boolean(v, "same")?,
                    json_fields::text(v, "reason"),
                ))
            })
            .await?;
        Ok(match answer.read {
            Ok((true, reason)) => (Verdict::Confirmed, majority, reason),
            Ok((false, reason)) => (Verdict::Changed, majority, reason),
            Err(unread) => (
                Verdict::Undecided,
                majority,
                format!(
                    "The check of the final answer against the vote could not be read: {unread}."
                ),
            ),
        })
    }

    /// Records the verdict with what the first answers and the deliberation cost.
    pub(super) fn record_worth(&self, (verdict, vote, reason): (Verdict, String, String)) {
        let (first, deliberation) = self.spend();
        self.record(
            "council/worth".into(),
            "",
            CouncilFinding::Worth(Worth {
                verdict,
                vote,
                reason,
                first,
                deliberation,
            }),
        );
    }

    /// The first answers' spend and the deliberation's, from the finished calls so far.
    fn spend(&self) -> (Spend, Spend) {
        let mut first = Spend {
            dollars: Some(0.0),
            ..Default::default()
        };
        let mut rest = first;
        for e in self.ctx.events() {
            let EventKind::TurnFinished {
                call, seat, usage, ..
            } = &e.kind
            else {
                continue;
            };
            let into = match CouncilPath::parse(&call.path) {
                Some(CouncilPath::Answer { .. }) => &mut first,
                Some(CouncilPath::Vote | CouncilPath::Verdict) | None => continue,
                Some(_) => &mut rest,
            };
            into.calls += 1;
            into.tokens += usage.input_tokens + usage.output_tokens;
            into.dollars = match (into.dollars, seat_price(&self.config, seat)) {
                (Some(d), Some(price)) => Some(d + price.cost(usage)),
                _ => None,
            };
        }
        (first, rest)
    }
}
