//! The Arbiter's scores, made to compare at a glance: under each chair's turn a scorecard
//! that fills in when its evaluation arrives, and a panel that lines the chairs up on one
//! scale.

use leptos::prelude::*;

use crate::engine::finding::{Evaluation, Finding, FindingBody, Level, Quality};
use crate::engine::formats::duelogic::stats::Stats;
use crate::ui::state::DebateView;

fn quality_class(q: Quality) -> &'static str {
    match q {
        Quality::Strong => "good",
        Quality::Adequate => "fair",
        Quality::Weak => "poor",
        Quality::Absent => "bad",
    }
}

fn level_class(l: Level) -> &'static str {
    match l {
        Level::High => "good",
        Level::Medium => "fair",
        Level::Low => "bad",
    }
}

/// Adherence bands as the accountability rules read them: under 40 and under 60 matter.
fn adherence_class(a: u32) -> &'static str {
    match a {
        0..=39 => "bad",
        40..=59 => "poor",
        60..=79 => "fair",
        _ => "good",
    }
}

fn chip(name: &'static str, value: String, class: &'static str) -> impl IntoView {
    view! {
        <li class=format!("chip-score {class}")>
            <span class="chip-name">{name}</span>
            <b>{value}</b>
        </li>
    }
}

fn evaluation_view(e: Evaluation) -> AnyView {
    let a = e.adherence;
    let notes: Vec<String> = [
        (!e.steel_manning.notes.is_empty())
            .then(|| format!("Steel-man: {}", e.steel_manning.notes)),
        (!e.self_critique.notes.is_empty())
            .then(|| format!("Self-critique: {}", e.self_critique.notes)),
    ]
    .into_iter()
    .flatten()
    .chain(
        e.violations
            .iter()
            .map(|v| format!("Left the framework: {v}")),
    )
    .chain(e.honesty_issues.iter().map(|v| format!("Honesty: {v}")))
    .chain(
        (e.requires_interjection && !e.reason.is_empty())
            .then(|| format!("Interjection needed: {}", e.reason)),
    )
    .collect();
    view! {
        <div class="scorecard" data-adherence=a.to_string()>
            <div class=format!("adherence {}", adherence_class(a))>
                <span class="num">{a}</span>
                <span class="of">"/100 adherence"</span>
                <span class="bar" role="img" aria-label=format!("adherence {a} of 100")>
                    <span class="fill" style:width=format!("{a}%")></span>
                </span>
            </div>
            <ul class="checks">
                {chip("Steel-man", e.steel_manning.quality.id().to_string(), quality_class(e.steel_manning.quality))}
                {chip("Self-critique", e.self_critique.quality.id().to_string(), quality_class(e.self_critique.quality))}
                {chip("Framework", if e.consistent { "consistent" } else { "strayed" }.to_string(), if e.consistent { "good" } else { "bad" })}
                {chip("Honesty", e.honesty.id().to_string(), level_class(e.honesty))}
            </ul>
            {(!notes.is_empty()).then(|| view! {
                <details class="score-notes">
                    <summary>"Why"</summary>
                    <ul>{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                </details>
            })}
        </div>
    }
    .into_any()
}

/// The scorecard of one turn: pending until the evaluation arrives, then the scores, or
/// "not scored" when the analyst's answer could not be read.
#[component]
pub fn Scorecard(judged: RwSignal<Option<Finding>>, pending: Signal<bool>) -> impl IntoView {
    move || {
        match judged.get().map(|f| f.body) {
        Some(FindingBody::Evaluation(e)) => evaluation_view(e),
        Some(FindingBody::Unscored { reason, .. }) => view! {
            <div class="scorecard unscored"><span class="num">"–"</span>
                <span>"Not scored: "{reason}</span></div>
        }
        .into_any(),
        _ if pending.get() => view! {
            <div class="scorecard pending" aria-busy="true">"The Arbiter is evaluating this response…"</div>
        }
        .into_any(),
        _ => ().into_any(),
    }
    }
}

/// Marks a turn that another chair cut short.
#[component]
pub fn CutMarker(cut_by: RwSignal<Option<Finding>>) -> impl IntoView {
    let state = expect_context::<DebateView>();
    move || {
        let f = cut_by.get()?;
        let FindingBody::Interruption {
            by,
            reason,
            urgency,
            trigger,
            ..
        } = f.body
        else {
            return None;
        };
        let name = state.config.with(|c| {
            c.as_ref()
                .and_then(|c| c.seat(&by))
                .map_or(by.clone(), |s| s.name.clone())
        });
        let reason = reason.words();
        Some(view! {
            <p class="cut-marker">
                <span class="scissors" aria-hidden="true">"✂"</span>
                <span>{format!("Cut off by {name}: {reason} (urgency {urgency}%)")}</span>
                <q>{trigger}</q>
            </p>
        })
    }
}

/// The Arbiter stepping in, where it happened.
#[component]
pub fn Interjection(finding: Finding) -> impl IntoView {
    let state = expect_context::<DebateView>();
    let FindingBody::Interjection { violation, .. } = &finding.body else {
        return ().into_any();
    };
    let name = state.config.with_untracked(|c| {
        c.as_ref()
            .and_then(|c| c.seat(&finding.seat))
            .map_or(finding.seat.clone(), |s| s.name.clone())
    });
    view! {
        <aside class="interjection-flag" role="note">
            <span class="flag" aria-hidden="true">"⚑"</span>
            {format!("The Arbiter called out {name} for {violation}.")}
        </aside>
    }
    .into_any()
}

/// The chairs side by side: average adherence on one scale, steel-manning and
/// self-critique counts, interjections and interruptions.
#[component]
pub fn ChairPanel() -> impl IntoView {
    let state = expect_context::<DebateView>();
    let d = state;
    move || {
        let config = d.config.get()?;
        let stats = d.findings.with(|f| Stats::from_findings(&config, f.iter()));
        if stats.chairs.is_empty() {
            return None;
        }
        let rows = stats
            .chairs
            .iter()
            .map(|c| {
                let seat = config.seat(&c.seat);
                let name = seat.map_or(c.seat.clone(), |s| s.name.clone());
                let framework = seat.and_then(|s| s.stance.clone()).unwrap_or_default();
                let avg = c.average_adherence();
                let class = avg.map_or("none", adherence_class);
                view! {
                    <li class=format!("chair-row seat-{}", c.seat)>
                        <div class="who"><strong>{name}</strong><span>{framework}</span></div>
                        <div class=format!("adherence {class}")>
                            <span class="num">{avg.map_or("–".to_string(), |a| a.to_string())}</span>
                            <span class="bar" role="img" aria-label=avg.map_or("not scored yet".to_string(), |a| format!("average adherence {a} of 100"))>
                                <span class="fill" style:width=format!("{}%", avg.unwrap_or(0))></span>
                            </span>
                        </div>
                        <dl class="counts">
                            <dt>"Steel-man"</dt><dd>{format!("{}/{}", c.steel_manned, c.evaluations)}</dd>
                            <dt>"Self-critique"</dt><dd>{format!("{}/{}", c.self_critiqued, c.evaluations)}</dd>
                            <dt>"Called out"</dt><dd>{c.interjections}</dd>
                            <dt>"Cut in / off"</dt><dd>{format!("{} / {}", c.interrupted_others, c.was_interrupted)}</dd>
                        </dl>
                    </li>
                }
            })
            .collect_view();
        let reasons = (!stats.by_reason.is_empty()).then(|| {
            let text = stats
                .by_reason
                .iter()
                .map(|(r, n)| format!("{} ×{n}", r.words()))
                .collect::<Vec<_>>()
                .join(" · ");
            view! { <p class="hint">"Interruptions: "{text}</p> }
        });
        Some(view! {
            <section class="chair-panel" aria-label="The chairs so far">
                <h2>"The chairs so far"</h2>
                <ul>{rows}</ul>
                {reasons}
            </section>
        })
    }
}
