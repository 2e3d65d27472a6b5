//! Small form widgets the screens share.

use leptos::prelude::*;

/// A labelled one-line text field bound to a signal.
#[component]
pub fn TextField(
    id: &'static str,
    label: &'static str,
    placeholder: &'static str,
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="label">{label}</span>
            <input id=id placeholder=placeholder prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev))/>
        </label>
    }
}
