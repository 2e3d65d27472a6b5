//! A stored debate's log as replay plays it: cut at the end of each turn, so the timeline
//! can show the debate up to any turn, and each next turn can be streamed again word by
//! word. Plain Rust, tested natively; `ui::replay` drives the view with it.

use super::event::{Event, EventKind};

pub struct Tape {
    log: Vec<Event>,
    /// Where each turn ends in the log (the index of its `TurnFinished`).
    ends: Vec<usize>,
}

/// One turn to play: what happens before it streams (its start, findings…) and the
/// event that finishes it.
pub struct Step<'a> {
    pub before: &'a [Event],
    pub finished: &'a Event,
}

impl Tape {
    pub fn new(log: Vec<Event>) -> Self {
        let ends = log
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e.kind, EventKind::TurnFinished { .. }))
            .map(|(i, _)| i)
            .collect();
        Tape { log, ends }
    }

    /// How many turns the debate had.
    pub fn turns(&self) -> usize {
        self.ends.len()
    }

    pub fn log(&self) -> &[Event] {
        &self.log
    }

    /// Where the log is cut after `j` turns (the start alone for none).
    fn cut(&self, j: usize) -> usize {
        match j {
            0 => 1.min(self.log.len()),
            j => self.ends.get(j - 1).map_or(self.log.len(), |e| e + 1),
        }
    }

    /// The log up to the end of the `j`-th turn (0: before the first one).
    pub fn prefix(&self, j: usize) -> &[Event] {
        &self.log[..self.cut(j)]
    }

    /// How the debate ended, shown whatever turn the timeline is at (no Resume is offered
    /// mid-replay).
    pub fn ending(&self) -> Option<&Event> {
        self.log
            .last()
            .filter(|e| matches!(e.kind, EventKind::Finished { .. }))
    }

    /// The `j`-th turn to play after `prefix(j)` (counting from 0); `None` past the last.
    pub fn step(&self, j: usize) -> Option<Step<'_>> {
        let end = *self.ends.get(j)?;
        Some(Step {
            before: &self.log[self.cut(j)..end],
            finished: &self.log[end],
        })
    }
}

/// A turn's text as replay streams it: `words` words a piece, whitespace kept, so the
/// pieces put together are the text.
pub fn pieces(text: &str, words: usize) -> Vec<String> {
    let all: Vec<&str> = text.split_inclusive(char::is_whitespace).collect();
    all.chunks(words.max(1)).map(|c| c.concat()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::FormatId;
    use crate::engine::context::Inputs;
    use crate::engine::formats::default_config;
    use crate::engine::formats::testing::scripted::{model, run_scripted};

    fn tape() -> Tape {
        let mut config = default_config(FormatId::Classic, "Should cities charge cars?", &|_| {
            model("local")
        });
        if let crate::engine::config::FormatOptions::Classic(o) = &mut config.options {
            o.rounds = 1;
        }
        let r = run_scripted(config, serde_json::from_str("{}").unwrap(), Inputs::new());
        Tape::new(r.events)
    }

    #[test]
    fn the_timeline_shows_the_debate_up_to_any_turn_and_each_step_plays_the_next() {
        let t = tape();
        assert!(t.turns() >= 5, "{}", t.turns());
        assert_eq!(
            t.prefix(0).len(),
            1,
            "before the first turn: the start alone"
        );
        assert!(matches!(
            t.prefix(0)[0].kind,
            EventKind::DebateStarted { .. }
        ));
        // Playing each step after its prefix rebuilds the prefix of the next turn.
        for j in 0..t.turns() {
            let step = t.step(j).unwrap();
            let mut played = t.prefix(j).to_vec();
            played.extend_from_slice(step.before);
            played.push(step.finished.clone());
            assert_eq!(played, t.prefix(j + 1), "turn {j}");
            assert!(matches!(step.finished.kind, EventKind::TurnFinished { .. }));
        }
        assert!(t.step(t.turns()).is_none());
        assert!(matches!(
            t.ending().unwrap().kind,
            EventKind::Finished { .. }
        ));
    }

    #[test]
    fn a_turn_streams_in_pieces_that_put_together_are_its_text() {
        let text = "Cut it:  the charge\ncut traffic by 20 percent.";
        for n in [1, 2, 5, 20, 0] {
            assert_eq!(pieces(text, n).concat(), text, "{n} words a piece");
        }
        assert_eq!(pieces(text, 2)[0], "Cut it: ");
    }
}
