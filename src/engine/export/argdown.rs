//! The debate as an Argdown argument map (https://argdown.org): the motion as the central
//! claim, each side's position as a claim, and each finished argument turn as an argument
//! that supports its side's claim and attacks the other sides'. Moderation, summaries and
//! analysis are not arguments and stay out. Classic's Position A argues for the motion and
//! Position B against it; other formats' seats argue from their own views, which a map
//! cannot place for or against the topic, so there only the seats' claims are related.

use super::super::config::{DebateConfig, FormatId};
use super::super::event::{config_of, Event, Purpose};
use super::super::formats::classic;
use super::super::log_view::LogView;
use super::one_line;
use super::walk::turns;

/// Longest argument text in the map; the whole turn is in the other exports.
const MAX_TEXT_CHARS: usize = 1_000;

pub fn to_argdown(events: &[Event]) -> String {
    let Some(config) = config_of(events) else {
        return String::new();
    };
    let view = LogView::of(events);
    let turns = turns(&view, events);
    let args: Vec<(&str, String, String)> = turns
        .iter()
        .filter(|t| t.purpose == Some(Purpose::Argument) && t.seat != config.analyst)
        .map(|t| {
            let seat = config.seat(t.seat).map_or(t.seat, |s| s.name.as_str());
            (
                t.seat,
                title(&format!("Turn {}, {seat}, {}", t.n, t.label)),
                text(&t.text),
            )
        })
        .collect();
    // One claim per seat that argued, in seating order, with a unique title.
    let mut claims: Vec<(&str, String, String)> = Vec::new();
    for s in &config.seats {
        if !args.iter().any(|(seat, ..)| *seat == s.id) {
            continue;
        }
        let mut name = title(&s.name);
        if name.is_empty() {
            name = "Seat".into();
        }
        if name == "Motion" || claims.iter().any(|c| c.1 == name) {
            name = format!("{name} {}", claims.len() + 1);
        }
        let stance = match s.stance.as_deref().map(str::trim) {
            Some(st) if !st.is_empty() => text(st),
            _ => text(&format!("{}'s case on the motion.", s.name)),
        };
        claims.push((s.id.as_str(), name, stance));
    }

    let mut out = format!("[Motion]: {}\n", text(&config.topic));
    if classic_sides(config) {
        for (seat, name, _) in &claims {
            match *seat {
                classic::POSITION_A => out.push_str(&format!("  + [{name}]\n")),
                classic::POSITION_B => out.push_str(&format!("  - [{name}]\n")),
                _ => {}
            }
        }
    }
    for (seat, name, stance) in &claims {
        out.push_str(&format!("\n[{name}]: {stance}\n"));
        for (by, arg, _) in &args {
            let sign = if by == seat { '+' } else { '-' };
            out.push_str(&format!("  {sign} <{arg}>\n"));
        }
    }
    for (_, arg, body) in &args {
        out.push_str(&format!("\n<{arg}>: {body}\n"));
    }
    out
}

fn classic_sides(config: &DebateConfig) -> bool {
    config.format() == FormatId::Classic
}

/// A title: letters, digits, spaces and `,.'-` only, so nothing in it can close the
/// brackets or start Argdown syntax.
fn title(raw: &str) -> String {
    let t: String = one_line(raw)
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || " ,.'-".contains(c) {
                c
            } else {
                ' '
            }
        })
        .collect();
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Statement or argument text on one line (a line break would end it, and a line starting
/// with `+`, `-`, `>` or `#` would be read as a relation or a heading), with every
/// character Argdown reads as syntax inside a line escaped with a backslash (shown as itself):
/// brackets and angle brackets (references), `#` (tags), `@` (mentions), `{}` (data), `//`
/// and `/*` (comments), and emphasis markers (which would have to pair up).
fn text(raw: &str) -> String {
    let line = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(line.len() + line.len() / 8);
    let mut chars = line.chars().peekable();
    let mut n = 0;
    while let Some(c) = chars.next() {
        if n == MAX_TEXT_CHARS {
            out.push('…');
            break;
        }
        let comment = c == '/' && matches!(chars.peek(), Some('/' | '*'));
        if comment || "[]<>#@{}*_\\`".contains(c) {
            out.push('\\');
        }
        out.push(c);
        n += 1;
    }
    out
}
