//! A turn's web search on screen: the pages its provider cited, as links a person may
//! follow (Agora never loads them), each with its source id and the words the provider
//! returned of it; or, when the turn went without its search, why.

use leptos::prelude::*;

use crate::engine::sources::Origin;
use crate::ui::state::{DebateView, SourceAt, TurnView};

#[component]
pub fn WebLinks(view: TurnView) -> impl IntoView {
    let d = expect_context::<DebateView>();
    move || {
        let web = view.web.get().filter(|w| !w.is_empty())?;
        let n = web.citations.len();
        let items = web
            .citations
            .into_iter()
            .map(|c| {
                // The source the page became (`W1`…), which opens in the viewer.
                let id = d.sources.with(|all| {
                    all.iter()
                        .find(|s| matches!(&s.origin, Origin::Web { url } if *url == c.url))
                        .map(|s| s.id.clone())
                });
                let open = id.clone().map(|id| {
                    let at = SourceAt {
                        source: id.clone(),
                        mark: None,
                    };
                    view! {
                        <button type="button" class="link source-id" title="Open this source"
                            on:click=move |_| d.source_open.set(Some(at.clone()))>{id}</button>
                    }
                });
                // The host beside a title (an untitled page is already named by it).
                let host = (!c.title.is_empty()).then(|| format!(" · {}", c.host()));
                let said = (!c.cited_text.is_empty())
                    .then(|| view! { <q class="web-said">{c.cited_text.clone()}</q> });
                // Checked as an http(s) address when it was read (`Citation::new`).
                view! {
                    <li>
                        {open}" "
                        <a href=c.url.clone() target="_blank" rel="noopener noreferrer nofollow" referrerpolicy="no-referrer">{c.label().to_string()}</a>
                        <span class="hint">{host}</span>
                        {said}
                    </li>
                }
            })
            .collect_view();
        let cited = (n > 0).then(|| {
            view! {
                <details class="web-cited">
                    <summary>{format!("Searched the web · {} cited", crate::engine::reading::count(n, "page"))}</summary>
                    <ul>{items}</ul>
                </details>
            }
        });
        let failed = (!web.failed.is_empty())
            .then(|| view! { <p class="hint web-failed" role="note">{web.failed.clone()}</p> });
        Some(view! { <div class="web-search">{cited}{failed}</div> })
    }
}
