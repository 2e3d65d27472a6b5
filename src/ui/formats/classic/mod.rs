//! Classic's screens: its setup form (positions, style, rounds, scoring, the fact checker
//! and who sits in each seat), the weighted scorecard of each position (of a round, in a
//! competitive debate), the moderator's notes in the flow and the fact checker's verdicts
//! under the turn they concern.

#[cfg(target_arch = "wasm32")]
mod scorecard;
#[cfg(target_arch = "wasm32")]
mod setup;

#[cfg(target_arch = "wasm32")]
pub use ui::{UI, VIEWS};

#[cfg(target_arch = "wasm32")]
mod ui {
    use leptos::prelude::*;

    use super::scorecard::{fact_checks, ModeratorNote, ScoreCard};
    use crate::engine::config::FormatId;
    use crate::engine::finding::{Finding, FindingBody};
    use crate::ui::formats::{self as f, FormatUi, FormatViews, TurnCtx};

    fn finding(finding: &Finding) -> Option<AnyView> {
        match finding.body {
            FindingBody::Score { .. } | FindingBody::Unscored { .. } => {
                Some(view! { <ScoreCard finding=finding.clone()/> }.into_any())
            }
            FindingBody::ModeratorNote { .. } => {
                Some(view! { <ModeratorNote finding=finding.clone()/> }.into_any())
            }
            _ => None,
        }
    }

    /// The fact checker's verdicts, or why the check could not be read.
    fn under_turn(t: TurnCtx) -> AnyView {
        let judged = t.view.judged;
        (move || match judged.get().map(|f| f.body) {
            Some(FindingBody::FactCheck { claims }) => fact_checks(claims),
            Some(FindingBody::Unscored { reason, .. }) => view! {
                <p class="fact-checks empty">"Fact check not read: "{reason}</p>
            }
            .into_any(),
            _ => ().into_any(),
        })
        .into_any()
    }

    pub const UI: FormatUi = FormatUi {
        id: FormatId::Classic,
        about: "A moderator and two positions: openings, rounds of argument and rebuttal, closings and a summary.",
        form: super::setup::form,
        in_transcript: f::every_finding,
        folded: f::analysis_folded,
    };

    pub const VIEWS: FormatViews = FormatViews {
        id: FormatId::Classic,
        panels: f::no_panels,
        finding,
        under_turn,
        turn_class: f::no_class,
        alone: f::nothing_alone,
    };
}
