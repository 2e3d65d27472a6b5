//! Who fills a seat, as every setup form offers it: the debate's connection and model, a
//! connection of the seat's own, or the user. `session::setup_draft::Seating` turns those
//! choices into a `Participant`, priced as the user's price table says.

use leptos::prelude::*;

use super::state::AppState;
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

use crate::session::setup_draft::SeatPick;
/// Turns seat choices into participants (`session::setup_draft`, tested there).
pub use crate::session::setup_draft::Seating;

/// What a seat's select offers: the debate's connection, one of the connections, or a person.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatFill {
    Same,
    Connection(String),
    Person,
}

impl SeatFill {
    /// The select's option value: the one place these values are written or read.
    pub fn value(&self) -> &str {
        match self {
            SeatFill::Same => "__same",
            SeatFill::Person => "__human",
            SeatFill::Connection(id) => id,
        }
    }

    pub fn from_value(v: &str) -> Self {
        match v {
            "__same" => SeatFill::Same,
            "__human" => SeatFill::Person,
            id => SeatFill::Connection(id.to_string()),
        }
    }
}

/// Who sits in one seat: a connection (empty: the debate's) and model, or the user.
#[derive(Clone, Copy)]
pub struct SeatChoice {
    pub connection: RwSignal<String>,
    pub model: RwSignal<String>,
    pub human: RwSignal<bool>,
}

impl SeatChoice {
    pub fn new() -> Self {
        SeatChoice {
            connection: RwSignal::new(String::new()),
            model: RwSignal::new(String::new()),
            human: RwSignal::new(false),
        }
    }

    /// Seats what the seat's select says.
    pub fn fill(&self, fill: SeatFill, connections: &[Connection]) {
        self.human.set(fill == SeatFill::Person);
        match fill {
            SeatFill::Same => self.connection.set(String::new()),
            SeatFill::Connection(id) => {
                if let Some(c) = connections.iter().find(|c| c.id == id) {
                    self.model.set(c.default_model.clone())
                }
                self.connection.set(id);
            }
            SeatFill::Person => {}
        }
    }

    /// What the seat's fields say now (read reactively).
    pub fn pick(&self) -> SeatPick {
        SeatPick {
            connection: self.connection.get(),
            model: self.model.get(),
            human: self.human.get(),
        }
    }

    /// The select's current value.
    pub fn value(&self) -> String {
        if self.human.get() {
            return SeatFill::Person.value().to_string();
        }
        let c = self.connection.get();
        if c.is_empty() {
            SeatFill::Same.value().to_string()
        } else {
            c
        }
    }
}

impl Default for SeatChoice {
    fn default() -> Self {
        Self::new()
    }
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
    seat: SeatChoice,
    #[prop(default = true)] allow_person: bool,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <select aria-label=move || format!("{} connection", name.get()) prop:value=move || seat.value() on:change=move |ev| {
            seat.fill(SeatFill::from_value(&event_target_value(&ev)), &connections(state));
        }>
            <option value=SeatFill::Same.value()>"Same as above"</option>
            <ConnectionOptions/>
            {allow_person.then(|| view! { <option value=SeatFill::Person.value()>"Me (I type this seat's turns)"</option> })}
        </select>
        <input aria-label=move || format!("{} model", name.get()) placeholder="model"
            disabled=move || seat.human.get() || seat.connection.get().is_empty()
            prop:value=move || seat.model.get() on:input=move |ev| seat.model.set(event_target_value(&ev))/>
    }
}

/// "X runs on": a labelled select of the connections, where the empty choice (worded by
/// `default`) means the debate's own or another seat's.
#[component]
pub fn ConnectionSelect(
    id: &'static str,
    label: &'static str,
    default: &'static str,
    value: RwSignal<String>,
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
