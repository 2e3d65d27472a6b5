//! The tournaments screen (`?view=tournaments`): the tournaments kept in this browser, each
//! with how far it got, and the set-up of a new one.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::super::app::{href, navigate};
use super::super::state::{AppState, Route};
use super::setup::TournamentSetup;
use crate::store::TournamentSummary;

/// Where a tournament stands, as a badge and a word.
pub(super) fn standing(t: &TournamentSummary) -> (&'static str, &'static str) {
    if t.finished() {
        ("done", "Finished")
    } else if t.stopped.is_some() {
        ("stopped", "Stopped")
    } else if t.debates_done == 0 && t.verdicts_in == 0 {
        ("stopped", "Not finished")
    } else {
        ("stopped", "Unfinished")
    }
}

#[component]
fn TournamentRow(item: TournamentSummary) -> impl IntoView {
    let state = expect_context::<AppState>();
    let route = Route::Tournament(item.id.clone());
    let go = route.clone();
    let (badge, word) = standing(&item);
    let running = state
        .tournaments
        .get(&item.id)
        .is_some_and(|r| r.is_running());
    let (badge, word) = if running {
        ("running", "Running")
    } else {
        (badge, word)
    };
    view! {
        <li class="history-row tournament-row" data-id=item.id.clone()>
            <a class="history-topic" href=href(&route) on:click=move |ev| { ev.prevent_default(); navigate(state, go.clone()) }>
                {item.name.clone()}
            </a>
            <div class="history-meta">
                <span class=format!("badge {badge}")>{word}</span>
                <span>{item.format.label()}</span>
                <span>{format!("{} contestants, {} motion{}", item.contestants, item.motions, if item.motions == 1 { "" } else { "s" })}</span>
                <span>{format!("{} of {} debates, {} of {} verdicts", item.debates_done, item.debates, item.verdicts_in, item.verdicts)}</span>
            </div>
        </li>
    }
}

#[component]
pub fn TournamentsScreen() -> impl IntoView {
    let state = expect_context::<AppState>();
    let list = RwSignal::new(None::<Result<Vec<TournamentSummary>, String>>);
    // Read once the store is open (at once when it already is).
    Effect::new(move |_| {
        if !state.ready.get() {
            return;
        }
        let Some(s) = state.session() else { return };
        spawn_local(async move {
            let read = s.store().tournaments().await;
            // The screen may be gone by now.
            let _ = list.try_set(Some(read));
        });
    });
    view! {
        <h1>"Tournaments"</h1>
        <p class="lede">
            "Which model argues best? A tournament has every pair of models debate every motion twice, sides swapped, "
            "and a judge or a panel decide each debate blind. The leaderboard ranks the models by Bradley–Terry strength, with how sure it is. "
            "Every debate is an ordinary debate in History: open, replay, export or fork it."
        </p>
        {move || match list.get() {
            None => view! { <p class="hint">"Reading your tournaments…"</p> }.into_any(),
            Some(Err(e)) => view! { <p class="error" role="alert">{format!("Your tournaments could not be read: {e}")}</p> }.into_any(),
            Some(Ok(items)) if items.is_empty() => view! { <p class="hint" id="no-tournaments">"No tournament yet: set one up below."</p> }.into_any(),
            Some(Ok(items)) => view! {
                <ul class="history-list" id="tournament-list">
                    {items.into_iter().map(|item| view! { <TournamentRow item=item/> }).collect_view()}
                </ul>
            }.into_any(),
        }}
        <TournamentSetup/>
    }
}
