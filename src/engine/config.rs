//! What a debate is set up with. Plain serde data: it is the payload of the first event of
//! the log, so an exported debate carries its own configuration. It never holds an API key:
//! seats name a connection by id, and the key stays with the connection in the session.

use serde::{Deserialize, Serialize};

/// Stored as its id (`classic`); history rows written before schema 3 stored the label
/// (`Classic`), which still reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatId {
    #[serde(alias = "Classic")]
    Classic,
    #[serde(alias = "Duelogic")]
    Duelogic,
    #[serde(alias = "Forecast")]
    Forecast,
    #[serde(alias = "Crux")]
    Crux,
    Council,
    /// Test-only format that exercises every engine feature; not in the app.
    #[cfg(test)]
    Probe,
}

impl FormatId {
    /// The id a URL, a form or a stored row uses (`classic`).
    pub fn id(self) -> &'static str {
        match self {
            FormatId::Classic => "classic",
            FormatId::Duelogic => "duelogic",
            FormatId::Forecast => "forecast",
            FormatId::Crux => "crux",
            FormatId::Council => "council",
            #[cfg(test)]
            FormatId::Probe => "probe",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        [
            FormatId::Classic,
            FormatId::Duelogic,
            FormatId::Forecast,
            FormatId::Crux,
            FormatId::Council,
        ]
        .into_iter()
        .find(|f| f.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            FormatId::Classic => "Classic",
            FormatId::Duelogic => "Duelogic",
            FormatId::Forecast => "Forecast",
            FormatId::Crux => "Crux",
            FormatId::Council => "Council",
            #[cfg(test)]
            FormatId::Probe => "Probe",
        }
    }
}

/// Who fills a seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Participant {
    Model {
        /// Id of a connection in the session (never the key itself).
        connection: String,
        /// Human-readable connection name, kept for exports and history.
        connection_label: String,
        model: String,
        /// The model's context window in tokens; prompts are built to fit it.
        context_tokens: u32,
        /// The model's price when the debate started, so its cost never changes later.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        price: Option<super::cost::Price>,
    },
    Human,
}

impl Participant {
    pub fn context_tokens(&self) -> u32 {
        match self {
            Participant::Model { context_tokens, .. } => *context_tokens,
            Participant::Human => u32::MAX,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Participant::Model {
                connection_label,
                model,
                ..
            } => {
                format!("{model} via {connection_label}")
            }
            Participant::Human => "a person".into(),
        }
    }
}

/// A place in the debate (the moderator, position A, chair 2…).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatConfig {
    /// Stable id used in call keys and scripts, e.g. `position-a`.
    pub id: String,
    /// Display name, e.g. "Position A".
    pub name: String,
    /// What the seat argues for, where it has a side.
    #[serde(default)]
    pub stance: Option<String>,
    pub participant: Participant,
}

// Each format's options live in its folder; they are named here too, where every
// configuration's type is.
pub use super::formats::classic::options::*;
pub use super::formats::council::options::*;
pub use super::formats::crux::options::*;
pub use super::formats::duelogic::options::*;
pub use super::formats::forecast::options::*;

/// The chosen format and its own options: one variant per format, so a configuration
/// cannot carry one format's name with another's options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatOptions {
    Classic(ClassicOptions),
    Duelogic(DuelogicOptions),
    Forecast(ForecastOptions),
    Crux(CruxOptions),
    Council(CouncilOptions),
    #[cfg(test)]
    Probe,
}

impl FormatOptions {
    /// One line for people: "Classic debate, formal style, 2 rounds".
    pub fn describe(&self) -> String {
        use super::reading::count;
        match self {
            FormatOptions::Classic(o) => format!(
                "Classic debate, {} style, {}",
                o.style.id(),
                count(o.rounds as usize, "round")
            ),
            FormatOptions::Duelogic(o) => {
                format!("Duelogic debate, {}", count(o.rounds as usize, "round"))
            }
            FormatOptions::Forecast(o) => format!(
                "Forecast panel, {}, {}",
                count(o.outcomes.len(), "outcome"),
                count(o.rounds as usize, "round")
            ),
            FormatOptions::Crux(o) => {
                format!("Crux debate, {}", count(o.aspects as usize, "aspect"))
            }
            FormatOptions::Council(o) => format!(
                "Council{}",
                if o.second_round {
                    ", with a second round"
                } else {
                    ""
                }
            ),
            #[cfg(test)]
            FormatOptions::Probe => "Probe".into(),
        }
    }

    pub fn format(&self) -> FormatId {
        match self {
            FormatOptions::Classic(_) => FormatId::Classic,
            FormatOptions::Duelogic(_) => FormatId::Duelogic,
            FormatOptions::Forecast(_) => FormatId::Forecast,
            FormatOptions::Crux(_) => FormatId::Crux,
            FormatOptions::Council(_) => FormatId::Council,
            #[cfg(test)]
            FormatOptions::Probe => FormatId::Probe,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DebateConfig {
    pub topic: String,
    pub seats: Vec<SeatConfig>,
    /// Seat id that runs analysis calls (evaluations, scores, extractions, checks).
    pub analyst: String,
    pub options: FormatOptions,
    /// Dollars this debate may spend; reaching it pauses the debate until it is raised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spending_cap: Option<f64>,
    /// Where this debate branched off another one (`export::fork`). Absent in older logs,
    /// which therefore still load without a schema step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<ForkPoint>,
    /// Documents the debaters may quote (`engine::sources`); evidence added while the
    /// debate runs joins them from the log. Absent in older logs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<super::sources::Source>,
    /// Judges (evaluations and scores) get the passages too. Off, they see only the quotes
    /// and their checks: the debaters read, the judge does not (Khan et al., 2024).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub judges_read_sources: bool,
    /// How many sources a share link left out to stay short enough: its quotes cannot be
    /// checked where it is opened, and say so rather than "not found".
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sources_left_out: u32,
    /// Seats (by id) whose speaking turns may use their provider's web search; what it cites
    /// becomes sources of the debate (`sources::web`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub search_web: Vec<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The turn a forked debate shares its history up to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForkPoint {
    /// The store's id of the debate it was forked from.
    pub debate: String,
    /// The call key of the last shared turn ("round/1/argument/position-a").
    pub call: String,
    /// That turn's label, for people ("Position A — Argument").
    pub label: String,
}

/// Longest topic accepted: a debate topic is a sentence or a paragraph, not a document, and
/// a hostile multi-megabyte topic must not blow every prompt past its context window.
pub const MAX_TOPIC_CHARS: usize = 2_000;
/// Longest position (a seat's stance) and seat name, for the same reason.
pub const MAX_STANCE_CHARS: usize = 2_000;
pub const MAX_NAME_CHARS: usize = 200;

impl DebateConfig {
    /// A debate on `topic` (trimmed) with its seats, analyst seat and options, and nothing
    /// else yet: no cap, sources or web search, not forked.
    pub fn new(
        topic: &str,
        seats: Vec<SeatConfig>,
        analyst: impl Into<String>,
        options: FormatOptions,
    ) -> Self {
        DebateConfig {
            topic: topic.trim().to_string(),
            seats,
            analyst: analyst.into(),
            options,
            spending_cap: None,
            forked_from: None,
            sources: Vec::new(),
            judges_read_sources: false,
            sources_left_out: 0,
            search_web: Vec::new(),
        }
    }

    pub fn format(&self) -> FormatId {
        self.options.format()
    }

    /// Classic's options, when this is a classic debate.
    pub fn classic(&self) -> Option<&ClassicOptions> {
        match &self.options {
            FormatOptions::Classic(o) => Some(o),
            _ => None,
        }
    }

    pub fn seat(&self, id: &str) -> Option<&SeatConfig> {
        self.seats.iter().find(|s| s.id == id)
    }

    /// Checks what a user can get wrong, with messages meant for them.
    pub fn validate(&self) -> Result<(), String> {
        let topic = self.topic.trim();
        if topic.is_empty() {
            return Err("Enter a topic to debate.".into());
        }
        let n = topic.chars().count();
        if n > MAX_TOPIC_CHARS {
            return Err(format!(
                "The topic is {n} characters long; the limit is {MAX_TOPIC_CHARS}. Shorten it to the question itself."
            ));
        }
        if self.seats.is_empty() {
            return Err("A debate needs at least one seat.".into());
        }
        super::sources::check_all(&self.sources).map_err(|p| p.to_string())?;
        if self.seat(&self.analyst).is_none() {
            return Err(format!(
                "The analyst seat `{}` is not one of the seats.",
                self.analyst
            ));
        }
        for seat in &self.seats {
            if seat.name.chars().count() > MAX_NAME_CHARS {
                return Err(format!(
                    "A seat's name is longer than {MAX_NAME_CHARS} characters."
                ));
            }
            let stance = seat.stance.as_deref().unwrap_or("").trim().chars().count();
            if stance > MAX_STANCE_CHARS {
                return Err(format!(
                    "The position of {} is {stance} characters long; the limit is {MAX_STANCE_CHARS}.",
                    seat.name
                ));
            }
            if let Participant::Model { model, .. } = &seat.participant {
                if model.trim().is_empty() {
                    return Err(format!("Choose a model for {}.", seat.name));
                }
            }
        }
        for id in &self.search_web {
            match self.seat(id).map(|s| &s.participant) {
                Some(Participant::Model { .. }) => {}
                Some(Participant::Human) => {
                    return Err(format!(
                        "`{id}` is a person's seat; only a model searches the web."
                    ))
                }
                None => return Err(format!("Web search is on for `{id}`, which is not a seat.")),
            }
        }
        if self.spending_cap.is_some_and(|c| c.is_nan() || c <= 0.0) {
            return Err("The spending cap must be more than $0 (or left empty for none).".into());
        }
        // What only one format can get wrong, checked in its folder.
        use super::formats::{classic, council, crux, duelogic, forecast};
        match &self.options {
            FormatOptions::Classic(o) => classic::validate(o),
            FormatOptions::Duelogic(o) => duelogic::validate(self, o),
            FormatOptions::Forecast(o) => forecast::validate(self, o),
            FormatOptions::Crux(o) => crux::validate(self, o),
            FormatOptions::Council(o) => council::validate(self, o),
            #[cfg(test)]
            FormatOptions::Probe => Ok(()),
        }
    }
}
