//! The council's screens: its setup form (the members, each with its model or a person, the
//! chair, who analyses, and the second round), each ballot with the label order its
//! reviewer saw, the ranking with every reviewer's leanings, the vote of the first answers,
//! a chair that gave nothing, and the answer to "was the debate worth it?", which the panel
//! above the transcript also keeps in view.

#[cfg(target_arch = "wasm32")]
mod cards;
#[cfg(target_arch = "wasm32")]
mod setup;

#[cfg(target_arch = "wasm32")]
pub use ui::{UI, VIEWS};

#[cfg(target_arch = "wasm32")]
mod ui {
    use leptos::prelude::*;

    use super::cards::{BallotCard, ChairFailed, RankingCard, VoteCard, WorthCard};
    use crate::engine::config::FormatId;
    use crate::engine::finding::{CouncilFinding, Finding, FindingBody};
    use crate::ui::formats::{self as f, FormatUi, FormatViews};
    use crate::ui::state::DebateView;

    fn finding(finding: &Finding) -> Option<AnyView> {
        let FindingBody::Council(c) = &finding.body else {
            return None;
        };
        let seat = finding.seat.clone();
        Some(match (**c).clone() {
            CouncilFinding::Ballot(b) => view! { <BallotCard reviewer=seat ballot=b/> }.into_any(),
            CouncilFinding::Ranking(r) => view! { <RankingCard ranking=r/> }.into_any(),
            CouncilFinding::Vote(v) => view! { <VoteCard vote=v/> }.into_any(),
            CouncilFinding::ChairFailed { message } => view! { <ChairFailed message/> }.into_any(),
            CouncilFinding::Worth(w) => view! { <WorthCard worth=w/> }.into_any(),
        })
    }

    /// Above the transcript: once the council has answered, whether deliberating changed
    /// the vote, so it is the first thing a reader sees.
    fn panels() -> AnyView {
        let state = expect_context::<DebateView>();
        (move || {
            state.findings.with(|all| {
                all.iter().find_map(|f| match &f.body {
                    FindingBody::Council(c) => match &**c {
                        CouncilFinding::Worth(w) => Some(w.clone()),
                        _ => None,
                    },
                    _ => None,
                })
            })
            .map(|w| view! { <div class="council-panel"><WorthCard worth=w headline=true/></div> })
        })
        .into_any()
    }

    pub const UI: FormatUi = FormatUi {
        id: FormatId::Council,
        about: "Several models answer on their own, rank each other's answers blind, and a chair writes the final answer with a minority report; Agora says whether deliberating changed the vote.",
        form: super::setup::form,
        in_transcript: f::every_finding,
        folded: f::analysis_folded,
    };

    pub const VIEWS: FormatViews = FormatViews {
        id: FormatId::Council,
        panels,
        finding,
        under_turn: f::nothing_under,
        turn_class: f::no_class,
        alone: f::nothing_alone,
    };
}
