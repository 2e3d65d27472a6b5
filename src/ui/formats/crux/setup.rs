//! Setting up a crux debate: the personas (2 to 6) picked from the library, edited,
//! created, imported from a file or exported to one, each with its model; who analyses;
//! aspects, the longest crux-room exchange and the temperature tiers. The rules live in
//! `session::format_drafts::crux::CruxDraft`; this binds to it and keeps the user's own
//! personas in this browser's localStorage.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::engine::formats::crux::persona::{self, PersonaContract};
use crate::engine::DebateConfig;
use crate::session::format_drafts::crux::{CruxDraft, Tier};
use crate::ui::fields::{row_field, Bound};
use crate::ui::formats::SetupForm;
use crate::ui::seating::{ConnectionOptions, ConnectionSelect, Seating};

const LIBRARY_KEY: &str = "agora.personas.v1";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The user's own personas, saved earlier (invalid entries are dropped).
fn saved() -> Vec<PersonaContract> {
    storage()
        .and_then(|s| s.get_item(LIBRARY_KEY).ok().flatten())
        .and_then(|t| serde_json::from_str::<Vec<serde_json::Value>>(&t).ok())
        .map(|all| {
            all.iter()
                .filter_map(|v| persona::from_value(v).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Keeps the draft's own personas on this device.
fn save_own(d: &CruxDraft) {
    if let (Some(s), Ok(t)) = (storage(), serde_json::to_string(&d.own())) {
        let _ = s.set_item(LIBRARY_KEY, &t);
    }
}

/// Reads the first file of a file input as text (through `File.text()`, looked up by
/// name, so no extra browser bindings are needed).
async fn read_file(ev: &leptos::ev::Event) -> Option<String> {
    let target = ev.target()?;
    let files = js_sys::Reflect::get(&target, &"files".into()).ok()?;
    let file = js_sys::Reflect::get(&files, &0.into()).ok()?;
    if file.is_undefined() || file.is_null() {
        return None;
    }
    let text: js_sys::Function = js_sys::Reflect::get(&file, &"text".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let promise: js_sys::Promise = text.call0(&file).ok()?.dyn_into().ok()?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .ok()?
        .as_string()
}

pub fn form() -> Box<dyn SetupForm> {
    Box::new(CruxForm(RwSignal::new(CruxDraft::new(saved()))))
}

#[derive(Clone, Copy)]
struct CruxForm(RwSignal<CruxDraft>);

impl SetupForm for CruxForm {
    fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        self.0.with(|d| d.build(topic, seating))
    }

    fn view(&self) -> AnyView {
        view! { <CruxSetup f=self.0/> }.into_any()
    }
}

#[component]
fn PersonaRow(i: usize, f: RwSignal<CruxDraft>) -> impl IntoView {
    let n = i + 1;
    let contract = move || f.with(|d| d.personas.get(i).map(|p| p.contract.clone()));
    let id = move || contract().map(|c| c.id).unwrap_or_default();
    let (connection, model) = (
        row_field!(f, personas, connection, i),
        row_field!(f, personas, model, i),
    );
    let export = move |_| {
        if let Some(c) = f.with_untracked(|d| d.personas.get(i).map(|p| p.contract.clone())) {
            let _ = crate::ui::download::save(
                &format!("{}.json", c.id),
                "application/json",
                &persona::to_json(&c),
            );
        }
    };
    // The options change only when the library does, not on every keystroke in the form.
    let library = Memo::new(move |_| f.with(|d| d.library.clone()));
    view! {
        <div class="persona-setup">
            <select aria-label=format!("Persona {n}") prop:value=id
                on:change=move |ev| f.update(|d| d.pick(i, &event_target_value(&ev)))>
                {move || library.get().into_iter().map(|c| {
                    let cid = c.id.clone();
                    view! {
                        <option value=c.id.clone() title=c.identity.personality.clone()
                            prop:selected=move || id() == cid>{c.name}</option>
                    }
                }).collect_view()}
            </select>
            <select aria-label=format!("Persona {n} connection") prop:value=move || connection.get()
                on:change=move |ev| connection.set(event_target_value(&ev))>
                <option value="">"Same as above"</option>
                <ConnectionOptions/>
            </select>
            <input aria-label=format!("Persona {n} model") placeholder="model (default)"
                disabled=move || connection.get().is_empty()
                prop:value=move || model.get() on:input=move |ev| model.set(event_target_value(&ev))/>
            <button type="button" class="link" on:click=move |_| f.update(|d| d.edit(i)) aria-label=format!("Edit persona {n}")>"Edit"</button>
            <button type="button" class="link" on:click=export aria-label=format!("Export persona {n}")>"Export"</button>
            <button type="button" class="link" aria-label=format!("Remove persona {n}")
                disabled=move || !f.with(CruxDraft::can_remove)
                on:click=move |_| f.update(|d| d.remove(i))>"Remove"</button>
            <p class="hint persona-bias">{move || contract().map(|c| c.identity.bias).unwrap_or_default()}</p>
        </div>
    }
}

/// The persona editor (its JSON), open on one persona.
#[component]
fn PersonaEditor(i: usize, f: RwSignal<CruxDraft>) -> impl IntoView {
    let apply = move |_| {
        let mut changed = false;
        f.update(|d| changed = d.apply());
        if changed {
            f.with_untracked(save_own);
        }
    };
    view! {
        <div class="persona-editor">
            <label class="field">
                <span class="label">{format!("Persona {} as JSON: identity, thinking, flip conditions, voice, forbidden phrases, anchor quotes", i + 1)}</span>
                <textarea id="persona-json" rows="18" spellcheck="false" prop:value=move || f.with(|d| d.editor.clone())
                    on:input=move |ev| f.update(|d| d.editor = event_target_value(&ev))></textarea>
            </label>
            <div class="row">
                <button type="button" class="primary" id="apply-persona" on:click=apply>"Use this persona"</button>
                <button type="button" class="link" on:click=move |_| f.update(|d| d.editing = None)>"Cancel"</button>
            </div>
        </div>
    }
}

#[component]
fn CruxSetup(f: RwSignal<CruxDraft>) -> impl IntoView {
    // Rows are drawn again only when a persona is added or removed, not as a field changes.
    let count = Memo::new(move |_| f.with(|d| d.personas.len()));
    let editing = Memo::new(move |_| f.with(|d| d.editing));
    let import = move |ev: leptos::ev::Event| {
        leptos::task::spawn_local(async move {
            let Some(text) = read_file(&ev).await else {
                return f.update(|d| d.problem = Some("That file could not be read.".into()));
            };
            let mut changed = false;
            f.update(|d| changed = d.import(&text));
            if changed {
                f.with_untracked(save_own);
            }
        });
    };
    let number = move |set: fn(&mut CruxDraft, &str)| {
        move |ev: leptos::ev::Event| f.update(|d| set(d, &event_target_value(&ev)))
    };
    let temp = move |label: &'static str, id: &'static str, tier: Tier| {
        view! {
            <label class="field">
                <span class="label">{label}</span>
                <input id=id type="number" min="0" max="2" step="0.05"
                    prop:value=move || crate::engine::cost::decimal(f.with(|d| tier.of(&d.options.temperatures)) as f64, 2)
                    on:change=move |ev| f.update(|d| d.set_temperature(tier, &event_target_value(&ev)))/>
            </label>
        }
    };
    let analyst = Bound::part(
        f,
        |d| d.analyst_connection.clone(),
        |d, v| d.analyst_connection = v,
    );
    let analyst_model = Bound::part(f, |d| d.analyst_model.clone(), |d, v| d.analyst_model = v);
    view! {
        <div class="crux-setup">
            <fieldset class="personas">
                <legend>"Personas (2 to 6)"</legend>
                {move || (0..count.get()).map(|i| view! { <PersonaRow i f/> }).collect_view()}
                <div class="row">
                    <button type="button" class="secondary" id="add-persona" on:click=move |_| f.update(CruxDraft::add)
                        disabled=move || !f.with(CruxDraft::can_add)>"Add a persona"</button>
                    <button type="button" class="link" id="new-persona" on:click=move |_| f.update(CruxDraft::create)>"Create a persona"</button>
                    <label class="link file-pick">"Import a persona file"
                        <input type="file" id="import-persona" accept=".json,application/json" on:change=import/>
                    </label>
                </div>
                {move || editing.get().map(|i| view! { <PersonaEditor i f/> })}
                {move || f.with(|d| d.problem.clone()).map(|e| view! { <p class="error" role="alert" id="persona-error">{e}</p> })}
            </fieldset>
            <div class="grid2">
                <ConnectionSelect id="crux-analyst-connection" label="Analysis (aspects, detection, checks, cards) runs on"
                    default="Same as above" value=analyst/>
                <label class="field">
                    <span class="label">"Analyst model"</span>
                    <input id="crux-analyst-model" placeholder="model (default)"
                        disabled=move || analyst.get().is_empty()
                        prop:value=move || analyst_model.get() on:input=move |ev| analyst_model.set(event_target_value(&ev))/>
                </label>
                <label class="field">
                    <span class="label">"Aspects of the topic"</span>
                    <input id="crux-aspects" type="number" min="1" max="5" prop:value=move || f.with(|d| d.options.aspects.to_string())
                        on:input=number(CruxDraft::set_aspects)/>
                </label>
                <label class="field">
                    <span class="label">"Longest crux-room exchange (turns)"</span>
                    <input id="crux-exchanges" type="number" min="2" max="14" prop:value=move || f.with(|d| d.options.max_exchanges.to_string())
                        on:input=number(CruxDraft::set_exchanges)/>
                </label>
            </div>
            <details class="temperatures">
                <summary>"Temperatures"</summary>
                <div class="grid2">
                    {temp("Generation (openings, takes, closings)", "temp-generation", Tier::Generation)}
                    {temp("Crux exchange", "temp-exchange", Tier::Exchange)}
                    {temp("Analysis (detection, checks, summaries)", "temp-analysis", Tier::Analysis)}
                    {temp("Extraction (aspects, cards)", "temp-extraction", Tier::Extraction)}
                </div>
            </details>
        </div>
    }
}
