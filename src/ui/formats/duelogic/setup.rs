//! Setting up a duelogic episode: the chairs (2 to 6) with their frameworks and models, who
//! hosts and who evaluates, accountability, interruptions and the podcast's name.

use leptos::prelude::*;

use crate::engine::config::{Accountability, DuelogicOptions, Framework};
use crate::engine::formats::defaults::DUELOGIC_FRAMEWORKS as DEFAULT_FRAMEWORKS;
use crate::engine::formats::duelogic::{self, frameworks};
use crate::engine::DebateConfig;
use crate::ui::formats::SetupForm;
use crate::ui::seating::{ConnectionSelect, SeatChoice, SeatPicker, Seating};

/// One chair as the form holds it: its name, framework, and who sits in it (a model, or
/// the user, who then types the chair's turns).
#[derive(Clone, Copy)]
pub struct ChairChoice {
    pub name: RwSignal<String>,
    pub framework: RwSignal<String>,
    pub seat: SeatChoice,
}

impl ChairChoice {
    fn new(n: usize, framework: &str) -> Self {
        ChairChoice {
            name: RwSignal::new(format!("Chair {n}")),
            framework: RwSignal::new(framework.to_string()),
            seat: SeatChoice::new(),
        }
    }
}

#[derive(Clone, Copy)]
pub struct DuelogicForm {
    pub chairs: RwSignal<Vec<ChairChoice>>,
    /// The Arbiter's connection and model (empty: the debate's).
    pub arbiter_connection: RwSignal<String>,
    pub arbiter_model: RwSignal<String>,
    /// Who evaluates (empty: the Arbiter).
    pub analyst_connection: RwSignal<String>,
    pub analyst_model: RwSignal<String>,
    pub accountability: RwSignal<Accountability>,
    pub rounds: RwSignal<u32>,
    pub interruptions: RwSignal<bool>,
    pub chair_interruptions: RwSignal<bool>,
    pub aggressiveness: RwSignal<u8>,
    pub cooldown_s: RwSignal<u32>,
    pub show_name: RwSignal<String>,
    pub episode: RwSignal<u32>,
    pub context: RwSignal<String>,
    pub call_to_action: RwSignal<bool>,
    /// The user's own frameworks, kept on this device.
    pub custom: RwSignal<Vec<Framework>>,
}

impl DuelogicForm {
    pub fn new() -> Self {
        let d = DuelogicOptions::default();
        DuelogicForm {
            chairs: RwSignal::new(vec![
                ChairChoice::new(1, DEFAULT_FRAMEWORKS[0]),
                ChairChoice::new(2, DEFAULT_FRAMEWORKS[1]),
            ]),
            arbiter_connection: RwSignal::new(String::new()),
            arbiter_model: RwSignal::new(String::new()),
            analyst_connection: RwSignal::new(String::new()),
            analyst_model: RwSignal::new(String::new()),
            accountability: RwSignal::new(d.accountability),
            rounds: RwSignal::new(d.rounds),
            interruptions: RwSignal::new(d.interruptions),
            chair_interruptions: RwSignal::new(d.chair_interruptions),
            aggressiveness: RwSignal::new(d.aggressiveness),
            cooldown_s: RwSignal::new(d.cooldown_s),
            show_name: RwSignal::new(d.show_name),
            episode: RwSignal::new(d.episode),
            context: RwSignal::new(String::new()),
            call_to_action: RwSignal::new(false),
            custom: RwSignal::new(crate::session::saved::load_frameworks()),
        }
    }

    /// The options the form describes (chairs are added by the config builder).
    pub fn options(&self) -> DuelogicOptions {
        DuelogicOptions {
            chairs: Vec::new(),
            frameworks: self.custom.get(),
            context: self.context.get(),
            call_to_action: self.call_to_action.get(),
            rounds: self.rounds.get(),
            accountability: self.accountability.get(),
            interruptions: self.interruptions.get(),
            chair_interruptions: self.chair_interruptions.get(),
            aggressiveness: self.aggressiveness.get(),
            cooldown_s: self.cooldown_s.get(),
            show_name: self.show_name.get(),
            episode: self.episode.get(),
        }
    }
}

pub fn form() -> Box<dyn SetupForm> {
    Box::new(DuelogicForm::new())
}

impl SetupForm for DuelogicForm {
    fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        let chairs = self.chairs.with(|c| {
            c.iter()
                .map(|c| {
                    (
                        c.name.get(),
                        c.framework.get(),
                        seating.seat(&c.seat.pick()),
                    )
                })
                .collect()
        });
        let arbiter =
            seating.participant(&self.arbiter_connection.get(), &self.arbiter_model.get());
        let analyst = (!self.analyst_connection.get().is_empty()).then(|| {
            seating.participant(&self.analyst_connection.get(), &self.analyst_model.get())
        });
        duelogic::new_config(topic, chairs, arbiter, analyst, self.options())
    }

    fn view(&self) -> AnyView {
        view! { <DuelogicSetup form=*self/> }.into_any()
    }
}

fn accountability_id(a: Accountability) -> &'static str {
    match a {
        Accountability::Relaxed => "relaxed",
        Accountability::Moderate => "moderate",
        Accountability::Strict => "strict",
    }
}

#[component]
fn ChairRow(i: usize, chair: ChairChoice, form: DuelogicForm) -> impl IntoView {
    let n = i + 1;
    let all = move || {
        let mut all = form.custom.get();
        all.extend(frameworks::catalogue());
        all
    };
    view! {
        <div class="chair-setup">
            <input class="chair-name" aria-label=format!("Chair {n} name") prop:value=move || chair.name.get()
                on:input=move |ev| chair.name.set(event_target_value(&ev))/>
            <select aria-label=format!("Chair {n} framework") prop:value=move || chair.framework.get()
                on:change=move |ev| chair.framework.set(event_target_value(&ev))>
                {move || all().into_iter().map(|f| view! { <option value=f.id.clone() title=f.description>{f.name}</option> }).collect_view()}
            </select>
            <SeatPicker name=Signal::stored(format!("Chair {n}")) seat=chair.seat/>
            <button type="button" class="link" aria-label=format!("Remove chair {n}")
                disabled=move || form.chairs.with(|c| c.len() <= 2)
                on:click=move |_| form.chairs.update(|c| { if c.len() > 2 { c.remove(i); } })>"Remove"</button>
        </div>
    }
}

#[component]
fn DuelogicSetup(form: DuelogicForm) -> impl IntoView {
    let add = move |_| {
        form.chairs.update(|c| {
            if c.len() < 6 {
                let n = c.len();
                c.push(ChairChoice::new(
                    n + 1,
                    DEFAULT_FRAMEWORKS[n % DEFAULT_FRAMEWORKS.len()],
                ));
            }
        })
    };
    let number = |s: RwSignal<u32>, lo: u32, hi: u32| {
        move |ev: leptos::ev::Event| {
            if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                s.set(n.clamp(lo, hi))
            }
        }
    };
    view! {
        <div class="duelogic-setup">
            <fieldset class="chairs">
                <legend>"Chairs (2 to 6), in speaking order"</legend>
                {move || form.chairs.get().into_iter().enumerate().map(|(i, chair)| view! {
                    <ChairRow i=i chair=chair form=form/>
                }).collect_view()}
                <button type="button" class="secondary" id="add-chair" on:click=add
                    disabled=move || form.chairs.with(|c| c.len() >= 6)>"Add a chair"</button>
            </fieldset>
            <div class="grid2">
                <ConnectionSelect id="arbiter-connection" label="The Arbiter (host) runs on"
                    default="Same as above" value=form.arbiter_connection/>
                <ConnectionSelect id="analyst-connection" label="Evaluations and checks run on"
                    default="The Arbiter's model" value=form.analyst_connection/>
                <label class="field">
                    <span class="label">"Accountability"</span>
                    <select id="accountability" prop:value=move || accountability_id(form.accountability.get())
                        on:change=move |ev| form.accountability.set(match event_target_value(&ev).as_str() {
                            "relaxed" => Accountability::Relaxed,
                            "strict" => Accountability::Strict,
                            _ => Accountability::Moderate,
                        })>
                        <option value="relaxed">"Relaxed"</option>
                        <option value="moderate">"Moderate"</option>
                        <option value="strict">"Strict"</option>
                    </select>
                    <span class="hint">{move || match form.accountability.get() {
                        Accountability::Relaxed => "No evaluations, no interjections.",
                        Accountability::Moderate => "Every answer scored; the Arbiter steps in on major violations (adherence under 40).",
                        Accountability::Strict => "Every answer scored; the Arbiter steps in on any violation or adherence under 60.",
                    }}</span>
                </label>
                <label class="field">
                    <span class="label">"Rounds"</span>
                    <input id="duelogic-rounds" type="number" min="1" max="10" prop:value=move || form.rounds.get().to_string()
                        on:input=number(form.rounds, 1, 10)/>
                </label>
            </div>
            <fieldset class="interruptions">
                <legend>"Interruptions"</legend>
                <label class="check"><input type="checkbox" id="interruptions" prop:checked=move || form.interruptions.get()
                    on:change=move |ev| form.interruptions.set(event_target_checked(&ev))/>"Chairs may be interrupted"</label>
                <label class="check"><input type="checkbox" prop:checked=move || form.chair_interruptions.get()
                    on:change=move |ev| form.chair_interruptions.set(event_target_checked(&ev))/>"Chairs may interrupt each other"</label>
                <label class="field">
                    <span class="label">{move || format!("Aggressiveness: {} of 5", form.aggressiveness.get())}</span>
                    <input id="aggressiveness" type="range" min="1" max="5" prop:value=move || form.aggressiveness.get().to_string()
                        on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse::<u8>() { form.aggressiveness.set(n.clamp(1, 5)) } }/>
                </label>
                <label class="field">
                    <span class="label">"Cooldown per chair (seconds)"</span>
                    <input id="cooldown" type="number" min="0" max="3600" prop:value=move || form.cooldown_s.get().to_string()
                        on:input=number(form.cooldown_s, 0, 3600)/>
                </label>
            </fieldset>
            <NewFramework form=form/>
            <details class="podcast">
                <summary>"Podcast: show name, episode, context"</summary>
                <div class="grid2">
                    <label class="field"><span class="label">"Show name"</span>
                        <input id="show-name" prop:value=move || form.show_name.get() on:input=move |ev| form.show_name.set(event_target_value(&ev))/></label>
                    <label class="field"><span class="label">"Episode"</span>
                        <input id="episode" type="number" min="1" prop:value=move || form.episode.get().to_string()
                            on:input=number(form.episode, 1, 99_999)/></label>
                </div>
                <label class="field"><span class="label">"Why it matters now (optional)"</span>
                    <textarea id="proposition-context" rows="2" prop:value=move || form.context.get()
                        on:input=move |ev| form.context.set(event_target_value(&ev))></textarea></label>
                <label class="check"><input type="checkbox" prop:checked=move || form.call_to_action.get()
                    on:change=move |ev| form.call_to_action.set(event_target_checked(&ev))/>"End with a call to subscribe and share"</label>
            </details>
        </div>
    }
}

/// "Add your own framework": checked like the catalogue's, kept on this device, and
/// offered to every chair.
#[component]
fn NewFramework(form: DuelogicForm) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let description = RwSignal::new(String::new());
    let question = RwSignal::new(String::new());
    let strengths = RwSignal::new(String::new());
    let blind_spots = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let open = RwSignal::new(false);
    let lines = |s: String| -> Vec<String> {
        s.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    };
    let save = move |_| {
        let n = name.get_untracked().trim().to_string();
        let id: String = format!(
            "own-{}",
            n.chars()
                .map(|c| if c.is_alphanumeric() { c } else { '-' })
                .collect::<String>()
        );
        let f = Framework {
            id,
            name: n,
            description: description.get_untracked().trim().to_string(),
            core_question: question.get_untracked().trim().to_string(),
            strengths: lines(strengths.get_untracked()),
            blind_spots: lines(blind_spots.get_untracked()),
        };
        if let Err(e) = frameworks::validate(&f) {
            problem.set(Some(e));
            return;
        }
        problem.set(None);
        form.custom.update(|all| {
            all.retain(|x| x.id != f.id);
            all.push(f);
        });
        form.custom
            .with_untracked(|all| crate::session::saved::save_frameworks(all));
        for s in [name, description, question, strengths, blind_spots] {
            s.set(String::new());
        }
        open.set(false);
    };
    let field = |label: &'static str, id: &'static str, value: RwSignal<String>, rows: u32| {
        view! {
            <label class="field"><span class="label">{label}</span>
                <textarea id=id rows=rows.to_string() prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))></textarea></label>
        }
    };
    view! {
        <details class="new-framework" prop:open=move || open.get()
            on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary>"Add your own framework"</summary>
            {field("Name", "fw-name", name, 1)}
            {field("What it holds", "fw-description", description, 2)}
            {field("Its core question", "fw-question", question, 1)}
            {field("Strengths a chair may lean on (one per line)", "fw-strengths", strengths, 2)}
            {field("Blind spots a chair must admit (one per line)", "fw-blind-spots", blind_spots, 2)}
            {move || problem.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <button type="button" class="secondary" id="fw-save" on:click=save>"Add the framework"</button>
        </details>
    }
}
