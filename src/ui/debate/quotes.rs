//! A debate's sources on screen: each turn's quotes marked verified or not found (on the
//! quoted words in the text, and in a list under the turn), the line of sources and quote
//! counts under the debate's head, and the viewer that opens a source with a verified
//! quote's words highlighted. Source text is only ever a text node.

use leptos::html::Article;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::engine::sources::passages::split;
use crate::engine::sources::quotes::Checked;
use crate::engine::sources::Source;
use crate::ui::state::{DebateView, SourceAt, TurnView};

fn title_of(sources: &[Source], id: &str) -> String {
    sources
        .iter()
        .find(|s| s.id == id)
        .map_or_else(|| id.to_string(), |s| s.title.clone())
}

/// What a quote's mark says when pointed at or read out, and its status: `unchecked`
/// where it could not be checked (a share link that left the sources out).
fn verdict(q: &Checked, sources: &[Source], left_out: bool) -> (&'static str, String) {
    match &q.found {
        Some(f) => (
            "verified",
            format!(
                "Verified in {} ({})",
                f.label(),
                title_of(sources, &f.source)
            ),
        ),
        None if left_out => (
            "unchecked",
            "Not checked here: this link left the sources out".into(),
        ),
        None => ("not-found", "Not found in any source".into()),
    }
}

/// Whether the debate on screen came without its sources (from a share link).
fn left_out(d: DebateView) -> bool {
    d.config
        .with_untracked(|c| c.as_ref().is_some_and(|c| c.sources_left_out > 0))
}

/// The quotes of a turn: each quoted passage in its text marked with its check (the
/// markdown renders `<quote>` as a `q.src-quote`, in the same order the check reads them),
/// and a list under it, a verified quote's line opening its passage.
#[component]
pub fn TurnQuotes(view: TurnView, article: NodeRef<Article>) -> impl IntoView {
    let d = expect_context::<DebateView>();
    // The marks are set when the checks come, and once more a moment later: the text's
    // last block may be drawn again after a throttled redraw, without them.
    Effect::new(move |_| {
        let quotes = view.quotes.get();
        view.text.track();
        mark(d, article, &quotes);
        set_timeout(
            // The turn may be gone by then (a redrawn view): its signals too.
            move || {
                if let Some(quotes) = view.quotes.try_get_untracked() {
                    mark(d, article, &quotes)
                }
            },
            std::time::Duration::from_millis(300),
        );
    });
    move || {
        let quotes = view.quotes.get();
        (!quotes.is_empty()).then(|| {
            let sources = d.sources.get_untracked();
            let left_out = left_out(d);
            let items = quotes
                .into_iter()
                .map(|q| {
                    let (status, line) = verdict(&q, &sources, left_out);
                    let words = format!("“{}”", q.text);
                    match q.found.clone() {
                        Some(f) => view! {
                            <li class="quote verified">
                                <span class="mark" aria-hidden="true">"✓"</span>
                                <span class="words">{words}</span>" "
                                <button class="link open-source" on:click=move |_| d.source_open.set(Some(SourceAt::from(&f)))>{line}</button>
                            </li>
                        }
                        .into_any(),
                        None => view! {
                            <li class=format!("quote {status}")>
                                <span class="mark" aria-hidden="true">{if left_out { "?" } else { "✗" }}</span>
                                <span class="words">{words}</span>" "
                                <span class="verdict">{line}</span>
                            </li>
                        }
                        .into_any(),
                    }
                })
                .collect_view();
            view! {
                <details class="quotes" open>
                    <summary>{quote_summary(&view.quotes.get_untracked(), left_out)}</summary>
                    <ul>{items}</ul>
                </details>
            }
        })
    }
}

/// Sets each quote mark in the turn's text to its check's status.
fn mark(d: DebateView, article: NodeRef<Article>, quotes: &[Checked]) {
    let Some(article) = article.try_get_untracked().flatten() else {
        return;
    };
    // The turn's own text (not its reasoning), each mark matched to the check of the
    // same words, in order: a mark the check does not count (an empty or unclosed
    // quote) is left without a status rather than shifting the others.
    let Ok(marks) = article.query_selector_all(":scope > .md q.src-quote") else {
        return;
    };
    let sources = d.sources.get_untracked();
    let left_out = left_out(d);
    let mut next = 0;
    for i in 0..marks.length() {
        let Some(el) = marks
            .get(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        else {
            continue;
        };
        let words = el.text_content().unwrap_or_default();
        let Some(k) = quotes[next..]
            .iter()
            .position(|q| q.text == words.trim())
            .map(|k| next + k)
        else {
            continue;
        };
        next = k + 1;
        let (status, line) = verdict(&quotes[k], &sources, left_out);
        let _ = el.set_attribute("data-status", status);
        let _ = el.set_attribute("title", &line);
    }
}

fn quote_summary(quotes: &[Checked], left_out: bool) -> String {
    let verified = quotes.iter().filter(|q| q.verified()).count();
    let missing = quotes.len() - verified;
    match missing {
        0 => format!("Quotes: {verified} verified"),
        _ if left_out => format!("Quotes: {verified} verified, {missing} not checked here"),
        _ => format!("Quotes: {verified} verified, {missing} not found"),
    }
}

/// Under the debate's head: its sources (each opens in the viewer) and each seat's quotes.
#[component]
pub fn SourcesLine() -> impl IntoView {
    let d = expect_context::<DebateView>();
    move || {
        let sources = d.sources.get();
        (!sources.is_empty()).then(|| {
            let list = sources
                .into_iter()
                .map(|s| {
                    let at = SourceAt {
                        source: s.id.clone(),
                        mark: None,
                    };
                    view! {
                        <li><button class="link" on:click=move |_| d.source_open.set(Some(at.clone()))>
                            {format!("{} · {}", s.id, s.title)}
                        </button></li>
                    }
                })
                .collect_view();
            let counts = move || {
                d.quote_counts
                    .get()
                    .into_iter()
                    .map(|c| {
                        let missing = if left_out(d) { "not checked here" } else { "not found" };
                        view! {
                            <li data-seat=c.seat.clone()>{format!(
                                "{}: {}, {} verified, {} {missing}",
                                c.speaker, crate::engine::reading::count(c.made as usize, "quote"), c.verified, c.not_found()
                            )}</li>
                        }
                    })
                    .collect_view()
            };
            view! {
                <section class="sources-line" aria-label="Sources">
                    <h3>"Sources"</h3>
                    <ul class="source-list">{list}</ul>
                    <ul class="quote-counts">{counts}</ul>
                </section>
            }
        })
    }
}

/// The source open in the viewer: the passages around a verified quote with its words
/// highlighted, or the whole source.
#[component]
pub fn SourceViewer() -> impl IntoView {
    let d = expect_context::<DebateView>();
    let close = move || d.source_open.set(None);
    move || {
        let at = d.source_open.get()?;
        let source = d
            .sources
            .with(|s| s.iter().find(|s| s.id == at.source).cloned())?;
        let (label, from, to) = match at.mark {
            Some((start, end)) => {
                // The passages the quote starts and ends in, whole.
                let passages = split(&source);
                let first = passages.iter().rfind(|p| p.start <= start);
                let last = passages.iter().find(|p| p.end >= end);
                let from = first.map_or(0, |p| p.start);
                let to = last.map_or(source.text.len(), |p| p.end);
                let label = match (first, last) {
                    (Some(a), Some(b)) if a.number != b.number => {
                        format!("{} ¶{}–{}", source.id, a.number, b.number)
                    }
                    (Some(a), _) => a.label(),
                    _ => source.id.clone(),
                };
                (label, from, to)
            }
            None => (source.id.clone(), 0, source.text.len()),
        };
        let text = &source.text;
        let (mark_start, mark_end) = at.mark.unwrap_or((from, from));
        let before = text[from..mark_start.clamp(from, to)].to_string();
        let marked = text[mark_start.clamp(from, to)..mark_end.clamp(from, to)].to_string();
        let after = text[mark_end.clamp(from, to)..to].to_string();
        let whole = at.mark.is_some().then(|| {
            let id = source.id.clone();
            view! {
                <button class="link" on:click=move |_| d.source_open.set(Some(SourceAt { source: id.clone(), mark: None }))>
                    "Show the whole source"
                </button>
            }
        });
        // A page a web search cited: its address (checked again here, whatever file the
        // debate came from), and a word when the provider returned none of its text.
        let page = match &source.origin {
            crate::engine::sources::Origin::Web { url }
                if crate::engine::sources::web::is_web_address(url) =>
            {
                Some(view! {
                <p class="hint"><a href=url.clone() target="_blank" rel="noopener noreferrer nofollow" referrerpolicy="no-referrer">{url.clone()}</a></p>
                })
            }
            _ => None,
        };
        let unread = source.text.is_empty().then(|| view! {
            <p class="hint">"The search returned only this page's address; Agora has not read the page, so no quote can be checked against it."</p>
        });
        Some(view! {
            <aside class="source-viewer card" role="dialog" aria-label=format!("Source {}", source.title)
                on:keydown=move |ev| if ev.key() == "Escape" { close() }>
                <header>
                    <h3>{source.title.clone()}</h3>
                    <span class="passage-label">{label}</span>
                    <button class="secondary close-source" on:click=move |_| close() autofocus>"Close"</button>
                </header>
                {page}
                <div class="source-text">
                    {before}
                    {(!marked.is_empty()).then(|| view! { <mark>{marked}</mark> })}
                    {after}
                </div>
                {unread}
                {whole}
            </aside>
        })
    }
}
