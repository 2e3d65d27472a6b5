//! The app shell: header navigation, routing by the page's query string (`?debate=ID`
//! works on any static host, no rewrites), and the session's bootstrap.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::chunks::{self, Lazy};
use super::setup::SetupScreen;
use super::state::{AppState, DebateView, Route};
use crate::session::browser;
use crate::session::{Connection, Session, Update};
use crate::store::idb::IdbStore;
use crate::store::memory::MemoryStore;
use crate::store::opening::OpeningStore;
use crate::store::Store;

/// The session a view runs debates on: the app's (once IndexedDB is open), or a widget's
/// own. Components reach providers only through it, and find it in the state they were
/// given (`AppState::session`), so the same debate view serves the app, a widget and a
/// share link.
#[derive(Clone, Copy)]
pub struct SessionHandle(StoredValue<Option<Rc<Session>>, LocalStorage>);

impl SessionHandle {
    pub fn new() -> Self {
        SessionHandle(StoredValue::new_local(None))
    }

    pub fn get(&self) -> Option<Rc<Session>> {
        self.0.get_value()
    }

    pub fn set(&self, s: Rc<Session>) {
        self.0.set_value(Some(s));
    }
}

fn route_from_location() -> Route {
    let location = window().location();
    Route::parse(
        &location.search().unwrap_or_default(),
        &location.hash().unwrap_or_default(),
    )
}

/// The URL of a route, relative to the page so a sub-path deployment keeps working.
pub fn href(route: &Route) -> String {
    let location = window().location();
    let path = location.pathname().unwrap_or_default();
    match route.query() {
        Some(query) => path + &query,
        // Only ever opened from the address it came with.
        None => location.href().unwrap_or(path),
    }
}

/// Moves to a route, recording it in the browser history.
pub fn navigate(state: AppState, route: Route) {
    if state.route.get_untracked() != route {
        if let Ok(h) = window().history() {
            let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&href(&route)));
        }
    }
    open_route(state, route);
}

fn open_route(state: AppState, route: Route) {
    match &route {
        Route::Debate(id) => {
            if state.debate.id.get_untracked().as_deref() != Some(id.as_str()) {
                load_debate(state, id.clone());
            }
        }
        Route::History => refresh_history(state),
        Route::Shared => load_shared(state),
        Route::Example(name) => load_example(state, name.clone()),
        Route::Setup | Route::Ledger | Route::Tournaments | Route::Tournament(_) => {}
    }
    state.route.set(route);
    window().scroll_to_with_x_and_y(0.0, 0.0);
}

pub fn refresh_history(state: AppState) {
    let Some(s) = state.session() else { return };
    spawn_local(async move {
        match s.list().await {
            Ok(list) => state.history.set(list),
            Err(e) => state
                .notice
                .set(Some(format!("Could not read the history: {e}"))),
        }
    });
}

/// Opens the debate in the address's share fragment; nothing is stored.
fn load_shared(state: AppState) {
    let view = state.debate;
    view.reset(None);
    view.shared.set(None);
    view.loading.set(true);
    let hash = window().location().hash().unwrap_or_default();
    let fragment = hash.trim_start_matches('#').to_string();
    spawn_local(async move {
        let opened = super::share::open(&fragment).await;
        if state.route.get_untracked() != Route::Shared {
            return; // the user moved on meanwhile
        }
        match opened {
            Ok(events) => {
                view.show_shared(events);
                view.focus.set(super::share::focus_of(&fragment));
            }
            Err(e) => view.load_error.set(Some(e)),
        }
        view.loading.set(false);
    });
}

/// Opens an example debate of the gallery (`examples/NAME.json` beside the page), shown as
/// a shared debate is (read-only, stored nowhere unless kept) and replayed from its start.
fn load_example(state: AppState, name: String) {
    let view = state.debate;
    view.reset(None);
    view.shared.set(None);
    view.loading.set(true);
    let route = Route::Example(name.clone());
    spawn_local(async move {
        let opened = super::gallery::fetch(&name).await;
        if state.route.get_untracked() != route {
            return; // the user moved on meanwhile
        }
        match opened {
            Ok(events) => {
                view.show_shared(events);
                view.example.set(Some(name));
            }
            Err(e) => view.load_error.set(Some(e)),
        }
        view.loading.set(false);
    });
}

fn load_debate(state: AppState, id: String) {
    let view = state.debate;
    view.reset(Some(id.clone()));
    view.shared.set(None);
    let Some(s) = state.session() else { return };
    view.loading.set(true);
    spawn_local(async move {
        let result = s.load(&id).await;
        if view.id.get_untracked().as_deref() != Some(id.as_str()) {
            return; // the user moved on meanwhile
        }
        match result {
            Ok(Some(d)) => {
                view.show_stored(&d);
                view.running.set(s.is_running(&id));
            }
            Ok(None) => view.load_error.set(Some("This debate is not stored in this browser. It may have been deleted, or it was run in another browser.".into())),
            Err(e) => view.load_error.set(Some(format!("This debate could not be read: {e}"))),
        }
        view.loading.set(false);
    });
}

fn connect_listener(s: &Session, state: AppState) {
    let view = state.debate;
    s.set_listener(move |id, update| {
        if view.id.get_untracked().as_deref() != Some(id) {
            if matches!(update, Update::Ended) && state.route.get_untracked() == Route::History {
                refresh_history(state);
            }
            return;
        }
        match update {
            Update::Notice(m) => state.notice.set(Some(m.clone())),
            other => view.follow(other),
        }
    });
}

/// The app's session, built at once on a store still opening: the setup screen is usable
/// before IndexedDB answers, and the first read or write waits for it.
fn start_session(state: AppState) -> Rc<Session> {
    let store = OpeningStore::new(async move {
        match IdbStore::open("agora").await {
            Ok(s) => Rc::new(s) as Rc<dyn Store>,
            Err(e) => {
                state.notice.set(Some(format!(
                    "{e}. Debates will not be kept after this tab closes."
                )));
                Rc::new(MemoryStore::new())
            }
        }
    });
    let opening = store.clone();
    spawn_local(async move {
        opening.opened().await;
    });
    let store: Rc<dyn Store> = Rc::new(store);
    let mut connections = vec![
        Connection::local_model(),
        Connection::in_browser(),
        Connection::demo(),
    ];
    connections.extend(crate::session::saved::load_connections());
    let s = Session::new(browser::env(store), connections);
    connect_listener(&s, state);
    // A connection whose server refused a schema form (or answered one) keeps what was
    // found, so the next visit does not ask again.
    let weak = Rc::downgrade(&s);
    s.on_connections_learned(move || {
        if let Some(s) = weak.upgrade() {
            crate::session::saved::save_connections(&s.connections());
            state
                .connections_version
                .set(state.connections_version.get_untracked() + 1);
        }
    });
    // Which no-key connection to start a visitor on: found beside the first screen,
    // never before it (the setup picks it up when it comes).
    let probe = s.clone();
    spawn_local(async move {
        let found = browser::no_key_choices(probe).await;
        state.no_key.set(Some(found));
    });
    s
}

/// Going back and forward opens the route of the address; going offline pauses every
/// running debate, and coming back online lets them go on by themselves.
fn listen_to_window(state: AppState) {
    let _ = window_event_listener(leptos::ev::popstate, move |_| {
        open_route(state, route_from_location())
    });
    let _ = window_event_listener(leptos::ev::offline, move |_| {
        if let Some(s) = state.session() {
            s.set_offline(true);
        }
    });
    let _ = window_event_listener(leptos::ev::online, move |_| {
        if let Some(s) = state.session() {
            s.set_offline(false);
        }
    });
}

/// The brand and the screens' links, the open one marked.
#[component]
fn TopBar() -> impl IntoView {
    let state = expect_context::<AppState>();
    let nav = move |route: Route| {
        move |ev: leptos::ev::MouseEvent| {
            ev.prevent_default();
            navigate(state, route.clone());
        }
    };

    let wide = move || matches!(state.route.get(), Route::Tournaments | Route::Tournament(_));
    view! {
        <header class="topbar" class:wide=wide>
            <a class="brand" href=move || href(&Route::Setup) on:click=nav(Route::Setup)>
                <span class="brand-mark" aria-hidden="true">"◆"</span>
                <span class="brand-name">" Agora"</span>
            </a>
            <nav>
                <a href=move || href(&Route::Setup) on:click=nav(Route::Setup)
                    class:active=move || state.route.get() == Route::Setup>"New debate"</a>
                <a href=move || href(&Route::History) on:click=nav(Route::History)
                    class:active=move || state.route.get() == Route::History>"History"</a>
                <a href=move || href(&Route::Ledger) on:click=nav(Route::Ledger)
                    class:active=move || state.route.get() == Route::Ledger>"Ledger"</a>
                <a href=move || href(&Route::Tournaments) on:click=nav(Route::Tournaments)
                    class:active=move || matches!(state.route.get(), Route::Tournaments | Route::Tournament(_))>"Tournaments"</a>
            </nav>
        </header>
    }
}

#[component]
pub fn App() -> impl IntoView {
    let session = SessionHandle::new();
    let state = AppState {
        route: RwSignal::new(route_from_location()),
        debate: DebateView::new(session),
        history: RwSignal::new(Vec::new()),
        connections_version: RwSignal::new(0),
        ready: RwSignal::new(false),
        notice: RwSignal::new(None),
        tournaments: super::tournaments::TournamentRuns::new(),
        no_key: RwSignal::new(None),
    };
    provide_context(state);
    // The debate view reads its own state, whoever mounts it.
    provide_context(state.debate);

    session.set(start_session(state));
    state.ready.set(true);
    open_route(state, state.route.get_untracked());
    // Once the first screen is drawn, the other screens' chunks, every format's drawing
    // and the formats' runs come, all at once, so Start or a link finds them here.
    set_timeout(
        || {
            chunks::prefetch(&chunks::ALL);
            super::formats::prefetch_views();
            spawn_local(crate::session::chunk::prefetch());
        },
        std::time::Duration::ZERO,
    );
    listen_to_window(state);

    // The tab's title says which screen, and which debate, is open.
    Effect::new(move |_| {
        let topic = state
            .debate
            .config
            .with(|c| c.as_ref().map(|c| c.topic.clone()));
        let title = state.route.get().title(topic.as_deref());
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            doc.set_title(&title);
        }
    });

    let wide = move || matches!(state.route.get(), Route::Tournaments | Route::Tournament(_));
    view! {
        <TopBar/>
        {move || state.notice.get().map(|n| view! {
            <div class="notice" role="status">
                <span>{n}</span>
                <button class="link" on:click=move |_| state.notice.set(None)>"Dismiss"</button>
            </div>
        })}
        <main class="page" class:wide=wide>
            {move || match state.route.get() {
                Route::Setup => view! { <SetupScreen/> }.into_any(),
                // Every other screen is a chunk of its own (`chunks`), fetched after this one.
                Route::Debate(_) | Route::Shared | Route::Example(_) => view! { <Lazy chunk=&chunks::DEBATE/> }.into_any(),
                Route::History => view! { <Lazy chunk=&chunks::HISTORY/> }.into_any(),
                Route::Ledger => view! { <Lazy chunk=&chunks::LEDGER/> }.into_any(),
                Route::Tournaments => view! { <Lazy chunk=&chunks::TOURNAMENTS/> }.into_any(),
                Route::Tournament(_) => view! { <Lazy chunk=&chunks::TOURNAMENT/> }.into_any(),
            }}
        </main>
        <footer class="foot">
            "Agora runs entirely in your browser. Your API keys go only to the providers you choose."
        </footer>
    }
}
