//! Classic's own widgets: the weighted scorecard of each position, and the fact checker's
//! verdicts under the turn they concern.

use leptos::prelude::*;

use crate::engine::cost::decimal;
use crate::engine::finding::{flagged, ClaimCheck, Finding, FindingBody, Verdict};
use crate::engine::formats::classic::{self, paths::ClassicPath};
use crate::ui::state::DebateView;

fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Supported => "good",
        Verdict::Unverifiable => "fair",
        Verdict::Disputed => "poor",
        Verdict::False => "bad",
    }
}

/// The fact checker's verdicts on one turn; when it found a claim false or disputed, it
/// stepped in, and the next speaker heard it.
pub fn fact_checks(claims: Vec<ClaimCheck>) -> AnyView {
    if claims.is_empty() {
        return view! { <p class="fact-checks empty">"Fact check: no checkable claims."</p> }
            .into_any();
    }
    let stepped_in = !flagged(&claims).is_empty();
    view! {
        {stepped_in.then(|| view! {
            <p class="fact-checker-steps-in" role="note">"The fact checker steps in: the next speaker hears this."</p>
        })}
        <ul class=if stepped_in { "fact-checks flagged" } else { "fact-checks" } aria-label="Fact check">
            {claims.into_iter().map(|c| view! {
                <li>
                    <span class=format!("chip-score {}", verdict_class(c.verdict))>{c.verdict.id()}</span>
                    <q>{c.claim}</q>
                    <span class="reason">{c.reason}</span>
                </li>
            }).collect_view()}
        </ul>
    }
    .into_any()
}

/// A position's weighted 0–10 score, each criterion with its weight and reason.
#[component]
pub fn ScoreCard(finding: Finding) -> impl IntoView {
    let state = expect_context::<DebateView>();
    let name = state.config.with_untracked(|c| {
        c.as_ref()
            .and_then(|c| c.seat(&finding.seat))
            .map_or(finding.seat.clone(), |s| s.name.clone())
    });
    // A competitive debate's round scores say which round they are.
    let round = match ClassicPath::parse(&finding.key) {
        Some(ClassicPath::RoundScore { round, .. }) => Some(round),
        _ => None,
    };
    let of = round.map(|r| format!(" — round {r}"));
    match finding.body {
        FindingBody::Score { criteria, total, rubric } => view! {
            <section class=format!("classic-score seat-{}", finding.seat) class:round=round.is_some() data-total=decimal(total, 2)>
                <header>
                    <strong>{name}{of}</strong>
                    <span class="total"><b>{decimal(total, 1)}</b>" / 10"</span>
                    <span class="hint">{format!("weighted for a {rubric} debate")}</span>
                </header>
                <ul>
                    {criteria.into_iter().map(|c| {
                        let pct = (c.value / c.max * 100.0).round() as u32;
                        view! {
                            <li>
                                <span class="crit">{c.name}<small>{format!(" ×{}", decimal(c.weight, 2))}</small></span>
                                <span class="bar"><span class="fill" style:width=format!("{pct}%")></span></span>
                                <b class="val">{decimal(c.value, 1)}</b>
                                <span class="reason">{c.reason}</span>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </section>
        }
        .into_any(),
        FindingBody::Unscored { reason, .. } => view! {
            <section class="classic-score unscored"><strong>{name}{of}</strong>" — not scored: "{reason}</section>
        }
        .into_any(),
        _ => ().into_any(),
    }
}

/// The moderator's note on a turn that broke a rule, where it was said: after that turn,
/// before the next.
#[component]
pub fn ModeratorNote(finding: Finding) -> impl IntoView {
    let state = expect_context::<DebateView>();
    let name = state.config.with_untracked(|c| {
        c.as_ref()
            .and_then(|c| c.seat(classic::MODERATOR))
            .map_or("Moderator".to_string(), |s| s.name.clone())
    });
    let FindingBody::ModeratorNote { breach, rule, note } = finding.body else {
        return ().into_any();
    };
    let what = if rule.is_empty() {
        breach.id().to_string()
    } else {
        format!("{}: {rule}", breach.id())
    };
    view! {
        <aside class="moderator-note" role="note" data-breach=breach.id()>
            <strong>{name}</strong>
            <span class="chip-score poor">{what}</span>
            <p>{note}</p>
        </aside>
    }
    .into_any()
}
