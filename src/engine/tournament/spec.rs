//! What a tournament is set up with: contestants, motions, a format, judges. Plain serde
//! data, the payload of the tournament's first event, so it carries no API key (seats name
//! a connection by id, as a debate's do).

use serde::{Deserialize, Serialize};

use crate::engine::config::{DebateConfig, FormatId, Participant, MAX_TOPIC_CHARS};
use crate::engine::formats::classic::{POSITION_A, POSITION_B};
use crate::engine::formats::defaults::default_config;

pub const MIN_CONTESTANTS: usize = 2;
pub const MAX_CONTESTANTS: usize = 8;
/// Every motion is debated by every pairing twice: 8 contestants on 50 motions is already
/// 2,800 debates.
pub const MAX_MOTIONS: usize = 50;
pub const MAX_JUDGES: usize = 5;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSpec {
    pub name: String,
    /// Classic or duelogic: the formats with two sides to win.
    pub format: FormatId,
    pub motions: Vec<String>,
    /// Models only: each is a connection and a model.
    pub contestants: Vec<Participant>,
    /// Models, or `Human` for a person who decides each debate blind.
    pub judges: Vec<Participant>,
    /// Fills the seats that take no side: classic's moderator, duelogic's arbiter.
    pub host: Participant,
    /// Seeds each judge's blind order (each debate draws its own seed as it starts).
    pub seed: u64,
    /// For the whole tournament, in US dollars.
    #[serde(default)]
    pub spending_cap: Option<f64>,
    /// Documents every debate argues from (each gets them in its configuration).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<crate::engine::sources::Source>,
    /// The judges (the debates' own and the tournament's) get the passages too. Off, a
    /// judge sees only the quotes and whether each was verified: the debaters read, the
    /// judge does not (Khan et al., 2024).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub judges_read_sources: bool,
}

/// The seats of the two sides; side 0 speaks first.
pub fn side_seats(format: FormatId) -> [&'static str; 2] {
    match format {
        FormatId::Duelogic => ["chair-1", "chair-2"],
        _ => [POSITION_A, POSITION_B],
    }
}

/// The model a participant runs, as it is compared: the same model through two connections
/// (`openai/gpt-4o` on a router, `gpt-4o` direct) is the same model.
pub fn model_key(p: &Participant) -> Option<String> {
    match p {
        Participant::Model { model, .. } => {
            let m = model.trim();
            Some(m.rsplit('/').next().unwrap_or(m).to_lowercase())
        }
        Participant::Human => None,
    }
}

/// A short name for a leaderboard row or a judge column.
pub fn entrant_name(p: &Participant) -> String {
    match p {
        Participant::Model {
            model,
            connection_label,
            ..
        } => format!("{model} ({connection_label})"),
        Participant::Human => "A person".into(),
    }
}

/// Names for a list of entrants on screen: the model alone where no other entrant of the
/// list has the same model, "model (connection)" where two do.
pub fn short_names(entrants: &[Participant]) -> Vec<String> {
    let model = |p: &Participant| match p {
        Participant::Model { model, .. } => Some(model.clone()),
        Participant::Human => None,
    };
    entrants
        .iter()
        .map(|p| match model(p) {
            Some(m)
                if entrants
                    .iter()
                    .filter(|q| model(q).as_ref() == Some(&m))
                    .count()
                    == 1 =>
            {
                m
            }
            _ => entrant_name(p),
        })
        .collect()
}

impl TournamentSpec {
    pub fn validate(&self) -> Result<(), String> {
        if !matches!(self.format, FormatId::Classic | FormatId::Duelogic) {
            return Err(format!(
                "A tournament runs classic or duelogic debates, not {}.",
                self.format.label()
            ));
        }
        let n = self.contestants.len();
        if !(MIN_CONTESTANTS..=MAX_CONTESTANTS).contains(&n) {
            return Err(format!(
                "A tournament needs {MIN_CONTESTANTS} to {MAX_CONTESTANTS} contestants; it has {n}."
            ));
        }
        if self.contestants.iter().any(|c| model_key(c).is_none()) {
            return Err("Every contestant is a model: people can judge, not argue here.".into());
        }
        for (i, c) in self.contestants.iter().enumerate() {
            if self.contestants[..i].contains(c) {
                return Err(format!(
                    "{} is a contestant twice; each pairing would debate itself.",
                    entrant_name(c)
                ));
            }
        }
        if self.motions.is_empty() {
            return Err("Add at least one motion.".into());
        }
        if self.motions.len() > MAX_MOTIONS {
            return Err(format!(
                "{} motions is more than {MAX_MOTIONS}; split them into several tournaments.",
                self.motions.len()
            ));
        }
        for (i, m) in self.motions.iter().enumerate() {
            let chars = m.trim().chars().count();
            if chars == 0 {
                return Err(format!("Motion {} is empty.", i + 1));
            }
            if chars > MAX_TOPIC_CHARS {
                return Err(format!(
                    "Motion {} is {chars} characters long; the limit is {MAX_TOPIC_CHARS}.",
                    i + 1
                ));
            }
        }
        if self.judges.is_empty() {
            return Err("Add a judge: a model, or yourself.".into());
        }
        if self.judges.len() > MAX_JUDGES {
            return Err(format!("A panel has at most {MAX_JUDGES} judges."));
        }
        for (i, j) in self.judges.iter().enumerate() {
            if self.judges[..i].contains(j) {
                return Err(match j {
                    Participant::Human => {
                        "You are on the panel twice: choose yourself once.".into()
                    }
                    _ => format!("{} is on the panel twice.", entrant_name(j)),
                });
            }
        }
        if let Some(cap) = self.spending_cap {
            if !(cap.is_finite() && cap >= 0.0) {
                return Err("The spending cap is not an amount of dollars.".into());
            }
        }
        Ok(())
    }

    /// The debate of one match: the format's default debate on the motion, the two
    /// contestants on their sides and the host in every other seat.
    pub fn debate_config(&self, motion: usize, first: usize, second: usize) -> DebateConfig {
        let [a, b] = side_seats(self.format);
        let mut config = default_config(self.format, &self.motions[motion], &|seat| {
            if seat == a {
                self.contestants[first].clone()
            } else if seat == b {
                self.contestants[second].clone()
            } else {
                self.host.clone()
            }
        });
        config.sources.clone_from(&self.sources);
        config.judges_read_sources = self.judges_read_sources && !self.sources.is_empty();
        config
    }
}

/// Motions as typed or pasted (one a line; blank lines, `#` comments and list bullets
/// dropped) or loaded from a JSON file (an array of strings, or of objects with a `motion`
/// or `topic`). Repeats are dropped, keeping the first.
pub fn parse_motions(text: &str) -> Result<Vec<String>, String> {
    let text = text.trim_start_matches('\u{feff}').trim();
    let raw: Vec<String> = if text.starts_with('[') {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| format!("The motions are not a valid JSON list ({e})."))?;
        let items = v.as_array().cloned().unwrap_or_default();
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                item.as_str()
                    .or_else(|| item.get("motion").and_then(|m| m.as_str()))
                    .or_else(|| item.get("topic").and_then(|m| m.as_str()))
                    .map(str::to_string)
                    .ok_or_else(|| {
                        format!(
                            "Item {} of the list is neither text nor an object with a \"motion\".",
                            i + 1
                        )
                    })
            })
            .collect::<Result<_, _>>()?
    } else {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(strip_bullet)
            .collect()
    };
    let mut motions: Vec<String> = Vec::new();
    for m in raw {
        let m = m.trim().to_string();
        if !m.is_empty() && !motions.contains(&m) {
            motions.push(m);
        }
    }
    Ok(motions)
}

/// `- motion`, `* motion`, `3. motion`, `3) motion` → `motion`.
fn strip_bullet(line: &str) -> String {
    if let Some(rest) = line.strip_prefix("- ").or_else(|| line.strip_prefix("* ")) {
        return rest.to_string();
    }
    let digits = line.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 {
        let rest = &line[digits..];
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return r.to_string();
        }
    }
    line.to_string()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::formats::testing::scripted::model;

    pub fn model_on(connection: &str, name: &str) -> Participant {
        match model(connection) {
            Participant::Model {
                connection,
                connection_label,
                context_tokens,
                price,
                ..
            } => Participant::Model {
                connection,
                connection_label,
                model: name.into(),
                context_tokens,
                price,
            },
            p => p,
        }
    }

    pub fn spec(contestants: &[&str], motions: &[&str], judges: &[&str]) -> TournamentSpec {
        TournamentSpec {
            name: "t".into(),
            format: FormatId::Classic,
            motions: motions.iter().map(|m| m.to_string()).collect(),
            contestants: contestants.iter().map(|m| model_on("c", m)).collect(),
            judges: judges
                .iter()
                .map(|m| {
                    if *m == "person" {
                        Participant::Human
                    } else {
                        model_on("j", m)
                    }
                })
                .collect(),
            host: model_on("h", "host"),
            seed: 7,
            spending_cap: None,
            sources: Vec::new(),
            judges_read_sources: false,
        }
    }

    #[test]
    fn motions_are_read_from_lines_or_json_without_repeats() {
        let typed = "# motions\n- Cities should ban cars\n\n2. Nuclear power is safe\n* Cities should ban cars\n";
        assert_eq!(
            parse_motions(typed).unwrap(),
            ["Cities should ban cars", "Nuclear power is safe"]
        );
        let json = r#"["A", {"motion": "B"}, {"topic": "C"}, "A"]"#;
        assert_eq!(parse_motions(json).unwrap(), ["A", "B", "C"]);
        let bad = parse_motions(r#"["A", 3]"#).unwrap_err();
        assert!(bad.contains("Item 2"), "{bad}");
        assert!(parse_motions("[oops")
            .unwrap_err()
            .contains("not a valid JSON"));
    }

    #[test]
    fn a_tournament_that_cannot_run_says_why_before_it_starts() {
        let ok = spec(&["a", "b"], &["m"], &["j"]);
        assert_eq!(ok.validate(), Ok(()));
        let mut one = ok.clone();
        one.contestants.truncate(1);
        assert!(one.validate().unwrap_err().contains("2 to 8"));
        let mut twice = ok.clone();
        twice.contestants[1] = twice.contestants[0].clone();
        assert!(twice.validate().unwrap_err().contains("twice"));
        let mut person = ok.clone();
        person.contestants[1] = Participant::Human;
        assert!(person.validate().unwrap_err().contains("people can judge"));
        let mut forecast = ok.clone();
        forecast.format = FormatId::Forecast;
        assert!(forecast.validate().unwrap_err().contains("not Forecast"));
        let mut twice_on_panel = spec(&["a", "b"], &["m"], &["person", "person"]);
        assert!(twice_on_panel
            .validate()
            .unwrap_err()
            .contains("choose yourself once"));
        twice_on_panel.judges = vec![model_on("j", "x"), model_on("j", "x")];
        assert!(twice_on_panel
            .validate()
            .unwrap_err()
            .contains("on the panel twice"));
        let mut no_judge = ok.clone();
        no_judge.judges.clear();
        assert!(no_judge.validate().unwrap_err().contains("Add a judge"));
        let mut long = ok;
        long.motions[0] = "x".repeat(MAX_TOPIC_CHARS + 1);
        assert!(long.validate().unwrap_err().contains("Motion 1"));
    }

    #[test]
    fn each_match_seats_its_contestants_on_their_sides_and_the_host_elsewhere() {
        let mut s = spec(&["a", "b", "c"], &["m0", "m1"], &["j"]);
        for format in [FormatId::Classic, FormatId::Duelogic] {
            s.format = format;
            let config = s.debate_config(1, 2, 0);
            assert_eq!(config.topic, "m1");
            assert_eq!(config.validate(), Ok(()));
            let [a, b] = side_seats(format);
            let seat_model = |id: &str| model_key(&config.seat(id).unwrap().participant);
            assert_eq!(seat_model(a).as_deref(), Some("c"));
            assert_eq!(seat_model(b).as_deref(), Some("a"));
            for seat in config.seats.iter().filter(|x| x.id != a && x.id != b) {
                assert_eq!(model_key(&seat.participant).as_deref(), Some("host"));
            }
        }
    }

    #[test]
    fn names_on_screen_are_the_model_unless_two_entrants_share_it() {
        let list = [
            model_on("c", "alpha"),
            model_on("c", "beta"),
            model_on("d", "beta"),
            Participant::Human,
        ];
        let names = short_names(&list);
        assert_eq!(names[0], "alpha");
        assert_eq!(names[1], entrant_name(&list[1]));
        assert_ne!(names[1], names[2]);
        assert_eq!(names[3], "A person");
    }

    #[test]
    fn the_same_model_through_two_connections_is_one_model() {
        assert_eq!(
            model_key(&model_on("router", "openai/GPT-4o")),
            model_key(&model_on("direct", "gpt-4o"))
        );
        assert_eq!(model_key(&Participant::Human), None);
    }
}
