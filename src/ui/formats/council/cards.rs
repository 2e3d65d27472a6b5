//! The council's findings as they stand in the transcript: a ballot with the order its
//! reviewer saw, the ranking with each reviewer's leanings, the vote, a chair that gave
//! nothing, and the verdict on whether deliberating changed the answer.

use leptos::prelude::*;

use crate::engine::cost::decimal;
use crate::engine::formats::council::findings::{
    bias_steps, ordinal, signed, Ballot, Ranking, Verdict, Vote, Worth,
};
use crate::engine::formats::council::label;
use crate::ui::state::DebateView;

fn seat_name(seat: &str) -> String {
    let state = expect_context::<DebateView>();
    state.config.with_untracked(|c| {
        c.as_ref()
            .and_then(|c| c.seat(seat))
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    })
}

/// One reviewer's ranking, best first, with the labels it saw and whose answers they were.
#[component]
pub fn BallotCard(reviewer: String, ballot: Ballot) -> impl IntoView {
    let name = seat_name(&reviewer);
    let shown = ballot
        .shown
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{}: {}", label(i), seat_name(s)))
        .collect::<Vec<_>>()
        .join(" · ");
    let round = (ballot.round == 2).then_some(" (revised answers)");
    view! {
        <section class="council-ballot" aria-label=format!("{name}'s ballot")>
            <header><b>{format!("{name}'s ballot")}</b>{round}
                <small class="shown">"Shown as "{shown}</small></header>
            <ol>
                {ballot.ranking.into_iter().map(|r| {
                    let own = r.seat == reviewer;
                    view! {
                        <li class:own=own>
                            <span class="council-label">{r.label}</span>
                            <b>{r.name}</b>
                            {own.then(|| view! { <small class="own-mark">" its own answer (not marked when it ranked)"</small> })}
                            <span class="reason">{r.reason}</span>
                        </li>
                    }
                }).collect_view()}
            </ol>
        </section>
    }
}

/// The Borda ranking, how its ties were broken, and how each reviewer leans.
#[component]
pub fn RankingCard(ranking: Ranking) -> impl IntoView {
    let biases = ranking.biases.clone();
    let rhos: Vec<f64> = biases.iter().filter_map(|b| b.position_bias).collect();
    let mean_rho = (!rhos.is_empty()).then(|| rhos.iter().sum::<f64>() / rhos.len() as f64);
    let bias_hint = bias_steps(ranking.standings.len()).map(|s| format!(" {s}"));
    let of = if ranking.round == 2 {
        "revised answers"
    } else {
        "answers"
    };
    view! {
        <section class="council-ranking" aria-label="Council ranking">
            <h3>{format!("Ranking of the {of}: Borda count over {}", crate::engine::reading::count(ranking.ballots as usize, "ballot"))}</h3>
            <div class="table-scroll" tabindex="0" role="region" aria-label="Ranking">
            <table class="council-standings">
                <thead><tr><th scope="col">"Place"</th><th scope="col">"Answer of"</th><th scope="col">"Points"</th><th scope="col">"First places"</th></tr></thead>
                <tbody>
                    {ranking.standings.into_iter().enumerate().map(|(i, s)| view! {
                        <tr class:top=i == 0>
                            <td>{ordinal(i as u32 + 1)}</td>
                            <th scope="row">{s.name}</th>
                            <td class="num">{s.points}</td>
                            <td class="num">{s.firsts}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
            <p class="hint">"A ballot of k answers gives the best k − 1 points down to 0 for the last; the reviewer's own answer earns nothing from its own ballot. Ties go to more first places, then fewer last places, then the member seated first."</p>
            {(!ranking.ties.is_empty()).then(|| view! {
                <ul class="council-ties">{ranking.ties.into_iter().map(|t| view! { <li>{t}</li> }).collect_view()}</ul>
            })}
            {(!ranking.unread.is_empty()).then(|| view! {
                <p class="council-unread">{format!("Not counted (no readable ballot): {}", ranking.unread.join(", "))}</p>
            })}
            <div class="table-scroll" tabindex="0" role="region" aria-label="How each reviewer leans">
            <table class="council-bias">
                <caption>"How each reviewer leans"</caption>
                <thead><tr>
                    <th scope="col">"Reviewer"</th>
                    <th scope="col">"Placed its own answer"</th>
                    <th scope="col">"The others placed it"</th>
                    <th scope="col">"Self-preference"</th>
                    <th scope="col">"Position bias"</th>
                </tr></thead>
                <tbody>
                    {biases.into_iter().map(|b| view! {
                        <tr>
                            <th scope="row">{b.name}</th>
                            <td>{b.own_place.map_or("not shown".to_string(), |p| format!("{} of {}", ordinal(p), b.of))}</td>
                            <td class="num">{b.others_place.map_or("–".to_string(), |p| decimal(p, 1))}</td>
                            <td class="num">{b.self_preference.map_or("–".to_string(), signed)}</td>
                            <td class="num">{b.position_bias.map_or("–".to_string(), signed)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
            <p class="hint">
                "Self-preference above 0: it ranked its own answer (shown unmarked) higher than the others did (1 is first against last). Position bias: the rank correlation between the order answers were shown in and the order it ranked them; near 1, the first shown came out best."
                {bias_hint}
                {mean_rho.map(|r| format!(" Across reviewers: {}.", signed(r)))}
                {(ranking.ballots > 0).then(|| format!(
                    " The answer shown first was ranked best in {} of {}.",
                    ranking.shown_first_best, crate::engine::reading::count(ranking.ballots as usize, "ballot")
                ))}
            </p>
        </section>
    }
}

/// Which first answers agreed, as the analyst read them.
#[component]
pub fn VoteCard(vote: Vote) -> impl IntoView {
    let head = match vote.majority.and_then(|i| vote.groups.get(i)) {
        Some(g) => format!(
            "Majority: {} of {} first answers",
            g.seats.len(),
            vote.answers
        ),
        None => format!("No majority among {} first answers", vote.answers),
    };
    let majority = vote.majority;
    view! {
        <section class="council-vote" aria-label="Vote of the first answers">
            <h3>"The vote of the first answers"</h3>
            <p><b>{head}</b></p>
            <ul>
                {vote.groups.into_iter().enumerate().map(|(i, g)| view! {
                    <li class:majority=majority == Some(i)>
                        <span class="answer">{g.answer}</span>
                        <small>{g.names.join(", ")}</small>
                    </li>
                }).collect_view()}
            </ul>
            <p class="hint">"Grouped by the analyst from the answers the members gave before any read another's."</p>
        </section>
    }
}

#[component]
pub fn ChairFailed(message: String) -> impl IntoView {
    view! { <p class="council-chair-failed" role="note">{message}</p> }
}

/// Whether the final answer confirmed the vote, changed it, or had none to confirm, with
/// what deliberating cost beyond the first answers.
#[component]
pub fn WorthCard(worth: Worth, #[prop(optional)] headline: bool) -> impl IntoView {
    let class = match worth.verdict {
        Verdict::Confirmed => "confirmed",
        Verdict::Changed => "changed",
        Verdict::NoMajority => "no-majority",
        Verdict::Undecided => "undecided",
    };
    let title = if headline {
        view! { <h2>"Was the debate worth it?"</h2> }.into_any()
    } else {
        view! { <h3>"Was the debate worth it?"</h3> }.into_any()
    };
    view! {
        <section class=format!("council-worth {class}") aria-label="Was the debate worth it?">
            {title}
            <p class="verdict"><b>{format!("The final answer {}.", worth.verdict.words())}</b></p>
            {(!worth.vote.is_empty()).then(|| view! { <p>"The vote: "<q>{worth.vote.clone()}</q></p> })}
            {(!worth.reason.is_empty()).then(|| view! { <p class="reason">{worth.reason.clone()}</p> })}
            <dl class="council-spend">
                <dt>"First answers"</dt><dd>{worth.first.words()}</dd>
                <dt>"Deliberation on top"</dt><dd>{worth.deliberation.words()}</dd>
            </dl>
        </section>
    }
}
