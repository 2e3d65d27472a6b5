//! A crux card as something to share: Markdown to paste, and an SVG image to download.
//! Pure functions (native tests below), so the card reads the same wherever it goes.

use crate::engine::finding::CruxCard;

pub fn kind_title(card: &CruxCard) -> &'static str {
    use crate::engine::finding::DisagreementKind::*;
    match card.kind {
        Factual => "Factual",
        Values => "Values",
        Definitional => "Definitional",
    }
}

/// What the kind means, in a few words, for readers who never saw the debate.
pub fn kind_hint(card: &CruxCard) -> &'static str {
    use crate::engine::finding::DisagreementKind::*;
    match card.kind {
        Factual => "they disagree about what is true",
        Values => "they weigh what matters differently",
        Definitional => "they mean different things by the same words",
    }
}

pub fn status(card: &CruxCard) -> &'static str {
    if card.resolved {
        "Resolved"
    } else {
        "Unresolved"
    }
}

/// The card as Markdown: readable on its own, with where it came from. Every field is
/// model text (or a user's topic), so each is kept to one line (a line break cannot open a
/// heading or a code block that swallows the rest) and the whole goes through the same
/// inert filter as every export: it reads the same, and nothing in it can act.
pub fn markdown(card: &CruxCard, name: &dyn Fn(&str) -> String, topic: &str) -> String {
    let line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = format!(
        "## Crux: {}\n\n*{} disagreement ({}) · {}*\n",
        line(&card.crux),
        kind_title(card),
        kind_hint(card),
        status(card)
    );
    if !card.question.trim().is_empty() {
        out.push_str(&format!("\n**Question:** {}\n", line(&card.question)));
    }
    for s in &card.sides {
        out.push_str(&format!(
            "\n### {}\n\n- **Position:** {}\n- **Because:** {}\n- **Would change their mind:** {}\n",
            line(&name(&s.seat)),
            line(&s.position),
            line(&s.reasoning),
            if s.would_change_mind.trim().is_empty() {
                "did not say".to_string()
            } else {
                line(&s.would_change_mind)
            }
        ));
    }
    out.push_str(&format!("\n**Diagnosis:** {}\n", line(&card.diagnosis)));
    if card.resolved && !card.resolution.trim().is_empty() {
        out.push_str(&format!("\n**Resolution:** {}\n", line(&card.resolution)));
    }
    out.push_str(&format!(
        "\n*From a crux debate on \u{201c}{}\u{201d}, run with Agora.*\n",
        line(topic)
    ));
    crate::engine::export::inert(&out)
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// Greedy word wrap at `width` characters (a long word is cut).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word: String = word.to_string();
        while word.chars().count() > width {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            let head: String = word.chars().take(width).collect();
            word = word.chars().skip(width).collect();
            lines.push(head);
        }
        let needed = line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
        if needed > width && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The card as a standalone SVG image (1200 px wide, as tall as it needs).
pub fn svg(card: &CruxCard, name: &dyn Fn(&str) -> String, topic: &str) -> String {
    const W: u32 = 1200;
    const PAD: u32 = 56;
    let mut body = String::new();
    let mut y: u32 = PAD + 8;
    let mut text = |x: u32, y: u32, size: u32, weight: &str, fill: &str, s: &str| {
        body.push_str(&format!(
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" font-weight=\"{weight}\" fill=\"{fill}\">{}</text>\n",
            escape(s)
        ));
    };
    text(
        PAD,
        y,
        18,
        "600",
        "#6b5bd6",
        &format!(
            "CRUX CARD · {} · {}",
            kind_title(card).to_ascii_uppercase(),
            status(card).to_ascii_uppercase()
        ),
    );
    y += 50;
    for line in wrap(card.crux.trim(), 52) {
        text(PAD, y, 36, "700", "#1c1b29", &line);
        y += 46;
    }
    if !card.question.trim().is_empty() {
        y += 4;
        for line in wrap(&format!("Question: {}", card.question.trim()), 100) {
            text(PAD, y, 20, "400", "#55536b", &line);
            y += 28;
        }
    }
    y += 24;
    // Sides in columns.
    let n = card.sides.len().max(1) as u32;
    let col = (W - 2 * PAD - (n - 1) * 32) / n;
    let chars = (col / 10).max(20) as usize;
    let top = y;
    let mut bottom = y;
    for (i, s) in card.sides.iter().enumerate() {
        let x = PAD + i as u32 * (col + 32);
        let mut yy = top + 36;
        let mut lines: Vec<(u32, &str, &str, String)> = vec![(24, "700", "#1c1b29", name(&s.seat))];
        let section = |label: &str, value: &str, lines: &mut Vec<(u32, &str, &str, String)>| {
            lines.push((15, "600", "#6b5bd6", label.to_ascii_uppercase()));
            for l in wrap(value, chars) {
                lines.push((19, "400", "#2b2a3a", l));
            }
        };
        section("Position", s.position.trim(), &mut lines);
        section("Because", s.reasoning.trim(), &mut lines);
        let flip = if s.would_change_mind.trim().is_empty() {
            "did not say"
        } else {
            s.would_change_mind.trim()
        };
        section("Would change their mind", flip, &mut lines);
        let mut inner = String::new();
        for (size, weight, fill, l) in lines {
            if size == 15 {
                yy += 14;
            }
            inner.push_str(&format!(
                "<text x=\"{}\" y=\"{yy}\" font-size=\"{size}\" font-weight=\"{weight}\" fill=\"{fill}\">{}</text>\n",
                x + 24,
                escape(&l)
            ));
            yy += size + 9;
        }
        bottom = bottom.max(yy + 12);
        body.push_str(&format!(
            "<rect x=\"{x}\" y=\"{top}\" width=\"{col}\" height=\"{{H{i}}}\" rx=\"14\" fill=\"#f4f2ff\" stroke=\"#d9d4ff\"/>\n{inner}"
        ));
    }
    for i in 0..card.sides.len() {
        body = body.replace(&format!("{{H{i}}}"), &(bottom - top).to_string());
    }
    y = bottom + 40;
    let mut text = |x: u32, y: u32, size: u32, weight: &str, fill: &str, s: &str| {
        body.push_str(&format!(
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" font-weight=\"{weight}\" fill=\"{fill}\">{}</text>\n",
            escape(s)
        ));
    };
    text(PAD, y, 15, "600", "#6b5bd6", "DIAGNOSIS");
    y += 30;
    for line in wrap(card.diagnosis.trim(), 100) {
        text(PAD, y, 20, "400", "#2b2a3a", &line);
        y += 28;
    }
    if card.resolved && !card.resolution.trim().is_empty() {
        y += 14;
        text(PAD, y, 15, "600", "#1f8a5b", "RESOLUTION");
        y += 30;
        for line in wrap(card.resolution.trim(), 100) {
            text(PAD, y, 20, "400", "#2b2a3a", &line);
            y += 28;
        }
    }
    y += 20;
    for line in wrap(
        &format!(
            "From a crux debate on \u{201c}{}\u{201d} · Agora",
            topic.trim()
        ),
        110,
    ) {
        text(PAD, y, 16, "400", "#8a889c", &line);
        y += 22;
    }
    let h = y + PAD - 16;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{h}\" viewBox=\"0 0 {W} {h}\" font-family=\"system-ui, -apple-system, Segoe UI, Roboto, sans-serif\">\n<rect width=\"{W}\" height=\"{h}\" rx=\"24\" fill=\"#ffffff\"/>\n<rect x=\"0\" y=\"0\" width=\"10\" height=\"{h}\" fill=\"#6b5bd6\"/>\n{body}</svg>\n"
    )
}

/// One line of the disagreement map: two persona indexes, how it ended, and its words.
pub struct Edge {
    pub a: usize,
    pub b: usize,
    /// "crux", "resolved", "open" or "weak".
    pub class: &'static str,
    pub words: String,
}

/// The disagreement map as an SVG image: personas on a circle (two face each other across
/// it, left and right), a line per disagreement
/// (solid for a crux card, green when resolved, dotted while its room is open, dashed when
/// no room opened or no card came out). Shown as an image, so no view code is needed.
pub fn map_svg(names: &[String], edges: &[Edge]) -> String {
    let n = names.len().max(1) as f64;
    let (cx, cy, r) = (200.0, 150.0, 105.0);
    let start = if names.len() == 2 {
        std::f64::consts::PI
    } else {
        -std::f64::consts::FRAC_PI_2
    };
    // Whole pixels, written as integers.
    let pos = |i: usize| {
        let a = start + std::f64::consts::TAU * i as f64 / n;
        (
            (cx + r * cos(a)).round() as i32,
            (cy + r * sin(a)).round() as i32,
        )
    };
    let mut body = String::new();
    for e in edges {
        let (color, dash, width) = match e.class {
            "crux" => ("#b4532a", "", 4),
            "resolved" => ("#1e7d34", "", 4),
            "open" => ("#3b4cca", " stroke-dasharray=\"2 7\"", 4),
            _ => ("#8a8d93", " stroke-dasharray=\"7 6\"", 2),
        };
        let ((x1, y1), (x2, y2)) = (pos(e.a), pos(e.b));
        body.push_str(&format!(
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{color}\" stroke-width=\"{width}\" stroke-linecap=\"round\"{dash}/>"
        ));
    }
    for (i, name) in names.iter().enumerate() {
        let (x, y) = pos(i);
        let ty = if (y as f64) < cy - 1.0 {
            y - 18
        } else {
            y + 30
        };
        body.push_str(&format!(
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"11\" fill=\"#3b4cca\"/><text x=\"{x}\" y=\"{ty}\" text-anchor=\"middle\" font-size=\"13\" fill=\"#5f6368\">{}</text>",
            escape(name)
        ));
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 400 300\" font-family=\"system-ui, sans-serif\">{body}</svg>"
    )
}

/// An SVG as a `data:` URL for an `<img>` (percent-encoding what a URL cannot hold).
pub fn data_url(svg: &str) -> String {
    let mut out = String::from("data:image/svg+xml;charset=utf-8,");
    for b in svg.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b' '
            | b'-'
            | b'.'
            | b'_'
            | b'='
            | b':'
            | b'/'
            | b','
            | b';'
            | b'('
            | b')'
            | b'!'
            | b'*'
            | b'\'' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// A file name for the card: `crux-card-whether-induced-demand-returns.svg`.
pub fn file_name(card: &CruxCard, ext: &str) -> String {
    let slug: String = card
        .crux
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .take(8)
        .collect::<Vec<_>>()
        .join("-");
    format!(
        "crux-card-{}.{ext}",
        if slug.is_empty() {
            "untitled".into()
        } else {
            slug
        }
    )
}

// In the browser the page's own Math: Rust's would link libm's trigonometry (3 KB gzipped)
// for the map's two calls. Positions are rounded to whole pixels either way.
#[cfg(target_arch = "wasm32")]
fn cos(x: f64) -> f64 {
    js_sys::Math::cos(x)
}
#[cfg(target_arch = "wasm32")]
fn sin(x: f64) -> f64 {
    js_sys::Math::sin(x)
}
#[cfg(not(target_arch = "wasm32"))]
fn cos(x: f64) -> f64 {
    x.cos()
}
#[cfg(not(target_arch = "wasm32"))]
fn sin(x: f64) -> f64 {
    x.sin()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::finding::{CruxSide, DisagreementKind};

    fn card() -> CruxCard {
        CruxCard {
            room: "room/1".into(),
            question: "Does pricing <work>?".into(),
            crux: "Whether induced demand returns & stays.".into(),
            sides: vec![
                CruxSide {
                    seat: "persona-1".into(),
                    position: "It returns.".into(),
                    reasoning: "Base rates.".into(),
                    would_change_mind: "".into(),
                },
                CruxSide {
                    seat: "persona-2".into(),
                    position: "It does not.".into(),
                    reasoning: "Prices change behaviour.".into(),
                    would_change_mind: "Traffic back in two years.".into(),
                },
            ],
            kind: DisagreementKind::Factual,
            diagnosis: "Different horizons.".into(),
            resolved: false,
            resolution: "".into(),
        }
    }

    fn name(seat: &str) -> String {
        if seat == "persona-1" {
            "The Actuary"
        } else {
            "The Founder"
        }
        .into()
    }

    #[test]
    fn the_markdown_card_reads_on_its_own() {
        let md = markdown(&card(), &name, "Should cities ban cars?");
        assert!(md.starts_with("## Crux: Whether induced demand returns & stays."));
        assert!(
            md.contains("*Factual disagreement (they disagree about what is true) · Unresolved*")
        );
        assert!(md.contains("### The Actuary"));
        assert!(md.contains("**Would change their mind:** did not say"));
        assert!(md.contains("**Would change their mind:** Traffic back in two years."));
        assert!(!md.contains("Resolution"));
        assert!(md.contains("Should cities ban cars?"));
    }

    #[test]
    fn a_hostile_card_pastes_as_text_that_cannot_act() {
        let mut c = card();
        c.crux = "<img src=x onerror=alert(1)> wins".into();
        c.sides[0].position =
            "See ![pixel](https://tracker.example/p.png) and [this](javascript:alert(1)).".into();
        c.sides[1].reasoning = "Fine.\n```\n# Not a heading\n<script>alert(2)</script>".into();
        c.diagnosis = "[x]: javascript:alert(3)".into();
        let md = markdown(&c, &name, "Topic\n## Injected heading");
        assert!(!md.contains('<'), "no tag survives: {md}");
        assert!(md.contains("&lt;img src=x onerror=alert(1)> wins"));
        assert!(!md.contains("![pixel]"), "no picture loads: {md}");
        assert!(!md.contains("](javascript:"), "no script link: {md}");
        assert!(!md.contains("[x]:"), "no reference definition: {md}");
        // A line break in model text opens no code block and no heading.
        assert!(!md
            .lines()
            .any(|l| l.starts_with("```") || l.starts_with("# ")));
        assert!(!md.lines().any(|l| l.starts_with("## Injected")));
        assert!(
            md.contains("**Because:** Fine. ``` # Not a heading &lt;script>alert(2)&lt;/script>")
        );
    }

    #[test]
    fn the_svg_card_is_escaped_complete_and_well_formed() {
        let s = svg(&card(), &name, "Cars & <cities>");
        assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(s.contains("Whether induced demand returns &amp; stays."));
        assert!(s.contains("Question: Does pricing &lt;work&gt;?"));
        assert!(s.contains("Cars &amp; &lt;cities&gt;"));
        assert!(!s.contains("{H0}") && !s.contains("{H1}"));
        assert_eq!(s.matches("<text").count(), s.matches("</text>").count());
        assert!(s.contains("The Founder"));
    }

    #[test]
    fn the_map_draws_each_persona_and_each_disagreement() {
        let names = vec!["A & B".to_string(), "C".to_string(), "D".to_string()];
        let edges = [
            Edge {
                a: 0,
                b: 1,
                class: "crux",
                words: String::new(),
            },
            Edge {
                a: 1,
                b: 2,
                class: "weak",
                words: String::new(),
            },
        ];
        let s = map_svg(&names, &edges);
        assert_eq!(s.matches("<circle").count(), 3);
        assert_eq!(s.matches("<line").count(), 2);
        assert!(s.contains("A &amp; B"));
        let url = data_url(&s);
        assert!(url.starts_with("data:image/svg+xml;charset=utf-8,%3Csvg"));
        assert!(!url.contains('<') && !url.contains('#') && !url.contains('"'));
        // Two personas face each other across the map, on one line.
        let two = map_svg(&names[..2], &edges[..1]);
        assert!(
            two.contains("<line x1=\"95\" y1=\"150\" x2=\"305\" y2=\"150\""),
            "{two}"
        );
    }

    #[test]
    fn wrapping_keeps_every_word_and_the_width() {
        let lines = wrap("a bb ccc dddd eeeeeeeeeeeeee", 6);
        assert_eq!(lines, vec!["a bb", "ccc", "dddd", "eeeeee", "eeeeee", "ee"]);
        assert_eq!(
            file_name(&card(), "svg"),
            "crux-card-whether-induced-demand-returns-stays.svg"
        );
    }
}
