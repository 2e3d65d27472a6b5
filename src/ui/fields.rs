//! Small form widgets the screens share.

use leptos::prelude::*;

/// Today in the user's time zone as `YYYY-MM-DD`: a date field's value, a file name's date.
pub fn today() -> String {
    let d = js_sys::Date::new_0();
    format!(
        "{:04}-{:02}-{:02}",
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date()
    )
}

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
