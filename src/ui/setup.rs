//! The setup screen: what Agora is, a topic (typed or suggested), the format and its options,
//! and who sits in each seat.

use leptos::prelude::*;

use super::app::{navigate, session};
use super::connection_form::ConnectionForm;
use super::crux::setup::{CruxForm, CruxSetup};
use super::duelogic::setup::{DuelogicForm, DuelogicSetup};
use super::forecast::setup::{ForecastForm, ForecastSetup};
use super::inpage::in_page_panel;
use super::state::{AppState, Route};
use crate::engine::config::{ClassicOptions, ClassicStyle, FormatId, Participant, MAX_TOPIC_CHARS};
use crate::engine::cost;
use crate::engine::formats::{self, classic, crux, duelogic, forecast};
use crate::engine::DebateConfig;
use crate::session::prices::PriceTable;
use crate::session::Connection;

const SUGGESTIONS: [&str; 6] = [
    "Should cities ban private cars from their centres?",
    "Is remote work better for teams than working in an office?",
    "Should social media be off-limits to children under 16?",
    "Will AI create more jobs than it destroys in the next decade?",
    "Should voting be compulsory in democracies?",
    "Is nuclear power essential to reaching net zero?",
];

/// The formats, what each is, and whether it can be chosen yet.
const FORMATS: [(FormatId, &str, bool); 4] = [
    (FormatId::Classic, "A moderator, two positions, rounds of argument and rebuttal, closing statements and a summary.", true),
    (FormatId::Duelogic, "Chairs argue from philosophical frameworks on a podcast; the Arbiter scores every answer and steps in.", true),
    (FormatId::Forecast, "A panel of five roles argues the odds of each outcome; the judge and the consensus give the forecast.", true),
    (FormatId::Crux, "Personas with their own biases and voices argue aspects of the topic; where two really disagree, a crux room digs out the root and a crux card records it.", true),
];

/// Who fills a seat, as the seat's select offers it.
#[derive(Clone, Debug, PartialEq)]
enum SeatFill {
    /// The debate's connection and model.
    Same,
    Connection(String),
    /// The user types this seat's turns.
    Person,
}

impl SeatFill {
    /// The select's option value: the one place these values are written or read.
    fn value(&self) -> &str {
        match self {
            SeatFill::Same => "__same",
            SeatFill::Person => "__human",
            SeatFill::Connection(id) => id,
        }
    }

    fn from_value(v: &str) -> Self {
        match v {
            "__same" => SeatFill::Same,
            "__human" => SeatFill::Person,
            id => SeatFill::Connection(id.to_string()),
        }
    }
}

/// Who sits in one seat: a connection and model, or the user.
#[derive(Clone, Copy)]
struct SeatChoice {
    id: &'static str,
    name: &'static str,
    /// Empty means "the debate's default connection".
    connection: RwSignal<String>,
    model: RwSignal<String>,
    human: RwSignal<bool>,
}

impl SeatChoice {
    fn new(id: &'static str, name: &'static str) -> Self {
        SeatChoice {
            id,
            name,
            connection: RwSignal::new(String::new()),
            model: RwSignal::new(String::new()),
            human: RwSignal::new(false),
        }
    }

    /// Seats what the seat's select says.
    fn fill(&self, fill: SeatFill, connections: &[Connection]) {
        self.human.set(fill == SeatFill::Person);
        match fill {
            SeatFill::Same => self.connection.set(String::new()),
            SeatFill::Connection(id) => {
                if let Some(c) = connections.iter().find(|c| c.id == id) {
                    self.model.set(c.default_model.clone())
                }
                self.connection.set(id);
            }
            SeatFill::Person => {}
        }
    }
}

pub(crate) fn connections(state: AppState) -> Vec<Connection> {
    state.connections_version.track();
    session().map(|s| s.connections()).unwrap_or_default()
}

#[component]
pub fn SetupScreen() -> impl IntoView {
    let state = expect_context::<AppState>();
    let topic = RwSignal::new(String::new());
    let format = RwSignal::new(FormatId::Classic);
    let duelogic_form = DuelogicForm::new();
    let crux_form = CruxForm::new();
    let forecast_form = ForecastForm::new();
    let stance_a = RwSignal::new(String::new());
    let stance_b = RwSignal::new(String::new());
    let style = RwSignal::new(ClassicStyle::Formal);
    let rounds = RwSignal::new(2u32);
    let fact_checker = RwSignal::new(false);
    let scoring = RwSignal::new(false);
    let connection = RwSignal::new("local".to_string());
    let model = RwSignal::new(crate::session::connections::LOCAL_MODEL_NAME.to_string());
    let error = RwSignal::new(None::<String>);
    let prices = RwSignal::new(crate::session::saved::load_prices());
    let cap = RwSignal::new(String::new());
    let test_result = RwSignal::new(None::<Result<String, String>>);
    let testing = RwSignal::new(false);
    let adding = RwSignal::new(false);
    let editing = RwSignal::new(false);
    let seats = [
        SeatChoice::new(classic::MODERATOR, "Moderator"),
        SeatChoice::new(classic::POSITION_A, "Position A"),
        SeatChoice::new(classic::POSITION_B, "Position B"),
    ];

    let pick_connection = move |id: String| {
        if let Some(c) = connections(state).into_iter().find(|c| c.id == id) {
            model.set(c.default_model.clone());
        }
        connection.set(id);
        test_result.set(None);
    };

    let test = move |_| {
        let Some(s) = session() else { return };
        testing.set(true);
        test_result.set(None);
        let fut = s.test_connection(&connection.get_untracked(), &model.get_untracked());
        leptos::task::spawn_local(async move {
            test_result.set(Some(fut.await));
            testing.set(false);
        });
    };

    // The debate the form describes; read reactively by the estimate, once by Start.
    let build = move || -> DebateConfig {
        let conns = connections(state);
        let options = ClassicOptions {
            rounds: rounds.get(),
            style: style.get(),
            fact_checker: fact_checker.get(),
            scoring: scoring.get(),
            ..Default::default()
        };
        // A connection and model (empty: the debate's own), priced as the table says.
        let on_model = |conn_id: String, model_name: String| -> Participant {
            let (conn_id, model_name) = if conn_id.is_empty() {
                (connection.get(), model.get())
            } else {
                (conn_id, model_name)
            };
            let conn = conns.iter().find(|c| c.id == conn_id);
            let model_name = if model_name.trim().is_empty() {
                conn.map(|c| c.default_model.clone()).unwrap_or_default()
            } else {
                model_name
            };
            Participant::Model {
                connection: conn_id.clone(),
                connection_label: conn.map(|c| c.label.clone()).unwrap_or(conn_id),
                price: prices.with(|t| t.price(conn, &model_name)),
                model: model_name.trim().to_string(),
                context_tokens: conn.map(|c| c.context_tokens).unwrap_or(4096),
            }
        };
        if format.get() == FormatId::Duelogic {
            let f = duelogic_form;
            let chairs = f.chairs.with(|c| {
                c.iter()
                    .map(|c| {
                        (
                            c.name.get(),
                            c.framework.get(),
                            on_model(c.connection.get(), c.model.get()),
                        )
                    })
                    .collect()
            });
            let arbiter = on_model(f.arbiter_connection.get(), f.arbiter_model.get());
            let analyst = (!f.analyst_connection.get().is_empty())
                .then(|| on_model(f.analyst_connection.get(), f.analyst_model.get()));
            let mut config =
                duelogic::new_config(&topic.get(), chairs, arbiter, analyst, f.options());
            config.spending_cap = cap.with(|c| cost::parse_decimal(c));
            return config;
        }
        if format.get() == FormatId::Crux {
            let f = crux_form;
            let personas = f.personas.with(|ps| {
                ps.iter()
                    .map(|p| (p.contract.get(), on_model(p.connection.get(), p.model.get())))
                    .collect()
            });
            let analyst = on_model(f.analyst_connection.get(), f.analyst_model.get());
            let mut config = crux::new_config(&topic.get(), personas, analyst, f.options());
            config.spending_cap = cap.with(|c| cost::parse_decimal(c));
            return config;
        }
        if format.get() == FormatId::Forecast {
            let f = forecast_form;
            let roles = f.roles.with(|r| {
                r.iter()
                    .map(|r| {
                        (
                            r.kind.get(),
                            r.name.get(),
                            r.perspective.get(),
                            on_model(r.connection.get(), r.model.get()),
                        )
                    })
                    .collect()
            });
            let analyst = (!f.analyst_connection.get().is_empty())
                .then(|| on_model(f.analyst_connection.get(), f.analyst_model.get()));
            let mut config = forecast::new_config(&topic.get(), roles, analyst, f.options());
            config.spending_cap = cap.with(|c| cost::parse_decimal(c));
            return config;
        }
        let participant = |seat_id: &str| -> Participant {
            let choice = seats.iter().find(|c| c.id == seat_id).copied();
            if choice.is_some_and(|c| c.human.get()) {
                return Participant::Human;
            }
            match choice {
                Some(c) => on_model(c.connection.get(), c.model.get()),
                None => on_model(String::new(), String::new()),
            }
        };
        let mut config = classic::new_config(
            &topic.get(),
            &stance_a.get(),
            &stance_b.get(),
            options,
            participant,
        );
        config.spending_cap = cap.with(|c| cost::parse_decimal(c));
        config
    };

    let start = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(s) = session() else {
            error.set(Some(
                "Agora is still starting; try again in a moment.".into(),
            ));
            return;
        };
        if cap.with(|c| !c.trim().is_empty() && cost::parse_decimal(c).is_none()) {
            error.set(Some(
                "The spending cap must be a number of dollars, like 0.50.".into(),
            ));
            return;
        }
        let config = build();
        let id = s.new_id();
        state.debate.reset(Some(id.clone()));
        state.debate.running.set(true);
        match s.start_as(id.clone(), config) {
            Ok(()) => {
                error.set(None);
                navigate(state, Route::Debate(id));
            }
            Err(e) => {
                state.debate.reset(None);
                error.set(Some(e));
            }
        }
    };

    let topic_len = move || topic.with(|t| t.chars().count());

    let hero = view! {
        <section class="hero">
            <h1>"Watch AI models argue it out."</h1>
            <p class="lede">
                "Agora stages structured debates between language models, right in your browser. "
                "Pick a question, choose who argues it, and follow every opening, rebuttal and summary as it streams in. "
                "Nothing runs on a server of ours: calls go straight from this page to the model you choose."
            </p>
        </section>
    }
    .into_any();

    let formats = view! {
        <fieldset class="formats">
            <legend>"Format"</legend>
            {FORMATS.iter().map(|(id, about, ready)| {
                let (id, ready) = (*id, *ready);
                view! {
                    <label class="format" class:selected=move || format.get() == id class:disabled=!ready
                        title=(!ready).then_some("Coming soon")>
                        <input type="radio" name="format" value=id.label() prop:checked=move || format.get() == id
                            disabled=!ready on:change=move |_| format.set(id)/>
                        <strong>{id.label()}</strong>
                        <span>{*about}</span>
                    </label>
                }
            }).collect_view()}
        </fieldset>
    }
    .into_any();

    let topic_field = view! {
        <label class="field">
            <span class="label">"Topic"</span>
            <textarea id="topic" rows="2" placeholder="Type a question worth arguing about…"
                prop:value=move || topic.get()
                on:input=move |ev| topic.set(event_target_value(&ev))></textarea>
            <span class="hint" class:warn=move || topic.with(|t| t.chars().count() > MAX_TOPIC_CHARS)>
                {move || format!("{} / {MAX_TOPIC_CHARS} characters", topic_len())}
            </span>
        </label>
        <div class="suggestions" aria-label="Suggested topics">
            {SUGGESTIONS.iter().map(|s| {
                let s = *s;
                view! { <button type="button" class="chip" on:click=move |_| topic.set(s.to_string())>{s}</button> }
            }).collect_view()}
        </div>
    }
    .into_any();

    let classic_options = move || {
        view! {
            <div class="grid2">
                <TextField id="stance-a" label="Position A argues" placeholder="In favour of the motion" value=stance_a/>
                <TextField id="stance-b" label="Position B argues" placeholder="Against the motion" value=stance_b/>
                <label class="field">
                    <span class="label">"Style"</span>
                    <select id="style" prop:value=move || style.get().id() on:change=move |ev| {
                        if let Some(s) = ClassicStyle::from_id(&event_target_value(&ev)) { style.set(s) }
                    }>
                        {ClassicStyle::ALL.into_iter().map(|s| view! { <option value=s.id()>{capitalise(s.id())}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span class="label">"Rounds of argument"</span>
                    <input id="rounds" type="number" min="1" max="10" prop:value=move || rounds.get().to_string()
                        on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse::<u32>() { rounds.set(n.clamp(1, 10)) } }/>
                </label>
                <label class="check"><input type="checkbox" id="scoring" prop:checked=move || scoring.get()
                    on:change=move |ev| scoring.set(event_target_checked(&ev))/>"Score both positions at the end (0–10, weighted by the style)"</label>
                <label class="check"><input type="checkbox" id="fact-checker" prop:checked=move || fact_checker.get()
                    on:change=move |ev| fact_checker.set(event_target_checked(&ev))/>"A fact checker checks each turn's claims"</label>
            </div>
        }
    };

    let connection_block = view! {
        <div class="grid2">
            <label class="field">
                <span class="label">"Connection"</span>
                <select id="connection" prop:value=move || connection.get() on:change=move |ev| pick_connection(event_target_value(&ev))>
                    <ConnectionOptions/>
                </select>
            </label>
            <TextField id="model" label="Model" placeholder="" value=model/>
        </div>
        <div class="row">
            <button type="button" class="secondary" id="test-connection" on:click=test disabled=move || testing.get()>
                {move || if testing.get() { "Testing…" } else { "Test connection" }}
            </button>
            <button type="button" class="link" id="edit-connection"
                    on:click=move |_| { adding.set(false); editing.update(|e| *e = !*e) }>
                    {move || if editing.get() { "Close" } else { "Edit connection" }}
                </button>
            <button type="button" class="link" on:click=move |_| { editing.set(false); adding.update(|a| *a = !*a) }>
                {move || if adding.get() { "Close" } else { "Add a connection (OpenAI, Ollama, any OpenAI-compatible API)" }}
            </button>
        </div>
        {move || (connection.get() == Connection::IN_BROWSER).then(|| in_page_panel(model))}
        {move || test_result.get().map(|r| {
            let (class, text) = match r { Ok(m) => ("ok", m), Err(m) => ("error", m) };
            view! { <p class=class role="status">{text}</p> }
        })}
        {move || editing.get().then(|| {
            let existing = connections(state).into_iter().find(|c| c.id == connection.get_untracked());
            view! {
                <ConnectionForm existing=existing.unwrap_or_else(Connection::local_model) on_saved=Callback::new(move |id: String| {
                    editing.set(false);
                    pick_connection(id);
                })/>
            }
        })}
        {move || adding.get().then(|| view! {
            <ConnectionForm on_saved=Callback::new(move |id: String| {
                adding.set(false);
                pick_connection(id);
            })/>
        })}
    }
    .into_any();

    let seat_rows = move || {
        view! {
            <details class="seats">
                <summary>"Seats: give each seat its own model, or take one yourself"</summary>
                {seats.into_iter().map(|seat| view! { <SeatRow seat=seat/> }).collect_view()}
            </details>
        }
    };

    // The priced models in use, each once, with the connection that prices it. A memo, so
    // that typing a price does not rebuild the rows (and take the focus from the next field).
    let priced = Memo::new(move |_| {
        let mut seen: Vec<(String, String)> = Vec::new();
        for s in build().seats {
            if let Participant::Model {
                model, connection, ..
            } = s.participant
            {
                if !seen.iter().any(|(m, _)| *m == model) {
                    seen.push((model, connection));
                }
            }
        }
        seen
    });
    let costs = view! {
        <details class="costs">
            <summary>"Prices and spending cap"</summary>
            <p class="hint">"US dollars per million tokens: input, then output. Built-in prices are providers' list prices as of 2025 and local servers are free; change any that differ."</p>
            {move || priced.get().into_iter().map(|(model, connection)| {
                let conn = connections(state).into_iter().find(|c| c.id == connection);
                view! { <PriceRow model=model conn=conn prices=prices/> }
            }).collect_view()}
            <label class="field">
                <span class="label">"Spending cap for this debate ($, optional)"</span>
                <input id="spending-cap" type="number" min="0" step="0.01" placeholder="No cap"
                    prop:value=move || cap.get() on:input=move |ev| cap.set(event_target_value(&ev))/>
            </label>
        </details>
    }
    .into_any();

    let plan_line = move || {
        let cfg = build();
        let e = cost::estimate(&cfg, &formats::plan(&cfg));
        let money = if e.unpriced.is_empty() {
            format!(
                " · estimated cost {}–{}",
                cost::dollars(e.low),
                cost::dollars(e.high)
            )
        } else {
            " · add prices to see the estimated cost".to_string()
        };
        format!("{} model calls planned{money}", e.calls)
    };

    let options = move || match format.get() {
        FormatId::Duelogic => view! { <DuelogicSetup form=duelogic_form/> }.into_any(),
        FormatId::Crux => view! { <CruxSetup form=crux_form/> }.into_any(),
        FormatId::Forecast => view! { <ForecastSetup form=forecast_form/> }.into_any(),
        _ => view! { {classic_options()} {seat_rows()} }.into_any(),
    };

    view! {
        {hero}
        <form class="card setup" on:submit=start>
            {formats}
            {topic_field}
            {connection_block}
            {options}
            {costs}
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <div class="row end">
                <span class="hint" id="plan">{plan_line}</span>
                <button type="submit" id="start" class="primary" disabled=move || !state.ready.get()>"Start debate"</button>
            </div>
        </form>
    }
}

#[component]
fn TextField(
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

#[component]
pub(crate) fn ConnectionOptions() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        connections(state)
            .into_iter()
            .map(|c| view! { <option value=c.id>{c.label}</option> })
            .collect_view()
    }
}

/// One model's price per million tokens, in and out; edits are saved for next time.
#[component]
fn PriceRow(
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

#[component]
fn SeatRow(seat: SeatChoice) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <div class="seat-row">
            <strong>{seat.name}</strong>
            <select aria-label=format!("{} connection", seat.name) on:change=move |ev| {
                seat.fill(SeatFill::from_value(&event_target_value(&ev)), &connections(state));
            }>
                <option value=SeatFill::Same.value()>"Same as above"</option>
                <ConnectionOptions/>
                <option value=SeatFill::Person.value()>"Me (I type this seat's turns)"</option>
            </select>
            <input aria-label=format!("{} model", seat.name) placeholder="model"
                disabled=move || seat.human.get() || seat.connection.get().is_empty()
                prop:value=move || seat.model.get() on:input=move |ev| seat.model.set(event_target_value(&ev))/>
        </div>
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}
