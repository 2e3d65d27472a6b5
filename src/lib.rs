//! Agora: structured AI debates that run entirely in the browser.
//!
//! Layers (each depends only on those above it): `engine` (pure debate logic), `llm`
//! (providers), `store` (persistence and export), `session` (runs debates; the only door to
//! providers), `ui` (Leptos components, browser only) and `api` (the JavaScript API, beside
//! the UI: both run debates through `session`).

pub mod api;
pub mod engine;
pub mod llm;
pub mod session;
pub mod store;

pub mod ui;

#[cfg(target_arch = "wasm32")]
pub mod app_entry;
