//! The audience's box under a running debate: a question for the debaters, or evidence
//! the next turns must take into account.

use leptos::prelude::*;

use crate::ui::state::DebateView;

/// `error` is the screen's line for a refused action (a question too long…).
#[component]
pub(super) fn AskForm(error: RwSignal<Option<String>>) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let question = RwSignal::new(String::new());
    let as_evidence = RwSignal::new(false);
    let ask = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match question.with_untracked(|q| d.ask(q, as_evidence.get_untracked())) {
            Ok(()) => question.set(String::new()),
            Err(e) => error.set(Some(e.to_string())),
        }
    };
    view! {
        <form class="ask" on:submit=ask>
            <input id="ask-input" aria-label="A question or evidence for the debaters"
                placeholder="Ask a question or add evidence (the next turns take it into account)" prop:value=move || question.get()
                on:input=move |ev| question.set(event_target_value(&ev))/>
            <button type="submit" id="ask" class="secondary" on:click=move |_| as_evidence.set(false)>"Ask"</button>
            <button type="submit" id="add-evidence" class="secondary" on:click=move |_| as_evidence.set(true)>"Add evidence"</button>
        </form>
    }
}
