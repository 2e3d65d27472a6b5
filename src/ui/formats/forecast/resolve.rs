//! Resolving a finished forecast: the user says which outcome happened (or the value, for a
//! question whose outcomes are ranges) and when; the resolution is appended to the debate's
//! log, and the forecast's scores are shown under its result.

use leptos::prelude::*;

use crate::engine::config::FormatOptions;
use crate::engine::event::Outcome;
use crate::engine::formats::forecast::ledger::{
    self, brier, log_score, outcome_for_value, Resolution,
};
use crate::engine::formats::forecast::types::result_in;
use crate::ui::state::DebateView;
use crate::ui::table::{data_table, Cell, Column};

/// The scores of every forecaster of this forecast against its resolution.
fn scores_table(d: DebateView, resolution: &Resolution) -> Option<AnyView> {
    let config = d.config.get()?;
    let result = d.findings.with(|all| result_in(all.iter()).cloned())?;
    let opening = d.findings.with(|all| ledger::opening(all.iter(), &result));
    let rows = ledger::scores(&config, &result, opening.as_deref(), resolution)
        .ok()?
        .into_iter()
        .map(|s| {
            let model = match &s.forecaster {
                ledger::Forecaster::Role { model, .. } => model.clone().unwrap_or_default(),
                _ => String::new(),
            };
            vec![
                Cell::Head(s.forecaster.label()),
                Cell::Text(model),
                Cell::Text(brier(s.brier)),
                Cell::Text(log_score(s.log)),
            ]
        })
        .collect();
    Some(data_table(
        "fc-scores",
        "Scores against what happened",
        "fc-scores",
        Some(
            "Brier score: 0 is perfect, 2 the worst. Log score: 0 is perfect, lower is worse."
                .into(),
        ),
        vec![
            Column("Forecaster", false),
            Column("Model", false),
            Column("Brier", true),
            Column("Log", true),
        ],
        rows,
    ))
}

/// Under a finished forecast's result: its resolution and scores, or the form to resolve it.
#[component]
pub fn Resolve() -> impl IntoView {
    let d = expect_context::<DebateView>();
    let editing = RwSignal::new(false);
    let outcomes = move || {
        d.config.with(|c| match c.as_ref().map(|c| &c.options) {
            Some(FormatOptions::Forecast(o)) => o
                .outcomes
                .iter()
                .map(|x| (x.id.clone(), x.label.clone()))
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        })
    };
    // Resolvable: this browser's stored copy of a forecast that finished with a result.
    let resolvable = move || {
        d.id.get().is_some()
            && d.shared.with(|s| s.is_none())
            && matches!(d.outcome.get(), Some((Outcome::Completed, _)))
            && !d.running.get()
            && !outcomes().is_empty()
    };
    let picked = RwSignal::new(String::new());
    let value = RwSignal::new(String::new());
    let on = RwSignal::new(crate::ui::fields::today());
    let note = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let saving = RwSignal::new(false);
    // Ranges like "Under 2%" can be resolved by the value observed.
    let numeric = move || {
        outcomes()
            .iter()
            .filter(|(_, l)| ledger::range(l).is_some())
            .count()
            >= 2
    };
    let on_value = move |ev| {
        let v = event_target_value(&ev);
        value.set(v.clone());
        if let Some(id) = ledger::value(&v).and_then(|x| outcome_for_value(&outcomes(), x)) {
            picked.set(id);
        }
    };
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let outcome = picked.get_untracked();
        if outcome.is_empty() {
            problem.set(Some("Pick the outcome that happened.".into()));
            return;
        }
        let v = value.get_untracked();
        let value = if v.trim().is_empty() {
            None
        } else {
            match ledger::value(&v) {
                Some(x) => Some(x),
                None => {
                    problem.set(Some(format!("\"{}\" is not a number.", v.trim())));
                    return;
                }
            }
        };
        let r = Resolution {
            outcome,
            value,
            on: on.get_untracked(),
            note: note.get_untracked().trim().to_string(),
        };
        let Some(write) = d.resolve(r) else {
            return;
        };
        saving.set(true);
        leptos::task::spawn_local(async move {
            match write.await {
                Ok(()) => {
                    problem.set(None);
                    editing.set(false);
                }
                Err(e) => problem.set(Some(e.to_string())),
            }
            saving.set(false);
        });
    };
    let label_of = move |id: &str| {
        outcomes()
            .into_iter()
            .find(|(o, _)| o == id)
            .map_or(id.to_string(), |(_, l)| l)
    };
    let form = move || {
        view! {
            <form class="fc-resolve-form" on:submit=save>
                <div class="row">
                    <label class="field"><span class="label">"What happened"</span>
                        <select id="resolve-outcome" prop:value=move || picked.get()
                            on:change=move |ev| picked.set(event_target_value(&ev))>
                            <option value="">"Pick an outcome"</option>
                            {outcomes().into_iter().map(|(id, label)| view! { <option value=id>{label}</option> }).collect_view()}
                        </select>
                    </label>
                    {move || numeric().then(|| view! {
                        <label class="field"><span class="label">"Value observed (optional)"</span>
                            <input id="resolve-value" inputmode="decimal" prop:value=move || value.get() on:input=on_value/>
                        </label>
                    })}
                    <label class="field"><span class="label">"When"</span>
                        <input id="resolve-date" type="date" required prop:value=move || on.get()
                            on:input=move |ev| on.set(event_target_value(&ev))/>
                    </label>
                </div>
                <label class="field"><span class="label">"Note (optional): a source, a link"</span>
                    <input id="resolve-note" maxlength="2000" prop:value=move || note.get()
                        on:input=move |ev| note.set(event_target_value(&ev))/>
                </label>
                <div class="row">
                    <button type="submit" class="primary" id="resolve-save" disabled=move || saving.get()>"Record the resolution"</button>
                    {move || editing.get().then(|| view! {
                        <button type="button" class="link" on:click=move |_| {
                            problem.set(None);
                            editing.set(false);
                        }>"Cancel"</button>
                    })}
                </div>
                {move || problem.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            </form>
        }
    };
    move || {
        if !resolvable() {
            // A shared or widget copy still shows a resolution it carries.
            return d.resolution.get().map(|r| {
                view! {
                    <section class="fc-section fc-resolution">
                        <h3>"Resolved"</h3>
                        <p>{format!("{} on {}", label_of(&r.outcome), r.on)}</p>
                        {scores_table(d, &r)}
                    </section>
                }
                .into_any()
            });
        }
        Some(match (d.resolution.get(), editing.get()) {
            (Some(r), false) => view! {
                <section class="fc-section fc-resolution" aria-live="polite">
                    <h3>"Resolved"</h3>
                    <p id="resolution-line">
                        <b>{label_of(&r.outcome)}</b>{ledger::details(&r)}
                    </p>
                    {scores_table(d, &r)}
                    <button type="button" class="link" id="resolve-correct" on:click=move |_| {
                        picked.set(r.outcome.clone());
                        value.set(r.value.map(crate::engine::cost::short).unwrap_or_default());
                        on.set(r.on.clone());
                        note.set(r.note.clone());
                        editing.set(true);
                    }>"Correct the resolution"</button>
                </section>
            }
            .into_any(),
            _ => view! {
                <section class="fc-section fc-resolution">
                    <h3>"Resolve this forecast"</h3>
                    <p class="hint">"When the question is settled, record what happened: the forecast is scored, and the ledger keeps every role's and model's record."</p>
                    {form}
                </section>
            }
            .into_any(),
        })
    }
}
