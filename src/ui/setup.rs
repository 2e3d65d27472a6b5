//! The setup screen: what Agora is, a topic (typed or suggested), the format and its options,
//! and who sits in each seat. Its rules live in `session::setup_draft::SetupDraft` (native
//! tests there) and in each format's form; this binds fields to them.

use leptos::prelude::*;
use std::time::Duration;

use super::app::navigate;
use super::connection_form::ConnectionForm;
use super::formats::{SetupForm, FORMATS};
use super::inpage::in_page_panel;
use super::seating::{connections, ConnectionOptions};
use super::state::{AppState, Route};
use crate::engine::config::{FormatId, MAX_TOPIC_CHARS};
use crate::engine::cost;
use crate::engine::DebateConfig;
use crate::session::prices::PriceTable;
use crate::session::setup_draft::{plan_line, structured_mode, Extras, SetupDraft};
use crate::session::Connection;

const SUGGESTIONS: [&str; 6] = [
    "Should cities ban private cars from their centres?",
    "Is remote work better for teams than working in an office?",
    "Should social media be off-limits to children under 16?",
    "Will AI create more jobs than it destroys in the next decade?",
    "Should voting be compulsory in democracies?",
    "Is nuclear power essential to reaching net zero?",
];

/// The form of format `id` among every format's (the first if `id` has none).
fn form_of(forms: &[(FormatId, Box<dyn SetupForm>)], id: FormatId) -> &dyn SetupForm {
    let (_, form) = forms.iter().find(|(f, _)| *f == id).unwrap_or(&forms[0]);
    form.as_ref()
}

#[component]
pub fn SetupScreen() -> impl IntoView {
    let state = expect_context::<AppState>();
    let draft = RwSignal::new(SetupDraft::default());
    // Every format's form, made once: switching formats keeps what was typed in each.
    let forms = StoredValue::new_local(
        FORMATS
            .iter()
            .map(|f| (f.id, (f.form)()))
            .collect::<Vec<(FormatId, Box<dyn SetupForm>)>>(),
    );
    let error = RwSignal::new(None::<String>);
    let prices = RwSignal::new(crate::session::saved::load_prices());
    let sources = RwSignal::new(Vec::<crate::engine::sources::Source>::new());
    let judges_read = RwSignal::new(false);
    let search_on = RwSignal::new(Vec::<String>::new());
    // The connection that works here, until the user picks one (`SetupDraft::offer_default`).
    Effect::new(move |_| {
        let best = super::seating::default_connection(state);
        draft.update(|d| d.offer_default(best.as_ref()));
    });

    // The debate the format's form describes, seated on the draft's connection and priced;
    // read reactively by the estimate, once by Start.
    let format_config = move |d: &SetupDraft, conns: &[Connection]| -> DebateConfig {
        prices.with(|p| {
            let seating = d.seating(conns, p);
            forms.with_value(|forms| form_of(forms, d.format).build(&d.topic, &seating))
        })
    };
    let build = move || {
        let conns = connections(state);
        draft.with(|d| d.estimate(format_config(d, &conns)))
    };

    // Set from the click on Start until the debate screen replaces this one (a few browser
    // tasks): a second click or Enter meanwhile starts nothing.
    let starting = RwSignal::new(false);
    let start = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if starting.get_untracked() {
            return;
        }
        let Some(s) = state.session_for_start(error) else {
            return;
        };
        // Only Start copies the sources (the estimate, drawn on each keystroke, needs none).
        let extras = Extras {
            sources: sources.get_untracked(),
            judges_read: judges_read.get_untracked(),
            search_on: search_on.get_untracked(),
        };
        let finished = untrack(|| {
            let conns = connections(state);
            draft.with(|d| d.finish(format_config(d, &conns), extras, &conns))
        });
        match finished {
            Ok(config) => {
                starting.set(true);
                launch(state, s, config, error, starting);
            }
            Err(e) => error.set(Some(e.to_string())),
        }
    };

    // The seats that argue and whether each can search, redrawn only when that changes.
    let searchers = Memo::new(move |_| super::web_search_form::seats(state, &build()));
    // The chosen format's fields, drawn again only when the format changes (a memo: any
    // other edit of the draft must not redraw them and drop what they hold).
    let format = Memo::new(move |_| draft.with(|d| d.format));
    let options = move || forms.with_value(|forms| form_of(forms, format.get()).view());

    // Offered first (unfolded) when nothing answers here without a key and no connection
    // is chosen: the examples show what Agora does before anything is set up.
    let examples_first = Signal::derive(move || {
        state
            .no_key
            .with(|n| n.as_ref().is_some_and(|n| n.best().is_none()))
            && draft.with(|d| d.connection.is_empty())
    });
    view! {
        <Hero/>
        <super::gallery::Gallery open=examples_first/>
        <form class="card setup" on:submit=start>
            <FormatPicker draft=draft/>
            <TopicField draft=draft/>
            <ConnectionBlock draft=draft/>
            {options}
            <super::sources_form::SourcesForm sources=sources judges_read=judges_read/>
            <super::web_search_form::WebSearchForm seats=searchers on=search_on/>
            <Costs draft=draft prices=prices config=Callback::new(move |()| build())/>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <div class="row end">
                <span class="hint" id="plan">{move || plan_line(&build())}</span>
                <button type="submit" id="start" class="primary" disabled=move || !state.ready.get() || starting.get()>"Start debate"</button>
            </div>
        </form>
    }
}

/// Starts the debate and moves to its screen. Four browser tasks after Start's, each short
/// where all in one held the page for a long task on a slow phone (BENCHMARKS.md, "Five
/// streams at once"): the debate starts, Start lets go of the focus (taking away a form that
/// holds it costs the browser ten times as much as one that does not), the debate screen
/// replaces this one, and its heading takes the focus.
fn launch(
    state: AppState,
    s: std::rc::Rc<crate::session::Session>,
    config: DebateConfig,
    error: RwSignal<Option<String>>,
    starting: RwSignal<bool>,
) {
    let id = s.new_id();
    state.debate.reset(Some(id.clone()));
    state.debate.running.set(true);
    set_timeout(
        move || match s.start_as(id.clone(), config) {
            Ok(()) => {
                error.set(None);
                set_timeout(super::focus::blur_active, Duration::ZERO);
                set_timeout(
                    move || {
                        navigate(state, Route::Debate(id));
                        set_timeout(
                            || super::focus::focus_selector("section.debate h1.topic"),
                            Duration::ZERO,
                        );
                    },
                    Duration::ZERO,
                );
            }
            Err(e) => {
                starting.set(false);
                state.debate.reset(None);
                error.set(Some(e.to_string()));
            }
        },
        Duration::ZERO,
    );
}

#[component]
fn Hero() -> impl IntoView {
    view! {
        <section class="hero">
            <h1>"Watch AI models argue it out."</h1>
            <p class="lede">
                "Agora stages structured debates between language models, right in your browser. "
                "Pick a question, choose who argues it, and follow every opening, rebuttal and summary as it streams in. "
                "Nothing runs on a server of ours: calls go straight from this page to the model you choose."
            </p>
        </section>
    }
}

#[component]
fn FormatPicker(draft: RwSignal<SetupDraft>) -> impl IntoView {
    view! {
        <fieldset class="formats">
            <legend>"Format"</legend>
            {FORMATS.iter().map(|f| {
                let (id, about) = (f.id, f.about);
                let selected = move || draft.with(|d| d.format == id);
                view! {
                    <label class="format" class:selected=selected>
                        <input type="radio" name="format" value=id.label() prop:checked=selected
                            on:change=move |_| draft.update(|d| d.format = id)/>
                        <strong>{id.label()}</strong>
                        <span>{about}</span>
                    </label>
                }
            }).collect_view()}
        </fieldset>
    }
}

#[component]
fn TopicField(draft: RwSignal<SetupDraft>) -> impl IntoView {
    view! {
        <label class="field">
            <span class="label">"Topic"</span>
            <textarea id="topic" rows="2" placeholder="Type a question worth arguing about…"
                prop:value=move || draft.with(|d| d.topic.clone())
                on:input=move |ev| draft.update(|d| d.topic = event_target_value(&ev))></textarea>
            <span class="hint" class:warn=move || draft.with(SetupDraft::topic_too_long)>
                {move || format!("{} / {MAX_TOPIC_CHARS} characters", draft.with(SetupDraft::topic_chars))}
            </span>
        </label>
        <div class="suggestions" aria-label="Suggested topics">
            {SUGGESTIONS.iter().map(|s| {
                let s = *s;
                view! { <button type="button" class="chip" on:click=move |_| draft.update(|d| d.topic = s.to_string())>{s}</button> }
            }).collect_view()}
        </div>
    }
}

/// The debate's connection and model, the no-key choices, and the connection forms.
#[component]
fn ConnectionBlock(draft: RwSignal<SetupDraft>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let test_result = RwSignal::new(None::<Result<String, String>>);
    let testing = RwSignal::new(false);
    let adding = RwSignal::new(false);
    let editing = RwSignal::new(false);
    let pick = Callback::new(move |id: String| {
        let conns = connections(state);
        draft.update(|d| d.pick_connection(&id, &conns));
        test_result.set(None);
    });
    // A memo: what depends on the connection (the in-page model's panel above all) is drawn
    // again only when it changes, not at every keystroke elsewhere in the form.
    let connection = Memo::new(move |_| draft.with(|d| d.connection.clone()));
    let connection = move || connection.get();
    let test = move |_| {
        let Some(s) = state.session() else { return };
        testing.set(true);
        test_result.set(None);
        let fut = draft.with_untracked(|d| s.test_connection(&d.connection, &d.model));
        leptos::task::spawn_local(async move {
            test_result.set(Some(fut.await.map_err(|e| e.to_string())));
            testing.set(false);
        });
    };
    view! {
        <div class="grid2">
            <label class="field">
                <span class="label">"Connection"</span>
                <select id="connection" prop:value=connection on:change=move |ev| pick.run(event_target_value(&ev))>
                    {move || connection().is_empty().then(|| view! {
                        <option value="" disabled=true>{move || if state.no_key.with(Option::is_none) { "Finding a connection that works here…" } else { "Choose a connection" }}</option>
                    })}
                    <ConnectionOptions/>
                </select>
            </label>
            <label class="field">
                <span class="label">"Model"</span>
                <input id="model" placeholder="" prop:value=move || draft.with(|d| d.model.clone())
                    on:input=move |ev| draft.update(|d| d.model = event_target_value(&ev))/>
            </label>
        </div>
        {move || {
            // Nothing here works without the visitor choosing: the choices, plainly.
            let none = state.no_key.get().is_some_and(|n| n.best().is_none()) && connection().is_empty();
            none.then(|| view! {
                <div class="subcard no-key" id="no-key">
                    <p>"No model answers on this page without a key yet. To run a debate now:"</p>
                    <div class="row">
                        <button type="button" class="secondary" id="use-inpage" on:click=move |_| pick.run(Connection::IN_BROWSER.to_string())>"Run a small model in this browser"</button>
                        <button type="button" class="secondary" id="use-key" on:click=move |_| { editing.set(false); adding.set(true) }>"Use your own key"</button>
                        <button type="button" class="secondary" id="use-demo" on:click=move |_| pick.run(Connection::DEMO.to_string())>"Use scripted test answers"</button>
                    </div>
                    <p class="hint">"The example debates above were written for Agora. To run one of your own: a model in this browser needs a GGUF file (from this device or an address) and runs on your own computer; with a key, Agora calls the provider you choose straight from this page. Scripted test answers are placeholder text that needs no network, for trying the screens and for tests."</p>
                </div>
            })
        }}
        <div class="row">
            <button type="button" class="secondary" id="test-connection" on:click=test disabled=move || testing.get()>
                {move || if testing.get() { "Testing…" } else { "Test connection" }}
            </button>
            <button type="button" class="link" id="edit-connection"
                    on:click=move |_| { adding.set(false); editing.update(|e| *e = !*e) }>
                    {move || if editing.get() { "Close" } else { "Edit connection" }}
                </button>
            <button type="button" class="link" id="add-connection" on:click=move |_| { editing.set(false); adding.update(|a| *a = !*a) }>
                {move || if adding.get() { "Close" } else { "Add a connection (OpenAI, Ollama, any OpenAI-compatible API)" }}
            </button>
        </div>
        {move || (connection() == Connection::IN_BROWSER).then(|| in_page_panel(Callback::new(move |name: String| draft.update(|d| d.model = name))))}
        {move || {
            let c = connections(state).into_iter().find(|c| c.id == connection())?;
            c.kind.takes_schema_forms().then(|| view! { <p class="hint" id="structured-mode">{structured_mode(&c)}</p> })
        }}
        {move || test_result.get().map(|r| {
            let (class, text) = match r { Ok(m) => ("ok", m), Err(m) => ("error", m) };
            view! { <p class=class role="status">{text}</p> }
        })}
        <ConnectionEditors draft=draft adding=adding editing=editing pick=pick/>
    }
}

/// The form that edits the chosen connection, or adds one.
#[component]
fn ConnectionEditors(
    draft: RwSignal<SetupDraft>,
    adding: RwSignal<bool>,
    editing: RwSignal<bool>,
    pick: Callback<String>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let saved = move |open: RwSignal<bool>| {
        Callback::new(move |id: String| {
            open.set(false);
            pick.run(id);
            super::focus::focus_selector("#connection");
        })
    };
    let closed = move |open: RwSignal<bool>, button: &'static str| {
        Callback::new(move |()| {
            open.set(false);
            super::focus::focus_selector(button);
        })
    };
    view! {
        {move || editing.get().then(|| {
            // Read once: a connection changed meanwhile (a form found by a running debate)
            // must not redraw the form and throw away what is being typed.
            let id = draft.with_untracked(|d| d.connection.clone());
            let existing = untrack(|| connections(state)).into_iter().find(|c| c.id == id);
            view! {
                <ConnectionForm existing=existing.unwrap_or_else(Connection::local_model)
                    on_saved=saved(editing) on_close=closed(editing, "#edit-connection")/>
            }
        })}
        {move || adding.get().then(|| view! {
            <ConnectionForm on_saved=saved(adding) on_close=closed(adding, "#add-connection")/>
        })}
    }
}

/// Prices of the models in use and the spending cap.
#[component]
fn Costs(
    draft: RwSignal<SetupDraft>,
    prices: RwSignal<PriceTable>,
    config: Callback<(), DebateConfig>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    // The priced models in use, each once, with the connection that prices it. A memo, so
    // that typing a price does not rebuild the rows (and take the focus from the next field).
    let priced = Memo::new(move |_| {
        PriceTable::models_to_price(config.run(()).seats.into_iter().map(|s| s.participant))
    });
    view! {
        <details class="costs">
            <summary>"Prices and spending cap"</summary>
            <p class="hint">"US dollars per million tokens: input, then output. Built-in prices are providers' list prices as of 2025 and local servers are free; change any that differ."</p>
            {move || priced.get().into_iter().map(|(model, connection)| {
                let conn = connections(state).into_iter().find(|c| c.id == connection);
                view! { <PriceRow model=model conn=conn prices=prices/> }
            }).collect_view()}
            <label class="field">
                <span class="label">"Spending cap for this debate ($, optional)"</span>
                <input id="spending-cap" type="number" min="0" step="any" placeholder="No cap"
                    prop:value=move || draft.with(|d| d.cap.clone()) on:input=move |ev| draft.update(|d| d.cap = event_target_value(&ev))/>
            </label>
        </details>
    }
}

/// One model's price per million tokens, in and out; edits are saved for next time.
#[component]
pub(super) fn PriceRow(
    model: String,
    conn: Option<Connection>,
    prices: RwSignal<PriceTable>,
) -> impl IntoView {
    let current = prices.with_untracked(|t| t.price(conn.as_ref(), &model));
    let field = move |which: usize| {
        current.map_or(String::new(), |p| cost::short([p.input, p.output][which]))
    };
    let m = model.clone();
    let problem = RwSignal::new(None::<String>);
    let set = move |which: usize, v: String| {
        // A price that cannot be read is refused with the reason, never dropped silently.
        let x = match cost::parse_price(&v) {
            Ok(x) => x,
            Err(e) => {
                problem.set(Some(e));
                return;
            }
        };
        problem.set(None);
        prices.update(|t| {
            let mut p = t.price(conn.as_ref(), &m).unwrap_or_default();
            if which == 0 {
                p.input = x
            } else {
                p.output = x
            }
            t.set(&m, p);
        });
        prices.with_untracked(crate::session::saved::save_prices);
    };
    let set2 = set.clone();
    view! {
        <div class="price-row">
            <strong>{model.clone()}</strong>
            <input type="text" inputmode="decimal" aria-label=format!("{model} input price") placeholder="in $/M"
                value=field(0) on:change=move |ev| set(0, event_target_value(&ev))/>
            <input type="text" inputmode="decimal" aria-label=format!("{model} output price") placeholder="out $/M"
                value=field(1) on:change=move |ev| set2(1, event_target_value(&ev))/>
            {move || problem.get().map(|e| view! { <p class="error field-error" role="alert">{e}</p> })}
        </div>
    }
}
