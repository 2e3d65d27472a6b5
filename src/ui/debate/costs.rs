//! The line under the progress: what each seat has cost, how the structured answers were
//! read, the spending cap while the debate runs, the exports and the share link.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::engine::cost::{self, dollars};
use crate::engine::export::ExportKind;
use crate::engine::reading;
use crate::ui::download;
use crate::ui::state::DebateView;

/// "Cost $0.0123 of a $1.00 cap: Optimist $0.0040 · Judge $0.0083".
fn costs(d: DebateView) -> Option<String> {
    let l = d.spent.get();
    let names = d.config.with(|c| {
        c.as_ref().map(|c| {
            l.seats
                .iter()
                .map(|(id, usd)| {
                    let name = c.seat(id).map_or(id.as_str(), |s| s.name.as_str());
                    format!("{name} {}", l.shown(id, *usd))
                })
                .collect::<Vec<_>>()
                .join(" · ")
        })
    })?;
    let est = if l.estimated { " (estimated)" } else { "" };
    let cap = d
        .cap
        .get()
        .map(|c| format!(" of a {} cap", dollars(c)))
        .unwrap_or_default();
    Some(format!("Cost {}{est}{cap}: {names}", dollars(l.total)))
}

/// The cost line. `error` is the screen's line for a refused action; `share_link` opens
/// the share panel with the link, or why there is none (too large for a link).
#[component]
pub(super) fn CostsLine(
    error: RwSignal<Option<String>>,
    share_link: RwSignal<Option<Result<crate::ui::share::Shared, String>>>,
) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let cap_draft = RwSignal::new(String::new());
    let set_cap = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let set = cost::typed_cap(&cap_draft.get_untracked())
            .map_err(str::to_string)
            .and_then(|usd| d.set_cap(usd).map_err(|e| e.to_string()));
        match set {
            Ok(()) => {
                error.set(None);
                cap_draft.set(String::new());
            }
            Err(e) => error.set(Some(e)),
        }
    };
    // Every export is made from the stored log: Markdown, JSON (re-imports to the same
    // debate), plain text, seed 003's folder as a .zip, and Argdown (an argument map).
    // The folder's transcript.md is seed 003's option: off unless asked for.
    let with_transcript = RwSignal::new(false);
    let export = move |kind: ExportKind| {
        let transcript = with_transcript.get_untracked();
        let log = d.log();
        spawn_local(async move {
            let saved = match log.await {
                Ok(events) => {
                    let file = kind.render_with(&events, transcript);
                    download::save_bytes(&file.name, file.mime, &file.bytes)
                }
                Err(e) => Err(e),
            };
            if let Err(e) = saved {
                error.set(Some(e));
            }
        });
    };
    let share = move |_| {
        let log = d.log();
        spawn_local(async move {
            let made = match log.await {
                Ok(events) => {
                    let base = d.share_base.get_value();
                    crate::ui::share::link(&events, base.as_deref(), None).await
                }
                Err(e) => Err(e),
            };
            share_link.set(Some(made));
            crate::ui::focus::focus_selector("#share-url, #share-error");
        });
    };
    view! {
        <div class="costs-line">
            <span id="costs">{move || costs(d)}</span>
            {move || {
                let t = d.reads.get();
                (t.total() > 0).then(|| view! {
                    <span id="structured-reads" data-parsed=t.parsed data-repaired=t.repaired data-unread=t.unread
                        title="Scores, evaluations, forecasts and cards: read from the first answer, after one repair request, or not at all">
                        {reading::reads(&t)}
                    </span>
                })
            }}
            {move || d.running.get().then(|| view! {
                <form class="cap" on:submit=set_cap>
                    <input id="cap-input" type="number" min="0" step="any" aria-label="Spending cap in dollars" placeholder="Cap $"
                        prop:value=move || cap_draft.get() on:input=move |ev| cap_draft.set(event_target_value(&ev))/>
                    <button type="submit" class="secondary">"Set cap"</button>
                </form>
            })}
            <span class="spacer"></span>
            <span class="exports">"Export: "
                {ExportKind::ALL.map(|kind| view! {
                    <button id=format!("export-{}", kind.id()) class="link" on:click=move |_| export(kind)>{kind.label()}</button>
                    {(kind == ExportKind::Folder).then(|| view! {
                        <label class="check inline" title="Seed 003's optional transcript.md: the whole debate in one file beside the messages">
                            <input type="checkbox" id="export-transcript" prop:checked=move || with_transcript.get()
                                on:change=move |ev| with_transcript.set(event_target_checked(&ev))/>
                            " with transcript.md"
                        </label>
                    })}
                })}
                {move || (!d.running.get() && d.config.with(Option::is_some)).then(|| view! {
                    " · "<button type="button" id="share" class="link" on:click=share>"Share link"</button>
                })}
            </span>
        </div>
    }
}
