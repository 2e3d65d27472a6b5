//! The forecast's live view, built from the findings in the log (so a reload shows the
//! same) and from the argument calls' text while they stream. A number is shown only when
//! the model gave it readably or Agora computed it from such numbers.

use leptos::prelude::*;

use crate::engine::config::ForecastOptions;
use crate::engine::cost::percent as pct;
use crate::engine::finding::{Finding, FindingBody, Level};
use crate::engine::formats::forecast::board::{self, ArgumentScore, Bar, Chart};
use crate::engine::formats::forecast::partial::partial_argument;
use crate::engine::formats::forecast::paths::ForecastPath;
use crate::engine::formats::forecast::types::*;
use crate::ui::state::{DebateView, TurnStatus};

/// Saves the forecast's result (`report::debate_result`: the final distribution, each
/// role's probabilities, consensus, insights, precedents and metadata) as a JSON file.
fn export_result(d: DebateView, problem: RwSignal<Option<String>>) {
    let (Some(s), Some(id)) = (d.session.get(), d.id.get_untracked()) else {
        return;
    };
    let load = s.load(&id);
    leptos::task::spawn_local(async move {
        let outcome = match load.await {
            Ok(Some(stored)) => {
                match crate::engine::formats::forecast::report::debate_result(&id, &stored.events) {
                    Some(v) => {
                        let name =
                            crate::engine::export::file_name(&stored.events, "forecast.json");
                        let text = serde_json::to_string_pretty(&v).unwrap_or_default();
                        crate::ui::download::save(&name, "application/json", &text)
                    }
                    None => Err("This debate is not a forecast.".into()),
                }
            }
            Ok(None) => Err("This debate is not saved in this browser.".into()),
            Err(e) => Err(e.to_string()),
        };
        problem.set(outcome.err());
    });
}

/// Numbers for attributes and labels, with a fixed number of decimals.
fn dec(x: f64, places: u32) -> String {
    crate::engine::cost::decimal(x, places)
}

fn options(d: DebateView) -> Option<(ForecastOptions, Vec<(String, String)>)> {
    d.config.with(|c| c.as_ref().and_then(board::roles))
}

fn forecast(f: &Finding) -> Option<&ForecastFinding> {
    match &f.body {
        FindingBody::Forecast(x) => Some(x),
        _ => None,
    }
}

fn role_name(d: DebateView, role: &str) -> String {
    d.config.with_untracked(|c| {
        c.as_ref()
            .map_or_else(|| role.to_string(), |c| board::role_name(c, role))
    })
}

/// One role's card in a round: the argument as it streams, then its parsed fields and
/// its score.
fn role_card(d: DebateView, round: u32, seat: String, name: String) -> impl IntoView {
    let [(again, _), (path, _)] = ForecastPath::latest_first(round, &seat);
    let (path, again) = (path.to_string(), again.to_string());
    let (s1, s2) = (seat.clone(), seat.clone());
    let status = Memo::new({
        let (path, again) = (path.clone(), again.clone());
        move |_| {
            d.blocks.track();
            let v = d.turn(&again).or_else(|| d.turn(&path));
            v.map(|v| v.status.get())
        }
    });
    let live = Memo::new(move |_| {
        d.blocks.track();
        let v = d.turn(&again).or_else(|| d.turn(&path))?;
        let text = v.text.get();
        partial_argument(&text).or_else(|| (!text.is_empty()).then(|| "…".to_string()))
    });
    let parsed = Memo::new(move |_| d.findings.with(|f| board::argument(f, round, &s1)));
    let scored = Memo::new(move |_| d.findings.with(|f| board::score(f, round, &s2)));
    let state_id = Memo::new(move |_| match (parsed.get().is_some(), status.get()) {
        (true, _) => "done",
        (false, Some(TurnStatus::Failed)) => "failed",
        (false, Some(TurnStatus::Streaming)) => "streaming",
        (false, Some(TurnStatus::Queued)) => "queued",
        (false, Some(_)) => "reading",
        (false, None) => "waiting",
    });
    view! {
        <article class=format!("fc-card seat-{seat}") data-role=seat.clone() data-state=move || state_id.get()>
            <header>
                <strong>{name}</strong>
                {move || parsed.get().filter(|a| !a.outcome_supported.is_empty()).map(|a| view! {
                    <span class="fc-supports">"for "<b>{a.outcome_supported}</b></span>
                })}
                {move || parsed.get().filter(|a| a.regenerated).map(|_| view! { <span class="fc-tag">"regenerated"</span> })}
                <span class="spacer"></span>
                {move || match scored.get() {
                    Some(ArgumentScore::Scored { composite: c, criteria: parts }) => view! {
                        <span class=format!("fc-score {}", board::score_band(c)) data-score=dec(c, 2)
                            title=format!("logic {} · evidence {} · novelty {}",
                                dec(parts.first().copied().unwrap_or(0.0), 2), dec(parts.get(1).copied().unwrap_or(0.0), 2), dec(parts.get(2).copied().unwrap_or(0.0), 2))>
                            {dec(c, 2)}
                        </span>
                    }.into_any(),
                    Some(ArgumentScore::Unscored(_)) => view! { <span class="fc-score unscored">"unscored"</span> }.into_any(),
                    None => ().into_any(),
                }}
            </header>
            {move || match parsed.get() {
                Some(a) => {
                    let probs = match &a.rejected {
                        Some(r) => view! { <p class="fc-rejected">"Probabilities rejected: "{r.clone()}</p> }.into_any(),
                        None => view! {
                            <ul class="fc-probs">
                                {a.probabilities.iter().map(|p| view! {
                                    <li><span>{p.outcome.clone()}</span><b>{pct(p.probability)}</b></li>
                                }).collect_view()}
                                {a.confidence.map(|c| view! { <li class="conf"><span>"confidence"</span><b>{pct(c)}</b></li> })}
                            </ul>
                        }.into_any(),
                    };
                    let refs = (!a.rebuts.is_empty()).then(|| view! { <p class="fc-meta">"Rebuts: "{a.rebuts.join(", ")}</p> });
                    let builds = (!a.references.is_empty()).then(|| view! { <p class="fc-meta">"Builds on: "{a.references.join("; ")}</p> });
                    let evidence = (!a.evidence.is_empty()).then(|| view! {
                        <details class="fc-evidence"><summary>{format!("Evidence ({})", a.evidence.len())}</summary>
                            <ul>{a.evidence.iter().map(|e| view! { <li>{e.clone()}</li> }).collect_view()}</ul>
                        </details>
                    });
                    let incomplete = a.incomplete.clone().map(|w| view! { <p class="fc-flag fc-incomplete">{format!("Used incomplete after it was asked again: {w}")}</p> });
                    view! { <p class="fc-text">{crate::engine::sources::quotes::as_plain_text(&a.argument)}</p> {incomplete} {probs} {refs} {builds} {evidence} }.into_any()
                }
                // A debate that has ended will not read this answer any more.
                None if d.outcome.get().is_some() && matches!(state_id.get(), "reading" | "streaming") => view! {
                    <p class="fc-text hint fc-unread">"This role's answer could not be read as an argument; the forecast went on without it."</p>
                }.into_any(),
                None => match live.get() {
                    Some(t) => view! { <p class="fc-text streaming">{t}</p> }.into_any(),
                    None => view! { <p class="fc-text hint">{move || match state_id.get() {
                        "failed" => "This role's call failed; the forecast goes on without it.",
                        "queued" => "Queued…",
                        _ => "Waiting…",
                    }}</p> }.into_any(),
                },
            }}
        </article>
    }
}

/// A probability chart for one outcome: one bar per role, then consensus, judge and final.
fn chart(
    Chart {
        outcome: id,
        label,
        bars: rows,
    }: Chart,
) -> impl IntoView {
    let row_h = 22.0;
    let h = rows.len() as f64 * row_h + 8.0;
    let (x0, w) = (126.0, 172.0);
    view! {
        <figure class="fc-chart" data-outcome=id.clone()>
            <figcaption>{label}" "<span class="hint">{format!("({id})")}</span></figcaption>
            <svg viewBox=format!("0 0 360 {}", dec(h, 0)) role="img" aria-label=format!("Probabilities for {id}")>
                {[0.25, 0.5, 0.75].into_iter().map(|t| view! {
                    <line class="grid" x1=dec(x0 + w * t, 1) x2=dec(x0 + w * t, 1) y1="0" y2=dec(h, 0)></line>
                }).collect_view()}
                {rows.into_iter().enumerate().map(|(i, bar)| {
                    let y = 4.0 + i as f64 * row_h;
                    let summary = bar.is_summary();
                    let Bar { series, name, value: v } = bar;
                    view! {
                        <g class=format!("bar series-{series}") class:summary=summary data-series=series.clone()
                            data-value=v.map(|v| dec(v, 4))>
                            <text x="0" y=dec(y + 14.0, 0) class="name">{name}</text>
                            <rect class="track" x=dec(x0, 0) y=dec(y + 3.0, 0) width=dec(w, 0) height="12" rx="3"></rect>
                            {v.map(|v| view! { <rect class="fill" x=dec(x0, 0) y=dec(y + 3.0, 0) width=dec(w * v.clamp(0.0, 1.0), 1) height="12" rx="3"></rect> })}
                            <text x="304" y=dec(y + 14.0, 0) class="value">{v.map_or("—".to_string(), pct)}</text>
                        </g>
                    }
                }).collect_view()}
            </svg>
        </figure>
    }
}

fn level(l: Level) -> &'static str {
    l.id()
}

/// How far debating moved each outcome: the roles' opening consensus (before any
/// rebuttal) against the final blend (`board::shifts`).
fn shifts_view(d: DebateView, res: ForecastResult) -> Option<impl IntoView> {
    let shifts = d.findings.with(|all| board::shifts(all, &res))?;
    let rows = shifts
        .into_iter()
        .map(|s| {
            let change = s.change();
            view! {
                <li><b>{s.label}</b>" opened at "{pct(s.opened)}", ends at "{pct(s.ends)}": "<span class="fc-change">{change}</span></li>
            }
        })
        .collect_view();
    Some(view! {
        <div class="fc-moved">
            <h3>"What the debate moved"</h3>
            <ul>{rows}</ul>
            <p class="hint">"Opening: the roles' consensus before any rebuttal, the forecast you would have had without the debate. Once resolved, the ledger scores both."</p>
        </div>
    })
}

/// The forecast's answer: the verdict, one probability chart per outcome and the consensus
/// meter. In the panel (`with_roles`) the charts carry every role's latest reading and the
/// verdict offers its export and share; alone (a link to this forecast) only the consensus,
/// the judge and the final blend.
#[component]
pub fn ForecastOutcome(with_roles: bool) -> impl IntoView {
    let d = expect_context::<DebateView>();
    // Memos: what each part shows is worked out again at every finding, but drawn again
    // only when it changed (five cards finishing together would otherwise redraw the
    // charts five times in one frame).
    let result = Memo::new(move |_| d.findings.with(|all| result_in(all.iter()).cloned()));
    let result = move || result.get();
    // The result's finding, for "Share this forecast".
    let result_key = move || {
        d.findings.with(|all| {
            all.iter()
                .rev()
                .find(|f| matches!(forecast(f), Some(ForecastFinding::Result(_))))
                .map(|f| f.key.clone())
        })
    };
    // Charts: roles' latest readable probabilities (live), consensus computed from them,
    // judge and final once the result is in (`board::charts`).
    let chart_data = Memo::new(move |_| {
        d.config.with(|c| {
            let c = c.as_ref()?;
            d.findings.with(|all| board::charts(c, all, with_roles))
        })
    });
    let charts = move || {
        chart_data
            .get()
            .map(|all| all.into_iter().map(chart).collect_view())
    };
    let meter = move || {
        let res = result()?;
        let c = res.consensus_score?;
        Some(view! {
            <div class="fc-meter" role="meter" aria-label="Consensus" aria-valuemin="0" aria-valuemax="1"
                aria-valuenow=dec(c, 3) data-value=dec(c, 4)>
                <span class="label">"Consensus"</span>
                <span class="fc-meter-track"><span class="fc-meter-fill" style:width=format!("{}%", dec(c * 100.0, 1))></span></span>
                <b>{pct(c)}</b>
                <span class="hint">{format!("judge weight {}%", dec(res.judge_weight * 100.0, 0))}</span>
                {(!res.consensus_roles.is_empty()).then(|| view! {
                    <span class="hint fc-consensus-roles">{format!(
                        "Consensus of {}; the judge's own view is weighed apart, at {}%.",
                        res.consensus_roles.join(", "),
                        dec(res.judge_weight * 100.0, 0)
                    )}</span>
                })}
            </div>
        })
    };
    let problem = RwSignal::new(None::<String>);
    let verdict = move || {
        let res = result()?;
        let best = board::headline(&res);
        Some(view! {
            <div class="fc-verdict" class:partial=res.partial class:low=res.low_quality data-wall-ms=res.metadata.wall_clock_ms.to_string()>
                {best.map(|(l, p)| view! { <p class="fc-headline">"Most likely: "<b>{l}</b>" at "<b>{pct(p)}</b></p> })}
                <p class="fc-meta">
                    {res.confidence.map_or("Confidence: not given".to_string(), |c| format!("Confidence {}", pct(c)))}
                    {if res.scored == 0 {
                        " · no argument could be scored".to_string()
                    } else {
                        format!(" · {} of {} arguments above 0.4 ({})", res.good, res.scored, pct(res.good_share))
                    }}
                    {format!(" · probabilities read {}, rejected {}", res.probabilities_parsed, res.probabilities_rejected)}
                    {(res.regenerated > 0).then(|| format!(" · {} regenerated", res.regenerated))}
                </p>
                {res.partial.then(|| view! { <p class="fc-flag">{format!("Partial result: {} of {} roles", res.roles_succeeded, res.roles_configured)}</p> })}
                {res.low_quality.then(|| view! { <p class="fc-flag">"Low quality: under 80% of arguments scored above 0.4"</p> })}
                {(!res.notes.is_empty()).then(|| view! { <ul class="fc-notes">{res.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}</ul> })}
                <p class="fc-meta hint">{format!("{} arguments · {} calls · {} tokens in, {} out · {} s · {}",
                    res.metadata.total_arguments, res.metadata.calls, res.metadata.input_tokens, res.metadata.output_tokens,
                    dec(res.metadata.wall_clock_ms as f64 / 1000.0, 1), res.metadata.models.join(", "))}</p>
                {with_roles.then(|| view! {
                    <button type="button" class="link" id="export-forecast" on:click=move |_| export_result(d, problem)>"Export the forecast result (JSON)"</button>
                })}
                {move || problem.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            </div>
        })
    };
    let moved = move || shifts_view(d, result()?);
    view! {
        {verdict}
        <div class="fc-charts">{charts}</div>
        {meter}
        {moved}
        {move || with_roles.then(|| result_key().map(|key| view! { <div class="fc-share"><crate::ui::share::ShareFinding key what="forecast"/></div> }))}
    }
}

/// A finished forecast on its own, for a link that opens on it.
pub fn alone(f: &Finding) -> Option<AnyView> {
    matches!(forecast(f), Some(ForecastFinding::Result(_)))
        .then(|| view! { <section class="fc-panel fc-alone" aria-label="Forecast"><ForecastOutcome with_roles=false/></section> }.into_any())
}

#[component]
pub fn ForecastPanel() -> impl IntoView {
    let d = expect_context::<DebateView>();
    let picked = RwSignal::new(None::<u32>);
    // The round to show: the one picked, else the latest with any activity. A memo, so
    // the cards are built again only when the round shown changes, not at every event.
    let shown = Memo::new(move |_| {
        let (o, roles) = options(d)?;
        let latest = (1..=o.rounds)
            .rev()
            .find(|r| {
                d.blocks.track();
                roles.iter().any(|(s, _)| {
                    let first = &ForecastPath::latest_first(*r, s)[1].0;
                    d.turn(&first.to_string()).is_some()
                })
            })
            .unwrap_or(1);
        Some(picked.get().unwrap_or(latest))
    });
    let tabs = move || {
        let (o, _) = options(d)?;
        Some(
            (1..=o.rounds)
                .map(|r| {
                    let ph = Phase::of_round(r, o.rounds);
                    view! {
                        <button type="button" role="tab" class="fc-tab" data-round=r
                            aria-selected=move || (shown.get() == Some(r)).to_string()
                            on:click=move |_| picked.set(Some(r))>
                            {format!("{r}. {}", ph.title())}
                        </button>
                    }
                })
                .collect_view(),
        )
    };
    let roles = Memo::new(move |_| options(d).map(|(_, roles)| roles));
    let cards = move || {
        let roles = roles.get()?;
        let r = shown.get()?;
        Some(
            roles
                .into_iter()
                .map(|(seat, name)| role_card(d, r, seat, name))
                .collect_view(),
        )
    };
    let round_summary = move || {
        let r = shown.get()?;
        let s = d.findings.with(|all| {
            all.iter().find_map(|f| match forecast(f) {
                Some(ForecastFinding::RoundSummary(s)) if s.round == r => Some(s.clone()),
                _ => None,
            })
        })?;
        let (_, roles) = options(d)?;
        let name = |seat: &str| {
            roles
                .iter()
                .find(|(s, _)| s == seat)
                .map_or(seat.to_string(), |(_, n)| n.clone())
        };
        Some(view! {
            <div class="fc-round-summary">
                <p><span class="label">"Strongest argument"</span>" "{s.dominant.as_deref().map_or("none scored".to_string(), name)}</p>
                {(!s.key_disagreements.is_empty()).then(|| view! {
                    <ul class="fc-disagreements">{s.key_disagreements.iter().map(|k| view! { <li>{k.clone()}</li> }).collect_view()}</ul>
                })}
                {(!s.emerging.is_empty()).then(|| view! {
                    <p class="fc-meta">"Consensus moving: "{s.emerging.iter().map(|e| format!("{} {}", e.outcome, if e.toward { "↑ toward" } else { "↓ away" })).collect::<Vec<_>>().join(", ")}</p>
                })}
            </div>
        })
    };
    view! {
        <section class="fc-panel" aria-label="Forecast">
            <ForecastOutcome with_roles=true/>
            <super::resolve::Resolve/>
            <div class="fc-rounds">
                <div class="fc-tabs" role="tablist">{tabs}</div>
                <div class="fc-cards">{cards}</div>
                {round_summary}
            </div>
            <ForecastSections/>
        </section>
    }
}

/// The debate's disagreement map, key insights and historical precedents, once found.
#[component]
fn ForecastSections() -> impl IntoView {
    let d = expect_context::<DebateView>();
    let find = move |key: &'static str| {
        d.findings.with(|all| {
            all.iter()
                .find(|f| f.key == key)
                .and_then(forecast)
                .cloned()
        })
    };
    let disagreements = move || match find("disagreements")? {
        ForecastFinding::Disagreements(list) if !list.is_empty() => Some(view! {
            <section class="fc-section">
                <h3>"Disagreement map"</h3>
                {list.into_iter().map(|x| view! {
                    <div class="fc-dispute" data-resolved=x.resolved.to_string()>
                        <p><b>{x.topic}</b>" "<span class=if x.resolved { "fc-tag ok" } else { "fc-tag" }>{if x.resolved { "resolved" } else { "open" }}</span></p>
                        <ul>{x.positions.into_iter().map(|p| view! {
                            <li><span class="label">{role_name(d, &p.role)}</span>" "{p.stance}
                                <span class="fc-strength" role="meter" aria-label="strength" aria-valuemin="0" aria-valuemax="1"
                                    aria-valuenow=dec(p.strength, 2) data-value=dec(p.strength, 4) title=format!("strength {}", pct(p.strength))>
                                    <span class="fc-strength-fill" style:width=format!("{}%", dec(p.strength * 100.0, 1))></span></span></li>
                        }).collect_view()}</ul>
                    </div>
                }).collect_view()}
            </section>
        }),
        _ => None,
    };
    let insights = move || match find("insights")? {
        ForecastFinding::Insights(list) if !list.is_empty() => Some(view! {
            <section class="fc-section">
                <h3>"Key insights"</h3>
                <ul class="fc-insights">{list.into_iter().map(|i| view! {
                    <li class=format!("impact-{}", level(i.impact))>
                        <span class="fc-tag">{level(i.impact)}</span>" "{i.insight}
                        <span class="hint">{format!(" · {}, round {}{}", role_name(d, &i.source_role), i.round,
                            if i.affected_outcomes.is_empty() { String::new() } else { format!(" · {}", i.affected_outcomes.join(", ")) })}</span>
                    </li>
                }).collect_view()}</ul>
            </section>
        }),
        _ => None,
    };
    let precedents = move || match find("precedents")? {
        ForecastFinding::Precedents(list) if !list.is_empty() => Some(view! {
            <section class="fc-section">
                <h3>"Historical precedents"</h3>
                <ol class="fc-timeline">{list.into_iter().map(|p| view! {
                    <li>
                        <span class="fc-date">{p.date}</span>
                        <div><b>{p.event}</b>" → "{p.outcome}
                            <span class="hint">{format!(" · similarity {}", pct(p.similarity))}</span>
                            {(!p.relevance.is_empty()).then(|| view! { <p class="fc-meta">{p.relevance}</p> })}
                        </div>
                    </li>
                }).collect_view()}</ol>
            </section>
        }),
        _ => None,
    };
    view! {
        {disagreements}
        {insights}
        {precedents}
    }
}
