//! A numeric question's outcomes as ranges: which outcome a resolved value falls in.

/// For a numeric question whose outcomes are ranges ("Under 2%", "2–3%", "3% or more",
/// "< 2", "2-3", "> 3"), the outcome a value falls in; `None` when the labels cannot be
/// read as ranges or the value fits none or several, so the user picks it.
pub fn outcome_for_value(outcomes: &[(String, String)], value: f64) -> Option<String> {
    let hits: Vec<&String> = outcomes
        .iter()
        .filter(|(_, label)| range(label).is_some_and(|(lo, hi)| value >= lo && value < hi))
        .map(|(id, _)| id)
        .collect();
    match hits.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// A label's range [low, high), when it reads as one.
pub fn range(label: &str) -> Option<(f64, f64)> {
    let mut l = label
        .to_lowercase()
        .replace(['–', '—'], "-")
        .replace('−', "-");
    let numbers = numbers(&l);
    // Phrases that hold a word of the other side ("no more than") are read first.
    let mut side = |words: &[&str]| {
        let found = words.iter().any(|w| l.contains(w));
        for w in words {
            l = l.replace(w, " ");
        }
        found
    };
    let below_first = side(&["no more than", "at most", "up to", "or less", "or fewer"]);
    let above_first = side(&["no less than", "at least", "or more", "and up"]);
    let below = below_first || side(&["under", "below", "less than", "<", "≤"]);
    let above = above_first || side(&["more than", "over", "above", ">", "≥", "+"]);
    match numbers.as_slice() {
        [x] if below && !above => Some((f64::NEG_INFINITY, *x)),
        [x] if above && !below => Some((*x, f64::INFINITY)),
        [a, b] if !below && !above && a < b => Some((*a, *b)),
        _ => None,
    }
}

/// The numbers in a label, a minus sign kept where it starts a number ("-1% to 1%") and not
/// where it joins two ("2-3").
fn numbers(l: &str) -> Vec<f64> {
    let b = l.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts_number = |j: usize| j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.');
        let negative = b[i] == b'-'
            && starts_number(i + 1)
            && (i == 0 || !(b[i - 1].is_ascii_digit() || b[i - 1] == b'%'));
        if negative || (b[i].is_ascii_digit()) {
            let from = if negative { i + 1 } else { i };
            let mut j = from;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.' || b[j] == b',') {
                j += 1;
            }
            if let Some(x) = value(&l[from..j]) {
                out.push(if negative { -x } else { x });
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// A value as a person types it: "2.5", "-0.5", "+3", "2.5%", "1,200".
pub fn value(s: &str) -> Option<f64> {
    let s = s.trim().trim_end_matches('%').trim();
    let (sign, digits) = match s.strip_prefix(['-', '−']) {
        Some(rest) => (-1.0, rest),
        None => (1.0, s.strip_prefix('+').unwrap_or(s)),
    };
    // A plain decimal (`parse_decimal`): no exponent, "inf" or "NaN", which `str::parse` takes.
    crate::engine::cost::parse_decimal(&digits.replace(',', "")).map(|x| sign * x)
}
