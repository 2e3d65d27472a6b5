//! The history screen: every stored debate, newest first, with open and delete.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::app::{href, navigate, refresh_history};
use super::inpage::cached_models;
use super::state::{AppState, Route};
use crate::engine::config::FormatId;
use crate::engine::event::Outcome;
use crate::engine::reading::count;
use crate::store::{DebateSummary, HistoryFilter};

fn when(ms: u64) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms as f64));
    String::from(d.to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED))
}

fn outcome_badge(o: Option<Outcome>) -> (&'static str, &'static str) {
    match o {
        Some(Outcome::Completed) => ("done", "Finished"),
        Some(Outcome::Stopped) => ("stopped", "Stopped"),
        Some(Outcome::Failed) => ("failed", "Failed"),
        None => ("stopped", "Unfinished"),
    }
}

#[component]
fn HistoryRow(item: DebateSummary) -> impl IntoView {
    let state = expect_context::<AppState>();
    let confirming = RwSignal::new(false);
    let route = Route::Debate(item.id.clone());
    let open_route = route.clone();
    let id = item.id.clone();
    let delete = move |_| {
        let Some(s) = state.session() else { return };
        let id = id.clone();
        // The focus goes to the row that takes this one's place (the one before, if this
        // was the last), or to the search field when none is left.
        let rows = super::focus::query(".history-row a.history-topic");
        let before = rows.len();
        let at = rows
            .iter()
            .position(|a| {
                a.get_attribute("href").as_deref()
                    == Some(href(&Route::Debate(id.clone())).as_str())
            })
            .unwrap_or(0);
        spawn_local(async move {
            match s.delete(&id).await {
                Ok(()) => {
                    if state.debate.id.get_untracked().as_deref() == Some(id.as_str()) {
                        state.debate.reset(None);
                    }
                    refresh_history(state);
                    super::focus::focus_when(move || {
                        let rows = super::focus::query(".history-row a.history-topic");
                        if rows.len() >= before {
                            return None; // not drawn again yet
                        }
                        match rows.get(at.min(rows.len().saturating_sub(1))) {
                            Some(next) => Some(next.clone()),
                            None => super::focus::query("#history-search").into_iter().next(),
                        }
                    });
                }
                Err(e) => state.notice.set(Some(format!("Could not delete: {e}"))),
            }
        });
    };
    let (badge, badge_text) = outcome_badge(item.outcome);
    let row_id = StoredValue::new(item.id.clone());
    let focus_in_row = |row: &StoredValue<String>, what: &str| {
        let selector = format!(".history-row[data-id=\"{}\"] {what}", row.get_value());
        super::focus::focus_when(move || super::focus::query(&selector).into_iter().next());
    };
    view! {
        <li class="history-row" data-id=item.id.clone()>
            <a class="history-topic" href=href(&route) on:click=move |ev| { ev.prevent_default(); navigate(state, open_route.clone()) }>
                {item.topic.clone()}
            </a>
            <div class="history-meta">
                <span class=format!("badge {badge}")>{badge_text}</span>
                <span>{item.format.map(|f| f.label())}</span>
                <span>{if item.turns == 1 { "1 turn".to_string() } else { format!("{} turns", item.turns) }}</span>
                <span>{when(item.created_ms)}</span>
                <span class="spacer"></span>
                // Each button replaces the other: the focus follows to the one shown.
                {move || if confirming.get() {
                    view! {
                        <button class="danger small confirm-delete" on:click=delete.clone()>"Delete for good"</button>
                        <button class="link" on:click=move |_| { confirming.set(false); focus_in_row(&row_id, ".ask-delete") }>"Cancel"</button>
                    }.into_any()
                } else {
                    view! { <button class="link danger-text ask-delete" on:click=move |_| { confirming.set(true); focus_in_row(&row_id, ".confirm-delete") }>"Delete"</button> }.into_any()
                }}
            </div>
        </li>
    }
}

/// Local midnight of a date input's `YYYY-MM-DD`, plus `days` (ms since the epoch).
fn day_start(value: &str, days: i32) -> Option<u64> {
    let mut parts = value.split('-').map(|p| p.parse::<i32>().ok());
    let (y, m, d) = (parts.next()??, parts.next()??, parts.next()??);
    let date = js_sys::Date::new_with_year_month_day(y as u32, m - 1, d + days);
    Some(date.get_time().max(0.0) as u64)
}

/// "1.2 GB", "85.3 MB": a size with one decimal.
fn megabytes(bytes: f64) -> String {
    use crate::engine::cost::decimal;
    if bytes >= 1e9 {
        format!("{} GB", decimal(bytes / 1e9, 1))
    } else {
        format!("{} MB", decimal(bytes / 1e6, 1))
    }
}

/// What this site stores and the browser's quota for it (`navigator.storage.estimate()`).
async fn storage_line() -> Option<String> {
    use js_sys::Reflect;
    use wasm_bindgen::{JsCast, JsValue};
    let storage = Reflect::get(&web_sys::window()?.navigator(), &"storage".into()).ok()?;
    let estimate: js_sys::Function = Reflect::get(&storage, &"estimate".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let promise: js_sys::Promise = estimate.call0(&storage).ok()?.dyn_into().ok()?;
    let e = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let num = |k: &str| {
        Reflect::get(&e, &JsValue::from_str(k))
            .ok()
            .and_then(|v| v.as_f64())
    };
    Some(format!(
        "Stored in this browser: {} of the {} it allows this site.",
        megabytes(num("usage")?),
        megabytes(num("quota")?)
    ))
}

#[component]
pub fn HistoryScreen() -> impl IntoView {
    let state = expect_context::<AppState>();
    let (text, format, status, from, until) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let filter = Memo::new(move |_| HistoryFilter {
        text: text.get(),
        format: FormatId::from_id(&format.get()),
        status: status.get(),
        from_ms: day_start(&from.get(), 0),
        until_ms: day_start(&until.get(), 1),
    });
    // Filtered once per change of the list or a filter; the count and the rows share it.
    let shown = Memo::new(move |_| {
        let f = filter.get();
        state
            .history
            .with(|h| h.iter().filter(|d| f.keeps(d)).cloned().collect::<Vec<_>>())
    });
    // Read again whenever the list changes (a debate added or deleted).
    let storage = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        state.history.track();
        spawn_local(async move { storage.set(storage_line().await) });
    });
    let select = |id: &'static str,
                  label: &'static str,
                  value: RwSignal<String>,
                  options: Vec<(&'static str, &'static str)>| {
        view! {
            <label class="field">
                <span class="label">{label}</span>
                <select id=id prop:value=move || value.get() on:change=move |ev| value.set(event_target_value(&ev))>
                    {options.into_iter().map(|(v, t)| view! { <option value=v>{t}</option> }).collect_view()}
                </select>
            </label>
        }
    };
    let date = |id: &'static str, label: &'static str, value: RwSignal<String>| {
        view! {
            <label class="field">
                <span class="label">{label}</span>
                <input id=id type="date" prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev))/>
            </label>
        }
    };
    let formats = std::iter::once(("", "Any format"))
        .chain(
            super::formats::FORMATS
                .iter()
                .map(|f| (f.id.id(), f.id.label())),
        )
        .collect();
    view! {
        <section class="history">
            <h1>"History"</h1>
            <p class="hint">"Debates are kept in this browser only (IndexedDB). API keys are never stored with them."</p>
            <p class="hint" id="storage">{move || storage.get()}</p>
            <super::import::ImportBar/>
            <div class="history-filters" role="search">
                <label class="field search">
                    <span class="label">"Search topics"</span>
                    <input id="history-search" type="search" placeholder="Words in the topic" prop:value=move || text.get()
                        on:input=move |ev| text.set(event_target_value(&ev))/>
                </label>
                {select("history-format", "Format", format, formats)}
                {select("history-status", "Status", status, vec![("", "Any status"), ("finished", "Finished"), ("unfinished", "Unfinished"), ("stopped", "Stopped"), ("failed", "Failed")])}
                {date("history-from", "Started from", from)}
                {date("history-until", "Started until", until)}
            </div>
            {move || if state.history.with(Vec::is_empty) {
                view! {
                    <div class="card empty">
                        <p>"No debates yet."</p>
                        <a href=href(&Route::Setup) on:click=move |ev| { ev.prevent_default(); navigate(state, Route::Setup) }>"Start one"</a>
                    </div>
                }.into_any()
            } else { view! {
                <p class="hint" id="history-count">{move || {
                    let (n, all) = (shown.with(Vec::len), state.history.with(Vec::len));
                    if n == all { count(all, "debate") } else { format!("{n} of {} match", count(all, "debate")) }
                }}</p>
                <ul class="history-list">
                    // Redrawn whole when the list or a filter changes: a keyed <For> would be
                    // a second copy of its diffing code in the bundle for a short list.
                    {move || shown.get().into_iter().map(|item| view! { <HistoryRow item=item/> }).collect_view()}
                </ul>
            }.into_any() }}
            // The examples, unfolded while there is nothing of one's own to read yet.
            <super::gallery::Gallery open=Signal::derive(move || state.history.with(Vec::is_empty))/>
            {cached_models()}
        </section>
    }
}
