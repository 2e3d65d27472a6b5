//! Draws a long list a slice at a time. A stored debate of hundreds of turns (or a
//! tournament's hundreds of debates) would otherwise build every item in one task, blocking
//! the page for hundreds of milliseconds; here the first slices show at once and the rest follow, one
//! slice per browser task, so no task runs long (BENCHMARKS.md, "Opening a long debate").
//! A live debate's new blocks arrive one or two at a time and show at once.

use std::time::Duration;

use leptos::prelude::*;

/// Items built in one browser task: about a millisecond each for a turn of a couple of
/// thousand characters of Markdown.
const SLICE: usize = 16;

/// The first items of `all` that are drawn by now, growing to all of them.
pub fn progressively<T>(all: impl Into<Signal<Vec<T>>>) -> impl Fn() -> Vec<T> + Copy + 'static
where
    T: Clone + Send + Sync + 'static,
{
    progressively_tracked(all).0
}

/// `progressively`, with whether every item of `all` is drawn by now (the list's
/// `aria-busy`, for readers and tests that need the whole list, not its first slices).
pub fn progressively_tracked<T>(
    all: impl Into<Signal<Vec<T>>>,
) -> (
    impl Fn() -> Vec<T> + Copy + 'static,
    impl Fn() -> bool + Copy + 'static,
)
where
    T: Clone + Send + Sync + 'static,
{
    let all: Signal<Vec<T>> = all.into();
    let drawn = RwSignal::new(0usize);
    Effect::new(move |_| {
        let n = all.with(Vec::len);
        let d = drawn.get();
        if n <= d + 2 * SLICE {
            if n != d {
                drawn.set(n);
            }
        } else if d == 0 {
            drawn.set(SLICE);
        } else {
            // After the browser has had its turn: input, layout, paint.
            set_timeout(
                move || {
                    // The list may be gone by then (its screen was left): nothing to draw.
                    if let Some(n) = all.try_with_untracked(Vec::len) {
                        drawn.try_update(|d| *d = (*d + SLICE).min(n));
                    }
                },
                Duration::ZERO,
            );
        }
    });
    (
        move || all.with(|a| a[..drawn.get().min(a.len())].to_vec()),
        move || drawn.get() >= all.with(Vec::len),
    )
}
