//! The calls a council plans to make, from its configuration alone (see `formats::plans`).
//! Exact: the members answer together (and revise together), the reviews run beside the
//! analyst's reading of the vote, the chair writes, then its minority report runs beside
//! the analyst's check of the final answer against the vote.

use super::super::plans::Plan;
use crate::engine::config::{CouncilOptions, DebateConfig};

pub(in crate::engine::formats) fn plan(config: &DebateConfig, o: &CouncilOptions, p: &mut Plan) {
    let members = super::members(config);
    let analyst = config.analyst.as_str();
    p.together(members.iter().copied(), o.answer_tokens);
    if o.second_round {
        p.together(members.iter().copied(), o.answer_tokens);
    }
    p.together_mixed(
        members
            .iter()
            .map(|m| (*m, o.review_tokens))
            .chain([(analyst, super::VOTE_TOKENS)]),
    );
    p.one(super::CHAIR, o.chair_tokens);
    p.together_mixed([
        (super::CHAIR, o.chair_tokens),
        (analyst, super::VERDICT_TOKENS),
    ]);
}
