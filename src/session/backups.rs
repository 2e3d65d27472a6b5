//! Import, backup and restore as plain data and session calls, so their rules are tested
//! natively (`ui::import` binds the history screen's bar to them). Every file is hostile:
//! `engine::export::import` / `restore` check it, and a refused file stores nothing.

use super::{Connection, Session, SessionError};
use crate::engine::event::{config_of, Event};
use crate::engine::export;

/// An imported debate on its way into the store: the connections it names that this
/// browser does not have, each mapped to one of the user's own before it is stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportDraft {
    log: Vec<Event>,
    /// (the file's connection id, its label for people, the user's connection it runs on).
    pub unknown: Vec<(String, String, String)>,
}

impl ImportDraft {
    /// Reads an exported debate; each connection `mine` lacks is mapped to the first of
    /// `mine` until the user picks another.
    pub fn read(text: &str, mine: &[Connection]) -> Result<Self, String> {
        let log = export::import(text)?;
        let fallback = mine.first().map(|c| c.id.clone()).unwrap_or_default();
        let unknown = export::connection_labels(&log)
            .into_iter()
            .filter(|(id, _)| !mine.iter().any(|c| &c.id == id))
            .map(|(id, label)| (id, label, fallback.clone()))
            .collect();
        Ok(Self { log, unknown })
    }

    /// Whether the user is asked which of their connections runs what the file names.
    pub fn needs_mapping(&self) -> bool {
        !self.unknown.is_empty()
    }

    /// The `i`-th unknown connection runs on the user's `mine`.
    pub fn map(&mut self, i: usize, mine: String) {
        if let Some(u) = self.unknown.get_mut(i) {
            u.2 = mine;
        }
    }

    pub fn topic(&self) -> String {
        config_of(&self.log)
            .map(|c| c.topic.clone())
            .unwrap_or_default()
    }

    /// The log to store, its connections mapped.
    pub fn into_log(self) -> Vec<Event> {
        let mut log = self.log;
        let map: Vec<(String, String)> = self.unknown.into_iter().map(|(f, _, m)| (f, m)).collect();
        export::remap_connections(&mut log, &map);
        log
    }
}

/// What a restore did: debates added, those already here, and why any were refused.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RestoreReport {
    pub added: usize,
    pub skipped: usize,
    pub refused: Vec<String>,
}

impl RestoreReport {
    /// One line for the user; an error when anything was refused.
    pub fn message(&self) -> (bool, String) {
        let mut m = format!(
            "Restored {} debates; {} were already here.",
            self.added, self.skipped
        );
        if !self.refused.is_empty() {
            m.push_str(&format!(" Refused: {}", self.refused.join("; ")));
        }
        (!self.refused.is_empty(), m)
    }
}

impl Session {
    /// Every stored debate's log, as one backup file's text, and how many it holds.
    pub async fn backup(&self) -> Result<(usize, String), SessionError> {
        let mut logs = Vec::new();
        for d in self.list().await? {
            if let Some(stored) = self.load(&d.id).await? {
                logs.push(stored.events);
            }
        }
        Ok((logs.len(), export::backup(&logs)))
    }

    /// Restores a backup file: each debate not already stored (the same start: config,
    /// seed and time) is added, once even if the file holds it twice. A file that is no
    /// backup is refused whole; a debate in it that cannot be read or stored is named.
    pub async fn restore(&self, text: &str) -> Result<RestoreReport, String> {
        let restored = export::restore(text)?;
        let mut here = self
            .starts()
            .await
            .map_err(|e| format!("the stored debates could not be read ({e})"))?;
        let mut report = RestoreReport {
            refused: restored.refused,
            ..RestoreReport::default()
        };
        for log in restored.debates {
            if here
                .iter()
                .any(|h| export::same_debate(std::slice::from_ref(h), &log))
            {
                report.skipped += 1;
                continue;
            }
            let start = log.first().cloned();
            match self.adopt(log).await {
                Ok(_) => {
                    report.added += 1;
                    here.extend(start);
                }
                Err(e) => report.refused.push(e.to_string()),
            }
        }
        Ok(report)
    }
}
