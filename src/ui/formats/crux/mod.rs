//! Crux's own screens: the setup form (personas, their models, the analyst, aspects and
//! temperatures), the crux card and the deck, the crux room panel, the disagreement map
//! and the shifts per persona. `share` (Markdown and SVG of a card) is plain Rust, tested
//! natively.

#[cfg(target_arch = "wasm32")]
mod card;
#[cfg(target_arch = "wasm32")]
mod setup;
pub mod share;

#[cfg(target_arch = "wasm32")]
pub use ui::{UI, VIEWS};

#[cfg(target_arch = "wasm32")]
mod ui {
    use leptos::prelude::*;

    use super::card::{finding_view, CruxPanels};
    use crate::engine::config::FormatId;
    use crate::engine::formats::crux::paths::CruxPath;
    use crate::engine::CallKey;
    use crate::ui::formats::{self as f, FormatUi, FormatViews};

    fn panels() -> AnyView {
        view! { <CruxPanels/> }.into_any()
    }

    /// A crux room's turns are set apart from the aspect rounds.
    fn turn_class(call: &CallKey) -> &'static str {
        if CruxPath::parse(&call.path).is_some_and(|p| p.room().is_some()) {
            "in-room"
        } else {
            ""
        }
    }

    pub const UI: FormatUi = FormatUi {
        id: FormatId::Crux,
        about: "Personas argue until they find where they really disagree; a crux room digs it out and a card records it.",
        form: super::setup::form,
        in_transcript: f::every_finding,
        folded: f::analysis_folded,
    };

    pub const VIEWS: FormatViews = FormatViews {
        id: FormatId::Crux,
        panels,
        finding: finding_view,
        under_turn: f::nothing_under,
        turn_class,
        alone: super::card::alone,
    };
}
