//! A debate as a file: JSON (the whole event log, which Agora can read back, plus its cost)
//! and Markdown (the transcript for people). Both are built from the event log alone, so
//! they hold what the log holds: never an API key.
//!
//! The Markdown carries no live HTML: whatever a model (or a topic, a name) wrote is made
//! inert (`inert`), so a viewer that renders Markdown shows it as text, loads no image and
//! follows no `javascript:` link.

use super::config::{DebateConfig, Participant};
use super::cost::{dollars, Ledger};
use super::event::{config_of, Event, EventKind, FinishReason, Input, SCHEMA_VERSION};

fn seat_name(config: &DebateConfig, seat: &str) -> String {
    one_line(
        &config
            .seat(seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone()),
    )
}

/// Text that stands in one line of the Markdown (a heading, a list item, a note): a line
/// break in it would start a block of its own.
fn one_line(text: &str) -> String {
    text.split(['\r', '\n'])
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Several lines as one quote block.
fn quote(text: &str) -> String {
    text.lines()
        .map(|l| format!("> {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A fence that opens a top-level code block: at the very start of a line (a fence
/// indented inside a list or a quote ends with its container, so only these are trusted to
/// hold raw text), three or more backticks or tildes, and for backticks no backtick after.
fn opening_fence(line: &str) -> Option<(char, usize)> {
    let c = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = line.chars().take_while(|x| *x == c).count();
    let info = &line[n..];
    (n >= 3 && !(c == '`' && info.contains('`'))).then_some((c, n))
}

fn closes_fence(line: &str, (c, n): (char, usize)) -> bool {
    let t = line.trim_end();
    let indent = t.len() - t.trim_start_matches(' ').len();
    let rest = &t[indent..];
    indent <= 3
        && rest.chars().take_while(|x| *x == c).count() >= n.max(1)
        && rest.chars().all(|x| x == c)
}

/// Closes a code block a text left open, so it cannot swallow the rest of the export.
fn close_fences(text: &str) -> String {
    let mut open = None;
    for line in text.lines() {
        open = match open {
            Some(f) if closes_fence(line, f) => None,
            Some(f) => Some(f),
            None => opening_fence(line),
        };
    }
    match open {
        Some((c, n)) => format!("{text}\n{}", c.to_string().repeat(n)),
        None => text.to_string(),
    }
}

/// Makes Markdown inert outside top-level fenced code (where nothing is ever HTML): every
/// `<` becomes `&lt;` (no tag, comment or autolink survives), `![` becomes `!\[` (a link to
/// the picture, never a loaded picture), a link whose target is not http(s) or mailto loses
/// its `(`, and `]:` is escaped so no reference definition can name a target. Rendered, the
/// text reads the same; it only cannot act.
pub fn inert(md: &str) -> String {
    let mut out = String::with_capacity(md.len() + md.len() / 16);
    let mut fence = None;
    for line in md.split_inclusive('\n') {
        if let Some(f) = fence {
            if closes_fence(line, f) {
                fence = None;
            }
            out.push_str(line);
            continue;
        }
        if let Some(f) = opening_fence(line) {
            fence = Some(f);
            out.push_str(&line.replace('<', "&lt;"));
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find(['<', '!', ']']) {
            out.push_str(&rest[..i]);
            let tail = &rest[i..];
            let (put, after) = if let Some(r) = tail.strip_prefix('<') {
                ("&lt;", r)
            } else if let Some(r) = tail.strip_prefix("![") {
                ("!\\[", r)
            } else if let Some(r) = tail.strip_prefix("]:") {
                ("]\\:", r)
            } else if let Some(r) = tail.strip_prefix("](") {
                let t = r.trim_start().as_bytes();
                let safe = [&b"http://"[..], b"https://", b"mailto:"]
                    .iter()
                    .any(|p| t.len() >= p.len() && t[..p.len()].eq_ignore_ascii_case(p));
                (if safe { "](" } else { "]\\(" }, r)
            } else {
                tail.split_at(1)
            };
            out.push_str(put);
            rest = after;
        }
        out.push_str(rest);
    }
    out
}

/// A file name from the topic: "should-cities-ban-cars.md", "städte-ohne-autos.md",
/// "城市应该禁止私家车吗.md".
pub fn file_name(events: &[Event], ext: &str) -> String {
    named(config_of(events).map_or("", |c| c.topic.as_str()), ext)
}

/// Longest slug, in characters. Even at four UTF-8 bytes each, slug and extension stay
/// under the 255-byte name limit of common file systems.
const SLUG_MAX_CHARS: usize = 60;

fn named(topic: &str, ext: &str) -> String {
    let slug = slug(topic);
    if slug.is_empty() {
        format!("debate.{ext}")
    } else if reserved_on_windows(&slug) {
        format!("{slug}-debate.{ext}")
    } else {
        format!("{slug}.{ext}")
    }
}

/// Letters and digits of any script, lowercased with Unicode case mapping; every other run
/// of characters (spaces, punctuation, emoji, anything a file system reserves) becomes one
/// '-'. Combining marks stay with their letter, so "हिन्दी" or a decomposed "café" is not cut.
fn slug(topic: &str) -> String {
    let mut slug = String::new();
    let mut n = 0;
    let mut in_word = false;
    // The whole topic at once: lowercasing is context-sensitive (a final 'Σ' becomes 'ς').
    for c in topic.to_lowercase().chars() {
        if !(c.is_alphanumeric() || (in_word && is_combining_mark(c))) {
            in_word = false;
            continue;
        }
        // A word after a gap gets its '-', unless that '-' would end the slug.
        let dash = !in_word && n > 0;
        if n + usize::from(dash) + 1 > SLUG_MAX_CHARS {
            break;
        }
        if dash {
            slug.push('-');
            n += 1;
        }
        slug.push(c);
        n += 1;
        in_word = true;
    }
    slug
}

/// Combining marks that `char::is_alphanumeric` leaves out but that are part of a written
/// letter: the generic combining blocks, Hebrew and Arabic points, Indic viramas and
/// nuktas, Thai and Lao tone marks. (Most Indic vowel signs are alphabetic already.)
fn is_combining_mark(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD | 0x05BF | 0x05C1..=0x05C2
        | 0x05C4..=0x05C5 | 0x05C7 | 0x0610..=0x061A | 0x064B..=0x065F | 0x0670
        | 0x06D6..=0x06DC | 0x06DF..=0x06E4 | 0x06E7..=0x06E8 | 0x06EA..=0x06ED
        | 0x093C | 0x094D | 0x0951..=0x0954 | 0x09BC | 0x09CD | 0x0A3C | 0x0A4D | 0x0ABC
        | 0x0ACD | 0x0B3C | 0x0B4D | 0x0BCD | 0x0C4D | 0x0CBC | 0x0CCD | 0x0D4D | 0x0DCA
        | 0x0E31 | 0x0E34..=0x0E3A | 0x0E47..=0x0E4E | 0x0EB1 | 0x0EB4..=0x0EBC
        | 0x0EC8..=0x0ECE | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF
        | 0xFE20..=0xFE2F)
}

/// Device names Windows refuses as a file name, whatever the extension ("con.md").
fn reserved_on_windows(slug: &str) -> bool {
    let device = |prefix: &str| {
        let mut rest = slug.strip_prefix(prefix).unwrap_or("").chars();
        matches!((rest.next(), rest.next()), (Some(d), None) if d.is_ascii_digit() || "¹²³".contains(d))
    };
    matches!(slug, "con" | "prn" | "aux" | "nul") || device("com") || device("lpt")
}

/// The cost as plain data, for the JSON export.
fn cost_json(config: &DebateConfig, ledger: &Ledger) -> serde_json::Value {
    let seats: serde_json::Map<String, serde_json::Value> = ledger
        .seats
        .iter()
        .map(|(id, usd)| {
            let known = !ledger.unpriced.contains(id);
            (
                seat_name(config, id),
                if known {
                    (*usd).into()
                } else {
                    serde_json::Value::Null
                },
            )
        })
        .collect();
    serde_json::json!({
        "currency": "USD",
        "total": ledger.total,
        "by_seat": seats,
        "estimated": ledger.estimated,
        "unpriced_seats": ledger.unpriced,
    })
}

/// The export file. Written straight to text with the same serializer the store uses for
/// events (going through a generic value, or pretty-printing, would link another copy of
/// the events' serializer into the app).
#[derive(serde::Serialize)]
struct ExportFile<'a> {
    agora_export: u32,
    schema: u32,
    events: &'a [Event],
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<serde_json::Value>,
}

pub fn to_json(events: &[Event]) -> String {
    let cost = config_of(events).map(|c| cost_json(c, &Ledger::from_events(c, events)));
    serde_json::to_string(&ExportFile {
        agora_export: 1,
        schema: SCHEMA_VERSION,
        events,
        cost,
    })
    .unwrap_or_default()
}

fn usage_line(config: &DebateConfig, seat: &str, ledger: &mut Ledger, e: &EventKind) -> String {
    let EventKind::TurnFinished { usage, .. } = e else {
        return String::new();
    };
    let est = if usage.estimated { " (estimated)" } else { "" };
    let money = match ledger.add(config, seat, usage) {
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
    for s in &config.seats {
        let stance = s
            .stance
            .as_deref()
            .map(|x| format!(": {}", one_line(x)))
            .unwrap_or_default();
        let who = match &s.participant {
            Participant::Model { .. } => one_line(&s.participant.describe()),
            Participant::Human => "a person".into(),
        };
        md.push_str(&format!("- **{}**{stance} ({who})\n", one_line(&s.name)));
    }
    md.push('\n');
    let mut ledger = Ledger::new(config);
    let mut labels: Vec<(String, String)> = Vec::new();
    for e in events {
        match &e.kind {
            EventKind::PhaseStarted { title, .. } => {
                md.push_str(&format!("## {}\n\n", one_line(title)))
            }
            EventKind::TurnStarted { call, label, .. } => {
                labels.push((call.to_string(), label.clone()));
            }
            EventKind::TurnFinished {
                call,
                seat,
                text,
                finish,
                ..
            } => {
                let label = labels
                    .iter()
                    .rev()
                    .find(|(c, _)| *c == call.to_string())
                    .map_or("", |(_, l)| l.as_str());
                md.push_str(&format!(
                    "### {} — {}\n\n",
                    seat_name(config, seat),
                    one_line(label)
                ));
                md.push_str(&close_fences(text.trim()));
                md.push_str("\n\n");
                match finish {
                    FinishReason::Length => md.push_str("*Cut off by the token limit.*\n\n"),
                    FinishReason::Cut => md.push_str("*Interrupted.*\n\n"),
                    FinishReason::Limit => {
                        md.push_str("*Cut at Agora's size or time limit for one answer.*\n\n")
                    }
                    FinishReason::Stop => {}
                }
                md.push_str(&usage_line(config, seat, &mut ledger, &e.kind));
            }
            EventKind::TurnFailed { seat, error, .. } => md.push_str(&format!(
                "> {}'s attempt failed: {}\n\n",
                seat_name(config, seat),
                one_line(error)
            )),
            EventKind::InputReceived { input, .. } => match input {
                Input::Question { text } => md.push_str(&format!(
                    "{}\n\n",
                    quote(&format!("Audience question: {text}"))
                )),
                Input::Evidence { text } => md.push_str(&format!(
                    "{}\n\n",
                    quote(&format!("Evidence submitted: {text}"))
                )),
                Input::SpendingCap { usd } => md.push_str(&format!(
                    "> Spending cap set to {}.\n\n",
                    usd.map_or("none".into(), dollars)
                )),
                Input::HumanTurn { .. } => {}
            },
            EventKind::Error { message } => md.push_str(&format!("> {}\n\n", one_line(message))),
            EventKind::FindingRecorded(f) => md.push_str(&format!(
                "> **{}**: {}\n\n",
                one_line(f.body.label()),
                one_line(&f.body.summary())
            )),
            EventKind::CallSkipped { seat, reason, .. } => md.push_str(&format!(
                "> {}'s call was skipped: {}\n\n",
                seat_name(config, seat),
                one_line(reason)
            )),
            _ => {}
        }
    }
    md.push_str("## Cost\n\n| Seat | Cost (USD) |\n|---|---|\n");
    for (id, usd) in &ledger.seats {
        let v = ledger.shown(id, *usd);
        md.push_str(&format!(
            "| {} | {v} |\n",
            seat_name(config, id).replace('|', "\\|")
        ));
    }
    let est = if ledger.estimated {
        " (estimated: the provider reported no usage for some calls)"
    } else {
        ""
    };
    md.push_str(&format!(
        "| **Total** | **{}**{est} |\n",
        dollars(ledger.total)
    ));
    inert(&md)
}

#[cfg(test)]
mod tests {
    use super::{close_fences, inert, named, SLUG_MAX_CHARS};

    #[test]
    fn markdown_from_a_model_carries_no_live_html_image_or_script_link() {
        let hostile = concat!(
            "Hi <img src=https://t.example/p.gif onerror=alert(1)> and <script>alert(1)</script>\n",
            "<!-- hidden --> <a href=\"javascript:alert(1)\">x</a> <https://auto.example>\n",
            "![tracker](https://t.example/pixel.png) [![b](https://t.example/b.png)](https://ok.example)\n",
            "[click](javascript:alert(1)) [ok](https://ok.example/a) [mail](mailto:a@b.example)\n",
            "[x](  JaVaScRiPt:alert(1)) [y](<javascript:alert(1)>) [data](data:text/html,hi)\n",
            "[ref]: javascript:alert(1)\n",
            "   <div>indented html</div>\n",
        );
        let out = inert(hostile);
        assert!(!out.contains('<'), "{out}");
        assert!(!out.contains("!["), "{out}");
        assert!(
            !out.contains("](javascript") && !out.contains("](  JaVa"),
            "{out}"
        );
        assert!(!out.contains("](data") && !out.contains("]:"), "{out}");
        for kept in [
            "[ok](https://ok.example/a)",
            "[mail](mailto:a@b.example)",
            "](https://ok.example)",
        ] {
            assert!(out.contains(kept), "{kept} in {out}");
        }
        // Rendered, it reads the same: entities and escapes are shown as the characters.
        assert!(out.contains("Hi &lt;img src=https://t.example/p.gif onerror=alert(1)>"));
        assert!(out.contains("!\\[tracker](https://t.example/pixel.png)"));
    }

    #[test]
    fn code_at_the_top_level_stays_as_written_and_is_always_closed() {
        let text = "Look:\n```html\n<b>bold</b> ![x](y) [a](javascript:b)\n```\nafter <i>";
        let out = inert(text);
        assert!(
            out.contains("\n<b>bold</b> ![x](y) [a](javascript:b)\n```\n"),
            "{out}"
        );
        assert!(out.ends_with("after &lt;i>"), "{out}");
        // A fence inside a list ends with the list, so what it holds is escaped too.
        let listed = inert("- a\n  ```\n  x\n<img src=x>\n");
        assert!(!listed.contains("<img"), "{listed}");
        // A turn that leaves its code block open cannot turn the rest of the file into
        // code (where the rest would no longer be escaped the way a viewer reads it).
        let open = close_fences("Code:\n~~~~\nlet a = 1;");
        assert!(open.ends_with("\n~~~~"));
        let doc = inert(&format!("{open}\n\n<img src=x>"));
        assert!(doc.ends_with("&lt;img src=x>"), "{doc}");
        assert_eq!(
            close_fences("``` a `b` c\n<i>"),
            "``` a `b` c\n<i>",
            "not a fence"
        );
    }

    #[test]
    fn file_names_keep_the_letters_of_every_script() {
        assert_eq!(
            named("Should cities ban private cars?", "md"),
            "should-cities-ban-private-cars.md"
        );
        assert_eq!(
            named("Sollten Städte Autos VERBANNEN? Größe zählt!", "md"),
            "sollten-städte-autos-verbannen-größe-zählt.md"
        );
        assert_eq!(
            named("城市应该禁止私家车吗？", "json"),
            "城市应该禁止私家车吗.json"
        );
        assert_eq!(
            named("Ist 5G gefährlich — 第2部分", "md"),
            "ist-5g-gefährlich-第2部分.md"
        );
        // Unicode case mapping, not ASCII: Greek (with its final sigma), Cyrillic, and 'İ',
        // which lowercases to two characters.
        assert_eq!(
            named("ΣΩΚΡΑΤΗΣ и ДЕМОКРАТИЯ", "md"),
            "σωκρατης-и-демократия.md"
        );
        assert_eq!(named("İstanbul", "md"), "i\u{307}stanbul.md");
        // Marks stay with their letter.
        assert_eq!(named("हिन्दी में बहस", "md"), "हिन्दी-में-बहस.md");
        assert_eq!(named("Cafe\u{301} crème", "md"), "cafe\u{301}-crème.md");
    }

    #[test]
    fn emoji_and_punctuation_become_one_dash_or_nothing() {
        assert_eq!(
            named("🚀 Rockets 🚀🚀 or   trains?! 🚆", "md"),
            "rockets-or-trains.md"
        );
        assert_eq!(named("👨‍👩‍👧 Family ❤️ time", "md"), "family-time.md");
        assert_eq!(named("🚀🔥💯", "md"), "debate.md");
        assert_eq!(named("", "json"), "debate.json");
        assert_eq!(named("  ---  ", "md"), "debate.md");
    }

    #[test]
    fn file_names_are_valid_on_every_desktop_system() {
        let hostile = "a<b>c:d\"e/f\\g|h?i*j\u{0}k\u{1f}l.m n\u{202e}o\u{200b}p";
        assert_eq!(named(hostile, "md"), "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p.md");
        for reserved in ["CON", "nul", "Aux?", "com1", "LPT9", "com²"] {
            let name = named(reserved, "md");
            assert!(name.ends_with("-debate.md"), "{reserved} gave {name}");
        }
        assert_eq!(named("Console", "md"), "console.md");
        assert_eq!(named("com10", "md"), "com10.md");
        for name in [named(hostile, "md"), named("城市", "md")] {
            assert!(!name.starts_with(['.', '-']));
            assert!(!name
                .chars()
                .any(|c| "<>:\"/\\|?*".contains(c) || c.is_control()));
        }
    }

    #[test]
    fn long_topics_are_cut_by_characters() {
        let chinese = "辩".repeat(200);
        let name = named(&chinese, "json");
        assert_eq!(name, format!("{}.json", "辩".repeat(SLUG_MAX_CHARS)));
        assert!(name.len() < 255);
        let words = "Wörter ".repeat(40);
        let name = named(&words, "md");
        let slug = name.strip_suffix(".md").unwrap();
        assert!(slug.chars().count() <= SLUG_MAX_CHARS);
        assert!(!slug.ends_with('-'));
        assert!(slug.starts_with("wörter-wörter-"));
        // Four-byte letters at the cap still fit a 255-byte name.
        let name = named(&"𝐀".repeat(100), "json");
        assert!(name.len() < 255, "{}", name.len());
    }
}
