//! Matching word phrases in text: the cheap checks before a model is asked (duelogic's
//! interruption hints, classic's rule hints). Hand-written rather than a regex engine: the
//! patterns are word phrases, and `regex-lite` cost 19 KB of the gzipped bundle for them.

/// Words of `text`, lowercased (ASCII case: the phrases are English), with digits runs as
/// `#` and "%" as a word of its own, so phrases match on whole words.
pub fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if !cur.is_empty() {
            out.push(std::mem::take(cur));
        }
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            flush(&mut cur, &mut out);
            while chars
                .peek()
                .is_some_and(|n| n.is_ascii_digit() || *n == '.' || *n == ',')
            {
                chars.next();
            }
            out.push("#".into());
        } else if c == '%' {
            flush(&mut cur, &mut out);
            out.push("%".into());
        } else if c.is_alphanumeric() || c == '\'' || c == '’' {
            cur.push(if c == '’' {
                '\''
            } else {
                c.to_ascii_lowercase()
            });
        } else {
            flush(&mut cur, &mut out);
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// Whether `words` (from `words`) hold `phrase` (lowercase words separated by single spaces;
/// `#` stands for a number, `#%` for a number with a percent sign).
pub fn has(words: &[String], phrase: &str) -> bool {
    let p: Vec<&str> = phrase
        .split(' ')
        .flat_map(|w| if w == "#%" { vec!["#", "%"] } else { vec![w] })
        .collect();
    words
        .windows(p.len())
        .any(|win| win.iter().zip(&p).all(|(a, b)| a == b))
}
