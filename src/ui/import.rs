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
use crate::engine::event::Event;
use crate::engine::export;

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

/// Every stored debate's log.
async fn all_logs(state: AppState) -> Result<Vec<Vec<Event>>, String> {
    let s = state.session().ok_or("not ready")?;
    let mut out = Vec::new();
    for d in s.list().await.map_err(|e| e.to_string())? {
        if let Some(stored) = s.load(&d.id).await.map_err(|e| e.to_string())? {
            out.push(stored.events);
        }
    }
    Ok(out)
}

#[component]
pub fn ImportBar() -> impl IntoView {
    let state = expect_context::<AppState>();
    // What the last action said: (is it an error, the message).
    let said = RwSignal::new(None::<(bool, String)>);
    // An import waiting for its connections to be mapped: the log and (file's id, mine).
    let pending = RwSignal::new(None::<Vec<Event>>);
    let mapping = RwSignal::new(Vec::<(String, String)>::new());
    let labels = RwSignal::new(Vec::<String>::new());
    let store = move |log: Vec<Event>| {
        let Some(s) = state.session() else { return };
        spawn_local(async move {
            let topic = crate::engine::event::config_of(&log)
                .map(|c| c.topic.clone())
                .unwrap_or_default();
            match s.adopt(log).await {
                Ok(_) => {
                    said.set(Some((false, format!("Imported “{topic}”."))));
                    refresh_history(state);
                }
                Err(e) => said.set(Some((true, format!("Nothing was imported: {e}")))),
            }
        });
    };
    let import = move |ev: leptos::ev::Event| {
        spawn_local(async move {
            let log = match read_file(&ev, export::MAX_IMPORT_BYTES)
                .await
                .and_then(|t| export::import(&t))
            {
                Ok(log) => log,
                Err(e) => {
                    return said.set(Some((true, format!("This file was not imported: {e}"))))
                }
            };
            let mine = connections(state);
            let fallback = mine.first().map(|c| c.id.clone()).unwrap_or_default();
            // (the file's id, its label for people) of each connection this browser lacks.
            let unknown: Vec<(String, String)> = export::connection_labels(&log)
                .into_iter()
                .filter(|(id, _)| !mine.iter().any(|c| &c.id == id))
                .collect();
            labels.set(unknown.iter().map(|(_, l)| l.clone()).collect());
            let unknown: Vec<(String, String)> = unknown
                .into_iter()
                .map(|(id, _)| (id, fallback.clone()))
                .collect();
            if unknown.is_empty() {
                store(log);
            } else {
                said.set(None);
                mapping.set(unknown);
                pending.set(Some(log));
            }
        });
    };
    let confirm = move |_| {
        if let Some(mut log) = pending.get_untracked() {
            export::remap_connections(&mut log, &mapping.get_untracked());
            pending.set(None);
            store(log);
        }
    };
    let backup = move |_| {
        spawn_local(async move {
            let saved = match all_logs(state).await {
                Ok(logs) => super::download::save(
                    &format!("agora-backup-{}.json", super::fields::today()),
                    "application/json",
                    &export::backup(&logs),
                )
                .map(|_| format!("{} debates backed up.", logs.len())),
                Err(e) => Err(e),
            };
            said.set(Some(match saved {
                Ok(m) => (false, m),
                Err(e) => (true, format!("The backup failed: {e}")),
            }));
        });
    };
    let restore = move |ev: leptos::ev::Event| {
        spawn_local(async move {
            let restored = match read_file(&ev, export::MAX_BACKUP_BYTES)
                .await
                .and_then(|t| export::restore(&t))
            {
                Ok(r) => r,
                Err(e) => {
                    return said.set(Some((true, format!("This backup was not restored: {e}"))))
                }
            };
            let Some(s) = state.session() else { return };
            let mut here = match s.starts().await {
                Ok(h) => h,
                Err(e) => {
                    return said.set(Some((
                        true,
                        format!(
                        "This backup was not restored: the stored debates could not be read ({e})."
                    ),
                    )))
                }
            };
            let (mut added, mut skipped) = (0, 0);
            let mut problems = restored.refused;
            for log in restored.debates {
                if here
                    .iter()
                    .any(|h| export::same_debate(std::slice::from_ref(h), &log))
                {
                    skipped += 1;
                } else {
                    let start = log.first().cloned();
                    match s.adopt(log).await {
                        Ok(_) => {
                            added += 1;
                            // The same debate twice in one backup is stored once.
                            here.extend(start);
                        }
                        Err(e) => problems.push(e.to_string()),
                    }
                }
            }
            let mut m = format!("Restored {added} debates; {skipped} were already here.");
            if !problems.is_empty() {
                m.push_str(&format!(" Refused: {}", problems.join("; ")));
            }
            said.set(Some((!problems.is_empty(), m)));
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
        {move || pending.get().is_some().then(|| view! {
            <div class="card import-map">
                <p>"This debate used connections this browser does not have. Run it on:"</p>
                {labels.get_untracked().into_iter().enumerate().map(|(i, from)| view! {
                    <label class="field">
                        <span class="label">{format!("“{from}” in the file")}</span>
                        <select on:change=move |ev| mapping.update(|m| m[i].1 = event_target_value(&ev))>
                            <ConnectionOptions/>
                        </select>
                    </label>
                }).collect_view()}
                <button id="import-confirm" class="primary" on:click=confirm>"Import"</button>
                <button class="link" on:click=move |_| pending.set(None)>"Cancel"</button>
            </div>
        })}
        {move || said.get().map(|(error, m)| view! {
            <p id="import-said" class=if error { "error" } else { "ok" } role=if error { "alert" } else { "status" }>{m}</p>
        })}
    }
}
