//! The forecast panel's screens: the setup form (question's outcomes, roles and their
//! models, rounds, judge weight, context) and the live view (rounds as tabs with each
//! role's argument streaming and its score, a probability chart per outcome drawn as SVG,
//! the consensus meter, the disagreement map, insights and precedents on a timeline).

#[cfg(target_arch = "wasm32")]
mod panel;
#[cfg(target_arch = "wasm32")]
mod resolve;
#[cfg(target_arch = "wasm32")]
mod setup;

#[cfg(target_arch = "wasm32")]
pub use ui::{UI, VIEWS};

#[cfg(target_arch = "wasm32")]
mod ui {
    use leptos::prelude::*;

    use super::panel::ForecastPanel;
    use crate::engine::config::FormatId;
    use crate::engine::event::Purpose;
    use crate::engine::finding::Finding;
    use crate::ui::formats::{self as f, FormatUi, FormatViews};

    fn panels() -> AnyView {
        view! { <ForecastPanel/> }.into_any()
    }

    /// The panel shows every finding of a forecast; the transcript none.
    fn in_transcript(_: &Finding) -> bool {
        false
    }

    /// Every call of a forecast answers in JSON, which the panel shows parsed: the calls
    /// themselves are folded in the transcript.
    fn folded(_: Purpose) -> bool {
        true
    }

    pub const UI: FormatUi = FormatUi {
        id: FormatId::Forecast,
        about: "A panel of roles argues the odds of each outcome; the judge and the consensus give the forecast.",
        form: super::setup::form,
        in_transcript,
        folded,
    };

    pub const VIEWS: FormatViews = FormatViews {
        id: FormatId::Forecast,
        panels,
        finding: f::plain_finding,
        under_turn: f::nothing_under,
        turn_class: f::no_class,
        alone: super::panel::alone,
    };
}
