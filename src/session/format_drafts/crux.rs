//! A crux debate's setup: the personas (2 to 6) taken from the library (the built-in ones
//! and the user's own), edited as JSON, created, imported, each on its model; who analyses;
//! the aspects, the longest crux-room exchange and the temperature tiers. Saving the user's
//! own personas on the device is the caller's (`own` says which they are).

use super::typed_number;
use crate::engine::config::{CruxOptions, CruxTemperatures};
use crate::engine::formats::crux::persona::PersonaContract;
use crate::engine::formats::crux::{self, persona};
use crate::engine::formats::defaults::CRUX_PERSONAS;
use crate::engine::DebateConfig;
use crate::session::setup_draft::Seating;

pub const MIN_PERSONAS: usize = 2;
pub const MAX_PERSONAS: usize = 6;

/// One persona of the debate and who speaks as it (an empty connection: the debate's).
#[derive(Clone, Debug, PartialEq)]
pub struct PersonaPick {
    pub contract: PersonaContract,
    pub connection: String,
    pub model: String,
}

impl PersonaPick {
    fn new(contract: PersonaContract) -> Self {
        PersonaPick {
            contract,
            connection: String::new(),
            model: String::new(),
        }
    }
}

/// A temperature tier of `CruxTemperatures`, as the form lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    Generation,
    Exchange,
    Analysis,
    Extraction,
}

impl Tier {
    pub fn of(self, t: &CruxTemperatures) -> f32 {
        match self {
            Tier::Generation => t.generation,
            Tier::Exchange => t.exchange,
            Tier::Analysis => t.analysis,
            Tier::Extraction => t.extraction,
        }
    }

    fn set(self, t: &mut CruxTemperatures, x: f32) {
        match self {
            Tier::Generation => t.generation = x,
            Tier::Exchange => t.exchange = x,
            Tier::Analysis => t.analysis = x,
            Tier::Extraction => t.extraction = x,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct CruxDraft {
    pub personas: Vec<PersonaPick>,
    /// The built-in personas and the user's own.
    pub library: Vec<PersonaContract>,
    pub analyst_connection: String,
    pub analyst_model: String,
    /// The aspects, the longest exchange and the temperatures; `build` adds the personas.
    pub options: CruxOptions,
    /// The persona being edited (its place), and the editor's JSON.
    pub editing: Option<usize>,
    pub editor: String,
    /// What the last persona action could not do.
    pub problem: Option<String>,
}

impl CruxDraft {
    /// The defaults, the user's `own` personas in the library (one of a built-in id
    /// replaces it).
    pub fn new(own: Vec<PersonaContract>) -> Self {
        let mut library = persona::catalogue();
        for c in own {
            keep_in(&mut library, c);
        }
        let personas = CRUX_PERSONAS
            .iter()
            .filter_map(|id| library.iter().find(|c| c.id == *id).cloned())
            .map(PersonaPick::new)
            .collect();
        CruxDraft {
            personas,
            library,
            analyst_connection: String::new(),
            analyst_model: String::new(),
            options: CruxOptions::default(),
            editing: None,
            editor: String::new(),
            problem: None,
        }
    }

    /// The user's own personas in the library: what the device keeps.
    pub fn own(&self) -> Vec<PersonaContract> {
        let builtin: Vec<String> = persona::catalogue().into_iter().map(|c| c.id).collect();
        self.library
            .iter()
            .filter(|c| !builtin.contains(&c.id))
            .cloned()
            .collect()
    }

    pub fn can_add(&self) -> bool {
        self.personas.len() < MAX_PERSONAS
    }

    pub fn can_remove(&self) -> bool {
        self.personas.len() > MIN_PERSONAS
    }

    /// The next persona of the library the debate does not have yet (the first, if it has
    /// them all).
    pub fn add(&mut self) {
        if !self.can_add() {
            return;
        }
        let next = self
            .library
            .iter()
            .find(|c| !self.personas.iter().any(|p| p.contract.id == c.id))
            .or(self.library.first())
            .cloned();
        self.personas.extend(next.map(PersonaPick::new));
    }

    pub fn remove(&mut self, i: usize) {
        if self.can_remove() && i < self.personas.len() {
            self.personas.remove(i);
        }
        self.editing = None;
    }

    /// The `i`-th persona becomes the library's persona `id`.
    pub fn pick(&mut self, i: usize, id: &str) {
        let found = self.library.iter().find(|c| c.id == id).cloned();
        if let (Some(c), Some(p)) = (found, self.personas.get_mut(i)) {
            p.contract = c;
        }
    }

    /// Opens the editor on the `i`-th persona's JSON.
    pub fn edit(&mut self, i: usize) {
        if let Some(p) = self.personas.get(i) {
            self.editor = persona::to_json(&p.contract);
            self.editing = Some(i);
            self.problem = None;
        }
    }

    /// A new persona, a renamed copy of the library's first, added and opened in the editor.
    pub fn create(&mut self) {
        if !self.can_add() {
            self.problem = Some(format!(
                "A crux debate has at most {MAX_PERSONAS} personas; remove one first."
            ));
            return;
        }
        let Some(mut c) = self.library.first().cloned() else {
            return;
        };
        c.id = "my-persona".into();
        c.name = "My Persona".into();
        self.personas.push(PersonaPick::new(c));
        self.edit(self.personas.len() - 1);
    }

    /// Applies the editor's JSON to the persona being edited, keeping it in the library;
    /// or says which field is wrong. True when the library changed (the caller saves it).
    pub fn apply(&mut self) -> bool {
        let Some(i) = self.editing else {
            return false;
        };
        match persona::parse(&self.editor) {
            Ok(c) => {
                keep_in(&mut self.library, c.clone());
                if let Some(p) = self.personas.get_mut(i) {
                    p.contract = c;
                }
                self.editing = None;
                self.problem = None;
                true
            }
            Err(e) => {
                self.problem = Some(format!("This persona cannot be used: {e}."));
                false
            }
        }
    }

    /// A persona file's text: kept in the library and added to the debate when there is
    /// room. True when the library changed.
    pub fn import(&mut self, text: &str) -> bool {
        match persona::parse(text) {
            Ok(c) => {
                keep_in(&mut self.library, c.clone());
                self.problem = None;
                if self.can_add() {
                    self.personas.push(PersonaPick::new(c));
                }
                true
            }
            Err(e) => {
                self.problem = Some(format!("This persona file cannot be used: {e}."));
                false
            }
        }
    }

    pub fn set_aspects(&mut self, typed: &str) {
        if let Some(n) = typed_number(typed, 1, 5) {
            self.options.aspects = n;
        }
    }

    pub fn set_exchanges(&mut self, typed: &str) {
        if let Some(n) = typed_number(typed, 2, 14) {
            self.options.max_exchanges = n;
        }
    }

    /// A tier's temperature as typed: 0 to 2.
    pub fn set_temperature(&mut self, tier: Tier, typed: &str) {
        if let Some(x) = crate::engine::cost::parse_decimal(typed.trim()) {
            tier.set(&mut self.options.temperatures, (x as f32).clamp(0.0, 2.0));
        }
    }

    pub fn build(&self, topic: &str, seating: &Seating) -> DebateConfig {
        let personas = self
            .personas
            .iter()
            .map(|p| {
                (
                    p.contract.clone(),
                    seating.participant(&p.connection, &p.model),
                )
            })
            .collect();
        let analyst = seating.participant(&self.analyst_connection, &self.analyst_model);
        crux::new_config(topic, personas, analyst, self.options.clone())
    }
}

/// Keeps a contract in the library, replacing one with its id.
fn keep_in(library: &mut Vec<PersonaContract>, c: PersonaContract) {
    match library.iter_mut().find(|x| x.id == c.id) {
        Some(x) => *x = c,
        None => library.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::FormatOptions;
    use crate::session::format_drafts::testing::{runs_on, with_seating};

    fn mine() -> PersonaContract {
        let mut c = persona::catalogue()[0].clone();
        c.id = "my-skeptic".into();
        c.name = "My Skeptic".into();
        c
    }

    #[test]
    fn personas_stay_between_two_and_six_and_each_added_one_is_new_to_the_debate() {
        let mut d = CruxDraft::new(Vec::new());
        assert_eq!(d.personas.len(), CRUX_PERSONAS.len());
        d.remove(0);
        assert_eq!(d.personas.len(), MIN_PERSONAS);
        while d.can_add() {
            d.add();
        }
        assert_eq!(d.personas.len(), MAX_PERSONAS);
        let mut ids: Vec<&str> = d.personas.iter().map(|p| p.contract.id.as_str()).collect();
        ids.dedup();
        assert_eq!(ids.len(), MAX_PERSONAS.min(d.library.len()));
        d.create();
        assert!(d.problem.as_deref().unwrap().contains("at most 6"));
    }

    #[test]
    fn an_edited_persona_is_kept_in_the_library_and_a_broken_one_is_refused_with_why() {
        let mut d = CruxDraft::new(Vec::new());
        d.create();
        assert_eq!(d.editing, Some(2));
        assert!(d.editor.contains("My Persona"));
        d.editor = d.editor.replace("my-persona", "my-own-persona");
        assert!(d.apply());
        assert_eq!(d.editing, None);
        assert_eq!(d.personas[2].contract.id, "my-own-persona");
        assert_eq!(
            d.own().iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
            ["my-own-persona"]
        );
        d.edit(0);
        d.editor = "{\"id\": \"x\"}".into();
        assert!(!d.apply());
        assert!(d
            .problem
            .as_deref()
            .unwrap()
            .starts_with("This persona cannot be used"));
        assert_eq!(d.editing, Some(0), "the editor stays open on the mistake");
    }

    #[test]
    fn an_imported_persona_joins_the_library_and_the_debate_and_saved_ones_come_back() {
        let mut d = CruxDraft::new(Vec::new());
        assert!(d.import(&persona::to_json(&mine())));
        assert_eq!(d.personas.last().unwrap().contract.id, "my-skeptic");
        assert!(!d.import("not json"));
        assert!(d
            .problem
            .as_deref()
            .unwrap()
            .starts_with("This persona file cannot be used"));
        let again = CruxDraft::new(d.own());
        assert!(again.library.iter().any(|c| c.id == "my-skeptic"));
        d.pick(0, "my-skeptic");
        assert_eq!(d.personas[0].contract.name, "My Skeptic");
    }

    #[test]
    fn personas_and_the_analyst_sit_where_the_form_says_with_the_limits_typed() {
        let mut d = CruxDraft::new(Vec::new());
        d.personas[1].connection = "cloud".into();
        d.personas[1].model = "gpt-y".into();
        d.set_aspects("9");
        d.set_exchanges("1");
        d.set_temperature(Tier::Exchange, "3");
        d.set_temperature(Tier::Analysis, "0.25");
        let config = with_seating(|s| d.build("Should voting be compulsory?", s));
        let name = &d.personas[1].contract.name;
        let seat = config.seats.iter().find(|s| &s.name == name).unwrap();
        assert_eq!(runs_on(&seat.participant), "cloud/gpt-y");
        let FormatOptions::Crux(o) = &config.options else {
            panic!()
        };
        assert_eq!((o.aspects, o.max_exchanges), (5, 2));
        assert_eq!(
            (o.temperatures.exchange, o.temperatures.analysis),
            (2.0, 0.25)
        );
        assert_eq!(o.personas.len(), 2);
    }
}
