//! The debate screen: the transcript as it streams (or as stored), a progress line, and the
//! controls: stop, resume, the cap, exports and sharing, an audience question, and the box
//! for a human seat's turn. Each part is a component of its own file:
//!
//! - `head`: a shared debate's banner and the debate's head;
//! - `controls`: the state, progress, Pause, Stop and Resume;
//! - `costs`: costs, structured reads, the cap, exports and the share link;
//! - `turn`: one block of the transcript (a turn, a finding, a note…);
//! - `ask`: the audience's question or evidence;
//! - `quotes`: the sources, each turn's checked quotes and the source viewer;
//! - `focused`: one finding alone, when a link opened on it.

mod ask;
mod controls;
mod costs;
mod focused;
mod head;
mod quotes;
mod turn;
mod web;

use leptos::prelude::*;

use super::app::navigate;
use super::chunks::{self, ChunkFailed, ChunkWait, Fetched};
use super::fork::{ForkAt, ForkPanel};
use super::formats::{views_chunk, FormatViews};
use super::state::{AppState, DebateView, Route};
use crate::engine::config::FormatId;
use crate::engine::event::Outcome;

/// The debate's format, and its drawing: the chunk fetched as soon as the debate's start
/// is known, `None` while it comes (and while `follow` still holds another format's for a
/// tick after the format changed).
fn format_views(
    d: DebateView,
) -> (
    Memo<Option<FormatId>>,
    Signal<Fetched<&'static FormatViews>>,
) {
    let format = Memo::new(move |_| d.config.with(|c| c.as_ref().map(|c| c.format())));
    let fetched = chunks::follow(move || format.get().map(views_chunk));
    let views = Signal::derive(move || match fetched.get() {
        Some(Ok(v)) if Some(v.id) != format.get() => None,
        other => other,
    });
    (format, views)
}

/// A debate that could not be opened: why, and the way back to the history.
/// 0 now, then 1 and 2 in the browser's next two tasks: which part of the screen is drawn.
fn in_three_tasks() -> RwSignal<u8> {
    let task = RwSignal::new(0u8);
    set_timeout(
        move || {
            task.set(1);
            set_timeout(move || task.set(2), std::time::Duration::ZERO);
        },
        std::time::Duration::ZERO,
    );
    task
}

#[component]
fn LoadFailed() -> impl IntoView {
    let d = expect_context::<DebateView>();
    let app = use_context::<AppState>();
    view! {
        <div class="card empty">
            <p class="error">{move || d.load_error.get()}</p>
            {app.map(|app| view! {
                <a href="#" on:click=move |ev| { ev.prevent_default(); navigate(app, Route::History) }>"Back to history"</a>
            })}
        </div>
    }
}

#[component]
pub fn DebateScreen() -> impl IntoView {
    let d = expect_context::<DebateView>();
    // The app around the view, for its links; none in a widget.
    let app = use_context::<AppState>();
    provide_context(ForkAt(RwSignal::new(None)));
    // The screen's one line for an action that was refused, whichever part refused it.
    let error = RwSignal::new(None::<String>);
    let share_link = RwSignal::new(None::<Result<super::share::Shared, String>>);
    // The format's drawing, then its own panels, drawn again only when the debate's format
    // changes. The screen comes in three browser tasks: its head at once when Start is
    // pressed, then the panels, then the turns already under way (a forecast's first
    // five), so no task runs long (BENCHMARKS.md, "Five streams at once").
    let (format, views) = format_views(d);
    let ready = move || views.with(|v| matches!(v, Some(Ok(_))));
    // A long stored debate is drawn a slice at a time (no long task), counted from when
    // its turns can be drawn, with their format's decorations: none before.
    let (drawn, all_drawn) = super::progressive::progressively_tracked(Signal::derive(move || {
        if ready() {
            d.blocks.get()
        } else {
            Vec::new()
        }
    }));
    let drawn_in = in_three_tasks();
    let panels_due = Memo::new(move |_| drawn_in.get() >= 1 && format.with(Option::is_some));
    let panels = move || {
        panels_due.get().then(|| match views.get() {
            Some(Ok(v)) => (v.panels)(),
            None => view! { <ChunkWait/> }.into_any(),
            Some(Err(_)) => view! { <ChunkFailed/> }.into_any(),
        })
    };
    let blocks = move || {
        if drawn_in.get() >= 2 {
            drawn()
        } else {
            Vec::new()
        }
    };
    // Busy while a debate's turns are not all on screen yet: its format's drawing is still
    // on its way, or a long debate is drawn a slice at a time (not when the drawing could
    // not be fetched: that says so, with Reload). Screen readers wait for it, and so can
    // anything that reads the whole transcript (the end-to-end tests).
    let failed = move || views.with(|v| matches!(v, Some(Err(_))));
    let busy = move || {
        d.config.with(Option::is_some)
            && !failed()
            && !(drawn_in.get() >= 2 && ready() && all_drawn())
    };
    let focused = focused::focused_finding(d, views);
    let shared = move || d.shared.with(Option::is_some);
    let ended_short = move || {
        d.outcome
            .get()
            .and_then(|(o, m)| (o != Outcome::Completed).then_some(m).flatten())
    };

    view! {
        <Show when=move || d.load_error.get().is_none() fallback=LoadFailed>
            <focused::FocusedFinding focused=focused views=views/>
            // A link that opens on one finding waits for its format's drawing to know
            // whether it shows the finding alone, rather than showing the whole debate first.
            {move || (d.focus.with(Option::is_some) && views.with(Option::is_none)).then(|| view! { <ChunkWait/> })}
            <section class="debate" class:hidden=move || {
                focused.with(Option::is_some) || (d.focus.with(Option::is_some) && views.with(Option::is_none))
            }>
                {move || app.filter(|_| shared()).map(|app| view! { <head::SharedBanner app=app error=error/> })}
                <head::DebateHead whole=true/>
                <controls::RunControls error=error/>
                <p class="sr-only" id="announcer" aria-live="polite">{move || d.announced.get()}</p>
                <costs::CostsLine error=error share_link=share_link/>
                <quotes::SourcesLine/>
                <quotes::SourceViewer/>
                {move || share_link.get().map(|made| view! { <super::share::SharePanel made=made close=move || { share_link.set(None); super::focus::focus_selector("#share") }/> })}
                <Show when=move || !d.running.get() && d.config.with(Option::is_some)>
                    <super::replay::Replay/>
                </Show>
                {move || ended_short().map(|m| view! { <p class="note">{m}</p> })}
                {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                {move || d.loading.get().then(|| view! { <p class="hint">"Loading…"</p> })}
                {panels}
                <div class="transcript" class:hidden=move || d.transcript_hidden.get()
                    aria-busy=move || busy().then_some("true")>
                    <For each=blocks key=|b| (b.epoch, b.key.clone()) let:block>
                        {turn::block_view(block)}
                    </For>
                </div>
                <ForkPanel/>
                {move || d.running.get().then(|| view! { <ask::AskForm error=error/> })}
            </section>
        </Show>
    }
}
