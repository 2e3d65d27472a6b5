//! The forecast ledger: every finished forecast in this browser, open or resolved; the
//! resolved ones scored (Brier and log) for each model and for the consensus, the judge and
//! the final blend; and the final blend's calibration once enough are resolved.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::{AppState, Route};
use super::table::{data_table, Cell, Column};
use crate::engine::config::FormatId;
use crate::engine::cost::decimal;
use crate::engine::cost::percent as pct;
use crate::engine::event::Outcome;
use crate::engine::formats::forecast::ledger::{
    self, averages, brier, calibration, entry, log_score, Bin, Forecaster, Resolution, Score,
    CALIBRATION_MIN_FORECASTS, CALIBRATION_MIN_POINTS,
};

#[derive(Clone)]
struct Item {
    id: String,
    topic: String,
    /// The final blend's most likely outcome and its probability.
    likely: Option<(String, f64)>,
    /// What happened (its label), and every forecaster's score.
    resolved: Option<(Resolution, String, Vec<Score>)>,
    /// The final blend's distribution, for calibration.
    blend: Option<Vec<f64>>,
    happened: Option<usize>,
}

/// The finished forecasts, and one line for each whose log could not be read.
async fn load(state: AppState) -> Result<(Vec<Item>, Vec<String>), String> {
    let s = state.session().ok_or("Storage is not ready yet.")?;
    let list = s.list().await.map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let mut unreadable = Vec::new();
    for d in list {
        if d.format != Some(FormatId::Forecast) || d.outcome != Some(Outcome::Completed) {
            continue;
        }
        // One log that cannot be read does not hide the others: it is named instead.
        let stored = match s.load(&d.id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => continue,
            Err(e) => {
                unreadable.push(format!("{}: {e}", d.topic));
                continue;
            }
        };
        let Some(e) = entry(&stored.events) else {
            continue;
        };
        let likely = e
            .result
            .outcomes
            .iter()
            .filter_map(|o| o.final_probability.map(|p| (o.label.clone(), p)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let happened = e.resolution.as_ref().and_then(|r| {
            e.result
                .outcomes
                .iter()
                .position(|o| o.outcome == r.outcome)
        });
        let resolved = e.resolution.as_ref().zip(happened).and_then(|(r, k)| {
            let scores = ledger::scores(e.config, &e.result, e.opening.as_deref(), r).ok()?;
            Some((r.clone(), e.result.outcomes[k].label.clone(), scores))
        });
        // As scored: normalised to sum to 1.
        let blend = resolved.as_ref().and_then(|(_, _, scores)| {
            scores
                .iter()
                .find(|s| s.forecaster == Forecaster::Final)
                .map(|s| s.probabilities.clone())
        });
        out.push(Item {
            id: d.id,
            topic: d.topic,
            likely,
            resolved,
            blend,
            happened,
        });
    }
    Ok((out, unreadable))
}

/// Predicted against observed frequency, per tenth: a point per bin (hollow when it holds
/// too few to trust), the diagonal of perfect calibration behind them.
fn chart(bins: Vec<Bin>) -> impl IntoView {
    // A 180-unit square with room left of it and under it for the axes' labels.
    const S: f64 = 180.0;
    // Coordinates with one decimal: enough for an SVG this size.
    let x = |p: f64| decimal(44.0 + p * S, 1);
    let y = |p: f64| decimal(10.0 + (1.0 - p) * S, 1);
    let label = bins
        .iter()
        .map(|b| {
            format!(
                "{}–{}%: predicted {}, happened {} of {}",
                decimal(b.low * 100.0, 0),
                decimal(b.high * 100.0, 0),
                pct(b.mean_predicted),
                pct(b.observed),
                b.points
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    view! {
        <svg class="calibration" viewBox="0 0 240 230" role="img" aria-label=format!("Calibration of the final blend: {label}")>
            <line class="axis" x1=x(0.0) y1=y(0.0) x2=x(1.0) y2=y(0.0)/>
            <line class="axis" x1=x(0.0) y1=y(0.0) x2=x(0.0) y2=y(1.0)/>
            <line class="ideal" x1=x(0.0) y1=y(0.0) x2=x(1.0) y2=y(1.0)/>
            <text x=x(0.0) y="204" text-anchor="middle">"0"</text>
            <text x=x(0.5) y="204" text-anchor="middle">"50%"</text>
            <text x=x(1.0) y="204" text-anchor="end">"100%"</text>
            <text x=x(0.5) y="222" text-anchor="middle" class="axis-title">"predicted"</text>
            <text x="38" y=y(0.0) text-anchor="end" dominant-baseline="middle">"0"</text>
            <text x="38" y=y(0.5) text-anchor="end" dominant-baseline="middle">"50%"</text>
            <text x="38" y=y(1.0) text-anchor="end" dominant-baseline="hanging">"100%"</text>
            <text x="10" y=y(0.5) text-anchor="middle" class="axis-title" transform=format!("rotate(-90 10 {})", y(0.5))>"happened"</text>
            {bins.into_iter().map(|b| view! {
                <circle class:thin=b.points < CALIBRATION_MIN_POINTS cx=x(b.mean_predicted) cy=y(b.observed)
                    r=decimal(3.0 + (b.points as f64).sqrt().min(6.0), 1) data-points=b.points>
                    <title>{format!("predicted {}, happened {} ({} points)", pct(b.mean_predicted), pct(b.observed), b.points)}</title>
                </circle>
            }).collect_view()}
        </svg>
    }
}

#[component]
pub fn LedgerScreen() -> impl IntoView {
    let state = expect_context::<AppState>();
    let items = RwSignal::new(None::<Result<(Vec<Item>, Vec<String>), String>>);
    spawn_local(async move { items.set(Some(load(state).await)) });
    let body = move || {
        let (all, unreadable) = match items.get() {
            None => return view! { <p class="hint">"Reading the forecasts…"</p> }.into_any(),
            Some(Err(e)) => return view! { <p class="error" role="alert">{e}</p> }.into_any(),
            Some(Ok((all, unreadable))) => (all, unreadable),
        };
        let unreadable = (!unreadable.is_empty()).then(|| {
            view! {
                <div class="error" role="alert"><p>"These forecasts could not be read and are left out:"</p>
                    <ul>{unreadable.into_iter().map(|u| view! { <li>{u}</li> }).collect_view()}</ul></div>
            }
        });
        if all.is_empty() {
            return view! {
                {unreadable}
                <div class="card empty"><p>"No finished forecasts yet. Run one (New debate, Forecast), then resolve it here when the question is settled."</p></div>
            }
            .into_any();
        }
        let (resolved, open): (Vec<Item>, Vec<Item>) =
            all.into_iter().partition(|i| i.resolved.is_some());
        let scored: Vec<Vec<Score>> = resolved
            .iter()
            .filter_map(|i| i.resolved.as_ref().map(|r| r.2.clone()))
            .collect();
        let points: Vec<(Vec<f64>, usize)> = resolved
            .iter()
            .filter_map(|i| Some((i.blend.clone()?, i.happened?)))
            .collect();
        let count = points.len();
        let summary = format!(
            "{} forecast{}: {} resolved, {} open.",
            resolved.len() + open.len(),
            if resolved.len() + open.len() == 1 {
                ""
            } else {
                "s"
            },
            resolved.len(),
            open.len()
        );
        let open_table = (!open.is_empty()).then(|| {
            let rows = open
                .into_iter()
                .map(|i| {
                    vec![
                        Cell::Link(i.topic, Route::Debate(i.id)),
                        Cell::Text(i.likely.map_or("—".to_string(), |(l, p)| format!("{l}, {}", pct(p)))),
                    ]
                })
                .collect();
            view! {
                <section class="card ledger-section">
                    <h2>"Open"</h2>
                    {data_table("ledger-open", "Open forecasts", "", None, vec![Column("Question", false), Column("Most likely (final blend)", false)], rows)}
                    <p class="hint">"Open a forecast to resolve it."</p>
                </section>
            }
        });
        let resolved_tables = (!resolved.is_empty()).then(|| {
            // Did debating help? Each forecast's opening consensus against its final blend.
            // (opening, final blend, the roles' own consensus after the debate)
            let triples: Vec<(f64, f64, Option<f64>)> = resolved
                .iter()
                .filter_map(|i| {
                    let (_, _, scores) = i.resolved.as_ref()?;
                    let of = |f: Forecaster| scores.iter().find(|s| s.forecaster == f).map(|s| s.brier);
                    Some((of(Forecaster::Opening)?, of(Forecaster::Final)?, of(Forecaster::Consensus)))
                })
                .collect();
            let debate_helped = (!triples.is_empty()).then(|| {
                let n = triples.len();
                let better = triples.iter().filter(|(o, f, _)| f < o).count();
                let roles_better = triples.iter().filter(|(o, _, c)| c.is_some_and(|c| c < *o)).count();
                let mean = |k: fn(&(f64, f64, Option<f64>)) -> f64| triples.iter().map(k).sum::<f64>() / n as f64;
                format!(
                    "Did debating help? The final blend beat the opening consensus (the roles before any rebuttal) in {better} of {n} resolved forecast(s); mean Brier {} at the opening, {} after the debate (lower is better). The blend also carries the judge's synthesis; the roles' own consensus after the debate beat their opening in {roles_better} of {n}.",
                    brier(mean(|p| p.0)),
                    brier(mean(|p| p.1))
                )
            });
            let rows = resolved
                .into_iter()
                .filter_map(|i| {
                    let (r, label, scores) = i.resolved?;
                    let opening = scores.iter().find(|s| s.forecaster == Forecaster::Opening).cloned();
                    let fin = scores.into_iter().find(|s| s.forecaster == Forecaster::Final);
                    let shown = |f: &dyn Fn(&Score) -> String| fin.as_ref().map_or("—".to_string(), f);
                    Some(vec![
                        Cell::Link(i.topic, Route::Debate(i.id)),
                        Cell::Two(label, r.on),
                        Cell::Text(shown(&|f| i.happened.map_or("—".into(), |k| pct(f.probabilities[k])))),
                        // The opening consensus's score under the blend's: did debating help?
                        Cell::Two(shown(&|f| brier(f.brier)), opening.as_ref().map_or(String::new(), |o| format!("opening {}", brier(o.brier)))),
                        Cell::Two(shown(&|f| log_score(f.log)), opening.as_ref().map_or(String::new(), |o| format!("opening {}", log_score(o.log)))),
                    ])
                })
                .collect();
            let models = averages(&scored)
                .into_iter()
                .map(|a| {
                    vec![
                        Cell::Head(a.who),
                        Cell::Text(a.forecasts.to_string()),
                        Cell::Text(brier(a.brier)),
                        Cell::Text(log_score(a.log)),
                    ]
                })
                .collect();
            view! {
                <section class="card ledger-section">
                    <h2>"Resolved"</h2>
                    {data_table("ledger-resolved", "Resolved forecasts", "", None, vec![Column("Question", false), Column("What happened", false),
                        Column("Blend gave it", true), Column("Brier", true), Column("Log", true)], rows)}
                    {debate_helped.map(|t| view! { <p id="ledger-opening" class="hint">{t}</p> })}
                </section>
                <section class="card ledger-section">
                    <h2>"Record by model"</h2>
                    {data_table("ledger-models", "Record by model", "", Some("Mean over resolved forecasts; a model that played several roles in one forecast is scored once per role. Brier: 0 is perfect, 2 the worst. Log: 0 is perfect, lower is worse.".into()),
                        vec![Column("Model or aggregate", false), Column("Scored", true), Column("Brier", true), Column("Log", true)], models)}
                </section>
            }
        });
        view! {
            {unreadable}
            <p id="ledger-summary">{summary}</p>
            {open_table}
            {resolved_tables}
            <section class="card ledger-section" id="ledger-calibration">
                <h2>"Calibration of the final blend"</h2>
                {match calibration(&points) {
                    Some(bins) => view! {
                        {chart(bins)}
                        <p class="hint">{format!("Every outcome of the {count} resolved forecasts is a point: how likely the blend said it was, against how often such outcomes happened. Points on the diagonal are well calibrated; hollow ones hold fewer than {CALIBRATION_MIN_POINTS} outcomes.")}</p>
                    }.into_any(),
                    None => view! {
                        <p class="hint">{format!("The chart needs {CALIBRATION_MIN_FORECASTS} resolved forecasts to say anything honest; there {} {count} so far.", if count == 1 { "is" } else { "are" })}</p>
                    }.into_any(),
                }}
            </section>
        }
        .into_any()
    };
    view! {
        <h1>"Forecast ledger"</h1>
        {body}
    }
}
