//! The form that adds a connection to any OpenAI-compatible API. The key is kept in this
//! tab's memory only and sent only to the base URL given here: when an edit points the
//! connection at another origin, its stored key is dropped and must be typed again.

use leptos::prelude::*;

use super::state::AppState;
use crate::engine::script::Script;
use crate::llm::dialect::Effort;
use crate::llm::openai::SchemaForm;
use crate::session::connections::{
    default_stall_ms, key_origin, ProviderKind, DEMO_SCRIPT, PRESETS,
};
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
    let base = existing.clone().unwrap_or_else(|| {
        Connection::openai_compatible("", "OpenAI", "https://api.openai.com/v1", "gpt-4o-mini", "")
    });
    let had_key = !base.api_key.is_empty();
    let existing_is_none = existing.is_none();
    let label = RwSignal::new(base.label.clone());
    let base_url = RwSignal::new(base.base_url.clone());
    let model = RwSignal::new(base.default_model.clone());
    let key = RwSignal::new(String::new());
    let context = RwSignal::new(base.context_tokens);
    let call_header = RwSignal::new(base.send_call_header);
    let kind = RwSignal::new(base.kind);
    let remember = RwSignal::new(base.remember_key);
    let needs_key = RwSignal::new(true);
    let concurrency = RwSignal::new(base.concurrency);
    let effort = RwSignal::new(base.effort);
    let silence_s = RwSignal::new((base.stall_ms / 1000) as u32);
    // How structured answers are asked for: a form's id, or "auto" (found on first use).
    // Pointing the connection at another server or model finds it again.
    let form_choice = RwSignal::new(if base.schema_form_known {
        base.schema_form.id().to_string()
    } else {
        "auto".to_string()
    });
    // The silence limit follows the model and effort until the user sets one (a saved
    // connection whose limit differs from its default has had one set).
    let silence_set =
        RwSignal::new(base.stall_ms != default_stall_ms(&base.default_model, base.effort));
    let follow_default = move || {
        if !silence_set.get_untracked() {
            silence_s.set(
                (default_stall_ms(&model.get_untracked(), effort.get_untracked()) / 1000) as u32,
            );
        }
    };
    // A scripted connection's script, as JSON text (the stand-in's format).
    let script = RwSignal::new(
        base.script
            .as_ref()
            .and_then(|s| serde_json::to_string_pretty(s).ok())
            .unwrap_or_else(|| DEMO_SCRIPT.to_string()),
    );
    let scripted = move || kind.get() == ProviderKind::Scripted;
    let models = RwSignal::new(Vec::<String>::new());
    let listing = RwSignal::new(None::<Result<String, String>>);
    let pick_preset = move |name: String| {
        if let Some(p) = PRESETS.iter().find(|p| p.name == name) {
            kind.set(p.kind);
            label.set(p.name.to_string());
            base_url.set(p.base_url.to_string());
            model.set(p.model.to_string());
            context.set(p.context_tokens);
            needs_key.set(p.needs_key);
            follow_default();
        }
    };
    let error = RwSignal::new(None::<String>);

    // A key was given for one origin; a base URL now pointing elsewhere does not inherit it.
    let key_origin_was = StoredValue::new(key_origin(&base.base_url).ok());
    let moved =
        move || had_key && key_origin(base_url.get().trim()).ok() != key_origin_was.get_value();

    // The connection as the form describes it now (its key too, when one is typed).
    let existing = StoredValue::new(existing);
    let draft = move || {
        let existing = existing.get_value();
        let id = match &existing {
            Some(e) => e.id.clone(),
            None => {
                let slug: String = label
                    .get_untracked()
                    .to_ascii_lowercase()
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                    .collect();
                format!(
                    "c-{}-{:x}",
                    slug.trim_matches('-'),
                    (js_sys::Math::random() * 1e9) as u64
                )
            }
        };
        let mut c = existing
            .clone()
            .unwrap_or_else(|| Connection::openai_compatible(&id, "", "", "", ""));
        c.label = label.get_untracked().trim().to_string();
        c.base_url = base_url
            .get_untracked()
            .trim()
            .trim_end_matches('/')
            .to_string();
        c.default_model = model.get_untracked().trim().to_string();
        let typed = key.get_untracked();
        if !typed.trim().is_empty() || existing.is_none() || moved() {
            c.api_key = typed.trim().to_string();
        }
        c.context_tokens = context.get_untracked();
        c.kind = kind.get_untracked();
        c.remember_key = remember.get_untracked();
        c.send_call_header = call_header.get_untracked();
        c.concurrency = concurrency.get_untracked();
        c.effort = effort.get_untracked();
        c.stall_ms = u64::from(silence_s.get_untracked()) * 1000;
        match SchemaForm::from_id(&form_choice.get_untracked()) {
            Some(f) => (c.schema_form, c.schema_form_known) = (f, true),
            // Found again from the start, unless a search is under way.
            None if c.schema_form_known => {
                (c.schema_form, c.schema_form_known) = (SchemaForm::default(), false)
            }
            None => {}
        }
        c.script = (c.kind == ProviderKind::Scripted)
            .then(|| Script::from_json(&script.get_untracked()).ok())
            .flatten();
        if c.label.is_empty() {
            c.label = "My connection".into();
        }
        c
    };

    let list = move |_| {
        let Some(s) = state.session() else { return };
        // Checked as Save checks it (but for the model name, which the list is for), so
        // the key only goes where a saved one could.
        let c = draft();
        if let Err(e) = c.validate_listing() {
            listing.set(Some(Err(e.to_string())));
            return;
        }
        listing.set(Some(Ok("Asking for the model list…".into())));
        let fut = s.list_models(c);
        leptos::task::spawn_local(async move {
            listing.set(Some(match fut.await {
                Ok(m) if m.is_empty() => {
                    Err("The provider listed no models; type the model's name.".into())
                }
                Ok(m) => {
                    let n = m.len();
                    models.set(m);
                    Ok(format!(
                        "{n} model{} listed: pick one in the Model field.",
                        if n == 1 { "" } else { "s" }
                    ))
                }
                Err(e) => Err(e.to_string()),
            }));
        });
    };

    let save = move |_| {
        let Some(s) = state.session() else { return };
        if kind.get_untracked() == ProviderKind::Scripted {
            if let Err(e) = Script::from_json(&script.get_untracked()) {
                error.set(Some(format!("The script is not valid: {e}.")));
                return;
            }
        }
        let c = draft();
        let id = c.id.clone();
        match s.save_connection(c) {
            Ok(()) => {
                crate::session::saved::save_connections(&s.connections());
                error.set(None);
                key.set(String::new());
                state.connections_version.update(|v| *v += 1);
                on_saved.run(id);
            }
            Err(e) => error.set(Some(e.to_string())),
        }
    };

    view! {
        <div class="subcard connection-form" on:keydown=move |ev| {
            if ev.key() == "Escape" {
                ev.prevent_default();
                on_close.run(());
            }
        }>
            {existing_is_none.then(|| view! {
                <label class="field"><span class="label">"Provider"</span>
                    <select id="conn-provider" on:change=move |ev| pick_preset(event_target_value(&ev))>
                        {PRESETS.iter().map(|p| view! { <option value=p.name>{p.name}</option> }).collect_view()}
                    </select>
                </label>
            })}
            <div class="grid2">
                <label class="field"><span class="label">"Name"</span>
                    <input id="conn-name" prop:value=move || label.get() on:input=move |ev| label.set(event_target_value(&ev))/></label>
                <label class="field" class:hidden=scripted><span class="label">"Base URL"</span>
                    <input id="conn-url" prop:value=move || base_url.get() on:input=move |ev| { base_url.set(event_target_value(&ev)); form_choice.set("auto".into()) }/></label>
                <label class="field"><span class="label">"Model"</span>
                    <input id="conn-model" list="conn-models" prop:value=move || model.get() on:input=move |ev| { model.set(event_target_value(&ev)); follow_default(); form_choice.set("auto".into()) }/>
                    <datalist id="conn-models">
                        {move || models.get().into_iter().map(|m| view! { <option value=m></option> }).collect_view()}
                    </datalist></label>
                <label class="field"><span class="label">"Context window (tokens)"</span>
                    <input id="conn-context" type="number" min="1024" prop:value=move || context.get().to_string()
                        on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse() { context.set(n) } }/></label>
                <label class="field"><span class="label">"Calls at once"</span>
                    <input id="conn-concurrency" type="number" min="1" max="32" prop:value=move || concurrency.get().to_string()
                        on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse() { concurrency.set(n) } }/></label>
                <label class="field" class:hidden=scripted><span class="label">"Reasoning effort"</span>
                    <select id="conn-effort" prop:value=move || effort.get().map_or("", |e| e.id()) on:change=move |ev| {
                        let v = event_target_value(&ev);
                        effort.set(Effort::ALL.into_iter().find(|e| e.id() == v));
                        follow_default();
                    }>
                        <option value="">"Provider default"</option>
                        {Effort::ALL.into_iter().map(|e| view! { <option value=e.id()>{e.id()}</option> }).collect_view()}
                    </select></label>
                <label class="field"><span class="label">"Silence limit (seconds)"</span>
                    <input id="conn-silence" type="number" min="5" max="3600" prop:value=move || silence_s.get().to_string()
                        on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse() { silence_s.set(n); silence_set.set(true) } }/>
                    <span class="hint">"A stream that sends nothing for this long is treated as cut. Reasoning models get 300 by default: they can think for minutes before their first word."</span></label>
                <label class="field" class:hidden=move || !kind.get().takes_schema_forms()><span class="label">"Structured answers"</span>
                    <select id="conn-schema-form" prop:value=move || form_choice.get() on:change=move |ev| form_choice.set(event_target_value(&ev))>
                        <option value="auto">"Find out on first use"</option>
                        {SchemaForm::ALL.into_iter().map(|f| view! { <option value=f.id()>{f.label()}</option> }).collect_view()}
                    </select>
                    <span class="hint">"How scores, evaluations, forecasts and crux cards are asked for. Servers differ: on first use Agora tries OpenAI's form, then the next whenever the server refuses one, and keeps the one that works."</span></label>
            </div>
            {move || {
                // What a seat on this connection can do about web search, as the form says now.
                let mut c = Connection::openai_compatible("", "", base_url.get().trim(), "", "");
                c.kind = kind.get();
                let m = model.get();
                let text = match c.web_search(m.trim()) {
                    Ok(tool) => format!("Web search: {} can search the web on your key ({}); switch it on per seat on the setup screen.", m.trim(), tool.describe()),
                    Err(why) => format!("Web search: cannot search. {why}"),
                };
                view! { <p class="hint" id="conn-web-search">{text}</p> }
            }}
            {move || scripted().then(|| view! {
                <label class="field"><span class="label">"Script (JSON)"</span>
                    <textarea id="conn-script" rows="10" spellcheck="false" prop:value=move || script.get()
                        on:input=move |ev| script.set(event_target_value(&ev))></textarea>
                    <span class="hint">"Answers matched by seat, purpose and occurrence, with delays and faults (a status such as 429 or 401, a stream cut after some bytes, a silence). Calls no answer matches get generated text. The README's \"Scripted provider\" section has the format."</span></label>
            })}
            <div class:hidden=scripted>
            <label class="field"><span class="label">"API key"</span>
                <input id="conn-key" type="password" autocomplete="off"
                    placeholder=move || if moved() { "Enter the key again for the new address" } else if had_key { "Unchanged: type a new key to replace it" } else if needs_key.get() { "Your API key for this provider" } else { "Not needed for local servers" }
                    prop:value=move || key.get() on:input=move |ev| key.set(event_target_value(&ev))/></label>
            {move || moved().then(|| view! {
                <p class="warn" id="conn-key-dropped" role="status">"The base URL now points to another server, so the saved key will not be sent there: enter the key for this address (or put the old URL back)."</p>
            })}
            <div class="row">
                <button type="button" id="conn-list-models" class="link" on:click=list>"List the provider's models"</button>
                {move || listing.get().map(|r| {
                    let (class, text) = match r { Ok(m) => ("hint", m), Err(m) => ("error", m) };
                    view! { <span class=class role="status">{text}</span> }
                })}
            </div>
            <label class="check">
                <input id="conn-remember" type="checkbox" prop:checked=move || remember.get()
                    on:change=move |ev| remember.set(event_target_checked(&ev))/>
                " Remember the key on this device. It is then stored unencrypted in this browser's localStorage, where anyone using this browser profile (or a script on this site) can read it."
            </label>
            <label class="check">
                <input id="conn-call-header" type="checkbox" prop:checked=move || call_header.get()
                    on:change=move |ev| call_header.set(event_target_checked(&ev))/>
                " Send each call's seat and purpose in an X-Agora-Call header (for scripted test servers; most providers reject unknown headers)"
            </label>
            <p class="hint">"Unless you tick Remember, the key stays in this tab's memory only, is sent only to the base URL above, and must be entered again after a reload."</p>
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <button type="button" id="conn-save" class="secondary" on:click=save>"Save connection"</button>
        </div>
    }
}
