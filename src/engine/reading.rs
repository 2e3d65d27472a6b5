//! How the event log reads to people: one wording of the events that stand in a transcript
//! beside the turns (an audience question, evidence, a cap, a skipped call), of how a turn
//! ended, and of the text a turn shows. The screens (`ui::state`, `ui::debate`) and every
//! export (`export::walk`) word these through here, so they say the same thing about the
//! same event. (A failed attempt is worded here for the exports; the screens show its error
//! on the turn itself.)

use super::config::DebateConfig;
use super::cost::dollars;
use super::event::{FinishReason, Input, ReadTally};

/// A number of things as a person writes it: "1 round", "2 rounds", "0 ballots". `noun` is
/// the singular, and its plural takes an "s" (every noun Agora counts does).
pub fn count(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// A seat's name, or its id when the configuration has no such seat.
pub fn seat_name(config: &DebateConfig, seat: &str) -> String {
    config
        .seat(seat)
        .map_or_else(|| seat.to_string(), |s| s.name.clone())
}

/// How a debate's structured answers were read, in one line ("Structured answers: 11 read,
/// 1 after a repair, 0 unreadable").
pub fn reads(t: &ReadTally) -> String {
    format!(
        "Structured answers: {} read, {} after a repair, {} unreadable",
        t.parsed, t.repaired, t.unread
    )
}

/// What an input from outside the debate adds to the transcript; `None` for a person's
/// turn, which shows as the turn itself.
pub fn input(input: &Input) -> Option<String> {
    Some(match input {
        Input::Question { text } => format!("Audience question: {text}"),
        Input::Evidence { text } => format!("Evidence submitted: {text}"),
        Input::SpendingCap { usd: Some(usd) } => format!("Spending cap set to {}.", dollars(*usd)),
        Input::SpendingCap { usd: None } => "Spending cap removed.".into(),
        Input::HumanTurn { .. } => return None,
    })
}

/// A call the format let go of, and why.
pub fn skipped(config: &DebateConfig, seat: &str, reason: &str) -> String {
    format!("{}'s call was skipped: {reason}", seat_name(config, seat))
}

/// A failed attempt at a turn (its partial text stays visible but is never fed to a later
/// prompt).
pub fn failed_attempt(config: &DebateConfig, seat: &str, error: &str) -> String {
    format!("{}'s attempt failed: {error}", seat_name(config, seat))
}

/// How a turn ended, when it did not end on its own.
pub fn finish(finish: FinishReason) -> Option<&'static str> {
    match finish {
        FinishReason::Length => Some("Cut off by the token limit."),
        FinishReason::Cut => Some("Interrupted."),
        FinishReason::Limit => Some("Cut at Agora's size or time limit for one answer."),
        FinishReason::SizeLimit => Some(
            "Cut at Agora's size limit for one answer: the model went on far past its token limit.",
        ),
        FinishReason::TimeLimit => Some("Cut at Agora's time limit for one call."),
        FinishReason::Stop => None,
    }
}

/// The text a finished turn shows: as its format cleaned it for later prompts.
pub fn turn_text(config: &DebateConfig, seat: &str, text: &str) -> String {
    super::formats::shown_text(config, seat, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_a_person_writes_them() {
        assert_eq!(count(1, "round"), "1 round");
        assert_eq!(count(2, "crux card"), "2 crux cards");
        assert_eq!(count(0, "ballot"), "0 ballots");
    }

    #[test]
    fn a_removed_cap_reads_as_removed_and_a_persons_turn_adds_no_line() {
        assert_eq!(
            input(&Input::SpendingCap { usd: None }).as_deref(),
            Some("Spending cap removed.")
        );
        assert_eq!(
            input(&Input::SpendingCap { usd: Some(0.5) }).as_deref(),
            Some(format!("Spending cap set to {}.", dollars(0.5)).as_str())
        );
        let turn = Input::HumanTurn {
            call: super::super::event::CallKey::new("a", 0),
            text: "hi".into(),
        };
        assert_eq!(input(&turn), None);
    }
}
