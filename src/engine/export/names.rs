//! File names from a debate's topic, valid on every desktop system.

use super::super::event::{config_of, Event};

/// A file name from the topic: "should-cities-ban-cars.md", "städte-ohne-autos.md",
/// "城市应该禁止私家车吗.md".
pub fn file_name(events: &[Event], ext: &str) -> String {
    named(config_of(events).map_or("", |c| c.topic.as_str()), ext)
}

/// Longest slug, in characters. Even at four UTF-8 bytes each, slug and extension stay
/// under the 255-byte name limit of common file systems.
const SLUG_MAX_CHARS: usize = 60;

/// A file name from any title (a tournament's name): the topic's rules, "debate" when the
/// title has no letter or digit.
pub fn named(topic: &str, ext: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::{named, SLUG_MAX_CHARS};

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
