//! The JavaScript API: `runDebate(config, { onEvent, signal })` runs a debate with no UI
//! and resolves to the finished debate (the JSON export). `request` reads and checks what
//! the caller gives; `run` (browser only) runs it on a session of its own, in memory;
//! `widget_run` is the `<agora-debate>` widget's live request before and at Start.

pub mod request;
#[cfg(target_arch = "wasm32")]
pub mod run;
pub mod widget_run;
