//! The tournaments screen (`?view=tournaments`): the tournaments kept in this browser, each
//! with how far it got, and the set-up of a new one.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::super::app::{href, navigate};
use super::super::state::{AppState, Route};
use super::setup::TournamentSetup;
use crate::engine::config::FormatId;
use crate::engine::tournament::progress::Tournament;
use crate::engine::tournament::you::{judges_and_you, WithYou, MIN_SHARED};
use crate::store::TournamentSummary;
use crate::ui::table::{data_table, Cell, Column};

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
    let list = RwSignal::new(None::<Result<Vec<TournamentSummary>, crate::store::StoreError>>);
    let with_you = RwSignal::new(Vec::<WithYou>::new());
    // Read once the store is open (at once when it already is).
    Effect::new(move |_| {
        if !state.ready.get() {
            return;
        }
        let Some(s) = state.session() else { return };
        spawn_local(async move {
            let read = s.store().tournaments().await;
            let ids: Vec<String> = read
                .as_ref()
                .map(|items| items.iter().map(|t| t.id.clone()).collect())
                .unwrap_or_default();
            // The screen may be gone by now.
            let _ = list.try_set(Some(read));
            // Every tournament folded, for the judges' agreement with the person; one that
            // does not read is left out here (its own screen says why).
            let mut folded = Vec::new();
            for id in ids {
                if let Ok(Some(log)) = s.store().tournament(&id).await {
                    if let Ok(t) = Tournament::from_events(&log) {
                        folded.push(t);
                    }
                }
            }
            // And every finished council, where a person may have ranked the answers.
            let mut councils = Vec::new();
            for d in s.list().await.unwrap_or_default() {
                if d.format == Some(FormatId::Council) {
                    if let Ok(Some(stored)) = s.load(&d.id).await {
                        councils.push(stored.events);
                    }
                }
            }
            let _ = with_you.try_set(judges_and_you(&folded, &councils));
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
        {move || {
            let rows = with_you.get();
            (!rows.is_empty()).then(|| view! { <JudgesAndYou rows/> })
        }}
        <TournamentSetup/>
    }
}

/// Each judge model's agreement with the person who judged beside it, over every
/// tournament here: Cohen's kappa with its 95% interval, or why it cannot be told yet.
#[component]
fn JudgesAndYou(rows: Vec<WithYou>) -> impl IntoView {
    let signed = crate::engine::formats::council::findings::signed;
    let body = rows
        .into_iter()
        .map(|w| {
            let a = &w.agreement;
            let kappa = match (w.enough(), a.kappa, a.interval) {
                // Every shared verdict the same (or every one different): the large-sample
                // interval has no width to give, so none is claimed.
                (true, Some(k), Some((lo, hi)))
                    if a.agreed == 0 || a.agreed == a.shared || lo == hi =>
                {
                    let all = if a.agreed == 0 { "differed" } else { "agreed" };
                    format!(
                        "κ {} (all {} {all}; no interval from that)",
                        signed(k),
                        a.shared
                    )
                }
                (true, Some(k), Some((lo, hi))) => {
                    format!(
                        "κ {} (95% interval {} to {})",
                        signed(k),
                        signed(lo),
                        signed(hi)
                    )
                }
                _ if a.shared >= MIN_SHARED => {
                    "Kappa cannot be told: every verdict fell in one category".to_string()
                }
                _ => format!("Too few shared verdicts to tell (it takes {MIN_SHARED})"),
            };
            vec![
                Cell::Head(w.judge.clone()),
                Cell::Text(a.shared.to_string()),
                Cell::Text(format!("{} of {}", a.agreed, a.shared)),
                Cell::Text(kappa),
                Cell::Text(w.occasions.to_string()),
            ]
        })
        .collect();
    view! {
        <section class="card ledger-section" id="judges-and-you-section">
            <h2>"Which judge agrees with you"</h2>
            {data_table("judges-and-you", "Judges and you", "", Some(
                "Wherever you judged a debate blind, each model judge's verdict on it beside yours; wherever you ranked a council's answers, each model member's ranking beside yours, pair of answers by pair (your own answer left out); over every tournament and council in this browser. Kappa discounts the agreement chance alone would give: 1 always agrees, 0 no better than chance, below 0 disagrees more than chance.".into()),
                vec![Column("Judge", false), Column("Shared verdicts", true), Column("Agreed", true), Column("Agreement (Cohen's kappa)", false), Column("Tournaments and councils", true)],
                body)}
        </section>
    }
}
