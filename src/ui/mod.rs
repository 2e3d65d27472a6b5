//! Leptos components. They render the event log and send intents to the session; they never
//! call a provider. One file per screen (setup, debate, history, ledger), a folder for the
//! tournament screens, widgets beside them, and a folder per format under `formats/`,
//! listed in its registry.

pub mod examples;
pub mod formats;
pub mod link_policy;
pub mod md_blocks;
pub mod route;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod chunks;
#[cfg(target_arch = "wasm32")]
mod clipboard;
#[cfg(target_arch = "wasm32")]
mod connection_form;
#[cfg(target_arch = "wasm32")]
mod debate;
#[cfg(target_arch = "wasm32")]
mod download;
#[cfg(target_arch = "wasm32")]
mod fields;
#[cfg(target_arch = "wasm32")]
mod focus;
#[cfg(target_arch = "wasm32")]
mod fork;
#[cfg(target_arch = "wasm32")]
mod gallery;
#[cfg(target_arch = "wasm32")]
mod history;
#[cfg(target_arch = "wasm32")]
mod import;
#[cfg(target_arch = "wasm32")]
mod inpage;
#[cfg(target_arch = "wasm32")]
mod ledger;
#[cfg(target_arch = "wasm32")]
pub mod markdown;
#[cfg(target_arch = "wasm32")]
mod progressive;
#[cfg(target_arch = "wasm32")]
mod replay;
#[cfg(target_arch = "wasm32")]
mod seating;
#[cfg(target_arch = "wasm32")]
mod setup;
#[cfg(target_arch = "wasm32")]
mod share;
#[cfg(target_arch = "wasm32")]
mod source_files;
#[cfg(target_arch = "wasm32")]
mod sources_form;
#[cfg(target_arch = "wasm32")]
pub mod state;
#[cfg(target_arch = "wasm32")]
mod table;
#[cfg(target_arch = "wasm32")]
mod tournaments;
#[cfg(target_arch = "wasm32")]
mod web_search_form;
#[cfg(target_arch = "wasm32")]
pub mod widget;

#[cfg(target_arch = "wasm32")]
pub use app::App;
