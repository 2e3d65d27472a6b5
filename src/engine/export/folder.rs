//! Seed 003's folder: `index.md`, `metadata.md`, `summary.md`, one file per finished turn
//! under `messages/` (`001_moderator_1a2b3c4d.md`, numbered in order) and, when asked for,
//! `transcript.md`, so a reader (or a model with a small context window) can open one turn
//! at a time. The zip puts them under the seed's dated folder (`folder_root`).
//! Every file is Markdown made inert; every path is built here from ASCII letters, digits
//! and `_`, never from model text.

use super::super::cost::{dollars, Spent};
use super::super::event::{config_of, CallKey, Event, EventKind, Outcome, Purpose};
use super::super::log_view::LogView;
use super::super::sources::Origin;
use super::inert::{close_fences, inert};
use super::markdown::{cost_table, quotes_line, seats, to_markdown, usage_line, web_lines};
use super::walk::{finish_note, turns, walk, Item, Turn};
use super::{one_line, seat_name};

/// Where the zip puts the folder, as seed 003 names it: the debate's start date, then its
/// start time (`2026-11-28/2026-11-28T00-43-12_debate`), both UTC.
pub fn folder_root(events: &[Event]) -> String {
    let started = events
        .iter()
        .find(|e| matches!(e.kind, EventKind::DebateStarted { .. }))
        .map_or(0, |e| e.at_ms);
    let t = crate::engine::dates::Utc::of_ms(started);
    format!(
        "{}/{}T{:02}-{:02}-{:02}_debate",
        t.date(),
        t.date(),
        t.hour,
        t.minute,
        t.second
    )
}

/// The folder's files, each path under `folder_root`: what the zip holds.
pub fn in_root(events: &[Event], files: Vec<(String, String)>) -> Vec<(String, String)> {
    let root = folder_root(events);
    files
        .into_iter()
        .map(|(path, text)| (format!("{root}/{path}"), text))
        .collect()
}

/// The folder's files by path; `transcript` adds `transcript.md`, the whole debate in one
/// file (seed 003's optional transcript).
pub fn to_folder(events: &[Event], transcript: bool) -> Vec<(String, String)> {
    let Some(config) = config_of(events) else {
        return Vec::new();
    };
    let topic = one_line(config.topic.trim());
    let view = LogView::of(events);
    let turns = turns(&view, events);
    let width = turns.len().to_string().len().max(3);
    let names: Vec<String> = turns
        .iter()
        .map(|t| format!("{:0width$}_{}_{}.md", t.n, role(t.seat), call_id(t.call)))
        .collect();
    let mut findings: Vec<(Option<&CallKey>, String)> = Vec::new();
    for item in walk(&view, events) {
        if let Item::Finding {
            label,
            summary,
            about,
        } = item
        {
            findings.push((about, format!("> **{label}**: {summary}\n\n")));
        }
    }

    let mut index = format!(
        "# {topic}\n\n*{}. Exported from Agora.*\n\n",
        config.options.describe()
    );
    index.push_str(
        "- [Metadata](metadata.md): the configuration, the seats, times and cost\n\
         - [Summary](summary.md): how it ended, the closing summary and the findings\n",
    );
    if transcript {
        index.push_str("- [Transcript](transcript.md): the whole debate in one file\n");
    }
    index.push_str("\n## Messages\n\n");
    let mut phase = "";
    for (t, name) in turns.iter().zip(&names) {
        if t.phase != phase {
            phase = t.phase;
            index.push_str(&format!("\n### {}\n\n", one_line(phase)));
        }
        index.push_str(&format!(
            "{}. [{} — {}](messages/{name})\n",
            t.n,
            link_text(&seat_name(config, t.seat)),
            link_text(t.label)
        ));
    }

    if !view.sources.is_empty() {
        index.push_str("\n## Sources\n\n");
        for source in &view.sources {
            index.push_str(&format!(
                "- [{} {}](sources/{}.md)\n",
                source.id,
                link_text(&source.title),
                role(&source.id)
            ));
        }
    }
    let mut files = vec![
        ("index.md".to_string(), index),
        ("metadata.md".to_string(), metadata(events, turns.len())),
        ("summary.md".to_string(), summary(events, &turns, &findings)),
    ];
    for (i, t) in turns.iter().enumerate() {
        let mut md = format!(
            "# {} — {}\n\n- Debate: [{}](../index.md)\n- Phase: {}\n- Turn {} of {}\n",
            seat_name(config, t.seat),
            one_line(t.label),
            link_text(&topic),
            one_line(t.phase),
            t.n,
            turns.len()
        );
        if let Some(stance) = config.seat(t.seat).and_then(|s| s.stance.as_deref()) {
            md.push_str(&format!("- Position: {}\n", one_line(stance)));
        }
        if i > 0 {
            md.push_str(&format!("- Previous: [{0}]({0})\n", names[i - 1]));
        }
        if let Some(next) = names.get(i + 1) {
            md.push_str(&format!("- Next: [{next}]({next})\n"));
        }
        md.push('\n');
        md.push_str(&close_fences(t.text.trim()));
        md.push_str("\n\n");
        if let Some(note) = finish_note(t.finish) {
            md.push_str(&format!("*{note}*\n\n"));
        }
        md.push_str(&quotes_line(&view, t.quotes));
        md.push_str(&web_lines(t.web));
        md.push_str(&usage_line(t.usage, t.cost));
        for (_, f) in findings.iter().filter(|(a, _)| *a == Some(t.call)) {
            md.push_str(f);
        }
        files.push((format!("messages/{}", names[i]), md));
    }
    // Each source whole, for a reader checking a quote: `sources/S1.md`.
    for source in &view.sources {
        let mut about = format!("- Debate: [{}](../index.md)\n", link_text(&topic));
        if let Origin::Web { url } = &source.origin {
            // Checked as a web address when it was cited: no space, `<`, `>` or quote.
            about.push_str(&format!("- Page: {url}\n"));
        }
        let text = if source.text.is_empty() {
            "*The search returned only this page's address; Agora has not read the page.*"
                .to_string()
        } else {
            close_fences(&source.text)
        };
        files.push((
            format!("sources/{}.md", role(&source.id)),
            format!(
                "# {} {}\n\n{about}\n{text}\n",
                source.id,
                one_line(&source.title),
            ),
        ));
    }
    if transcript {
        files.push(("transcript.md".to_string(), to_markdown(events)));
    }
    files
        .into_iter()
        .map(|(path, md)| {
            let md = if path == "transcript.md" {
                md
            } else {
                inert(&md)
            };
            (path, md)
        })
        .collect()
}

/// A seat id as a file name part: lowercase ASCII letters and digits, anything else `_`
/// (ids come from the file, which may be anyone's).
fn role(seat: &str) -> String {
    let r: String = seat
        .chars()
        .take(32)
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if r.trim_matches('_').is_empty() {
        "seat".into()
    } else {
        r
    }
}

/// Eight hex digits naming the call (FNV-1a of its key): the id part of a message file's
/// name (`messages/NNN_role_id.md`), the same in every export of the same debate.
fn call_id(call: &CallKey) -> String {
    let h = call.to_string().bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("{h:08x}")
}

/// Text inside a link's brackets: brackets from a name would end the link early.
fn link_text(text: &str) -> String {
    one_line(text).replace(['[', ']'], "")
}

fn metadata(events: &[Event], turns: usize) -> String {
    let Some(config) = config_of(events) else {
        return String::new();
    };
    let mut md = format!("# Metadata\n\n- Topic: {}\n", one_line(config.topic.trim()));
    md.push_str(&format!("- Format: {}\n", config.options.describe()));
    md.push_str(&format!(
        "- Analyst seat: {}\n",
        seat_name(config, &config.analyst)
    ));
    if let (Some(first), Some(last)) = (events.first(), events.last()) {
        md.push_str(&format!(
            "- Started: {}\n- Last event: {}\n",
            utc(first.at_ms),
            utc(last.at_ms)
        ));
    }
    md.push_str(&format!(
        "- Outcome: {}\n- Finished turns: {turns}\n- Events: {}\n",
        outcome(events),
        events.len()
    ));
    if let Some(cap) = config.spending_cap {
        md.push_str(&format!("- Spending cap: {}\n", dollars(cap)));
    }
    if let Some(f) = &config.forked_from {
        md.push_str(&format!(
            "- Forked from debate {} after the turn \"{}\" ({})\n",
            one_line(&f.debate),
            one_line(&f.label),
            one_line(&f.call)
        ));
    }
    if let Some(EventKind::DebateStarted { schema, seed, .. }) = events.first().map(|e| &e.kind) {
        md.push_str(&format!(
            "- Event schema: {schema}\n- Random seed: {seed}\n"
        ));
    }
    md.push_str("\n## Seats\n\n");
    md.push_str(&seats(config));
    md.push_str("\n## Options\n\n```json\n");
    md.push_str(&serde_json::to_string(&config.options).unwrap_or_default());
    md.push_str("\n```\n\n");
    md.push_str(&cost_table(config, &Spent::from_events(config, events)));
    md
}

fn summary(events: &[Event], turns: &[Turn], findings: &[(Option<&CallKey>, String)]) -> String {
    let Some(config) = config_of(events) else {
        return String::new();
    };
    let mut md = format!(
        "# Summary\n\n*{}*\n\nOutcome: {}.\n\n",
        one_line(config.topic.trim()),
        outcome(events)
    );
    match turns
        .iter()
        .rev()
        .find(|t| t.purpose == Some(Purpose::Summary))
    {
        Some(t) => {
            md.push_str(&format!(
                "## {} — {}\n\n{}\n\n",
                seat_name(config, t.seat),
                one_line(t.label),
                close_fences(t.text.trim())
            ));
        }
        None => md.push_str("No summary was recorded.\n\n"),
    }
    if !findings.is_empty() {
        md.push_str("## Findings\n\n");
        for (_, f) in findings {
            md.push_str(f);
        }
    }
    md
}

fn outcome(events: &[Event]) -> &'static str {
    match events.iter().rev().find_map(|e| match &e.kind {
        EventKind::Finished { outcome, .. } => Some(*outcome),
        _ => None,
    }) {
        Some(Outcome::Completed) => "completed",
        Some(Outcome::Stopped) => "stopped",
        Some(Outcome::Failed) => "failed",
        None => "not finished",
    }
}

/// "2026-11-22 05:43 UTC" from milliseconds since the epoch.
fn utc(ms: u64) -> String {
    crate::engine::dates::Utc::of_ms(ms).minutes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_file_name_parts_are_what_a_reader_expects() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_700_000_000_000), "2023-11-14 22:13 UTC");
        assert_eq!(utc(951_782_400_000), "2000-02-29 00:00 UTC");
        assert_eq!(role("position-a"), "position_a");
        assert_eq!(role("../../etc/passwd"), "______etc_passwd");
        assert_eq!(role("城市"), "seat");
        assert_eq!(call_id(&CallKey::new("opening/moderator", 0)).len(), 8);
        assert_ne!(
            call_id(&CallKey::new("a", 0)),
            call_id(&CallKey::new("a", 1))
        );
    }
}
