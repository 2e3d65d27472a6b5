//! The members' answers: each on its own first, then (in a second round) each revised
//! after reading the others', which are shown without names.

use super::paths::CouncilPath;
use super::prompts as p;
use super::{Answer, Council};
use crate::engine::context::{CallSpec, DebateError};
use crate::engine::event::Purpose;
use crate::engine::prompt::render;
use crate::engine::transcript;

impl Council<'_> {
    /// A member's system prompt, for its answers and its ballot alike.
    pub(super) fn member_system(&self, seat: &str) -> String {
        render(
            p::MEMBER_SYSTEM,
            &[
                ("name", &self.name(seat)),
                ("members", &self.members.len().to_string()),
            ],
        )
    }

    /// A member's first answer; `None` when it came back empty.
    pub(super) async fn answer(&self, seat: &str) -> Result<Option<Answer>, DebateError> {
        let user = render(
            p::ANSWER,
            &[
                ("question", &self.config.topic),
                ("max_words", &transcript::words(self.o.answer_tokens)),
            ],
        );
        let path = CouncilPath::Answer { seat: seat.into() };
        let spec = CallSpec::new(path.to_string(), seat, Purpose::Argument, "Answer")
            .system_and_user(self.member_system(seat), user)
            .max_tokens(self.o.answer_tokens)
            .temperature(0.7);
        let out = self.ctx.call(spec).await?;
        Ok(given(seat, out.text))
    }

    /// A member's revision after reading the others' first answers.
    pub(super) async fn revise(
        &self,
        seat: &str,
        first: &[Answer],
    ) -> Result<Option<Answer>, DebateError> {
        let own = first
            .iter()
            .find(|a| a.seat == seat)
            .map_or("(You gave no answer.)", |a| a.text.as_str());
        let others: Vec<&str> = first
            .iter()
            .filter(|a| a.seat != seat)
            .map(|a| a.text.as_str())
            .collect();
        let system = self.member_system(seat);
        let w = transcript::words(self.o.answer_tokens);
        let shell = render(
            p::REVISE,
            &[("question", &self.config.topic), ("max_words", &w)],
        );
        let budget = transcript::budget(
            self.window(seat),
            self.o.answer_tokens,
            &system,
            &shell,
            None,
        );
        // Its own answer gets a share like each of the others'.
        let mut fitted = Self::shares(&[&[own][..], &others].concat(), budget);
        let own = fitted.remove(0);
        let others = fitted
            .iter()
            .map(|t| format!("Another member:\n\"\"\"\n{t}\n\"\"\""))
            .collect::<Vec<_>>()
            .join("\n\n");
        let user = render(
            p::REVISE,
            &[
                ("question", &self.config.topic),
                ("own", &own),
                ("others", &others),
                ("max_words", &w),
            ],
        );
        let path = CouncilPath::Revision { seat: seat.into() };
        let spec = CallSpec::new(path.to_string(), seat, Purpose::Argument, "Revised answer")
            .system_and_user(system, user)
            .max_tokens(self.o.answer_tokens)
            .temperature(0.7);
        let out = self.ctx.call(spec).await?;
        Ok(given(seat, out.text))
    }
}

fn given(seat: &str, text: String) -> Option<Answer> {
    (!text.trim().is_empty()).then(|| Answer {
        seat: seat.to_string(),
        text,
    })
}
