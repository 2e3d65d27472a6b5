//! A tournament's results: the leaderboard (Bradley–Terry strength with its 95% interval,
//! wins, losses and ties, wins that only the side order gave), how much the order of sides
//! decided (the side that spoke first, the side each judge read first), how far the judges
//! agree, and what each party spent.

use leptos::prelude::*;

use leptos::task::spawn_local;

use super::super::table::{data_table, Cell, Column};
use crate::engine::clock::Clock;
use crate::engine::cost::{decimal, dollars};
use crate::engine::reading::count;
use crate::engine::tournament::progress::{Spend, Tournament};
use crate::engine::tournament::rating::{Bootstrap, Game, Rating};
use crate::engine::tournament::spec::short_names;
use crate::engine::tournament::standings::{share, unrated, Standings, RESAMPLES};
use crate::session::browser::BrowserClock;

/// While events pour in, the standings are counted again at most this often.
const REFRESH_MS: u64 = 250;
/// Resamples of the bootstrap per browser task: a few milliseconds each.
const SLICE: u32 = 100;

fn kappa(k: Option<f64>) -> String {
    k.map_or("—".into(), |k| decimal(k, 2))
}

fn tokens(s: &Spend) -> String {
    format!("{} in, {} out", s.input_tokens, s.output_tokens)
}

/// What a party spent, saying when some of its calls had no price.
fn usd(s: &Spend) -> String {
    if s.unpriced {
        format!("{} + unpriced", dollars(s.usd))
    } else {
        dollars(s.usd)
    }
}

fn leaderboard(t: &Tournament, s: &Standings, rating: bool) -> AnyView {
    let names = short_names(&t.spec.contestants);
    // A tournament over sources counts each model's quotes of them.
    let sourced = !t.spec.sources.is_empty();
    let rows = s
        .rows
        .iter()
        .enumerate()
        .map(|(rank, r)| {
            let order = if r.won_only_by_side() {
                format!("{} (every win)", r.side_wins)
            } else {
                r.side_wins.to_string()
            };
            let mut cells = vec![
                Cell::Text((rank + 1).to_string()),
                Cell::Head(names[r.contestant].clone()),
                Cell::Text(decimal(r.rating.points, 0)),
                // The record beside the strength: on a phone both show before the table
                // scrolls sideways.
                Cell::Text(format!("{}–{}–{}", r.wins, r.losses, r.ties)),
                Cell::Text(if rating {
                    "being worked out…".to_string()
                } else {
                    format!("{}–{}", decimal(r.rating.low, 0), decimal(r.rating.high, 0))
                }),
                Cell::Text(order),
                Cell::Text(usd(&r.spend)),
            ];
            if sourced {
                cells.push(Cell::Text(format!(
                    "{} ({} verified, {} not found)",
                    r.quotes.made,
                    r.quotes.verified,
                    r.quotes.not_found()
                )));
            }
            cells
        })
        .collect();
    let mut columns = vec![
        Column("#", true),
        Column("Model", false),
        Column("Strength", true),
        // Word joiners: a heading that wraps on a phone keeps "W–L–T" whole.
        Column("W\u{2060}–\u{2060}L\u{2060}–\u{2060}T", true),
        Column("95% interval", true),
        Column("Wins by side order", true),
        Column("Spent", true),
    ];
    if sourced {
        columns.push(Column("Quotes", true));
    }
    let table = data_table("leaderboard", "Leaderboard", "", None, columns, rows);
    // What this count holds: the page counts again a moment after the events, so a person
    // (and a test) can tell a count that is not up to date yet.
    let verdicts: u32 = s.judges.iter().map(|j| j.votes).sum();
    let counted = format!(
        "Counted from {} and {}.",
        count(s.judged as usize, "judged debate"),
        count(verdicts as usize, "verdict")
    );
    view! {
        <p class="hint" id="counted">{counted}</p>
        <p class="hint">"Strength on an Elo-like scale (1000 is the field's middle; 400 points are 10-to-1 odds), from every judged debate. The interval is where 95% of 1,000 resamplings of the debates put it: overlapping intervals mean the order is not settled. A win \"by side order\" is one where the same side won both legs of a pairing on a motion: the side, not the model, decided it."</p>
        {table}
    }
    .into_any()
}

fn position_bias(t: &Tournament, s: &Standings) -> AnyView {
    let names = short_names(&t.spec.judges);
    let rows = s
        .judges
        .iter()
        .enumerate()
        .map(|(j, r)| {
            let mut apart = Vec::new();
            if r.unreadable > 0 {
                apart.push(format!("{} unreadable", r.unreadable));
            }
            if r.unjudgeable > 0 {
                apart.push(format!("{} could not be judged", r.unjudgeable));
            }
            vec![
                Cell::Head(names[j].clone()),
                Cell::Text(r.votes.to_string()),
                Cell::Text(share(r.shown_first_wins, r.decided)),
                Cell::Text(r.ties.to_string()),
                Cell::Text(if apart.is_empty() {
                    "—".into()
                } else {
                    apart.join(", ")
                }),
            ]
        })
        .collect();
    view! {
        <p id="side-order">
            {format!("Of the debates a side won, the side that spoke first won {}.", share(s.first_side_wins, s.decided))}
            " "
            {format!("The side a judge read first (as A) got {} of the votes for a side.", share(s.shown_first_wins, s.decided_votes))}
        </p>
        <p class="hint">"Each judge reads the sides in an order drawn for it and the debate; a judge far from half for A prefers a position, not an argument."</p>
        {data_table("position-bias", "Position bias by judge", "", None,
            vec![Column("Judge", false), Column("Verdicts", true), Column("For A (read first)", true), Column("Ties", true), Column("Left out", false)], rows)}
    }
    .into_any()
}

fn agreement(t: &Tournament, s: &Standings) -> AnyView {
    if t.spec.judges.len() < 2 {
        return view! { <p class="hint" id="agreement">"One judge: there is no agreement to measure."</p> }.into_any();
    }
    let names = short_names(&t.spec.judges);
    let rows = s
        .agreement
        .iter()
        .map(|a| {
            vec![
                Cell::Head(format!("{} and {}", names[a.a], names[a.b])),
                Cell::Text(a.debates.to_string()),
                Cell::Text(share(a.agreed, a.debates)),
                Cell::Text(kappa(a.kappa)),
            ]
        })
        .collect();
    view! {
        <p id="fleiss">{format!("Fleiss' kappa for the panel: {}.", kappa(s.fleiss))}
            " "<span class="hint">"1 is full agreement, 0 what chance alone gives, below 0 less than chance; — where it is not defined yet."</span></p>
        {data_table("agreement", "Agreement between judges", "", None,
            vec![Column("Judges", false), Column("Debates both judged", true), Column("Agreed", true), Column("Cohen's kappa", true)], rows)}
    }
    .into_any()
}

fn spending(t: &Tournament, s: &Standings) -> AnyView {
    let host = t.progress.iter().fold(Spend::default(), |mut a, p| {
        a.add(&p.host);
        a
    });
    let (contestants, judges) = (
        short_names(&t.spec.contestants),
        short_names(&t.spec.judges),
    );
    let mut rows: Vec<Vec<Cell>> = s
        .rows
        .iter()
        .map(|r| {
            vec![
                Cell::Head(format!("{} (contestant)", contestants[r.contestant])),
                Cell::Text(tokens(&r.spend)),
                Cell::Text(usd(&r.spend)),
            ]
        })
        .collect();
    rows.push(vec![
        Cell::Head(format!(
            "{} (host)",
            short_names(std::slice::from_ref(&t.spec.host))[0]
        )),
        Cell::Text(tokens(&host)),
        Cell::Text(usd(&host)),
    ]);
    for (name, spend) in judges.iter().zip(&t.judges) {
        rows.push(vec![
            Cell::Head(format!("{name} (judge)")),
            Cell::Text(tokens(spend)),
            Cell::Text(usd(spend)),
        ]);
    }
    data_table(
        "spending",
        "Spending",
        "",
        None,
        vec![
            Column("Who", false),
            Column("Tokens", true),
            Column("Cost", true),
        ],
        rows,
    )
}

/// The standings on screen, kept up to date without holding the page: counted again at most
/// every `REFRESH_MS` while events pour in, and rated again only when the judged debates
/// changed, the bootstrap a slice per browser task (`rating::Bootstrap`). Until it is done
/// the leaderboard shows the new strengths, its intervals marked as being worked out.
fn ranking(tour: RwSignal<Option<Tournament>>) -> (RwSignal<Option<Standings>>, RwSignal<bool>) {
    let shown = RwSignal::new(None::<Standings>);
    let rating = RwSignal::new(false);
    // The games last rated and their ratings; the run of the bootstrap in hand.
    let rated = StoredValue::new(None::<(Vec<Game>, Vec<Rating>)>);
    let run = StoredValue::new(0u64);
    let scheduled = StoredValue::new(false);
    let refresh = move || async move {
        let Some(Some((mut s, games, n, seed))) = tour.try_with_untracked(|t| {
            t.as_ref().map(|t| {
                let (s, games) = unrated(t);
                (s, games, t.spec.contestants.len(), t.spec.seed)
            })
        }) else {
            return;
        };
        let same = rated
            .try_with_value(|r| {
                r.as_ref()
                    .filter(|(g, _)| *g == games)
                    .map(|(_, r)| r.clone())
            })
            .flatten();
        if let Some(ratings) = same {
            s.rate(&ratings);
            let _ = shown.try_set(Some(s));
            return;
        }
        let Some(mine) = run.try_update_value(|r| {
            *r += 1;
            *r
        }) else {
            return;
        };
        let mut b = Bootstrap::new(n, &games, RESAMPLES, seed);
        let mut first = s.clone();
        first.rate(&b.unresampled());
        let _ = shown.try_set(Some(first));
        let _ = rating.try_set(true);
        while !b.step(SLICE) {
            BrowserClock.sleep(0).await;
            // A newer count started a bootstrap of its own, or the page is gone.
            if run.try_get_value() != Some(mine) {
                return;
            }
        }
        let ratings = b.ratings();
        s.rate(&ratings);
        rated.try_set_value(Some((games, ratings)));
        let _ = shown.try_set(Some(s));
        let _ = rating.try_set(false);
    };
    Effect::new(move |previous: Option<()>| {
        tour.track();
        if scheduled.try_get_value() != Some(false) {
            return;
        }
        scheduled.set_value(true);
        // The first count at once; later ones gather the events of a moment.
        let wait = if previous.is_some() { REFRESH_MS } else { 0 };
        spawn_local(async move {
            if wait > 0 {
                BrowserClock.sleep(wait).await;
            }
            if scheduled.try_set_value(false).is_none() {
                refresh().await;
            }
        });
    });
    (shown, rating)
}

#[component]
pub fn Results(tour: RwSignal<Option<Tournament>>) -> impl IntoView {
    let (standings, rating) = ranking(tour);
    move || {
        let Some(s) = standings.get() else {
            return ().into_any();
        };
        // The rest of what is shown follows the standings' refresh, not every event.
        let Some(Some(t)) = tour.try_with_untracked(|t| t.clone()) else {
            return ().into_any();
        };
        let rating = rating.get();
        let mut apart = Vec::new();
        if s.unreadable_votes > 0 {
            apart.push(format!(
                "{} verdict{} that could not be read",
                s.unreadable_votes,
                if s.unreadable_votes == 1 { "" } else { "s" }
            ));
        }
        if s.unjudgeable_votes > 0 {
            apart.push(format!(
                "{} where a person could not judge the debate",
                s.unjudgeable_votes
            ));
        }
        let unread = (!apart.is_empty()).then(|| {
            view! { <p class="hint" id="left-out">{format!("Left out of the results: {}.", apart.join(" and "))}</p> }
        });
        view! {
            <section class="card ledger-section" aria-labelledby="leaderboard-title">
                <h2 id="leaderboard-title">"Leaderboard"</h2>
                {if s.judged == 0 {
                    view! { <p class="hint">"No debate is judged yet."</p> }.into_any()
                } else {
                    leaderboard(&t, &s, rating)
                }}
                {unread}
            </section>
            <section class="card ledger-section" aria-labelledby="bias-title">
                <h2 id="bias-title">"Side order and position bias"</h2>
                {position_bias(&t, &s)}
            </section>
            <section class="card ledger-section" aria-labelledby="agreement-title">
                <h2 id="agreement-title">"How far the judges agree"</h2>
                {agreement(&t, &s)}
            </section>
            <section class="card ledger-section" aria-labelledby="spending-title">
                <h2 id="spending-title">"Spending"</h2>
                <p class="hint" id="spent-in-all">{format!("{} in all.", dollars(t.spent()))}</p>
                {spending(&t, &s)}
            </section>
        }
        .into_any()
    }
}
