//! A person's verdicts: each finished debate they judge, shown blind as a model judge is
//! given it (the sides as A and B in the order drawn for them, model names masked, each
//! turn under its own label), with A, B, a tie or "could not be judged", and a reason.
//! A card keeps what was typed in it while other debates finish and the list is redrawn.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::super::markdown::Markdown;
use super::super::state::AppState;
use crate::engine::config::Participant;
use crate::engine::event::config_of;
use crate::engine::tournament::progress::Tournament;
use crate::engine::tournament::schedule::shown_first;
use crate::engine::tournament::verdict::{blind, BlindSide, Decision};
use crate::session::tournament::TournamentRun;

/// Cards shown at once: a person judges one debate at a time, and hundreds of cards would
/// only slow the page.
const SHOWN: usize = 5;

/// A verdict waiting for person `judge` on match `i`.
#[derive(Clone, Copy, PartialEq)]
struct Waiting {
    i: usize,
    judge: usize,
}

fn waiting(t: &Tournament) -> Vec<Waiting> {
    let mut out = Vec::new();
    for (i, (m, p)) in t.matches.iter().zip(&t.progress).enumerate() {
        if !p.completed() {
            continue;
        }
        for &j in &m.judges {
            if t.spec.judges[j] == Participant::Human && !p.votes.iter().any(|v| v.judge == j) {
                out.push(Waiting { i, judge: j });
            }
        }
    }
    out
}

/// What a card's form holds, kept by match so a redrawn list does not lose it.
#[derive(Clone, Copy)]
struct Draft {
    key: (usize, usize),
    choice: RwSignal<String>,
    reason: RwSignal<String>,
}

fn side_view(letter: &'static str, side: BlindSide) -> impl IntoView {
    view! {
        <section class="blind-side" aria-label=format!("Debater {letter}")>
            <h4>{format!("Debater {letter}")}</h4>
            <p class="hint">{format!("Argued: {}", side.stance)}</p>
            {if side.turns.is_empty() {
                view! { <p class="hint">"(said nothing)"</p> }.into_any()
            } else {
                side.turns.into_iter().map(|t| view! {
                    <div class="blind-turn">
                        <h5 class="label">{t.label}</h5>
                        <Markdown text=t.text/>
                    </div>
                }).collect_view().into_any()
            }}
        </section>
    }
}

#[component]
fn VerdictCard(
    run: Rc<TournamentRun>,
    tour: RwSignal<Option<Tournament>>,
    w: Waiting,
    draft: Draft,
    number: usize,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let sides = RwSignal::new(None::<Result<[BlindSide; 2], String>>);
    let sending = RwSignal::new(false);
    let refused = RwSignal::new(None::<String>);
    let Some(t) = tour.get_untracked() else {
        return ().into_any();
    };
    let m = t.matches[w.i].clone();
    let motion = t.spec.motions[m.motion].clone();
    let shown = shown_first(t.spec.seed, &m.id, w.judge);
    let debate = t.progress[w.i].debate_id.clone();
    if let (Some(s), Some(debate)) = (state.session(), debate) {
        let spec = t.spec.clone();
        spawn_local(async move {
            let read = match s.load(&debate).await {
                Ok(Some(d)) => match config_of(&d.events) {
                    Some(c) => Ok(blind(&spec, c, &d.events, shown)),
                    None => Err("This debate's log has no start.".to_string()),
                },
                Ok(None) => Err("This debate is no longer stored in this browser.".into()),
                Err(e) => Err(format!("This debate could not be read: {e}")),
            };
            let _ = sides.try_set(Some(read));
        });
    }
    let give = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let decision = match draft.choice.get_untracked().as_str() {
            "a" => Decision::Side(shown),
            "b" => Decision::Side(1 - shown),
            "tie" => Decision::Tie,
            "none" => Decision::Unjudgeable,
            _ => {
                refused.set(Some(
                    "Choose A, B, a tie, or that it could not be judged.".into(),
                ));
                return;
            }
        };
        let run = run.clone();
        let reason = draft.reason.get_untracked().trim().to_string();
        sending.set(true);
        spawn_local(async move {
            if let Err(e) = run.decide(w.i, w.judge, decision, reason).await {
                let _ = refused.try_set(Some(e.to_string()));
                let _ = sending.try_set(false);
            }
        });
    };
    let choice = |value: &'static str, label: &'static str| {
        view! {
            <label class="check">
                <input type="radio" name=format!("verdict-{}-{}", w.i, w.judge) value=value
                    prop:checked=move || draft.choice.get() == value on:change=move |_| draft.choice.set(value.to_string())/>
                {label}
            </label>
        }
    };
    view! {
        <article class="card verdict-card" data-match=m.id.clone() aria-labelledby=format!("verdict-title-{}", m.id)>
            <h3 id=format!("verdict-title-{}", m.id)>{format!("Debate {number}: {motion}")}</h3>
            {move || match sides.get() {
                None => view! { <p class="hint">"Reading the debate…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="error" role="alert">{e}</p> }.into_any(),
                Some(Ok([a, b])) => view! {
                    <div class="blind-sides">{side_view("A", a)}{side_view("B", b)}</div>
                }.into_any(),
            }}
            <form class="verdict-form" on:submit=give>
                <fieldset>
                    <legend>"Who argued better?"</legend>
                    {choice("a", "A")}
                    {choice("b", "B")}
                    {choice("tie", "A tie: I cannot separate them")}
                    {choice("none", "This debate could not be judged")}
                </fieldset>
                <label class="field">
                    <span class="label">"Why (optional)"</span>
                    <textarea rows="2" prop:value=move || draft.reason.get() on:input=move |ev| draft.reason.set(event_target_value(&ev))></textarea>
                </label>
                {move || refused.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                <button type="submit" class="primary" disabled=move || sending.get()>"Give verdict"</button>
            </form>
        </article>
    }
    .into_any()
}

#[component]
pub fn YourVerdicts(run: Rc<TournamentRun>, tour: RwSignal<Option<Tournament>>) -> impl IntoView {
    let list = Memo::new(move |_| tour.with(|t| t.as_ref().map(waiting).unwrap_or_default()));
    let judges_here = tour.with_untracked(|t| {
        t.as_ref()
            .is_some_and(|t| t.spec.judges.contains(&Participant::Human))
    });
    if !judges_here {
        return ().into_any();
    }
    let drafts = StoredValue::new(Vec::<Draft>::new());
    let draft = move |w: Waiting| {
        let key = (w.i, w.judge);
        if let Some(d) = drafts.with_value(|ds| ds.iter().find(|d| d.key == key).copied()) {
            return d;
        }
        let d = Draft {
            key,
            choice: RwSignal::new(String::new()),
            reason: RwSignal::new(String::new()),
        };
        drafts.update_value(|ds| ds.push(d));
        d
    };
    let run = StoredValue::new_local(run);
    let shown = move || list.get().into_iter().take(SHOWN).collect::<Vec<_>>();
    view! {
        <section class="your-verdicts" aria-labelledby="your-verdicts-title">
            <h2 id="your-verdicts-title">{move || match list.with(Vec::len) {
                0 if tour.with(|t| t.as_ref().is_some_and(|t| super::screen::person_pending(t) == 0)) => "Your verdicts: all in".to_string(),
                0 => "Your verdicts: none waiting".to_string(),
                1 => "Your verdicts: 1 debate waiting".to_string(),
                n => format!("Your verdicts: {n} debates waiting"),
            }}</h2>
            {move || (list.with(|l| l.is_empty()) && tour.with(|t| t.as_ref().is_some_and(|t| super::screen::person_pending(t) > 0))).then(|| view! {
                <p class="hint">"Debates you judge appear here as they finish."</p>
            })}
            <For each=shown key=|w| (w.i, w.judge) let:w>
                <VerdictCard run=run.get_value() tour=tour w=w draft=draft(w) number=w.i + 1/>
            </For>
            {move || {
                let more = list.with(Vec::len).saturating_sub(SHOWN);
                (more > 0).then(|| view! { <p class="hint">{format!("{more} more after these.")}</p> })
            }}
        </section>
    }
    .into_any()
}
