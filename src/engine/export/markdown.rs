//! The Markdown transcript, for people.

use super::super::config::DebateConfig;
use super::super::cost::{dollars, Spent};
use super::super::event::{config_of, Event, Usage};
use super::super::log_view::LogView;
use super::super::sources::quotes::Checked;
use super::super::sources::web::WebSearch;
use super::super::sources::Origin;
use super::inert::{close_fences, inert};
use super::walk::{finish_note, walk, Item};
use super::{one_line, seat_line, seat_name};

/// Several lines as one quote block.
fn quote(text: &str) -> String {
    text.lines()
        .map(|l| format!("> {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A turn's tokens and, when its seat has a price, what it cost (as its turn shows it).
pub(super) fn usage_line(usage: &Usage, cost: Option<f64>) -> String {
    let est = if usage.estimated { " (estimated)" } else { "" };
    let money = match cost {
        Some(c) => format!(" · {}{est}", dollars(c)),
        None => String::new(),
    };
    format!(
        "*{} tokens in, {} out{est}{money}*\n\n",
        usage.input_tokens, usage.output_tokens
    )
}

pub fn to_markdown(events: &[Event]) -> String {
    let Some(config) = config_of(events) else {
        return String::new();
    };
    let mut md = format!("# {}\n\n", one_line(config.topic.trim()));
    md.push_str(&format!(
        "*{}. Exported from Agora.*\n\n",
        config.options.describe()
    ));
    md.push_str(&seats(config));
    md.push('\n');
    let view = LogView::of(events);
    for item in walk(&view, events) {
        match item {
            Item::Phase(title) => md.push_str(&format!("## {}\n\n", one_line(title))),
            Item::Turn(t) => {
                md.push_str(&format!(
                    "### {} — {}\n\n",
                    seat_name(config, t.seat),
                    one_line(t.label)
                ));
                md.push_str(&close_fences(t.text.trim()));
                md.push_str("\n\n");
                if let Some(note) = finish_note(t.finish) {
                    md.push_str(&format!("*{note}*\n\n"));
                }
                md.push_str(&quotes_line(&view, t.quotes));
                md.push_str(&web_lines(t.web));
                md.push_str(&usage_line(t.usage, t.cost));
            }
            Item::Note(text) => md.push_str(&format!("{}\n\n", quote(&text))),
            Item::Finding { label, summary, .. } => {
                md.push_str(&format!("> **{}**: {summary}\n\n", one_line(&label)))
            }
        }
    }
    md.push_str(&sources_section(&view));
    // The money spent on screen: every call counts, whether or not its turn is in the transcript.
    md.push_str(&cost_table(config, &view.spent));
    let reads = crate::engine::event::ReadTally::of(events);
    if reads.total() > 0 {
        md.push_str(&format!("\n{}.\n", crate::engine::reading::reads(&reads)));
    }
    inert(&md)
}

/// A turn's quotes and what their check found, one line each.
pub(super) fn quotes_line(view: &LogView, quotes: &[Checked]) -> String {
    let mut md = String::new();
    for q in quotes {
        let text = one_line(&q.text);
        match &q.found {
            Some(f) => {
                let title = view
                    .sources
                    .iter()
                    .find(|s| s.id == f.source)
                    .map_or("", |s| s.title.as_str());
                md.push_str(&format!(
                    "- Quote verified in {} ({}): “{text}”\n",
                    f.label(),
                    one_line(title)
                ));
            }
            None if left_out(view) => md.push_str(&format!(
                "- Quote not checked (this copy of the debate left its sources out): “{text}”\n"
            )),
            None => md.push_str(&format!("- Quote not found in any source: “{text}”\n")),
        }
    }
    if !md.is_empty() {
        md.push('\n');
    }
    md
}

/// What a turn's web search cited, a link a line with the page's words it returned, or why
/// it did not search.
pub(super) fn web_lines(web: Option<&WebSearch>) -> String {
    let Some(web) = web else {
        return String::new();
    };
    let mut md = String::new();
    for c in &web.citations {
        let label = one_line(c.label()).replace('[', "\\[").replace(']', "\\]");
        // An address holds no space or `<>`; its parentheses would end the link early.
        let url = c.url.replace('(', "%28").replace(')', "%29");
        md.push_str(&format!("- Web: [{label}]({url})"));
        if !c.cited_text.is_empty() {
            let words: String = c.cited_text.chars().take(300).collect();
            md.push_str(&format!(" — “{}”", one_line(&words)));
        }
        md.push('\n');
    }
    if !web.failed.is_empty() {
        md.push_str(&format!("- Web search: {}\n", one_line(&web.failed)));
    }
    if !md.is_empty() {
        md.push('\n');
    }
    md
}

/// Whether this copy of the debate came without its sources (a share link's).
fn left_out(view: &LogView) -> bool {
    view.config.as_ref().is_some_and(|c| c.sources_left_out > 0)
}

/// The debate's sources by title, and each seat's quotes: made, verified, not found.
pub(super) fn sources_section(view: &LogView) -> String {
    if left_out(view) {
        let n = view.config.as_ref().map_or(0, |c| c.sources_left_out);
        return format!("## Sources\n\nThis copy of the debate left its {} out; its quotes were not checked.\n\n", crate::engine::reading::count(n as usize, "source document"));
    }
    if view.sources.is_empty() {
        return String::new();
    }
    let mut md = String::from("## Sources\n\n");
    for s in &view.sources {
        let from = match &s.origin {
            Origin::File { name } => format!("file {}", one_line(name)),
            Origin::Pasted => "pasted text".into(),
            Origin::Evidence => "evidence added during the debate".into(),
            Origin::Web { url } => format!("cited by a web search, {url}"),
        };
        md.push_str(&format!(
            "- **{}** {} ({from}, {} characters)\n",
            s.id,
            one_line(&s.title),
            s.text.chars().count()
        ));
    }
    let counts = view.quote_counts();
    if !counts.is_empty() {
        md.push_str("\n| Seat | Quotes | Verified | Not found |\n|---|---|---|---|\n");
        for c in counts {
            md.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                c.speaker.replace('|', "\\|"),
                c.made,
                c.verified,
                c.not_found()
            ));
        }
    }
    md.push('\n');
    md
}

/// The seats as a list: name, position, and who or which model fills it.
pub(super) fn seats(config: &DebateConfig) -> String {
    let mut md = String::new();
    for s in &config.seats {
        let (name, rest) = seat_line(s);
        md.push_str(&format!("- **{name}**{rest}\n"));
    }
    md
}

/// What each seat cost, and the total.
pub(super) fn cost_table(config: &DebateConfig, spent: &Spent) -> String {
    let mut md = String::new();
    md.push_str("## Cost\n\n| Seat | Cost (USD) |\n|---|---|\n");
    for (id, usd) in &spent.seats {
        let v = spent.shown(id, *usd);
        md.push_str(&format!(
            "| {} | {v} |\n",
            seat_name(config, id).replace('|', "\\|")
        ));
    }
    let est = if spent.estimated {
        " (estimated: the provider reported no usage for some calls)"
    } else {
        ""
    };
    md.push_str(&format!(
        "| **Total** | **{}**{est} |\n",
        dollars(spent.total)
    ));
    md
}
