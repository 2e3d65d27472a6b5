//! Replay of a stored debate: a timeline scrubbed turn by turn, and playback that streams
//! each turn's text again at a chosen speed. It only redraws the view from the log; nothing
//! is called and nothing stored changes.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::DebateView;
use crate::engine::clock::Clock;
use crate::engine::event::{Event, EventKind};
use crate::session::browser::BrowserClock;

/// Where each turn ends in the log (the index of its `TurnFinished`).
fn turn_ends(log: &[Event]) -> Vec<usize> {
    log.iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.kind, EventKind::TurnFinished { .. }))
        .map(|(i, _)| i)
        .collect()
}

#[component]
pub fn Replay() -> impl IntoView {
    let d = expect_context::<DebateView>();
    let log = StoredValue::new(Vec::<Event>::new());
    let ends = StoredValue::new(Vec::<usize>::new());
    let (active, playing) = (RwSignal::new(false), RwSignal::new(false));
    let (at, total) = (RwSignal::new(0usize), RwSignal::new(0usize));
    let speed = RwSignal::new(2usize);
    // Each scrub, pause or exit starts a new generation; an older playback loop sees it and stops.
    let generation = StoredValue::new(0u32);
    let next_generation = move || {
        generation.update_value(|g| *g += 1);
        generation.get_value()
    };
    // The log up to the end of the `j`-th turn (0: before the first one).
    let cut = move |j: usize| {
        if j == 0 {
            1
        } else {
            ends.with_value(|e| e[j - 1] + 1)
        }
    };
    let scrub = move |j: usize| {
        next_generation();
        playing.set(false);
        at.set(j);
        log.with_value(|l| {
            d.show_prefix(&l[..cut(j).min(l.len())]);
            // How the debate ended stays shown (no Resume offered mid-replay).
            if let Some(end) = l
                .last()
                .filter(|e| matches!(e.kind, EventKind::Finished { .. }))
            {
                d.apply(end);
            }
        });
    };
    let start = move |_| {
        let events = d.log();
        spawn_local(async move {
            if let Ok(events) = events.await {
                ends.set_value(turn_ends(&events));
                total.set(ends.with_value(Vec::len));
                log.set_value(events);
                active.set(true);
                scrub(0);
            }
        });
    };
    let exit = move |_| {
        next_generation();
        playing.set(false);
        log.with_value(|l| d.show_prefix(l));
        active.set(false);
    };
    let play = move |_| {
        if playing.get_untracked() {
            scrub(at.get_untracked());
            return;
        }
        if at.get_untracked() >= total.get_untracked() {
            scrub(0);
        }
        let mine = next_generation();
        playing.set(true);
        spawn_local(async move {
            let live = move || generation.get_value() == mine;
            while live() && at.get_untracked() < total.get_untracked() {
                let j = at.get_untracked();
                let (from, end) = (cut(j), ends.with_value(|e| e[j]));
                let (before, finished) =
                    log.with_value(|l| (l[from..end].to_vec(), l[end].clone()));
                for e in &before {
                    d.apply(e);
                }
                if let EventKind::TurnFinished { call, text, .. } = &finished.kind {
                    let call = call.to_string();
                    let words: Vec<&str> = text.split_inclusive(char::is_whitespace).collect();
                    for chunk in words.chunks(speed.get_untracked()) {
                        if !live() {
                            return;
                        }
                        d.delta(&call, &chunk.concat());
                        BrowserClock.sleep(50).await;
                    }
                }
                if !live() {
                    return;
                }
                d.apply(&finished);
                at.set(j + 1);
            }
            if live() {
                playing.set(false);
            }
        });
    };
    view! {
        {move || if !active.get() {
            view! { <button id="replay" class="link" on:click=start>"Replay"</button> }.into_any()
        } else { view! {
            <div class="replay" role="group" aria-label="Replay">
                <button id="replay-play" class="secondary" on:click=play>{move || if playing.get() { "Pause" } else { "Play" }}</button>
                <input id="replay-at" type="range" min="0" max=move || total.get() prop:value=move || at.get()
                    aria-label="Turns shown" on:input=move |ev| scrub(event_target_value(&ev).parse().unwrap_or(0))/>
                <span id="replay-pos">{move || format!("Turn {} of {}", at.get(), total.get())}</span>
                <select id="replay-speed" aria-label="Replay speed" on:change=move |ev| speed.set(event_target_value(&ev).parse().unwrap_or(2))>
                    <option value="1">"1×"</option>
                    <option value="2" selected>"2×"</option>
                    <option value="5">"5×"</option>
                    <option value="20">"20×"</option>
                </select>
                <button id="replay-exit" class="link" on:click=exit>"Exit replay"</button>
            </div>
        }.into_any() }}
    }
}
