//! Agora: structured AI debates that run entirely in the browser.
//!
//! Layers (each depends only on those above it): `engine` (pure debate logic), `llm`
//! (providers), `store` (persistence and export), `session` (runs debates; the only door to
//! providers), `ui` (Leptos components, browser only).

pub mod engine;
pub mod llm;
pub mod session;
pub mod store;

pub mod ui;

#[cfg(target_arch = "wasm32")]
pub mod app_entry;
