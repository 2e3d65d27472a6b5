//! The widget's view: a recorded debate shown read-only, or a live one's Start card
//! (`api::widget_run::WidgetRun` holds its rules) and then the debate screen.

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::dispatch::Dispatch;
use super::WidgetOptions;
use crate::api::widget_run::WidgetRun;
use crate::engine::{export, DebateConfig};
use crate::session::{browser, Connection, Session, Update as SessionUpdate};
use crate::store::idb::IdbStore;
use crate::store::memory::MemoryStore;
use crate::store::Store;
use crate::ui::chunks::{self, Lazy};
use crate::ui::formats::views_chunk;
use crate::ui::state::DebateView;

/// Says what went wrong both in the widget and to the host page.
#[derive(Clone, Copy)]
struct Fail {
    problem: RwSignal<Option<String>>,
    dispatch: StoredValue<Dispatch, LocalStorage>,
}

impl Fail {
    fn say(self, message: String) {
        self.dispatch.with_value(|d| d.error(&message));
        self.problem.set(Some(message));
    }
}

#[component]
pub fn WidgetView(
    options: WidgetOptions,
    dispatch: Dispatch,
    alive: Rc<Cell<bool>>,
) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let problem = RwSignal::new(None::<String>);
    let fail = Fail {
        problem,
        dispatch: StoredValue::new_local(dispatch.clone()),
    };
    let started = RwSignal::new(false);
    prefetch(d, dispatch);
    let live = show(d, &options, fail, started);
    let (keep, alive) = (options.keep, StoredValue::new_local(alive));
    let start = Callback::new(
        move |(config, connections): (DebateConfig, Vec<Connection>)| {
            problem.set(None);
            started.set(true);
            spawn_local(run(d, fail, keep, alive, config, connections));
        },
    );
    if options.autostart {
        // Only a widget whose host gives the keys starts by itself.
        if let Some(launched) = live
            .as_ref()
            .filter(|l| !l.asks_keys())
            .map(|l| l.launch(&[], &[]))
        {
            match launched {
                Ok(l) => start.run(l),
                Err(e) => fail.say(e),
            }
        }
    }
    view! {
        <div class="agora-widget">
            {move || problem.get().map(|p| view! { <p class="error" role="alert">{p}</p> })}
            {move || (!started.get()).then(|| live.clone().map(|run| view! { <WidgetStart run problem start/> }))}
            {move || started.get().then(|| view! { <Lazy chunk=&chunks::DEBATE/> })}
        </div>
    }
}

/// The debate screen's chunk, fetched at once beside the debate it will show, and its
/// format's drawing as soon as the debate is known. If either cannot be fetched, the
/// widget shows why (`Lazy`, the debate screen) and the host page hears it too, once.
fn prefetch(d: DebateView, dispatch: Dispatch) {
    let told = Rc::new(Cell::new(false));
    let missing = move || {
        if !told.replace(true) {
            dispatch.error(&chunks::MISSING.join(" "));
        }
    };
    {
        let missing = missing.clone();
        spawn_local(async move {
            if chunks::DEBATE.fetch().await.is_err() {
                missing();
            }
        });
    }
    let format = Memo::new(move |_| d.config.with(|c| c.as_ref().map(|c| c.format())));
    Effect::new(move |_| {
        if let Some(format) = format.get() {
            let missing = missing.clone();
            spawn_local(async move {
                if views_chunk(format).fetch().await.is_err() {
                    missing();
                }
            });
        }
    });
}

/// Shows what the host page gave: a recorded debate or a share link's at once (marking the
/// widget started), or a live debate's request, returned for its Start card.
fn show(
    d: DebateView,
    options: &WidgetOptions,
    fail: Fail,
    started: RwSignal<bool>,
) -> Option<WidgetRun> {
    if let Some(text) = &options.recorded {
        match export::import(text) {
            Ok(events) => d.show_shared(events),
            Err(e) => fail.say(format!("This debate cannot be shown: {e}")),
        }
        started.set(true);
    } else if let Some(fragment) = options.share.clone() {
        d.loading.set(true);
        started.set(true);
        spawn_local(async move {
            match crate::ui::share::open(&fragment).await {
                Ok(events) => {
                    d.show_shared(events);
                    d.focus.set(crate::ui::share::focus_of(&fragment));
                }
                Err(e) => fail.say(e),
            }
            d.loading.set(false);
        });
    } else if let Some(request) = &options.request {
        match WidgetRun::read(request.clone(), options.ask_keys) {
            Ok(run) => return Some(run),
            Err(e) => fail.say(e),
        }
    } else {
        fail.say(
            "Give the widget a debate to show (`src`) or one to run (its `config` property)."
                .into(),
        );
    }
    None
}

/// A live debate before Start: what it is, and the visitor's keys where it asks for them.
#[component]
fn WidgetStart(
    run: WidgetRun,
    problem: RwSignal<Option<String>>,
    start: Callback<(DebateConfig, Vec<Connection>)>,
) -> impl IntoView {
    let keys = RwSignal::new(vec![String::new(); run.connections()]);
    // The visitor's word that an address Agora does not know may have the key.
    let trusted = RwSignal::new(vec![false; run.connections()]);
    let (preview, keyed) = (run.preview.clone(), run.keyed.clone());
    let press = move |_| match run.launch(&keys.get_untracked(), &trusted.get_untracked()) {
        Ok(launched) => start.run(launched),
        Err(e) => problem.set(Some(e)),
    };
    view! {
        <section class="widget-start card">
            <p class="kicker">{preview.kind}</p>
            <h2 class="topic">{preview.topic}</h2>
            <p class="hint">{preview.seats}</p>
            {keyed.iter().map(|k| {
                let i = k.index;
                view! {
                    <label class="field"><span class="label">{format!("Your API key for {}", k.name)}</span>
                        <input type="password" autocomplete="off" class="widget-key"
                            placeholder="Kept in this frame only"
                            on:input=move |ev| keys.update(|all| all[i] = event_target_value(&ev))/>
                        <span class="hint widget-key-origin">{format!("Sent only to {}", k.origin)}</span></label>
                    {(!k.known).then(|| view! {
                        <label class="check widget-key-trust">
                            <input type="checkbox" on:change=move |ev| trusted.update(|t| t[i] = event_target_checked(&ev))/>
                            {format!(" I trust {} with this key. It is not a provider Agora knows: the page around this debate chose it.", k.origin)}
                        </label>
                    })}
                }
            }).collect_view()}
            {(!keyed.is_empty()).then(|| view! {
                <p class="hint">"This debate runs in a frame served by Agora, apart from the page around it: that page cannot read the key you type here. The key is kept in this frame's memory only and sent only to its provider."</p>
            })}
            <button type="button" class="primary widget-start-button" on:click=press>"Start debate"</button>
        </section>
    }
}

/// Runs a live debate on a session of the widget's own, its store the host page's
/// IndexedDB when it asked to keep debates (memory otherwise, or when that cannot open).
async fn run(
    d: DebateView,
    fail: Fail,
    keep: bool,
    alive: StoredValue<Rc<Cell<bool>>, LocalStorage>,
    config: DebateConfig,
    connections: Vec<Connection>,
) {
    let dispatch = fail.dispatch.get_value();
    let store: Rc<dyn Store> = match keep {
        true => match IdbStore::open("agora").await {
            Ok(s) => Rc::new(s),
            Err(e) => {
                dispatch.error(&format!(
                    "{e}. This debate will not be kept after the page closes."
                ));
                Rc::new(MemoryStore::new())
            }
        },
        false => Rc::new(MemoryStore::new()),
    };
    if !alive.try_with_value(|a| a.get()).unwrap_or(false) {
        return; // the element left the page while the store opened
    }
    let s = Session::new(browser::env(store), connections);
    let id = s.new_id();
    {
        let (weak, id) = (Rc::downgrade(&s), id.clone());
        s.set_listener(move |debate, update| {
            if debate != id {
                return;
            }
            match update {
                SessionUpdate::Notice(m) => dispatch.error(m),
                other => d.follow(other),
            }
            // The host page hears each event after the view shows it.
            if let (SessionUpdate::Event(e), Some(s)) = (update, weak.upgrade()) {
                dispatch.event(e, &s, &id);
            }
        });
    }
    d.session.set(s.clone());
    d.reset(Some(id.clone()));
    d.running.set(true);
    if let Err(e) = s.start_as(id, config) {
        d.reset(None);
        fail.say(e.to_string());
    }
}
