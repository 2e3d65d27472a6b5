//! The plain text transcript: the same walk as the Markdown, with no markup at all, for a
//! reader, a mail or a tool that takes text.

use super::super::event::{config_of, Event};
use super::super::log_view::LogView;
use super::walk::{finish_note, walk, Item};
use super::{one_line, seat_line, seat_name};

pub fn to_text(events: &[Event]) -> String {
    let Some(config) = config_of(events) else {
        return String::new();
    };
    let title = one_line(config.topic.trim());
    let mut out = format!("{title}\n{}\n\n", "=".repeat(title.chars().count().min(72)));
    out.push_str(&format!(
        "{}. Exported from Agora.\n\nSeats:\n",
        config.options.describe()
    ));
    for s in &config.seats {
        let (name, rest) = seat_line(s);
        out.push_str(&format!("- {name}{rest}\n"));
    }
    out.push('\n');
    let view = LogView::of(events);
    for item in walk(&view, events) {
        match item {
            Item::Phase(title) => {
                let title = one_line(title);
                out.push_str(&format!(
                    "\n{title}\n{}\n\n",
                    "-".repeat(title.chars().count().min(72))
                ));
            }
            Item::Turn(t) => {
                out.push_str(&format!(
                    "{} — {}:\n\n{}\n\n",
                    seat_name(config, t.seat),
                    one_line(t.label),
                    t.text.trim()
                ));
                if let Some(note) = finish_note(t.finish) {
                    out.push_str(&format!("[{note}]\n\n"));
                }
            }
            Item::Note(text) => out.push_str(&format!("[{text}]\n\n")),
            Item::Finding { label, summary, .. } => {
                out.push_str(&format!("[{label}: {summary}]\n\n"))
            }
        }
    }
    out
}
