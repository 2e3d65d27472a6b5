//! The calls each format plans to make, from its configuration alone: the progress line
//! counts them and the cost estimate prices them before a debate starts. Calls of the same
//! `stage` may run at once; a stage starts when the one before it has ended, which is also
//! what a format's critical path is measured against.
//!
//! Classic's plan is exact. Duelogic's leaves out interjections and interruptions (they
//! depend on what is said), crux's counts one crux room per aspect at its longest, so both
//! are what a debate is expected to make, not a bound on it.

use super::super::config::{DebateConfig, FormatOptions};
use super::super::cost::PlannedCall;

/// Seats by role in formats whose seats are the roles themselves: the seat named `id` if
/// the debate has it, else every seat but the analyst's (a chair, a forecasting role, a
/// persona).
pub(super) fn speakers<'a>(config: &'a DebateConfig, leading: &str) -> Vec<&'a str> {
    config
        .seats
        .iter()
        .map(|s| s.id.as_str())
        .filter(|id| *id != leading && *id != config.analyst)
        .collect()
}

pub(super) struct Plan {
    calls: Vec<PlannedCall>,
    stage: u32,
}

impl Plan {
    fn new() -> Self {
        Plan {
            calls: Vec::new(),
            stage: 0,
        }
    }
    /// Calls that run together in one stage.
    pub(super) fn together<'s>(
        &mut self,
        seats: impl IntoIterator<Item = &'s str>,
        max_tokens: u32,
    ) {
        self.together_mixed(seats.into_iter().map(|s| (s, max_tokens)));
    }
    /// Calls of different sizes that run together in one stage.
    pub(super) fn together_mixed<'s>(&mut self, calls: impl IntoIterator<Item = (&'s str, u32)>) {
        for (seat, max_tokens) in calls {
            self.calls.push(PlannedCall {
                seat: seat.to_string(),
                max_tokens,
                stage: self.stage,
            });
        }
        self.stage += 1;
    }
    pub(super) fn one(&mut self, seat: &str, max_tokens: u32) {
        self.together([seat], max_tokens);
    }
}

pub fn plan(config: &DebateConfig) -> Vec<PlannedCall> {
    let mut p = Plan::new();
    match &config.options {
        FormatOptions::Classic(o) => super::classic::plan::plan(config, o, &mut p),
        FormatOptions::Duelogic(o) => super::duelogic::plan::plan(config, o, &mut p),
        FormatOptions::Forecast(o) => super::forecast::plan::plan(config, o, &mut p),
        FormatOptions::Crux(o) => super::crux::plan::plan(config, o, &mut p),
        FormatOptions::Council(o) => super::council::plan::plan(config, o, &mut p),
        #[cfg(test)]
        FormatOptions::Probe => {}
    }
    p.calls
}

/// Stages of a plan in order: how many calls each holds, for a critical path that lets
/// the calls of a stage run at once.
pub fn stages(plan: &[PlannedCall]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for c in plan {
        let i = c.stage as usize;
        if out.len() <= i {
            out.resize(i + 1, 0);
        }
        out[i] += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::{
        Accountability, DuelogicOptions, ForecastOptions, Participant, SeatConfig,
    };

    fn config(seats: &[&str], analyst: &str, options: FormatOptions) -> DebateConfig {
        DebateConfig::new(
            "t",
            seats
                .iter()
                .map(|id| SeatConfig {
                    id: id.to_string(),
                    name: id.to_string(),
                    stance: None,
                    participant: Participant::Human,
                })
                .collect(),
            analyst,
            options,
        )
    }

    #[test]
    fn a_forecast_plans_the_seeds_31_calls_in_parallel_rounds() {
        let roles = [
            "optimist",
            "pessimist",
            "contrarian",
            "historian",
            "judge",
            "analyst",
        ];
        let c = config(
            &roles,
            "analyst",
            FormatOptions::Forecast(ForecastOptions::default()),
        );
        let p = plan(&c);
        assert_eq!(p.len(), 31);
        assert_eq!(stages(&p), vec![5, 5, 5, 5, 5, 5, 1]);
        assert_eq!(p.last().unwrap().seat, "judge");
    }

    #[test]
    fn duelogic_evaluates_every_response_unless_accountability_is_relaxed() {
        let seats = ["arbiter", "chair-1", "chair-2", "analyst"];
        let chairs = |o: &mut DuelogicOptions| {
            for seat in ["chair-1", "chair-2"] {
                o.chairs.push(crate::engine::config::Chair {
                    seat: seat.into(),
                    framework: "care".into(),
                });
            }
        };
        let mut o = DuelogicOptions::default();
        chairs(&mut o);
        let strict = plan(&config(
            &seats,
            "analyst",
            FormatOptions::Duelogic(o.clone()),
        ));
        // Intro, 2 rounds × 2 chairs × (response + evaluation), closing.
        assert_eq!(strict.len(), 1 + 2 * 2 * 2 + 1);
        o.accountability = Accountability::Relaxed;
        let relaxed = plan(&config(&seats, "analyst", FormatOptions::Duelogic(o)));
        assert_eq!(relaxed.len(), 1 + 2 * 2 + 1);
    }

    #[test]
    fn crux_plans_one_room_per_aspect_at_its_longest() {
        use crate::engine::config::CruxOptions;
        use crate::engine::formats::crux::persona::{catalogue, CruxPersona};
        let mut o = CruxOptions::default();
        for (i, c) in catalogue().into_iter().take(2).enumerate() {
            o.personas
                .push(CruxPersona::new(format!("persona-{}", i + 1), &c));
        }
        let p = plan(&config(
            &["persona-1", "persona-2", "analyst"],
            "analyst",
            FormatOptions::Crux(o),
        ));
        // 1 + 2 + 3 × (3×2 + 2 + 2 + 14 + 6 + 2) + 2 + 2.
        assert_eq!(p.len(), 1 + 2 + 3 * (6 + 2 + 2 + 14 + 6 + 2) + 2 + 2);
        assert_eq!(p.last().unwrap().max_tokens, 1500);
    }
}
