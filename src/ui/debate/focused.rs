//! A link that opened on one finding (a crux card, a forecast) shows it alone, with the
//! way to the whole debate when the link holds it.

use leptos::prelude::*;

use super::head::DebateHead;
use crate::engine::event::EventKind;
use crate::engine::finding::Finding;
use crate::ui::chunks::Fetched;
use crate::ui::formats::FormatViews;
use crate::ui::state::{AppState, DebateView};

/// The finding the link opened on, when its format can show it alone (known once the
/// format's drawing, `views`, is here).
pub(super) fn focused_finding(
    d: DebateView,
    views: Signal<Fetched<&'static FormatViews>>,
) -> Memo<Option<Finding>> {
    Memo::new(move |_| {
        let key = d.focus.get()?;
        let Some(Ok(views)) = views.get() else {
            return None;
        };
        d.findings.with(|all| {
            all.iter()
                .find(|f| f.key == key)
                .filter(|f| (views.alone)(f).is_some())
                .cloned()
        })
    })
}

#[component]
pub(super) fn FocusedFinding(
    focused: Memo<Option<Finding>>,
    views: Signal<Fetched<&'static FormatViews>>,
) -> impl IntoView {
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
        let Some(Ok(views)) = views.get() else {
            return None;
        };
        let label = f.body.label().to_lowercase();
        Some(view! {
            <section class="debate focused">
                {in_app.then(|| view! {
                    <div class="shared-banner" role="note">
                        <p><strong>"Shared with you."</strong>{format!(" One {label} from a debate, read-only; nothing of it is stored in this browser.")}</p>
                    </div>
                })}
                <DebateHead whole=false/>
                {(views.alone)(&f)}
                {move || if whole_in_link() {
                    view! { <button type="button" id="see-whole" class="secondary" on:click=move |_| d.focus.set(None)>"See the whole debate"</button> }.into_any()
                } else {
                    view! { <p class="hint" id="alone-note">"The link holds this finding and the debate's setup only, not its turns."</p> }.into_any()
                }}
            </section>
        })
    }
}
