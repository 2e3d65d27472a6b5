//! Every debate of a tournament in one table: its motion, who argued which side (hidden
//! while a person still judges blind), how far it got, each verdict, and a link to the
//! ordinary debate view. Rows are keyed by what they show, so an event redraws only the
//! rows it changed, never the whole table, and a table of hundreds is first drawn a slice
//! per browser task (a tournament may hold hundreds of debates).

use leptos::prelude::*;

use super::super::app::{href, navigate};
use super::super::state::{AppState, Route};
use crate::engine::event::Outcome;
use crate::engine::tournament::progress::Tournament;
use crate::engine::tournament::spec::short_names;
use crate::engine::tournament::verdict::Decision;

/// One row as shown.
#[derive(Clone, PartialEq)]
struct Row {
    n: usize,
    match_id: String,
    motion: String,
    first: String,
    second: String,
    state: &'static str,
    /// One line per judge.
    verdicts: Vec<String>,
    debate: Option<String>,
    /// Opening the debate would name its models: not while a person judges blind.
    blind: bool,
}

fn rows(t: &Tournament, blind: bool) -> Vec<Row> {
    let (contestants, judges) = (
        short_names(&t.spec.contestants),
        short_names(&t.spec.judges),
    );
    let name = |c: usize| contestants[c].clone();
    t.matches
        .iter()
        .zip(&t.progress)
        .enumerate()
        .map(|(n, (m, p))| {
            let state = match (&p.debate_id, p.ended) {
                (None, _) => "Not started",
                (Some(_), None) => "Started",
                (Some(_), Some(Outcome::Completed)) => "Finished",
                (Some(_), Some(Outcome::Stopped)) => "Stopped",
                (Some(_), Some(Outcome::Failed)) => "Failed",
            };
            let verdicts = if blind {
                vec![format!("{} of {}", p.votes.len(), m.judges.len())]
            } else {
                p.votes
                    .iter()
                    .map(|v| {
                        let said = match v.decision {
                            Some(Decision::Side(s)) => name(m.contestant(s)),
                            Some(Decision::Tie) => "tie".into(),
                            Some(Decision::Unjudgeable) => "could not be judged".into(),
                            None => "unreadable".into(),
                        };
                        format!("{}: {said}", judges[v.judge])
                    })
                    .collect()
            };
            let (first, second) = if blind {
                ("hidden".to_string(), "hidden".to_string())
            } else {
                (name(m.first), name(m.second))
            };
            Row {
                n: n + 1,
                match_id: m.id.clone(),
                motion: t.spec.motions[m.motion].clone(),
                first,
                second,
                state,
                verdicts,
                debate: p.debate_id.clone(),
                blind,
            }
        })
        .collect()
}

#[component]
fn DebateRow(row: Row) -> impl IntoView {
    let state = expect_context::<AppState>();
    let link = row.debate.clone().filter(|_| !row.blind).map(|id| {
        let route = Route::Debate(id);
        let go = route.clone();
        view! {
            <a href=href(&route) on:click=move |ev: leptos::ev::MouseEvent| { ev.prevent_default(); navigate(state, go.clone()) }>"Open"</a>
        }
    });
    view! {
        <tr data-match=row.match_id.clone() data-debate=row.debate.clone().unwrap_or_default()>
            <td class="num">{row.n}</td>
            <td>{row.motion}</td>
            <td>{row.first}</td>
            <td>{row.second}</td>
            <td class="nowrap">{row.state}</td>
            <td>{row.verdicts.into_iter().map(|v| view! { <span class="line">{v}</span> }).collect_view()}</td>
            <td>{link}</td>
        </tr>
    }
}

#[component]
pub fn DebatesTable(tour: RwSignal<Option<Tournament>>, blind: Memo<bool>) -> impl IntoView {
    let all = Memo::new(move |_| {
        let blind = blind.get();
        tour.with(|t| t.as_ref().map(|t| rows(t, blind)).unwrap_or_default())
    });
    let count = move || all.with(Vec::len);
    // Hundreds of rows are drawn a slice per browser task, the first at once.
    let drawn = super::super::progressive::progressively(all);
    view! {
        <section class="card ledger-section" aria-labelledby="debates-title">
            <h2 id="debates-title">{move || format!("Debates ({})", count())}</h2>
            <p class="hint">"The side that speaks first is listed first. Each debate opens as an ordinary debate: replay, export or fork it."</p>
            <div class="table-scroll" tabindex="0" role="region" aria-label="Debates">
                <table class="data-table" id="tournament-debates">
                    <thead><tr>
                        <th scope="col" class="num">"#"</th>
                        <th scope="col">"Motion"</th>
                        <th scope="col">"First side"</th>
                        <th scope="col">"Second side"</th>
                        <th scope="col">"State"</th>
                        <th scope="col">"Verdicts"</th>
                        <th scope="col">"Debate"</th>
                    </tr></thead>
                    <tbody>
                        // Keyed by the whole row: a row whose content changed is drawn anew.
                        <For each=drawn key=|r| (r.n, r.state, r.verdicts.clone(), r.first.clone(), r.debate.clone(), r.blind) let:row>
                            <DebateRow row=row/>
                        </For>
                    </tbody>
                </table>
            </div>
        </section>
    }
}
