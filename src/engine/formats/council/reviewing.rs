//! The review: each member ranks every answer of the round, labelled A, B, C… in an order
//! drawn afresh for that reviewer and recorded (`DebateCtx::shuffle`), its own answer among
//! them unmarked; a person ranks by typing the labels. Then the Borda count (`tally`).

use serde_json::{json, Value};

use super::findings::{Ballot, CouncilFinding, Ranked, Ranking};
use super::paths::CouncilPath;
use super::prompts as p;
use super::tally::{self, Cast};
use super::{Answer, Council};
use crate::engine::answer::Problem;
use crate::engine::context::{structured_finding, CallSpec, DebateError};
use crate::engine::event::Purpose;
use crate::engine::finding::{Finding, FindingBody};
use crate::engine::prompt::render;

/// A ballot read: the reviewer, the answers' seats in the order shown, best first.
pub(super) struct Read {
    reviewer: String,
    shown: Vec<String>,
    ranking: Vec<String>,
}

/// The label of the `i`-th answer shown (from 0): A, B, C…
pub fn label(i: usize) -> String {
    char::from(b'A' + (i % 26) as u8).to_string()
}

/// The ballot's JSON Schema: every label once, best first, each with a reason.
pub fn ballot_schema(labels: &[String]) -> Value {
    json!({"type": "object", "properties": {
        "ranking": {"type": "array", "minItems": labels.len(), "maxItems": labels.len(),
            "items": {"type": "object", "properties": {
                "label": {"type": "string", "enum": labels},
                "reason": {"type": "string"}},
                "required": ["label", "reason"]}}},
        "required": ["ranking"]})
}

/// Which label a model or a person meant: "B", "b", "Answer B", "(B)".
fn which(text: &str, labels: &[String]) -> Option<usize> {
    let t = text.trim().trim_matches(|c: char| "()[]*\"'.".contains(c));
    let t = t
        .strip_prefix("Answer ")
        .or_else(|| t.strip_prefix("answer "))
        .unwrap_or(t)
        .trim();
    labels.iter().position(|l| l.eq_ignore_ascii_case(t))
}

/// The order a ballot gives (indices into `labels`, best first) with its reasons, when it
/// ranks every label exactly once.
fn complete(
    order: Vec<(usize, String)>,
    labels: &[String],
) -> Result<Vec<(usize, String)>, Problem> {
    for (i, (l, _)) in order.iter().enumerate() {
        if order[..i].iter().any(|(m, _)| m == l) {
            return Err(Problem::rule(format!("{} is ranked twice", labels[*l])));
        }
    }
    let missing: Vec<&str> = labels
        .iter()
        .enumerate()
        .filter(|(i, _)| !order.iter().any(|(l, _)| l == i))
        .map(|(_, l)| l.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(Problem::rule(format!(
            "{} not ranked: rank every answer",
            missing.join(", ")
        )));
    }
    Ok(order)
}

/// Reads a model's ballot (`ballot_schema`).
pub fn read_ballot(v: &Value, labels: &[String]) -> Result<Vec<(usize, String)>, Problem> {
    let items = crate::engine::json_fields::array(v, "ranking")?;
    let order = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let given = item.get("label").and_then(Value::as_str).unwrap_or("");
            let l = which(given, labels).ok_or_else(|| {
                Problem::wrong("label", format!("be one of {}", labels.join(", ")))
                    .within(format!("ranking[{i}]"))
            })?;
            Ok((l, crate::engine::json_fields::text(item, "reason")))
        })
        .collect::<Result<Vec<_>, Problem>>()?;
    complete(order, labels)
}

/// Reads a person's typed ballot: the labels best first, one per line ("B: clearest"), or
/// on one line separated by commas or `>`; numbering and bullets are ignored.
pub fn read_typed_ballot(text: &str, labels: &[String]) -> Result<Vec<(usize, String)>, Problem> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let entries: Vec<&str> = match lines.as_slice() {
        [one] if !one.contains(':') => one.split([',', '>', ';']).map(str::trim).collect(),
        _ => lines,
    };
    if entries.is_empty() {
        return Err(Problem::Empty);
    }
    let order = entries
        .iter()
        .map(|e| {
            let e = e.trim_start_matches(|c: char| c.is_ascii_digit() || "-*•.) ".contains(c));
            let (head, reason) = e.split_once([':', '—', '–', '-']).unwrap_or((e, ""));
            let l = which(head, labels).ok_or_else(|| {
                Problem::wrong(
                    format!("“{}”", head.trim()),
                    format!("be one of the labels {}", labels.join(", ")),
                )
            })?;
            Ok((l, reason.trim().to_string()))
        })
        .collect::<Result<Vec<_>, Problem>>()?;
    complete(order, labels)
}

impl Council<'_> {
    /// One member's ballot on `answers`, and the finding to record for it (the ballot, or
    /// "not scored" with why); no ballot when it could not be read or the call failed. The
    /// caller records the findings in seating order, whichever review came back first.
    pub(super) async fn review(
        &self,
        round: u32,
        seat: &str,
        answers: &[Answer],
    ) -> Result<(Option<Finding>, Option<Read>), DebateError> {
        if answers.is_empty() {
            return Ok((None, None));
        }
        let seats: Vec<String> = answers.iter().map(|a| a.seat.clone()).collect();
        let shown = self.ctx.shuffle(&format!("council/{round}/{seat}"), seats);
        let labels: Vec<String> = (0..shown.len()).map(label).collect();
        let person = self.is_person(seat);
        let template = if person { p::REVIEW_PERSON } else { p::REVIEW };
        let schema = ballot_schema(&labels);
        let example = labels
            .iter()
            .rev()
            .map(|l| format!("{l}: …"))
            .collect::<Vec<_>>()
            .join("\n");
        let fixed = [
            ("question", self.config.topic.as_str()),
            ("labels", &labels.join(", ")),
            ("first_label", &labels[0]),
            ("example", &example),
        ];
        let shell = render(template, &fixed);
        let system = self.member_system(seat);
        let budget = crate::engine::transcript::budget(
            self.window(seat),
            self.o.review_tokens,
            &system,
            &shell,
            (!person).then_some(&schema),
        );
        let texts: Vec<&str> = shown
            .iter()
            .map(|s| {
                answers
                    .iter()
                    .find(|a| &a.seat == s)
                    .map_or("", |a| a.text.as_str())
            })
            .collect();
        let listed = Self::shares(&texts, budget)
            .iter()
            .zip(&labels)
            .map(|(t, l)| format!("Answer {l}:\n\"\"\"\n{t}\n\"\"\""))
            .collect::<Vec<_>>()
            .join("\n\n");
        let mut vars = fixed.to_vec();
        vars.push(("answers", &listed));
        let user = render(template, &vars);
        let path = CouncilPath::Review {
            round,
            seat: seat.into(),
        };
        let spec = CallSpec::new(path.to_string(), seat, Purpose::Evaluation, "Review")
            .system_and_user(system, user)
            .max_tokens(self.o.review_tokens)
            .temperature(0.2)
            .tolerate_failure();
        let finding_key = format!("council/ballot/{round}/{seat}");
        let what = || format!("{}'s ballot", self.name(seat));
        let (key, read) = if person {
            // A person types the labels; what cannot be read is said, never guessed.
            match self.ctx.try_call(spec).await? {
                Ok(out) => (
                    out.key,
                    read_typed_ballot(&out.text, &labels)
                        .map_err(|problem| crate::engine::answer::Unread::Unreadable { problem }),
                ),
                Err(failed) => (
                    failed.key,
                    Err(crate::engine::answer::Unread::NoAnswer {
                        message: failed.message,
                    }),
                ),
            }
        } else {
            let answer = self
                .ctx
                .call_json(spec.json_schema(schema), |v| read_ballot(v, &labels))
                .await?;
            (answer.key, answer.read)
        };
        let order = read.as_ref().ok().cloned();
        let finding = structured_finding((finding_key, Some(key), seat), what, read, |order| {
            FindingBody::Council(Box::new(CouncilFinding::Ballot(Ballot {
                round,
                shown: shown.clone(),
                ranking: order
                    .into_iter()
                    .map(|(i, reason)| Ranked {
                        seat: shown[i].clone(),
                        name: self.name(&shown[i]),
                        label: labels[i].clone(),
                        reason,
                    })
                    .collect(),
            })))
        });
        let read = order.map(|order| Read {
            reviewer: seat.to_string(),
            ranking: order.iter().map(|(i, _)| shown[*i].clone()).collect(),
            shown,
        });
        Ok((Some(finding), read))
    }

    /// The Borda count over the readable ballots, with each reviewer's leanings; recorded.
    pub(super) fn rank(&self, round: u32, answers: &[Answer], ballots: &[Option<Read>]) -> Ranking {
        let seats: Vec<String> = answers.iter().map(|a| a.seat.clone()).collect();
        let read: Vec<&Read> = ballots.iter().flatten().collect();
        let casts: Vec<Cast> = read
            .iter()
            .map(|b| Cast {
                reviewer: &b.reviewer,
                shown: &b.shown,
                ranking: &b.ranking,
            })
            .collect();
        let name = |s: &str| self.name(s);
        let (standings, ties) = tally::borda(&seats, &name, &casts);
        let ranking = Ranking {
            round,
            standings,
            ties,
            ballots: casts.len() as u32,
            unread: self
                .members
                .iter()
                .filter(|m| !read.iter().any(|b| &b.reviewer == *m))
                .map(|m| self.name(m))
                .collect(),
            biases: tally::biases(&casts, &name),
            shown_first_best: casts
                .iter()
                .filter(|c| !c.shown.is_empty() && c.shown.first() == c.ranking.first())
                .count() as u32,
        };
        self.ctx.record(Finding {
            key: "council/ranking".into(),
            about: None,
            seat: String::new(),
            body: FindingBody::Council(Box::new(CouncilFinding::Ranking(ranking.clone()))),
        });
        ranking
    }
}
