//! The history screen: every stored debate, newest first, with open and delete.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::app::{href, navigate, refresh_history, session};
use super::inpage::cached_models;
use super::state::{AppState, Route};
use crate::engine::event::Outcome;
use crate::store::DebateSummary;

fn when(ms: u64) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms as f64));
    String::from(d.to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED))
}

fn outcome_badge(o: Option<Outcome>) -> (&'static str, &'static str) {
    match o {
        Some(Outcome::Completed) => ("done", "Finished"),
        Some(Outcome::Stopped) => ("stopped", "Stopped"),
        Some(Outcome::Failed) => ("failed", "Failed"),
        None => ("stopped", "Unfinished"),
    }
}

#[component]
fn HistoryRow(item: DebateSummary) -> impl IntoView {
    let state = expect_context::<AppState>();
    let confirming = RwSignal::new(false);
    let route = Route::Debate(item.id.clone());
    let open_route = route.clone();
    let id = item.id.clone();
    let delete = move |_| {
        let Some(s) = session() else { return };
        let id = id.clone();
        spawn_local(async move {
            match s.delete(&id).await {
                Ok(()) => {
                    if state.debate.id.get_untracked().as_deref() == Some(id.as_str()) {
                        state.debate.reset(None);
                    }
                    refresh_history(state);
                }
                Err(e) => state.notice.set(Some(format!("Could not delete: {e}"))),
            }
        });
    };
    let (badge, badge_text) = outcome_badge(item.outcome);
    view! {
        <li class="history-row">
            <a class="history-topic" href=href(&route) on:click=move |ev| { ev.prevent_default(); navigate(state, open_route.clone()) }>
                {item.topic.clone()}
            </a>
            <div class="history-meta">
                <span class=format!("badge {badge}")>{badge_text}</span>
                <span>{item.format.clone()}</span>
                <span>{if item.turns == 1 { "1 turn".to_string() } else { format!("{} turns", item.turns) }}</span>
                <span>{when(item.created_ms)}</span>
                <span class="spacer"></span>
                <Show when=move || confirming.get() fallback=move || view! {
                    <button class="link danger-text" on:click=move |_| confirming.set(true)>"Delete"</button>
                }>
                    <button class="danger small confirm-delete" on:click=delete.clone()>"Delete for good"</button>
                    <button class="link" on:click=move |_| confirming.set(false)>"Cancel"</button>
                </Show>
            </div>
        </li>
    }
}

#[component]
pub fn HistoryScreen() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <section class="history">
            <h1>"History"</h1>
            <p class="hint">"Debates are kept in this browser only (IndexedDB). API keys are never stored with them."</p>
            <Show when=move || !state.history.get().is_empty() fallback=move || view! {
                <div class="card empty">
                    <p>"No debates yet."</p>
                    <a href=href(&Route::Setup) on:click=move |ev| { ev.prevent_default(); navigate(state, Route::Setup) }>"Start one"</a>
                </div>
            }>
                <ul class="history-list">
                    <For each=move || state.history.get() key=|d| (d.id.clone(), d.updated_ms, d.turns) let:item>
                        <HistoryRow item=item/>
                    </For>
                </ul>
            </Show>
            {cached_models()}
        </section>
    }
}
