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
        FormatOptions::Forecast(o) => {
            // Seed 001: every role argues in parallel within a round and each argument is
            // scored as soon as it is in; the next round waits for the last score (an
            // argument under 0.2 is regenerated first), the judge's synthesis for all.
            let roles: Vec<&str> = if o.roles.is_empty() {
                speakers(config, "")
            } else {
                o.roles.iter().map(|r| r.seat.as_str()).collect()
            };
            for _ in 0..o.rounds {
                p.together(roles.iter().copied(), o.argument_output_tokens);
                p.together(roles.iter().map(|_| analyst), o.scoring_output_tokens);
            }
            p.one(
                if roles.contains(&"judge") {
                    "judge"
                } else {
                    analyst
                },
                o.synthesis_output_tokens,
            );
        }
        FormatOptions::Crux(o) => {
            // Seed 004: decomposition; openings; per aspect three minirounds, a summary and
            // the disagreement detection, then a crux room at its longest (two statements,
            // the exchange with its exit checks, the convergence check and the card);
            // closings; shifts; the summary.
            use super::crux as c;
            let personas: Vec<&str> = o.personas.iter().map(|p| p.seat.as_str()).collect();
            p.one(analyst, c::DECOMPOSE_TOKENS);
            p.together(personas.iter().copied(), c::OPENING_TOKENS);
            for _ in 0..o.aspects {
                for _ in 0..c::MINIROUNDS {
                    p.together(personas.iter().copied(), c::TAKE_TOKENS);
                }
                p.one(analyst, c::ROUND_SUMMARY_TOKENS);
                p.one(analyst, c::DETECTION_TOKENS);
                if personas.len() >= 2 {
                    p.together(personas.iter().take(2).copied(), c::POSITION_TOKENS);
                    for turn in 0..o.max_exchanges.min(c::MAX_EXCHANGES) {
                        p.one(personas[turn as usize % 2], c::EXCHANGE_TOKENS);
                        if c::exit_check_after(turn) {
                            p.one(analyst, c::EXIT_TOKENS);
                        }
                    }
                    p.one(analyst, c::CONVERGENCE_TOKENS);
                    p.one(analyst, c::CARD_TOKENS);
                }
            }
            p.together(personas.iter().copied(), c::CLOSING_TOKENS);
            p.one(analyst, c::SHIFT_TOKENS);
            p.one(analyst, c::SUMMARY_TOKENS);
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
