//! What a call is given of the sources: for a speaking call, the passages most relevant to
//! what it must argue, with how to quote them; for every call, each quote it carries marked
//! with its check, and how to weigh that. The context (`DebateCtx`) applies both to a
//! request just before it goes out, so every format gets them the same way.

use super::super::model::{ChatMessage, ChatRequest, Role};
use super::super::prompt::render;
use super::super::tokens;
use super::super::transcript::clip_tokens;
use super::library::Library;
use super::quotes;

pub const GUIDE: &str = include_str!("../../../prompts/sources.md");
/// The same passages as a judge is given them (when judges read the sources).
pub const JUDGE_GUIDE: &str = include_str!("../../../prompts/sources_judge.md");
pub const QUOTE_STATUS: &str = include_str!("../../../prompts/quote_status.md");

/// The share of a seat's window (as `transcript::budget` counts it) that a speaking call's
/// passages may take; formats leave it free when the debate has sources.
pub fn reserve(window: u32) -> u32 {
    window.min(16_000) / 4
}

/// The sources block of a call: `guide` (`GUIDE` for a speaker, `JUDGE_GUIDE` for a judge)
/// and the passages most relevant to `query`, best first, within `budget` tokens (whole
/// passages while they fit; when not even the best one does, its beginning).
pub fn block_in(guide: &str, library: &Library, query: &str, budget: u32) -> Option<String> {
    let shell = tokens::estimate(&render(guide, &[("passages", "")]));
    let mut left = budget.checked_sub(shell + 8)?;
    let mut shown = Vec::new();
    for p in library.ranked(query) {
        if left < 40 {
            break;
        }
        let title = library.source(&p.source).map_or("", |s| s.title.as_str());
        let entry = format!("[{} · {}]\n{}", p.label(), title, library.text(p));
        let cost = tokens::estimate(&entry) + 2;
        if cost <= left {
            left -= cost;
            shown.push(entry);
        } else if shown.is_empty() {
            shown.push(clip_tokens(&entry, left));
            left = 0;
        }
    }
    (!shown.is_empty()).then(|| render(guide, &[("passages", &shown.join("\n\n"))]))
}

/// Marks every quote in the request's messages with its check and, where there was one,
/// tells the model how to weigh the marks. True when the request carried any quote.
pub fn mark_quotes(request: &mut ChatRequest, library: &Library) -> bool {
    let mut any = false;
    // A model's own earlier answer (sent back with a repair request) stays as it wrote it.
    for m in request
        .messages
        .iter_mut()
        .filter(|m| m.role != Role::Assistant)
    {
        let checks = quotes::check(&m.content, Some(library));
        any |= !checks.is_empty();
        let marked = quotes::with_status(&m.content, &checks);
        if marked != m.content {
            m.content = marked;
        }
    }
    if any {
        add_to_system(request, QUOTE_STATUS.trim());
    }
    any
}

/// Adds the passages for a call (a speaking call's under `GUIDE`, a judge's under
/// `JUDGE_GUIDE`): `query` says what it is about, and they get what the seat's window
/// leaves beside the request, up to `reserve`.
pub fn add_passages(
    request: &mut ChatRequest,
    guide: &str,
    library: &Library,
    window: u32,
    query: &str,
) {
    let window = window.min(16_000);
    let used = tokens::prompt(request) + request.max_tokens + 64;
    let room = window.saturating_sub(used).min(reserve(window));
    if let Some(block) = block_in(guide, library, query, room) {
        add_to_system(request, &block);
    }
}

fn add_to_system(request: &mut ChatRequest, text: &str) {
    match request.messages.iter_mut().find(|m| m.role == Role::System) {
        Some(m) => {
            m.content.push_str("\n\n");
            m.content.push_str(text);
        }
        None => request.messages.insert(0, ChatMessage::system(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Origin, Source};
    use super::*;

    fn library() -> Library {
        let para = |w: &str| {
            format!("{w} ") + &"More words about the same matter follow here. ".repeat(16)
        };
        let text = ["tolls", "buses", "cycling", "parking"]
            .map(para)
            .join("\n\n");
        Library::new(vec![Source::new(
            "S1",
            "City report",
            Origin::Pasted,
            &text,
        )
        .unwrap()])
    }

    #[test]
    fn the_block_fits_its_budget_and_leads_with_the_most_relevant_passage() {
        let lib = library();
        for budget in [300, 600, 1_000, 4_000] {
            let b = block_in(GUIDE, &lib, "what about buses", budget).unwrap();
            assert!(
                tokens::estimate(&b) <= budget,
                "{budget}: {}",
                tokens::estimate(&b)
            );
            let first = b.find(" · City report]").unwrap();
            assert!(b[..first].ends_with("\n[S1 ¶2"), "{}", &b[..first]);
            assert!(b[first..].starts_with(" · City report]\nbuses"));
        }
        assert!(block_in(GUIDE, &lib, "buses", 50).is_none());
    }

    #[test]
    fn a_request_gets_its_passages_and_its_quotes_statuses_in_the_system_message() {
        let lib = library();
        let mut req = ChatRequest {
            connection: "c".into(),
            model: "m".into(),
            seat: "a".into(),
            purpose: crate::engine::event::Purpose::Argument,
            call: "turn".into(),
            temperature: None,
            json: false,
            schema: None,
            search_web: false,
            messages: vec![
                ChatMessage::system("You argue."),
                ChatMessage::user(
                    "They said <quote>buses more words</quote> and <quote>trams</quote>.",
                ),
            ],
            max_tokens: 300,
        };
        assert!(mark_quotes(&mut req, &lib));
        add_passages(&mut req, GUIDE, &lib, 4_096, "buses");
        let user = &req.messages[1].content;
        assert!(
            user.contains("<quote status=\"verified\" passage=\"S1 ¶2\">buses more words</quote>"),
            "{user}"
        );
        assert!(user.contains("<quote status=\"not found\">trams</quote>"));
        let system = &req.messages[0].content;
        assert!(system.starts_with("You argue.\n\nQuotes in this debate were checked"));
        assert!(system.contains("[S1 ¶2 · City report]"));
        assert!(tokens::prompt(&req) + 300 <= 4_096);
    }
}
