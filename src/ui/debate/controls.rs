//! The debate's progress line: its state (a live region), where it is and what it has
//! used, and Pause, Stop and Resume.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::engine::event::Outcome;
use crate::ui::focus;
use crate::ui::state::DebateView;

/// The state badge's class and words.
fn status(d: DebateView) -> (&'static str, &'static str) {
    match (d.running.get(), d.outcome.get()) {
        (true, _) if d.paused.get() || d.held.get() || d.waiting.get() => ("stopped", "Paused"),
        (true, _) => ("running", "Running"),
        (false, Some((Outcome::Completed, _))) => ("done", "Finished"),
        (false, Some((Outcome::Stopped, _))) => ("stopped", "Stopped"),
        (false, Some((Outcome::Failed, _))) => ("failed", "Failed"),
        (false, None) => ("stopped", "Interrupted"),
    }
}

/// "Round 2 · 7 of 15 calls · 12,345 tokens".
fn progress(d: DebateView) -> String {
    let p = d.progress.get();
    let tokens = p.input_tokens + p.output_tokens;
    let est = if p.estimated { " (estimated)" } else { "" };
    // Some calls depend on what is said (an interruption, an interjection, a retry of a
    // weak argument): past the plan, the count stops saying "of". A finished debate made
    // the calls it needed: a plan is an upper bound for formats whose calls depend on what
    // is said (crux rooms, regenerations), so "67 of 103" would read as stopped short.
    let finished = matches!(d.outcome.get(), Some((Outcome::Completed, _)));
    let calls = if finished && p.calls_done < p.planned {
        format!(
            "{} calls (the plan allowed up to {})",
            p.calls_done, p.planned
        )
    } else if finished {
        format!("{} calls", p.calls_done)
    } else if p.calls_done <= p.planned {
        format!("{} of {} calls", p.calls_done, p.planned)
    } else {
        format!("{} calls ({} planned)", p.calls_done, p.planned)
    };
    let phase = if p.phase.is_empty() {
        "Starting"
    } else {
        &p.phase
    };
    format!("{phase} · {calls} · {tokens} tokens{est}")
}

/// The progress line. `error` is the screen's line for a refused action.
#[component]
pub(super) fn RunControls(error: RwSignal<Option<String>>) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let shared = move || d.shared.with(Option::is_some);
    let stop = move |_| {
        if d.stop() {
            // Stop goes away with the run; Resume, drawn once it has ended, comes next.
            focus::focus_when(move || {
                (!d.running.get_untracked())
                    .then(|| focus::query("#resume").into_iter().next())
                    .flatten()
            });
        }
    };
    let resume = move |_| {
        error.set(None);
        let resumed = d.resume();
        spawn_local(async move {
            if let Err(e) = resumed.await {
                error.set(Some(e.to_string()));
            }
        });
    };
    // Held at a failed call, or stopped, failed or closed before its end: not a shared
    // debate, which is read-only until a copy is kept.
    let can_resume = move || {
        !shared()
            && ((d.running.get() && d.held.get())
                || (!d.running.get()
                    && !matches!(d.outcome.get(), Some((Outcome::Completed, _)))
                    && d.config.with(|c| c.is_some())))
    };
    view! {
        // Only the state is a live region; the token counts change too often to be read
        // out, and each finished turn is said once by the announcer.
        <div class="progress">
            <span class=move || format!("badge {}", status(d).0) role="status">{move || status(d).1}</span>
            <span class="progress-text">{move || progress(d)}</span>
            <span class="spacer"></span>
            // A debate held at a failed call offers Resume, not Pause: it starts no call
            // until the user resumes (calls already streaming finish).
            {move || (d.running.get() && !d.held.get()).then(|| view! {
                <button id="pause" class="secondary" on:click=move |_| d.toggle_pause()
                    title="Pausing lets the turn in flight finish, then waits">
                    {move || if d.paused.get() { "Continue" } else { "Pause" }}
                </button>
            })}
            {move || d.running.get().then(|| view! {
                <button id="stop" class="danger" on:click=stop>"Stop"</button>
            })}
            {move || can_resume().then(|| view! {
                <button id="resume" class="secondary" on:click=resume>"Resume"</button>
            })}
        </div>
    }
}
