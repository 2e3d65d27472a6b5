//! Recorded chat-completion streams, cut at every byte position, must fold to the same answer.
#![cfg(not(target_arch = "wasm32"))]

use agora::llm::dialect::Dialect;
use agora::llm::sse::SseParser;
use agora::llm::stream_state::StreamState;

struct Folded {
    text: String,
    deltas: Vec<String>,
    usage: Option<(u32, u32)>,
    done: bool,
}

fn dialect(name: &str) -> Dialect {
    if name.starts_with("anthropic") {
        Dialect::Anthropic
    } else if name.starts_with("gemini") {
        Dialect::Gemini
    } else {
        Dialect::OpenAi
    }
}

fn fold(name: &str, parts: &[&[u8]]) -> Folded {
    let d = dialect(name);
    let mut parser = SseParser::new();
    let mut state = StreamState::default();
    let mut deltas = Vec::new();
    let mut feed = |events: Vec<agora::llm::sse::SseEvent>, state: &mut StreamState| {
        for e in events {
            let text = d.accept(state, &e.event, &e.data).expect("valid chunk");
            if !text.is_empty() {
                deltas.push(text);
            }
        }
    };
    for p in parts {
        let evs = parser.push(p);
        feed(evs, &mut state);
    }
    let evs = parser.finish();
    feed(evs, &mut state);
    // Streams without [DONE] (Gemini) end with a finish reason.
    let done = state.done || state.finish.is_some();
    Folded {
        text: state.text,
        deltas,
        usage: state.usage.map(|u| (u.input_tokens, u.output_tokens)),
        done,
    }
}

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "sse"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    assert!(!out.is_empty());
    out
}

#[test]
fn every_recorded_stream_folds_the_same_whatever_the_cut() {
    for (name, bytes) in fixtures() {
        let whole = fold(&name, &[&bytes]);
        assert!(whole.done, "{name} ends as a complete answer");
        assert!(!whole.text.is_empty(), "{name} has text");
        for i in 0..=bytes.len() {
            let cut = fold(&name, &[&bytes[..i], &bytes[i..]]);
            assert_eq!(cut.text, whole.text, "{name} cut at byte {i}");
            assert_eq!(cut.usage, whole.usage, "{name} cut at byte {i}");
            assert_eq!(cut.deltas.concat(), whole.text);
        }
        // One byte at a time, the worst a network can do.
        let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(
            fold(&name, &bytewise).text,
            whole.text,
            "{name} byte by byte"
        );
    }
}

#[test]
fn each_provider_fixture_reads_as_documented() {
    // The fixtures of OpenAI, Anthropic and Gemini carry the same answer in their own shape.
    for prefix in ["openai", "anthropic", "gemini"] {
        let (name, bytes) = fixtures()
            .into_iter()
            .find(|(n, _)| n.starts_with(prefix))
            .unwrap();
        let f = fold(&name, &[&bytes]);
        assert_eq!(
            f.text, "Cities that ban cars — café owners say “trade fell” 🚲",
            "{name}"
        );
        let want = if prefix == "anthropic" {
            (25, 17)
        } else {
            (41, 17)
        };
        assert_eq!(f.usage, Some(want), "{name}");
    }
}

#[test]
fn anthropic_structured_output_streams_as_the_forced_tools_input() {
    // With a schema, Anthropic answers by calling the forced tool; its input JSON is the answer.
    let (name, bytes) = fixtures()
        .into_iter()
        .find(|(n, _)| n.starts_with("anthropic_tool"))
        .unwrap();
    let f = fold(&name, &[&bytes]);
    let v: serde_json::Value = serde_json::from_str(&f.text).expect("the tool input is JSON");
    assert_eq!(v["score"], 7);
    assert_eq!(v["reason"], "cited the “2019 study” 🚲");
    assert_eq!(f.usage, Some((472, 89)));
    assert!(f.done);
}
