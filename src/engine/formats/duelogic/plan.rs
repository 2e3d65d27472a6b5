//! The calls duelogic plans to make, from its configuration alone (see `formats::plans`).

use super::super::plans::Plan;
use crate::engine::config::{Accountability, DebateConfig, DuelogicOptions};

pub(in crate::engine::formats) fn plan(config: &DebateConfig, o: &DuelogicOptions, p: &mut Plan) {
    let analyst = config.analyst.as_str();
    // The Arbiter's introduction; each chair's response, then its evaluation on the
    // analyst seat (none when accountability is relaxed); the closing synthesis.
    use super as d;
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
