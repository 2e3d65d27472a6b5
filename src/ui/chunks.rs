//! The screens that are not the first one, each in a chunk of wasm of its own, fetched after
//! the setup screen is usable (README, "How the app is split").
//!
//! A chunk is a function marked as a split point (`wasm_split_helpers`): the release build's
//! hook (`.ci/split-wasm.mjs`) moves it, and all code only it reaches, into its own file,
//! and the call fetches that file the first time. What it returns is the screen's
//! constructor, a plain `fn`, so a loaded screen is drawn at once the next time. Without the
//! `split` feature (native code, the browser tests) the same functions run directly.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;
use leptos::task::spawn_local;

pub use crate::session::chunk::ChunkMissing;

/// A screen's constructor, living in its chunk.
pub type Screen = fn() -> AnyView;
type Loading = Pin<Box<dyn Future<Output = Result<Screen, ChunkMissing>>>>;

/// One chunk: its name (for the cache) and the call that fetches it and hands back the
/// screen.
pub struct Chunk {
    pub name: &'static str,
    load: fn() -> Loading,
}

/// Declares a chunk: `chunk!(NAME, module_name, split_fn => constructor)`. The module name
/// is the chunk's file; several chunks may share one.
macro_rules! chunk {
    ($chunk:ident, $module:ident, $split:ident => $screen:expr) => {
        #[cfg(feature = "split")]
        #[allow(improper_ctypes_definitions)]
        #[wasm_split_helpers::wasm_split($module, fallible)]
        fn $split() -> Result<Screen, ChunkMissing> {
            Ok($screen)
        }
        #[cfg(not(feature = "split"))]
        async fn $split() -> Result<Screen, ChunkMissing> {
            Ok($screen)
        }
        pub const $chunk: Chunk = Chunk {
            name: stringify!($split),
            load: || Box::pin($split()),
        };
    };
}

chunk!(DEBATE, debate, debate_screen => || view! { <super::debate::DebateScreen/> }.into_any());
chunk!(HISTORY, history, history_screen => || view! { <super::history::HistoryScreen/> }.into_any());
chunk!(LEDGER, ledger, ledger_screen => || view! { <super::ledger::LedgerScreen/> }.into_any());
chunk!(TOURNAMENTS, tournaments, tournaments_screen => || {
    view! { <super::tournaments::TournamentsScreen/> }.into_any()
});
chunk!(TOURNAMENT, tournaments, tournament_screen => || {
    view! { <super::tournaments::TournamentScreen/> }.into_any()
});

/// Every chunk, for fetching them all once the first screen is usable.
pub const ALL: [&Chunk; 5] = [&DEBATE, &HISTORY, &LEDGER, &TOURNAMENTS, &TOURNAMENT];

thread_local! {
    /// The screens already fetched, drawn without waiting a tick the next time.
    static LOADED: RefCell<HashMap<&'static str, Screen>> = RefCell::new(HashMap::new());
}

fn loaded(chunk: &Chunk) -> Option<Screen> {
    LOADED.with(|l| l.borrow().get(chunk.name).copied())
}

/// Fetches a chunk (once: a fetch in flight or done is shared) and keeps its screen.
pub async fn fetch(chunk: &'static Chunk) -> Result<Screen, ChunkMissing> {
    if let Some(screen) = loaded(chunk) {
        return Ok(screen);
    }
    let screen = (chunk.load)().await?;
    LOADED.with(|l| l.borrow_mut().insert(chunk.name, screen));
    Ok(screen)
}

/// Fetches these chunks in the background, all at once (their files arrive side by side,
/// not one after another). A failure here is only remembered by the screen that needs
/// the chunk, which tries again and says so.
pub fn prefetch(chunks: &'static [&'static Chunk]) {
    for &chunk in chunks {
        spawn_local(async move {
            let _ = fetch(chunk).await;
        });
    }
}

/// How long "Loading…" may show before it says the wait is unusual: a chunk is a few
/// hundred KB, well under a second on a slow phone's connection (BENCHMARKS.md).
const SLOW: std::time::Duration = std::time::Duration::from_secs(6);

/// Draws a chunk's screen: at once when it is here, else when it arrives, or a message with
/// Reload when it cannot be fetched. A fetch that neither arrives nor fails (a connection
/// that stopped answering) says so after a while, with Reload, and keeps waiting.
#[component]
pub fn Lazy(chunk: &'static Chunk) -> impl IntoView {
    let state = RwSignal::new(loaded(chunk).map(Ok));
    let slow = RwSignal::new(false);
    if state.get_untracked().is_none() {
        set_timeout(
            move || {
                let _ = slow.try_set(true);
            },
            SLOW,
        );
        spawn_local(async move {
            let result = fetch(chunk).await;
            // The screen may have been left meanwhile.
            let _ = state.try_set(Some(result));
        });
    }
    move || match state.get() {
        None => view! { <ChunkWait slow/> }.into_any(),
        Some(Ok(screen)) => screen(),
        Some(Err(ChunkMissing)) => view! { <ChunkFailed/> }.into_any(),
    }
}

fn reload(_: leptos::ev::MouseEvent) {
    let _ = window().location().reload();
}

/// A part of the app on its way, and, once `slow`, that it is taking unusually long. One
/// live region throughout: a screen reader announces the change of its words, which it
/// might not for a region that enters the page already holding them.
#[component]
fn ChunkWait(slow: RwSignal<bool>) -> impl IntoView {
    view! {
        <div class="chunk-wait" class:chunk-slow=move || slow.get() role="status"
            aria-busy=move || (!slow.get()).to_string()>
            {move || if slow.get() {
                view! {
                    <strong>"Still loading this part of Agora…"</strong>
                    <p>"The connection is slow or has stopped answering. Agora keeps waiting; reloading the page tries again from the start."</p>
                    <button type="button" class="secondary" on:click=reload>"Reload"</button>
                }
                .into_any()
            } else {
                view! { <span class="muted">"Loading…"</span> }.into_any()
            }}
        </div>
    }
}

/// A part of the app that could not be fetched: what happened, then why and what to do.
pub const MISSING: [&str; 2] = [
    "This part of Agora could not be loaded.",
    "You may be offline, or a newer version of Agora has replaced the files this page came with. Your debates are kept: reload the page to go on.",
];

/// The message for a part of the app that could not be fetched.
#[component]
fn ChunkFailed() -> impl IntoView {
    view! {
        <div class="chunk-failed" role="alert">
            <strong>{MISSING[0]}</strong>
            <p>{MISSING[1]}</p>
            <button type="button" on:click=reload>"Reload"</button>
        </div>
    }
}
