//! The form that adds or edits a connection to a model provider. Its rules live in
//! `session::connection_draft::ConnectionDraft` (native tests there); this binds fields to
//! it. The key is kept in this tab's memory only and sent only to the origin it was given
//! for: when an edit points the connection elsewhere, the session drops the saved key.

use leptos::prelude::*;

use super::state::AppState;
use crate::llm::dialect::Effort;
use crate::llm::openai::SchemaForm;
use crate::session::connection_draft::ConnectionDraft;
use crate::session::connections::PRESETS;
use crate::session::Connection;

#[component]
pub fn ConnectionForm(
    /// The connection to edit (its key stays unless a new one is typed); `None` adds one.
    #[prop(optional)]
    existing: Option<Connection>,
    on_saved: Callback<String>,
    /// Escape: the form closes without saving.
    on_close: Callback<()>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let draft = RwSignal::new(ConnectionDraft::new(existing));
    let error = RwSignal::new(None::<String>);
    let models = RwSignal::new(Vec::<String>::new());
    let listing = RwSignal::new(None::<Result<String, String>>);

    let list = move |_| list_models(state, draft, models, listing);

    let save = move |_| {
        let Some(s) = state.session() else { return };
        let new_id = draft.with_untracked(|d| s.new_connection_id(&d.label));
        let saved = draft
            .with_untracked(|d| d.to_save(&new_id))
            .map_err(|e| e.to_string())
            .and_then(|(c, key)| {
                let id = c.id.clone();
                s.save_connection(c, key)
                    .map(|()| id)
                    .map_err(|e| e.to_string())
            });
        match saved {
            Ok(id) => {
                crate::session::saved::save_connections(&s.connections());
                error.set(None);
                draft.update(|d| d.key.clear());
                state.connections_version.update(|v| *v += 1);
                on_saved.run(id);
            }
            Err(e) => error.set(Some(e)),
        }
    };

    let is_new = draft.with_untracked(ConnectionDraft::is_new);
    let scripted = move || draft.with(ConnectionDraft::scripted);
    view! {
        <div class="subcard connection-form" on:keydown=move |ev| {
            if ev.key() == "Escape" {
                ev.prevent_default();
                on_close.run(());
            }
        }>
            {is_new.then(|| view! {
                <label class="field"><span class="label">"Provider"</span>
                    <select id="conn-provider" on:change=move |ev| draft.update(|d| d.pick_preset(&event_target_value(&ev)))>
                        {PRESETS.iter().map(|p| view! { <option value=p.name>{p.name}</option> }).collect_view()}
                    </select>
                </label>
            })}
            <ServerFields draft=draft models=models/>
            <p class="hint" id="conn-web-search">{move || draft.with(ConnectionDraft::web_search_line)}</p>
            {move || scripted().then(|| view! {
                <label class="field"><span class="label">"Script (JSON)"</span>
                    <textarea id="conn-script" rows="10" spellcheck="false" prop:value=move || draft.with(|d| d.script.clone())
                        on:input=move |ev| draft.update(|d| d.script = event_target_value(&ev))></textarea>
                    <span class="hint">"Answers matched by seat, purpose and occurrence, with delays and faults (a status such as 429 or 401, a stream cut after some bytes, a silence). Calls no answer matches get generated text. The README's \"Scripted provider\" section has the format."</span></label>
            })}
            <div class:hidden=scripted>
                <KeyFields draft=draft>
                    <div class="row">
                        <button type="button" id="conn-list-models" class="link" on:click=list>"List the provider's models"</button>
                        {move || listing.get().map(|r| {
                            let (class, text) = match r { Ok(m) => ("hint", m), Err(m) => ("error", m) };
                            view! { <span class=class role="status">{text}</span> }
                        })}
                    </div>
                </KeyFields>
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <button type="button" id="conn-save" class="secondary" on:click=save>"Save connection"</button>
        </div>
    }
}

/// "List the provider's models": checked as Save checks it (but for the model name, which
/// the list is for), with the key Save would give it, so the key only goes where a saved
/// one could.
fn list_models(
    state: AppState,
    draft: RwSignal<ConnectionDraft>,
    models: RwSignal<Vec<String>>,
    listing: RwSignal<Option<Result<String, String>>>,
) {
    let Some(s) = state.session() else { return };
    let (c, key) = draft.with_untracked(|d| (d.connection("listing"), d.key_edit()));
    if let Err(e) = c.validate_listing() {
        listing.set(Some(Err(e.to_string())));
        return;
    }
    listing.set(Some(Ok("Asking for the model list…".into())));
    let fut = s.list_models(c, key);
    leptos::task::spawn_local(async move {
        listing.set(Some(match fut.await {
            Ok(m) if m.is_empty() => {
                Err("The provider listed no models; type the model's name.".into())
            }
            Ok(m) => {
                let n = m.len();
                models.set(m);
                let s = if n == 1 { "" } else { "s" };
                Ok(format!("{n} model{s} listed: pick one in the Model field."))
            }
            Err(e) => Err(e.to_string()),
        }));
    });
}

/// Where the connection goes and how it is called: name, address, model and its limits.
#[component]
fn ServerFields(draft: RwSignal<ConnectionDraft>, models: RwSignal<Vec<String>>) -> impl IntoView {
    let read = move |f: fn(&ConnectionDraft) -> String| move || draft.with(f);
    let scripted = move || draft.with(ConnectionDraft::scripted);
    let number = |ev: &leptos::ev::Event| event_target_value(ev).parse().ok();
    view! {
        <div class="grid2">
            <label class="field"><span class="label">"Name"</span>
                <input id="conn-name" prop:value=read(|d| d.label.clone()) on:input=move |ev| draft.update(|d| d.label = event_target_value(&ev))/></label>
            <label class="field" class:hidden=scripted><span class="label">"Base URL"</span>
                <input id="conn-url" prop:value=read(|d| d.base_url.clone()) on:input=move |ev| draft.update(|d| d.set_base_url(event_target_value(&ev)))/></label>
            <label class="field"><span class="label">"Model"</span>
                <input id="conn-model" list="conn-models" prop:value=read(|d| d.model.clone()) on:input=move |ev| draft.update(|d| d.set_model(event_target_value(&ev)))/>
                <datalist id="conn-models">
                    {move || models.get().into_iter().map(|m| view! { <option value=m></option> }).collect_view()}
                </datalist></label>
            <label class="field"><span class="label">"Context window (tokens)"</span>
                <input id="conn-context" type="number" min="1024" prop:value=read(|d| d.context_tokens.to_string())
                    on:input=move |ev| if let Some(n) = number(&ev) { draft.update(|d| d.context_tokens = n) }/></label>
            <label class="field"><span class="label">"Calls at once"</span>
                <input id="conn-concurrency" type="number" min="1" max="32" prop:value=read(|d| d.concurrency.to_string())
                    on:input=move |ev| if let Some(n) = number(&ev) { draft.update(|d| d.concurrency = n) }/></label>
            <label class="field" class:hidden=scripted><span class="label">"Reasoning effort"</span>
                <select id="conn-effort" prop:value=read(|d| d.effort.map_or("", |e| e.id()).to_string()) on:change=move |ev| {
                    let v = event_target_value(&ev);
                    draft.update(|d| d.set_effort(Effort::ALL.into_iter().find(|e| e.id() == v)));
                }>
                    <option value="">"Provider default"</option>
                    {Effort::ALL.into_iter().map(|e| view! { <option value=e.id()>{e.id()}</option> }).collect_view()}
                </select></label>
            <label class="field"><span class="label">"Silence limit (seconds)"</span>
                <input id="conn-silence" type="number" min="5" max="3600" prop:value=read(|d| d.silence_s().to_string())
                    on:input=move |ev| if let Some(n) = number(&ev) { draft.update(|d| d.set_silence_s(n)) }/>
                <span class="hint">"A stream that sends nothing for this long is treated as cut. Reasoning models get 300 by default: they can think for minutes before their first word."</span></label>
            <label class="field" class:hidden=move || !draft.with(|d| d.kind.takes_schema_forms())><span class="label">"Structured answers"</span>
                <select id="conn-schema-form" prop:value=read(|d| d.schema_form.map_or("auto", SchemaForm::id).to_string())
                    on:change=move |ev| draft.update(|d| d.schema_form = SchemaForm::from_id(&event_target_value(&ev)))>
                    <option value="auto">"Find out on first use"</option>
                    {SchemaForm::ALL.into_iter().map(|f| view! { <option value=f.id()>{f.label()}</option> }).collect_view()}
                </select>
                <span class="hint">"How scores, evaluations, forecasts and crux cards are asked for. Servers differ: on first use Agora tries OpenAI's form, then the next whenever the server refuses one, and keeps the one that works."</span></label>
        </div>
    }
}

/// The key, whether it is remembered, and the test header; `children` (the model list)
/// come after the key.
#[component]
fn KeyFields(draft: RwSignal<ConnectionDraft>, children: Children) -> impl IntoView {
    let moved = move || draft.with(ConnectionDraft::key_moved);
    view! {
        <label class="field"><span class="label">"API key"</span>
            <input id="conn-key" type="password" autocomplete="off"
                placeholder=move || draft.with(ConnectionDraft::key_placeholder)
                prop:value=move || draft.with(|d| d.key.clone()) on:input=move |ev| draft.update(|d| d.key = event_target_value(&ev))/></label>
        {move || moved().then(|| view! {
            <p class="warn" id="conn-key-dropped" role="status">"The base URL now points to another server, so the saved key will not be sent there: enter the key for this address (or put the old URL back)."</p>
        })}
        {children()}
        <label class="check">
            <input id="conn-remember" type="checkbox" prop:checked=move || draft.with(|d| d.remember)
                on:change=move |ev| draft.update(|d| d.remember = event_target_checked(&ev))/>
            " Remember the key on this device. It is then stored unencrypted in this browser's localStorage, where anyone using this browser profile (or a script on this site) can read it."
        </label>
        <label class="check">
            <input id="conn-call-header" type="checkbox" prop:checked=move || draft.with(|d| d.call_header)
                on:change=move |ev| draft.update(|d| d.call_header = event_target_checked(&ev))/>
            " Send each call's seat and purpose in an X-Agora-Call header (for scripted test servers; most providers reject unknown headers)"
        </label>
        <p class="hint">"Unless you tick Remember, the key stays in this tab's memory only, is sent only to the base URL above, and must be entered again after a reload."</p>
    }
}
