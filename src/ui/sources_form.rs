//! The setup screen's sources: files picked or dropped (text, Markdown, HTML, PDF) and
//! pasted text, listed with their size and a Remove button. A file that cannot be read is
//! refused with why, and the sources already added stay. Nothing leaves the browser.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use super::source_files;
use crate::engine::sources::{user_id, Origin, Source, MAX_SOURCES};

/// The sources numbered again after a removal, so their ids stay `S1`, `S2`… in order.
fn renumber(sources: &mut [Source]) {
    for (i, s) in sources.iter_mut().enumerate() {
        s.id = user_id(i + 1);
    }
}

fn add_files(
    files: web_sys::FileList,
    sources: RwSignal<Vec<Source>>,
    said: RwSignal<Vec<String>>,
    busy: RwSignal<u32>,
) {
    let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    said.set(Vec::new());
    for file in files {
        busy.update(|n| *n += 1);
        spawn_local(async move {
            let full = sources.with_untracked(|s| s.len() >= MAX_SOURCES);
            let read = if full {
                Err(format!(
                    "“{}” was not added: a debate may carry up to {MAX_SOURCES} sources.",
                    file.name()
                ))
            } else {
                let id = sources.with_untracked(|s| user_id(s.len() + 1));
                source_files::read(file, id).await
            };
            match read {
                Ok(source) => sources.update(|s| {
                    s.push(source);
                    renumber(s);
                }),
                Err(why) => said.update(|s| s.push(why)),
            }
            busy.update(|n| *n -= 1);
        });
    }
}

#[component]
pub fn SourcesForm(sources: RwSignal<Vec<Source>>, judges_read: RwSignal<bool>) -> impl IntoView {
    // Why the last files or text were refused, one line each.
    let said = RwSignal::new(Vec::<String>::new());
    let busy = RwSignal::new(0u32);
    let title = RwSignal::new(String::new());
    let pasted = RwSignal::new(String::new());
    let dragging = RwSignal::new(false);

    let picked = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        if let Some(files) = input.files() {
            add_files(files, sources, said, busy);
        }
        input.set_value(""); // the same file can be picked again
    };
    let dropped = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
            add_files(files, sources, said, busy);
        }
    };
    let add_pasted = move |_| {
        let text = pasted.get_untracked();
        if sources.with_untracked(|s| s.len() >= MAX_SOURCES) {
            said.set(vec![format!(
                "A debate may carry up to {MAX_SOURCES} sources."
            )]);
            return;
        }
        let id = sources.with_untracked(|s| user_id(s.len() + 1));
        let name = match title.get_untracked().trim() {
            "" => format!("Pasted text {}", sources.with_untracked(|s| s.len() + 1)),
            t => t.to_string(),
        };
        match Source::new(id, &name, Origin::Pasted, &text) {
            Ok(source) => {
                sources.update(|s| s.push(source));
                pasted.set(String::new());
                title.set(String::new());
                said.set(Vec::new());
            }
            Err(p) => said.set(vec![p.to_string()]),
        }
    };
    let list = move || {
        sources
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let from = match &s.origin {
                    Origin::File { name } => name.clone(),
                    Origin::Pasted => "pasted".into(),
                    Origin::Evidence => "evidence".into(),
                    Origin::Web { url } => url.clone(),
                };
                let size = format!("{} characters", s.text.chars().count());
                view! {
                    <li class="source-item">
                        <span class="source-id">{s.id.clone()}</span>" "
                        <span class="source-title">{s.title.clone()}</span>
                        <span class="hint">{format!(" · {from} · {size}")}</span>
                        <button type="button" class="link remove-source" aria-label=format!("Remove {}", s.title)
                            on:click=move |_| sources.update(|all| { all.remove(i); renumber(all); })>"Remove"</button>
                    </li>
                }
            })
            .collect_view()
    };
    let summary = move || match sources.with(Vec::len) {
        0 => "Sources (optional): documents the debaters may quote".to_string(),
        n => format!("Sources: {n} document(s) the debaters may quote"),
    };
    view! {
        <details class="sources-form">
            <summary>{summary}</summary>
            <p class="hint">"Each speech gets the passages most relevant to it, and every quote is checked word for word against these sources. They stay in this browser: only the passages go to the models you chose."</p>
            <div class="drop-zone" class:dragging=move || dragging.get()
                on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); dragging.set(true) }
                on:dragleave=move |_| dragging.set(false)
                on:drop=dropped>
                <label class="field">
                    <span class="label">"Add files (text, Markdown, HTML or PDF), or drop them here"</span>
                    <input id="source-files" type="file" multiple
                        accept=".txt,.md,.markdown,.html,.htm,.pdf,text/plain,text/markdown,text/html,application/pdf"
                        on:change=picked/>
                </label>
            </div>
            <label class="field">
                <span class="label">"Or paste text: its title"</span>
                <input id="source-title" placeholder="Report on the city's traffic" prop:value=move || title.get()
                    on:input=move |ev| title.set(event_target_value(&ev))/>
            </label>
            <label class="field">
                <span class="label">"The text"</span>
                <textarea id="source-text" rows="4" prop:value=move || pasted.get()
                    on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            </label>
            <button type="button" id="add-source" class="secondary" on:click=add_pasted>"Add pasted text"</button>
            {move || (busy.get() > 0).then(|| view! { <p class="hint" role="status">"Reading…"</p> })}
            {move || said.get().into_iter().map(|e| view! { <p class="error source-error" role="alert">{e}</p> }).collect_view()}
            <ul class="source-items">{list}</ul>
            <label class="check">
                <input type="checkbox" id="judges-read-sources" prop:checked=move || judges_read.get()
                    on:change=move |ev| judges_read.set(event_target_checked(&ev))/>
                " Judges read the sources too. Off, the judges, the Arbiter and the analyst see only the quotes and whether each was verified: the debaters read, the judge does not, the set-up in which debate was shown to help judges find the truth."
            </label>
        </details>
    }
}
