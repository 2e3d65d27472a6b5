//! The "In this browser" connection's controls: where its model comes from (the copy served
//! beside the app, a file, an address), the download's progress with Cancel and what runs,
//! on the setup screen; the models kept in this browser on the History screen. Both are
//! built by `www/inpage/agora-inpage.js` inside an element placed here, so that none of it
//! weighs on the first load; this side only takes the loaded model's name and context
//! window into the connection.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::AppState;
use crate::session::{inpage, Connection};

fn mount(id: &'static str) {
    let state = expect_context::<AppState>();
    spawn_local(async move {
        if let Err(e) = inpage::mount(id).await {
            state.notice.set(Some(e));
        }
    });
}

/// The in-page model's panel; `on_model` hears the name of a model once it is loaded.
pub fn in_page_panel(on_model: Callback<String>) -> impl IntoView {
    let state = expect_context::<AppState>();
    mount("inpage-panel");
    // A loaded model's name and context window become the connection's.
    let loaded = move |ev: leptos::ev::Event| {
        let (ctx, name) = inpage::loaded(&ev.current_target().map(Into::into).unwrap_or_default());
        let (true, Some(s)) = (ctx > 0, state.session()) else {
            return;
        };
        if let Some(mut c) = s
            .connections()
            .into_iter()
            .find(|c| c.id == Connection::IN_BROWSER)
        {
            c.context_tokens = ctx;
            c.default_model = name.clone();
            if s.save_connection(c, crate::session::KeyEdit::Keep).is_ok() {
                on_model.run(name);
                state.connections_version.update(|v| *v += 1);
            }
        }
    };
    view! {
        <div id="inpage-panel" on:change=loaded></div>
    }
}

pub fn cached_models() -> impl IntoView {
    if crate::session::saved::in_page_used() {
        mount("cached-models");
    }
    view! { <div id="cached-models"></div> }
}
