//! The calls forecast plans to make, from its configuration alone (see `formats::plans`).

use super::super::plans::{speakers, Plan};
use crate::engine::config::{DebateConfig, ForecastOptions};

pub(in crate::engine::formats) fn plan(config: &DebateConfig, o: &ForecastOptions, p: &mut Plan) {
    let analyst = config.analyst.as_str();
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
