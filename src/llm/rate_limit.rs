//! How long a rate-limited provider asks us to wait, from its response headers: the
//! standard `Retry-After`, OpenAI-style `x-ratelimit-reset-*` durations ("6m0s", "20ms")
//! and Anthropic's `anthropic-ratelimit-*-reset` timestamps (RFC 3339).

use crate::engine::cost::parse_decimal;

/// The headers worth reading on a 429, lower-case.
pub const HEADERS: [&str; 11] = [
    "retry-after",
    "x-ratelimit-reset-requests",
    "x-ratelimit-reset-tokens",
    "x-ratelimit-remaining-requests",
    "x-ratelimit-remaining-tokens",
    "anthropic-ratelimit-requests-reset",
    "anthropic-ratelimit-tokens-reset",
    "anthropic-ratelimit-input-tokens-reset",
    "anthropic-ratelimit-output-tokens-reset",
    "anthropic-ratelimit-requests-remaining",
    "anthropic-ratelimit-tokens-remaining",
];

/// The wait in milliseconds, or `None` when the headers say nothing usable. `Retry-After`
/// wins; otherwise the latest reset among the limits that are used up (or, when none says
/// it is used up, the earliest reset, after which a retry has a chance).
pub fn wait_ms(headers: &[(&str, String)], now_ms: u64) -> Option<u64> {
    let get = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    };
    if let Some(ms) = get("retry-after").and_then(parse_seconds) {
        return Some(ms);
    }
    let mut spent = Vec::new();
    let mut other = Vec::new();
    for kind in ["requests", "tokens", "input-tokens", "output-tokens"] {
        let openai = get(&format!("x-ratelimit-reset-{kind}")).and_then(parse_duration);
        let anthropic = get(&format!("anthropic-ratelimit-{kind}-reset"))
            .and_then(parse_rfc3339_ms)
            .map(|at| at.saturating_sub(now_ms));
        let Some(reset) = openai.or(anthropic) else {
            continue;
        };
        let remaining = get(&format!("x-ratelimit-remaining-{kind}"))
            .or_else(|| get(&format!("anthropic-ratelimit-{kind}-remaining")));
        if remaining.is_some_and(|r| r == "0") {
            spent.push(reset);
        } else {
            other.push(reset);
        }
    }
    spent.into_iter().max().or_else(|| other.into_iter().min())
}

/// `Retry-After` in seconds (its HTTP-date form is rare for APIs and ignored).
pub fn parse_seconds(v: &str) -> Option<u64> {
    parse_decimal(v).map(|s| (s * 1000.0) as u64)
}

/// Go-style durations as OpenAI sends them: "1s", "6m0s", "20ms", "1h2m3.5s".
pub fn parse_duration(v: &str) -> Option<u64> {
    let mut total = 0.0;
    let mut rest = v;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let num_end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
        let n = parse_decimal(&rest[..num_end])?;
        rest = &rest[num_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_end] {
            "h" => 3_600_000.0,
            "m" => 60_000.0,
            "s" => 1_000.0,
            "ms" => 1.0,
            _ => return None,
        };
        total += n * scale;
        rest = &rest[unit_end..];
    }
    Some(total as u64)
}

/// "2026-11-21T23:40:05Z" or with an offset ("+01:00") and fractional seconds, to epoch ms.
pub fn parse_rfc3339_ms(v: &str) -> Option<u64> {
    let b = v.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| v.get(r)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut i = 19;
    let mut frac_ms = 0.0;
    if b.get(i) == Some(&b'.') {
        let end = v[i + 1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(v.len(), |e| i + 1 + e);
        frac_ms = parse_decimal(&v[i..end])? * 1000.0;
        i = end;
    }
    let offset_min = match b.get(i) {
        Some(b'Z' | b'z') => 0,
        Some(sign @ (b'+' | b'-')) => {
            let m = num(i + 1..i + 3)? * 60 + num(i + 4..i + 6)?;
            if *sign == b'+' {
                m
            } else {
                -m
            }
        }
        _ => return None,
    };
    // Days from the civil date (Howard Hinnant's algorithm).
    let y2 = if mo <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + h * 3_600 + mi * 60 + s - offset_min * 60;
    u64::try_from(secs).ok().map(|s| s * 1000 + frac_ms as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(pairs: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
        pairs.iter().map(|(n, v)| (*n, v.to_string())).collect()
    }

    #[test]
    fn retry_after_wins_over_reset_headers() {
        let hs = h(&[("Retry-After", "2"), ("x-ratelimit-reset-requests", "6m0s")]);
        assert_eq!(wait_ms(&hs, 0), Some(2_000));
    }

    #[test]
    fn openai_resets_wait_for_the_used_up_limit() {
        let hs = h(&[
            ("x-ratelimit-remaining-requests", "12"),
            ("x-ratelimit-reset-requests", "1s"),
            ("x-ratelimit-remaining-tokens", "0"),
            ("x-ratelimit-reset-tokens", "6m0s"),
        ]);
        assert_eq!(wait_ms(&hs, 0), Some(360_000));
        // No remaining counts: the earliest reset.
        let hs = h(&[
            ("x-ratelimit-reset-requests", "20ms"),
            ("x-ratelimit-reset-tokens", "1.5s"),
        ]);
        assert_eq!(wait_ms(&hs, 0), Some(20));
    }

    #[test]
    fn anthropic_resets_are_timestamps_counted_from_now() {
        let now = parse_rfc3339_ms("2026-11-21T23:40:00Z").unwrap();
        let hs = h(&[
            ("anthropic-ratelimit-requests-remaining", "0"),
            ("anthropic-ratelimit-requests-reset", "2026-11-21T23:40:12Z"),
            ("anthropic-ratelimit-tokens-remaining", "5000"),
            ("anthropic-ratelimit-tokens-reset", "2026-11-21T23:41:00Z"),
        ]);
        assert_eq!(wait_ms(&hs, now), Some(12_000));
        // A reset already past means no wait.
        let hs = h(&[("anthropic-ratelimit-tokens-reset", "2026-11-21T23:39:00Z")]);
        assert_eq!(wait_ms(&hs, now), Some(0));
    }

    #[test]
    fn timestamps_and_durations_parse_in_every_documented_form() {
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339_ms("2024-02-29T12:00:00.250Z"),
            Some(1_709_208_000_250)
        );
        assert_eq!(
            parse_rfc3339_ms("2024-02-29T13:00:00+01:00"),
            parse_rfc3339_ms("2024-02-29T12:00:00Z")
        );
        assert_eq!(parse_duration("1h2m3.5s"), Some(3_723_500));
        assert_eq!(parse_duration("soon"), None);
        assert_eq!(parse_rfc3339_ms("tomorrow"), None);
        assert_eq!(wait_ms(&h(&[("retry-after", "later")]), 0), None);
    }
}
