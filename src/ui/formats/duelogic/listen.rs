//! Listen: the episode read aloud with the browser's own speech synthesis, one voice per
//! speaker (and a pitch of its own, so speakers stay distinct on a device with one voice),
//! play and pause, skip by turn, and the transcript following along.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{SpeechSynthesis, SpeechSynthesisUtterance, SpeechSynthesisVoice};

use crate::ui::state::{BlockKind, DebateView, TurnBlock, TurnStatus};

fn synth() -> Option<SpeechSynthesis> {
    web_sys::window()?.speech_synthesis().ok()
}

/// What a listener hears of a turn: its text without Markdown's marks.
fn speakable(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '*' | '_' | '#' | '`' | '>' | '|'))
        .collect()
}

/// The finished turns, in order: (block key, seat, text).
fn turns(state: DebateView) -> Vec<(String, String, String)> {
    state.blocks.with_untracked(|blocks| {
        blocks
            .iter()
            .filter_map(|b| match &b.kind {
                BlockKind::Turn(TurnBlock {
                    seat,
                    view,
                    analysis: false,
                    ..
                }) if matches!(
                    view.status.get_untracked(),
                    TurnStatus::Done
                        | TurnStatus::Cut
                        | TurnStatus::Truncated
                        | TurnStatus::Limit(_)
                ) =>
                {
                    Some((b.key.clone(), seat.clone(), view.text.get_untracked()))
                }
                _ => None,
            })
            .collect()
    })
}

#[derive(Clone, Copy)]
struct Player {
    state: DebateView,
    playing: RwSignal<bool>,
    paused: RwSignal<bool>,
    /// Index of the turn being read.
    at: RwSignal<usize>,
    /// Bumped by every new utterance, so the end of a cancelled one does not advance.
    generation: StoredValue<u64>,
}

impl Player {
    fn speak(self, i: usize) {
        let Some(s) = synth() else { return };
        let all = turns(self.state);
        let Some((key, seat, text)) = all.get(i).cloned() else {
            // Past the last turn: done, and the next Play starts from the beginning.
            self.stop();
            self.at.set(0);
            return;
        };
        s.cancel();
        if self.paused.get_untracked() {
            s.resume(); // a paused synthesiser would hold the new utterance too
        }
        let generation = self.generation.get_value() + 1;
        self.generation.set_value(generation);
        let Ok(u) = SpeechSynthesisUtterance::new_with_text(&speakable(&text)) else {
            return;
        };
        // A voice and a pitch per speaker, by the seat's place in the debate.
        let place = self.state.config.with_untracked(|c| {
            c.as_ref()
                .and_then(|c| c.seats.iter().position(|x| x.id == seat))
                .unwrap_or(0)
        });
        // Voices of the reader's language first (an English episode in a German voice is
        // hard to follow), any voice otherwise.
        let all: Vec<SpeechSynthesisVoice> = s
            .get_voices()
            .iter()
            .map(|v| v.unchecked_into::<SpeechSynthesisVoice>())
            .collect();
        let lang = web_sys::window()
            .and_then(|w| w.navigator().language())
            .unwrap_or_else(|| "en".into());
        let prefix = lang.split('-').next().unwrap_or("en").to_ascii_lowercase();
        let mine: Vec<&SpeechSynthesisVoice> = all
            .iter()
            .filter(|v| v.lang().to_ascii_lowercase().starts_with(&prefix))
            .collect();
        let pool: Vec<&SpeechSynthesisVoice> = if mine.is_empty() {
            all.iter().collect()
        } else {
            mine
        };
        if !pool.is_empty() {
            u.set_voice(Some(pool[place % pool.len()]));
        }
        u.set_pitch(0.8 + 0.15 * (place % 4) as f32);
        let me = self;
        let on_end = Closure::once_into_js(move || {
            if me.generation.get_value() == generation && me.playing.get_untracked() {
                me.speak(i + 1);
            }
        });
        u.set_onend(Some(on_end.unchecked_ref()));
        self.at.set(i);
        self.playing.set(true);
        self.paused.set(false);
        self.state.speaking.set(Some(key.clone()));
        if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
            d.query_selector(&format!("[data-block=\"{key}\"]"))
                .ok()
                .flatten()
        }) {
            el.scroll_into_view_with_bool(false);
        }
        s.speak(&u);
    }

    fn stop(self) {
        self.generation.set_value(self.generation.get_value() + 1);
        if let Some(s) = synth() {
            s.cancel();
        }
        self.playing.set(false);
        self.paused.set(false);
        self.state.speaking.set(None);
    }

    fn toggle(self) {
        let Some(s) = synth() else { return };
        match (self.playing.get_untracked(), self.paused.get_untracked()) {
            (true, false) => {
                s.pause();
                self.paused.set(true);
            }
            (true, true) => {
                s.resume();
                self.paused.set(false);
            }
            (false, _) => self.speak(self.at.get_untracked()),
        }
    }
}

#[component]
pub fn Listen() -> impl IntoView {
    let state = expect_context::<DebateView>();
    let p = Player {
        state,
        playing: RwSignal::new(false),
        paused: RwSignal::new(false),
        at: RwSignal::new(0),
        generation: StoredValue::new(0),
    };
    on_cleanup(move || p.stop());
    let available = synth().is_some();
    let count = move || {
        state.blocks.track();
        turns(state).len()
    };
    view! {
        <div class="listen" role="group" aria-label="Listen">
            {if available {
                view! {
                    <button id="listen-play" class="secondary" on:click=move |_| p.toggle()>
                        {move || match (p.playing.get(), p.paused.get()) {
                            (true, false) => "Pause",
                            (true, true) => "Continue",
                            _ => "▶ Listen",
                        }}
                    </button>
                    <button id="listen-prev" class="link" title="Previous turn"
                        on:click=move |_| p.speak(p.at.get_untracked().saturating_sub(1))>"‹ Previous"</button>
                    <button id="listen-next" class="link" title="Next turn"
                        on:click=move |_| p.speak(p.at.get_untracked() + 1)>"Next ›"</button>
                    {move || p.playing.get().then(|| view! {
                        <button id="listen-stop" class="link" on:click=move |_| p.stop()>"Stop"</button>
                        <span class="hint">{move || format!("Turn {} of {}", p.at.get() + 1, count())}</span>
                    })}
                }
                .into_any()
            } else {
                view! { <span class="hint">"This browser cannot read aloud."</span> }.into_any()
            }}
        </div>
    }
}
