//! What a debate is set up with. Plain serde data: it is the payload of the first event of
//! the log, so an exported debate carries its own configuration. It never holds an API key:
//! seats name a connection by id, and the key stays with the connection in the session.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatId {
    Classic,
    Duelogic,
    Forecast,
    Crux,
    /// Test-only format that exercises every engine feature; not in the app.
    #[cfg(test)]
    Probe,
}

impl FormatId {
    pub fn label(self) -> &'static str {
        match self {
            FormatId::Classic => "Classic",
            FormatId::Duelogic => "Duelogic",
            FormatId::Forecast => "Forecast",
            FormatId::Crux => "Crux",
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

/// Tone and rules of a classic debate (seed 003's four configurations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ClassicStyle {
    #[default]
    Formal,
    Casual,
    Educational,
    Competitive,
}

impl ClassicStyle {
    pub const ALL: [ClassicStyle; 4] = [
        ClassicStyle::Formal,
        ClassicStyle::Casual,
        ClassicStyle::Educational,
        ClassicStyle::Competitive,
    ];

    pub fn id(self) -> &'static str {
        match self {
            ClassicStyle::Formal => "formal",
            ClassicStyle::Casual => "casual",
            ClassicStyle::Educational => "educational",
            ClassicStyle::Competitive => "competitive",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.id() == id)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClassicOptions {
    pub rounds: u32,
    pub style: ClassicStyle,
    /// A fact checker checks each position's factual claims after every turn.
    pub fact_checker: bool,
    /// The analyst scores both positions after the closing statements.
    pub scoring: bool,
    pub opening_tokens: u32,
    pub argument_tokens: u32,
    pub closing_tokens: u32,
    pub summary_tokens: u32,
}

impl Default for ClassicOptions {
    fn default() -> Self {
        // Seed 003's example limits.
        ClassicOptions {
            rounds: 2,
            style: ClassicStyle::Formal,
            fact_checker: false,
            scoring: false,
            opening_tokens: 300,
            argument_tokens: 250,
            closing_tokens: 350,
            summary_tokens: 300,
        }
    }
}

/// How strictly the Arbiter holds duelogic chairs to their framework (seed 000).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Accountability {
    Relaxed,
    #[default]
    Moderate,
    Strict,
}

/// A philosophical framework a duelogic chair argues from (the catalogue is
/// `prompts/duelogic/frameworks.json`; users can add their own).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Framework {
    pub id: String,
    pub name: String,
    pub description: String,
    pub core_question: String,
    #[serde(default)]
    pub strengths: Vec<String>,
    #[serde(default)]
    pub blind_spots: Vec<String>,
}

/// One duelogic chair: a seat of the debate and the framework it argues from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chair {
    pub seat: String,
    pub framework: String,
}

/// Duelogic's options (seeds 000 and 002).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DuelogicOptions {
    /// 2 to 6 chairs, in speaking order.
    pub chairs: Vec<Chair>,
    /// The user's own frameworks, beside the catalogue.
    pub frameworks: Vec<Framework>,
    /// Why the question matters now, for the introduction.
    pub context: String,
    pub call_to_action: bool,
    pub rounds: u32,
    pub accountability: Accountability,
    pub interruptions: bool,
    /// Chairs may interrupt each other (not only the Arbiter).
    pub chair_interruptions: bool,
    /// 1 (only major issues) to 5 (frequent): sets the urgency threshold 0.9 … 0.5.
    pub aggressiveness: u8,
    /// Debate-time seconds before the same chair may interrupt again.
    pub cooldown_s: u32,
    pub show_name: String,
    pub episode: u32,
}

impl Default for DuelogicOptions {
    fn default() -> Self {
        DuelogicOptions {
            chairs: Vec::new(),
            frameworks: Vec::new(),
            context: String::new(),
            call_to_action: false,
            rounds: 2,
            accountability: Accountability::Moderate,
            interruptions: true,
            chair_interruptions: true,
            aggressiveness: 3,
            cooldown_s: 60,
            show_name: "Duelogic".into(),
            episode: 1,
        }
    }
}

/// One outcome a forecast assigns a probability to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForecastOutcome {
    pub id: String,
    pub label: String,
    #[serde(default)]
    pub description: String,
}

/// One role of a forecast panel: its seat, which of the seed's roles it is (`optimist`,
/// `pessimist`, `contrarian`, `historian`, `judge`, or `custom`) and, for a custom role,
/// the perspective it argues from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForecastRole {
    pub seat: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub perspective: String,
}

/// A prior probability for one outcome (from a simulation or a base rate).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForecastPrior {
    pub outcome: String,
    pub probability: f64,
}

/// What the panel is told besides the question (all optional).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ForecastContext {
    pub key_variables: Vec<String>,
    pub prior: Vec<ForecastPrior>,
    pub highlights: Vec<String>,
    pub data_gaps: Vec<String>,
}

/// The forecast panel's options (seed 001's defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ForecastOptions {
    pub outcomes: Vec<ForecastOutcome>,
    /// The roles in order, the judge among them.
    pub roles: Vec<ForecastRole>,
    pub context: ForecastContext,
    pub rounds: u32,
    /// Share of the judge's distribution in the final one, in per mille (600 = 0.6).
    pub judge_weight_permille: u32,
    pub argument_input_tokens: u32,
    pub argument_output_tokens: u32,
    pub scoring_output_tokens: u32,
    pub synthesis_output_tokens: u32,
}

impl Default for ForecastOptions {
    fn default() -> Self {
        ForecastOptions {
            outcomes: Vec::new(),
            roles: Vec::new(),
            context: ForecastContext::default(),
            rounds: 3,
            judge_weight_permille: 600,
            argument_input_tokens: 600,
            argument_output_tokens: 500,
            scoring_output_tokens: 250,
            synthesis_output_tokens: 1200,
        }
    }
}

/// Crux's options (seed 004).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CruxOptions {
    pub aspects: u32,
    /// Longest crux-room exchange, in turns.
    pub max_exchanges: u32,
    /// Each persona seat and its whole contract, so a stored debate carries its personas.
    pub personas: Vec<super::formats::crux::persona::CruxPersona>,
    pub temperatures: CruxTemperatures,
}

/// Seed 004's temperature tiers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CruxTemperatures {
    /// Openings, takes, replies and closings.
    pub generation: f32,
    /// Crux-room position statements and exchange turns.
    pub exchange: f32,
    /// Detection, checks and summaries.
    pub analysis: f32,
    /// Topic decomposition and card extraction.
    pub extraction: f32,
}

impl Default for CruxTemperatures {
    fn default() -> Self {
        CruxTemperatures {
            generation: 0.85,
            exchange: 0.75,
            analysis: 0.2,
            extraction: 0.3,
        }
    }
}

impl Default for CruxOptions {
    fn default() -> Self {
        CruxOptions {
            aspects: 3,
            max_exchanges: 14,
            personas: Vec::new(),
            temperatures: CruxTemperatures::default(),
        }
    }
}

/// The chosen format and its own options: one variant per format, so a configuration
/// cannot carry one format's name with another's options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatOptions {
    Classic(ClassicOptions),
    Duelogic(DuelogicOptions),
    Forecast(ForecastOptions),
    Crux(CruxOptions),
    #[cfg(test)]
    Probe,
}

impl FormatOptions {
    /// One line for people: "Classic debate, formal style, 2 round(s)".
    pub fn describe(&self) -> String {
        match self {
            FormatOptions::Classic(o) => format!(
                "Classic debate, {} style, {} round(s)",
                o.style.id(),
                o.rounds
            ),
            FormatOptions::Duelogic(o) => format!("Duelogic debate, {} round(s)", o.rounds),
            FormatOptions::Forecast(o) => format!(
                "Forecast panel, {} outcome(s), {} round(s)",
                o.outcomes.len(),
                o.rounds
            ),
            FormatOptions::Crux(o) => format!("Crux debate, {} aspect(s)", o.aspects),
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
        if self.spending_cap.is_some_and(|c| c.is_nan() || c <= 0.0) {
            return Err("The spending cap must be more than $0 (or left empty for none).".into());
        }
        if let FormatOptions::Duelogic(o) = &self.options {
            super::formats::duelogic::validate(self, o)?;
        }
        if let FormatOptions::Crux(o) = &self.options {
            super::formats::crux::validate(self, o)?;
        }
        if let FormatOptions::Forecast(o) = &self.options {
            super::formats::forecast::validate(self, o)?;
        }
        if let Some(o) = self.classic() {
            if !(1..=10).contains(&o.rounds) {
                return Err("A classic debate has between 1 and 10 rounds.".into());
            }
        }
        Ok(())
    }
}
