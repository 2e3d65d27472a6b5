//! What model-written Markdown may link to. Model output is untrusted: a link is kept only
//! for http, https and mailto, so `javascript:` or `data:` URLs never become live links.

pub fn safe_href(url: &str) -> Option<&str> {
    let u = url.trim();
    let lower = u.to_ascii_lowercase();
    let ok = lower.starts_with("https://")
        || lower.starts_with("http://")
        || lower.starts_with("mailto:");
    // Control characters could hide a scheme from a naive check.
    (ok && !u.chars().any(|c| c.is_control())).then_some(u)
}

#[cfg(test)]
mod tests {
    use super::safe_href;

    #[test]
    fn only_web_and_mail_links_survive() {
        assert_eq!(
            safe_href("https://example.org/a?b"),
            Some("https://example.org/a?b")
        );
        assert_eq!(safe_href(" HTTP://x.org "), Some("HTTP://x.org"));
        assert_eq!(safe_href("mailto:a@b.c"), Some("mailto:a@b.c"));
        for bad in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "data:text/html,<b>",
            "vbscript:x",
            "/relative",
            "#frag",
            "https://x.org/\n",
        ] {
            assert_eq!(safe_href(bad), None, "{bad}");
        }
    }
}
