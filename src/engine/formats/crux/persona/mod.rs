//! Persona contracts (seed 004): who a persona is, how it thinks, what changes its mind and
//! how it speaks, as one JSON file each under `prompts/personas/`. A contract is checked
//! field by field, so a broken file is rejected with the field that is wrong; every
//! persona-voiced call's system prompt is built from it (`system_prompt`), with the crux
//! room's overlay appended inside a room; `clean` strips banned and AI-sounding openers
//! from what a persona said (`voice.rs`).

mod voice;

pub use voice::*;

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Identity {
    pub personality: String,
    pub bias: String,
    pub stakes: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thinking {
    pub epistemology: String,
    pub time_horizon: String,
    pub evidence_policy: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Voice {
    pub style_hint: String,
    pub speech_patterns: Vec<String>,
    pub vocabulary: Vec<String>,
    pub examples: Vec<String>,
}

/// A persona contract.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PersonaContract {
    /// Lowercase letters, digits and dashes: `the-actuary`.
    pub id: String,
    pub name: String,
    pub identity: Identity,
    pub thinking: Thinking,
    pub flip_conditions: Vec<String>,
    pub voice: Voice,
    #[serde(default)]
    pub forbidden_phrases: Vec<String>,
    pub anchor_quotes: Vec<String>,
}

/// A persona seat of a debate and the contract it speaks from. The contract is kept as its
/// JSON and read with `from_value`: the stored configuration is read by several
/// deserializers, and typed contracts in it would be compiled once for each.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CruxPersona {
    pub seat: String,
    pub contract: Value,
}

impl CruxPersona {
    pub fn new(seat: String, c: &PersonaContract) -> Self {
        CruxPersona {
            seat,
            contract: serde_json::to_value(c).unwrap_or_default(),
        }
    }

    /// The contract, checked.
    pub fn read(&self) -> Result<PersonaContract, String> {
        from_value(&self.contract)
    }
}

/// Longest text field, and longest list, a contract may hold: a contract is a page, not a
/// book, and it goes into every one of the persona's prompts.
const MAX_FIELD_CHARS: usize = 600;
const MAX_ITEMS: usize = 12;

const CATALOGUE: [&str; 6] = [
    include_str!("../../../../../prompts/personas/actuary.json"),
    include_str!("../../../../../prompts/personas/field-engineer.json"),
    include_str!("../../../../../prompts/personas/historian.json"),
    include_str!("../../../../../prompts/personas/ecologist.json"),
    include_str!("../../../../../prompts/personas/founder.json"),
    include_str!("../../../../../prompts/personas/organizer.json"),
];

/// The personas that ship with the app. A test reads every file, so a broken one fails the
/// build's tests rather than a user's debate.
pub fn catalogue() -> Vec<PersonaContract> {
    CATALOGUE.iter().filter_map(|s| parse(s).ok()).collect()
}

fn text_at<'a>(v: &'a Value, path: &str) -> Result<&'a str, String> {
    let mut cur = v;
    for part in path.split('.') {
        cur = cur
            .get(part)
            .ok_or_else(|| format!("`{path}` is missing"))?;
    }
    let s = cur
        .as_str()
        .ok_or_else(|| format!("`{path}` must be text"))?;
    if s.trim().is_empty() {
        return Err(format!("`{path}` is empty"));
    }
    if s.chars().count() > MAX_FIELD_CHARS {
        return Err(format!(
            "`{path}` is too long ({MAX_FIELD_CHARS} characters at most)"
        ));
    }
    Ok(s)
}

fn list_at(v: &Value, path: &str, min: usize) -> Result<(), String> {
    let mut cur = v;
    for part in path.split('.') {
        cur = match cur.get(part) {
            Some(c) => c,
            None if min == 0 => return Ok(()),
            None => return Err(format!("`{path}` is missing")),
        };
    }
    let items = cur
        .as_array()
        .ok_or_else(|| format!("`{path}` must be a list of texts"))?;
    if items.len() < min {
        return Err(format!(
            "`{path}` needs at least {}",
            crate::engine::reading::count(min, "item")
        ));
    }
    if items.len() > MAX_ITEMS {
        return Err(format!("`{path}` has too many items ({MAX_ITEMS} at most)"));
    }
    for (i, item) in items.iter().enumerate() {
        let s = item
            .as_str()
            .ok_or_else(|| format!("`{path}[{i}]` must be text"))?;
        if s.trim().is_empty() {
            return Err(format!("`{path}[{i}]` is empty"));
        }
        if s.chars().count() > MAX_FIELD_CHARS {
            return Err(format!(
                "`{path}[{i}]` is too long ({MAX_FIELD_CHARS} characters at most)"
            ));
        }
    }
    Ok(())
}

/// Checks a contract as JSON, naming the first field that is wrong.
pub fn check(v: &Value) -> Result<(), String> {
    if !v.is_object() {
        return Err("a persona file must hold one JSON object".into());
    }
    let id = text_at(v, "id")?;
    if !id
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err("`id` may hold only lowercase letters, digits and dashes".into());
    }
    if id.len() > 40 {
        return Err("`id` is too long (40 characters at most)".into());
    }
    let name = text_at(v, "name")?;
    if name.chars().count() > 60 {
        return Err("`name` is too long (60 characters at most)".into());
    }
    for path in [
        "identity.personality",
        "identity.bias",
        "identity.stakes",
        "thinking.epistemology",
        "thinking.time_horizon",
        "thinking.evidence_policy",
        "voice.style_hint",
    ] {
        text_at(v, path)?;
    }
    list_at(v, "flip_conditions", 1)?;
    list_at(v, "voice.speech_patterns", 1)?;
    list_at(v, "voice.vocabulary", 0)?;
    list_at(v, "voice.examples", 1)?;
    list_at(v, "forbidden_phrases", 0)?;
    list_at(v, "anchor_quotes", 1)?;
    Ok(())
}

/// A contract from JSON (a file the user imports, or one of ours), checked.
pub fn parse(json: &str) -> Result<PersonaContract, String> {
    let v: Value =
        serde_json::from_str(json).map_err(|e| format!("the file is not valid JSON ({e})"))?;
    from_value(&v)
}

pub fn from_value(v: &Value) -> Result<PersonaContract, String> {
    check(v)?;
    let mut c: PersonaContract = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    c.name = c.name.trim().to_string();
    Ok(c)
}

/// Checks a contract already in memory (edited in the app, or carried in a configuration).
pub fn validate(c: &PersonaContract) -> Result<(), String> {
    let v = serde_json::to_value(c).map_err(|e| e.to_string())?;
    check(&v).map_err(|e| format!("{}: {e}", display_name(c)))
}

fn display_name(c: &PersonaContract) -> &str {
    if c.name.trim().is_empty() {
        "A persona"
    } else {
        c.name.trim()
    }
}

/// The contract as a file to export (pretty JSON).
pub fn to_json(c: &PersonaContract) -> String {
    serde_json::to_string_pretty(c).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_persona_is_a_valid_complete_contract() {
        assert_eq!(catalogue().len(), CATALOGUE.len());
        assert!(catalogue().len() >= 6);
        let mut ids: Vec<String> = catalogue().into_iter().map(|c| c.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), CATALOGUE.len(), "persona ids are unique");
        for c in catalogue() {
            validate(&c).unwrap();
            let sys = system_prompt(&c, "Should cities ban cars?");
            assert!(!sys.contains("{{"), "{sys}");
            assert!(sys.contains(&c.name));
            assert!(sys.contains(&c.identity.bias));
            assert!(sys.contains(&c.flip_conditions[0]));
            assert!(sys.contains(&c.voice.examples[0]));
            assert!(sys.contains("Great question"));
        }
    }

    #[test]
    fn an_invalid_persona_file_is_rejected_with_the_field_that_is_wrong() {
        let good: Value = serde_json::from_str(CATALOGUE[0]).unwrap();
        let broken = |f: &dyn Fn(&mut Value)| {
            let mut v = good.clone();
            f(&mut v);
            parse(&v.to_string()).unwrap_err()
        };
        assert_eq!(
            broken(&|v| {
                v["identity"].as_object_mut().unwrap().remove("bias");
            }),
            "`identity.bias` is missing"
        );
        assert_eq!(
            broken(&|v| v["thinking"]["time_horizon"] = "  ".into()),
            "`thinking.time_horizon` is empty"
        );
        assert_eq!(
            broken(&|v| v["flip_conditions"] = serde_json::json!([])),
            "`flip_conditions` needs at least 1 item"
        );
        assert_eq!(
            broken(&|v| v["voice"]["examples"] = serde_json::json!(["ok", 3])),
            "`voice.examples[1]` must be text"
        );
        assert_eq!(
            broken(&|v| v["id"] = "Not An Id".into()),
            "`id` may hold only lowercase letters, digits and dashes"
        );
        assert!(parse("{not json")
            .unwrap_err()
            .starts_with("the file is not valid JSON"));
        assert_eq!(
            parse("[1]").unwrap_err(),
            "a persona file must hold one JSON object"
        );
        // Exported and imported again, a contract is the same.
        let c = parse(CATALOGUE[0]).unwrap();
        assert_eq!(parse(&to_json(&c)).unwrap(), c);
    }

    #[test]
    fn the_crux_room_overlay_is_appended_to_the_persona_prompt() {
        let c = parse(CATALOGUE[0]).unwrap();
        let base = system_prompt(&c, "t");
        let room = room_system_prompt(&c, "t", "Is risk priced right?", "The Founder");
        assert!(room.starts_with(&base));
        assert!(room.contains("Is risk priced right?"));
        assert!(room.contains("The Founder"));
        assert!(room.len() < base.len() + 1200, "the overlay is short");
    }

    #[test]
    fn clean_up_strips_banned_and_ai_sounding_openers_only_at_the_start() {
        let banned: Vec<String> = ["Look here", "Great question", "Absolutely", "Certainly"]
            .map(String::from)
            .to_vec();
        let c = |t: &str| clean(t, "The Actuary", &banned);
        assert_eq!(
            c("Great question! Absolutely, the tail risk is mispriced."),
            "The tail risk is mispriced."
        );
        assert_eq!(
            c("The Actuary: look here — premiums lag losses."),
            "Premiums lag losses."
        );
        assert_eq!(c("**The Actuary**: Certainly. Fine."), "Fine.");
        assert_eq!(c("That’s a great point"), "That’s a great point");
        assert_eq!(
            clean(
                "That’s a great point, but no.",
                "X",
                &["That's a great point".into()]
            ),
            "But no."
        );
        // Not at the start, or only the start of a longer word: kept.
        assert_eq!(
            c("Premiums are, absolutely, too low."),
            "Premiums are, absolutely, too low."
        );
        assert_eq!(
            c("Certainlyish is not a word."),
            "Certainlyish is not a word."
        );
        // Nothing would be left: the text is kept as it was.
        assert_eq!(c("Absolutely!"), "Absolutely!");
    }
}
