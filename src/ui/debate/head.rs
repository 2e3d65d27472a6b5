//! The top of the debate screen: a shared debate's banner (with Keep a copy) and the
//! debate's head (its format, topic, where it was forked from, and its seats).

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::ui::app::navigate;
use crate::ui::fork::ForkedFrom;
use crate::ui::state::{AppState, DebateView, Route};

/// Shown over a debate that came in a link or is an example of the gallery, in the app (a
/// widget has no store to keep it).
#[component]
pub(super) fn SharedBanner(app: AppState, error: RwSignal<Option<String>>) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let keep_copy = move |_| {
        let Some(kept) = d.keep_copy() else { return };
        spawn_local(async move {
            match kept.await {
                Ok(id) => navigate(app, Route::Debate(id)),
                Err(e) => error.set(Some(format!("The copy could not be kept: {e}"))),
            }
        });
    };
    let about = move || {
        if d.example.with(Option::is_some) {
            view! { <p id="example-note"><strong>"An example debate, written for Agora: not a live run."</strong>" Every answer in it was written to show what this format produces; its scores, rankings and checked quotes were worked out by Agora from those answers, as for any debate. Nothing of it is stored in this browser unless you keep a copy."</p> }.into_any()
        } else {
            view! { <p><strong>"Shared with you."</strong>" This debate came in the link you opened: it is read-only and nothing of it is stored in this browser unless you keep a copy. Replay and exports work as they do for your own debates."</p> }.into_any()
        }
    };
    view! {
        <div class="shared-banner" role="note">
            {about}
            <div class="row">
                <button type="button" id="keep-copy" class="primary" on:click=keep_copy>"Keep a copy"</button>
                <span class="hint">"or press Continue from here under a turn to go on from it with your own connection."</span>
            </div>
        </div>
    }
}

/// The debate's format and topic; `whole` adds where it was forked from and its seats.
#[component]
pub(super) fn DebateHead(whole: bool) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let seats = move || {
        d.config.with(|c| {
            c.as_ref().map(|c| {
                c.seats
                    .iter()
                    .map(|s| {
                        let stance = s.stance.clone().map(|x| format!(": {x}")).unwrap_or_default();
                        view! { <li class=format!("seat-{}", s.id)><strong>{s.name.clone()}</strong>{stance}<span class="model">{s.participant.describe()}</span></li> }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        <header class="debate-head">
            <p class="kicker">{move || d.config.with(|c| c.as_ref().map(|c| c.options.describe()))}</p>
            // Focused after Start, so the next Tab goes on from the debate.
            <h1 class="topic" tabindex=whole.then_some("-1")>{move || d.config.with(|c| c.as_ref().map(|c| c.topic.clone()))}</h1>
            {whole.then(|| view! {
                <ForkedFrom/>
                <ul class="seat-list">{seats}</ul>
            })}
        </header>
    }
}
