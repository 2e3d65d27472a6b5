//! The screens that are not the first one, each in a chunk of wasm of its own, fetched after
//! the setup screen is usable (README, "How the app is split").
//!
//! A chunk is a function marked as a split point (`wasm_split_helpers`): the release build's
//! hook (`.ci/split-wasm.mjs`) moves it, and all code only it reaches, into its own file,
//! and the call fetches that file the first time. What it returns is the screen's
//! constructor, a plain `fn`, so a loaded screen is drawn at once the next time. Without the
//! `split` feature (native code, the browser tests) the same functions run directly.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;
use leptos::task::spawn_local;

pub use crate::session::chunk::ChunkMissing;

/// A screen's constructor, living in its chunk.
pub type Screen = fn() -> AnyView;
type Loading<T> = Pin<Box<dyn Future<Output = Result<T, ChunkMissing>>>>;

/// One chunk: its name (for the cache) and the call that fetches it and hands back what
/// lives in it: a screen's constructor, or a format's drawing (`ui::formats`).
pub struct Chunk<T: 'static = Screen> {
    pub name: &'static str,
    load: fn() -> Loading<T>,
}

/// Declares a chunk: `chunk!(NAME, module_name, split_fn: Type => value)`, where the value
/// is what the chunk hands back (`: Type` may be left out for a screen). The module name
/// is the chunk's file; several chunks may share one.
macro_rules! chunk {
    ($chunk:ident, $module:ident, $split:ident => $value:expr) => {
        $crate::ui::chunks::chunk!($chunk, $module, $split: $crate::ui::chunks::Screen => $value);
    };
    ($chunk:ident, $module:ident, $split:ident: $ty:ty => $value:expr) => {
        #[cfg(feature = "split")]
        #[allow(improper_ctypes_definitions)]
        #[wasm_split_helpers::wasm_split($module, fallible)]
        fn $split() -> Result<$ty, $crate::ui::chunks::ChunkMissing> {
            Ok($value)
        }
        #[cfg(not(feature = "split"))]
        async fn $split() -> Result<$ty, $crate::ui::chunks::ChunkMissing> {
            Ok($value)
        }
        pub const $chunk: $crate::ui::chunks::Chunk<$ty> =
            $crate::ui::chunks::Chunk::new(stringify!($split), || Box::pin($split()));
    };
}
pub(crate) use chunk;

impl<T: Copy + 'static> Chunk<T> {
    pub const fn new(name: &'static str, load: fn() -> Loading<T>) -> Self {
        Chunk { name, load }
    }

    /// What the chunk holds, when it has been fetched.
    pub fn loaded(&'static self) -> Option<T> {
        LOADED.with(|l| l.borrow().get(self.name)?.downcast_ref::<T>().copied())
    }

    /// Fetches the chunk (the browser fetches its file once: a second call while the
    /// first is in flight waits for the same download) and keeps what it holds.
    pub async fn fetch(&'static self) -> Result<T, ChunkMissing> {
        if let Some(held) = self.loaded() {
            return Ok(held);
        }
        let held = (self.load)().await?;
        LOADED.with(|l| l.borrow_mut().insert(self.name, Box::new(held)));
        Ok(held)
    }

    /// Fetches the chunk in the background. A failure here is only remembered by the
    /// screen that needs the chunk, which tries again and says so.
    pub fn prefetch(&'static self) {
        spawn_local(async move {
            let _ = self.fetch().await;
        });
    }
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

/// Every screen's chunk, for fetching them all once the first screen is usable.
pub const ALL: [&Chunk; 5] = [&DEBATE, &HISTORY, &LEDGER, &TOURNAMENTS, &TOURNAMENT];

thread_local! {
    /// What each fetched chunk handed back, by its name, drawn without waiting a tick the
    /// next time.
    static LOADED: RefCell<HashMap<&'static str, Box<dyn Any>>> = RefCell::new(HashMap::new());
}

/// Fetches these chunks in the background, all at once (their files arrive side by side,
/// not one after another).
pub fn prefetch(chunks: &'static [&'static Chunk]) {
    for &chunk in chunks {
        chunk.prefetch();
    }
}

/// How long "Loading…" may show before it says the wait is unusual: a chunk is a few
/// hundred KB, well under a second on a slow phone's connection (BENCHMARKS.md).
const SLOW: std::time::Duration = std::time::Duration::from_secs(6);

/// What a chunk hands back, for something on screen that waits for it: `None` while it is
/// fetched.
pub type Fetched<T> = Option<Result<T, ChunkMissing>>;

/// What the chunk `which` names holds, as it arrives, following `which` as it changes (the
/// debate on screen changing format). While `which` names none, the last state stays: a
/// view being redrawn (a replay's scrub) is not torn down and built again.
pub fn follow<T: Copy + Send + Sync + 'static>(
    which: impl Fn() -> Option<&'static Chunk<T>> + 'static,
) -> ReadSignal<Fetched<T>> {
    let now = untrack(&which).filter(|c| c.loaded().is_some());
    let state = RwSignal::new(now.and_then(Chunk::loaded).map(Ok));
    // The chunk whose state `state` holds or waits for.
    let held = StoredValue::new(now.map(|c| c.name));
    Effect::new(move |_| {
        let Some(chunk) = which() else { return };
        if held.get_value() == Some(chunk.name) {
            return;
        }
        held.set_value(Some(chunk.name));
        if let Some(value) = chunk.loaded() {
            state.set(Some(Ok(value)));
            return;
        }
        state.set(None);
        spawn_local(async move {
            let result = chunk.fetch().await;
            // The view may follow another chunk meanwhile, or be gone.
            if held.try_get_value() == Some(Some(chunk.name)) {
                let _ = state.try_set(Some(result));
            }
        });
    });
    state.read_only()
}

/// Draws a chunk's screen: at once when it is here, else when it arrives, or a message with
/// Reload when it cannot be fetched.
#[component]
pub fn Lazy(chunk: &'static Chunk) -> impl IntoView {
    let state = follow(move || Some(chunk));
    move || match state.get() {
        None => view! { <ChunkWait/> }.into_any(),
        Some(Ok(screen)) => screen(),
        Some(Err(ChunkMissing)) => view! { <ChunkFailed/> }.into_any(),
    }
}

fn reload(_: leptos::ev::MouseEvent) {
    let _ = window().location().reload();
}

/// A part of the app on its way, and, after a while, that it is taking unusually long: a
/// fetch that neither arrives nor fails (a connection that stopped answering) is said, with
/// Reload, and Agora keeps waiting. One live region throughout: a screen reader announces
/// the change of its words, which it might not for a region that enters the page already
/// holding them.
#[component]
pub fn ChunkWait() -> impl IntoView {
    let slow = RwSignal::new(false);
    set_timeout(
        move || {
            let _ = slow.try_set(true);
        },
        SLOW,
    );
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
pub fn ChunkFailed() -> impl IntoView {
    view! {
        <div class="chunk-failed" role="alert">
            <strong>{MISSING[0]}</strong>
            <p>{MISSING[1]}</p>
            <button type="button" on:click=reload>"Reload"</button>
        </div>
    }
}
