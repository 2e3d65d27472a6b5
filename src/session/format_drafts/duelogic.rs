//! A duelogic episode's setup: the chairs (2 to 6, in speaking order) with their
//! frameworks and who sits in each, who hosts and who evaluates, accountability,
//! interruptions, the podcast's name, and frameworks of the user's own.

use super::{lines, typed_number};
use crate::engine::config::{DuelogicOptions, Framework};
use crate::engine::formats::defaults::DUELOGIC_FRAMEWORKS as DEFAULT_FRAMEWORKS;
use crate::engine::formats::duelogic::{self, frameworks};
use crate::engine::DebateConfig;
use crate::session::setup_draft::{SeatPick, Seating};

pub const MIN_CHAIRS: usize = 2;
pub const MAX_CHAIRS: usize = 6;

/// One chair: its name, framework (an id), and who sits in it (a model, or the user, who
/// then types the chair's turns).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chair {
    pub name: String,
    pub framework: String,
    pub seat: SeatPick,
}

impl Chair {
    /// The `n`-th chair, on the framework the defaults give that place.
    fn numbered(n: usize) -> Self {
        Chair {
            name: format!("Chair {n}"),
            framework: DEFAULT_FRAMEWORKS[(n - 1) % DEFAULT_FRAMEWORKS.len()].to_string(),
            seat: SeatPick::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct DuelogicDraft {
    pub chairs: Vec<Chair>,
    /// The Arbiter's connection and model (empty: the debate's).
    pub arbiter_connection: String,
    pub arbiter_model: String,
    /// Who evaluates (empty: the Arbiter).
    pub analyst_connection: String,
    pub analyst_model: String,
    /// Everything else the episode is run with; its `chairs` are added by `build`, and its
    /// `frameworks` are the user's own, kept on this device.
    pub options: DuelogicOptions,
}

impl DuelogicDraft {
    /// The defaults, with the user's own frameworks offered beside the catalogue's.
    pub fn new(custom: Vec<Framework>) -> Self {
        DuelogicDraft {
            chairs: vec![Chair::numbered(1), Chair::numbered(2)],
            arbiter_connection: String::new(),
            arbiter_model: String::new(),
            analyst_connection: String::new(),
            analyst_model: String::new(),
            options: DuelogicOptions {
                frameworks: custom,
                ..DuelogicOptions::default()
            },
        }
    }

    pub fn can_add(&self) -> bool {
        self.chairs.len() < MAX_CHAIRS
    }

    pub fn can_remove(&self) -> bool {
        self.chairs.len() > MIN_CHAIRS
    }

    pub fn add(&mut self) {
        if self.can_add() {
            self.chairs.push(Chair::numbered(self.chairs.len() + 1));
        }
    }

    pub fn remove(&mut self, i: usize) {
        if self.can_remove() && i < self.chairs.len() {
            self.chairs.remove(i);
        }
    }

    /// Every framework a chair can take: the user's own first, then the catalogue's.
    pub fn frameworks(&self) -> Vec<Framework> {
        let mut all = self.options.frameworks.clone();
        all.extend(frameworks::catalogue());
        all
    }

    /// Keeps a framework of the user's own (replacing one of its id); the caller saves
    /// `options.frameworks` on the device.
    pub fn keep(&mut self, f: Framework) {
        self.options.frameworks.retain(|x| x.id != f.id);
        self.options.frameworks.push(f);
    }

    pub fn set_rounds(&mut self, typed: &str) {
        if let Some(n) = typed_number(typed, 1, 10) {
            self.options.rounds = n;
        }
    }

    pub fn set_aggressiveness(&mut self, typed: &str) {
        if let Some(n) = typed_number(typed, 1, 5) {
            self.options.aggressiveness = n;
        }
    }

    pub fn set_cooldown(&mut self, typed: &str) {
        if let Some(n) = typed_number(typed, 0, 3600) {
            self.options.cooldown_s = n;
        }
    }

    pub fn set_episode(&mut self, typed: &str) {
        if let Some(n) = typed_number(typed, 1, 99_999) {
            self.options.episode = n;
        }
    }

    pub fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        let chairs = self
            .chairs
            .iter()
            .map(|c| (c.name.clone(), c.framework.clone(), seating.seat(&c.seat)))
            .collect();
        let arbiter = seating.participant(&self.arbiter_connection, &self.arbiter_model);
        let analyst = (!self.analyst_connection.is_empty())
            .then(|| seating.participant(&self.analyst_connection, &self.analyst_model));
        duelogic::new_config(topic, chairs, arbiter, analyst, self.options.clone())
    }
}

/// "Add your own framework", as typed: checked like the catalogue's before it is kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameworkDraft {
    pub name: String,
    pub description: String,
    pub question: String,
    /// One a line.
    pub strengths: String,
    pub blind_spots: String,
}

impl FrameworkDraft {
    /// The framework typed, its id made from its name (`own-…`), or what is missing.
    pub fn framework(&self) -> Result<Framework, String> {
        let name = self.name.trim().to_string();
        let id = format!(
            "own-{}",
            name.chars()
                .map(|c| if c.is_alphanumeric() { c } else { '-' })
                .collect::<String>()
        );
        let f = Framework {
            id,
            name,
            description: self.description.trim().to_string(),
            core_question: self.question.trim().to_string(),
            strengths: lines(&self.strengths),
            blind_spots: lines(&self.blind_spots),
        };
        frameworks::validate(&f)?;
        Ok(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::FormatOptions;
    use crate::session::format_drafts::testing::{on_cloud, person, runs_on, with_seating};

    fn own() -> FrameworkDraft {
        FrameworkDraft {
            name: "Care ethics".into(),
            description: "Moral life is a web of relationships and the duties they bring.".into(),
            question: "What do we owe those who depend on us?".into(),
            strengths: "Sees dependency\n\nSees context".into(),
            blind_spots: "Strangers far away".into(),
        }
    }

    #[test]
    fn chairs_stay_between_two_and_six_each_new_one_on_the_next_default_framework() {
        let mut d = DuelogicDraft::new(Vec::new());
        d.remove(0);
        assert_eq!(d.chairs.len(), MIN_CHAIRS);
        for _ in 0..10 {
            d.add();
        }
        assert_eq!(d.chairs.len(), MAX_CHAIRS);
        assert_eq!(d.chairs[2].name, "Chair 3");
        assert_eq!(
            d.chairs[2].framework,
            DEFAULT_FRAMEWORKS[2 % DEFAULT_FRAMEWORKS.len()]
        );
        d.set_aggressiveness("9");
        d.set_cooldown("-5");
        d.set_episode("0");
        let kept = DuelogicOptions::default().cooldown_s;
        let o = &d.options;
        assert_eq!((o.aggressiveness, o.cooldown_s, o.episode), (5, kept, 1));
    }

    #[test]
    fn a_framework_of_the_users_own_is_checked_kept_once_and_offered_first() {
        let f = own().framework().unwrap();
        assert_eq!(f.id, "own-Care-ethics");
        assert_eq!(f.strengths, ["Sees dependency", "Sees context"]);
        let mut d = DuelogicDraft::new(Vec::new());
        d.keep(f.clone());
        d.keep(f.clone());
        assert_eq!(d.options.frameworks.len(), 1);
        assert_eq!(d.frameworks()[0].id, f.id);
        let nameless = FrameworkDraft {
            name: " ".into(),
            ..own()
        };
        assert!(nameless.framework().is_err());
    }

    #[test]
    fn chairs_the_arbiter_and_the_analyst_sit_where_the_form_says() {
        let mut d = DuelogicDraft::new(vec![own().framework().unwrap()]);
        d.chairs[0].seat = person();
        d.chairs[1].seat = on_cloud("gpt-y");
        d.chairs[1].framework = "own-Care-ethics".into();
        d.analyst_connection = "cloud".into();
        d.analyst_model = "gpt-z".into();
        d.set_rounds("2");
        let config = with_seating(|s| d.build("Should voting be compulsory?", s));
        let by_name = |n: &str| {
            runs_on(
                &config
                    .seats
                    .iter()
                    .find(|s| s.name == n)
                    .unwrap()
                    .participant,
            )
        };
        assert_eq!(by_name("Chair 1"), "person");
        assert_eq!(by_name("Chair 2"), "cloud/gpt-y");
        assert!(by_name("The Arbiter").starts_with("local/"));
        let FormatOptions::Duelogic(o) = &config.options else {
            panic!()
        };
        assert_eq!(o.rounds, 2);
        assert_eq!(o.chairs[1].framework, "own-Care-ethics");
        assert_eq!(
            o.frameworks.len(),
            1,
            "the user's framework travels with the debate"
        );
        assert!(config
            .seats
            .iter()
            .any(|s| runs_on(&s.participant) == "cloud/gpt-z"));
    }
}
