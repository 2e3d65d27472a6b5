//! One block of the transcript: a turn as it streams (its status, a person's box to write
//! it, the format's extras under it, the fork button), an analysis call folded, a finding
//! where it happened, a phase title, a note, a retry with its countdown.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::engine::cost::dollars;
use crate::engine::event::{FinishReason, Input};
use crate::engine::finding::{Finding, FindingBody};
use crate::engine::reading;
use crate::ui::fork::fork_button;
use crate::ui::formats::{views_for, FormatViews, TurnCtx};
use crate::ui::markdown::Markdown;
use crate::ui::state::{
    turn_anchor, AppState, Block, BlockKind, DebateView, TurnBlock, TurnStatus, TurnView,
};

fn status_line(s: TurnStatus) -> Option<(&'static str, &'static str)> {
    match s {
        TurnStatus::Queued => Some((
            "waiting",
            "Queued: waiting for a free place on its connection",
        )),
        TurnStatus::Streaming => Some(("streaming", "Speaking…")),
        TurnStatus::AwaitingHuman => Some(("waiting", "Waiting for your turn")),
        TurnStatus::Done => None,
        // How a turn ended is worded once, for the screens and the exports alike.
        TurnStatus::Truncated => Some(("warn", reading::finish(FinishReason::Length)?)),
        TurnStatus::Limit(why) => Some(("warn", reading::finish(why)?)),
        TurnStatus::Cut => Some(("warn", reading::finish(FinishReason::Cut)?)),
        TurnStatus::Failed => Some(("error", "This turn failed")),
        TurnStatus::Retried => Some(("quiet", "This attempt failed and was tried again")),
        TurnStatus::Interrupted => Some((
            "warn",
            "Unfinished: the page was closed while this turn streamed",
        )),
    }
}

#[component]
fn HumanTurn(call: crate::engine::CallKey, view: TurnView) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let draft = RwSignal::new(String::new());
    let refused = RwSignal::new(None::<String>);
    let send = move |_| {
        let text = draft.get_untracked();
        if text.trim().is_empty() {
            return;
        }
        // A refused turn (too long) says why and keeps the draft to shorten.
        match d.input(Input::HumanTurn {
            call: call.clone(),
            text: text.trim().to_string(),
        }) {
            Ok(()) => {
                draft.set(String::new());
                refused.set(None);
            }
            Err(e) => refused.set(Some(e.to_string())),
        }
    };
    view! {
        {move || (view.status.get() == TurnStatus::AwaitingHuman).then(|| view! {
            <div class="human-input">
                <textarea rows="4" placeholder="Write this seat's turn…" prop:value=move || draft.get()
                    on:input=move |ev| draft.set(event_target_value(&ev))></textarea>
                <button class="primary" on:click=send.clone()>"Submit turn"</button>
                {move || refused.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            </div>
        })}
    }
}

/// Seconds left until `until_ms`, ticking while the block is on screen.
#[component]
fn Countdown(until_ms: u64) -> impl IntoView {
    use crate::engine::clock::Clock;
    let now = RwSignal::new(js_sys::Date::now() as u64);
    spawn_local(async move {
        loop {
            let t = js_sys::Date::now() as u64;
            // try_set hands the value back once the block (and its signal) is gone.
            if now.try_set(t).is_some() || t >= until_ms {
                break;
            }
            crate::session::browser::BrowserClock.sleep(250).await;
        }
    });
    // Once the debate has stopped, a countdown would promise a retry that will not come.
    let running = expect_context::<DebateView>().running;
    move || match (running.get(), until_ms.saturating_sub(now.get())) {
        (false, _) => String::new(),
        (true, 0) => "now…".to_string(),
        (true, left) => format!("in {} s", left.div_ceil(1000)),
    }
}

/// The screens of the debate on screen's format.
fn this_format(d: DebateView) -> Option<&'static FormatViews> {
    d.config
        .with_untracked(|c| c.as_ref().and_then(|c| views_for(c.format())))
}

/// A finding where it happened: in its format's own view, else as one plain line.
fn finding_view(d: DebateView, f: Finding) -> AnyView {
    if let Some(v) = this_format(d).and_then(|u| (u.finding)(&f)) {
        return v;
    }
    view! {
        <aside class="finding" data-kind=f.body.label()>
            <strong>{f.body.label()}</strong>
            " "
            <span>{f.body.summary()}</span>
        </aside>
    }
    .into_any()
}

pub(super) fn block_view(block: Block) -> AnyView {
    let key = block.key.clone();
    match block.kind {
        BlockKind::Retry {
            reason,
            attempt,
            max_attempts,
            until_ms,
        } => view! {
            <p class="note retry" role="status">
                {reason}
                <br/>
                {format!("Trying again (attempt {attempt} of {max_attempts}) ")}
                <Countdown until_ms=until_ms/>
            </p>
        }
        .into_any(),
        BlockKind::Phase { title } => view! { <h2 class="phase">{title}</h2> }.into_any(),
        BlockKind::Finding(f) => finding_view(expect_context::<DebateView>(), f),
        // The formats' runs could not be fetched: Reload is what brings them.
        BlockKind::Note { text, .. } if text == crate::session::chunk::RUNS_MISSING => {
            let reload = |_| {
                let _ = window().location().reload();
            };
            view! {
                <p class="note error">
                    {text}
                    " "
                    <button type="button" class="link" on:click=reload>"Reload"</button>
                </p>
            }
            .into_any()
        }
        BlockKind::Note { text, error, .. } => {
            view! { <p class="note" class:error=error>{text}</p> }.into_any()
        }
        BlockKind::Turn(TurnBlock {
            analysis: true,
            speaker,
            label,
            view,
            ..
        }) => view! {
            <details class="analysis-call" data-status=move || view.status.get().id()>
                <summary>
                    <span class="call-label">{label}</span>
                    " · "{speaker}
                    {move || status_line(view.status.get()).map(|(_, t)| format!(" · {t}"))}
                    // Why its answer could not be read, as the exports say it, without opening
                    // the call.
                    {move || view.judged.get().and_then(|f| match f.body {
                        FindingBody::Unscored { reason, .. } => Some(view! { <span class="analysis-unread">" · not read: "{reason}</span> }),
                        _ => None,
                    })}
                </summary>
                <pre>{move || view.text.get()}</pre>
                {move || view.error.get().map(|e| view! { <p class="turn-status error">{e}</p> })}
            </details>
        }
        .into_any(),
        BlockKind::Turn(TurnBlock {
            call,
            seat,
            speaker,
            model,
            label,
            view,
            ..
        }) => {
            let d = expect_context::<DebateView>();
            // Forking needs the app around the view (a widget has none).
            let in_app = use_context::<AppState>().is_some();
            let format = this_format(d);
            let extra = format.map_or("", |u| (u.turn_class)(&call));
            let seat_class = format!("turn seat-{seat} {extra}");
            let anchor = turn_anchor(&call);
            let (speaker_name, fork_label) = (speaker.clone(), label.clone());
            let under = format.map(|u| {
                (u.under_turn)(TurnCtx {
                    call: call.clone(),
                    seat: seat.clone(),
                    view,
                })
            });
            let meta = move || {
                view.usage.get().map(|u| {
                    let est = if u.estimated { " (estimated)" } else { "" };
                    let cost = view
                        .cost
                        .get()
                        .map(|c| format!(" · {}", dollars(c)))
                        .unwrap_or_default();
                    format!(
                        "{} tokens in, {} out{est}{cost}",
                        u.input_tokens, u.output_tokens
                    )
                })
            };
            let request = move || {
                let request = view.request.get();
                (!request.is_empty()).then(|| {
                    view! {
                        <details class="request">
                            <summary>"Request"</summary>
                            <pre>{request}</pre>
                        </details>
                    }
                })
            };
            let article = NodeRef::<leptos::html::Article>::new();
            let speaking_key = key.clone();
            let speaking = move || {
                d.speaking
                    .with(|k| k.as_deref() == Some(speaking_key.as_str()))
            };
            view! {
                // A named region per turn, its speaker and label as its heading, so a screen
                // reader can move from turn to turn.
                <article node_ref=article class=seat_class id=anchor.clone() data-status=move || view.status.get().id() data-block=key.clone()
                    role="region" aria-labelledby=format!("{anchor}-title")
                    class:speaking=speaking class:was-cut=move || view.cut_by.with(|c| c.is_some())>
                    <header class="turn-head">
                        <h3 class="turn-title" id=format!("{anchor}-title")>
                            <span class="speaker">{speaker}</span>" "
                            <span class="label">{label}</span>
                        </h3>
                        <span class="model">{model}</span>
                    </header>
                    <Show when=move || view.reasoning.with(|r| !r.is_empty())>
                        <details class="reasoning">
                            <summary>"Reasoning"</summary>
                            <Markdown text=view.reasoning/>
                        </details>
                    </Show>
                    <Markdown text=view.text/>
                    <super::quotes::TurnQuotes view=view article=article/>
                    <super::web::WebLinks view=view/>
                    {under}
                    <HumanTurn call=call.clone() view=view/>
                    {move || status_line(view.status.get()).filter(|_| view.cut_by.with(|c| c.is_none())).map(|(class, text)| view! {
                        <p class=format!("turn-status {class}")>
                            {text}
                            {move || view.error.get().map(|e| format!(": {e}"))}
                        </p>
                    })}
                    <footer class="turn-meta">
                        <span class="usage">{meta}</span>
                        {request}
                        {move || (view.status.get() == TurnStatus::Done && !d.running.get() && in_app).then(|| fork_button(call.clone(), format!("{speaker_name} — {fork_label}")))}
                    </footer>
                </article>
            }
            .into_any()
        }
    }
}
