//! The calls each format plans to make, from its configuration alone: the progress line
//! counts them and the cost estimate prices them before a debate starts. Calls of the same
//! `stage` may run at once; a stage starts when the one before it has ended, which is also
//! what a format's critical path is measured against.
//!
//! Classic's plan is exact. Duelogic's leaves out interjections and interruptions (they
//! depend on what is said), crux's counts one crux room per aspect at its longest, so both
//! are what a debate is expected to make, not a bound on it.

use super::super::config::{Accountability, DebateConfig, FormatOptions};
use super::super::cost::PlannedCall;

/// Seats by role in formats whose seats are the roles themselves: the seat named `id` if
/// the debate has it, else every seat but the analyst's (a chair, a forecasting role, a
/// persona). Used by the forecast and crux plans, which are test-only for now.
#[cfg(test)]
fn speakers<'a>(config: &'a DebateConfig, leading: &str) -> Vec<&'a str> {
    config
        .seats
        .iter()
        .map(|s| s.id.as_str())
        .filter(|id| *id != leading && *id != config.analyst)
        .collect()
}

struct Plan {
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
    fn together<'s>(&mut self, seats: impl IntoIterator<Item = &'s str>, max_tokens: u32) {
        for seat in seats {
            self.calls.push(PlannedCall {
                seat: seat.to_string(),
                max_tokens,
                stage: self.stage,
            });
        }
        self.stage += 1;
    }
    fn one(&mut self, seat: &str, max_tokens: u32) {
        self.together([seat], max_tokens);
    }
}

pub fn plan(config: &DebateConfig) -> Vec<PlannedCall> {
    let analyst = config.analyst.as_str();
    let mut p = Plan::new();
    match &config.options {
        FormatOptions::Classic(o) => {
            use super::classic as c;
            let (m, a, b) = (c::MODERATOR, c::POSITION_A, c::POSITION_B);
            // A position's turn, then its fact check when there is a fact checker.
            let position = |p: &mut Plan, seat: &str, tokens: u32| {
                p.one(seat, tokens);
                if o.fact_checker {
                    p.one(c::FACT_CHECKER, 400);
                }
            };
            p.one(m, o.summary_tokens);
            position(&mut p, a, o.opening_tokens);
            position(&mut p, b, o.opening_tokens);
            for _ in 0..o.rounds {
                for seat in [a, b, b, a] {
                    position(&mut p, seat, o.argument_tokens);
                }
                p.one(m, o.summary_tokens);
            }
            position(&mut p, a, o.closing_tokens);
            position(&mut p, b, o.closing_tokens);
            if o.scoring {
                p.one(analyst, 500);
                p.one(analyst, 500);
            }
            p.one(m, o.summary_tokens);
        }
        FormatOptions::Duelogic(o) => {
            // The Arbiter's introduction; each chair's response, then its evaluation on the
            // analyst seat (none when accountability is relaxed); the closing synthesis.
            use super::duelogic as d;
            p.one(d::ARBITER, d::INTRO_TOKENS);
            for _ in 0..o.rounds {
                for chair in &o.chairs {
                    p.one(&chair.seat, d::TURN_TOKENS);
                    if o.accountability != Accountability::Relaxed {
                        p.one(analyst, d::EVALUATION_TOKENS);
                    }
                }
            }
            p.one(d::ARBITER, d::CLOSING_TOKENS);
        }
        #[cfg(test)]
        FormatOptions::Forecast(o) => {
            // Seed 001: every role argues in parallel within a round and each argument is
            // scored; the judge's synthesis waits for all of them.
            let roles = speakers(config, "");
            for _ in 0..o.rounds {
                p.together(roles.iter().copied(), o.argument_output_tokens);
                p.together(roles.iter().map(|_| analyst), 300);
            }
            p.one(
                if roles.contains(&"judge") {
                    "judge"
                } else {
                    analyst
                },
                1200,
            );
        }
        #[cfg(test)]
        FormatOptions::Crux(o) => {
            // Seed 004: decomposition; openings; per aspect three minirounds, a summary and
            // disagreement detection; a crux room (two statements, the exchange, its exit
            // checks, the convergence check and the card); closings; shifts; the summary.
            let personas = speakers(config, "");
            p.one(analyst, 600);
            p.together(personas.iter().copied(), 300);
            for _ in 0..o.aspects {
                for _ in 0..3 {
                    p.together(personas.iter().copied(), 300);
                }
                p.one(analyst, 500);
                p.one(analyst, 500);
                p.together(personas.iter().take(2).copied(), 300);
                for turn in 0..o.max_exchanges {
                    p.one(personas[turn as usize % personas.len().max(1)], 200);
                    if turn >= 3 && turn % 2 == 1 {
                        p.one(analyst, 300);
                    }
                }
                p.one(analyst, 300);
                p.one(analyst, 800);
            }
            p.together(personas.iter().copied(), 400);
            p.one(analyst, 800);
            p.one(analyst, 1500);
        }
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
    use crate::engine::config::{DuelogicOptions, ForecastOptions, Participant, SeatConfig};

    fn config(seats: &[&str], analyst: &str, options: FormatOptions) -> DebateConfig {
        DebateConfig {
            topic: "t".into(),
            seats: seats
                .iter()
                .map(|id| SeatConfig {
                    id: id.to_string(),
                    name: id.to_string(),
                    stance: None,
                    participant: Participant::Human,
                })
                .collect(),
            analyst: analyst.into(),
            options,
            spending_cap: None,
            forked_from: None,
        }
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
        // Intro, 3 rounds × 2 chairs × (response + evaluation), closing.
        assert_eq!(strict.len(), 1 + 3 * 2 * 2 + 1);
        o.accountability = Accountability::Relaxed;
        let relaxed = plan(&config(&seats, "analyst", FormatOptions::Duelogic(o)));
        assert_eq!(relaxed.len(), 1 + 3 * 2 + 1);
    }
}
