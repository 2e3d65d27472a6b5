//! The setup screen's sources: files picked or dropped (text, Markdown, HTML, PDF) and
//! pasted text, listed with their size and a Remove button. A file that cannot be read is
//! refused with why, and the sources already added stay. Nothing leaves the browser. The
//! list's rules are `session::sources_draft`'s.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use super::source_files;
use crate::engine::sources::Source;
use crate::session::sources_draft::{self as draft, Pasted};

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
            let room =
                sources.with_untracked(|s| draft::next_id(s, &format!("“{}” ", file.name())));
            let read = match room {
                Ok(id) => source_files::read(file, id).await,
                Err(why) => Err(why),
            };
            match read {
                Ok(source) => sources.update(|s| draft::add(s, source)),
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
    view! {
        <details class="sources-form">
            <summary>{move || draft::summary(sources.with(Vec::len))}</summary>
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
            <PasteForm sources said/>
            {move || (busy.get() > 0).then(|| view! { <p class="hint" role="status">"Reading…"</p> })}
            {move || said.get().into_iter().map(|e| view! { <p class="error source-error" role="alert">{e}</p> }).collect_view()}
            <ul class="source-items">{move || sources.get().into_iter().enumerate().map(|(i, s)| view! {
                <li class="source-item">
                    <span class="source-id">{s.id.clone()}</span>" "
                    <span class="source-title">{s.title.clone()}</span>
                    <span class="hint">{draft::describe(&s)}</span>
                    <button type="button" class="link remove-source" aria-label=format!("Remove {}", s.title)
                        on:click=move |_| sources.update(|all| draft::remove(all, i))>"Remove"</button>
                </li>
            }).collect_view()}</ul>
            <label class="check">
                <input type="checkbox" id="judges-read-sources" prop:checked=move || judges_read.get()
                    on:change=move |ev| judges_read.set(event_target_checked(&ev))/>
                " Judges read the sources too. Off, the judges, the Arbiter and the analyst see only the quotes and whether each was verified: the debaters read, the judge does not, the set-up in which debate was shown to help judges find the truth."
            </label>
        </details>
    }
}

/// Text pasted as a source, with its title.
#[component]
fn PasteForm(sources: RwSignal<Vec<Source>>, said: RwSignal<Vec<String>>) -> impl IntoView {
    let pasted = RwSignal::new(Pasted::default());
    let add = move |_| match sources.try_update(|all| pasted.with_untracked(|p| p.add_to(all))) {
        Some(Ok(())) => {
            pasted.set(Pasted::default());
            said.set(Vec::new());
        }
        Some(Err(why)) => said.set(vec![why]),
        None => {}
    };
    view! {
        <label class="field">
            <span class="label">"Or paste text: its title"</span>
            <input id="source-title" placeholder="Report on the city's traffic" prop:value=move || pasted.with(|p| p.title.clone())
                on:input=move |ev| pasted.update(|p| p.title = event_target_value(&ev))/>
        </label>
        <label class="field">
            <span class="label">"The text"</span>
            <textarea id="source-text" rows="4" prop:value=move || pasted.with(|p| p.text.clone())
                on:input=move |ev| pasted.update(|p| p.text = event_target_value(&ev))></textarea>
        </label>
        <button type="button" id="add-source" class="secondary" on:click=add>"Add pasted text"</button>
    }
}
