//! The debate screen: the transcript as it streams (or as stored), a progress line, and the
//! controls: stop, resume, an audience question, and the box for a human seat's turn.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::app::navigate;
use super::download;
use super::fork::{fork_button, ForkAt, ForkPanel, ForkedFrom};
use super::formats::{ui_for, TurnCtx};
use super::markdown::Markdown;
use super::state::{
    turn_anchor, AppState, Block, BlockKind, DebateView, Route, TurnStatus, TurnView,
};
use crate::engine::cost::{self, dollars};
use crate::engine::event::{FinishReason, Input, Outcome};
use crate::engine::export::ExportKind;
use crate::engine::finding::Finding;
use crate::engine::reading;

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
fn this_format(d: DebateView) -> Option<&'static super::formats::FormatUi> {
    d.config
        .with_untracked(|c| c.as_ref().map(|c| ui_for(c.format())))
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

fn block_view(block: Block) -> AnyView {
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
        BlockKind::Note { text, error } => {
            view! { <p class="note" class:error=error>{text}</p> }.into_any()
        }
        BlockKind::Turn {
            analysis: true,
            speaker,
            label,
            view,
            ..
        } => view! {
            <details class="analysis-call" data-status=move || view.status.get().id()>
                <summary>
                    <span class="call-label">{label}</span>
                    " · "{speaker}
                    {move || status_line(view.status.get()).map(|(_, t)| format!(" · {t}"))}
                </summary>
                <pre>{move || view.text.get()}</pre>
                {move || view.error.get().map(|e| view! { <p class="turn-status error">{e}</p> })}
            </details>
        }
        .into_any(),
        BlockKind::Turn {
            call,
            seat,
            speaker,
            model,
            label,
            view,
            ..
        } => {
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
            let speaking_key = key.clone();
            let speaking = move || {
                d.speaking
                    .with(|k| k.as_deref() == Some(speaking_key.as_str()))
            };
            view! {
                // A named region per turn, its speaker and label as its heading, so a screen
                // reader can move from turn to turn.
                <article class=seat_class id=anchor.clone() data-status=move || view.status.get().id() data-block=key.clone()
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

#[component]
pub fn DebateScreen() -> impl IntoView {
    let d = expect_context::<DebateView>();
    // The app around the view, for its links; none in a widget.
    let app = use_context::<AppState>();
    provide_context(ForkAt(RwSignal::new(None)));
    let question = RwSignal::new(String::new());
    let as_evidence = RwSignal::new(false);
    let action_error = RwSignal::new(None::<String>);
    // A long stored debate is drawn a slice at a time (no long task).
    let drawn = super::progressive::progressively(d.blocks);

    let stop = move |_| {
        if d.stop() {
            // Stop goes away with the run; Resume, drawn once it has ended, comes next.
            super::focus::focus_when(move || {
                (!d.running.get_untracked())
                    .then(|| super::focus::query("#resume").into_iter().next())
                    .flatten()
            });
        }
    };
    let toggle_pause = move |_| d.toggle_pause();
    let resume = move |_| {
        action_error.set(None);
        let resumed = d.resume();
        spawn_local(async move {
            if let Err(e) = resumed.await {
                action_error.set(Some(e.to_string()));
            }
        });
    };
    let ask = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = question.get_untracked();
        if text.trim().is_empty() {
            return;
        }
        let text = text.trim().to_string();
        // Evidence is a note the next turns must take into account; a question asks them.
        let input = if as_evidence.get_untracked() {
            Input::Evidence { text }
        } else {
            Input::Question { text }
        };
        match d.input(input) {
            Ok(()) => question.set(String::new()),
            Err(e) => action_error.set(Some(e.to_string())),
        }
    };

    let status = move || match (d.running.get(), d.outcome.get()) {
        (true, _) if d.paused.get() || d.held.get() || d.waiting.get() => {
            ("stopped", "Paused".to_string())
        }
        (true, _) => ("running", "Running".to_string()),
        (false, Some((Outcome::Completed, _))) => ("done", "Finished".to_string()),
        (false, Some((Outcome::Stopped, _))) => ("stopped", "Stopped".to_string()),
        (false, Some((Outcome::Failed, _))) => ("failed", "Failed".to_string()),
        (false, None) => ("stopped", "Interrupted".to_string()),
    };
    let progress = move || {
        let p = d.progress.get();
        let tokens = p.input_tokens + p.output_tokens;
        let est = if p.estimated { " (estimated)" } else { "" };
        // Some calls depend on what is said (an interruption, an interjection, a retry
        // of a weak argument): past the plan, the count stops saying "of".
        // A finished debate made the calls it needed: a plan is an upper bound for formats
        // whose calls depend on what is said (crux rooms, regenerations), so "67 of 103"
        // would read as stopped short.
        let finished = matches!(d.outcome.get(), Some((Outcome::Completed, _)));
        let calls = if finished && p.calls_done < p.planned {
            format!(
                "{} calls (the plan allowed up to {})",
                p.calls_done, p.planned
            )
        } else if finished {
            format!("{} calls", p.calls_done)
        } else if p.calls_done <= p.planned {
            format!("{} of {} calls", p.calls_done, p.planned)
        } else {
            format!("{} calls ({} planned)", p.calls_done, p.planned)
        };
        format!(
            "{} · {calls} · {} tokens{}",
            if p.phase.is_empty() {
                "Starting"
            } else {
                &p.phase
            },
            tokens,
            est
        )
    };
    let costs = move || {
        let l = d.ledger.get();
        let names = d.config.with(|c| {
            c.as_ref().map(|c| {
                l.seats
                    .iter()
                    .map(|(id, usd)| {
                        let name = c.seat(id).map_or(id.as_str(), |s| s.name.as_str());
                        format!("{name} {}", l.shown(id, *usd))
                    })
                    .collect::<Vec<_>>()
                    .join(" · ")
            })
        })?;
        let est = if l.estimated { " (estimated)" } else { "" };
        let cap = d
            .cap
            .get()
            .map(|c| format!(" of a {} cap", dollars(c)))
            .unwrap_or_default();
        Some(format!("Cost {}{est}{cap}: {names}", dollars(l.total)))
    };
    let cap_draft = RwSignal::new(String::new());
    let set_cap = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = cap_draft.get_untracked();
        let usd = match text.trim() {
            "" => None,
            t => match cost::parse_decimal(t) {
                Some(x) if x > 0.0 => Some(x),
                _ => {
                    action_error.set(Some(
                        "The cap is a number of dollars above 0, like 0.50 (empty for no cap)."
                            .into(),
                    ));
                    return;
                }
            },
        };
        match d.input(Input::SpendingCap { usd }) {
            Ok(()) => {
                action_error.set(None);
                cap_draft.set(String::new());
            }
            Err(e) => action_error.set(Some(e.to_string())),
        }
    };
    // Every export is made from the stored log: Markdown, JSON (re-imports to the same
    // debate), plain text, seed 003's folder as a .zip, and Argdown (an argument map).
    let export = move |kind: ExportKind| {
        let log = d.log();
        spawn_local(async move {
            let saved = match log.await {
                Ok(events) => {
                    let file = kind.render(&events);
                    download::save_bytes(&file.name, file.mime, &file.bytes)
                }
                Err(e) => Err(e),
            };
            if let Err(e) = saved {
                action_error.set(Some(e.to_string()));
            }
        });
    };
    // Share: the link, or why there is none (too large for a link).
    let share_link = RwSignal::new(None::<Result<String, String>>);
    let share = move |_| {
        let log = d.log();
        spawn_local(async move {
            let made = match log.await {
                Ok(events) => {
                    let base = d.share_base.get_value();
                    super::share::link(&events, base.as_deref(), None).await
                }
                Err(e) => Err(e),
            };
            share_link.set(Some(made));
            super::focus::focus_selector("#share-url, #share-error");
        });
    };
    let shared = move || d.shared.with(Option::is_some);
    let keep_copy = move |_| {
        let (Some(s), Some(events), Some(app)) = (d.session.get(), d.shared.get_untracked(), app)
        else {
            return;
        };
        spawn_local(async move {
            match s.adopt(events.as_ref().clone()).await {
                Ok(id) => navigate(app, Route::Debate(id)),
                Err(e) => action_error.set(Some(format!("The copy could not be kept: {e}"))),
            }
        });
    };

    // The format's own panels, drawn again only when the debate's format changes. The
    // screen comes in three browser tasks: its head at once when Start is pressed, then
    // the panels, then the turns already under way (a forecast's first five), so no task
    // runs long (BENCHMARKS.md, "Five streams at once").
    let format = Memo::new(move |_| d.config.with(|c| c.as_ref().map(|c| c.format())));
    let drawn_in = RwSignal::new(0u8);
    set_timeout(
        move || {
            drawn_in.set(1);
            set_timeout(move || drawn_in.set(2), std::time::Duration::ZERO);
        },
        std::time::Duration::ZERO,
    );
    let panels = move || (drawn_in.get() >= 1).then(|| format.get().map(|f| (ui_for(f).panels)()));
    let turns = move || {
        if drawn_in.get() >= 2 {
            drawn()
        } else {
            Vec::new()
        }
    };
    let can_resume = move || {
        !shared() && (d.running.get() && d.held.get())
            || (!shared()
                && !d.running.get()
                && !matches!(d.outcome.get(), Some((Outcome::Completed, _)))
                && d.config.with(|c| c.is_some()))
    };

    // A link that opened on one finding (a crux card, a forecast) shows it alone, with the
    // way to the whole debate when the link holds it.
    let focused = Memo::new(move |_| {
        let key = d.focus.get()?;
        let format = d.config.with(|c| c.as_ref().map(|c| c.format()))?;
        d.findings.with(|all| {
            all.iter()
                .find(|f| f.key == key)
                .filter(|f| (ui_for(format).alone)(f).is_some())
                .cloned()
        })
    });
    let whole_in_link = move || {
        d.shared.with(|s| {
            s.as_ref().is_some_and(|log| {
                log.iter()
                    .any(|e| matches!(e.kind, crate::engine::event::EventKind::TurnFinished { .. }))
            })
        })
    };
    let alone = move || {
        let f = focused.get()?;
        let format = d.config.with(|c| c.as_ref().map(|c| c.format()))?;
        let label = f.body.label().to_lowercase();
        Some(view! {
            <section class="debate focused">
                {app.is_some().then(|| view! {
                    <div class="shared-banner" role="note">
                        <p><strong>"Shared with you."</strong>{format!(" One {label} from a debate, read-only; nothing of it is stored in this browser.")}</p>
                    </div>
                })}
                <header class="debate-head">
                    <p class="kicker">{move || d.config.with(|c| c.as_ref().map(|c| c.options.describe()))}</p>
                    <h1 class="topic">{move || d.config.with(|c| c.as_ref().map(|c| c.topic.clone()))}</h1>
                </header>
                {(ui_for(format).alone)(&f)}
                {move || if whole_in_link() {
                    view! { <button type="button" id="see-whole" class="secondary" on:click=move |_| d.focus.set(None)>"See the whole debate"</button> }.into_any()
                } else {
                    view! { <p class="hint" id="alone-note">"The link holds this finding and the debate's setup only, not its turns."</p> }.into_any()
                }}
            </section>
        })
    };

    view! {
        <Show when=move || d.load_error.get().is_none() fallback=move || view! {
            <div class="card empty">
                <p class="error">{move || d.load_error.get()}</p>
                {app.map(|app| view! {
                    <a href="#" on:click=move |ev| { ev.prevent_default(); navigate(app, Route::History) }>"Back to history"</a>
                })}
            </div>
        }>
            {alone}
            <section class="debate" class:hidden=move || focused.with(Option::is_some)>
                {move || (shared() && app.is_some()).then(|| view! {
                    <div class="shared-banner" role="note">
                        <p><strong>"Shared with you."</strong>" This debate came in the link you opened: it is read-only and nothing of it is stored in this browser unless you keep a copy. Replay and exports work as they do for your own debates."</p>
                        <div class="row">
                            <button type="button" id="keep-copy" class="primary" on:click=keep_copy>"Keep a copy"</button>
                            <span class="hint">"or press Continue from here under a turn to go on from it with your own connection."</span>
                        </div>
                    </div>
                })}
                <header class="debate-head">
                    <p class="kicker">{move || d.config.with(|c| c.as_ref().map(|c| c.options.describe()))}</p>
                    // Focused after Start, so the next Tab goes on from the debate.
                    <h1 class="topic" tabindex="-1">{move || d.config.with(|c| c.as_ref().map(|c| c.topic.clone()))}</h1>
                    <ForkedFrom/>
                    <ul class="seat-list">
                        {move || d.config.with(|c| c.as_ref().map(|c| c.seats.iter().map(|s| {
                            let stance = s.stance.clone().map(|x| format!(": {x}")).unwrap_or_default();
                            view! { <li class=format!("seat-{}", s.id)><strong>{s.name.clone()}</strong>{stance}<span class="model">{s.participant.describe()}</span></li> }
                        }).collect_view()))}
                    </ul>
                </header>
                // Only the state is a live region; the token counts change too often to be
                // read out, and each finished turn is said once by the announcer below.
                <div class="progress">
                    <span class=move || format!("badge {}", status().0) role="status">{move || status().1}</span>
                    <span class="progress-text">{progress}</span>
                    <span class="spacer"></span>
                    // A debate held at a failed call offers Resume, not Pause: it starts no
                    // call until the user resumes (calls already streaming finish).
                    {move || (d.running.get() && !d.held.get()).then(|| view! {
                        <button id="pause" class="secondary" on:click=toggle_pause
                            title="Pausing lets the turn in flight finish, then waits">
                            {move || if d.paused.get() { "Continue" } else { "Pause" }}
                        </button>
                    })}
                    {move || d.running.get().then(|| view! {
                        <button id="stop" class="danger" on:click=stop>"Stop"</button>
                    })}
                    {move || can_resume().then(|| view! {
                        <button id="resume" class="secondary" on:click=resume>"Resume"</button>
                    })}
                </div>
                <p class="sr-only" id="announcer" aria-live="polite">{move || d.announced.get()}</p>
                <div class="costs-line">
                    <span id="costs">{costs}</span>
                    {move || {
                        let t = d.reads.get();
                        (t.total() > 0).then(|| view! {
                            <span id="structured-reads" data-parsed=t.parsed data-repaired=t.repaired data-unread=t.unread
                                title="Scores, evaluations, forecasts and cards: read from the first answer, after one repair request, or not at all">
                                {reading::reads(&t)}
                            </span>
                        })
                    }}
                    {move || d.running.get().then(|| view! {
                        <form class="cap" on:submit=set_cap>
                            <input id="cap-input" type="number" min="0" step="any" aria-label="Spending cap in dollars" placeholder="Cap $"
                                prop:value=move || cap_draft.get() on:input=move |ev| cap_draft.set(event_target_value(&ev))/>
                            <button type="submit" class="secondary">"Set cap"</button>
                        </form>
                    })}
                    <span class="spacer"></span>
                    <span class="exports">"Export: "
                        {ExportKind::ALL.map(|kind| view! {
                            <button id=format!("export-{}", kind.id()) class="link" on:click=move |_| export(kind)>{kind.label()}</button>
                        })}
                        {move || (!d.running.get() && d.config.with(Option::is_some)).then(|| view! {
                            " · "<button type="button" id="share" class="link" on:click=share>"Share link"</button>
                        })}
                    </span>
                </div>
                {move || share_link.get().map(|made| view! { <super::share::SharePanel made=made close=move || { share_link.set(None); super::focus::focus_selector("#share") }/> })}
                <Show when=move || !d.running.get() && d.config.with(Option::is_some)>
                    <super::replay::Replay/>
                </Show>
                {move || d.outcome.get().and_then(|(o, m)| (o != Outcome::Completed).then_some(m).flatten()).map(|m| view! { <p class="note">{m}</p> })}
                {move || action_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                {move || d.loading.get().then(|| view! { <p class="hint">"Loading…"</p> })}
                {panels}
                <div class="transcript" class:hidden=move || d.transcript_hidden.get()>
                    <For each=turns key=|b| (b.epoch, b.key.clone()) let:block>
                        {block_view(block)}
                    </For>
                </div>
                <ForkPanel/>
                {move || d.running.get().then(|| view! {
                    <form class="ask" on:submit=ask>
                        <input id="ask-input" aria-label="A question or evidence for the debaters"
                            placeholder="Ask a question or add evidence (the next turns take it into account)" prop:value=move || question.get()
                            on:input=move |ev| question.set(event_target_value(&ev))/>
                        <button type="submit" id="ask" class="secondary" on:click=move |_| as_evidence.set(false)>"Ask"</button>
                        <button type="submit" id="add-evidence" class="secondary" on:click=move |_| as_evidence.set(true)>"Add evidence"</button>
                    </form>
                })}
            </section>
        </Show>
    }
}
