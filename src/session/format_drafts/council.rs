//! A council's setup: the members (two to eight, each named, each on a model of its own or
//! taken by the user), the chair, who analyses, and whether members revise once.

use crate::engine::config::CouncilOptions;
use crate::engine::formats::council::{self, MAX_MEMBERS, MIN_MEMBERS};
use crate::engine::formats::defaults::COUNCIL_MEMBERS;
use crate::engine::DebateConfig;
use crate::session::setup_draft::{SeatPick, Seating};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Member {
    /// Empty: "Member n".
    pub name: String,
    pub seat: SeatPick,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CouncilDraft {
    pub members: Vec<Member>,
    pub chair: SeatPick,
    pub analyst: SeatPick,
    pub second_round: bool,
}

impl Default for CouncilDraft {
    fn default() -> Self {
        CouncilDraft {
            members: vec![Member::default(); COUNCIL_MEMBERS],
            chair: SeatPick::default(),
            analyst: SeatPick::default(),
            second_round: CouncilOptions::default().second_round,
        }
    }
}

impl CouncilDraft {
    pub fn can_add(&self) -> bool {
        self.members.len() < MAX_MEMBERS
    }

    pub fn can_remove(&self) -> bool {
        self.members.len() > MIN_MEMBERS
    }

    pub fn add(&mut self) {
        if self.can_add() {
            self.members.push(Member::default());
        }
    }

    pub fn remove(&mut self, i: usize) {
        if self.can_remove() && i < self.members.len() {
            self.members.remove(i);
        }
    }

    /// The `i`-th member's name as the form shows it.
    pub fn name(&self, i: usize) -> String {
        match self.members.get(i) {
            Some(m) if !m.name.trim().is_empty() => m.name.clone(),
            _ => format!("Member {}", i + 1),
        }
    }

    pub fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        council::new_config(
            topic,
            self.members
                .iter()
                .map(|m| (m.name.clone(), seating.seat(&m.seat)))
                .collect(),
            seating.seat(&self.chair),
            seating.seat(&self.analyst),
            CouncilOptions {
                second_round: self.second_round,
                ..Default::default()
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::FormatOptions;
    use crate::session::format_drafts::testing::{on_cloud, person, runs_on, with_seating};

    #[test]
    fn members_stay_between_two_and_eight_and_an_unnamed_one_is_numbered() {
        let mut d = CouncilDraft::default();
        assert_eq!(d.members.len(), COUNCIL_MEMBERS);
        while d.can_remove() {
            d.remove(0);
        }
        d.remove(0);
        assert_eq!(d.members.len(), MIN_MEMBERS);
        for _ in 0..20 {
            d.add();
        }
        assert_eq!(d.members.len(), MAX_MEMBERS);
        d.members[2].name = "Economist".into();
        assert_eq!(
            (d.name(2), d.name(3)),
            ("Economist".into(), "Member 4".into())
        );
    }

    #[test]
    fn members_chair_and_analyst_sit_where_the_form_says() {
        let mut d = CouncilDraft {
            second_round: true,
            ..CouncilDraft::default()
        };
        d.members.truncate(2);
        d.members[0] = Member {
            name: "Economist".into(),
            seat: on_cloud("gpt-y"),
        };
        d.members[1].seat = person();
        d.chair = on_cloud("gpt-z");
        let config = with_seating(|s| d.build("Should we work four days?", s));
        let members: Vec<(String, String)> = config
            .seats
            .iter()
            .filter(|s| s.id.starts_with("member"))
            .map(|s| (s.name.clone(), runs_on(&s.participant)))
            .collect();
        assert_eq!(members[0], ("Economist".into(), "cloud/gpt-y".into()));
        assert_eq!(members[1].1, "person");
        assert_eq!(members.len(), 2);
        let chair = config.seats.iter().find(|s| s.id == "chair").unwrap();
        assert_eq!(runs_on(&chair.participant), "cloud/gpt-z");
        let FormatOptions::Council(o) = &config.options else {
            panic!()
        };
        assert!(o.second_round);
    }
}
