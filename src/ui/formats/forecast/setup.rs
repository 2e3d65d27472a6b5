//! Setting up a forecast: the outcomes (two to eight: id, label, description), the roles
//! (the seed's five by default; remove any but the judge, add your own with a perspective)
//! and their models, who scores, rounds, the judge's weight, and the optional context.

use leptos::prelude::*;

use crate::engine::config::{ForecastContext, ForecastOptions, ForecastOutcome, ForecastPrior};
use crate::engine::formats::forecast::{self, role_name, DEFAULT_ROLES, JUDGE};
use crate::engine::DebateConfig;
use crate::ui::formats::SetupForm;
use crate::ui::seating::{ConnectionOptions, ConnectionSelect, Seating};

#[derive(Clone, Copy)]
pub struct OutcomeChoice {
    pub id: RwSignal<String>,
    pub label: RwSignal<String>,
    pub description: RwSignal<String>,
}

impl OutcomeChoice {
    fn new(id: &str, label: &str) -> Self {
        OutcomeChoice {
            id: RwSignal::new(id.into()),
            label: RwSignal::new(label.into()),
            description: RwSignal::new(String::new()),
        }
    }
}

#[derive(Clone, Copy)]
pub struct RoleChoice {
    pub kind: RwSignal<String>,
    pub name: RwSignal<String>,
    pub perspective: RwSignal<String>,
    pub connection: RwSignal<String>,
    pub model: RwSignal<String>,
}

impl RoleChoice {
    fn new(kind: &str) -> Self {
        RoleChoice {
            kind: RwSignal::new(kind.into()),
            name: RwSignal::new(role_name(kind)),
            perspective: RwSignal::new(String::new()),
            connection: RwSignal::new(String::new()),
            model: RwSignal::new(String::new()),
        }
    }
}

#[derive(Clone, Copy)]
pub struct ForecastForm {
    pub outcomes: RwSignal<Vec<OutcomeChoice>>,
    pub roles: RwSignal<Vec<RoleChoice>>,
    pub analyst_connection: RwSignal<String>,
    pub analyst_model: RwSignal<String>,
    pub rounds: RwSignal<u32>,
    /// 0–100.
    pub judge_weight: RwSignal<u32>,
    pub key_variables: RwSignal<String>,
    pub prior: RwSignal<String>,
    pub highlights: RwSignal<String>,
    pub data_gaps: RwSignal<String>,
}

fn lines(s: &str) -> Vec<String> {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

impl ForecastForm {
    pub fn new() -> Self {
        ForecastForm {
            outcomes: RwSignal::new(vec![
                OutcomeChoice::new("yes", "Yes"),
                OutcomeChoice::new("no", "No"),
            ]),
            roles: RwSignal::new(DEFAULT_ROLES.iter().map(|k| RoleChoice::new(k)).collect()),
            analyst_connection: RwSignal::new(String::new()),
            analyst_model: RwSignal::new(String::new()),
            rounds: RwSignal::new(3),
            judge_weight: RwSignal::new(60),
            key_variables: RwSignal::new(String::new()),
            prior: RwSignal::new(String::new()),
            highlights: RwSignal::new(String::new()),
            data_gaps: RwSignal::new(String::new()),
        }
    }

    /// The options the form describes (roles are added by the config builder). A prior
    /// is read from lines like `yes 30` or `yes: 0.3`; lines that are not are left out.
    pub fn options(&self) -> ForecastOptions {
        let prior = lines(&self.prior.get())
            .iter()
            .filter_map(|l| {
                let (id, v) = l.rsplit_once([' ', ':', '='])?;
                let v = crate::engine::cost::parse_decimal(v.trim().trim_end_matches('%'))?;
                Some(ForecastPrior {
                    outcome: id.trim().trim_end_matches(':').to_string(),
                    probability: if v > 1.0 { v / 100.0 } else { v },
                })
            })
            .collect();
        ForecastOptions {
            outcomes: self.outcomes.with(|o| {
                o.iter()
                    .map(|o| ForecastOutcome {
                        id: o.id.get().trim().to_string(),
                        label: o.label.get().trim().to_string(),
                        description: o.description.get().trim().to_string(),
                    })
                    .collect()
            }),
            rounds: self.rounds.get(),
            judge_weight: self.judge_weight.get() as f64 / 100.0,
            context: ForecastContext {
                key_variables: lines(&self.key_variables.get()),
                prior,
                highlights: lines(&self.highlights.get()),
                data_gaps: lines(&self.data_gaps.get()),
            },
            ..Default::default()
        }
    }
}

pub fn form() -> Box<dyn SetupForm> {
    Box::new(ForecastForm::new())
}

impl SetupForm for ForecastForm {
    fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        let roles = self.roles.with(|r| {
            r.iter()
                .map(|r| {
                    (
                        r.kind.get(),
                        r.name.get(),
                        r.perspective.get(),
                        seating.participant(&r.connection.get(), &r.model.get()),
                    )
                })
                .collect()
        });
        let analyst = (!self.analyst_connection.get().is_empty()).then(|| {
            seating.participant(&self.analyst_connection.get(), &self.analyst_model.get())
        });
        forecast::new_config(topic, roles, analyst, self.options())
    }

    fn view(&self) -> AnyView {
        view! { <ForecastSetup form=*self/> }.into_any()
    }
}

#[component]
fn OutcomeRow(i: usize, o: OutcomeChoice, form: ForecastForm) -> impl IntoView {
    let n = i + 1;
    view! {
        <div class="fc-outcome-setup">
            <input aria-label=format!("Outcome {n} id") class="fc-id" prop:value=move || o.id.get()
                on:input=move |ev| o.id.set(event_target_value(&ev))/>
            <input aria-label=format!("Outcome {n} label") prop:value=move || o.label.get()
                on:input=move |ev| o.label.set(event_target_value(&ev))/>
            <input aria-label=format!("Outcome {n} description") placeholder="description (optional)"
                prop:value=move || o.description.get() on:input=move |ev| o.description.set(event_target_value(&ev))/>
            <button type="button" class="link" aria-label=format!("Remove outcome {n}")
                disabled=move || form.outcomes.with(|o| o.len() <= 2)
                on:click=move |_| form.outcomes.update(|o| { if o.len() > 2 { o.remove(i); } })>"Remove"</button>
        </div>
    }
}

#[component]
fn RoleRow(i: usize, r: RoleChoice, form: ForecastForm) -> impl IntoView {
    let custom = move || r.kind.with(|k| k == "custom");
    let judge = move || r.kind.with(|k| k == JUDGE);
    let name = move || r.name.get();
    view! {
        <div class="fc-role-setup">
            <input class="fc-role-name" aria-label=move || format!("Role {} name", i + 1) prop:value=name
                on:input=move |ev| r.name.set(event_target_value(&ev))/>
            <select aria-label=move || format!("{} connection", name()) prop:value=move || r.connection.get()
                on:change=move |ev| r.connection.set(event_target_value(&ev))>
                <option value="">"Same as above"</option>
                <ConnectionOptions/>
            </select>
            <input aria-label=move || format!("{} model", name()) placeholder="model (default)"
                disabled=move || r.connection.get().is_empty()
                prop:value=move || r.model.get() on:input=move |ev| r.model.set(event_target_value(&ev))/>
            <button type="button" class="link" aria-label=move || format!("Remove {}", name())
                disabled=judge
                on:click=move |_| form.roles.update(|v| { if i < v.len() { v.remove(i); } })>"Remove"</button>
            <Show when=custom>
                <input class="fc-perspective" aria-label=move || format!("{} argues from", name())
                    placeholder="What this role argues from, e.g. supply-chain economics"
                    prop:value=move || r.perspective.get() on:input=move |ev| r.perspective.set(event_target_value(&ev))/>
            </Show>
        </div>
    }
}

#[component]
fn ForecastSetup(form: ForecastForm) -> impl IntoView {
    let missing = move || {
        let have: Vec<String> = form
            .roles
            .with(|v| v.iter().map(|r| r.kind.get()).collect());
        DEFAULT_ROLES
            .iter()
            .filter(|k| !have.iter().any(|h| h == *k))
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
    };
    let area = |id: &'static str, label: &'static str, hint: &'static str, s: RwSignal<String>| {
        view! {
            <label class="field"><span class="label">{label}</span>
                <textarea id=id rows="2" placeholder=hint prop:value=move || s.get()
                    on:input=move |ev| s.set(event_target_value(&ev))></textarea></label>
        }
    };
    view! {
        <div class="fc-setup">
            <fieldset class="fc-outcomes">
                <legend>"Outcomes (2 to 8): id, label, description"</legend>
                {move || form.outcomes.get().into_iter().enumerate().map(|(i, o)| view! {
                    <OutcomeRow i=i o=o form=form/>
                }).collect_view()}
                <button type="button" class="secondary" id="add-outcome"
                    disabled=move || form.outcomes.with(|o| o.len() >= 8)
                    on:click=move |_| form.outcomes.update(|o| {
                        let n = o.len() + 1;
                        o.push(OutcomeChoice::new(&format!("outcome-{n}"), &format!("Outcome {n}")));
                    })>"Add an outcome"</button>
            </fieldset>
            <fieldset class="fc-roles">
                <legend>"Roles, each with its own model"</legend>
                {move || form.roles.get().into_iter().enumerate().map(|(i, r)| view! {
                    <RoleRow i=i r=r form=form/>
                }).collect_view()}
                <div class="row">
                    {move || missing().into_iter().map(|k| {
                        let label = format!("Add the {}", k);
                        view! { <button type="button" class="secondary" on:click=move |_| form.roles.update(|v| v.push(RoleChoice::new(&k)))>{label}</button> }
                    }).collect_view()}
                    <button type="button" class="secondary" id="add-role"
                        disabled=move || form.roles.with(|v| v.len() >= 9)
                        on:click=move |_| form.roles.update(|v| {
                            let r = RoleChoice::new("custom");
                            r.name.set(format!("Role {}", v.len() + 1));
                            v.push(r);
                        })>"Add your own role"</button>
                </div>
            </fieldset>
            <div class="grid2">
                <ConnectionSelect id="forecast-analyst" label="Scoring runs on"
                    default="The judge's model" value=form.analyst_connection/>
                <label class="field">
                    <span class="label">"Rounds (opening, rebuttals, closing)"</span>
                    <input id="forecast-rounds" type="number" min="2" max="10" prop:value=move || form.rounds.get().to_string()
                        on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse::<u32>() { form.rounds.set(n.clamp(2, 10)) } }/>
                </label>
                <label class="field">
                    <span class="label">{move || format!("Judge weight: {}% judge, {}% role consensus", form.judge_weight.get(), 100 - form.judge_weight.get())}</span>
                    <input id="judge-weight" type="range" min="0" max="100" step="5" prop:value=move || form.judge_weight.get().to_string()
                        on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse::<u32>() { form.judge_weight.set(n.min(100)) } }/>
                </label>
            </div>
            <details class="fc-context">
                <summary>"Context (optional): key variables, prior, highlights, data gaps"</summary>
                {area("key-variables", "Key variables, one a line", "Interest rate: 4.5%, high importance", form.key_variables)}
                {area("prior", "Prior distribution, one outcome a line", "yes 30\nno 70", form.prior)}
                {area("highlights", "Highlights, one a line", "Consumer sentiment fell for three months", form.highlights)}
                {area("data-gaps", "Known data gaps, one a line", "No regional figures after March", form.data_gaps)}
            </details>
        </div>
    }
}
