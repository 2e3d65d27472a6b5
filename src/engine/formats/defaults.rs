//! Each format's debate as a new setup starts it: the seats, frameworks, roles and personas
//! the setup screen first offers, with the format's default options. The JS API runs this
//! when a caller names only a format and a topic, and the setup forms start from the same
//! lists.

use super::super::config::{
    ClassicOptions, CouncilOptions, CruxOptions, DebateConfig, DuelogicOptions, ForecastOptions,
    FormatId, Participant,
};
use super::{classic, council, crux, duelogic, forecast};

/// Frameworks offered to new duelogic chairs, in order, so each starts different.
pub const DUELOGIC_FRAMEWORKS: [&str; 6] = [
    "utilitarian",
    "virtue",
    "deontological",
    "pragmatic",
    "precautionary",
    "care",
];

/// How many members a new council seats.
pub const COUNCIL_MEMBERS: usize = 3;

/// The personas a new crux debate seats (ids in the built-in catalogue).
pub const CRUX_PERSONAS: [&str; 2] = ["actuary", "founder"];

/// The default debate of `format` on `topic`, every seat filled by `participant(seat id)`.
pub fn default_config(
    format: FormatId,
    topic: &str,
    participant: &dyn Fn(&str) -> Participant,
) -> DebateConfig {
    // Seat ids are decided by each format's builder; the seats are filled after it.
    let blank = || Participant::Human;
    let mut config = match format {
        FormatId::Classic => {
            classic::new_config(topic, "", "", ClassicOptions::default(), |_| blank())
        }
        FormatId::Duelogic => duelogic::new_config(
            topic,
            DUELOGIC_FRAMEWORKS[..2]
                .iter()
                .enumerate()
                .map(|(i, f)| (format!("Chair {}", i + 1), f.to_string(), blank()))
                .collect(),
            blank(),
            None,
            DuelogicOptions::default(),
        ),
        FormatId::Forecast => forecast::new_config(
            topic,
            forecast::DEFAULT_ROLES
                .iter()
                .map(|k| {
                    (
                        k.to_string(),
                        forecast::role_name(k),
                        String::new(),
                        blank(),
                    )
                })
                .collect(),
            None,
            ForecastOptions {
                outcomes: forecast::default_outcomes(),
                ..Default::default()
            },
        ),
        FormatId::Crux => {
            let catalogue = crux::persona::catalogue();
            let personas = CRUX_PERSONAS
                .iter()
                .filter_map(|id| catalogue.iter().find(|c| c.id == *id).cloned())
                .map(|c| (c, blank()))
                .collect();
            crux::new_config(topic, personas, blank(), CruxOptions::default())
        }
        FormatId::Council => council::new_config(
            topic,
            (0..COUNCIL_MEMBERS)
                .map(|i| (format!("Member {}", i + 1), blank()))
                .collect(),
            blank(),
            blank(),
            CouncilOptions::default(),
        ),
        #[cfg(test)]
        FormatId::Probe => unreachable!("the probe has no default debate"),
    };
    for seat in &mut config.seats {
        seat.participant = participant(&seat.id);
    }
    config
}

#[cfg(test)]
mod tests {
    use super::super::testing::scripted::{model, run_scripted};
    use super::*;
    use crate::engine::context::Inputs;
    use crate::engine::event::{EventKind, Outcome};
    use crate::engine::script::Script;

    /// What the API runs for a bare format and topic is a whole, valid debate of that
    /// format: it validates, runs to the end on a scripted model, and records findings.
    #[test]
    fn every_format_default_debate_runs_to_the_end() {
        for format in [
            FormatId::Classic,
            FormatId::Duelogic,
            FormatId::Forecast,
            FormatId::Crux,
            FormatId::Council,
        ] {
            let config = default_config(format, "  Should cities ban cars?  ", &|_| model("c"));
            assert_eq!(config.format(), format);
            assert_eq!(config.topic, "Should cities ban cars?");
            config
                .validate()
                .unwrap_or_else(|e| panic!("{format:?}: {e}"));
            assert!(config
                .seats
                .iter()
                .all(|s| matches!(s.participant, Participant::Model { .. })));
            let run = run_scripted(config, Script::default(), Inputs::new());
            assert_eq!(run.outcome, Outcome::Completed, "{format:?}");
            let turns = run
                .events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::TurnFinished { .. }))
                .count();
            assert!(turns >= 4, "{format:?} made {turns} turns");
            // With no script, structured calls get answers that fit their schemas: every
            // finding is read, none is "not scored".
            let findings: Vec<&str> = run
                .events
                .iter()
                .filter_map(|e| match &e.kind {
                    EventKind::FindingRecorded(f) => Some(f.body.label()),
                    _ => None,
                })
                .collect();
            assert!(!findings.contains(&"Unscored"), "{format:?}: {findings:?}");
            let expected = match format {
                FormatId::Duelogic => "Evaluation",
                FormatId::Crux => "Crux card",
                FormatId::Forecast => "Forecast",
                FormatId::Council => "Was the debate worth it?",
                // The default style is formal, which is always scored.
                FormatId::Classic | FormatId::Probe => "Score",
            };
            assert!(
                findings.iter().any(|f| f.contains(expected)),
                "{format:?}: {findings:?}"
            );
        }
    }

    #[test]
    fn only_model_seats_that_argue_in_free_text_may_search_the_web() {
        let searching = |format, person: &'static str| {
            let config = default_config(format, "t", &|seat| {
                if seat == person {
                    Participant::Human
                } else {
                    model("c")
                }
            });
            super::super::searching_seats(&config)
                .into_iter()
                .map(|s| s.id.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            searching(FormatId::Classic, ""),
            ["position-a", "position-b"]
        );
        assert_eq!(searching(FormatId::Duelogic, "chair-2"), ["chair-1"]);
        assert!(searching(FormatId::Forecast, "").is_empty());
        let crux = searching(FormatId::Crux, "");
        assert!(!crux.is_empty() && !crux.iter().any(|s| s == "analyst"));
    }

    #[test]
    fn seats_are_filled_by_their_id() {
        let config = default_config(FormatId::Duelogic, "t", &|seat| {
            if seat == "chair-2" {
                Participant::Human
            } else {
                model("c")
            }
        });
        let ids: Vec<&str> = config.seats.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["arbiter", "chair-1", "chair-2"]);
        assert_eq!(
            config.seat("chair-2").unwrap().participant,
            Participant::Human
        );
        assert_eq!(
            config.seat("chair-1").unwrap().stance.as_deref(),
            Some("Utilitarianism")
        );
    }
}
