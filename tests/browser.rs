//! Browser tier (wasm-bindgen-test in headless Chromium): IndexedDB, fetch streaming against
//! the stand-in, and Markdown rendered to DOM nodes. Run by `.ci/test`, which starts the
//! stand-in with `tests/scripts/browser.json` and passes its URL in AGORA_STANDIN_URL.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use agora::engine::cancel::CancelToken;
use agora::engine::clock::Clock;
use agora::engine::event::{Event, EventKind, FinishReason, Outcome, Purpose, Usage};
use agora::engine::model::{ChatMessage, ChatModel, ChatRequest, ErrorKind};
use agora::engine::CallKey;
use agora::llm::transport::HttpTransport;
use agora::llm::wire::HttpTarget;
use agora::session::browser::BrowserClock;
use agora::session::{saved, Connection};
use agora::store::idb::IdbStore;
use agora::store::{DebateSummary, InFlight, Store};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const STANDIN: Option<&str> = option_env!("AGORA_STANDIN_URL");
const KEY: &str = "sk-browser-secret-key";

fn event(seq: u32, kind: EventKind) -> Event {
    Event {
        seq,
        at_ms: 1_700_000_000_000 + seq as u64,
        kind,
    }
}

#[wasm_bindgen_test]
async fn indexeddb_keeps_debates_newest_first_and_deletes_them() {
    let name = format!("agora-test-{}", js_sys::Math::random());
    let store = IdbStore::open(&name).await.expect("open");
    for (id, created) in [("old", 1_000u64), ("new", 2_000)] {
        let mut s = DebateSummary::new(id);
        s.topic = format!("topic {id}");
        s.created_ms = created;
        store.put_summary(&s).await.unwrap();
    }
    let events: Vec<Event> = vec![
        event(
            0,
            EventKind::PhaseStarted {
                key: "opening".into(),
                title: "Opening — “quoted” 🎙".into(),
                round: None,
            },
        ),
        event(
            1,
            EventKind::TurnFinished {
                call: CallKey::new("opening/position-a", 0),
                seat: "position-a".into(),
                text: "Text with <b>markup</b> and émoji 🚲".into(),
                reasoning: String::new(),
                usage: Usage {
                    input_tokens: 10,
                    output_tokens: 5,
                    estimated: true,
                },
                finish: FinishReason::Stop,
            },
        ),
        event(
            2,
            EventKind::Finished {
                outcome: Outcome::Completed,
                message: None,
            },
        ),
    ];
    // Written out of order, read back in order.
    for i in [2usize, 0, 1] {
        store.append("new", &events[i]).await.unwrap();
    }
    let call = CallKey::new("closing/position-b", 0);
    store
        .put_in_flight(
            "new",
            &InFlight {
                call: call.clone(),
                seat: "position-b".into(),
                text: "half a sent".into(),
            },
        )
        .await
        .unwrap();

    // A fresh connection sees what the first wrote: this is what a reload sees.
    let again = IdbStore::open(&name).await.unwrap();
    let list = again.list().await.unwrap();
    assert_eq!(
        list.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        ["new", "old"]
    );
    let loaded = again.load("new").await.unwrap().expect("stored");
    assert_eq!(loaded.events, events);
    assert_eq!(loaded.in_flight.len(), 1);
    assert_eq!(loaded.in_flight[0].text, "half a sent");

    again.clear_in_flight("new", &call).await.unwrap();
    assert!(again
        .load("new")
        .await
        .unwrap()
        .unwrap()
        .in_flight
        .is_empty());
    again.delete("new").await.unwrap();
    assert!(again.load("new").await.unwrap().is_none());
    assert_eq!(again.list().await.unwrap().len(), 1);
    assert!(again.load("old").await.unwrap().unwrap().events.is_empty());
}

#[wasm_bindgen_test]
async fn a_debate_saved_by_a_newer_agora_is_refused_with_a_message() {
    let name = format!("agora-test-{}", js_sys::Math::random());
    let store = IdbStore::open(&name).await.unwrap();
    let mut s = DebateSummary::new("future");
    s.schema = 99;
    store.put_summary(&s).await.unwrap();
    store
        .append("future", &event(0, EventKind::Resumed))
        .await
        .unwrap();
    let err = store.load("future").await.unwrap_err();
    assert!(err.to_string().contains("newer Agora"), "{err}");
}

#[wasm_bindgen_test]
fn the_users_connections_survive_a_reload_with_only_the_keys_they_asked_to_keep() {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.clear().unwrap();
    let mut kept = Connection::openai_compatible(
        "c-kept-1",
        "Kept",
        "https://kept.example/v1",
        "gpt-4o-mini",
        "sk-remember-me",
    );
    kept.remember_key = true;
    let forgotten = Connection::openai_compatible(
        "c-forgotten-2",
        "Forgotten",
        "https://forgotten.example/v1",
        "gpt-4o-mini",
        "sk-forget-me",
    );
    // Any id works: what makes a connection the user's is its origin, not its name.
    let imported = Connection::openai_compatible(
        "imported",
        "Imported",
        "https://imported.example/v1",
        "m",
        "",
    );
    saved::save_connections(&[Connection::local_model(), kept, forgotten, imported]);

    let back = saved::load_connections();
    let ids: Vec<&str> = back.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["c-kept-1", "c-forgotten-2", "imported"]);
    assert_eq!(back[0].api_key, "sk-remember-me");
    assert_eq!(back[1].api_key, "");
    let everything: String = (0..storage.length().unwrap())
        .filter_map(|i| storage.key(i).unwrap())
        .filter_map(|k| storage.get_item(&k).unwrap())
        .collect();
    assert!(!everything.contains("sk-forget-me"), "{everything}");
    storage.clear().unwrap();
}

fn transport(stall_ms: u64) -> HttpTransport {
    HttpTransport {
        target: HttpTarget {
            dialect: agora::llm::dialect::Dialect::OpenAi,
            extra_headers: Vec::new(),
            label: "Stand-in".into(),
            base_url: format!(
                "{}/v1",
                STANDIN.expect("AGORA_STANDIN_URL is set by .ci/test")
            ),
            api_key: KEY.into(),
            stall_ms,
            send_call_header: true,
            effort: None,
            schema_form: Default::default(),
            search: None,
        },
        clock: Rc::new(BrowserClock),
    }
}

fn request(path: &str) -> ChatRequest {
    ChatRequest {
        connection: "standin".into(),
        model: "standin".into(),
        seat: "position-a".into(),
        purpose: Purpose::Argument,
        call: path.into(),
        messages: vec![ChatMessage::user("Argue.")],
        temperature: Some(0.7),
        max_tokens: 100,
        json: false,
        schema: None,
        search_web: false,
    }
}

#[wasm_bindgen_test]
async fn fetch_streams_tokens_as_they_arrive() {
    let t = transport(10_000);
    let deltas = RefCell::new(Vec::<String>::new());
    let stop = CancelToken::new();
    let r = t
        .complete(
            &request("stream"),
            &|d| deltas.borrow_mut().push(d.to_string()),
            &stop,
        )
        .await
        .unwrap();
    // The call's abort listener left the Stop token with the call.
    assert_eq!(stop.listeners(), 0);
    assert_eq!(r.text, "Cities that ban cars — café 🚲");
    assert_eq!(deltas.borrow().len(), 5, "{:?}", deltas.borrow());
    assert_eq!(
        r.usage,
        Usage {
            input_tokens: 12,
            output_tokens: 6,
            estimated: false
        }
    );
    assert_eq!(r.finish, FinishReason::Stop);
}

#[wasm_bindgen_test]
async fn cancelling_aborts_the_fetch_at_once_and_keeps_the_partial_text() {
    let t = transport(10_000);
    let cancel = CancelToken::new();
    let c = cancel.clone();
    let started = BrowserClock.now_ms();
    let r = t
        .complete(
            &request("slow"),
            &move |d| {
                if d.contains("two") {
                    c.cancel();
                }
            },
            &cancel,
        )
        .await;
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cancelled);
    assert_eq!(e.partial, "one two ");
    // The whole answer would take 2.1 s; the abort ends it right after the second chunk.
    assert!(
        BrowserClock.now_ms() - started < 1_500,
        "took {} ms",
        BrowserClock.now_ms() - started
    );
}

#[wasm_bindgen_test]
async fn a_stop_inside_one_network_read_drops_the_rest_of_that_read() {
    // The stand-in writes this whole answer at once, so it arrives in a single read.
    let t = transport(10_000);
    let cancel = CancelToken::new();
    let c = cancel.clone();
    let deltas = RefCell::new(Vec::<String>::new());
    let e = t
        .complete(
            &request("one-read"),
            &|d| {
                deltas.borrow_mut().push(d.to_string());
                c.cancel();
            },
            &cancel,
        )
        .await
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cancelled);
    assert_eq!(e.partial, "first ");
    assert_eq!(*deltas.borrow(), ["first "]);
}

#[wasm_bindgen_test]
async fn keep_alive_comments_alone_do_not_hold_off_the_silence_limit() {
    let mut t = transport(1_000);
    t.target
        .extra_headers
        .push(("X-Standin-Keep-Alive-Ms".into(), "100".into()));
    let started = BrowserClock.now_ms();
    let e = t
        .complete(&request("stall"), &|_| {}, &CancelToken::new())
        .await
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cut);
    assert!(
        e.message.contains("sent nothing for 1 seconds"),
        "{}",
        e.message
    );
    assert_eq!(e.partial, "This answer ");
    // The stand-in keeps the connection open for 5 s, sending a comment every 100 ms.
    let took = BrowserClock.now_ms() - started;
    assert!(took < 3_000, "took {took} ms");
}

#[wasm_bindgen_test]
async fn a_slow_answer_that_keeps_coming_outlasts_the_silence_limit() {
    // Eight chunks 300 ms apart take 2.1 s in all, twice the limit; no gap reaches it.
    let r = transport(1_000)
        .complete(&request("slow"), &|_| {}, &CancelToken::new())
        .await
        .unwrap();
    assert_eq!(r.text, "one two three four five six seven eight");
}

#[wasm_bindgen_test]
async fn http_errors_are_worded_for_the_user_without_the_key() {
    let t = transport(10_000);
    let e = t
        .complete(&request("unauthorized"), &|_| {}, &CancelToken::new())
        .await
        .unwrap_err();
    assert_eq!((e.kind, e.status), (ErrorKind::Auth, Some(401)));
    assert!(
        e.message.contains("Stand-in (standin)") && e.message.contains("Check the API key"),
        "{}",
        e.message
    );
    assert!(!e.message.contains("secret"), "{}", e.message);
    let e = t
        .complete(&request("limited"), &|_| {}, &CancelToken::new())
        .await
        .unwrap_err();
    assert_eq!(
        (e.kind, e.retry_after_ms),
        (ErrorKind::RateLimited, Some(3_000))
    );
}

#[wasm_bindgen_test]
async fn a_cut_or_silent_stream_fails_with_what_had_arrived() {
    let t = transport(1_000);
    let e = t
        .complete(&request("cut"), &|_| {}, &CancelToken::new())
        .await
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cut);
    assert!(
        "This answer will be cut".starts_with(e.partial.trim_end()) && !e.partial.is_empty(),
        "{}",
        e.partial
    );
    let started = BrowserClock.now_ms();
    let e = t
        .complete(&request("stall"), &|_| {}, &CancelToken::new())
        .await
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cut);
    assert!(
        e.message.contains("sent nothing for 1 seconds"),
        "{}",
        e.message
    );
    assert!(
        BrowserClock.now_ms() - started < 4_000,
        "the stall timeout, not the server, ended it"
    );
}

#[wasm_bindgen_test]
async fn a_server_that_is_not_there_gets_a_message_about_cors_and_the_url() {
    let mut t = transport(1_000);
    t.target.base_url = "http://127.0.0.1:9/v1".into();
    let e = t
        .complete(&request("stream"), &|_| {}, &CancelToken::new())
        .await
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Network);
    assert!(
        e.message.contains("Could not reach http://127.0.0.1:9/v1")
            && e.message.contains("OLLAMA_ORIGINS"),
        "{}",
        e.message
    );
}

#[wasm_bindgen_test]
async fn the_model_list_comes_from_the_providers_models_endpoint() {
    let models = transport(1_000).list_models().await.unwrap();
    assert_eq!(models, vec!["standin".to_string()]);
    // A server that is not there says so, with the URL and no key.
    let mut t = transport(1_000);
    t.target.base_url = "http://127.0.0.1:9/v1".into();
    let e = t.list_models().await.unwrap_err();
    assert!(
        e.message.contains("Could not reach http://127.0.0.1:9/v1"),
        "{}",
        e.message
    );
    assert!(!e.message.contains(KEY));
}

#[wasm_bindgen_test]
fn model_markdown_never_becomes_live_html() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let root = doc.create_element("div").unwrap();
    let hostile = "# Title\n\n<script>alert(1)</script>\n\nHi <img src=x onerror=alert(2)> **bold** \
                   [safe](https://example.org) [bad](javascript:alert(3)) ![pic](https://example.org/p.png)\n\n\
                   | a | b |\n|---|---|\n| 1 | 2 |\n\n```\n<b>code</b>\n```";
    agora::ui::markdown::render_into(&root, hostile);
    for tag in ["script", "img", "iframe"] {
        assert_eq!(
            root.get_elements_by_tag_name(tag).length(),
            0,
            "a <{tag}> element was created"
        );
    }
    let text = root.text_content().unwrap();
    assert!(
        text.contains("<script>alert(1)</script>"),
        "raw HTML shows as text: {text}"
    );
    assert!(text.contains("<img src=x onerror=alert(2)>"));
    assert_eq!(
        root.query_selector("strong")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap(),
        "bold"
    );
    let links = root.get_elements_by_tag_name("a");
    let hrefs: Vec<String> = (0..links.length())
        .filter_map(|i| links.item(i))
        .filter_map(|a| a.get_attribute("href"))
        .collect();
    assert_eq!(hrefs, ["https://example.org", "https://example.org/p.png"]);
    assert_eq!(root.get_elements_by_tag_name("table").length(), 1);
    assert_eq!(
        root.query_selector("pre code")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap(),
        "<b>code</b>\n"
    );
    assert_eq!(
        root.query_selector("h4")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap(),
        "Title"
    );
}
