//! The forecast ledger read from the store: every finished forecast of this browser as
//! `engine::formats::forecast::ledger::book` lays it out.

use super::Session;
use crate::engine::config::FormatId;
use crate::engine::event::Outcome;
use crate::engine::formats::forecast::ledger::book::{Book, Line};

impl Session {
    /// Every forecast that finished with a result; a log that cannot be read does not hide
    /// the others: it is named instead.
    pub async fn ledger(&self) -> Result<Book, String> {
        let list = self.list().await.map_err(|e| e.to_string())?;
        let (mut lines, mut unreadable) = (Vec::new(), Vec::new());
        for d in list {
            if d.format != Some(FormatId::Forecast) || d.outcome != Some(Outcome::Completed) {
                continue;
            }
            match self.load(&d.id).await {
                Ok(Some(stored)) => lines.extend(Line::of(d.id, d.topic, &stored.events)),
                Ok(None) => {}
                Err(e) => unreadable.push(format!("{}: {e}", d.topic)),
            }
        }
        Ok(Book::new(lines, unreadable))
    }
}
