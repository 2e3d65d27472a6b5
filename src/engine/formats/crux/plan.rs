//! The calls crux plans to make, from its configuration alone (see `formats::plans`).

use super::super::plans::Plan;
use crate::engine::config::{CruxOptions, DebateConfig};

pub(in crate::engine::formats) fn plan(config: &DebateConfig, o: &CruxOptions, p: &mut Plan) {
    let analyst = config.analyst.as_str();
    // Seed 004: decomposition; openings; per aspect three minirounds, a summary and
    // the disagreement detection, then a crux room at its longest (two statements,
    // the exchange with its exit checks, the convergence check and the card);
    // closings; shifts; the summary.
    use super as c;
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
