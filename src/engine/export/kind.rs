//! The kinds of export a debate has, named once: what the buttons offer, each file's
//! extension and type, and which renderer makes it.

use super::super::event::Event;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    Markdown,
    /// The configuration and the whole event log: re-imports to the same debate.
    Json,
    Text,
    /// Seed 003's folder (index, metadata, summary, transcript, messages/) as a .zip.
    Folder,
    /// An argument map for argdown.org.
    Argdown,
}

/// One rendered export, ready to save.
pub struct ExportFile {
    pub name: String,
    pub mime: &'static str,
    pub bytes: Vec<u8>,
}

impl ExportKind {
    pub const ALL: [ExportKind; 5] = [
        ExportKind::Markdown,
        ExportKind::Json,
        ExportKind::Text,
        ExportKind::Folder,
        ExportKind::Argdown,
    ];

    /// The file's extension, also the export button's id (`export-md`).
    pub fn id(self) -> &'static str {
        match self {
            ExportKind::Markdown => "md",
            ExportKind::Json => "json",
            ExportKind::Text => "txt",
            ExportKind::Folder => "zip",
            ExportKind::Argdown => "argdown",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ExportKind::Markdown => "Markdown",
            ExportKind::Json => "JSON",
            ExportKind::Text => "Text",
            ExportKind::Folder => "Folder (.zip)",
            ExportKind::Argdown => "Argdown",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            ExportKind::Markdown => "text/markdown;charset=utf-8",
            ExportKind::Json => "application/json;charset=utf-8",
            ExportKind::Text | ExportKind::Argdown => "text/plain;charset=utf-8",
            ExportKind::Folder => "application/zip",
        }
    }

    /// The debate's log rendered as this kind of file (the folder without its transcript).
    pub fn render(self, events: &[Event]) -> ExportFile {
        self.render_with(events, false)
    }

    /// The same, the folder with `transcript.md` when `transcript` (seed 003's option).
    pub fn render_with(self, events: &[Event], transcript: bool) -> ExportFile {
        let bytes = match self {
            ExportKind::Markdown => super::to_markdown(events).into_bytes(),
            ExportKind::Json => super::to_json(events).into_bytes(),
            ExportKind::Text => super::to_text(events).into_bytes(),
            ExportKind::Argdown => super::to_argdown(events).into_bytes(),
            ExportKind::Folder => super::zip(&super::folder::in_root(
                events,
                super::to_folder(events, transcript),
            )),
        };
        ExportFile {
            name: super::file_name(events, self.id()),
            mime: self.mime(),
            bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_extension() {
        let mut ids: Vec<&str> = ExportKind::ALL.iter().map(|k| k.id()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), ExportKind::ALL.len());
    }
}
