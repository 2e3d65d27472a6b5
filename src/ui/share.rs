//! Share links: the whole debate in the URL's fragment (`#share=1.…`), as its JSON export
//! deflated by the browser's own `CompressionStream` (the zlib format, whose Adler-32
//! checksum catches a link changed on the way) and written in base64url. A fragment
//! is never sent to any server, so the link carries the debate from one browser to another
//! with nobody in between. Opening one treats it as the untrusted file it is: it is
//! inflated up to the import limit only, then read by the same `export::import` that
//! checks every imported file (sizes, schema, version, key-like fields).

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine;
use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::DebateView;
use crate::engine::event::Event;
use crate::engine::export;

/// What follows `#` in a share link; the `1.` is the encoding's version.
pub const PREFIX: &str = "share=1.";
/// After the data, the finding a link opens on (one crux card, one forecast).
const FOCUS: &str = "&focus=";

/// The longest link Agora makes. Chromium, Firefox and Safari open far longer ones (about
/// 2 MB), but chat apps, mail clients and link shorteners cut or refuse long URLs well
/// before that; 100,000 characters fit every debate of a few rounds, and a longer one is
/// better shared as its JSON file.
pub const MAX_LINK_CHARS: usize = 100_000;

fn js_error(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the browser refused".into())
}

/// Pipes `bytes` through a `CompressionStream` or `DecompressionStream` (zlib's deflate),
/// reading at most `limit` bytes of output: a small link must not inflate into gigabytes.
async fn through(stream_class: &str, bytes: &[u8], limit: usize) -> Result<Vec<u8>, String> {
    let global = js_sys::global();
    let class: js_sys::Function = Reflect::get(&global, &stream_class.into())
        .ok()
        .and_then(|c| c.dyn_into().ok())
        .ok_or("This browser cannot compress data (no CompressionStream); update it to open or make share links.")?;
    let transform = Reflect::construct(&class, &Array::of1(&"deflate".into())).map_err(js_error)?;
    let parts = Array::of1(&Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(js_error)?;
    let source = blob.stream();
    let pipe: js_sys::Function = Reflect::get(&source, &"pipeThrough".into())
        .map_err(js_error)?
        .dyn_into()
        .map_err(js_error)?;
    let output: web_sys::ReadableStream = pipe
        .call1(&source, &transform)
        .map_err(js_error)?
        .unchecked_into();
    let reader: web_sys::ReadableStreamDefaultReader = output.get_reader().unchecked_into();
    let mut out = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(js_error)?;
        if Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            == Some(true)
        {
            return Ok(out);
        }
        let value: Uint8Array = Reflect::get(&chunk, &"value".into())
            .map_err(js_error)?
            .unchecked_into();
        if out.len() + value.length() as usize > limit {
            let _ = reader.cancel();
            return Err(format!("it holds more than {} MB", limit / (1024 * 1024)));
        }
        let start = out.len();
        out.resize(start + value.length() as usize, 0);
        value.copy_to(&mut out[start..]);
    }
}

/// A share link, and how many of the debate's sources it had to leave out to fit.
#[derive(Clone, Debug)]
pub struct Shared {
    pub url: String,
    pub sources_left_out: u32,
}

/// A link to `app` (Agora's page: this one, or the one a widget comes from) that opens
/// the debate (on the finding `focus`, when given), with its sources when they fit and
/// without them when only that fits; or why it is too large for a link.
pub async fn link(
    events: &[Event],
    app: Option<&str>,
    focus: Option<&str>,
) -> Result<Shared, String> {
    match link_of(events, app, focus).await {
        Err(e) => match export::without_sources(events) {
            Some(slim) => {
                let url = link_of(&slim, app, focus).await.map_err(|_| e)?;
                let sources_left_out =
                    crate::engine::event::config_of(&slim).map_or(0, |c| c.sources_left_out);
                Ok(Shared {
                    url,
                    sources_left_out,
                })
            }
            None => Err(e),
        },
        Ok(url) => Ok(Shared {
            url,
            sources_left_out: 0,
        }),
    }
}

async fn link_of(
    events: &[Event],
    app: Option<&str>,
    focus: Option<&str>,
) -> Result<String, String> {
    let json = export::to_json(events);
    let packed = through("CompressionStream", json.as_bytes(), usize::MAX).await?;
    let mut fragment = format!("{PREFIX}{}", B64.encode(packed));
    if let Some(key) = focus {
        fragment.push_str(FOCUS);
        fragment.push_str(&String::from(js_sys::encode_uri_component(key)));
    }
    let page = app.map(str::to_string).unwrap_or_else(|| {
        web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default()
    });
    let base = page
        .split('#')
        .next()
        .unwrap_or_default()
        .split('?')
        .next()
        .unwrap_or_default();
    let url = format!("{base}#{fragment}");
    if url.len() > MAX_LINK_CHARS {
        return Err(format!(
            "This debate would make a link of {} characters, over the {} a link can safely carry (chat apps and mail cut longer ones). Export it as JSON instead: anyone can import that file.",
            group(url.len()),
            group(MAX_LINK_CHARS)
        ));
    }
    Ok(url)
}

/// The debate a share link's fragment (after `#`) holds, checked like an imported file.
pub async fn open(fragment: &str) -> Result<Vec<Event>, String> {
    let data = fragment.split(FOCUS).next().unwrap_or_default();
    let data = data.strip_prefix(PREFIX).ok_or(
        "This share link is not one this version of Agora reads (its fragment does not start with share=1.).",
    )?;
    // A link longer than any Agora makes is refused before anything is decoded.
    if data.len() > MAX_LINK_CHARS {
        return Err(format!(
            "This share link is {} characters long, more than any Agora makes ({} at most); it was not opened.",
            group(data.len()),
            group(MAX_LINK_CHARS)
        ));
    }
    let damaged = |why: String| {
        format!("This share link is damaged ({why}): it was cut short or changed on the way. Ask for the link again, or for the debate's JSON file.")
    };
    let packed = B64
        .decode(data.trim_end_matches('='))
        .map_err(|e| damaged(format!("not base64url: {e}")))?;
    let json = through("DecompressionStream", &packed, export::MAX_IMPORT_BYTES)
        .await
        .map_err(damaged)?;
    let text = String::from_utf8(json).map_err(|_| damaged("not UTF-8 text".into()))?;
    export::import(&text)
        .map_err(|e| format!("This share link holds no debate Agora can open: {e}"))
}

/// The finding a link opens on, if it names one.
pub fn focus_of(fragment: &str) -> Option<String> {
    let (_, key) = fragment.split_once(FOCUS)?;
    js_sys::decode_uri_component(key)
        .ok()
        .and_then(|k| k.as_string())
        .filter(|k| !k.is_empty())
}

/// The link Share made, to copy, or why there is none.
#[component]
pub fn SharePanel(
    made: Result<Shared, String>,
    close: impl Fn() + Clone + Send + Sync + 'static,
    /// What the link opens on, when not the whole debate ("card", "forecast").
    #[prop(optional)]
    alone: Option<&'static str>,
) -> impl IntoView {
    let holds = match alone {
        None => "Anyone who opens this link sees this debate, read-only, with its replay and findings. It holds the whole debate (never a key)".to_string(),
        Some(what) => format!("Anyone who opens this link sees this {what}, read-only, and the topic and seats of its debate. It holds nothing else (never a key)"),
    };
    let copied = RwSignal::new(None::<&'static str>);
    let body = match made {
        Ok(Shared {
            url,
            sources_left_out,
        }) => {
            let chars = url.len();
            let left_out = (sources_left_out > 0).then(|| view! {
                <p class="note" id="share-left-out">{format!(
                    "The link holds the debate without its {}: with them it would be too long. Its quotes show as not checked where it is opened; share the JSON export to include them.",
                    crate::engine::reading::count(sources_left_out as usize, "source document")
                )}</p>
            });
            let copy_url = url.clone();
            let copy = move |_| {
                let url = copy_url.clone();
                spawn_local(async move {
                    let done = super::clipboard::copy_text(&url).await;
                    copied.set(Some(if done.is_ok() {
                        "Copied."
                    } else {
                        "Copying was refused: select the link and copy it."
                    }));
                });
            };
            view! {
                <p>{holds}"; the part after # is not sent to any server, not even the one hosting Agora."</p>
                {left_out}
                <div class="row">
                    <input id="share-url" class="share-url" readonly aria-label="Share link" prop:value=url
                        on:focus=|ev| { if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) { i.select() } }/>
                    <button type="button" id="share-copy" class="secondary" on:click=copy>"Copy link"</button>
                </div>
                <p class="hint">{format!("{chars} characters.")}" "{move || copied.get()}</p>
            }
            .into_any()
        }
        Err(e) => view! { <p class="error" role="alert" id="share-error">{e}</p> }.into_any(),
    };
    let on_escape = close.clone();
    view! {
        <div class="share-panel subcard" role="dialog" aria-label="Share link"
            on:keydown=move |ev| if ev.key() == "Escape" { ev.prevent_default(); on_escape() }>
            {body}
            <button type="button" class="link" on:click=move |_| close()>"Close"</button>
        </div>
    }
}

/// "Share this card" (or this forecast): a link that opens on this one finding, holding
/// only it and its debate's configuration, or the whole debate when the sharer asks.
#[component]
pub fn ShareFinding(key: String, what: &'static str) -> impl IntoView {
    let d = expect_context::<DebateView>();
    let made = RwSignal::new(None::<Result<Shared, String>>);
    let whole = RwSignal::new(false);
    let key = StoredValue::new(key);
    // Each click makes a link; only the latest one is shown (a whole debate's link takes
    // longer to make than a card's, and must not replace a newer one).
    let latest = StoredValue::new(0u32);
    let make = move || {
        let log = d.log();
        let app = d.share_base.get_value();
        let (key, whole) = (key.get_value(), whole.get_untracked());
        latest.update_value(|n| *n += 1);
        let this = latest.get_value();
        spawn_local(async move {
            let link = async {
                let events = log.await?;
                let events = if whole {
                    events
                } else {
                    export::excerpt(&events, &key)
                        .ok_or("This finding is no longer in the debate.")?
                };
                link(&events, app.as_deref(), Some(&key)).await
            };
            let link = link.await;
            if latest.get_value() == this {
                made.set(Some(link));
            }
        });
    };
    view! {
        <button type="button" class="link share-finding" on:click=move |_| make()>{format!("Share this {what}")}</button>
        {move || made.get().map(|m| view! {
            <div class="share-finding-panel">
                <label class="check">
                    <input type="checkbox" class="share-whole" prop:checked=move || whole.get()
                        on:change=move |ev| { whole.set(event_target_checked(&ev)); make() }/>
                    {format!(" Include the whole debate (without it, the link holds this {what} and the debate's setup only)")}
                </label>
                {move || if whole.get() {
                    view! { <SharePanel made=m.clone() close=move || made.set(None)/> }.into_any()
                } else {
                    view! { <SharePanel made=m.clone() close=move || made.set(None) alone=what/> }.into_any()
                }}
            </div>
        })}
    }
}

/// 100000 as "100,000".
fn group(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
