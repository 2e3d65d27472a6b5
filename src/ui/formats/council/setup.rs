//! Setting up a council: the members (two to eight, each named, each on a model of its own
//! or taken by the user), the chair, who analyses, and whether the members revise their
//! answers once before the review.

use leptos::prelude::*;

use crate::engine::config::CouncilOptions;
use crate::engine::formats::council::{self, MAX_MEMBERS, MIN_MEMBERS};
use crate::engine::formats::defaults::COUNCIL_MEMBERS;
use crate::engine::DebateConfig;
use crate::ui::formats::SetupForm;
use crate::ui::seating::{SeatChoice, SeatPicker, Seating};

#[derive(Clone, Copy)]
struct Member {
    name: RwSignal<String>,
    seat: SeatChoice,
}

impl Member {
    fn new() -> Self {
        Member {
            name: RwSignal::new(String::new()),
            seat: SeatChoice::new(),
        }
    }
}

#[derive(Clone, Copy)]
struct CouncilForm {
    members: RwSignal<Vec<Member>>,
    chair: SeatChoice,
    analyst: SeatChoice,
    second_round: RwSignal<bool>,
}

pub fn form() -> Box<dyn SetupForm> {
    let d = CouncilOptions::default();
    Box::new(CouncilForm {
        members: RwSignal::new((0..COUNCIL_MEMBERS).map(|_| Member::new()).collect()),
        chair: SeatChoice::new(),
        analyst: SeatChoice::new(),
        second_round: RwSignal::new(d.second_round),
    })
}

impl SetupForm for CouncilForm {
    fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        council::new_config(
            topic,
            self.members
                .get()
                .iter()
                .map(|m| (m.name.get(), seating.seat(&m.seat.pick())))
                .collect(),
            seating.seat(&self.chair.pick()),
            seating.seat(&self.analyst.pick()),
            CouncilOptions {
                second_round: self.second_round.get(),
                ..Default::default()
            },
        )
    }

    fn view(&self) -> AnyView {
        let f = *self;
        let count = move || f.members.with(Vec::len);
        let full = Signal::derive(move || count() >= MAX_MEMBERS);
        view! {
            <fieldset class="council-members">
                <legend>{move || format!("Members ({} of {MIN_MEMBERS}–{MAX_MEMBERS}): each answers on its own, then ranks every answer blind", count())}</legend>
                {move || f.members.get().into_iter().enumerate().map(|(i, m)| {
                    let placeholder = format!("Member {}", i + 1);
                    let name = Signal::derive(move || {
                        let n = m.name.get();
                        if n.trim().is_empty() { format!("Member {}", i + 1) } else { n }
                    });
                    view! {
                        <div class="seat-row council-member">
                            <input class="member-name" aria-label=format!("Member {} name", i + 1)
                                placeholder=placeholder prop:value=move || m.name.get()
                                on:input=move |ev| m.name.set(event_target_value(&ev))/>
                            <SeatPicker name=name seat=m.seat/>
                            <button type="button" class="ghost remove-member"
                                aria-label=move || format!("Remove {}", name.get())
                                disabled=move || count() <= MIN_MEMBERS
                                on:click=move |_| f.members.update(|all| { if all.len() > MIN_MEMBERS { all.remove(i); } })>"Remove"</button>
                        </div>
                    }
                }).collect_view()}
                <button type="button" id="add-member" class="ghost"
                    disabled=full
                    on:click=move |_| f.members.update(|all| if all.len() < MAX_MEMBERS { all.push(Member::new()) })>"Add a member"</button>
                <p class="hint">"Giving members different models is the point of a council: models that share training share blind spots."</p>
            </fieldset>
            <div class="grid2">
                <div class="seat-row">
                    <strong>"Chair"</strong>
                    <SeatPicker name=Signal::stored("Chair".to_string()) seat=f.chair/>
                    <small class="hint">"Writes the final answer and the minority report."</small>
                </div>
                <div class="seat-row">
                    <strong>"Analyst"</strong>
                    <SeatPicker name=Signal::stored("Analyst".to_string()) seat=f.analyst allow_person=false/>
                    <small class="hint">"Reads the vote of the first answers and checks the final answer against it."</small>
                </div>
                <label class="check"><input type="checkbox" id="second-round" prop:checked=move || f.second_round.get()
                    on:change=move |ev| f.second_round.set(event_target_checked(&ev))/>
                    "A second round: each member revises its answer after reading the others', then the review ranks the revisions"</label>
            </div>
        }
        .into_any()
    }
}
