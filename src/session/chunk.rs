//! The formats' runs in a chunk of the wasm of their own, fetched after the first screen is
//! usable (README, "How the app is split"; the screens' chunks are in `ui::chunks`).
//!
//! `runner` is a split point: the release build's hook moves it, and every format's run
//! that only it reaches, out of the first download. It hands back the run as a plain `fn`,
//! so only the first debate of a visit can wait for it (and the app fetches it before
//! anyone presses Start). Natively, and without the `split` feature, it runs directly.

use futures::future::LocalBoxFuture;

use crate::engine::formats;
use crate::engine::{DebateCtx, DebateError};

/// A part of the app's code could not be fetched or started: offline, or a newer deploy
/// replaced the files this page was built with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChunkMissing;

#[cfg(all(target_arch = "wasm32", feature = "split"))]
impl From<wasm_split_helpers::SplitLoaderError> for ChunkMissing {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        ChunkMissing
    }
}

/// What a debate says when the code that runs it could not be fetched.
pub const RUNS_MISSING: &str = "Agora could not load the part of the app that runs debates: you may be offline, or a newer version of Agora has replaced its files. Nothing is lost: reload the page, then resume the debate.";

/// The same, said to a page's code (`runDebate`), which has no debate to resume.
pub const RUNS_MISSING_API: &str = "Agora could not load the part of the app that runs debates: the page may be offline, or a newer version of Agora has replaced its files. Reload the page, then call runDebate again.";

/// A format's run, living in the chunk.
pub type RunFormat = for<'a> fn(&'a DebateCtx) -> LocalBoxFuture<'a, Result<(), DebateError>>;

fn run_format(ctx: &DebateCtx) -> LocalBoxFuture<'_, Result<(), DebateError>> {
    Box::pin(formats::run(ctx))
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
#[allow(improper_ctypes_definitions)]
#[wasm_split_helpers::wasm_split(formats, fallible)]
fn runner() -> Result<RunFormat, ChunkMissing> {
    Ok(run_format)
}

#[cfg(not(all(target_arch = "wasm32", feature = "split")))]
async fn runner() -> Result<RunFormat, ChunkMissing> {
    Ok(run_format)
}

/// Fetches the formats' runs ahead of the first Start. A failure is said by the debate
/// that needs them, which tries again.
pub async fn prefetch() {
    let _ = runner().await;
}

/// Runs the configured format to its end, once its chunk is here.
pub async fn run(ctx: &DebateCtx) -> Result<(), DebateError> {
    match runner().await {
        Ok(run) => run(ctx).await,
        Err(ChunkMissing) => Err(DebateError::Config(RUNS_MISSING.into())),
    }
}
