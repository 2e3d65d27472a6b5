//! Each classic configuration's rules and scoring weights, as data
//! (`prompts/classic/configurations.json`). The rules reach every system prompt; the
//! weights are for the weighted 0–10 scoring still to come.

use serde_json::Value;

use crate::engine::config::ClassicStyle;
use crate::engine::prompt::classic::CONFIGURATIONS;

/// The criteria of seed 003, in order, with the names people read.
pub const CRITERIA: [(&str, &str); 5] = [
    ("logical_coherence", "Logical coherence"),
    ("evidence", "Evidence"),
    ("responsiveness", "Responsiveness"),
    ("persuasiveness", "Persuasiveness"),
    ("rule_adherence", "Rule adherence"),
];

/// A configuration's rules for the prompts, and its weight (per mille) for each criterion
/// of `CRITERIA`, in order. Read through a generic JSON value: a typed reader would add its
/// own deserializer to the app for one small file.
pub fn configuration(style: ClassicStyle) -> (String, [u32; 5]) {
    let all: Value = serde_json::from_str(CONFIGURATIONS).unwrap_or(Value::Null);
    let c = &all[style.id()];
    let mut w = [0; 5];
    for (i, (id, _)) in CRITERIA.iter().enumerate() {
        w[i] = c["weights"][*id].as_u64().unwrap_or(0) as u32;
    }
    match c["rules"].as_str() {
        Some(rules) if w.iter().sum::<u32>() == 1000 => (rules.to_string(), w),
        // Seed 003's weights if the file lacks the style (a test makes sure it does not).
        _ => (String::new(), [250, 250, 200, 150, 150]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_configuration_has_rules_and_weights_that_add_up() {
        for style in ClassicStyle::ALL {
            let (rules, w) = configuration(style);
            assert!(!rules.is_empty(), "{style:?}");
            assert_eq!(w.iter().sum::<u32>(), 1000, "{style:?}");
        }
        // Formal keeps seed 003's weights; the others shift the emphasis.
        assert_eq!(
            configuration(ClassicStyle::Formal).1,
            [250, 250, 200, 150, 150]
        );
        assert!(configuration(ClassicStyle::Competitive).1[3] > 150);
        assert!(configuration(ClassicStyle::Educational).1[1] > 250);
    }
}
