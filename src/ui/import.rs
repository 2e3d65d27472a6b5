//! Import, backup and restore on the history screen. Every file is treated as hostile: its
//! size is checked before it is read, `engine::export::import` / `restore` check the rest,
//! and a refused file changes nothing stored. Connections named in a file that this device
//! does not have are mapped to the user's own before anything is stored.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use super::app::refresh_history;
use super::seating::{connections, ConnectionOptions};
use super::state::AppState;
use crate::engine::export;
use crate::session::backups::ImportDraft;

/// The text of the file an `<input type=file>` change picked, refused above `max_bytes`
/// before it is read (a debate's export and a backup of every debate have their own limits).
pub(super) async fn read_file(ev: &leptos::ev::Event, max_bytes: usize) -> Result<String, String> {
    let input: web_sys::HtmlInputElement = ev
        .target()
        .and_then(|t| t.dyn_into().ok())
        .ok_or("No file was chosen.")?;
    let file = input
        .files()
        .and_then(|f| f.get(0))
        .ok_or("No file was chosen.")?;
    input.set_value(""); // the same file can be picked again
    if file.size() > max_bytes as f64 {
        return Err(format!(
            "{} is {} MB; this kind of Agora file is at most {} MB.",
            file.name(),
            crate::engine::cost::decimal(file.size() / 1_048_576.0, 1),
            max_bytes / 1_048_576
        ));
    }
    let text = wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .map_err(|_| format!("{} could not be read.", file.name()))?;
    text.as_string()
        .ok_or_else(|| format!("{} is not a text file.", file.name()))
}

/// The history screen's import, backup and restore (`session::backups` holds their rules).
#[component]
pub fn ImportBar() -> impl IntoView {
    let state = expect_context::<AppState>();
    // What the last action said: (is it an error, the message).
    let said = RwSignal::new(None::<(bool, String)>);
    // An import waiting for its connections to be mapped.
    let pending = RwSignal::new(None::<ImportDraft>);
    let store = move |draft: ImportDraft| {
        let Some(s) = state.session() else { return };
        spawn_local(async move {
            let topic = draft.topic();
            said.set(Some(match s.adopt(draft.into_log()).await {
                Ok(_) => (false, format!("Imported “{topic}”.")),
                Err(e) => (true, format!("Nothing was imported: {e}")),
            }));
            refresh_history(state);
        });
    };
    let import = move |ev: leptos::ev::Event| {
        spawn_local(async move {
            let read = read_file(&ev, export::MAX_IMPORT_BYTES).await;
            match read.and_then(|t| ImportDraft::read(&t, &connections(state))) {
                Ok(draft) if draft.needs_mapping() => {
                    said.set(None);
                    pending.set(Some(draft));
                }
                Ok(draft) => store(draft),
                Err(e) => said.set(Some((true, format!("This file was not imported: {e}")))),
            }
        });
    };
    let backup = move |_| {
        let Some(s) = state.session() else { return };
        spawn_local(async move {
            let saved = match s.backup().await {
                Ok((n, file)) => super::download::save(
                    &format!("agora-backup-{}.json", super::fields::today()),
                    "application/json",
                    &file,
                )
                .map(|_| format!("{n} debates backed up.")),
                Err(e) => Err(e.to_string()),
            };
            said.set(Some(match saved {
                Ok(m) => (false, m),
                Err(e) => (true, format!("The backup failed: {e}")),
            }));
        });
    };
    let restore = move |ev: leptos::ev::Event| {
        let Some(s) = state.session() else { return };
        spawn_local(async move {
            let read = read_file(&ev, export::MAX_BACKUP_BYTES).await;
            let restored = match read {
                Ok(text) => s.restore(&text).await,
                Err(e) => Err(e),
            };
            said.set(Some(match restored {
                Ok(report) => report.message(),
                Err(e) => (true, format!("This backup was not restored: {e}")),
            }));
            refresh_history(state);
        });
    };
    let pick = |id: &'static str, label: &'static str, on: Box<dyn Fn(leptos::ev::Event)>| {
        view! {
            <label class="file-pick link">{label}
                <input id=id type="file" accept=".json,application/json" on:change=on/>
            </label>
        }
    };
    view! {
        <div class="import-bar">
            {pick("import-file", "Import a debate (JSON export)", Box::new(import))}
            <button id="backup" class="link" on:click=backup>"Back up every debate"</button>
            {pick("restore-file", "Restore a backup", Box::new(restore))}
        </div>
        {move || pending.get().is_some().then(|| view! { <ImportMap pending store=Callback::new(store)/> })}
        {move || said.get().map(|(error, m)| view! {
            <p id="import-said" class=if error { "error" } else { "ok" } role=if error { "alert" } else { "status" }>{m}</p>
        })}
    }
}

/// Which of the user's connections runs each one the imported file names.
#[component]
fn ImportMap(
    pending: RwSignal<Option<ImportDraft>>,
    store: Callback<ImportDraft>,
) -> impl IntoView {
    let labels: Vec<String> = pending.with_untracked(|p| {
        p.iter()
            .flat_map(|d| d.unknown.iter().map(|u| u.1.clone()))
            .collect()
    });
    let confirm = move |_| {
        if let Some(draft) = pending.get_untracked() {
            pending.set(None);
            store.run(draft);
        }
    };
    view! {
        <div class="card import-map">
            <p>"This debate used connections this browser does not have. Run it on:"</p>
            {labels.into_iter().enumerate().map(|(i, from)| view! {
                <label class="field">
                    <span class="label">{format!("“{from}” in the file")}</span>
                    <select on:change=move |ev| pending.update(|p| if let Some(d) = p { d.map(i, event_target_value(&ev)) })>
                        <ConnectionOptions/>
                    </select>
                </label>
            }).collect_view()}
            <button id="import-confirm" class="primary" on:click=confirm>"Import"</button>
            <button class="link" on:click=move |_| pending.set(None)>"Cancel"</button>
        </div>
    }
}
