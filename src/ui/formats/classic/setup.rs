//! Setting up a classic debate: what each position argues, the style, the rounds, scoring
//! and the fact checker, and who sits in each seat (a model of its own, or the user). The
//! rules live in `session::format_drafts::classic::ClassicDraft`; this binds to it.

use leptos::prelude::*;

use crate::engine::config::ClassicStyle;
use crate::engine::DebateConfig;
use crate::session::format_drafts::classic::{ClassicDraft, SEATS};
use crate::ui::fields::{Bound, TextField};
use crate::ui::formats::SetupForm;
use crate::ui::seating::{SeatPicker, Seating};

#[derive(Clone, Copy)]
struct ClassicForm(RwSignal<ClassicDraft>);

pub fn form() -> Box<dyn SetupForm> {
    Box::new(ClassicForm(RwSignal::new(ClassicDraft::default())))
}

impl SetupForm for ClassicForm {
    fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        self.0.with(|d| d.build(topic, seating))
    }

    fn view(&self) -> AnyView {
        let f = self.0;
        let style = move || f.with(|d| d.style);
        view! {
            <div class="grid2">
                <TextField id="stance-a" label="Position A argues" placeholder="In favour of the motion"
                    value=Bound::part(f, |d| d.stance_a.clone(), |d, v| d.stance_a = v)/>
                <TextField id="stance-b" label="Position B argues" placeholder="Against the motion"
                    value=Bound::part(f, |d| d.stance_b.clone(), |d, v| d.stance_b = v)/>
                <label class="field">
                    <span class="label">"Style"</span>
                    <select id="style" prop:value=move || style().id() on:change=move |ev| {
                        if let Some(s) = ClassicStyle::from_id(&event_target_value(&ev)) { f.update(|d| d.style = s) }
                    }>
                        {ClassicStyle::ALL.into_iter().map(|s| view! { <option value=s.id()>{capitalise(s.id())}</option> }).collect_view()}
                    </select>
                    <span class="hint" id="style-structure">{move || style().structure()}</span>
                </label>
                <label class="field">
                    <span class="label">"Rounds of argument"</span>
                    <input id="rounds" type="number" min="1" max="10" prop:value=move || f.with(|d| d.rounds.to_string())
                        on:input=move |ev| f.update(|d| d.set_rounds(&event_target_value(&ev)))/>
                </label>
                // Formal and competitive debates are always scored: the box shows it, ticked
                // and fixed, and says why.
                <label class="check"><input type="checkbox" id="scoring"
                    prop:checked=move || f.with(ClassicDraft::scored)
                    prop:disabled=move || style().always_scored()
                    on:change=move |ev| f.update(|d| d.scoring = event_target_checked(&ev))/>
                    "Score both positions at the end (0–10, weighted by the style)"
                    {move || style().always_scored().then(|| view! {
                        <small class="hint">{format!(" — always, in a {} debate", style().id())}</small>
                    })}
                </label>
                <label class="check"><input type="checkbox" id="fact-checker" prop:checked=move || f.with(|d| d.fact_checker)
                    on:change=move |ev| f.update(|d| d.fact_checker = event_target_checked(&ev))/>"A fact checker checks each turn's claims"</label>
            </div>
            <details class="seats">
                <summary>"Seats: give each seat its own model, or take one yourself"</summary>
                {SEATS.iter().enumerate().map(|(i, (_, name))| view! {
                    <div class="seat-row">
                        <strong>{*name}</strong>
                        <SeatPicker name=Signal::stored(name.to_string())
                            seat=Bound::part(f, move |d| d.seats[i].clone(), move |d, p| d.seats[i] = p)/>
                    </div>
                }).collect_view()}
            </details>
        }
        .into_any()
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}
