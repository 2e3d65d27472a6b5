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

/// A part of a form's model that one field shows and edits, read and written through the
/// model's one signal (`Bound::part`), or a signal of its own (`From<RwSignal<T>>`): the
/// form's rules stay methods of its plain-Rust model, and a widget needs only this.
pub struct Bound<T: Send + Sync + 'static> {
    read: Signal<T>,
    write: Callback<T>,
}

impl<T: Send + Sync> Clone for Bound<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Send + Sync> Copy for Bound<T> {}

impl<T: Clone + Send + Sync + 'static> Bound<T> {
    /// The part of `model` that `read` reads and `write` writes.
    pub fn part<M: Send + Sync + 'static>(
        model: RwSignal<M>,
        read: impl Fn(&M) -> T + Send + Sync + 'static,
        write: impl Fn(&mut M, T) + Send + Sync + 'static,
    ) -> Self {
        Bound {
            read: Signal::derive(move || model.with(&read)),
            write: Callback::new(move |v| model.update(|m| write(m, v))),
        }
    }

    pub fn get(&self) -> T {
        self.read.get()
    }

    pub fn get_untracked(&self) -> T {
        self.read.get_untracked()
    }

    pub fn set(&self, v: T) {
        self.write.run(v);
    }

    /// Changes it in place, as `f` says.
    pub fn update(&self, f: impl FnOnce(&mut T)) {
        let mut v = self.get_untracked();
        f(&mut v);
        self.set(v);
    }
}

impl<T: Clone + Send + Sync + 'static> From<RwSignal<T>> for Bound<T> {
    fn from(s: RwSignal<T>) -> Self {
        Bound {
            read: s.into(),
            write: Callback::new(move |v| s.set(v)),
        }
    }
}

/// The `field` of the `i`-th row of a list in a form's model, as a `Bound`:
/// `row_field!(model, roles, name, i)`. A row that is gone reads as the default and takes
/// no writes.
macro_rules! row_field {
    ($model:expr, $list:ident, $field:ident, $i:expr) => {{
        let i: usize = $i;
        $crate::ui::fields::Bound::part(
            $model,
            move |m| m.$list.get(i).map(|r| r.$field.clone()).unwrap_or_default(),
            move |m, v| {
                if let Some(r) = m.$list.get_mut(i) {
                    r.$field = v;
                }
            },
        )
    }};
}
pub(crate) use row_field;

/// A labelled one-line text field bound to a signal.
#[component]
pub fn TextField(
    id: &'static str,
    label: &'static str,
    placeholder: &'static str,
    #[prop(into)] value: Bound<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="label">{label}</span>
            <input id=id placeholder=placeholder prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev))/>
        </label>
    }
}
