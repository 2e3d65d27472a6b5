//! The moderator enforces the configured rules (seed 003): after each position's turn, a
//! turn that ran over its length gets a note at once; one whose wording hints at leaving
//! the question or breaking a rule (`rules`) is put to the moderator, who rules on it. A
//! note is recorded as a finding about the turn, shown in the flow, and said before the
//! next turn, so later speakers, the round's summary and the scores all see it.

use super::rules::{self, Overrun};
use super::*;
use crate::engine::event::{CallKey, FinishReason};
use crate::engine::finding::{Breach, Finding};

/// The most a ruling may answer: a short note in JSON.
const RULING_TOKENS: u32 = 200;

/// A position's turn, as the moderator judges it.
pub(super) struct Spoken<'t> {
    pub path: &'t ClassicPath,
    pub key: &'t CallKey,
    pub seat: &'t str,
    pub label: &'t str,
    pub text: &'t str,
    pub finish: FinishReason,
    pub max_tokens: u32,
    /// Where the turn stands in `said`.
    pub at: usize,
}

impl Classic<'_> {
    pub(super) async fn moderate(&mut self, turn: Spoken<'_>) -> Result<(), DebateError> {
        let name = self.seat(turn.seat)?.name.clone();
        let limit: u32 = transcript::words(turn.max_tokens).parse().unwrap_or(0);
        let slack = self.o.style.length_slack_percent();
        // Cut by the token limit, or by Agora's own bound on the call: either way truncated.
        let cut = matches!(
            turn.finish,
            FinishReason::Length | FinishReason::SizeLimit | FinishReason::Limit
        );
        if let Some(over) = rules::over_length(turn.text, limit, slack, cut) {
            let note = length_note(&name, over);
            self.note(
                &turn,
                format!("{}/length", turn.key),
                Breach::Length,
                "",
                note,
            );
        }
        let mut hints: Vec<&str> = rules::rule_hints(self.o.style, turn.text);
        if rules::off_topic(turn.text, &self.known_words(turn.at)) {
            hints.push("leave the question being debated");
        }
        // A person in the moderator's chair is not asked to type JSON rulings: the length
        // notes stand, the hints go unruled.
        let human = matches!(
            self.seat(MODERATOR)?.participant,
            crate::engine::config::Participant::Human
        );
        if hints.is_empty() || human {
            return Ok(());
        }
        let user = render(
            p::RULING,
            &[
                ("topic", &self.config.topic),
                ("rules", &self.rules),
                ("name", &name),
                ("stance", &self.stance(turn.seat)),
                ("label", &turn.label.to_lowercase()),
                ("text", &transcript::clip(turn.text, 4000)),
                ("hints", &hints.join("; or ")),
            ],
        );
        let ruled = self
            .ctx
            .call_json(
                CallSpec::new(
                    ClassicPath::Ruling(Box::new(turn.path.clone())).to_string(),
                    MODERATOR,
                    Purpose::Check,
                    "Ruling",
                )
                .messages(vec![ChatMessage::user(user)])
                .max_tokens(RULING_TOKENS)
                .temperature(0.2)
                .json_schema(scoring::ruling_schema())
                .tolerate_failure(),
                scoring::parse_ruling,
            )
            .await?;
        // No breach, or an answer that could not be read (its call says why): no note.
        if let Ok(Some((breach, rule, note))) = ruled.read {
            self.note(&turn, format!("{}/ruling", turn.key), breach, &rule, note);
        }
        Ok(())
    }

    /// Records a moderator's note about `turn` and says it before the next turn.
    fn note(&mut self, turn: &Spoken<'_>, key: String, breach: Breach, rule: &str, note: String) {
        self.ctx.record(Finding {
            key,
            about: Some(turn.key.clone()),
            seat: turn.seat.into(),
            body: FindingBody::ModeratorNote {
                breach,
                rule: rule.into(),
                note: note.clone(),
            },
        });
        let speaker = self
            .config
            .seat(MODERATOR)
            .map_or("Moderator".into(), |s| s.name.clone());
        // The scores count length notes per side rather than read each one.
        if breach == Breach::Length {
            self.overran.push((self.said.len(), turn.seat.to_string()));
        } else {
            self.about.insert(self.said.len(), turn.seat.to_string());
        }
        self.said.push(Said {
            seat: MODERATOR.into(),
            speaker,
            label: "Moderator's note".into(),
            text: note,
        });
    }

    /// What the debate has said before `said[at]`: the question, both stances and every
    /// turn.
    fn known_words(&self, at: usize) -> String {
        let mut known = format!(
            "{}\n{}\n{}",
            self.config.topic,
            self.stance(POSITION_A),
            self.stance(POSITION_B)
        );
        for s in &self.said[..at] {
            known.push('\n');
            known.push_str(&s.text);
        }
        known
    }
}

/// The moderator's note on a turn over its length, in the moderator's plain words.
fn length_note(name: &str, over: Overrun) -> String {
    if over.cut {
        format!(
            "{name} ran past the turn's limit and was cut off; turns here are at most {} words.",
            over.limit
        )
    } else {
        format!(
            "{name} spoke {} words against a limit of {}; keep to the limit, please.",
            over.words, over.limit
        )
    }
}
