//! Replay of a stored debate: a timeline scrubbed turn by turn, and playback that streams
//! each turn's text again at a chosen speed. It only redraws the view from the log
//! (`engine::replay::Tape` cuts it); nothing is called and nothing stored changes.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::DebateView;
use crate::engine::clock::Clock;
use crate::engine::event::EventKind;
use crate::engine::replay::{pieces, Tape};
use crate::session::browser::BrowserClock;

/// A replay under way: the tape, the turn shown, and the playback's generation (each
/// scrub, pause or exit starts a new one; an older playback loop sees it and stops).
#[derive(Clone, Copy)]
struct Player {
    d: DebateView,
    tape: StoredValue<Option<Tape>, LocalStorage>,
    at: RwSignal<usize>,
    playing: RwSignal<bool>,
    speed: RwSignal<usize>,
    generation: StoredValue<u32>,
}

impl Player {
    fn turns(&self) -> usize {
        self.tape.with_value(|t| t.as_ref().map_or(0, Tape::turns))
    }

    fn next_generation(&self) -> u32 {
        self.generation.update_value(|g| *g += 1);
        self.generation.get_value()
    }

    /// Shows the debate up to the end of the `j`-th turn, and how it ended.
    fn scrub(&self, j: usize) {
        self.next_generation();
        self.playing.set(false);
        self.at.set(j);
        self.tape.with_value(|t| {
            if let Some(t) = t {
                self.d.show_prefix(t.prefix(j));
                if let Some(end) = t.ending() {
                    self.d.apply(end);
                }
            }
        });
    }

    /// Leaves the replay, the whole debate shown again.
    fn exit(&self) {
        self.next_generation();
        self.playing.set(false);
        self.tape.with_value(|t| {
            if let Some(t) = t {
                self.d.show_prefix(t.log());
            }
        });
        self.tape.set_value(None);
    }

    /// Plays from the turn shown (from the start when at the end); pauses when playing.
    fn play_or_pause(self) {
        if self.playing.get_untracked() {
            return self.scrub(self.at.get_untracked());
        }
        if self.at.get_untracked() >= self.turns() {
            self.scrub(0);
        }
        let mine = self.next_generation();
        self.playing.set(true);
        spawn_local(async move {
            let live = move || self.generation.get_value() == mine;
            while live() && self.at.get_untracked() < self.turns() {
                let j = self.at.get_untracked();
                let Some((before, finished)) = self.tape.with_value(|t| {
                    let s = t.as_ref()?.step(j)?;
                    Some((s.before.to_vec(), s.finished.clone()))
                }) else {
                    return;
                };
                for e in &before {
                    self.d.apply(e);
                }
                if let EventKind::TurnFinished { call, text, .. } = &finished.kind {
                    let call = call.to_string();
                    for piece in pieces(text, self.speed.get_untracked()) {
                        if !live() {
                            return;
                        }
                        self.d.delta(&call, &piece);
                        BrowserClock.sleep(50).await;
                    }
                }
                if !live() {
                    return;
                }
                self.d.apply(&finished);
                self.at.set(j + 1);
            }
            if live() {
                self.playing.set(false);
            }
        });
    }
}

#[component]
pub fn Replay() -> impl IntoView {
    let d = expect_context::<DebateView>();
    let p = Player {
        d,
        tape: StoredValue::new_local(None),
        at: RwSignal::new(0),
        playing: RwSignal::new(false),
        speed: RwSignal::new(2),
        generation: StoredValue::new(0),
    };
    let active = RwSignal::new(false);
    let total = RwSignal::new(0usize);
    // The tape cut from the whole log, shown from its start; `play` plays it at once.
    let begin = move |play: bool| {
        let events = d.log();
        spawn_local(async move {
            if let Ok(events) = events.await {
                let tape = Tape::new(events);
                total.set(tape.turns());
                p.tape.set_value(Some(tape));
                active.set(true);
                p.scrub(0);
                if play {
                    p.play_or_pause();
                }
            }
        });
    };
    let start = move |_| begin(false);
    // An example of the gallery plays from its start as it opens, once.
    let autoplayed = StoredValue::new(None::<String>);
    Effect::new(move |_| {
        let Some(name) = d.example.get() else { return };
        if autoplayed.get_value().as_ref() == Some(&name) {
            return;
        }
        autoplayed.set_value(Some(name));
        begin(true);
    });
    view! {
        {move || if !active.get() {
            view! { <button id="replay" class="link" on:click=start>"Replay"</button> }.into_any()
        } else { view! {
            <div class="replay" role="group" aria-label="Replay">
                <button id="replay-play" class="secondary" on:click=move |_| p.play_or_pause()>{move || if p.playing.get() { "Pause" } else { "Play" }}</button>
                <input id="replay-at" type="range" min="0" max=move || total.get() prop:value=move || p.at.get()
                    aria-label="Turns shown" on:input=move |ev| p.scrub(event_target_value(&ev).parse().unwrap_or(0))/>
                <span id="replay-pos">{move || format!("Turn {} of {}", p.at.get(), total.get())}</span>
                <select id="replay-speed" aria-label="Replay speed" on:change=move |ev| p.speed.set(event_target_value(&ev).parse().unwrap_or(2))>
                    <option value="1">"1×"</option>
                    <option value="2" selected>"2×"</option>
                    <option value="5">"5×"</option>
                    <option value="20">"20×"</option>
                </select>
                <button id="replay-exit" class="link" on:click=move |_| { p.exit(); active.set(false); }>"Skip to the end"</button>
            </div>
        }.into_any() }}
    }
}
