//! The token estimate is an upper bound for the tokenizers users meet: on every text of
//! `tests/fixtures/tokens/texts.json` (prose, code, numbers, CJK, right-to-left scripts,
//! emoji and others) it is at or above OpenAI's o200k and cl100k encodings (counted here by
//! tiktoken-rs, which ships them) and the local model's own tokenizer (SmolLM2, recorded
//! once into `smollm2.json` by `record-smollm2.py`); on the whole requests whose counts
//! Anthropic's and Gemini's documentation state (`documented.json`), `tokens::prompt` is at
//! or above them. Prints every margin (`cargo test --test tokens -- --nocapture`).
#![cfg(not(target_arch = "wasm32"))]

use agora::engine::event::Purpose;
use agora::engine::model::{ChatMessage, ChatRequest};
use agora::engine::tokens;
use serde_json::Value;

fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/tokens/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).expect(&path)).expect(&path)
}

/// Prose is what debates are mostly made of: the estimate may not cut its prompts
/// needlessly short.
const PROSE_MARGIN: f64 = 1.30;

#[test]
fn the_estimate_is_at_or_above_every_tokenizer_on_every_text() {
    let texts = fixture("texts.json");
    let smollm2 = fixture("smollm2.json");
    let o200k = tiktoken_rs::o200k_base().unwrap();
    let cl100k = tiktoken_rs::cl100k_base().unwrap();
    let texts = texts.as_array().unwrap();
    let local = smollm2["counts"].as_array().unwrap();
    assert_eq!(
        texts.len(),
        local.len(),
        "smollm2.json is stale: run record-smollm2.py"
    );
    let mut prose_worst = 0f64;
    let mut failures = Vec::new();
    println!("kind      estimate  o200k cl100k smollm2  over the largest");
    for (t, local) in texts.iter().zip(local) {
        let (kind, text) = (t["kind"].as_str().unwrap(), t["text"].as_str().unwrap());
        let counts = [
            o200k.encode_ordinary(text).len() as u32,
            cl100k.encode_ordinary(text).len() as u32,
            local.as_u64().unwrap() as u32,
        ];
        let most = *counts.iter().max().unwrap();
        let estimate = tokens::estimate(text);
        let over = f64::from(estimate) / f64::from(most);
        println!(
            "{kind:8} {estimate:9} {:6} {:6} {:7}  {:+.0}%",
            counts[0],
            counts[1],
            counts[2],
            (over - 1.0) * 100.0
        );
        if estimate < most {
            failures.push(format!("{kind}: {estimate} < {counts:?}: {text:.60}"));
        }
        if kind == "prose" {
            prose_worst = prose_worst.max(over);
        }
    }
    println!(
        "largest overestimate on prose: {:+.0}%",
        (prose_worst - 1.0) * 100.0
    );
    assert!(
        failures.is_empty(),
        "undercounted:\n{}",
        failures.join("\n")
    );
    assert!(
        prose_worst <= PROSE_MARGIN,
        "prose is overestimated by {:+.0}%",
        (prose_worst - 1.0) * 100.0
    );
}

#[test]
fn a_request_is_counted_at_or_above_what_providers_document() {
    let documented = fixture("documented.json");
    for r in documented["requests"].as_array().unwrap() {
        let mut messages = Vec::new();
        if let Some(s) = r["system"].as_str() {
            messages.push(ChatMessage::system(s));
        }
        messages.push(ChatMessage::user(r["user"].as_str().unwrap()));
        let req = ChatRequest {
            connection: "c".into(),
            model: "m".into(),
            seat: "s".into(),
            purpose: Purpose::Argument,
            call: "c".into(),
            messages,
            temperature: None,
            max_tokens: 100,
            json: false,
            schema: None,
            search_web: false,
        };
        let counted = r["input_tokens"].as_u64().unwrap() as u32;
        let estimate = tokens::prompt(&req);
        println!("{}: {estimate} estimated, {counted} counted", r["provider"]);
        assert!(
            estimate >= counted,
            "{}: {estimate} < {counted}",
            r["provider"]
        );
    }
}
