//! The debate engine: pure Rust with no browser dependency, so every format, the event log,
//! scoring and context building compile and test natively with `cargo test`.

pub mod answer;
pub mod cancel;
pub mod clock;
pub mod config;
pub mod context;
pub mod cost;
pub mod dates;
pub mod event;
pub mod export;
pub mod finding;
pub mod formats;
pub mod json_extract;
pub mod json_fields;
pub mod limiter;
pub mod log_view;
pub mod model;
pub mod phrases;
pub mod prompt;
pub mod reading;
pub mod replay;
pub mod retry;
pub mod rng;
pub mod schema_sample;
pub mod script;
pub mod sources;
pub mod tokens;
pub mod tournament;
pub mod transcript;

pub use config::DebateConfig;
pub use context::{CallSpec, DebateCtx, DebateError};
pub use event::{CallKey, Event, EventKind};
