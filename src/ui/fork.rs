//! "Continue from here": a finished turn forks the debate into a new one that shares its
//! history up to that turn (`engine::export::fork`), optionally on another model, and runs
//! on from there. The new debate's header links back to where it branched.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::app::navigate;
use super::seating::{connections, ConnectionOptions};
use super::state::{AppState, Route};
use crate::engine::config::Participant;
use crate::engine::event::{CallKey, Event, EventKind};
use crate::engine::export;
use crate::session::Connection;

/// Puts every model seat of the log's configuration on `conn` (with `model`, or the
/// connection's default model when empty).
fn retarget(log: &mut [Event], conn: &Connection, model: &str) {
    let model = if model.trim().is_empty() {
        conn.default_model.clone()
    } else {
        model.trim().to_string()
    };
    // One price for every seat: the table is read from storage once, not per seat.
    let price = crate::session::saved::load_prices().price(Some(conn), &model);
    if let Some(EventKind::DebateStarted { config, .. }) = log.first_mut().map(|e| &mut e.kind) {
        for seat in &mut config.seats {
            if let Participant::Model { .. } = seat.participant {
                seat.participant = Participant::Model {
                    connection: conn.id.clone(),
                    connection_label: conn.label.clone(),
                    model: model.clone(),
                    context_tokens: conn.context_tokens,
                    price,
                };
            }
        }
    }
}

/// The turn the user asked to continue from (its call and a label for people), shared by
/// every turn's button and the one panel that asks how to continue. One panel, not a form
/// per turn: a debate of hundreds of turns stays light to draw.
#[derive(Clone, Copy)]
pub struct ForkAt(pub RwSignal<Option<(CallKey, String)>>);

/// A finished turn's "Continue from here".
pub fn fork_button(call: CallKey, label: String) -> impl IntoView {
    let ForkAt(at) = expect_context::<ForkAt>();
    view! {
        <button type="button" class="link fork" on:click=move |_| {
            at.set(Some((call.clone(), label.clone())));
            super::focus::focus_selector(".fork-panel select");
        }>
            "Continue from here"
        </button>
    }
}

/// The panel that asks how to continue: in the app only (a fork is a new debate in its
/// History; a widget offers no fork).
#[component]
pub fn ForkPanel() -> impl IntoView {
    use_context::<AppState>().map(|state| view! { <ForkForm state/> })
}

#[component]
fn ForkForm(state: AppState) -> impl IntoView {
    let ForkAt(at) = expect_context::<ForkAt>();
    let (conn, model) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let error = RwSignal::new(None::<String>);
    // The copy a shared debate's fork keeps, reused if the fork is tried again.
    let kept_copy = StoredValue::new(None::<String>);
    let go = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (Some(s), Some((call, _))) = (state.session(), at.get_untracked()) else {
            return;
        };
        let (conn_id, model) = (conn.get_untracked(), model.get_untracked());
        let target = connections(state).into_iter().find(|c| c.id == conn_id);
        let (events, stored_id) = (state.debate.log(), state.debate.id.get_untracked());
        // A shared debate's seats are on the sharer's connections, which this browser
        // does not have: it goes on only on one of the visitor's own.
        if stored_id.is_none() && target.is_none() {
            error.set(Some(
                "Pick one of your connections to go on with (add one under New debate first)."
                    .into(),
            ));
            return;
        }
        spawn_local(async move {
            let forked = async {
                let events = events.await?;
                // A shared debate is kept first, so the fork links back to a debate that
                // exists in this browser.
                let id = match stored_id.or_else(|| kept_copy.get_value()) {
                    Some(id) => id,
                    None => {
                        let id = s.adopt(events.clone()).await.map_err(|e| e.to_string())?;
                        kept_copy.set_value(Some(id.clone()));
                        id
                    }
                };
                let mut log = export::fork(&events, &call, &id)?;
                if let Some(c) = &target {
                    retarget(&mut log, c, &model);
                }
                let new_id = s.adopt(log).await.map_err(|e| e.to_string())?;
                s.resume(&new_id).await.map_err(|e| e.to_string())?;
                Ok::<_, String>(new_id)
            };
            match forked.await {
                Ok(new_id) => {
                    at.set(None);
                    navigate(state, Route::Debate(new_id));
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    move || {
        // A shared debate's connections are the sharer's: it goes on on one of the
        // visitor's own.
        let shared = state.debate.shared.with(Option::is_some);
        if shared && conn.get_untracked().is_empty() {
            if let Some(first) = connections(state).first() {
                conn.set(first.id.clone());
            }
        }
        at.get().map(|(_, label)| {
            view! {
                <form class="fork-panel" role="dialog" aria-label="Continue from here" on:submit=go
                    on:keydown=move |ev| if ev.key() == "Escape" { ev.prevent_default(); at.set(None) }>
                    <p>"A new debate with this history up to "<strong>{label}</strong>", going on from there on"</p>
                    <select aria-label="Connection for the fork" on:change=move |ev| conn.set(event_target_value(&ev))>
                        {(!shared).then(|| view! { <option value="">"the same models"</option> })}
                        <ConnectionOptions/>
                    </select>
                    {move || (!conn.get().is_empty()).then(|| view! {
                        <input aria-label="Model for the fork" placeholder="model (the connection's default)"
                            prop:value=move || model.get() on:input=move |ev| model.set(event_target_value(&ev))/>
                    })}
                    <button type="submit" class="primary">"Fork and continue"</button>
                    <button type="button" class="link" on:click=move |_| at.set(None)>"Cancel"</button>
                    {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                </form>
            }
        })
    }
}

/// The line under a forked debate's title: where it branched, linking back.
#[component]
pub fn ForkedFrom() -> impl IntoView {
    let d = expect_context::<crate::ui::state::DebateView>();
    // The original is a link in the app; a widget names it only.
    let app = use_context::<AppState>();
    move || {
        d.config.with(|c| c.as_ref().and_then(|c| c.forked_from.clone())).map(|f| {
            let route = Route::Debate(f.debate.clone());
            let original = match app {
                Some(app) => view! {
                    <a href=super::app::href(&route) on:click=move |ev| { ev.prevent_default(); navigate(app, route.clone()) }>"another debate"</a>
                }
                .into_any(),
                None => "another debate".into_any(),
            };
            view! {
                <p class="forked-from">"Forked from "{original}" after "{f.label}"; everything after that turn is new."</p>
            }
        })
    }
}
