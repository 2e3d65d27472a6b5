//! The form that resolves a finished forecast, as plain data: the outcome the user picks
//! (or the value observed, for a question whose outcomes are ranges, which picks the range
//! it falls in), when, and a note; read into the `Resolution` the debate's log keeps.
//! `ui::formats::forecast::resolve` binds to it.

use crate::engine::config::{DebateConfig, FormatOptions};
use crate::engine::cost::short;
use crate::engine::formats::forecast::ledger::{self, Resolution};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResolveDraft {
    /// The forecast's outcomes: (id, label).
    pub outcomes: Vec<(String, String)>,
    /// The outcome's id; empty until one is picked.
    pub picked: String,
    /// The value observed, as typed.
    pub value: String,
    /// When it happened (`2027-03-31`).
    pub on: String,
    pub note: String,
}

impl ResolveDraft {
    /// An empty form for `config`'s outcomes (none: not a forecast), dated `today`.
    pub fn new(config: Option<&DebateConfig>, today: String) -> Self {
        let outcomes = match config.map(|c| &c.options) {
            Some(FormatOptions::Forecast(o)) => o
                .outcomes
                .iter()
                .map(|x| (x.id.clone(), x.label.clone()))
                .collect(),
            _ => Vec::new(),
        };
        Self {
            outcomes,
            on: today,
            ..Self::default()
        }
    }

    /// The form filled with a recorded resolution, to correct it.
    pub fn correcting(self, r: &Resolution) -> Self {
        Self {
            picked: r.outcome.clone(),
            value: r.value.map(short).unwrap_or_default(),
            on: r.on.clone(),
            note: r.note.clone(),
            ..self
        }
    }

    /// Whether the outcomes are ranges ("Under 2%", "2–3%"), so a value can resolve them.
    pub fn numeric(&self) -> bool {
        self.outcomes
            .iter()
            .filter(|(_, l)| ledger::range(l).is_some())
            .count()
            >= 2
    }

    /// The value typed; a value inside exactly one range picks that outcome.
    pub fn set_value(&mut self, typed: String) {
        if let Some(id) =
            ledger::value(&typed).and_then(|x| ledger::outcome_for_value(&self.outcomes, x))
        {
            self.picked = id;
        }
        self.value = typed;
    }

    /// An outcome's label by its id (the id itself for one the forecast no longer has).
    pub fn label_of(&self, id: &str) -> String {
        self.outcomes
            .iter()
            .find(|(o, _)| o == id)
            .map_or(id.to_string(), |(_, l)| l.clone())
    }

    /// The resolution to record, or what to fix first.
    pub fn resolution(&self) -> Result<Resolution, String> {
        if self.picked.is_empty() {
            return Err("Pick the outcome that happened.".into());
        }
        let value = match self.value.trim() {
            "" => None,
            typed => {
                Some(ledger::value(typed).ok_or_else(|| format!("\"{typed}\" is not a number."))?)
            }
        };
        Ok(Resolution {
            outcome: self.picked.clone(),
            value,
            on: self.on.clone(),
            note: self.note.trim().to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges() -> ResolveDraft {
        ResolveDraft {
            outcomes: [("low", "Under 2%"), ("mid", "2–3%"), ("high", "Above 3%")]
                .map(|(i, l)| (i.to_string(), l.to_string()))
                .to_vec(),
            on: "2027-03-31".into(),
            ..ResolveDraft::default()
        }
    }

    #[test]
    fn a_forecasts_outcomes_are_offered_and_any_other_debate_has_none() {
        use crate::engine::config::{FormatId, Participant};
        use crate::engine::formats::default_config;
        let person = |_: &str| Participant::Human;
        let config = default_config(FormatId::Forecast, "Will inflation be under 2%?", &person);
        let draft = ResolveDraft::new(Some(&config), "2026-12-07".into());
        assert!(!draft.outcomes.is_empty());
        assert_eq!(draft.on, "2026-12-07");
        let classic = default_config(FormatId::Classic, "t", &person);
        assert!(ResolveDraft::new(Some(&classic), String::new())
            .outcomes
            .is_empty());
        assert!(ResolveDraft::new(None, String::new()).outcomes.is_empty());
    }

    #[test]
    fn a_value_observed_picks_the_range_it_falls_in_and_is_recorded() {
        let mut draft = ranges();
        assert!(draft.numeric());
        draft.set_value("2.4%".into());
        assert_eq!(draft.picked, "mid");
        draft.note = "  ONS, March release ".into();
        assert_eq!(
            draft.resolution().unwrap(),
            Resolution {
                outcome: "mid".into(),
                value: Some(2.4),
                on: "2027-03-31".into(),
                note: "ONS, March release".into()
            }
        );
        // A value no range holds leaves the pick as it was.
        draft.set_value("abc".into());
        assert_eq!(draft.picked, "mid");
    }

    #[test]
    fn nothing_is_recorded_without_an_outcome_or_with_a_value_that_is_not_a_number() {
        let mut draft = ranges();
        assert_eq!(
            draft.resolution().unwrap_err(),
            "Pick the outcome that happened."
        );
        draft.picked = "high".into();
        draft.value = "a lot".into();
        assert_eq!(
            draft.resolution().unwrap_err(),
            "\"a lot\" is not a number."
        );
        draft.value = " ".into();
        assert_eq!(draft.resolution().unwrap().value, None);
    }

    #[test]
    fn correcting_fills_the_form_with_what_was_recorded() {
        let r = Resolution {
            outcome: "low".into(),
            value: Some(1.75),
            on: "2027-01-02".into(),
            note: "BLS".into(),
        };
        let draft = ranges().correcting(&r);
        assert_eq!(
            (draft.picked.as_str(), draft.value.as_str()),
            ("low", "1.75")
        );
        assert_eq!(draft.resolution().unwrap(), r);
        assert_eq!(draft.label_of("low"), "Under 2%");
        assert_eq!(draft.label_of("gone"), "gone");
        // Outcomes that are not ranges cannot be resolved by a value.
        let words = ResolveDraft {
            outcomes: vec![("yes".into(), "Yes".into()), ("no".into(), "No".into())],
            ..ResolveDraft::default()
        };
        assert!(!words.numeric());
    }
}
