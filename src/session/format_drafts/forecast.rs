//! A forecast's setup: the outcomes (two to eight: id, label, description), the roles (the
//! seed's five by default; any but the judge can go, and the user's own can join with a
//! perspective) each on its model, who scores, the rounds, the judge's weight, and the
//! optional context (key variables, a prior, highlights, data gaps).

use super::{lines, typed_number};
use crate::engine::config::{ForecastContext, ForecastOptions, ForecastOutcome, ForecastPrior};
use crate::engine::formats::forecast::{self, role_name, DEFAULT_ROLES, JUDGE};
use crate::engine::DebateConfig;
use crate::session::setup_draft::Seating;

pub const MIN_OUTCOMES: usize = 2;
pub const MAX_OUTCOMES: usize = 8;
/// The seed's five and four of the user's own.
pub const MAX_ROLES: usize = 9;
/// The kind of a role the user adds with a perspective of its own.
pub const CUSTOM: &str = "custom";

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub id: String,
    pub label: String,
    pub description: String,
}

impl Outcome {
    fn new(id: &str, label: &str) -> Self {
        Outcome {
            id: id.into(),
            label: label.into(),
            description: String::new(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Role {
    /// One of `DEFAULT_ROLES`, or `CUSTOM`.
    pub kind: String,
    pub name: String,
    /// What a custom role argues from.
    pub perspective: String,
    /// Empty: the debate's connection.
    pub connection: String,
    pub model: String,
}

impl Role {
    fn new(kind: &str) -> Self {
        Role {
            kind: kind.into(),
            name: role_name(kind),
            ..Role::default()
        }
    }

    pub fn is_custom(&self) -> bool {
        self.kind == CUSTOM
    }

    /// The judge stays: its synthesis is half the forecast.
    pub fn removable(&self) -> bool {
        self.kind != JUDGE
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ForecastDraft {
    pub outcomes: Vec<Outcome>,
    pub roles: Vec<Role>,
    /// Who scores (empty: the judge's model).
    pub analyst_connection: String,
    pub analyst_model: String,
    pub rounds: u32,
    /// 0–100.
    pub judge_weight: u32,
    /// One a line, as typed.
    pub key_variables: String,
    /// One outcome a line: `yes 30`, `yes: 0.3`.
    pub prior: String,
    pub highlights: String,
    pub data_gaps: String,
}

impl Default for ForecastDraft {
    fn default() -> Self {
        ForecastDraft {
            outcomes: vec![Outcome::new("yes", "Yes"), Outcome::new("no", "No")],
            roles: DEFAULT_ROLES.iter().map(|k| Role::new(k)).collect(),
            analyst_connection: String::new(),
            analyst_model: String::new(),
            rounds: 3,
            judge_weight: 60,
            key_variables: String::new(),
            prior: String::new(),
            highlights: String::new(),
            data_gaps: String::new(),
        }
    }
}

impl ForecastDraft {
    pub fn can_add_outcome(&self) -> bool {
        self.outcomes.len() < MAX_OUTCOMES
    }

    pub fn can_remove_outcome(&self) -> bool {
        self.outcomes.len() > MIN_OUTCOMES
    }

    pub fn add_outcome(&mut self) {
        if self.can_add_outcome() {
            let n = self.outcomes.len() + 1;
            self.outcomes.push(Outcome::new(
                &format!("outcome-{n}"),
                &format!("Outcome {n}"),
            ));
        }
    }

    pub fn remove_outcome(&mut self, i: usize) {
        if self.can_remove_outcome() && i < self.outcomes.len() {
            self.outcomes.remove(i);
        }
    }

    /// The seed's roles the user removed, which can be added back.
    pub fn missing_roles(&self) -> Vec<&'static str> {
        DEFAULT_ROLES
            .iter()
            .filter(|k| !self.roles.iter().any(|r| r.kind == **k))
            .copied()
            .collect()
    }

    pub fn can_add_role(&self) -> bool {
        self.roles.len() < MAX_ROLES
    }

    /// One of the seed's roles back (`kind`), or a role of the user's own (`CUSTOM`).
    pub fn add_role(&mut self, kind: &str) {
        if kind == CUSTOM {
            if self.can_add_role() {
                let mut r = Role::new(CUSTOM);
                r.name = format!("Role {}", self.roles.len() + 1);
                self.roles.push(r);
            }
        } else if self.missing_roles().contains(&kind) {
            self.roles.push(Role::new(kind));
        }
    }

    pub fn remove_role(&mut self, i: usize) {
        if self.roles.get(i).is_some_and(Role::removable) {
            self.roles.remove(i);
        }
    }

    /// The rounds as typed: 2 (an opening and a closing) to 10.
    pub fn set_rounds(&mut self, typed: &str) {
        if let Some(n) = typed_number(typed, 2, 10) {
            self.rounds = n;
        }
    }

    pub fn set_judge_weight(&mut self, typed: &str) {
        if let Some(n) = typed_number(typed, 0, 100) {
            self.judge_weight = n;
        }
    }

    /// The options the form describes (roles are added by the config builder). A prior
    /// is read from lines like `yes 30` or `yes: 0.3`; lines that are not are left out.
    pub fn options(&self) -> ForecastOptions {
        let prior = lines(&self.prior)
            .iter()
            .filter_map(|l| {
                let (id, v) = l.rsplit_once([' ', ':', '='])?;
                let v = crate::engine::cost::parse_decimal(v.trim().trim_end_matches('%'))?;
                Some(ForecastPrior {
                    outcome: id.trim().trim_end_matches(':').to_string(),
                    probability: if v > 1.0 { v / 100.0 } else { v },
                })
            })
            .collect();
        ForecastOptions {
            outcomes: self
                .outcomes
                .iter()
                .map(|o| ForecastOutcome {
                    id: o.id.trim().to_string(),
                    label: o.label.trim().to_string(),
                    description: o.description.trim().to_string(),
                })
                .collect(),
            rounds: self.rounds,
            judge_weight: self.judge_weight as f64 / 100.0,
            context: ForecastContext {
                key_variables: lines(&self.key_variables),
                prior,
                highlights: lines(&self.highlights),
                data_gaps: lines(&self.data_gaps),
            },
            ..Default::default()
        }
    }

    pub fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        let roles = self
            .roles
            .iter()
            .map(|r| {
                (
                    r.kind.clone(),
                    r.name.clone(),
                    r.perspective.clone(),
                    seating.participant(&r.connection, &r.model),
                )
            })
            .collect();
        let analyst = (!self.analyst_connection.is_empty())
            .then(|| seating.participant(&self.analyst_connection, &self.analyst_model));
        forecast::new_config(topic, roles, analyst, self.options())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::FormatOptions;
    use crate::session::format_drafts::testing::{runs_on, with_seating};

    #[test]
    fn outcomes_stay_between_two_and_eight_and_the_judge_cannot_be_removed() {
        let mut d = ForecastDraft::default();
        d.remove_outcome(0);
        assert_eq!(d.outcomes.len(), 2);
        for _ in 0..10 {
            d.add_outcome();
        }
        assert_eq!(d.outcomes.len(), MAX_OUTCOMES);
        assert_eq!(d.outcomes[2].id, "outcome-3");
        let judge = d.roles.iter().position(|r| r.kind == JUDGE).unwrap();
        d.remove_role(judge);
        assert!(d.roles.iter().any(|r| r.kind == JUDGE));
        d.remove_role(0);
        assert_eq!(d.missing_roles(), ["optimist"]);
        d.add_role("optimist");
        assert!(d.missing_roles().is_empty());
        d.add_role("optimist");
        assert_eq!(d.roles.len(), 5, "a seed role is there once");
        for _ in 0..10 {
            d.add_role(CUSTOM);
        }
        assert_eq!(d.roles.len(), MAX_ROLES);
        assert_eq!(d.roles[5].name, "Role 6");
    }

    #[test]
    fn the_prior_context_rounds_and_weight_are_read_as_typed() {
        let mut d = ForecastDraft {
            prior: "yes 30\nno: 0.7\nnonsense\n".into(),
            key_variables: "Rates: 4.5%\n\n".into(),
            ..ForecastDraft::default()
        };
        d.set_rounds("1");
        d.set_judge_weight("150");
        let o = d.options();
        assert_eq!(o.rounds, 2);
        assert_eq!(o.judge_weight, 1.0);
        let prior: Vec<(String, f64)> = o
            .context
            .prior
            .iter()
            .map(|p| (p.outcome.clone(), p.probability))
            .collect();
        assert_eq!(prior, [("yes".to_string(), 0.3), ("no".to_string(), 0.7)]);
        assert_eq!(o.context.key_variables, ["Rates: 4.5%"]);
    }

    #[test]
    fn a_custom_role_argues_from_its_perspective_on_its_own_model() {
        let mut d = ForecastDraft::default();
        d.add_role(CUSTOM);
        let r = d.roles.last_mut().unwrap();
        r.perspective = "supply-chain economics".into();
        r.connection = "cloud".into();
        r.model = "gpt-y".into();
        d.analyst_connection = "cloud".into();
        let config = with_seating(|s| d.build("Will the bill pass?", s));
        let seat = config.seats.iter().find(|s| s.name == "Role 6").unwrap();
        assert_eq!(runs_on(&seat.participant), "cloud/gpt-y");
        let FormatOptions::Forecast(o) = &config.options else {
            panic!()
        };
        assert!(
            o.roles
                .iter()
                .any(|r| r.perspective == "supply-chain economics"),
            "{:?}",
            o.roles
        );
        assert_eq!(o.outcomes.len(), 2);
        assert!(config.seats.iter().any(|s| s.id == forecast::ANALYST));
    }
}
