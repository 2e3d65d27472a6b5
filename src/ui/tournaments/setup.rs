//! The set-up of a new tournament: its contestants, motions (typed, pasted or loaded from a
//! file), format, judges (a person among them, judging blind), host and spending cap, with
//! a plan line that counts the debates, verdicts and calls and prices them before anything
//! runs. The rows are read into a `session::tournament_draft::TournamentDraft`, whose
//! `spec` (tested natively) is the tournament or says which field is wrong.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::super::app::navigate;
use super::super::seating::{connections, ConnectionOptions};
use super::super::setup::PriceRow;
use super::super::state::{AppState, Route};
use crate::engine::clock::Clock;
use crate::engine::config::FormatId;
use crate::engine::cost::Estimate;
use crate::engine::tournament::cost::estimate;
use crate::engine::tournament::schedule::{judge_calls, schedule, Match};
use crate::engine::tournament::spec::{
    parse_motions, TournamentSpec, MAX_CONTESTANTS, MAX_JUDGES, MIN_CONTESTANTS,
};
use crate::session::prices::PriceTable;
use crate::session::tournament::TournamentRun;
use crate::session::tournament_draft::{
    cost_line, motions_line, EntrantPick, TournamentDraft, PERSON,
};

/// Largest motions file read.
const MOTIONS_FILE_BYTES: usize = 1_048_576;

/// One row of the form: a contestant, a judge or the host, as its select and model field
/// hold it. `key` keeps a row's fields when another row is removed.
#[derive(Clone, Copy)]
struct Entrant {
    key: u32,
    connection: RwSignal<String>,
    model: RwSignal<String>,
}

impl Entrant {
    fn is_person(&self) -> bool {
        self.connection.with(|c| c == PERSON)
    }

    /// What the row's fields say now (read reactively).
    fn pick(&self) -> EntrantPick {
        EntrantPick {
            connection: self.connection.get(),
            model: self.model.get(),
        }
    }
}

/// The connection and model a new row starts with: the page's default connection, else
/// the first there is.
fn first_choice(state: AppState) -> (String, String) {
    super::super::seating::default_connection(state)
        .or_else(|| connections(state).into_iter().next())
        .map(|c| (c.id, c.default_model))
        .unwrap_or_default()
}

/// Every field of the form, raw.
#[derive(Clone, Copy)]
struct Form {
    state: AppState,
    name: RwSignal<String>,
    format: RwSignal<FormatId>,
    contestants: RwSignal<Vec<Entrant>>,
    motions: RwSignal<String>,
    judges: RwSignal<Vec<Entrant>>,
    host: Entrant,
    cap: RwSignal<String>,
    prices: RwSignal<PriceTable>,
    /// Documents every debate argues from, and whether judges read them too.
    sources: RwSignal<Vec<crate::engine::sources::Source>>,
    judges_read: RwSignal<bool>,
    next_key: StoredValue<u32>,
}

impl Form {
    fn new(state: AppState) -> Self {
        let next_key = StoredValue::new(0);
        let (conn, model) = first_choice(state);
        let entrant = |connection: &str, model: &str| {
            let key = next_key.get_value();
            next_key.set_value(key + 1);
            Entrant {
                key,
                connection: RwSignal::new(connection.to_string()),
                model: RwSignal::new(model.to_string()),
            }
        };
        Form {
            state,
            name: RwSignal::new(String::new()),
            format: RwSignal::new(FormatId::Classic),
            contestants: RwSignal::new(vec![entrant(&conn, &model), entrant(&conn, "")]),
            motions: RwSignal::new(String::new()),
            judges: RwSignal::new(vec![entrant(&conn, "")]),
            host: entrant(&conn, &model),
            cap: RwSignal::new(String::new()),
            prices: RwSignal::new(crate::session::saved::load_prices()),
            sources: RwSignal::new(Vec::new()),
            judges_read: RwSignal::new(false),
            next_key,
        }
    }

    fn row(&self) -> Entrant {
        let key = self.next_key.get_value();
        self.next_key.set_value(key + 1);
        let (conn, model) = first_choice(self.state);
        Entrant {
            key,
            connection: RwSignal::new(conn),
            model: RwSignal::new(model),
        }
    }

    /// The form's fields as plain values (read reactively).
    fn draft(&self) -> TournamentDraft {
        let picks = |rows: RwSignal<Vec<Entrant>>| rows.get().iter().map(Entrant::pick).collect();
        TournamentDraft {
            name: self.name.get(),
            format: self.format.get(),
            contestants: picks(self.contestants),
            motions: self.motions.get(),
            judges: picks(self.judges),
            host: self.host.pick(),
            cap: self.cap.get(),
            sources: self.sources.get(),
            judges_read: self.judges_read.get(),
        }
    }

    /// The tournament the form describes, or what is wrong with it
    /// (`TournamentDraft::spec`).
    fn spec(&self, seed: u64) -> Result<TournamentSpec, String> {
        let conns = connections(self.state);
        self.prices.with(|p| {
            self.draft()
                .spec(seed, &conns, p, &super::super::fields::today())
        })
    }
}

/// Debates whose cost is worked out in one browser task: a tournament of hundreds is priced a
/// slice at a time, so typing a motion never holds the page.
const PRICED_PER_TASK: usize = 28;

/// A contestant's or judge's row: its connection (or "Me"), its model, and Remove.
#[component]
fn EntrantRow(
    what: &'static str,
    index: Signal<usize>,
    entrant: Entrant,
    allow_person: bool,
    #[prop(into)] can_remove: Signal<bool>,
    /// `None` for the one row of its kind (the host): no number, no Remove.
    on_remove: Option<Callback<u32>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let numbered = on_remove.is_some();
    let name = move || {
        if numbered {
            format!("{what} {}", index.get() + 1)
        } else {
            what.to_string()
        }
    };
    let pick = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if let Some(c) = connections(state).into_iter().find(|c| c.id == v) {
            entrant.model.set(c.default_model);
        }
        entrant.connection.set(v);
    };
    view! {
        <div class="entrant-row" data-role=what.to_lowercase()>
            <span class="entrant-name">{name}</span>
            <select aria-label=move || format!("{} connection", name()) prop:value=move || entrant.connection.get() on:change=pick>
                <ConnectionOptions/>
                {allow_person.then(|| view! { <option value=PERSON>"Me (I judge blind)"</option> })}
            </select>
            <input aria-label=move || format!("{} model", name()) placeholder="model"
                disabled=move || entrant.is_person()
                prop:value=move || if entrant.is_person() { String::new() } else { entrant.model.get() }
                on:input=move |ev| entrant.model.set(event_target_value(&ev))/>
            {on_remove.map(|remove| view! {
                <button type="button" class="link danger-text" disabled=move || !can_remove.get()
                    aria-label=move || format!("Remove {}", name())
                    on:click=move |_| remove.run(entrant.key)>"Remove"</button>
            })}
        </div>
    }
}

/// A list of rows (contestants or judges) with Add.
#[component]
fn EntrantList(
    form: Form,
    rows: RwSignal<Vec<Entrant>>,
    what: &'static str,
    legend: &'static str,
    hint: &'static str,
    min: usize,
    max: usize,
    allow_person: bool,
) -> impl IntoView {
    let remove = Callback::new(move |key: u32| rows.update(|r| r.retain(|e| e.key != key)));
    let id = format!("add-{}", what.to_lowercase());
    view! {
        <fieldset class="entrants">
            <legend>{legend}</legend>
            <p class="hint">{hint}</p>
            <For each=move || rows.get() key=|e| e.key let:entrant>
                <EntrantRow what=what allow_person=allow_person entrant=entrant
                    index=Signal::derive(move || rows.with(|r| r.iter().position(|e| e.key == entrant.key).unwrap_or(0)))
                    can_remove=Signal::derive(move || rows.with(|r| r.len() > min))
                    on_remove=Some(remove)/>
            </For>
            <button type="button" class="secondary small" id=id disabled=move || rows.with(|r| r.len() >= max)
                on:click=move |_| rows.update(|r| r.push(form.row()))>
                {format!("Add a {}", what.to_lowercase())}
            </button>
        </fieldset>
    }
}

/// The plan priced a slice of debates per browser task, the latest change of the form
/// winning: `None` while the price is being worked out.
fn price_in_slices(
    plan: Memo<Result<(TournamentSpec, Vec<Match>), String>>,
) -> RwSignal<Option<Estimate>> {
    let priced = RwSignal::new(None::<Estimate>);
    let pricing = StoredValue::new(0u64);
    Effect::new(move |_| {
        let Ok((spec, matches)) = plan.get() else {
            return;
        };
        let Some(mine) = pricing.try_update_value(|n| {
            *n += 1;
            *n
        }) else {
            return;
        };
        priced.set(None);
        spawn_local(async move {
            let mut total = Estimate::none();
            for part in matches.chunks(PRICED_PER_TASK) {
                total.add(estimate(&spec, part));
                crate::session::browser::BrowserClock.sleep(0).await;
                if pricing.try_get_value() != Some(mine) {
                    return; // the form changed meanwhile
                }
            }
            let _ = priced.try_set(Some(total));
        });
    });
    priced
}

/// Starts the tournament the form describes and opens its screen, or says what is wrong.
fn start_tournament(
    state: AppState,
    form: Form,
    error: RwSignal<Option<String>>,
    starting: RwSignal<bool>,
) {
    if starting.get_untracked() {
        return;
    }
    let Some(s) = state.session_for_start(error) else {
        return;
    };
    // The seed of every judge's blind order.
    let spec = form.spec(js_sys::Math::random().to_bits());
    let spec = match spec.and_then(|s| schedule(&s).map(|_| s)) {
        Ok(spec) => spec,
        Err(e) => {
            error.set(Some(e));
            return;
        }
    };
    starting.set(true);
    spawn_local(async move {
        match TournamentRun::create(s, spec).await {
            Ok(run) => {
                error.set(None);
                state.tournaments.add(run.clone());
                super::screen::run_in_background(state, run.clone());
                navigate(state, Route::Tournament(run.id().to_string()));
                super::super::focus::focus_selector("section.tournament h1");
            }
            Err(e) => {
                starting.set(false);
                error.set(Some(e.to_string()));
            }
        }
    });
}

#[component]
pub fn TournamentSetup() -> impl IntoView {
    let state = expect_context::<AppState>();
    let form = Form::new(state);
    let error = RwSignal::new(None::<String>);
    let starting = RwSignal::new(false);
    // Scheduled once per change of the form; priced in slices, the latest change winning.
    let plan = Memo::new(move |_| {
        form.spec(0)
            .and_then(|spec| schedule(&spec).map(|matches| (spec, matches)))
    });
    let priced = price_in_slices(plan);
    let plan_line = move || -> Result<String, String> {
        plan.with(|p| {
            let (_, matches) = p.as_ref().map_err(Clone::clone)?;
            let counts = format!(
                "{} debates and {} verdicts: ",
                matches.len(),
                judge_calls(matches)
            );
            Ok(match priced.get() {
                Some(e) => counts + &cost_line(&e),
                None => counts + "working out the calls and the cost…",
            })
        })
    };

    let start = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        start_tournament(state, form, error, starting);
    };

    // The priced models in use, each once, with the connection that prices it.
    let priced = Memo::new(move |_| {
        let conns = connections(state);
        form.prices.with(|p| form.draft().priced_models(&conns, p))
    });

    view! {
        <form class="card setup tournament-setup" on:submit=start aria-labelledby="new-tournament">
            <h2 id="new-tournament">"New tournament"</h2>
            <label class="field">
                <span class="label">"Name"</span>
                <input id="tournament-name" placeholder="e.g. Small models on city policy" prop:value=move || form.name.get()
                    on:input=move |ev| form.name.set(event_target_value(&ev))/>
            </label>
            <TournamentFormat form=form/>
            <EntrantList form=form rows=form.contestants what="Contestant" legend="Contestants"
                hint="Two to eight models. Every pairing debates every motion twice, sides swapped."
                min=MIN_CONTESTANTS max=MAX_CONTESTANTS allow_person=false/>
            <MotionsField form=form/>
            <EntrantList form=form rows=form.judges what="Judge" legend="Judges"
                hint="One to five. A judge never judges a debate its own model argues in, and reads the two sides as A and B, names hidden. Choose \"Me\" to judge yourself, blind."
                min=1 max=MAX_JUDGES allow_person=true/>
            <fieldset class="entrants">
                <legend>"Host"</legend>
                <p class="hint">{move || match form.format.get() {
                    FormatId::Duelogic => "Hosts every debate as the Arbiter, and runs its evaluations and checks.",
                    _ => "Moderates every debate and writes its summaries.",
                }}</p>
                <EntrantRow what="Host" allow_person=false entrant=form.host index=Signal::derive(|| 0)
                    can_remove=false on_remove=None/>
            </fieldset>
            <crate::ui::sources_form::SourcesForm sources=form.sources judges_read=form.judges_read/>
            <TournamentCosts form=form priced=priced/>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <div class="row end">
                {move || match plan_line() {
                    Ok(line) => view! { <span class="hint" id="tournament-plan">{line}</span> }.into_any(),
                    Err(why) => view! { <span class="hint warn" id="tournament-plan">{why}</span> }.into_any(),
                }}
                <button type="submit" id="start-tournament" class="primary"
                    disabled=move || !state.ready.get() || starting.get() || plan.with(|p| p.is_err())>"Start tournament"</button>
            </div>
        </form>
    }
}

/// Classic or duelogic, the formats with two sides to win.
#[component]
fn TournamentFormat(form: Form) -> impl IntoView {
    view! {
    <fieldset class="formats">
        <legend>"Format"</legend>
        {[FormatId::Classic, FormatId::Duelogic].into_iter().map(|id| view! {
            <label class="format" class:selected=move || form.format.get() == id>
                <input type="radio" name="tournament-format" value=id.id() prop:checked=move || form.format.get() == id
                    on:change=move |_| form.format.set(id)/>
                <strong>{id.label()}</strong>
                <span>{match id {
                    FormatId::Duelogic => "Two chairs argue from frameworks; the host is the Arbiter.",
                    _ => "Position A against position B; the host moderates.",
                }}</span>
            </label>
        }).collect_view()}
    </fieldset>
    }
}

/// The motions, typed or loaded from a file.
#[component]
fn MotionsField(form: Form) -> impl IntoView {
    let file_note = RwSignal::new(None::<Result<String, String>>);
    let load_motions = move |ev: leptos::ev::Event| {
        spawn_local(async move {
            let text = super::super::import::read_file(&ev, MOTIONS_FILE_BYTES).await;
            match text.and_then(|t| parse_motions(&t)) {
                Ok(list) if list.is_empty() => {
                    file_note.set(Some(Err("The file holds no motion.".into())))
                }
                Ok(list) => {
                    let n = list.len();
                    form.motions.set(list.join("\n"));
                    file_note.set(Some(Ok(format!(
                        "{n} motion{} loaded.",
                        if n == 1 { "" } else { "s" }
                    ))));
                }
                Err(e) => file_note.set(Some(Err(e))),
            }
        });
    };
    view! {
    <label class="field">
        <span class="label">"Motions"</span>
        <textarea id="motions" rows="4" placeholder="One motion a line, or a JSON list"
            prop:value=move || form.motions.get() on:input=move |ev| form.motions.set(event_target_value(&ev))></textarea>
        <span class="hint">{move || form.motions.with(|m| motions_line(m))}</span>
    </label>
    <div class="import-bar">
        <label class="file-pick link">
            "Load motions from a file (.txt or .json)"
            <input type="file" id="motions-file" accept=".txt,.md,.json,text/plain,application/json" on:change=load_motions/>
        </label>
        {move || file_note.get().map(|r| match r {
            Ok(m) => view! { <span class="ok" role="status">{m}</span> }.into_any(),
            Err(e) => view! { <span class="error" role="alert">{e}</span> }.into_any(),
        })}
    </div>
    }
}

/// Prices of the models in use and the tournament's spending cap.
#[component]
fn TournamentCosts(form: Form, priced: Memo<Vec<(String, String)>>) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
    <details class="costs">
        <summary>"Prices and spending cap"</summary>
        <p class="hint">"US dollars per million tokens: input, then output."</p>
        {move || priced.get().into_iter().map(|(model, connection)| {
            let conn = connections(state).into_iter().find(|c| c.id == connection);
            view! { <PriceRow model=model conn=conn prices=form.prices/> }
        }).collect_view()}
        <label class="field">
            <span class="label">"Spending cap for the whole tournament ($, optional)"</span>
            <input id="tournament-cap" type="number" min="0" step="any" placeholder="No cap"
                prop:value=move || form.cap.get() on:input=move |ev| form.cap.set(event_target_value(&ev))/>
        </label>
    </details>
    }
}
