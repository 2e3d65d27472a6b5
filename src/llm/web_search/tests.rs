//! Each provider's search request, and its streamed answer (fixtures written to each
//! provider's documented shape, in `tests/fixtures/web_search/`) read into citations.

use super::*;
use crate::engine::cancel::CancelToken;
use crate::engine::event::Purpose;
use crate::engine::model::{ChatMessage, ChatRequest, ChatResponse};
use crate::llm::dialect::Dialect;
use crate::llm::stream::AnswerStream;
use crate::llm::wire::HttpTarget;

fn speech(search_web: bool) -> ChatRequest {
    ChatRequest {
        connection: "c".into(),
        model: "m".into(),
        seat: "position-a".into(),
        purpose: Purpose::Argument,
        call: "opening/position-a".into(),
        messages: vec![
            ChatMessage::system("Argue."),
            ChatMessage::user("Your opening."),
        ],
        temperature: Some(0.7),
        max_tokens: 400,
        json: false,
        schema: None,
        search_web,
    }
}

fn target(dialect: Dialect, search: SearchTool) -> HttpTarget {
    HttpTarget {
        dialect,
        extra_headers: Vec::new(),
        label: "P".into(),
        base_url: "https://p.example/v1".into(),
        api_key: "k".into(),
        stall_ms: 1_000,
        send_call_header: false,
        effort: None,
        schema_form: Default::default(),
        search: Some(search),
    }
}

fn sent(dialect: Dialect, search: SearchTool, search_web: bool) -> Value {
    let mut req = speech(search_web);
    if search == SearchTool::OpenAi {
        req.model = "gpt-4o-mini-search-preview".into();
    }
    serde_json::from_str(&target(dialect, search).wire(&req).body).unwrap()
}

/// The whole stream read in one go, as the transport would feed it.
fn play(dialect: Dialect, sse: &str, search_web: bool) -> ChatResponse {
    let mut s = AnswerStream::new(dialect, "P (m)".into(), 1_000, 0, 400);
    let cancel = CancelToken::new();
    s.feed(Some(sse.as_bytes()), 1, &|_| {}, &cancel).unwrap();
    s.feed(None, 2, &|_| {}, &cancel).unwrap();
    s.finish(&speech(search_web)).unwrap()
}

#[test]
fn each_provider_is_asked_for_its_own_search_and_only_when_the_call_asks() {
    let o = sent(Dialect::OpenAi, SearchTool::OpenAi, true);
    assert_eq!(o["web_search_options"], json!({}));
    assert!(o.get("temperature").is_none(), "search models refuse it");
    assert!(
        sent(Dialect::OpenAi, SearchTool::OpenAi, false)
            .get("temperature")
            .is_none(),
        "even when the call does not search (a retry without it, a judge on the same model)"
    );
    let r = sent(Dialect::OpenAi, SearchTool::OpenRouter, true);
    assert_eq!(r["tools"][0]["type"], "openrouter:web_search");
    assert_eq!(
        r["tools"][0]["parameters"]["max_results"],
        OPENROUTER_MAX_RESULTS
    );
    let a = sent(Dialect::Anthropic, SearchTool::Anthropic, true);
    assert_eq!(a["tools"][0]["type"], "web_search_20250305");
    assert_eq!(a["tools"][0]["name"], "web_search");
    assert_eq!(a["tools"][0]["max_uses"], ANTHROPIC_MAX_USES);
    let g = sent(Dialect::Gemini, SearchTool::Gemini, true);
    assert_eq!(g["tools"], json!([{"google_search": {}}]));

    for (d, t) in [
        (Dialect::OpenAi, SearchTool::OpenAi),
        (Dialect::OpenAi, SearchTool::OpenRouter),
        (Dialect::Anthropic, SearchTool::Anthropic),
        (Dialect::Gemini, SearchTool::Gemini),
    ] {
        let plain = sent(d, t, false);
        assert!(plain.get("tools").is_none() && plain.get("web_search_options").is_none());
    }
}

#[test]
fn the_spending_cap_reserves_what_a_search_may_add_to_the_prompt() {
    let t = target(Dialect::Anthropic, SearchTool::Anthropic);
    let with = t.ceiling(&speech(true)).input_tokens;
    let without = t.ceiling(&speech(false)).input_tokens;
    assert_eq!(with - without, SearchTool::Anthropic.input_allowance());
    assert!(SearchTool::Anthropic.input_allowance() > 0);
}

#[test]
fn openai_search_models_annotations_become_citations() {
    let sse = include_str!("../../../tests/fixtures/web_search/openai_search.sse");
    let r = play(Dialect::OpenAi, sse, true);
    assert!(r.text.starts_with("Traffic in the zone fell"));
    let web = r.web.unwrap();
    assert_eq!(web.citations.len(), 1);
    let c = &web.citations[0];
    assert_eq!(
        c.url,
        "https://tfl.gov.uk/modes/driving/congestion-charge?utm_source=openai"
    );
    assert_eq!(c.title, "Congestion Charge - Transport for London");
    assert_eq!(c.cited_text, "", "OpenAI returns no words of the page");
    assert!(web.failed.is_empty());
}

#[test]
fn openrouters_annotations_carry_the_pages_words_and_hostile_addresses_are_dropped() {
    let sse = include_str!("../../../tests/fixtures/web_search/openrouter_search.sse");
    let web = play(Dialect::OpenAi, sse, true).web.unwrap();
    assert_eq!(web.citations.len(), 1, "{web:?}");
    assert_eq!(web.citations[0].url, "https://tfl.gov.uk/cc");
    assert_eq!(
        web.citations[0].cited_text,
        "Traffic in the charging zone fell by 30% in the first year."
    );
}

#[test]
fn anthropics_cited_text_becomes_a_citation_and_the_query_is_not_the_answer() {
    let sse = include_str!("../../../tests/fixtures/web_search/anthropic_search.sse");
    let r = play(Dialect::Anthropic, sse, true);
    assert_eq!(
        r.text,
        "Let me check the figures. Traffic in the zone fell by 30% in the first year."
    );
    assert!(!r.text.contains("query"));
    let web = r.web.unwrap();
    assert_eq!(
        web.citations.len(),
        1,
        "a result it did not cite is not a citation"
    );
    assert_eq!(web.citations[0].title, "Congestion Charge");
    assert_eq!(
        web.citations[0].cited_text,
        "Traffic in the charging zone fell by 30% in the first year."
    );
    assert_eq!(
        r.usage.input_tokens, 10_682,
        "the search's results are billed as input"
    );
}

#[test]
fn anthropics_failed_search_is_said_and_the_answer_stands() {
    let sse = include_str!("../../../tests/fixtures/web_search/anthropic_search_error.sse");
    let r = play(Dialect::Anthropic, sse, true);
    assert_eq!(r.text, "From what I know, traffic fell.");
    let web = r.web.unwrap();
    assert!(web.citations.is_empty());
    assert!(web.failed.contains("too_many_requests"), "{}", web.failed);
}

#[test]
fn geminis_grounding_chunks_become_citations_without_words() {
    let sse = include_str!("../../../tests/fixtures/web_search/gemini_search.sse");
    let r = play(Dialect::Gemini, sse, true);
    assert_eq!(
        r.text,
        "Traffic in the zone fell by about 30% in its first year."
    );
    let web = r.web.unwrap();
    let titles: Vec<&str> = web.citations.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(titles, ["tfl.gov.uk", "wikipedia.org"]);
    assert!(web.citations.iter().all(|c| c.cited_text.is_empty()));
}

#[test]
fn a_call_that_did_not_ask_for_a_search_reports_none() {
    let sse = include_str!("../../../tests/fixtures/web_search/openrouter_search.sse");
    assert_eq!(play(Dialect::OpenAi, sse, false).web, None);
}

#[test]
fn a_search_is_added_beside_the_tools_a_body_has() {
    let mut body = json!({"tools": [{"name": "record_result"}]});
    SearchTool::Anthropic.apply(&mut body);
    assert_eq!(body["tools"][0]["name"], "record_result");
    assert_eq!(body["tools"][1]["type"], "web_search_20250305");
}

#[test]
fn an_anthropic_turn_paused_mid_search_is_shown_cut_not_finished() {
    let sse = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Let me check.\"}}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"pause_turn\"},\"usage\":{\"input_tokens\":0,\"output_tokens\":5}}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
    );
    let r = play(Dialect::Anthropic, sse, true);
    assert_eq!(r.finish, crate::engine::event::FinishReason::Length);
    assert_eq!(
        r.usage.input_tokens, 10,
        "a final count of 0 does not erase the first"
    );
}

#[test]
fn a_cut_stream_keeps_what_its_search_had_cited() {
    let sse = include_str!("../../../tests/fixtures/web_search/openrouter_search.sse");
    let mut s = AnswerStream::new(Dialect::OpenAi, "P (m)".into(), 1_000, 0, 400);
    let cancel = CancelToken::new();
    s.feed(Some(sse.as_bytes()), 1, &|_| {}, &cancel).unwrap();
    let e = s.cancelled();
    assert_eq!(e.kind, crate::engine::model::ErrorKind::Cancelled);
    assert_eq!(e.web.unwrap().citations.len(), 1);
}
