//! Crux's own screens: the setup form (personas, their models, the analyst, aspects and
//! temperatures), the crux card and the deck, the crux room panel, the disagreement map
//! and the shifts per persona. `share` (Markdown and SVG of a card) is plain Rust, tested
//! natively.

#[cfg(target_arch = "wasm32")]
mod card;
#[cfg(target_arch = "wasm32")]
pub mod setup;
pub mod share;

#[cfg(target_arch = "wasm32")]
pub use card::{anchor, finding_view, CruxPanels};
