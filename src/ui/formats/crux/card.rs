//! Crux's screens in a debate: the crux card (readable on its own, copied as Markdown,
//! downloaded as SVG, linked back to its exchange), the deck that collects the cards, the
//! crux room panel while a room runs, the disagreement map and the shifts per persona.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::share;
use crate::engine::finding::{CruxCard, Finding, FindingBody};
use crate::engine::formats::crux::paths::{room_key, CruxPath};
use crate::engine::{CallKey, DebateConfig};
use crate::ui::markdown::Markdown;
use crate::ui::state::{turn_anchor as anchor, BlockKind, DebateView, TurnBlock, TurnStatus};

fn go_to(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        el.scroll_into_view();
        let _ = el.class_list().add_1("flash");
    }
}

/// Copies text to the clipboard and says how it went.
fn copy(text: &str, done: RwSignal<Option<&'static str>>) {
    use crate::ui::clipboard::{copy_text, CopyError};
    let text = text.to_string();
    leptos::task::spawn_local(async move {
        done.set(Some(match copy_text(&text).await {
            Ok(()) => "Copied",
            Err(CopyError::Refused) => "Copy failed",
            Err(CopyError::Unavailable) => "Copy is not available here",
        }));
    });
}

/// Why a card could not be saved as a PNG: the button's short note tells them apart.
enum PngFailure {
    /// The browser has no 2D canvas (some locked-down or headless set-ups).
    NoCanvas,
    /// Drawing or saving failed.
    Drawing,
}

impl PngFailure {
    fn note(&self) -> &'static str {
        match self {
            PngFailure::NoCanvas => "No canvas here",
            PngFailure::Drawing => "Image failed",
        }
    }
}

/// The card as a PNG: its SVG drawn on a canvas at twice its size, so it stays sharp on
/// a slide or a phone. Says why when the browser cannot draw it.
async fn save_png(svg: String, name: String) -> Result<(), PngFailure> {
    let failed = |_| PngFailure::Drawing;
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or(PngFailure::Drawing)?;
    let img: web_sys::HtmlImageElement =
        doc.create_element("img").map_err(failed)?.unchecked_into();
    img.set_src(&share::data_url(&svg));
    wasm_bindgen_futures::JsFuture::from(img.decode())
        .await
        .map_err(failed)?;
    let (w, h) = (img.natural_width(), img.natural_height());
    let canvas: web_sys::HtmlCanvasElement = doc
        .create_element("canvas")
        .map_err(failed)?
        .unchecked_into();
    canvas.set_width(w * 2);
    canvas.set_height(h * 2);
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .map_err(failed)?
        .ok_or(PngFailure::NoCanvas)?
        .unchecked_into();
    ctx.scale(2.0, 2.0).map_err(failed)?;
    ctx.draw_image_with_html_image_element(&img, 0.0, 0.0)
        .map_err(failed)?;
    let url = canvas.to_data_url_with_type("image/png").map_err(failed)?;
    crate::ui::download::save_url(&name, &url).map_err(|_| PngFailure::Drawing)
}

fn names(config: &Option<DebateConfig>) -> impl Fn(&str) -> String + Clone + 'static {
    let seats: Vec<(String, String)> = config
        .as_ref()
        .map(|c| {
            c.seats
                .iter()
                .map(|s| (s.id.clone(), s.name.clone()))
                .collect()
        })
        .unwrap_or_default();
    move |seat: &str| {
        seats
            .iter()
            .find(|(id, _)| id == seat)
            .map_or_else(|| seat.to_string(), |(_, n)| n.clone())
    }
}

/// One crux card: the crux, each side's position, reasoning and what would change its
/// mind, the kind and the diagnosis; Copy as Markdown, Download SVG or PNG, and a link
/// back to the exchange it came from.
#[component]
pub fn CruxCardView(
    card: CruxCard,
    about: Option<CallKey>,
    /// The card's finding, for "Share this card" (absent where it is shown alone).
    #[prop(optional)]
    share_key: Option<String>,
) -> impl IntoView {
    let state = expect_context::<DebateView>();
    let config = state.config.get_untracked();
    let topic = config.as_ref().map(|c| c.topic.clone()).unwrap_or_default();
    let name = names(&config);
    let copied = RwSignal::new(None::<&'static str>);
    let md = share::markdown(&card, &name, &topic);
    let svg = share::svg(&card, &name, &topic);
    let (svg_name, png_name, md_name) = (
        share::file_name(&card, "svg"),
        share::file_name(&card, "png"),
        share::file_name(&card, "md"),
    );
    let svg2 = svg.clone();
    let md2 = md.clone();
    let kind = card.kind.id();
    let sides = card
        .sides
        .iter()
        .map(|s| {
            let flip = if s.would_change_mind.trim().is_empty() {
                view! { <dd class="unsaid">"Did not say."</dd> }.into_any()
            } else {
                view! { <dd>{s.would_change_mind.clone()}</dd> }.into_any()
            };
            view! {
                <section class=format!("crux-side seat-{}", s.seat)>
                    <h4>{name(&s.seat)}</h4>
                    <dl>
                        <dt>"Position"</dt><dd>{s.position.clone()}</dd>
                        <dt>"Because"</dt><dd>{s.reasoning.clone()}</dd>
                        <dt>"Would change their mind"</dt>{flip}
                    </dl>
                </section>
            }
        })
        .collect_view();
    let link = about.map(|k| {
        let id = anchor(&k);
        view! { <button type="button" class="link crux-source" on:click=move |_| go_to(&id)>"See the exchange"</button> }
    });
    let resolution = (card.resolved && !card.resolution.trim().is_empty()).then(|| {
        view! { <p class="crux-resolution"><strong>"Resolution "</strong>{card.resolution.clone()}</p> }
    });
    view! {
        <article class="crux-card" data-kind=kind data-resolved=card.resolved.to_string()>
            <header>
                <p class="crux-kicker">
                    <span class=format!("crux-kind {kind}")>{share::kind_title(&card)}</span>
                    <span class="crux-status">{share::status(&card)}</span>
                    <span class="crux-hint">{share::kind_hint(&card)}</span>
                </p>
                <h3 class="crux-text">{card.crux.clone()}</h3>
                {(!card.question.is_empty()).then(|| view! { <p class="crux-question">{card.question.clone()}</p> })}
            </header>
            <div class="crux-sides">{sides}</div>
            <p class="crux-diagnosis"><strong>"Diagnosis "</strong>{card.diagnosis.clone()}</p>
            {resolution}
            <footer class="crux-actions">
                <button type="button" class="secondary copy-md" on:click=move |_| copy(&md, copied)>"Copy as Markdown"</button>
                <button type="button" class="secondary download-svg" on:click=move |_| {
                    let _ = crate::ui::download::save(&svg_name, "image/svg+xml", &svg);
                }>"Download SVG"</button>
                <button type="button" class="secondary download-png" on:click=move |_| {
                    let (svg, name) = (svg2.clone(), png_name.clone());
                    leptos::task::spawn_local(async move {
                        if let Err(e) = save_png(svg, name).await {
                            copied.set(Some(e.note()));
                        }
                    });
                }>"Download PNG"</button>
                <button type="button" class="link download-md" on:click=move |_| {
                    let _ = crate::ui::download::save(&md_name, "text/markdown", &md2);
                }>"Download Markdown"</button>
                {link}
                {share_key.map(|key| view! { <crate::ui::share::ShareFinding key what="card"/> })}
                <span class="hint" role="status">{move || copied.get()}</span>
            </footer>
        </article>
    }
}

/// A crux the analyst could not extract: said plainly, with a link to its room.
#[component]
pub fn NotExtracted(finding: Finding) -> impl IntoView {
    let FindingBody::CruxNotExtracted { room, reason } = &finding.body else {
        return ().into_any();
    };
    let link = finding.about.clone().map(|k| {
        let id = anchor(&k);
        view! { <button type="button" class="link crux-source" on:click=move |_| go_to(&id)>"Read the room's exchange"</button> }
    });
    view! {
        <article class="crux-card not-extracted" data-room=room.clone()>
            <p class="crux-kicker"><span class="crux-status">"Not extracted"</span></p>
            <p>"This crux room ran, but its card could not be extracted: " {reason.clone()} "."</p>
            {link}
        </article>
    }
    .into_any()
}

fn card_view(f: &Finding) -> Option<AnyView> {
    match &f.body {
        FindingBody::CruxCard(c) => {
            let key = f.key.clone();
            Some(
                view! { <CruxCardView card=c.clone() about=f.about.clone() share_key=key/> }
                    .into_any(),
            )
        }
        FindingBody::CruxNotExtracted { .. } => {
            Some(view! { <NotExtracted finding=f.clone()/> }.into_any())
        }
        _ => None,
    }
}

/// A crux card on its own, for a link that opens on it.
pub fn alone(f: &Finding) -> Option<AnyView> {
    match &f.body {
        FindingBody::CruxCard(c) => {
            Some(view! { <CruxCardView card=c.clone() about=None/> }.into_any())
        }
        _ => None,
    }
}

/// The open crux room, while it runs: its question, the two sides, the turn count and the
/// latest messages as they stream.
#[component]
fn RoomPanel() -> impl IntoView {
    let d = expect_context::<DebateView>();
    move || {
        // The last room opened, unless its card (or its not-extracted note) is in.
        let (room, question, seats) = d.findings.with(|all| {
            let opened = all.iter().rev().find_map(|f| match &f.body {
                FindingBody::Disagreement(x) if x.opened => match CruxPath::parse(&f.key)? {
                    CruxPath::Detection { aspect } => {
                        Some((aspect, x.question.clone(), x.seats.clone()))
                    }
                    _ => None,
                },
                _ => None,
            })?;
            let card = CruxPath::Card { aspect: opened.0 }.to_string();
            let closed = all.iter().any(|f| f.key == card);
            (!closed).then_some(opened)
        })?;
        let max = d.config.with(|c| match c.as_ref().map(|c| &c.options) {
            Some(crate::engine::config::FormatOptions::Crux(o)) => o.max_exchanges,
            _ => 14,
        });
        let turns: Vec<_> = d.blocks.with(|b| {
            b.iter()
                .filter_map(|b| match &b.kind {
                    BlockKind::Turn(TurnBlock {
                        call,
                        speaker,
                        view,
                        analysis: false,
                        ..
                    }) => {
                        let path = CruxPath::parse(&call.path)?;
                        (path.room() == Some(room)).then(|| (path, speaker.clone(), *view))
                    }
                    _ => None,
                })
                .collect()
        });
        let exchanged = turns
            .iter()
            .filter(|(p, _, v)| {
                matches!(p, CruxPath::Exchange { .. }) && v.status.get() != TurnStatus::Queued
            })
            .count();
        let name = names(&d.config.get());
        let sides = seats
            .iter()
            .map(|s| name(s))
            .collect::<Vec<_>>()
            .join(" vs ");
        let latest = turns
            .into_iter()
            .rev()
            .take(2)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .map(|(_, speaker, view)| {
                view! { <div class="room-line"><strong>{speaker}</strong><Markdown text=view.text/></div> }
            })
            .collect_view();
        Some(view! {
            <section class="crux-room-panel" role="status" aria-live="polite" data-room=room_key(room)>
                <p class="crux-kicker"><span class="live-dot" aria-hidden="true"></span>"Crux room open · " {sides}</p>
                <h3>{question}</h3>
                <p class="hint">{format!("Exchange turn {exchanged} of at most {max}")}</p>
                {latest}
            </section>
        })
    }
}

/// Personas on a circle, a line for each disagreement detected between two of them (an
/// image built by `share::map_svg`), and the same lines in words beneath it.
#[component]
fn DisagreementMap() -> impl IntoView {
    let d = expect_context::<DebateView>();
    move || {
        let config = d.config.get()?;
        let crate::engine::config::FormatOptions::Crux(o) = &config.options else {
            return None;
        };
        let seats: Vec<String> = o.personas.iter().map(|p| p.seat.clone()).collect();
        let name = names(&Some(config.clone()));
        let findings = d.findings.get();
        let mut edges = Vec::new();
        for f in &findings {
            let FindingBody::Disagreement(x) = &f.body else {
                continue;
            };
            let index = |i: usize| {
                x.seats
                    .get(i)
                    .and_then(|s| seats.iter().position(|t| t == s))
            };
            let (Some(a), Some(b)) = (index(0), index(1)) else {
                continue;
            };
            let card = match CruxPath::parse(&f.key) {
                Some(CruxPath::Detection { aspect }) => {
                    let card = CruxPath::Card { aspect }.to_string();
                    findings.iter().find(|g| g.key == card).map(|g| &g.body)
                }
                _ => None,
            };
            let (class, words) = match (card, x.opened) {
                (Some(FindingBody::CruxCard(c)), _) if c.resolved => {
                    ("resolved", format!("resolved: {}", c.crux))
                }
                (Some(FindingBody::CruxCard(c)), _) => ("crux", format!("crux: {}", c.crux)),
                (Some(_), _) => ("weak", format!("card not extracted: {}", x.question)),
                (None, true) => ("open", format!("in a crux room: {}", x.question)),
                (None, false) => ("weak", format!("no room opened: {}", x.claim)),
            };
            edges.push(share::Edge {
                a,
                b,
                class,
                words: format!("{} and {}, {words}", name(&seats[a]), name(&seats[b])),
            });
        }
        let labels: Vec<String> = seats.iter().map(|s| name(s)).collect();
        let src = share::data_url(&share::map_svg(&labels, &edges));
        let lines = edges
            .iter()
            .map(|e| view! { <li class=format!("edge {}", e.class)>{e.words.clone()}</li> })
            .collect_view();
        Some(view! {
            <section class="crux-map">
                <h3>"Disagreement map"</h3>
                <img src=src alt=format!("{} between the personas", crate::engine::reading::count(edges.len(), "disagreement"))/>
                <ul class="edges">{lines}</ul>
            </section>
        })
    }
}

/// Each persona's shift between its opening and its closing, once detected.
#[component]
fn Shifts() -> impl IntoView {
    let d = expect_context::<DebateView>();
    move || {
        let name = names(&d.config.get());
        let rows: Vec<_> = d.findings.with(|all| {
            all.iter()
                .filter(|f| f.key.starts_with("shift/"))
                .map(|f| {
                    let who = name(&f.seat);
                    match &f.body {
                        FindingBody::PositionShift { shifted, from, to, moved_by } => {
                            let detail = if *shifted {
                                format!("From \u{201c}{from}\u{201d} to \u{201c}{to}\u{201d}.{}",
                                    if moved_by.is_empty() { String::new() } else { format!(" Moved by: {moved_by}") })
                            } else {
                                format!("Held: \u{201c}{to}\u{201d}")
                            };
                            view! {
                                <li class=format!("shift seat-{}", f.seat) data-shifted=shifted.to_string()>
                                    <strong>{who}</strong>
                                    <span class=if *shifted { "badge moved" } else { "badge held" }>{if *shifted { "Moved" } else { "Held" }}</span>
                                    <span>{detail}</span>
                                </li>
                            }
                            .into_any()
                        }
                        _ => view! { <li class="shift"><strong>{who}</strong>" not assessed"</li> }.into_any(),
                    }
                })
                .collect()
        });
        (!rows.is_empty()).then(|| {
            view! {
                <section class="crux-shifts"><h3>"Position shifts"</h3><ul>{rows}</ul></section>
            }
        })
    }
}

/// Everything crux shows beside the transcript: the open room, the deck, the map, shifts.
/// "Read the deck on its own" hides the transcript.
#[component]
pub fn CruxPanels() -> impl IntoView {
    let d = expect_context::<DebateView>();
    let deck_only = d.transcript_hidden;
    let deck = move || {
        d.findings
            .with(|all| all.iter().filter_map(card_view).collect::<Vec<_>>())
    };
    let count = move || {
        d.findings.with(|all| {
            let cards = all
                .iter()
                .filter(|f| matches!(f.body, FindingBody::CruxCard(_)))
                .count();
            let missing = all
                .iter()
                .filter(|f| matches!(f.body, FindingBody::CruxNotExtracted { .. }))
                .count();
            let ended = d.outcome.get().is_some();
            match (cards, missing) {
                (0, 0) if ended => {
                    "No crux cards: no two personas disagreed sharply enough to open a crux room."
                        .to_string()
                }
                (0, 0) => "No crux cards yet: a card comes out of each crux room.".to_string(),
                (c, 0) => crate::engine::reading::count(c, "crux card"),
                (c, m) => format!(
                    "{}, {m} not extracted",
                    crate::engine::reading::count(c, "crux card")
                ),
            }
        })
    };
    view! {
        <RoomPanel/>
        <section class="crux-deck" id="crux-deck">
            <header class="row">
                <h2>"Crux deck"</h2>
                <span class="hint" id="crux-count">{count}</span>
                <span class="spacer"></span>
                <button type="button" class="link" id="deck-only" on:click=move |_| deck_only.update(|x| *x = !*x)>
                    {move || if deck_only.get() { "Show the whole debate" } else { "Read the deck on its own" }}
                </button>
            </header>
            <div class="deck-cards">{deck}</div>
        </section>
        <div class="crux-side-panels">
            <DisagreementMap/>
            <Shifts/>
        </div>
    }
}

/// A crux finding in the transcript, where it happened: a card, a not-extracted card, or a
/// summary (its Markdown rendered, not shown as plain text).
pub fn finding_view(f: &Finding) -> Option<AnyView> {
    if let FindingBody::Summary { title, text } = &f.body {
        let text = RwSignal::new(text.clone());
        return Some(
            view! {
                <aside class="finding summary-finding" data-kind="Summary">
                    <strong>{title.clone()}</strong>
                    <Markdown text=text/>
                </aside>
            }
            .into_any(),
        );
    }
    card_view(f)
}
