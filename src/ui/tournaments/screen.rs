//! One tournament's page (`?tournament=ID`): where it stands, Run and Stop, its spending
//! cap, a person's blind verdicts, the results and every debate. While a person on the
//! panel still has verdicts to give, nothing on the page says which model argued which
//! side: not the results, not the debates' sides, not a fault's own words.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::super::app::navigate;
use super::super::download;
use super::super::state::{AppState, Route};
use super::debates::DebatesTable;
use super::judging::YourVerdicts;
use super::results::Results;
use crate::engine::config::Participant;
use crate::engine::cost::{self, dollars};
use crate::engine::export::file_name_for;
use crate::engine::tournament::progress::Tournament;
use crate::engine::tournament::spec::short_names;
use crate::engine::tournament::standings::{self, standings};
use crate::session::tournament::TournamentRun;

/// Runs `run` in the background (its page may be left meanwhile); a refusal to run (another
/// tab has it) is told in the notice line.
pub(super) fn run_in_background(state: AppState, run: Rc<TournamentRun>) {
    spawn_local(async move {
        if let Err(e) = run.run().await {
            state.notice.set(Some(e.to_string()));
        }
    });
}

/// The verdicts a person on the panel still has to give (debates to come included): while
/// there are any, the page keeps every debate's sides hidden from them.
pub(super) fn person_pending(t: &Tournament) -> usize {
    let people: Vec<usize> = (0..t.spec.judges.len())
        .filter(|&j| t.spec.judges[j] == Participant::Human)
        .collect();
    t.matches
        .iter()
        .zip(&t.progress)
        .map(|(m, p)| {
            people
                .iter()
                .filter(|j| m.judges.contains(j) && !p.votes.iter().any(|v| v.judge == **j))
                .count()
        })
        .sum()
}

/// Where the tournament stands: a badge's class and word, and a line.
fn standing(t: &Tournament, running: bool, blind: bool) -> (&'static str, &'static str, String) {
    let (debates, verdicts) = t.counts();
    let all_verdicts = crate::engine::tournament::schedule::judge_calls(&t.matches);
    let counts = format!(
        "{debates} of {} debates, {verdicts} of {all_verdicts} verdicts",
        t.matches.len()
    );
    if running {
        return ("running", "Running", format!("Running: {counts}"));
    }
    if t.finished() {
        return ("done", "Finished", format!("Finished: {counts}"));
    }
    let pending = person_pending(t);
    if pending > 0 && t.work(&[]).len() == pending {
        return (
            "stopped",
            "Waiting",
            format!("Waiting for your verdicts: {counts}"),
        );
    }
    match &t.stopped {
        Some(_) if blind => (
            "stopped",
            "Stopped",
            format!(
                "Stopped: {counts}. Why is shown once your verdicts are in (it may name a model)."
            ),
        ),
        Some(why) => ("stopped", "Stopped", format!("Stopped: {counts}. {why}")),
        None if debates == 0 && verdicts == 0 => {
            ("stopped", "Not started", format!("Not started: {counts}"))
        }
        None => (
            "stopped",
            "Not finished",
            format!("Not finished: {counts}. Press Run on to go on."),
        ),
    }
}

#[component]
fn Controls(
    run: Rc<TournamentRun>,
    tour: RwSignal<Option<Tournament>>,
    running: RwSignal<bool>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let cap_field = RwSignal::new(
        tour.with_untracked(|t| t.as_ref().and_then(|t| t.spec.spending_cap))
            .map(cost::short)
            .unwrap_or_default(),
    );
    let cap_note = RwSignal::new(None::<Result<String, String>>);
    let (go, stop, set) = (run.clone(), run.clone(), run);
    let set_cap = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let usd = match cap_field.with_untracked(|c| c.trim().to_string()) {
            c if c.is_empty() => None,
            c => match cost::parse_decimal(&c) {
                Some(x) => Some(x),
                None => {
                    cap_note.set(Some(Err(
                        "The cap must be a number of dollars, like 5.00, or empty for none.".into(),
                    )));
                    return;
                }
            },
        };
        let run = set.clone();
        spawn_local(async move {
            let done = run.set_cap(usd).await.map_err(|e| e.to_string());
            cap_note.set(Some(done.map(|()| match usd {
                Some(x) => format!("The cap is now {}.", dollars(x)),
                None => "The tournament has no cap now.".into(),
            })));
        });
    };
    let finished = move || {
        tour.with(|t| {
            t.as_ref()
                .is_some_and(|t| t.work(&[]).len() == person_pending(t))
        })
    };
    view! {
        <div class="row tournament-controls">
            <button type="button" class="primary" id="tournament-run"
                disabled=move || running.get() || finished()
                on:click=move |_| run_in_background(state, go.clone())>
                {move || if tour.with(|t| t.as_ref().is_some_and(|t| t.counts() == (0, 0))) { "Run" } else { "Run on" }}
            </button>
            <button type="button" class="secondary" id="tournament-stop" disabled=move || !running.get()
                on:click=move |_| stop.stop()>"Stop"</button>
            <form class="cap" on:submit=set_cap>
                <input id="tournament-new-cap" type="number" min="0" step="any" placeholder="No cap" aria-label="Spending cap for the tournament ($)"
                    prop:value=move || cap_field.get() on:input=move |ev| cap_field.set(event_target_value(&ev))/>
                <button type="submit" class="secondary">"Set cap"</button>
            </form>
            {move || cap_note.get().map(|r| match r {
                Ok(m) => view! { <span class="ok" role="status">{m}</span> }.into_any(),
                Err(e) => view! { <span class="error" role="alert">{e}</span> }.into_any(),
            })}
        </div>
    }
}

/// The CSV and JSON downloads, with every debate's id.
fn downloads(tour: RwSignal<Option<Tournament>>) -> impl IntoView {
    let save = move |csv: bool| {
        tour.with_untracked(|t| {
            let Some(t) = t else { return };
            let s = standings(t);
            let saved = if csv {
                download::save(
                    &file_name_for(&t.spec.name, "csv"),
                    "text/csv",
                    &standings::csv(t, &s),
                )
            } else {
                let json =
                    serde_json::to_string_pretty(&standings::json(t, &s)).unwrap_or_default();
                download::save(
                    &file_name_for(&t.spec.name, "json"),
                    "application/json",
                    &json,
                )
            };
            if let Err(e) = saved {
                if let Some(state) = use_context::<AppState>() {
                    state.notice.set(Some(e));
                }
            }
        })
    };
    view! {
        <p class="exports" id="tournament-downloads">
            "Results, with every debate's id:"
            <button type="button" class="link" id="download-csv" on:click=move |_| save(true)>"CSV"</button>
            <button type="button" class="link" id="download-json" on:click=move |_| save(false)>"JSON"</button>
        </p>
    }
}

#[component]
fn DeleteTournament(id: String) -> impl IntoView {
    let state = expect_context::<AppState>();
    let confirming = RwSignal::new(false);
    let delete = move |_| {
        let Some(s) = state.session() else { return };
        let id = id.clone();
        spawn_local(async move {
            if let Some(run) = state.tournaments.get(&id) {
                run.stop();
            }
            match s.store().delete_tournament(&id).await {
                Ok(()) => {
                    state.tournaments.remove(&id);
                    navigate(state, Route::Tournaments);
                }
                Err(e) => state.notice.set(Some(format!("Could not delete: {e}"))),
            }
        });
    };
    view! {
        <p class="row">
            {move || if confirming.get() {
                view! {
                    <span>"Delete this tournament? Its debates stay in History."</span>
                    <button type="button" class="danger small" id="confirm-delete-tournament" on:click=delete.clone()>"Delete for good"</button>
                    <button type="button" class="link" on:click=move |_| confirming.set(false)>"Cancel"</button>
                }.into_any()
            } else {
                view! { <button type="button" class="link danger-text" id="delete-tournament" on:click=move |_| confirming.set(true)>"Delete tournament"</button> }.into_any()
            }}
        </p>
    }
}

/// The page of an opened tournament.
#[component]
fn TournamentPage(run: Rc<TournamentRun>) -> impl IntoView {
    let tour = RwSignal::new(Some(run.state()));
    let running = RwSignal::new(run.is_running());
    // Only while this page lives: a page left behind is not drawn again by the run.
    run.observe(move |t, is_running| {
        let _ = tour.try_set(Some(t.clone()));
        let _ = running.try_set(is_running);
    });
    let blind =
        Memo::new(move |_| tour.with(|t| t.as_ref().is_some_and(|t| person_pending(t) > 0)));
    let head = move || {
        tour.with(|t| {
            let t = t.as_ref()?;
            let judges = short_names(&t.spec.judges);
            Some(format!(
                "{} tournament · {} contestants · {} motion{} · judged by {}",
                t.spec.format.label(),
                t.spec.contestants.len(),
                t.spec.motions.len(),
                if t.spec.motions.len() == 1 { "" } else { "s" },
                judges.join(", ")
            ))
        })
    };
    let status = move || tour.with(|t| t.as_ref().map(|t| standing(t, running.get(), blind.get())));
    let spent = move || {
        tour.with(|t| {
            let t = t.as_ref()?;
            Some(match t.spec.spending_cap {
                Some(cap) => format!("{} spent of a {} cap", dollars(t.spent()), dollars(cap)),
                None => format!("{} spent, no cap", dollars(t.spent())),
            })
        })
    };
    let name = run.state().spec.name.clone();
    let id = run.id().to_string();
    view! {
        <section class="tournament">
            <p class="kicker">{head}</p>
            <h1 tabindex="-1">{name}</h1>
            <div class="progress tournament-status" role="status">
                {move || status().map(|(badge, word, line)| view! {
                    <span class=format!("badge {badge}") id="tournament-state">{word}</span>
                    <span id="tournament-line">{line}</span>
                })}
                <span class="spacer"></span>
                <span class="hint" id="tournament-spent">{spent}</span>
            </div>
            <Controls run=run.clone() tour=tour running=running/>
            {move || blind.get().then(|| view! {
                <p class="note" id="blind-note">
                    "You judge blind: this page names no model's side until your verdicts are in. "
                    "History lists these debates with their models, so leave it closed until you have judged."
                </p>
            })}
            <YourVerdicts run=run.clone() tour=tour/>
            {move || if blind.get() {
                view! { <p class="hint" id="results-hidden">"The results are shown once your verdicts are in: they would tell you who argued which side."</p> }.into_any()
            } else {
                view! { <Results tour=tour/> {downloads(tour)} }.into_any()
            }}
            <DebatesTable tour=tour blind=blind/>
            <DeleteTournament id=id/>
        </section>
    }
}

#[component]
pub fn TournamentScreen() -> impl IntoView {
    let state = expect_context::<AppState>();
    let opened = RwSignal::new_local(None::<Result<Option<Rc<TournamentRun>>, String>>);
    let id = move || match state.route.get() {
        Route::Tournament(id) => Some(id),
        _ => None,
    };
    Effect::new(move |_| {
        let (Some(id), true) = (id(), state.ready.get()) else {
            return;
        };
        let Some(s) = state.session() else { return };
        spawn_local(async move {
            let r = state.tournaments.open(s, &id).await;
            let _ = opened.try_set(Some(r));
        });
    });
    move || {
        match opened.get() {
        None => view! { <p class="hint">"Reading the tournament…"</p> }.into_any(),
        Some(Err(e)) => view! { <p class="error" role="alert">{format!("This tournament could not be read: {e}")}</p> }.into_any(),
        Some(Ok(None)) => view! { <p class="error" role="alert">"This tournament is not stored in this browser. It may have been deleted, or it was run in another browser."</p> }.into_any(),
        Some(Ok(Some(run))) => view! { <TournamentPage run=run/> }.into_any(),
    }
    }
}
