//! The setup screen's web search: for each seat that argues, a switch that lets its
//! provider search the web on the user's key, offered only where the seat's connection and
//! model can (the others say why not). What a search cites becomes a source of the debate.

use leptos::prelude::*;

use super::seating::connections;
use super::state::AppState;
use crate::engine::DebateConfig;

pub use crate::session::setup_draft::{chosen_searches as chosen, SeatSearch};

/// The seats of `config` that argue, each with what its connection says of searching.
pub fn seats(state: AppState, config: &DebateConfig) -> Vec<SeatSearch> {
    crate::session::setup_draft::seat_searches(config, &connections(state))
}

#[component]
pub fn WebSearchForm(seats: Memo<Vec<SeatSearch>>, on: RwSignal<Vec<String>>) -> impl IntoView {
    let summary = move || match chosen(&seats.get(), &on.get()).len() {
        0 => "Web search (optional): let a seat's provider search the web".to_string(),
        n => format!(
            "Web search: on for {}",
            crate::engine::reading::count(n, "seat")
        ),
    };
    let rows = move || {
        let list = seats.get();
        if list.is_empty() {
            return view! { <p class="hint">"No seat here argues in free text (forecast roles answer in JSON, where providers do not search)."</p> }.into_any();
        }
        list.into_iter()
            .map(|s| {
                let id = s.id.clone();
                let id_change = s.id.clone();
                let can = s.can.is_ok();
                let why = s.can.clone().err();
                view! {
                    <div class="seat-search">
                        <label class="check">
                            <input type="checkbox" class="search-web" data-seat=s.id.clone() disabled=!can
                                prop:checked=move || can && on.with(|o| o.contains(&id))
                                on:change=move |ev| {
                                    let checked = event_target_checked(&ev);
                                    let id = id_change.clone();
                                    on.update(|o| {
                                        o.retain(|x| *x != id);
                                        if checked {
                                            o.push(id);
                                        }
                                    });
                                }/>
                            {format!(" {} searches the web", s.name)}
                        </label>
                        {why.map(|w| view! { <span class="hint cannot-search">{w}</span> })}
                    </div>
                }
            })
            .collect_view()
            .into_any()
    };
    view! {
        <details class="web-search-form">
            <summary>{summary}</summary>
            <p class="hint">"The provider searches on your key while the seat writes its speeches, and bills its searches as it says (a fee per search or per result, and the pages it reads as input). The pages it cites show as links under the turn and become sources the other seats can quote. Agora never opens them; a search that fails leaves the turn written without it, and says so."</p>
            {rows}
        </details>
    }
}
