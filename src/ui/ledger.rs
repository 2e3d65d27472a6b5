//! The forecast ledger: every finished forecast in this browser, open or resolved; the
//! resolved ones scored (Brier and log) for each model and for the consensus, the judge and
//! the final blend; and the final blend's calibration once enough are resolved.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::{AppState, Route};
use super::table::{data_table, Cell, Column};
use crate::engine::cost::decimal;
use crate::engine::cost::percent as pct;
use crate::engine::formats::forecast::ledger::book::Book;
use crate::engine::formats::forecast::ledger::{
    brier, log_score, Bin, Forecaster, Score, CALIBRATION_MIN_FORECASTS, CALIBRATION_MIN_POINTS,
};

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
    let book = RwSignal::new(None::<Result<Book, String>>);
    spawn_local(async move {
        let read = match state.session() {
            Some(s) => s.ledger().await,
            None => Err("Storage is not ready yet.".into()),
        };
        book.set(Some(read));
    });
    let body = move || match book.get() {
        None => view! { <p class="hint">"Reading the forecasts…"</p> }.into_any(),
        Some(Err(e)) => view! { <p class="error" role="alert">{e}</p> }.into_any(),
        Some(Ok(book)) => view! { <Ledger book/> }.into_any(),
    };
    view! {
        <h1>"Forecast ledger"</h1>
        {body}
    }
}

#[component]
fn Ledger(book: Book) -> impl IntoView {
    let unreadable = (!book.unreadable.is_empty()).then(|| {
        view! {
            <div class="error" role="alert"><p>"These forecasts could not be read and are left out:"</p>
                <ul>{book.unreadable.iter().map(|u| view! { <li>{u.clone()}</li> }).collect_view()}</ul></div>
        }
    });
    if book.is_empty() {
        return view! {
            {unreadable}
            <div class="card empty"><p>"No finished forecasts yet. Run one (New debate, Forecast), then resolve it here when the question is settled."</p></div>
        }
        .into_any();
    }
    let count = book.points().len();
    view! {
        {unreadable}
        <p id="ledger-summary">{book.summary()}</p>
        {(!book.open.is_empty()).then(|| open_table(&book))}
        {(!book.resolved.is_empty()).then(|| resolved_tables(&book))}
        <section class="card ledger-section" id="ledger-calibration">
            <h2>"Calibration of the final blend"</h2>
            {match book.calibration() {
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
}

fn open_table(book: &Book) -> impl IntoView {
    let rows = book
        .open
        .iter()
        .map(|l| {
            vec![
                Cell::Link(l.topic.clone(), Route::Debate(l.id.clone())),
                Cell::Text(
                    l.likely
                        .as_ref()
                        .map_or("—".to_string(), |(o, p)| format!("{o}, {}", pct(*p))),
                ),
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
}

fn resolved_tables(book: &Book) -> impl IntoView {
    let rows = book
        .resolved
        .iter()
        .filter_map(|l| {
            let r = l.resolved.as_ref()?;
            let (opening, fin) = (r.of(Forecaster::Opening), r.of(Forecaster::Final));
            let shown = |f: &dyn Fn(&Score) -> String| fin.map_or("—".to_string(), f);
            let was = |f: &dyn Fn(&Score) -> String| {
                opening.map_or(String::new(), |o| format!("opening {}", f(o)))
            };
            Some(vec![
                Cell::Link(l.topic.clone(), Route::Debate(l.id.clone())),
                Cell::Two(r.label.clone(), r.resolution.on.clone()),
                Cell::Text(shown(&|f| pct(f.probabilities[r.happened]))),
                // The opening consensus's score under the blend's: did debating help?
                Cell::Two(shown(&|f| brier(f.brier)), was(&|o| brier(o.brier))),
                Cell::Two(shown(&|f| log_score(f.log)), was(&|o| log_score(o.log))),
            ])
        })
        .collect();
    let models = book
        .models()
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
            {book.debate_helped().map(|t| view! { <p id="ledger-opening" class="hint">{t}</p> })}
        </section>
        <section class="card ledger-section">
            <h2>"Record by model"</h2>
            {data_table("ledger-models", "Record by model", "", Some("Mean over resolved forecasts; a model that played several roles in one forecast is scored once per role. Brier: 0 is perfect, 2 the worst. Log: 0 is perfect, lower is worse.".into()),
                vec![Column("Model or aggregate", false), Column("Scored", true), Column("Brier", true), Column("Log", true)], models)}
        </section>
    }
}
