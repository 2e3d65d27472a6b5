//! Classic's own widgets: the weighted scorecard of each position, and the fact checker's
//! verdicts under the turn they concern.

use leptos::prelude::*;

use crate::engine::cost::decimal;
use crate::engine::finding::{ClaimCheck, Finding, FindingBody, Verdict};
use crate::ui::state::DebateView;

fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Supported => "good",
        Verdict::Unverifiable => "fair",
        Verdict::Disputed => "poor",
        Verdict::False => "bad",
    }
}

/// The fact checker's verdicts on one turn.
pub fn fact_checks(claims: Vec<ClaimCheck>) -> AnyView {
    if claims.is_empty() {
        return view! { <p class="fact-checks empty">"Fact check: no checkable claims."</p> }
            .into_any();
    }
    view! {
        <ul class="fact-checks" aria-label="Fact check">
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
    match finding.body {
        FindingBody::Score { criteria, total, rubric } => view! {
            <section class=format!("classic-score seat-{}", finding.seat) data-total=decimal(total, 2)>
                <header>
                    <strong>{name}</strong>
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
            <section class="classic-score unscored"><strong>{name}</strong>" — not scored: "{reason}</section>
        }
        .into_any(),
        _ => ().into_any(),
    }
}
