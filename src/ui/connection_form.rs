//! The form that adds a connection to any OpenAI-compatible API. The key is kept in this
//! tab's memory only and sent only to the base URL given here.

use leptos::prelude::*;

use super::app::session;
use super::state::AppState;
use crate::session::connections::{ProviderKind, PRESETS};
use crate::session::Connection;

#[component]
pub fn ConnectionForm(
    /// The connection to edit (its key stays unless a new one is typed); `None` adds one.
    #[prop(optional)]
    existing: Option<Connection>,
    on_saved: Callback<String>,
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
    let pick_preset = move |name: String| {
        if let Some(p) = PRESETS.iter().find(|p| p.name == name) {
            kind.set(p.kind);
            label.set(p.name.to_string());
            base_url.set(p.base_url.to_string());
            model.set(p.model.to_string());
            context.set(p.context_tokens);
            needs_key.set(p.needs_key);
        }
    };
    let error = RwSignal::new(None::<String>);

    let save = move |_| {
        let Some(s) = session() else { return };
        let id = match &existing {
            Some(e) => e.id.clone(),
            None => {
                let slug: String = label
                    .get_untracked()
                    .to_lowercase()
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
        if !typed.trim().is_empty() || existing.is_none() {
            c.api_key = typed.trim().to_string();
        }
        c.context_tokens = context.get_untracked();
        c.kind = kind.get_untracked();
        c.remember_key = remember.get_untracked();
        if c.kind != ProviderKind::OpenAiCompatible && c.api_key.is_empty() {
            error.set(Some(format!("{} needs an API key.", c.label)));
            return;
        }
        c.send_call_header = call_header.get_untracked();
        if c.label.is_empty() {
            c.label = "My connection".into();
        }
        match s.save_connection(c) {
            Ok(()) => {
                crate::store::settings::save_connections(&s.connections());
                error.set(None);
                key.set(String::new());
                state.connections_version.update(|v| *v += 1);
                on_saved.run(id);
            }
            Err(e) => error.set(Some(e)),
        }
    };

    view! {
        <div class="subcard connection-form">
            <Show when=move || existing_is_none>
                <label class="field"><span class="label">"Provider"</span>
                    <select id="conn-provider" on:change=move |ev| pick_preset(event_target_value(&ev))>
                        {PRESETS.iter().map(|p| view! { <option value=p.name>{p.name}</option> }).collect_view()}
                    </select>
                </label>
            </Show>
            <div class="grid2">
                <label class="field"><span class="label">"Name"</span>
                    <input id="conn-name" prop:value=move || label.get() on:input=move |ev| label.set(event_target_value(&ev))/></label>
                <label class="field"><span class="label">"Base URL"</span>
                    <input id="conn-url" prop:value=move || base_url.get() on:input=move |ev| base_url.set(event_target_value(&ev))/></label>
                <label class="field"><span class="label">"Model"</span>
                    <input id="conn-model" prop:value=move || model.get() on:input=move |ev| model.set(event_target_value(&ev))/></label>
                <label class="field"><span class="label">"Context window (tokens)"</span>
                    <input id="conn-context" type="number" min="1024" prop:value=move || context.get().to_string()
                        on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse() { context.set(n) } }/></label>
            </div>
            <label class="field"><span class="label">"API key"</span>
                <input id="conn-key" type="password" autocomplete="off"
                    placeholder=move || if had_key { "Unchanged: type a new key to replace it" } else if needs_key.get() { "Your API key for this provider" } else { "Not needed for local servers" }
                    prop:value=move || key.get() on:input=move |ev| key.set(event_target_value(&ev))/></label>
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
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <button type="button" id="conn-save" class="secondary" on:click=save>"Save connection"</button>
        </div>
    }
}
