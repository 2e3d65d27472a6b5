//! The gallery: example debates written for Agora, one per format, that open at once and
//! replay as they streamed (`?example=NAME`). Offered first to a visitor with no model that
//! works here, and a click away from the setup screen and History otherwise.

use leptos::prelude::*;

use super::app::{href, navigate};
use super::examples::EXAMPLES;
use super::route::Route;
use super::state::AppState;
use crate::engine::event::Event;
use crate::engine::export::import;

/// The example's stored debate, read from `examples/NAME.json` beside the page.
pub async fn fetch(name: &str) -> Result<Vec<Event>, String> {
    let failed =
        |why: String| format!("The example \u{201c}{name}\u{201d} could not be opened: {why}");
    if !EXAMPLES.iter().any(|e| e.name == name) {
        return Err(failed("there is no such example.".into()));
    }
    let response = gloo_net::http::Request::get(&format!("examples/{name}.json"))
        .send()
        .await
        .map_err(|e| failed(e.to_string()))?;
    if !response.ok() {
        return Err(failed(format!(
            "the page's server answered {}.",
            response.status()
        )));
    }
    let text = response.text().await.map_err(|e| failed(e.to_string()))?;
    import(&text).map_err(failed)
}

/// The examples as a list of links, folded under "Watch an example debate"; `open` while it
/// is what a visitor is offered first (nothing answers here without a key).
#[component]
pub fn Gallery(#[prop(into)] open: Signal<bool>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let items = EXAMPLES
        .iter()
        .map(|e| {
            let route = Route::Example(e.name.to_string());
            let open = {
                let route = route.clone();
                move |ev: leptos::ev::MouseEvent| {
                    // A new tab or window opens the address as any link does.
                    if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0 {
                        return;
                    }
                    ev.prevent_default();
                    navigate(state, route.clone());
                }
            };
            view! {
                <li>
                    <a class="example-link" id=format!("example-{}", e.name) href=href(&route) on:click=open>
                        <span class="example-format">{e.format.label()}</span>
                        <span class="example-topic">{e.topic}</span>
                    </a>
                    <span class="hint">{e.shows}</span>
                </li>
            }
        })
        .collect_view();
    view! {
        <details class="card gallery" id="gallery" prop:open=move || open.get()>
            <summary><h2>"Watch an example debate"</h2></summary>
            <p class="hint">"Finished debates written for Agora, one per format, to show what each produces. Each replays as it streamed; every screen, export and share link works on it as on your own debates, and nothing of it is stored unless you keep a copy."</p>
            <ul class="gallery-list">{items}</ul>
        </details>
    }
}
