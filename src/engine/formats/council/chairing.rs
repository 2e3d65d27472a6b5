//! The chair: the final answer from the members' answers and their ranking, then the
//! minority report on what the lower-ranked answers said that the final answer leaves out.
//! A chair that fails, or writes nothing readable, leaves the answers and the ranking
//! standing, with a message naming its connection and what it answered.

use super::findings::{CouncilFinding, Ranking};
use super::paths::CouncilPath;
use super::prompts as p;
use super::{Answer, Council, CHAIR};
use crate::engine::context::{CallSpec, DebateError};
use crate::engine::event::Purpose;
use crate::engine::prompt::render;
use crate::engine::transcript;

/// The fewest words a final answer has to be taken as one.
const READABLE_WORDS: usize = 3;

fn place(i: usize) -> String {
    super::findings::ordinal(i as u32 + 1)
}

impl Council<'_> {
    fn chair_system(&self) -> String {
        render(
            p::CHAIR_SYSTEM,
            &[("members", &self.members.len().to_string())],
        )
    }

    /// The answers in the ranking's order, each headed with its place and points, cut to
    /// fit what `template` leaves of the chair's window.
    fn ranked_answers(
        &self,
        answers: &[Answer],
        ranking: &Ranking,
        skip_first: bool,
        template: &str,
        vars: &[(&str, &str)],
    ) -> String {
        let ordered: Vec<(usize, &Answer, u32)> = ranking
            .standings
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let a = answers.iter().find(|a| a.seat == s.seat)?;
                Some((i, a, s.points))
            })
            .skip(usize::from(skip_first))
            .collect();
        let budget = transcript::budget(
            self.window(CHAIR),
            self.o.chair_tokens,
            &self.chair_system(),
            &render(template, vars),
            None,
        );
        let texts: Vec<&str> = ordered.iter().map(|(_, a, _)| a.text.as_str()).collect();
        Self::shares(&texts, budget)
            .iter()
            .zip(&ordered)
            .map(|(t, (i, _, points))| {
                format!(
                    "Ranked {} ({}):\n\"\"\"\n{t}\n\"\"\"",
                    place(*i),
                    crate::engine::reading::count(*points as usize, "point")
                )
            })
            .collect::<Vec<_>>()
            .join("\n\n")
    }

    /// The chair's final answer, or `None` (recorded, with why) when it gave none.
    pub(super) async fn final_answer(
        &self,
        answers: &[Answer],
        ranking: &Ranking,
    ) -> Result<Option<String>, DebateError> {
        let w = transcript::words(self.o.chair_tokens);
        let fixed = [("question", self.config.topic.as_str()), ("max_words", &w)];
        let listed = self.ranked_answers(answers, ranking, false, p::FINAL, &fixed);
        let mut vars = fixed.to_vec();
        vars.push(("answers", &listed));
        let spec = CallSpec::new(
            CouncilPath::Final.to_string(),
            CHAIR,
            Purpose::Summary,
            "Final answer",
        )
        .system_and_user(self.chair_system(), render(p::FINAL, &vars))
        .max_tokens(self.o.chair_tokens)
        .temperature(0.3)
        .tolerate_failure();
        let who = self
            .config
            .seat(CHAIR)
            .map_or_else(String::new, |s| s.participant.describe());
        let message = match self.ctx.try_call(spec).await? {
            Ok(out) if out.text.split_whitespace().count() >= READABLE_WORDS => {
                return Ok(Some(out.text))
            }
            Ok(out) if out.text.trim().is_empty() => {
                format!("The chair ({who}) answered with nothing.")
            }
            Ok(out) => format!(
                "The chair ({who}) wrote nothing readable as an answer: it wrote “{}”.",
                transcript::clip(out.text.trim(), 200)
            ),
            Err(failed) => format!("The chair ({who}) gave no final answer: {}", failed.message),
        };
        self.record(
            "council/chair-failed".into(),
            CHAIR,
            CouncilFinding::ChairFailed {
                message: format!(
                    "{message} The members' answers and their ranking stand; for a final answer, run the council again with another chair."
                ),
            },
        );
        Ok(None)
    }

    /// The minority report on the answers ranked below the first.
    pub(super) async fn minority(
        &self,
        final_answer: &str,
        answers: &[Answer],
        ranking: &Ranking,
    ) -> Result<(), DebateError> {
        if ranking.standings.len() < 2 {
            return Ok(());
        }
        let w = transcript::words(self.o.chair_tokens);
        let final_answer = transcript::clip_tokens(final_answer, self.o.chair_tokens);
        let fixed = [
            ("question", self.config.topic.as_str()),
            ("final", &final_answer),
            ("max_words", &w),
        ];
        let listed = self.ranked_answers(answers, ranking, true, p::MINORITY, &fixed);
        let mut vars = fixed.to_vec();
        vars.push(("answers", &listed));
        let spec = CallSpec::new(
            CouncilPath::Minority.to_string(),
            CHAIR,
            Purpose::Summary,
            "Minority report",
        )
        .system_and_user(self.chair_system(), render(p::MINORITY, &vars))
        .max_tokens(self.o.chair_tokens)
        .temperature(0.3)
        .tolerate_failure();
        // A minority report that fails stands as a failed turn; the final answer stands.
        self.ctx.try_call(spec).await?.ok();
        Ok(())
    }
}
