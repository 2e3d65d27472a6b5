//! Runs debates: wires a format to connections, the store and the clock; owns pause, stop,
//! resume and human input. It is the only door to providers for everything above it: the
//! UI's "test connection" goes through it too.

pub mod address;
pub mod backups;
#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod chunk;
pub mod connection_draft;
pub mod connections;
pub mod error;
pub mod format_drafts;
pub mod ledger;
pub mod prices;
pub mod resolve_draft;
pub mod router;
pub mod runner;
#[cfg(target_arch = "wasm32")]
pub mod saved;
pub mod schema_forms;
pub mod searching;
pub mod setup_draft;
pub mod sources_draft;
pub mod tournament;
pub mod tournament_draft;
mod writer;

/// The in-page model's loading, progress and cache, for the setup and History screens.
#[cfg(target_arch = "wasm32")]
pub use crate::llm::inpage;
pub use connections::{Connection, ConnectionOrigin, KeyEdit, NoKeyChoices, ProviderKind};
pub use error::{SessionError, TournamentError};
pub use runner::{Session, SessionEnv, Update};
