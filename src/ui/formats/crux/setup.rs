//! Setting up a crux debate: the personas (2 to 6) picked from the library, edited,
//! created, imported from a file or exported to one, each with its model; who analyses;
//! aspects, the longest crux-room exchange and the temperature tiers. The user's own
//! personas are kept in this browser's localStorage.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::engine::config::{CruxOptions, CruxTemperatures};
use crate::engine::formats::crux;
use crate::engine::formats::crux::persona::{self, PersonaContract};
use crate::engine::DebateConfig;
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

fn save_own(all: &[PersonaContract]) {
    let builtin: Vec<String> = persona::catalogue().into_iter().map(|c| c.id).collect();
    let own: Vec<&PersonaContract> = all.iter().filter(|c| !builtin.contains(&c.id)).collect();
    if let (Some(s), Ok(t)) = (storage(), serde_json::to_string(&own)) {
        let _ = s.set_item(LIBRARY_KEY, &t);
    }
}

#[derive(Clone, Copy)]
pub struct PersonaChoice {
    pub contract: RwSignal<PersonaContract>,
    pub connection: RwSignal<String>,
    pub model: RwSignal<String>,
}

impl PersonaChoice {
    fn new(c: PersonaContract) -> Self {
        PersonaChoice {
            contract: RwSignal::new(c),
            connection: RwSignal::new(String::new()),
            model: RwSignal::new(String::new()),
        }
    }
}

#[derive(Clone, Copy)]
pub struct CruxForm {
    pub personas: RwSignal<Vec<PersonaChoice>>,
    /// Built-in personas and the user's own.
    pub library: RwSignal<Vec<PersonaContract>>,
    pub analyst_connection: RwSignal<String>,
    pub analyst_model: RwSignal<String>,
    pub aspects: RwSignal<u32>,
    pub max_exchanges: RwSignal<u32>,
    pub temperatures: RwSignal<CruxTemperatures>,
    /// The persona being edited (its index), and the editor's JSON.
    editing: RwSignal<Option<usize>>,
    draft: RwSignal<String>,
    problem: RwSignal<Option<String>>,
}

impl CruxForm {
    pub fn new() -> Self {
        let mut library = persona::catalogue();
        for own in saved() {
            match library.iter_mut().find(|c| c.id == own.id) {
                Some(c) => *c = own,
                None => library.push(own),
            }
        }
        let first: Vec<PersonaChoice> = crate::engine::formats::defaults::CRUX_PERSONAS
            .iter()
            .filter_map(|id| library.iter().find(|c| c.id == *id).cloned())
            .map(PersonaChoice::new)
            .collect();
        let d = CruxOptions::default();
        CruxForm {
            personas: RwSignal::new(first),
            library: RwSignal::new(library),
            analyst_connection: RwSignal::new(String::new()),
            analyst_model: RwSignal::new(String::new()),
            aspects: RwSignal::new(d.aspects),
            max_exchanges: RwSignal::new(d.max_exchanges),
            temperatures: RwSignal::new(d.temperatures),
            editing: RwSignal::new(None),
            draft: RwSignal::new(String::new()),
            problem: RwSignal::new(None),
        }
    }

    /// The options the form describes (personas are added by the config builder).
    pub fn options(&self) -> CruxOptions {
        CruxOptions {
            aspects: self.aspects.get(),
            max_exchanges: self.max_exchanges.get(),
            personas: Vec::new(),
            temperatures: self.temperatures.get(),
        }
    }

    /// Keeps a contract in the library (replacing one with its id) and saves the user's own.
    fn keep(&self, c: PersonaContract) {
        self.library
            .update(|all| match all.iter_mut().find(|x| x.id == c.id) {
                Some(x) => *x = c,
                None => all.push(c),
            });
        self.library.with_untracked(|all| save_own(all));
    }

    fn open_editor(&self, i: usize, text: String) {
        self.editing.set(Some(i));
        self.draft.set(text);
        self.problem.set(None);
    }

    /// Applies the editor's JSON to the persona being edited, or says which field is wrong.
    fn apply(&self) {
        let Some(i) = self.editing.get_untracked() else {
            return;
        };
        match persona::parse(&self.draft.get_untracked()) {
            Ok(c) => {
                // Into the library first, so the persona's select has its option.
                self.keep(c.clone());
                if let Some(p) = self.personas.with_untracked(|ps| ps.get(i).copied()) {
                    p.contract.set(c);
                }
                self.editing.set(None);
                self.problem.set(None);
            }
            Err(e) => self
                .problem
                .set(Some(format!("This persona cannot be used: {e}."))),
        }
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
    Box::new(CruxForm::new())
}

impl SetupForm for CruxForm {
    fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        let personas = self.personas.with(|ps| {
            ps.iter()
                .map(|p| {
                    (
                        p.contract.get(),
                        seating.participant(&p.connection.get(), &p.model.get()),
                    )
                })
                .collect()
        });
        let analyst =
            seating.participant(&self.analyst_connection.get(), &self.analyst_model.get());
        crux::new_config(topic, personas, analyst, self.options())
    }

    fn view(&self) -> AnyView {
        view! { <CruxSetup form=*self/> }.into_any()
    }
}

#[component]
fn PersonaRow(i: usize, p: PersonaChoice, form: CruxForm) -> impl IntoView {
    let n = i + 1;
    let pick = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Some(c) = form
            .library
            .with_untracked(|all| all.iter().find(|c| c.id == id).cloned())
        {
            p.contract.set(c);
        }
    };
    let edit = move |_| form.open_editor(i, persona::to_json(&p.contract.get_untracked()));
    let export = move |_| {
        let c = p.contract.get_untracked();
        let _ = crate::ui::download::save(
            &format!("{}.json", c.id),
            "application/json",
            &persona::to_json(&c),
        );
    };
    view! {
        <div class="persona-setup">
            <select aria-label=format!("Persona {n}") prop:value=move || p.contract.with(|c| c.id.clone()) on:change=pick>
                {move || form.library.get().into_iter().map(|c| {
                    let id = c.id.clone();
                    view! {
                        <option value=c.id.clone() title=c.identity.personality.clone()
                            prop:selected=move || p.contract.with(|x| x.id == id)>{c.name}</option>
                    }
                }).collect_view()}
            </select>
            <select aria-label=format!("Persona {n} connection") prop:value=move || p.connection.get()
                on:change=move |ev| p.connection.set(event_target_value(&ev))>
                <option value="">"Same as above"</option>
                <ConnectionOptions/>
            </select>
            <input aria-label=format!("Persona {n} model") placeholder="model (default)"
                disabled=move || p.connection.get().is_empty()
                prop:value=move || p.model.get() on:input=move |ev| p.model.set(event_target_value(&ev))/>
            <button type="button" class="link" on:click=edit aria-label=format!("Edit persona {n}")>"Edit"</button>
            <button type="button" class="link" on:click=export aria-label=format!("Export persona {n}")>"Export"</button>
            <button type="button" class="link" aria-label=format!("Remove persona {n}")
                disabled=move || form.personas.with(|ps| ps.len() <= 2)
                on:click=move |_| form.personas.update(|ps| { if ps.len() > 2 { ps.remove(i); } form.editing.set(None); })>"Remove"</button>
            <p class="hint persona-bias">{move || p.contract.with(|c| c.identity.bias.clone())}</p>
        </div>
    }
}

#[component]
fn CruxSetup(form: CruxForm) -> impl IntoView {
    let add = move |_| {
        form.personas.update(|ps| {
            if ps.len() < 6 {
                let used: Vec<String> = ps
                    .iter()
                    .map(|p| p.contract.with_untracked(|c| c.id.clone()))
                    .collect();
                let next = form.library.with_untracked(|all| {
                    all.iter()
                        .find(|c| !used.contains(&c.id))
                        .or(all.first())
                        .cloned()
                });
                if let Some(c) = next {
                    ps.push(PersonaChoice::new(c));
                }
            }
        })
    };
    // A new persona starts from a copy of the first one, renamed, in the editor.
    let create = move |_| {
        let Some(mut c) = form.library.with_untracked(|all| all.first().cloned()) else {
            return;
        };
        c.id = "my-persona".into();
        c.name = "My Persona".into();
        let i = form.personas.with_untracked(|ps| ps.len());
        if i >= 6 {
            form.problem.set(Some(
                "A crux debate has at most 6 personas; remove one first.".into(),
            ));
            return;
        }
        form.personas
            .update(|ps| ps.push(PersonaChoice::new(c.clone())));
        form.open_editor(i, persona::to_json(&c));
    };
    let import = move |ev: leptos::ev::Event| {
        leptos::task::spawn_local(async move {
            let Some(text) = read_file(&ev).await else {
                form.problem
                    .set(Some("That file could not be read.".into()));
                return;
            };
            match persona::parse(&text) {
                Ok(c) => {
                    form.keep(c.clone());
                    form.problem.set(None);
                    form.personas.update(|ps| {
                        if ps.len() < 6 {
                            ps.push(PersonaChoice::new(c));
                        }
                    });
                }
                Err(e) => form
                    .problem
                    .set(Some(format!("This persona file cannot be used: {e}."))),
            }
        });
    };
    let number = |s: RwSignal<u32>, lo: u32, hi: u32| {
        move |ev: leptos::ev::Event| {
            if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                s.set(n.clamp(lo, hi))
            }
        }
    };
    let temp = |label: &'static str,
                id: &'static str,
                get: fn(&CruxTemperatures) -> f32,
                set: fn(&mut CruxTemperatures, f32)| {
        view! {
            <label class="field">
                <span class="label">{label}</span>
                <input id=id type="number" min="0" max="2" step="0.05"
                    prop:value=move || crate::engine::cost::decimal(form.temperatures.with(get) as f64, 2)
                    on:change=move |ev| { if let Some(x) = crate::engine::cost::parse_decimal(&event_target_value(&ev)) { form.temperatures.update(|t| set(t, (x as f32).clamp(0.0, 2.0))) } }/>
            </label>
        }
    };
    view! {
        <div class="crux-setup">
            <fieldset class="personas">
                <legend>"Personas (2 to 6)"</legend>
                {move || form.personas.get().into_iter().enumerate().map(|(i, p)| view! {
                    <PersonaRow i=i p=p form=form/>
                }).collect_view()}
                <div class="row">
                    <button type="button" class="secondary" id="add-persona" on:click=add
                        disabled=move || form.personas.with(|ps| ps.len() >= 6)>"Add a persona"</button>
                    <button type="button" class="link" id="new-persona" on:click=create>"Create a persona"</button>
                    <label class="link file-pick">"Import a persona file"
                        <input type="file" id="import-persona" accept=".json,application/json" on:change=import/>
                    </label>
                </div>
                {move || form.editing.get().map(|i| view! {
                    <div class="persona-editor">
                        <label class="field">
                            <span class="label">{format!("Persona {} as JSON: identity, thinking, flip conditions, voice, forbidden phrases, anchor quotes", i + 1)}</span>
                            <textarea id="persona-json" rows="18" spellcheck="false" prop:value=move || form.draft.get()
                                on:input=move |ev| form.draft.set(event_target_value(&ev))></textarea>
                        </label>
                        <div class="row">
                            <button type="button" class="primary" id="apply-persona" on:click=move |_| form.apply()>"Use this persona"</button>
                            <button type="button" class="link" on:click=move |_| form.editing.set(None)>"Cancel"</button>
                        </div>
                    </div>
                })}
                {move || form.problem.get().map(|e| view! { <p class="error" role="alert" id="persona-error">{e}</p> })}
            </fieldset>
            <div class="grid2">
                <ConnectionSelect id="crux-analyst-connection" label="Analysis (aspects, detection, checks, cards) runs on"
                    default="Same as above" value=form.analyst_connection/>
                <label class="field">
                    <span class="label">"Analyst model"</span>
                    <input id="crux-analyst-model" placeholder="model (default)"
                        disabled=move || form.analyst_connection.get().is_empty()
                        prop:value=move || form.analyst_model.get() on:input=move |ev| form.analyst_model.set(event_target_value(&ev))/>
                </label>
                <label class="field">
                    <span class="label">"Aspects of the topic"</span>
                    <input id="crux-aspects" type="number" min="1" max="5" prop:value=move || form.aspects.get().to_string()
                        on:input=number(form.aspects, 1, 5)/>
                </label>
                <label class="field">
                    <span class="label">"Longest crux-room exchange (turns)"</span>
                    <input id="crux-exchanges" type="number" min="2" max="14" prop:value=move || form.max_exchanges.get().to_string()
                        on:input=number(form.max_exchanges, 2, 14)/>
                </label>
            </div>
            <details class="temperatures">
                <summary>"Temperatures"</summary>
                <div class="grid2">
                    {temp("Generation (openings, takes, closings)", "temp-generation", |t| t.generation, |t, x| t.generation = x)}
                    {temp("Crux exchange", "temp-exchange", |t| t.exchange, |t, x| t.exchange = x)}
                    {temp("Analysis (detection, checks, summaries)", "temp-analysis", |t| t.analysis, |t, x| t.analysis = x)}
                    {temp("Extraction (aspects, cards)", "temp-extraction", |t| t.extraction, |t, x| t.extraction = x)}
                </div>
            </details>
        </div>
    }
}
