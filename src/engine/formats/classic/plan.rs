//! The calls classic plans to make, from its configuration alone (see `formats::plans`).
//! Exact but for the moderator's rulings, which are asked only when a turn's wording hints
//! at a broken rule.

use super::super::plans::Plan;
use super::options::RoundClose;
use crate::engine::config::{ClassicOptions, DebateConfig};

/// What a round's scores and the final scores each cost the analyst.
pub(super) const SCORE_TOKENS: u32 = 500;

pub(in crate::engine::formats) fn plan(config: &DebateConfig, o: &ClassicOptions, p: &mut Plan) {
    let analyst = config.analyst.as_str();
    use super as c;
    let (m, a, b) = (c::MODERATOR, c::POSITION_A, c::POSITION_B);
    // A position's turn, then its fact check when there is a fact checker.
    let position = |p: &mut Plan, seat: &str, tokens: u32| {
        p.one(seat, tokens);
        if o.fact_checker {
            p.one(c::FACT_CHECKER, c::FACT_CHECK_TOKENS);
        }
    };
    p.one(m, o.summary_tokens);
    position(p, a, o.opening_tokens);
    position(p, b, o.opening_tokens);
    for round in 1..=o.rounds {
        for (seat, _) in c::exchanges(o.style, round) {
            position(p, seat, o.argument_tokens);
        }
        if o.style.round_close() != RoundClose::Nothing {
            p.one(m, o.summary_tokens);
        }
        if o.style.scores_each_round() {
            p.one(analyst, SCORE_TOKENS);
            p.one(analyst, SCORE_TOKENS);
        }
    }
    position(p, a, o.closing_tokens);
    position(p, b, o.closing_tokens);
    if o.scored() {
        p.one(analyst, SCORE_TOKENS);
        p.one(analyst, SCORE_TOKENS);
    }
    p.one(m, o.summary_tokens);
}
