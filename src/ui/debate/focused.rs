//! A link that opened on one finding (a crux card, a forecast) shows it alone, with the
//! way to the whole debate when the link holds it.

use leptos::prelude::*;

use super::head::DebateHead;
use crate::engine::event::EventKind;
use crate::engine::finding::Finding;
use crate::ui::formats::views_for;
use crate::ui::state::{AppState, DebateView};

/// The finding the link opened on, when its format can show it alone.
pub(super) fn focused_finding(d: DebateView) -> Memo<Option<Finding>> {
    Memo::new(move |_| {
        let key = d.focus.get()?;
        let format = d.config.with(|c| c.as_ref().map(|c| c.format()))?;
        d.findings.with(|all| {
            all.iter()
                .find(|f| f.key == key)
                .filter(|f| (views_for(format).alone)(f).is_some())
                .cloned()
        })
    })
}

#[component]
pub(super) fn FocusedFinding(focused: Memo<Option<Finding>>) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let in_app = use_context::<AppState>().is_some();
    let whole_in_link = move || {
        d.shared.with(|s| {
            s.as_ref().is_some_and(|log| {
                log.iter()
                    .any(|e| matches!(e.kind, EventKind::TurnFinished { .. }))
            })
        })
    };
    move || {
        let f = focused.get()?;
        let format = d.config.with(|c| c.as_ref().map(|c| c.format()))?;
        let label = f.body.label().to_lowercase();
        Some(view! {
            <section class="debate focused">
                {in_app.then(|| view! {
                    <div class="shared-banner" role="note">
                        <p><strong>"Shared with you."</strong>{format!(" One {label} from a debate, read-only; nothing of it is stored in this browser.")}</p>
                    </div>
                })}
                <DebateHead whole=false/>
                {(views_for(format).alone)(&f)}
                {move || if whole_in_link() {
                    view! { <button type="button" id="see-whole" class="secondary" on:click=move |_| d.focus.set(None)>"See the whole debate"</button> }.into_any()
                } else {
                    view! { <p class="hint" id="alone-note">"The link holds this finding and the debate's setup only, not its turns."</p> }.into_any()
                }}
            </section>
        })
    }
}
