//! A classic debate's setup: what each position argues, the style, the rounds, scoring and
//! the fact checker, and who sits in the moderator's and the positions' seats.

use super::typed_number;
use crate::engine::config::{ClassicOptions, ClassicStyle};
use crate::engine::formats::classic;
use crate::engine::DebateConfig;
use crate::session::setup_draft::{SeatPick, Seating};

/// The seats a classic debate always has, as the form names them.
pub const SEATS: [(&str, &str); 3] = [
    (classic::MODERATOR, "Moderator"),
    (classic::POSITION_A, "Position A"),
    (classic::POSITION_B, "Position B"),
];

#[derive(Clone, Debug, PartialEq)]
pub struct ClassicDraft {
    pub stance_a: String,
    pub stance_b: String,
    pub style: ClassicStyle,
    pub rounds: u32,
    pub fact_checker: bool,
    pub scoring: bool,
    /// In the order of `SEATS`.
    pub seats: [SeatPick; 3],
}

impl Default for ClassicDraft {
    fn default() -> Self {
        let d = ClassicOptions::default();
        ClassicDraft {
            stance_a: String::new(),
            stance_b: String::new(),
            style: d.style,
            rounds: d.rounds,
            fact_checker: d.fact_checker,
            scoring: d.scoring,
            seats: Default::default(),
        }
    }
}

impl ClassicDraft {
    /// Whether the debate is scored: formal and competitive debates always are, whatever
    /// the box said.
    pub fn scored(&self) -> bool {
        self.scoring || self.style.always_scored()
    }

    /// The rounds as typed: 1 to 10.
    pub fn set_rounds(&mut self, typed: &str) {
        if let Some(n) = typed_number(typed, 1, 10) {
            self.rounds = n;
        }
    }

    pub fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        let options = ClassicOptions {
            rounds: self.rounds,
            style: self.style,
            fact_checker: self.fact_checker,
            scoring: self.scoring,
            ..Default::default()
        };
        classic::new_config(topic, &self.stance_a, &self.stance_b, options, |id| {
            match SEATS.iter().position(|(s, _)| *s == id) {
                Some(i) => seating.seat(&self.seats[i]),
                // The fact checker runs on the debate's connection.
                None => seating.participant("", ""),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::FormatOptions;
    use crate::session::format_drafts::testing::{on_cloud, person, runs_on, with_seating};

    #[test]
    fn each_seat_runs_where_the_form_says_and_the_checker_on_the_debates_connection() {
        let mut d = ClassicDraft {
            stance_a: "Charge them".into(),
            fact_checker: true,
            ..ClassicDraft::default()
        };
        d.seats[1] = person();
        d.seats[2] = on_cloud("gpt-y");
        d.set_rounds("2");
        let config = with_seating(|s| d.build("Should cities charge cars?", s));
        let seat = |id: &str| runs_on(&config.seat(id).unwrap().participant);
        assert_eq!(seat(classic::POSITION_A), "person");
        assert_eq!(seat(classic::POSITION_B), "cloud/gpt-y");
        assert!(
            seat(classic::MODERATOR).starts_with("local/"),
            "the debate's own"
        );
        assert!(seat(classic::FACT_CHECKER).starts_with("local/"));
        let FormatOptions::Classic(o) = &config.options else {
            panic!()
        };
        assert_eq!(o.rounds, 2);
        assert!(config.topic.contains("charge cars"));
    }

    #[test]
    fn rounds_stay_between_one_and_ten_and_formal_debates_are_always_scored() {
        let mut d = ClassicDraft::default();
        d.set_rounds("40");
        assert_eq!(d.rounds, 10);
        d.set_rounds("none");
        assert_eq!(d.rounds, 10);
        d.scoring = false;
        d.style = ClassicStyle::Formal;
        assert!(d.scored());
        d.style = ClassicStyle::Casual;
        assert!(!d.scored());
    }
}
