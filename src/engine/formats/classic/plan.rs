//! The calls classic plans to make, from its configuration alone (see `formats::plans`).

use super::super::plans::Plan;
use crate::engine::config::{ClassicOptions, DebateConfig};

pub(in crate::engine::formats) fn plan(config: &DebateConfig, o: &ClassicOptions, p: &mut Plan) {
    let analyst = config.analyst.as_str();
    use super as c;
    let (m, a, b) = (c::MODERATOR, c::POSITION_A, c::POSITION_B);
    // A position's turn, then its fact check when there is a fact checker.
    let position = |p: &mut Plan, seat: &str, tokens: u32| {
        p.one(seat, tokens);
        if o.fact_checker {
            p.one(c::FACT_CHECKER, 400);
        }
    };
    p.one(m, o.summary_tokens);
    position(p, a, o.opening_tokens);
    position(p, b, o.opening_tokens);
    for _ in 0..o.rounds {
        for seat in [a, b, b, a] {
            position(p, seat, o.argument_tokens);
        }
        p.one(m, o.summary_tokens);
    }
    position(p, a, o.closing_tokens);
    position(p, b, o.closing_tokens);
    if o.scoring {
        p.one(analyst, 500);
        p.one(analyst, 500);
    }
    p.one(m, o.summary_tokens);
}
