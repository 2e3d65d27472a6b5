//! Context building: what earlier turns a prompt carries. Input tokens per call stay bounded
//! by the seat's context window however long the debate runs: earlier rounds are carried as
//! their summaries, recent turns verbatim, newest first until the budget is spent.

use super::event::Input;
use super::tokens;

/// One thing said in the debate, as later prompts see it.
#[derive(Clone, Debug)]
pub struct Said {
    pub seat: String,
    pub speaker: String,
    pub label: String,
    pub text: String,
}

pub struct ContextParts<'a> {
    /// Summaries of finished rounds, oldest first: (title, text).
    pub summaries: &'a [(String, String)],
    /// Turns not covered by a summary, oldest first.
    pub recent: &'a [Said],
    pub notes: &'a [Input],
    /// Token budget for the whole context block.
    pub budget: u32,
}

const EMPTY: &str = "Nothing has been said yet.";

pub fn build(p: &ContextParts) -> String {
    let mut left = p.budget as i64;
    let mut sections = Vec::new();

    // Summaries get up to half the budget, newest kept first.
    if !p.summaries.is_empty() {
        let mut kept = Vec::new();
        let mut spent = 0i64;
        for (title, text) in p.summaries.iter().rev() {
            let block = format!("{title}: {}", text.trim());
            let cost = tokens::estimate(&block) as i64;
            if spent + cost > left / 2 {
                break;
            }
            spent += cost;
            kept.push(block);
        }
        kept.reverse();
        if !kept.is_empty() {
            let s = format!("Summaries of earlier rounds:\n{}", kept.join("\n"));
            left -= tokens::estimate(&s) as i64;
            sections.push(s);
        }
    }

    // Audience notes are short by nature; the last few, each capped.
    let notes: Vec<String> = p.notes.iter().rev().take(5).filter_map(note_line).collect();
    if !notes.is_empty() {
        let s = format!(
            "From the audience (address these where relevant):\n{}",
            notes.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
        left -= tokens::estimate(&s) as i64;
        sections.push(s);
    }

    // Recent turns, newest first, the oldest one that does not fit clipped.
    let mut turns = Vec::new();
    for said in p.recent.iter().rev() {
        if left <= 24 {
            break;
        }
        let head = format!("[{} — {}]\n", said.speaker, said.label);
        let full = format!("{head}{}", said.text.trim());
        let cost = tokens::estimate(&full) as i64;
        if cost <= left {
            left -= cost;
            turns.push(full);
        } else {
            let room = (left - tokens::estimate(&head) as i64).max(1) as u32;
            turns.push(format!("{head}{}", clip_tokens(said.text.trim(), room)));
            left = 0;
        }
    }
    turns.reverse();
    if !turns.is_empty() {
        sections.push(format!("The debate so far:\n\n{}", turns.join("\n\n")));
    }
    if sections.is_empty() {
        return EMPTY.to_string();
    }
    sections.join("\n\n")
}

/// An audience note as the context block shows it (each capped), if it is one.
fn note_line(n: &Input) -> Option<String> {
    match n {
        Input::Question { text } => Some(format!("- Audience question: {}", clip(text, 400))),
        Input::Evidence { text } => Some(format!("- Evidence submitted: {}", clip(text, 600))),
        Input::HumanTurn { .. } | Input::SpendingCap { .. } => None,
    }
}

/// What an audience note costs in the context block, in estimated tokens.
pub fn note_tokens(n: &Input) -> u32 {
    note_line(n).map_or(0, |l| tokens::estimate(&l))
}

/// The words to ask for in an answer limited to `tokens`: 0.65 words per token (13/20), a
/// little under English's ~0.75, so answers end on a sentence before the limit cuts them.
pub fn words(tokens: u32) -> String {
    ((tokens * 13 + 10) / 20).to_string()
}

/// Keeps the first `max` characters, marking the cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// `text` cut to about `tokens` estimated tokens (with `…` when cut), by the same count as
/// `tokens::estimate`, so a Chinese turn is cut shorter than an English one.
pub fn clip_tokens(text: &str, tokens: u32) -> String {
    if tokens::estimate(text) <= tokens {
        return text.to_string();
    }
    // The ellipsis counted first, so the cut text with it stays within the limit.
    let mut count = tokens::Counter::default();
    count.push('…');
    for (i, c) in text.char_indices() {
        count.push(c);
        if count.tokens() > tokens {
            return format!("{}…", &text[..i]);
        }
    }
    text.to_string()
}

/// Tokens left for the context block of a call on a seat: its window minus the answer, the
/// system prompt, the rest of the user prompt, the JSON Schema a structured call sends, the
/// messages' framing (`tokens::prompt` counts the same) and a safety margin.
pub fn budget(
    context_tokens: u32,
    max_tokens: u32,
    system: &str,
    template: &str,
    schema: Option<&serde_json::Value>,
) -> u32 {
    let window = context_tokens.min(16_000);
    let fixed = max_tokens + tokens::request([system, template], schema) + 32;
    window.saturating_sub(fixed).max(64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(i: usize, len: usize) -> Said {
        Said {
            seat: "a".into(),
            speaker: format!("Speaker {i}"),
            label: "Argument".into(),
            text: "word ".repeat(len),
        }
    }

    #[test]
    fn context_stays_within_budget_however_long_the_debate() {
        let recent: Vec<Said> = (0..200).map(|i| said(i, 200)).collect();
        let summaries: Vec<(String, String)> = (0..50)
            .map(|i| (format!("Round {i}"), "summary ".repeat(60)))
            .collect();
        let ctx = build(&ContextParts {
            summaries: &summaries,
            recent: &recent,
            notes: &[],
            budget: 1500,
        });
        assert!(
            tokens::estimate(&ctx) <= 1500 + 16,
            "{} tokens",
            tokens::estimate(&ctx)
        );
        // The newest turn is always there; the latest summary too.
        assert!(ctx.contains("Speaker 199"));
        assert!(ctx.contains("Round 49"));
        assert!(!ctx.contains("Speaker 0]"));
    }

    #[test]
    fn clip_tokens_cuts_by_the_estimate_in_every_script() {
        let english = "Cities should ban cars. ".repeat(40);
        let chinese = "城市应该禁止汽车进入市中心。".repeat(40);
        for text in [&english, &chinese] {
            let cut = clip_tokens(text, 50);
            assert!(tokens::estimate(&cut) <= 50, "{cut}");
            assert!(tokens::estimate(&cut) >= 45, "{cut}");
            assert!(cut.ends_with('…'));
        }
        assert_eq!(clip_tokens("short", 50), "short");
    }

    #[test]
    fn budget_fits_a_small_local_window() {
        let b = budget(4096, 300, &"s".repeat(2000), &"t".repeat(400), None);
        assert!(b < 4096 - 300 - 500 && b > 2000, "{b}");
    }
}
