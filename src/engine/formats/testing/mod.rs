//! What exists only for tests, kept apart from the formats a user runs: `scripted` runs a
//! format against a scripted model on a virtual clock; `probe` is a format made to reach
//! every part of the engine (interruptions, retries, pauses) in one debate;
//! `context_budget` and `answers_read_back` check every real format's prompts against a
//! context window and its structured answers against its own parser.

mod answers_read_back;
mod context_budget;
mod gallery;
pub(crate) mod probe;
pub(crate) mod scripted;
