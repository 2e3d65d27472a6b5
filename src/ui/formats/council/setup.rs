//! Setting up a council: the members (two to eight, each named, each on a model of its own
//! or taken by the user), the chair, who analyses, and whether the members revise their
//! answers once before the review. The rules live in
//! `session::format_drafts::council::CouncilDraft`; this binds to it.

use leptos::prelude::*;

use crate::engine::formats::council::{MAX_MEMBERS, MIN_MEMBERS};
use crate::engine::DebateConfig;
use crate::session::format_drafts::council::CouncilDraft;
use crate::ui::fields::{row_field, Bound};
use crate::ui::formats::SetupForm;
use crate::ui::seating::{SeatPicker, Seating};

#[derive(Clone, Copy)]
struct CouncilForm(RwSignal<CouncilDraft>);

pub fn form() -> Box<dyn SetupForm> {
    Box::new(CouncilForm(RwSignal::new(CouncilDraft::default())))
}

impl SetupForm for CouncilForm {
    fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        self.0.with(|d| d.build(topic, seating))
    }

    fn view(&self) -> AnyView {
        let f = self.0;
        // The rows are drawn again only when a member is added or removed, not as a name
        // is typed (which would take the field's focus away).
        let count = Memo::new(move |_| f.with(|d| d.members.len()));
        view! {
            <fieldset class="council-members">
                <legend>{move || format!("Members ({} of {MIN_MEMBERS}–{MAX_MEMBERS}): each answers on its own, then ranks every answer blind", count.get())}</legend>
                {move || (0..count.get()).map(|i| view! { <MemberRow i f/> }).collect_view()}
                <button type="button" id="add-member" class="ghost"
                    disabled=move || !f.with(CouncilDraft::can_add)
                    on:click=move |_| f.update(CouncilDraft::add)>"Add a member"</button>
                <p class="hint">"Giving members different models is the point of a council: models that share training share blind spots."</p>
            </fieldset>
            <div class="grid2">
                <div class="seat-row">
                    <strong>"Chair"</strong>
                    <SeatPicker name=Signal::stored("Chair".to_string())
                        seat=Bound::part(f, |d| d.chair.clone(), |d, p| d.chair = p)/>
                    <small class="hint">"Writes the final answer and the minority report."</small>
                </div>
                <div class="seat-row">
                    <strong>"Analyst"</strong>
                    <SeatPicker name=Signal::stored("Analyst".to_string()) allow_person=false
                        seat=Bound::part(f, |d| d.analyst.clone(), |d, p| d.analyst = p)/>
                    <small class="hint">"Reads the vote of the first answers and checks the final answer against it."</small>
                </div>
                <label class="check"><input type="checkbox" id="second-round" prop:checked=move || f.with(|d| d.second_round)
                    on:change=move |ev| f.update(|d| d.second_round = event_target_checked(&ev))/>
                    "A second round: each member revises its answer after reading the others', then the review ranks the revisions"</label>
            </div>
        }
        .into_any()
    }
}

#[component]
fn MemberRow(i: usize, f: RwSignal<CouncilDraft>) -> impl IntoView {
    let name = Signal::derive(move || f.with(|d| d.name(i)));
    let typed = row_field!(f, members, name, i);
    view! {
        <div class="seat-row council-member">
            <input class="member-name" aria-label=format!("Member {} name", i + 1)
                placeholder=format!("Member {}", i + 1) prop:value=move || typed.get()
                on:input=move |ev| typed.set(event_target_value(&ev))/>
            <SeatPicker name seat=row_field!(f, members, seat, i)/>
            <button type="button" class="ghost remove-member"
                aria-label=move || format!("Remove {}", name.get())
                disabled=move || !f.with(CouncilDraft::can_remove)
                on:click=move |_| f.update(|d| d.remove(i))>"Remove"</button>
        </div>
    }
}
