//! Storage benchmark (not a test tier: run by `.ci/bench`, see BENCHMARKS.md): the
//! IndexedDB store in headless Chromium, timed the way the app uses it.
//! - append: one event as the session's writer saves it (the event, then the debate's row);
//! - open: `Store::load` of a 500-turn debate (what opening it from History reads);
//! - list: `Store::list` of 1,000 and of 10,000 stored debates (History's first read);
//! - search: History's filter (words in the topic) over the listed rows.
//!
//! Prints one line per figure (`--nocapture`); fails when a figure misses its goal
//! (append ≤ 5 ms at the 95th percentile, open ≤ 100 ms, list and search ≤ 200 ms).
#![cfg(target_arch = "wasm32")]

use agora::engine::config::FormatId;
use agora::engine::event::{Event, EventKind, FinishReason, Purpose, Usage, SCHEMA_VERSION};
use agora::engine::formats::default_config;
use agora::engine::CallKey;
use agora::store::idb::IdbStore;
use agora::store::{DebateSummary, HistoryFilter, Store};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now() -> f64 {
    web_sys::window().unwrap().performance().unwrap().now()
}

fn percentile(samples: &mut [f64], p: f64) -> f64 {
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

/// About 1,500 characters of Markdown, like a real argument.
fn argument(i: usize) -> String {
    format!(
        "## Argument {i}\n\n{}\n\n- first, the record: {i} cases\n- second, *the cost*\n- third, [a source](https://example.org/{i})\n",
        "The evidence on this question points both ways, and the honest reading weighs each. ".repeat(16)
    )
}

fn started(topic: &str) -> EventKind {
    let config = default_config(FormatId::Classic, topic, &|_| {
        agora::engine::config::Participant::Human
    });
    EventKind::DebateStarted {
        schema: SCHEMA_VERSION,
        config,
        seed: 7,
        planned_calls: 1_000,
    }
}

/// A debate of `turns` turns: each its start (with the request behind it, as the app keeps
/// it) and its finished text.
fn debate(topic: &str, turns: usize) -> Vec<Event> {
    let mut kinds = vec![started(topic)];
    for i in 0..turns {
        let call = CallKey::new(format!("round/{}/turn/{i}", i / 2), 0);
        let seat = if i % 2 == 0 { "pro" } else { "con" };
        kinds.push(EventKind::TurnStarted {
            call: call.clone(),
            seat: seat.into(),
            purpose: Purpose::Argument,
            label: format!("Argument {i}"),
            request_hash: format!("{i:016x}"),
            human: false,
            request: format!(
                "{{\"model\":\"m\",\"messages\":[{{\"role\":\"user\",\"content\":\"{}\"}}]}}",
                "Answer the other side. ".repeat(40)
            ),
        });
        kinds.push(EventKind::TurnFinished {
            call,
            seat: seat.into(),
            text: argument(i),
            reasoning: String::new(),
            usage: Usage {
                input_tokens: 900,
                output_tokens: 380,
                estimated: false,
            },
            finish: FinishReason::Stop,
        });
    }
    kinds
        .into_iter()
        .enumerate()
        .map(|(seq, kind)| Event {
            seq: seq as u32,
            at_ms: 1_700_000_000_000 + seq as u64 * 1_000,
            kind,
        })
        .collect()
}

async fn fresh_store() -> IdbStore {
    IdbStore::open(&format!("agora-bench-{}", js_sys::Math::random()))
        .await
        .expect("open")
}

#[wasm_bindgen_test]
async fn append_and_open_a_500_turn_debate() {
    let store = fresh_store().await;
    let events = debate("Should cities ban cars from their centres?", 500);
    let size: usize = events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap().len())
        .sum();

    // Append, as the writer does: the event, then the row History lists.
    let mut summary = DebateSummary::new("long");
    let mut appends = Vec::new();
    for e in &events {
        let t = now();
        store.append("long", e).await.unwrap();
        summary.apply(e);
        store.put_summary(&summary).await.unwrap();
        appends.push(now() - t);
    }
    let mean = appends.iter().sum::<f64>() / appends.len() as f64;
    let p95 = percentile(&mut appends, 0.95);
    console_log!(
        "append one event (and its row), {} events of {} KB in all: mean {mean:.2} ms, p95 {p95:.2} ms, max {:.2} ms (goal 5 ms)",
        events.len(),
        size / 1024,
        appends.last().unwrap()
    );

    let mut opens = Vec::new();
    for _ in 0..7 {
        let t = now();
        let d = store.load("long").await.unwrap().expect("stored");
        opens.push(now() - t);
        assert_eq!(d.events.len(), events.len());
        assert_eq!(d.summary.turns, 500);
    }
    let median = percentile(&mut opens, 0.5);
    console_log!(
        "open a 500-turn debate ({} events, {} KB): median {median:.1} ms of 7, slowest {:.1} ms (goal 100 ms)",
        events.len(),
        size / 1024,
        opens.last().unwrap()
    );
    assert!(p95 <= 5.0, "append p95 {p95:.2} ms");
    assert!(median <= 100.0, "open {median:.1} ms");
}

const TOPICS: [&str; 8] = [
    "Should cities ban cars from their centres?",
    "Will fusion power reach the grid by 2040?",
    "Is remote work better for junior engineers?",
    "Should voting be compulsory in democracies?",
    "Will the transit bill pass this year?",
    "Is nuclear power the fastest route to a clean grid?",
    "Should social media be banned for under-16s?",
    "Does a universal basic income reduce poverty?",
];

/// Lists `n` stored debates and searches them, timing each (median of 5).
async fn list_and_search(n: usize) {
    let store = fresh_store().await;
    // Rows only: History's list reads the debates' rows, never their logs.
    let formats = [
        FormatId::Classic,
        FormatId::Duelogic,
        FormatId::Forecast,
        FormatId::Crux,
    ];
    for i in 0..n {
        let mut s = DebateSummary::new(&format!("d{i:05}"));
        s.topic = format!("{} (take {i})", TOPICS[i % TOPICS.len()]);
        s.format = Some(formats[i % 4]);
        s.created_ms = 1_700_000_000_000 + i as u64 * 60_000;
        s.updated_ms = s.created_ms + 300_000;
        s.turns = 11 + (i % 20) as u32;
        s.schema = SCHEMA_VERSION;
        store.put_summary(&s).await.unwrap();
    }
    let (mut lists, mut searches) = (Vec::new(), Vec::new());
    let filter = HistoryFilter {
        text: "fusion GRID".into(),
        ..HistoryFilter::default()
    };
    let mut found = 0;
    for _ in 0..5 {
        let t = now();
        let list = store.list().await.unwrap();
        lists.push(now() - t);
        assert_eq!(list.len(), n);
        let t = now();
        found = list.iter().filter(|d| filter.keeps(d)).count();
        searches.push(now() - t);
    }
    assert_eq!(found, n / TOPICS.len());
    let (list_ms, search_ms) = (percentile(&mut lists, 0.5), percentile(&mut searches, 0.5));
    console_log!(
        "list {n} stored debates: median {list_ms:.1} ms of 5 (goal 200 ms); search them for two words: {search_ms:.2} ms, {found} found"
    );
    assert!(list_ms <= 200.0, "list of {n}: {list_ms:.1} ms");
    assert!(search_ms <= 200.0, "search of {n}: {search_ms:.1} ms");
}

#[wasm_bindgen_test]
async fn list_and_search_1000_debates() {
    list_and_search(1_000).await;
}

#[wasm_bindgen_test]
async fn list_and_search_10000_debates() {
    list_and_search(10_000).await;
}
