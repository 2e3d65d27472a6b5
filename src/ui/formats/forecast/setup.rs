//! Setting up a forecast: the outcomes (two to eight: id, label, description), the roles
//! (the seed's five by default; remove any but the judge, add your own with a perspective)
//! and their models, who scores, rounds, the judge's weight, and the optional context. The
//! rules live in `session::format_drafts::forecast::ForecastDraft`; this binds to it.

use leptos::prelude::*;

use crate::engine::DebateConfig;
use crate::session::format_drafts::forecast::{ForecastDraft, CUSTOM};
use crate::ui::fields::{row_field, Bound};
use crate::ui::formats::SetupForm;
use crate::ui::seating::{ConnectionOptions, ConnectionSelect, Seating};

#[derive(Clone, Copy)]
struct ForecastForm(RwSignal<ForecastDraft>);

pub fn form() -> Box<dyn SetupForm> {
    Box::new(ForecastForm(RwSignal::new(ForecastDraft::default())))
}

impl SetupForm for ForecastForm {
    fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        self.0.with(|d| d.build(topic, seating))
    }

    fn view(&self) -> AnyView {
        view! { <ForecastSetup f=self.0/> }.into_any()
    }
}

#[component]
fn OutcomeRow(i: usize, f: RwSignal<ForecastDraft>) -> impl IntoView {
    let n = i + 1;
    let (id, label, description) = (
        row_field!(f, outcomes, id, i),
        row_field!(f, outcomes, label, i),
        row_field!(f, outcomes, description, i),
    );
    view! {
        <div class="fc-outcome-setup">
            <input aria-label=format!("Outcome {n} id") class="fc-id" prop:value=move || id.get()
                on:input=move |ev| id.set(event_target_value(&ev))/>
            <input aria-label=format!("Outcome {n} label") prop:value=move || label.get()
                on:input=move |ev| label.set(event_target_value(&ev))/>
            <input aria-label=format!("Outcome {n} description") placeholder="description (optional)"
                prop:value=move || description.get() on:input=move |ev| description.set(event_target_value(&ev))/>
            <button type="button" class="link" aria-label=format!("Remove outcome {n}")
                disabled=move || !f.with(ForecastDraft::can_remove_outcome)
                on:click=move |_| f.update(|d| d.remove_outcome(i))>"Remove"</button>
        </div>
    }
}

#[component]
fn RoleRow(i: usize, f: RwSignal<ForecastDraft>) -> impl IntoView {
    let role = move || f.with(|d| d.roles.get(i).cloned().unwrap_or_default());
    let (name, connection, model, perspective) = (
        row_field!(f, roles, name, i),
        row_field!(f, roles, connection, i),
        row_field!(f, roles, model, i),
        row_field!(f, roles, perspective, i),
    );
    view! {
        <div class="fc-role-setup">
            <input class="fc-role-name" aria-label=move || format!("Role {} name", i + 1) prop:value=move || name.get()
                on:input=move |ev| name.set(event_target_value(&ev))/>
            <select aria-label=move || format!("{} connection", name.get()) prop:value=move || connection.get()
                on:change=move |ev| connection.set(event_target_value(&ev))>
                <option value="">"Same as above"</option>
                <ConnectionOptions/>
            </select>
            <input aria-label=move || format!("{} model", name.get()) placeholder="model (default)"
                disabled=move || connection.get().is_empty()
                prop:value=move || model.get() on:input=move |ev| model.set(event_target_value(&ev))/>
            <button type="button" class="link" aria-label=move || format!("Remove {}", name.get())
                disabled=move || !role().removable()
                on:click=move |_| f.update(|d| d.remove_role(i))>"Remove"</button>
            <Show when=move || role().is_custom()>
                <input class="fc-perspective" aria-label=move || format!("{} argues from", name.get())
                    placeholder="What this role argues from, e.g. supply-chain economics"
                    prop:value=move || perspective.get() on:input=move |ev| perspective.set(event_target_value(&ev))/>
            </Show>
        </div>
    }
}

#[component]
fn ForecastSetup(f: RwSignal<ForecastDraft>) -> impl IntoView {
    // Rows are drawn again only when one is added or removed, not as a field is typed in.
    let outcomes = Memo::new(move |_| f.with(|d| d.outcomes.len()));
    let roles = Memo::new(move |_| f.with(|d| d.roles.len()));
    let missing = Memo::new(move |_| f.with(|d| d.missing_roles()));
    let area = |id: &'static str, label: &'static str, hint: &'static str, s: Bound<String>| {
        view! {
            <label class="field"><span class="label">{label}</span>
                <textarea id=id rows="2" placeholder=hint prop:value=move || s.get()
                    on:input=move |ev| s.set(event_target_value(&ev))></textarea></label>
        }
    };
    let weight = move || f.with(|d| d.judge_weight);
    view! {
        <div class="fc-setup">
            <fieldset class="fc-outcomes">
                <legend>"Outcomes (2 to 8): id, label, description"</legend>
                {move || (0..outcomes.get()).map(|i| view! { <OutcomeRow i f/> }).collect_view()}
                <button type="button" class="secondary" id="add-outcome"
                    disabled=move || !f.with(ForecastDraft::can_add_outcome)
                    on:click=move |_| f.update(ForecastDraft::add_outcome)>"Add an outcome"</button>
            </fieldset>
            <fieldset class="fc-roles">
                <legend>"Roles, each with its own model"</legend>
                {move || (0..roles.get()).map(|i| view! { <RoleRow i f/> }).collect_view()}
                <div class="row">
                    {move || missing.get().into_iter().map(|k| view! {
                        <button type="button" class="secondary" on:click=move |_| f.update(|d| d.add_role(k))>{format!("Add the {k}")}</button>
                    }).collect_view()}
                    <button type="button" class="secondary" id="add-role"
                        disabled=move || !f.with(ForecastDraft::can_add_role)
                        on:click=move |_| f.update(|d| d.add_role(CUSTOM))>"Add your own role"</button>
                </div>
            </fieldset>
            <div class="grid2">
                <ConnectionSelect id="forecast-analyst" label="Scoring runs on" default="The judge's model"
                    value=Bound::part(f, |d| d.analyst_connection.clone(), |d, v| d.analyst_connection = v)/>
                <label class="field">
                    <span class="label">"Rounds (opening, rebuttals, closing)"</span>
                    <input id="forecast-rounds" type="number" min="2" max="10" prop:value=move || f.with(|d| d.rounds.to_string())
                        on:input=move |ev| f.update(|d| d.set_rounds(&event_target_value(&ev)))/>
                </label>
                <label class="field">
                    <span class="label">{move || format!("Judge weight: {}% judge, {}% role consensus", weight(), 100 - weight())}</span>
                    <input id="judge-weight" type="range" min="0" max="100" step="5" prop:value=move || weight().to_string()
                        on:input=move |ev| f.update(|d| d.set_judge_weight(&event_target_value(&ev)))/>
                </label>
            </div>
            <details class="fc-context">
                <summary>"Context (optional): key variables, prior, highlights, data gaps"</summary>
                {area("key-variables", "Key variables, one a line", "Interest rate: 4.5%, high importance",
                    Bound::part(f, |d| d.key_variables.clone(), |d, v| d.key_variables = v))}
                {area("prior", "Prior distribution, one outcome a line", "yes 30\nno 70",
                    Bound::part(f, |d| d.prior.clone(), |d, v| d.prior = v))}
                {area("highlights", "Highlights, one a line", "Consumer sentiment fell for three months",
                    Bound::part(f, |d| d.highlights.clone(), |d, v| d.highlights = v))}
                {area("data-gaps", "Known data gaps, one a line", "No regional figures after March",
                    Bound::part(f, |d| d.data_gaps.clone(), |d, v| d.data_gaps = v))}
            </details>
        </div>
    }
}
