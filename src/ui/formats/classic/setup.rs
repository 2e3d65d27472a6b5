//! Setting up a classic debate: what each position argues, the style, the rounds, scoring
//! and the fact checker, and who sits in each seat (a model of its own, or the user).

use leptos::prelude::*;

use crate::engine::config::{ClassicOptions, ClassicStyle};
use crate::engine::formats::classic;
use crate::engine::DebateConfig;
use crate::ui::fields::TextField;
use crate::ui::formats::SetupForm;
use crate::ui::seating::{SeatChoice, SeatPicker, Seating};

/// The seats a classic debate always has, as the form names them.
const SEATS: [(&str, &str); 3] = [
    (classic::MODERATOR, "Moderator"),
    (classic::POSITION_A, "Position A"),
    (classic::POSITION_B, "Position B"),
];

#[derive(Clone, Copy)]
struct ClassicForm {
    stance_a: RwSignal<String>,
    stance_b: RwSignal<String>,
    style: RwSignal<ClassicStyle>,
    rounds: RwSignal<u32>,
    fact_checker: RwSignal<bool>,
    scoring: RwSignal<bool>,
    seats: [SeatChoice; 3],
}

pub fn form() -> Box<dyn SetupForm> {
    let d = ClassicOptions::default();
    Box::new(ClassicForm {
        stance_a: RwSignal::new(String::new()),
        stance_b: RwSignal::new(String::new()),
        style: RwSignal::new(d.style),
        rounds: RwSignal::new(d.rounds),
        fact_checker: RwSignal::new(d.fact_checker),
        scoring: RwSignal::new(d.scoring),
        seats: [SeatChoice::new(), SeatChoice::new(), SeatChoice::new()],
    })
}

impl SetupForm for ClassicForm {
    fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        let options = ClassicOptions {
            rounds: self.rounds.get(),
            style: self.style.get(),
            fact_checker: self.fact_checker.get(),
            scoring: self.scoring.get(),
            ..Default::default()
        };
        let seats = self.seats;
        classic::new_config(
            topic,
            &self.stance_a.get(),
            &self.stance_b.get(),
            options,
            |id| match SEATS.iter().position(|(s, _)| *s == id) {
                Some(i) => seating.seat(&seats[i].pick()),
                // The fact checker runs on the debate's connection.
                None => seating.participant("", ""),
            },
        )
    }

    fn view(&self) -> AnyView {
        let f = *self;
        view! {
            <div class="grid2">
                <TextField id="stance-a" label="Position A argues" placeholder="In favour of the motion" value=f.stance_a/>
                <TextField id="stance-b" label="Position B argues" placeholder="Against the motion" value=f.stance_b/>
                <label class="field">
                    <span class="label">"Style"</span>
                    <select id="style" prop:value=move || f.style.get().id() on:change=move |ev| {
                        if let Some(s) = ClassicStyle::from_id(&event_target_value(&ev)) { f.style.set(s) }
                    }>
                        {ClassicStyle::ALL.into_iter().map(|s| view! { <option value=s.id()>{capitalise(s.id())}</option> }).collect_view()}
                    </select>
                    <span class="hint" id="style-structure">{move || f.style.get().structure()}</span>
                </label>
                <label class="field">
                    <span class="label">"Rounds of argument"</span>
                    <input id="rounds" type="number" min="1" max="10" prop:value=move || f.rounds.get().to_string()
                        on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse::<u32>() { f.rounds.set(n.clamp(1, 10)) } }/>
                </label>
                // Formal and competitive debates are always scored: the box shows it, ticked
                // and fixed, and says why.
                <label class="check"><input type="checkbox" id="scoring"
                    prop:checked=move || f.scoring.get() || f.style.get().always_scored()
                    prop:disabled=move || f.style.get().always_scored()
                    on:change=move |ev| f.scoring.set(event_target_checked(&ev))/>
                    "Score both positions at the end (0–10, weighted by the style)"
                    {move || f.style.get().always_scored().then(|| view! {
                        <small class="hint">{format!(" — always, in a {} debate", f.style.get().id())}</small>
                    })}
                </label>
                <label class="check"><input type="checkbox" id="fact-checker" prop:checked=move || f.fact_checker.get()
                    on:change=move |ev| f.fact_checker.set(event_target_checked(&ev))/>"A fact checker checks each turn's claims"</label>
            </div>
            <details class="seats">
                <summary>"Seats: give each seat its own model, or take one yourself"</summary>
                {SEATS.iter().zip(f.seats).map(|((_, name), seat)| view! {
                    <div class="seat-row">
                        <strong>{*name}</strong>
                        <SeatPicker name=Signal::stored(name.to_string()) seat=seat/>
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
