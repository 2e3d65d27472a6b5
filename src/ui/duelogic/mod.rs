//! Duelogic's own widgets: the scorecard under each chair's turn, the interruption marker,
//! the Arbiter's interjection callout, the per-chair summary panel, the setup form and
//! Listen (the episode read aloud).

pub mod listen;
mod scorecard;
pub mod setup;

pub use scorecard::{ChairPanel, CutMarker, Interjection, Scorecard};
