//! A debate as a file, built from its event log alone (so it holds what the log holds:
//! never an API key): JSON that Agora reads back (`json`, `import`), a Markdown and a plain
//! text transcript, seed 003's folder as a .zip, and an Argdown argument map. A file read
//! back is treated as hostile (`import`).
//!
//! The Markdown carries no live HTML: whatever a model (or a topic, a name) wrote is made
//! inert (`inert`), so a viewer that renders Markdown shows it as text, loads no image and
//! follows no `javascript:` link.

mod argdown;
mod backup;
mod connections;
mod excerpt;
mod folder;
mod fork;
mod import;
mod inert;
mod json;
mod kind;
mod markdown;
mod names;
mod slim;
mod text;
mod walk;
mod zip;

pub use argdown::to_argdown;
pub use backup::{backup, restore, same_debate, Restored};
pub use connections::{connection_labels, connections_named, remap_connections};
pub use excerpt::excerpt;
pub use folder::{folder_root, in_root, to_folder};
pub use fork::fork;
pub use import::{import, MAX_BACKUP_BYTES, MAX_EVENTS, MAX_IMPORT_BYTES, MAX_STRING_BYTES};
pub use inert::inert;
pub use json::to_json;
pub use kind::{ExportFile, ExportKind};
pub use markdown::to_markdown;
pub use names::{file_name, named as file_name_for};
pub use slim::without_sources;
pub use text::to_text;
pub use zip::zip;

use super::config::{DebateConfig, Participant, SeatConfig};

pub(super) fn seat_name(config: &DebateConfig, seat: &str) -> String {
    one_line(&super::reading::seat_name(config, seat))
}

/// Text that stands in one line of the Markdown (a heading, a list item, a note): a line
/// break in it would start a block of its own.
pub(super) fn one_line(text: &str) -> String {
    text.split(['\r', '\n'])
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A seat for a list: its name, then ": position (who fills it)".
pub(super) fn seat_line(s: &SeatConfig) -> (String, String) {
    let stance = s
        .stance
        .as_deref()
        .map(|x| format!(": {}", one_line(x)))
        .unwrap_or_default();
    let who = match &s.participant {
        Participant::Model { .. } => one_line(&s.participant.describe()),
        Participant::Human => "a person".into(),
    };
    (one_line(&s.name), format!("{stance} ({who})"))
}
