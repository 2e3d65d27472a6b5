//! Who fills a seat, as every setup form offers it: the debate's connection and model, a
//! connection of the seat's own, or the user. `session::setup_draft::Seating` turns those
//! choices into a `Participant`, priced as the user's price table says.

use leptos::prelude::*;

use super::fields::Bound;
use super::state::AppState;
pub use crate::session::setup_draft::{SeatFill, SeatPick, Seating};
use crate::session::Connection;

pub(crate) fn connections(state: AppState) -> Vec<Connection> {
    state.connections_version.track();
    state.session().map(|s| s.connections()).unwrap_or_default()
}

/// The connection a form starts with: the best no-key connection this page can use (the
/// local server when it answers, else the model inside the page when its file is served),
/// else the user's own first connection; `None` while the page is still finding out, or
/// when nothing would work without the user choosing.
pub fn default_connection(state: AppState) -> Option<Connection> {
    let all = connections(state);
    let found = state.no_key.get()?;
    let id = match found.best() {
        Some(id) => id.to_string(),
        None => all
            .iter()
            .find(|c| c.origin == crate::session::ConnectionOrigin::User)?
            .id
            .clone(),
    };
    all.into_iter().find(|c| c.id == id)
}

/// The options of a connection select.
#[component]
pub fn ConnectionOptions() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        // The local server is offered even when it did not answer (it may be started
        // later), but says so.
        let silent = state.no_key.get().is_some_and(|n| !n.local);
        connections(state)
            .into_iter()
            .map(|c| {
                let label = if silent && c.id == Connection::LOCAL {
                    format!("{}: not answering on this computer", c.label)
                } else {
                    c.label
                };
                view! { <option value=c.id>{label}</option> }
            })
            .collect_view()
    }
}

/// A seat's connection select and model field; `allow_person` offers "Me" too.
#[component]
pub fn SeatPicker(
    name: Signal<String>,
    #[prop(into)] seat: Bound<SeatPick>,
    #[prop(default = true)] allow_person: bool,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <select aria-label=move || format!("{} connection", name.get()) prop:value=move || seat.get().fill_value() on:change=move |ev| {
            let fill = SeatFill::from_value(&event_target_value(&ev));
            seat.update(|p| p.fill(fill, &connections(state)));
        }>
            <option value=SeatFill::Same.value()>"Same as above"</option>
            <ConnectionOptions/>
            {allow_person.then(|| view! { <option value=SeatFill::Person.value()>"Me (I type this seat's turns)"</option> })}
        </select>
        <input aria-label=move || format!("{} model", name.get()) placeholder="model"
            disabled=move || !seat.get().model_editable()
            prop:value=move || seat.get().model on:input=move |ev| seat.update(|p| p.model = event_target_value(&ev))/>
    }
}

/// "X runs on": a labelled select of the connections, where the empty choice (worded by
/// `default`) means the debate's own or another seat's.
#[component]
pub fn ConnectionSelect(
    id: &'static str,
    label: &'static str,
    default: &'static str,
    #[prop(into)] value: Bound<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="label">{label}</span>
            <select id=id prop:value=move || value.get() on:change=move |ev| value.set(event_target_value(&ev))>
                <option value="">{default}</option>
                <ConnectionOptions/>
            </select>
        </label>
    }
}
