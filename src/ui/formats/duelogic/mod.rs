//! Duelogic's screens: the setup form, the scorecard under each chair's turn, the
//! interruption marker, the Arbiter's interjection callout, the per-chair summary panel
//! and Listen (the episode read aloud).

#[cfg(target_arch = "wasm32")]
mod listen;
#[cfg(target_arch = "wasm32")]
mod scorecard;
#[cfg(target_arch = "wasm32")]
mod setup;

#[cfg(target_arch = "wasm32")]
pub use ui::{UI, VIEWS};

#[cfg(target_arch = "wasm32")]
mod ui {
    use leptos::prelude::*;

    use super::listen::Listen;
    use super::scorecard::{ChairPanel, CutMarker, Interjection, Scorecard};
    use crate::engine::config::{Accountability, FormatId, FormatOptions};
    use crate::engine::finding::{Finding, FindingBody};
    use crate::ui::formats::{self as f, FormatUi, FormatViews, TurnCtx};
    use crate::ui::state::{DebateView, TurnStatus};

    fn panels() -> AnyView {
        view! { <Listen/> <ChairPanel/> }.into_any()
    }

    fn finding(finding: &Finding) -> Option<AnyView> {
        matches!(finding.body, FindingBody::Interjection { .. })
            .then(|| view! { <Interjection finding=finding.clone()/> }.into_any())
    }

    /// Whether a chair's finished response still waits for the Arbiter's evaluation: while
    /// its debate runs under an accountability level that evaluates.
    fn awaits_evaluation(state: DebateView, seat: &str) -> bool {
        state.running.get()
            && state.config.with(|c| match c.as_ref().map(|c| &c.options) {
                Some(FormatOptions::Duelogic(o)) => {
                    o.accountability != Accountability::Relaxed
                        && o.chairs.iter().any(|c| c.seat == seat)
                }
                _ => false,
            })
    }

    fn under_turn(t: TurnCtx) -> AnyView {
        let state = expect_context::<DebateView>();
        let view = t.view;
        // Only a chair's own response is evaluated (not its answer to an interjection).
        let argument = crate::engine::formats::duelogic::is_evaluated(&t.call);
        let pending = Signal::derive(move || {
            argument
                && matches!(
                    view.status.get(),
                    TurnStatus::Done
                        | TurnStatus::Cut
                        | TurnStatus::Truncated
                        | TurnStatus::Limit(_)
                )
                && awaits_evaluation(state, &t.seat)
        });
        view! {
            <CutMarker cut_by=view.cut_by/>
            <Scorecard judged=view.judged pending=pending/>
        }
        .into_any()
    }

    pub const UI: FormatUi = FormatUi {
        id: FormatId::Duelogic,
        about: "A podcast: chairs argue from philosophical frameworks and cut each other off; the Arbiter scores every answer.",
        form: super::setup::form,
        in_transcript: f::every_finding,
        folded: f::analysis_folded,
    };

    pub const VIEWS: FormatViews = FormatViews {
        id: FormatId::Duelogic,
        panels,
        finding,
        under_turn,
        turn_class: f::no_class,
        alone: f::nothing_alone,
    };
}
