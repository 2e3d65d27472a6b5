//! Tournaments on screen: the list and the set-up form (`?view=tournaments`), and one
//! tournament's page (`?tournament=ID`): its run, its results and a person's blind verdicts.
//! The engine's `tournament` module does the arithmetic and the session's `TournamentRun`
//! the running; these files show what they hold and send the user's intents.

mod debates;
mod judging;
mod list;
mod results;
mod screen;
mod setup;

use std::rc::Rc;

use leptos::prelude::*;

pub use list::TournamentsScreen;
pub use screen::TournamentScreen;

use crate::session::tournament::TournamentRun;
use crate::session::Session;

/// The tournament runs this tab holds: a run goes on while the user looks at another
/// screen, and coming back to its page shows the same run (one per tournament).
#[derive(Clone, Copy)]
pub struct TournamentRuns(StoredValue<Vec<Rc<TournamentRun>>, LocalStorage>);

impl TournamentRuns {
    pub fn new() -> Self {
        TournamentRuns(StoredValue::new_local(Vec::new()))
    }

    fn get(&self, id: &str) -> Option<Rc<TournamentRun>> {
        self.0
            .with_value(|runs| runs.iter().find(|r| r.id() == id).cloned())
    }

    fn add(&self, run: Rc<TournamentRun>) {
        self.0.update_value(|runs| {
            runs.retain(|r| r.id() != run.id());
            runs.push(run);
        });
    }

    fn remove(&self, id: &str) {
        self.0.update_value(|runs| runs.retain(|r| r.id() != id));
    }

    /// Tournament `id`'s run: this tab's, or read from the store (`None`: not stored here).
    async fn open(
        &self,
        session: Rc<Session>,
        id: &str,
    ) -> Result<Option<Rc<TournamentRun>>, String> {
        if let Some(run) = self.get(id) {
            return Ok(Some(run));
        }
        let run = TournamentRun::open(session, id)
            .await
            .map_err(|e| e.to_string())?;
        if let Some(run) = &run {
            // Read while another await of the same id was reading too: keep the first.
            if let Some(kept) = self.get(id) {
                return Ok(Some(kept));
            }
            self.add(run.clone());
        }
        Ok(run)
    }
}

impl Default for TournamentRuns {
    fn default() -> Self {
        Self::new()
    }
}
