//! Resolving a finished forecast: the user says which outcome happened (or the value, for a
//! question whose outcomes are ranges) and when; the resolution is appended to the debate's
//! log, and the forecast's scores are shown under its result.

use leptos::prelude::*;

use crate::engine::event::Outcome;
use crate::engine::formats::forecast::ledger::{self, brier, log_score, Resolution};
use crate::engine::formats::forecast::types::result_in;
use crate::session::resolve_draft::ResolveDraft;
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
    let blank = move || {
        d.config
            .with(|c| ResolveDraft::new(c.as_ref(), crate::ui::fields::today()))
    };
    let draft = RwSignal::new(blank());
    let editing = RwSignal::new(false);
    // Resolvable: this browser's stored copy of a forecast that finished with a result.
    let resolvable = move || {
        d.id.get().is_some()
            && d.shared.with(|s| s.is_none())
            && matches!(d.outcome.get(), Some((Outcome::Completed, _)))
            && !d.running.get()
            && draft.with(|f| !f.outcomes.is_empty())
    };
    Effect::new(move |_| draft.set(blank()));
    let label_of = move |id: &str| draft.with(|f| f.label_of(id));
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
                        draft.update(|f| *f = std::mem::take(f).correcting(&r));
                        editing.set(true);
                    }>"Correct the resolution"</button>
                </section>
            }
            .into_any(),
            _ => view! {
                <section class="fc-section fc-resolution">
                    <h3>"Resolve this forecast"</h3>
                    <p class="hint">"When the question is settled, record what happened: the forecast is scored, and the ledger keeps every role's and model's record."</p>
                    <ResolveForm draft editing/>
                </section>
            }
            .into_any(),
        })
    }
}

/// The form: what happened (or the value observed), when, a note; saved into the log.
#[component]
fn ResolveForm(draft: RwSignal<ResolveDraft>, editing: RwSignal<bool>) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let problem = RwSignal::new(None::<String>);
    let saving = RwSignal::new(false);
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let r = match draft.with_untracked(ResolveDraft::resolution) {
            Ok(r) => r,
            Err(e) => return problem.set(Some(e)),
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
    let field = move |get: fn(&ResolveDraft) -> &String| move || draft.with(|f| get(f).clone());
    view! {
        <form class="fc-resolve-form" on:submit=save>
            <div class="row">
                <label class="field"><span class="label">"What happened"</span>
                    <select id="resolve-outcome" prop:value=field(|f| &f.picked)
                        on:change=move |ev| draft.update(|f| f.picked = event_target_value(&ev))>
                        <option value="">"Pick an outcome"</option>
                        {draft.with_untracked(|f| f.outcomes.clone()).into_iter().map(|(id, label)| view! { <option value=id>{label}</option> }).collect_view()}
                    </select>
                </label>
                {move || draft.with(ResolveDraft::numeric).then(|| view! {
                    <label class="field"><span class="label">"Value observed (optional)"</span>
                        <input id="resolve-value" inputmode="decimal" prop:value=field(|f| &f.value)
                            on:input=move |ev| draft.update(|f| f.set_value(event_target_value(&ev)))/>
                    </label>
                })}
                <label class="field"><span class="label">"When"</span>
                    <input id="resolve-date" type="date" required prop:value=field(|f| &f.on)
                        on:input=move |ev| draft.update(|f| f.on = event_target_value(&ev))/>
                </label>
            </div>
            <label class="field"><span class="label">"Note (optional): a source, a link"</span>
                <input id="resolve-note" maxlength="2000" prop:value=field(|f| &f.note)
                    on:input=move |ev| draft.update(|f| f.note = event_target_value(&ev))/>
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
}
