//! A debate as a file, built from its event log alone (so it holds what the log holds:
//! never an API key): JSON that Agora reads back (`json`, `import`), a Markdown and a plain
//! text transcript, seed 003's folder as a .zip, and an Argdown argument map. A file read
//! back is treated as hostile (`import`).
//!
//! The Markdown carries no live HTML: whatever a model (or a topic, a name) wrote is made
//! inert (`inert`), so a viewer that renders Markdown shows it as text, loads no image and
//! follows no `javascript:` link.

mod inert;
mod json;
mod markdown;
mod names;
mod walk;

pub use inert::inert;
pub use json::to_json;
pub use markdown::to_markdown;
pub use names::file_name;

use super::config::DebateConfig;

pub(super) fn seat_name(config: &DebateConfig, seat: &str) -> String {
    one_line(
        &config
            .seat(seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone()),
    )
}

/// Text that stands in one line of the Markdown (a heading, a list item, a note): a line
/// break in it would start a block of its own.
pub(super) fn one_line(text: &str) -> String {
    text.split(['\r', '\n'])
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
