//! Setting up a duelogic episode: the chairs (2 to 6) with their frameworks and models, who
//! hosts and who evaluates, accountability, interruptions and the podcast's name. The rules
//! live in `session::format_drafts::duelogic::DuelogicDraft`; this binds to it.

use leptos::prelude::*;

use crate::engine::config::Accountability;
use crate::engine::DebateConfig;
use crate::session::format_drafts::duelogic::{DuelogicDraft, FrameworkDraft};
use crate::ui::fields::{row_field, Bound};
use crate::ui::formats::SetupForm;
use crate::ui::seating::{ConnectionSelect, SeatPicker, Seating};

#[derive(Clone, Copy)]
struct DuelogicForm(RwSignal<DuelogicDraft>);

pub fn form() -> Box<dyn SetupForm> {
    let custom = crate::session::saved::load_frameworks();
    Box::new(DuelogicForm(RwSignal::new(DuelogicDraft::new(custom))))
}

impl SetupForm for DuelogicForm {
    fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        self.0.with(|d| d.build(topic, seating))
    }

    fn view(&self) -> AnyView {
        view! { <DuelogicSetup f=self.0/> }.into_any()
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
fn ChairRow(i: usize, f: RwSignal<DuelogicDraft>) -> impl IntoView {
    let n = i + 1;
    let (name, framework) = (
        row_field!(f, chairs, name, i),
        row_field!(f, chairs, framework, i),
    );
    // The options change only when a framework is added, not on every keystroke in the form.
    let frameworks = Memo::new(move |_| f.with(DuelogicDraft::frameworks));
    view! {
        <div class="chair-setup">
            <input class="chair-name" aria-label=format!("Chair {n} name") prop:value=move || name.get()
                on:input=move |ev| name.set(event_target_value(&ev))/>
            <select aria-label=format!("Chair {n} framework") prop:value=move || framework.get()
                on:change=move |ev| framework.set(event_target_value(&ev))>
                {move || frameworks.get().into_iter().map(|fw| view! { <option value=fw.id.clone() title=fw.description>{fw.name}</option> }).collect_view()}
            </select>
            <SeatPicker name=Signal::stored(format!("Chair {n}")) seat=row_field!(f, chairs, seat, i)/>
            <button type="button" class="link" aria-label=format!("Remove chair {n}")
                disabled=move || !f.with(DuelogicDraft::can_remove)
                on:click=move |_| f.update(|d| d.remove(i))>"Remove"</button>
        </div>
    }
}

#[component]
fn DuelogicSetup(f: RwSignal<DuelogicDraft>) -> impl IntoView {
    // Rows are drawn again only when a chair is added or removed, not as a name is typed.
    let chairs = Memo::new(move |_| f.with(|d| d.chairs.len()));
    let number = move |set: fn(&mut DuelogicDraft, &str)| {
        move |ev: leptos::ev::Event| f.update(|d| set(d, &event_target_value(&ev)))
    };
    let accountability = move || f.with(|d| d.options.accountability);
    let aggressiveness = move || f.with(|d| d.options.aggressiveness);
    let text = |read: fn(&DuelogicDraft) -> &String,
                write: fn(&mut DuelogicDraft) -> &mut String| {
        Bound::part(f, move |d| read(d).clone(), move |d, v| *write(d) = v)
    };
    let (show_name, context) = (
        text(|d| &d.options.show_name, |d| &mut d.options.show_name),
        text(|d| &d.options.context, |d| &mut d.options.context),
    );
    view! {
        <div class="duelogic-setup">
            <fieldset class="chairs">
                <legend>"Chairs (2 to 6), in speaking order"</legend>
                {move || (0..chairs.get()).map(|i| view! { <ChairRow i f/> }).collect_view()}
                <button type="button" class="secondary" id="add-chair" on:click=move |_| f.update(DuelogicDraft::add)
                    disabled=move || !f.with(DuelogicDraft::can_add)>"Add a chair"</button>
            </fieldset>
            <div class="grid2">
                <ConnectionSelect id="arbiter-connection" label="The Arbiter (host) runs on" default="Same as above"
                    value=text(|d| &d.arbiter_connection, |d| &mut d.arbiter_connection)/>
                <ConnectionSelect id="analyst-connection" label="Evaluations and checks run on" default="The Arbiter's model"
                    value=text(|d| &d.analyst_connection, |d| &mut d.analyst_connection)/>
                <label class="field">
                    <span class="label">"Accountability"</span>
                    <select id="accountability" prop:value=move || accountability_id(accountability())
                        on:change=move |ev| f.update(|d| d.options.accountability = match event_target_value(&ev).as_str() {
                            "relaxed" => Accountability::Relaxed,
                            "strict" => Accountability::Strict,
                            _ => Accountability::Moderate,
                        })>
                        <option value="relaxed">"Relaxed"</option>
                        <option value="moderate">"Moderate"</option>
                        <option value="strict">"Strict"</option>
                    </select>
                    <span class="hint">{move || match accountability() {
                        Accountability::Relaxed => "No evaluations, no interjections.",
                        Accountability::Moderate => "Every answer scored; the Arbiter steps in on major violations (adherence under 40).",
                        Accountability::Strict => "Every answer scored; the Arbiter steps in on any violation or adherence under 60.",
                    }}</span>
                </label>
                <label class="field">
                    <span class="label">"Rounds"</span>
                    <input id="duelogic-rounds" type="number" min="1" max="10" prop:value=move || f.with(|d| d.options.rounds.to_string())
                        on:input=number(DuelogicDraft::set_rounds)/>
                </label>
            </div>
            <fieldset class="interruptions">
                <legend>"Interruptions"</legend>
                <label class="check"><input type="checkbox" id="interruptions" prop:checked=move || f.with(|d| d.options.interruptions)
                    on:change=move |ev| f.update(|d| d.options.interruptions = event_target_checked(&ev))/>"Chairs may be interrupted"</label>
                <label class="check"><input type="checkbox" prop:checked=move || f.with(|d| d.options.chair_interruptions)
                    on:change=move |ev| f.update(|d| d.options.chair_interruptions = event_target_checked(&ev))/>"Chairs may interrupt each other"</label>
                <label class="field">
                    <span class="label">{move || format!("Aggressiveness: {} of 5", aggressiveness())}</span>
                    <input id="aggressiveness" type="range" min="1" max="5" prop:value=move || aggressiveness().to_string()
                        on:input=number(DuelogicDraft::set_aggressiveness)/>
                </label>
                <label class="field">
                    <span class="label">"Cooldown per chair (seconds)"</span>
                    <input id="cooldown" type="number" min="0" max="3600" prop:value=move || f.with(|d| d.options.cooldown_s.to_string())
                        on:input=number(DuelogicDraft::set_cooldown)/>
                </label>
            </fieldset>
            <NewFramework f/>
            <details class="podcast">
                <summary>"Podcast: show name, episode, context"</summary>
                <div class="grid2">
                    <label class="field"><span class="label">"Show name"</span>
                        <input id="show-name" prop:value=move || show_name.get() on:input=move |ev| show_name.set(event_target_value(&ev))/></label>
                    <label class="field"><span class="label">"Episode"</span>
                        <input id="episode" type="number" min="1" prop:value=move || f.with(|d| d.options.episode.to_string())
                            on:input=number(DuelogicDraft::set_episode)/></label>
                </div>
                <label class="field"><span class="label">"Why it matters now (optional)"</span>
                    <textarea id="proposition-context" rows="2" prop:value=move || context.get()
                        on:input=move |ev| context.set(event_target_value(&ev))></textarea></label>
                <label class="check"><input type="checkbox" prop:checked=move || f.with(|d| d.options.call_to_action)
                    on:change=move |ev| f.update(|d| d.options.call_to_action = event_target_checked(&ev))/>"End with a call to subscribe and share"</label>
            </details>
        </div>
    }
}

/// "Add your own framework": checked like the catalogue's, kept on this device, and
/// offered to every chair.
#[component]
fn NewFramework(f: RwSignal<DuelogicDraft>) -> impl IntoView {
    let draft = RwSignal::new(FrameworkDraft::default());
    let problem = RwSignal::new(None::<String>);
    let open = RwSignal::new(false);
    let save = move |_| match draft.with_untracked(FrameworkDraft::framework) {
        Ok(fw) => {
            problem.set(None);
            f.update(|d| d.keep(fw));
            f.with_untracked(|d| crate::session::saved::save_frameworks(&d.options.frameworks));
            draft.set(FrameworkDraft::default());
            open.set(false);
        }
        Err(e) => problem.set(Some(e)),
    };
    let field = move |label: &'static str,
                      id: &'static str,
                      rows: u32,
                      read: fn(&FrameworkDraft) -> &String,
                      write: fn(&mut FrameworkDraft) -> &mut String| {
        view! {
            <label class="field"><span class="label">{label}</span>
                <textarea id=id rows=rows.to_string() prop:value=move || draft.with(|d| read(d).clone())
                    on:input=move |ev| draft.update(|d| *write(d) = event_target_value(&ev))></textarea></label>
        }
    };
    view! {
        <details class="new-framework" prop:open=move || open.get()
            on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary>"Add your own framework"</summary>
            {field("Name", "fw-name", 1, |d| &d.name, |d| &mut d.name)}
            {field("What it holds", "fw-description", 2, |d| &d.description, |d| &mut d.description)}
            {field("Its core question", "fw-question", 1, |d| &d.question, |d| &mut d.question)}
            {field("Strengths a chair may lean on (one per line)", "fw-strengths", 2, |d| &d.strengths, |d| &mut d.strengths)}
            {field("Blind spots a chair must admit (one per line)", "fw-blind-spots", 2, |d| &d.blind_spots, |d| &mut d.blind_spots)}
            {move || problem.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <button type="button" class="secondary" id="fw-save" on:click=save>"Add the framework"</button>
        </details>
    }
}
