//! The JavaScript API: `runDebate(config, { onEvent, signal })` runs a debate with no UI
//! and resolves to the finished debate (the JSON export). `request` reads and checks what
//! the caller gives; `run` (browser only) runs it on a session of its own, in memory.

pub mod request;
#[cfg(target_arch = "wasm32")]
pub mod run;
