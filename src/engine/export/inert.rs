//! Markdown made inert: whatever a model, a topic or a name wrote is shown as text by a
//! Markdown viewer, never run as HTML, loaded as an image or followed as a script link.

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
pub(super) fn close_fences(text: &str) -> String {
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

/// A link target made only of ASCII letters, digits, `.`, `_`, `-` and `/` (not first):
/// a file beside this one ("messages/001_moderator_1a2b3c4d.md", "../index.md"). With no
/// `:`, `&` or `\\` it cannot name or spell out a scheme.
fn relative_file(target: &[u8]) -> bool {
    let path = &target[..target
        .iter()
        .position(|b| *b == b')')
        .unwrap_or(target.len())];
    !path.is_empty()
        && path[0] != b'/'
        && path
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"._-/".contains(b))
}

/// Makes Markdown inert outside top-level fenced code (where nothing is ever HTML): every
/// `<` becomes `&lt;` (no tag, comment or autolink survives), `![` becomes `!\[` (a link to
/// the picture, never a loaded picture), a link whose target is not http(s), mailto or a
/// plain relative file path (the exported folder's own links) loses its `(`, and `]:` is escaped so no reference definition can name a target. Rendered, the
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
                    .any(|p| t.len() >= p.len() && t[..p.len()].eq_ignore_ascii_case(p))
                    || relative_file(t);
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

#[cfg(test)]
mod tests {
    use super::{close_fences, inert};

    #[test]
    fn markdown_from_a_model_carries_no_live_html_image_or_script_link() {
        let hostile = concat!(
            "Hi <img src=https://t.example/p.gif onerror=alert(1)> and <script>alert(1)</script>\n",
            "<!-- hidden --> <a href=\"javascript:alert(1)\">x</a> <https://auto.example>\n",
            "![tracker](https://t.example/pixel.png) [![b](https://t.example/b.png)](https://ok.example)\n",
            "[click](javascript:alert(1)) [ok](https://ok.example/a) [mail](mailto:a@b.example)\n",
            "[x](  JaVaScRiPt:alert(1)) [y](<javascript:alert(1)>) [data](data:text/html,hi)\n",
            "[ref]: javascript:alert(1)\n",
            "[file](messages/001_a.md) [up](../index.md) [e](javascript&#58;x) [b](a\\:b) [r](/etc)\n",
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
        for refused in ["[e](java", "[b](a", "[r](/etc"] {
            assert!(!out.contains(refused), "{refused} in {out}");
        }
        for kept in [
            "[ok](https://ok.example/a)",
            "[mail](mailto:a@b.example)",
            "](https://ok.example)",
            "[file](messages/001_a.md)",
            "[up](../index.md)",
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
}
