//! The setup screen's model: the topic, the format, the debate's connection and model, the
//! spending cap, and what turns a seat's choice into a participant. Its rules are methods
//! (the default connection that gives way to the user's choice, which field is wrong, which
//! seats may search, the plan line) and `finish` is the `DebateConfig` Start hands the
//! session. Plain Rust, tested natively below; `ui::setup` binds fields to it.

use super::connections::Connection;
use super::prices::PriceTable;
use crate::engine::config::{FormatId, Participant, MAX_TOPIC_CHARS};
use crate::engine::cost;
use crate::engine::formats;
use crate::engine::sources::Source;
use crate::engine::DebateConfig;

#[derive(Clone, Debug, PartialEq)]
pub struct SetupDraft {
    pub topic: String,
    pub format: FormatId,
    /// The debate's connection: empty until the page knows which works here, or for good
    /// when none does without the user's choice.
    pub connection: String,
    pub model: String,
    /// The user picked a connection: the default no longer moves under them.
    chosen: bool,
    /// The spending cap as typed (dollars); empty for none.
    pub cap: String,
}

impl Default for SetupDraft {
    fn default() -> Self {
        SetupDraft {
            topic: String::new(),
            format: FormatId::Classic,
            connection: String::new(),
            model: String::new(),
            chosen: false,
            cap: String::new(),
        }
    }
}

/// A field of the setup form, for a problem to name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupField {
    Connection,
    SpendingCap,
}

/// What stops Start, and in which field.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupProblem {
    pub field: SetupField,
    pub message: &'static str,
}

impl std::fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message)
    }
}

/// What the sources and web search parts of the form add at Start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extras {
    pub sources: Vec<Source>,
    pub judges_read: bool,
    /// The seats whose search switch is on.
    pub search_on: Vec<String>,
}

impl SetupDraft {
    /// The user's choice of connection, with its model.
    pub fn pick_connection(&mut self, id: &str, connections: &[Connection]) {
        if let Some(c) = connections.iter().find(|c| c.id == id) {
            self.model = c.default_model.clone();
        }
        self.connection = id.to_string();
        self.chosen = true;
    }

    /// The connection that works here without a choice (`None` while the page is still
    /// finding out): taken unless the user has chosen one.
    pub fn offer_default(&mut self, best: Option<&Connection>) {
        if let (false, Some(c)) = (self.chosen, best) {
            self.connection = c.id.clone();
            self.model = c.default_model.clone();
        }
    }

    pub fn topic_chars(&self) -> usize {
        self.topic.chars().count()
    }

    pub fn topic_too_long(&self) -> bool {
        self.topic_chars() > MAX_TOPIC_CHARS
    }

    /// The seat plan's inputs: the debate's own connection and model, among `connections`,
    /// priced by `prices`.
    pub fn seating<'a>(
        &'a self,
        connections: &'a [Connection],
        prices: &'a PriceTable,
    ) -> Seating<'a> {
        Seating {
            connections,
            connection: &self.connection,
            model: &self.model,
            prices,
        }
    }

    /// The debate as the form describes it now, for the estimate: the format's `config`
    /// with the cap.
    pub fn estimate(&self, mut config: DebateConfig) -> DebateConfig {
        config.spending_cap = cost::parse_decimal(&self.cap);
        config
    }

    /// What Start hands the session, or the first field that stops it. `config` is the
    /// format form's; `extras` what the sources and search parts hold.
    pub fn finish(
        &self,
        config: DebateConfig,
        extras: Extras,
        connections: &[Connection],
    ) -> Result<DebateConfig, SetupProblem> {
        if self.connection.is_empty() {
            return Err(SetupProblem {
                field: SetupField::Connection,
                message: "Choose a connection first: a small model in this browser or scripted test answers need no key, or add a connection with your own key.",
            });
        }
        if !self.cap.trim().is_empty() && cost::parse_decimal(&self.cap).is_none() {
            return Err(SetupProblem {
                field: SetupField::SpendingCap,
                message: "The spending cap must be a number of dollars, like 0.50.",
            });
        }
        let mut config = self.estimate(config);
        config.judges_read_sources = extras.judges_read && !extras.sources.is_empty();
        config.sources = extras.sources;
        config.search_web =
            chosen_searches(&seat_searches(&config, connections), &extras.search_on);
        Ok(config)
    }
}

/// The line beside Start: the calls planned and, when every model is priced, the cost range.
pub fn plan_line(config: &DebateConfig) -> String {
    let e = cost::estimate(config, &formats::plan(config));
    let money = if e.unpriced.is_empty() {
        format!(
            " · estimated cost {}–{}",
            cost::dollars(e.low),
            cost::dollars(e.high)
        )
    } else {
        " · add prices to see the estimated cost".to_string()
    };
    format!("{} model calls planned{money}", e.calls)
}

/// How a connection asks for structured answers, as the setup screen says it.
pub fn structured_mode(c: &Connection) -> String {
    if c.schema_form_known {
        format!(
            "Structured answers (scores, evaluations, forecasts, crux cards) are asked for with {}.",
            c.schema_form.label()
        )
    } else {
        format!(
            "Structured answers: not tried on this server yet. The first asks with {}; if the server refuses it, Agora tries the next form and keeps the one that works.",
            c.schema_form.label()
        )
    }
}

/// Who sits in one seat, as its select and model field say: a connection (empty: the
/// debate's own) and model, or the user.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatPick {
    pub connection: String,
    pub model: String,
    pub human: bool,
}

/// What a seat's select offers: the debate's connection, one of the connections, or a person.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatFill {
    Same,
    Connection(String),
    Person,
}

impl SeatFill {
    /// The select's option value: the one place these values are written or read.
    pub fn value(&self) -> &str {
        match self {
            SeatFill::Same => "__same",
            SeatFill::Person => "__human",
            SeatFill::Connection(id) => id,
        }
    }

    pub fn from_value(v: &str) -> Self {
        match v {
            "__same" => SeatFill::Same,
            "__human" => SeatFill::Person,
            id => SeatFill::Connection(id.to_string()),
        }
    }
}

impl SeatPick {
    /// Seats what the seat's select says; a connection brings its default model.
    pub fn fill(&mut self, fill: SeatFill, connections: &[Connection]) {
        self.human = fill == SeatFill::Person;
        match fill {
            SeatFill::Same => self.connection.clear(),
            SeatFill::Connection(id) => {
                if let Some(c) = connections.iter().find(|c| c.id == id) {
                    self.model = c.default_model.clone();
                }
                self.connection = id;
            }
            SeatFill::Person => {}
        }
    }

    /// The select's value for this pick.
    pub fn fill_value(&self) -> String {
        if self.human {
            SeatFill::Person.value().to_string()
        } else if self.connection.is_empty() {
            SeatFill::Same.value().to_string()
        } else {
            self.connection.clone()
        }
    }

    /// The model field is for a seat on a connection of its own.
    pub fn model_editable(&self) -> bool {
        !self.human && !self.connection.is_empty()
    }
}

/// Turns seat choices into participants: the debate's own connection and model, the
/// connections of this tab, and the prices of every model.
#[derive(Clone, Copy)]
pub struct Seating<'a> {
    pub connections: &'a [Connection],
    pub connection: &'a str,
    pub model: &'a str,
    pub prices: &'a PriceTable,
}

impl Seating<'_> {
    /// A seat on a connection and model (an empty connection: the debate's own; an empty
    /// model: the connection's default), priced as the table says.
    pub fn participant(&self, connection: &str, model: &str) -> Participant {
        let (connection, model) = if connection.is_empty() {
            (self.connection, self.model)
        } else {
            (connection, model)
        };
        let conn = self.connections.iter().find(|c| c.id == connection);
        self.prices.participant(connection, conn, model)
    }

    /// A seat's choice: a person, or a model.
    pub fn seat(&self, pick: &SeatPick) -> Participant {
        if pick.human {
            return Participant::Human;
        }
        self.participant(&pick.connection, &pick.model)
    }
}

/// A seat that argues, and whether it can search (or why not).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatSearch {
    pub id: String,
    pub name: String,
    pub can: Result<(), String>,
}

/// The seats of `config` that argue, each with what its connection says of searching.
pub fn seat_searches(config: &DebateConfig, connections: &[Connection]) -> Vec<SeatSearch> {
    formats::searching_seats(config)
        .into_iter()
        .map(|s| {
            let can = match &s.participant {
                Participant::Model {
                    connection, model, ..
                } => match connections.iter().find(|c| c.id == *connection) {
                    Some(c) => c.web_search(model).map(|_| ()),
                    None => Err("Its connection is not set up in this tab.".into()),
                },
                Participant::Human => Err("A person's seat.".into()),
            };
            SeatSearch {
                id: s.id.clone(),
                name: s.name.clone(),
                can,
            }
        })
        .collect()
}

/// The seats switched on that can search: what the debate is started with.
pub fn chosen_searches(seats: &[SeatSearch], on: &[String]) -> Vec<String> {
    seats
        .iter()
        .filter(|s| s.can.is_ok() && on.contains(&s.id))
        .map(|s| s.id.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::{ClassicOptions, ClassicStyle};
    use crate::engine::formats::classic;
    use crate::session::connections::ProviderKind;

    fn connections() -> Vec<Connection> {
        let mut search = Connection::openai_compatible(
            "c-open",
            "OpenAI",
            "https://api.openai.com/v1",
            "gpt-4o-mini-search-preview",
            "sk",
        );
        search.kind = ProviderKind::OpenAiCompatible;
        vec![Connection::local_model(), Connection::demo(), search]
    }

    /// A classic debate as the classic form builds it, with `seats` for A and B.
    fn classic(d: &SetupDraft, conns: &[Connection], a: SeatPick, b: SeatPick) -> DebateConfig {
        let prices = PriceTable::default();
        let seating = d.seating(conns, &prices);
        let options = ClassicOptions {
            rounds: 1,
            style: ClassicStyle::Educational,
            ..Default::default()
        };
        classic::new_config(&d.topic, "", "", options, |id| match id {
            classic::POSITION_A => seating.seat(&a),
            classic::POSITION_B => seating.seat(&b),
            _ => seating.participant("", ""),
        })
    }

    #[test]
    fn the_default_connection_gives_way_to_the_users_choice() {
        let conns = connections();
        let mut d = SetupDraft::default();
        d.offer_default(None);
        assert_eq!(d.connection, "", "still finding out");
        d.offer_default(Some(&conns[0]));
        assert_eq!(
            (d.connection.as_str(), d.model.as_str()),
            ("local", "smollm2-135m")
        );
        d.pick_connection(Connection::DEMO, &conns);
        assert_eq!(d.connection, Connection::DEMO);
        assert_eq!(d.model, conns[1].default_model);
        // A local server found later does not take the user's choice away.
        d.offer_default(Some(&conns[0]));
        assert_eq!(d.connection, Connection::DEMO);
    }

    #[test]
    fn start_names_the_field_that_stops_it() {
        let conns = connections();
        let mut d = SetupDraft {
            topic: "Should cities ban cars?".into(),
            ..Default::default()
        };
        let config = || {
            classic(
                &SetupDraft::default(),
                &conns,
                SeatPick::default(),
                SeatPick::default(),
            )
        };
        let e = d.finish(config(), Extras::default(), &conns).unwrap_err();
        assert_eq!(e.field, SetupField::Connection);
        assert!(e.to_string().starts_with("Choose a connection first"));
        d.pick_connection("local", &conns);
        for bad in ["ten", "1,5", "$"] {
            d.cap = bad.into();
            let e = d.finish(config(), Extras::default(), &conns).unwrap_err();
            assert_eq!(e.field, SetupField::SpendingCap, "{bad}");
        }
        d.cap = " 0.50 ".into();
        let c = d.finish(config(), Extras::default(), &conns).unwrap();
        assert_eq!(c.spending_cap, Some(0.5));
        d.cap.clear();
        assert_eq!(
            d.finish(config(), Extras::default(), &conns)
                .unwrap()
                .spending_cap,
            None
        );
        d.topic = "x".repeat(MAX_TOPIC_CHARS + 1);
        assert!(d.topic_too_long());
        assert_eq!(d.topic_chars(), MAX_TOPIC_CHARS + 1);
    }

    #[test]
    fn seats_take_the_debates_connection_their_own_or_a_person() {
        let conns = connections();
        let mut d = SetupDraft {
            topic: "Is remote work better?".into(),
            ..Default::default()
        };
        d.pick_connection("local", &conns);
        let own = SeatPick {
            connection: "c-open".into(),
            model: String::new(),
            human: false,
        };
        let person = SeatPick {
            human: true,
            ..Default::default()
        };
        let c = classic(&d, &conns, own, person);
        let seat = |id: &str| c.seat(id).unwrap().participant.clone();
        match seat(classic::MODERATOR) {
            Participant::Model {
                connection,
                model,
                context_tokens,
                ..
            } => {
                assert_eq!(
                    (connection.as_str(), model.as_str()),
                    ("local", "smollm2-135m")
                );
                assert_eq!(context_tokens, 4096);
            }
            p => panic!("{p:?}"),
        }
        match seat(classic::POSITION_A) {
            // An empty model is the connection's default.
            Participant::Model {
                connection,
                model,
                connection_label,
                ..
            } => {
                assert_eq!(connection, "c-open");
                assert_eq!(model, "gpt-4o-mini-search-preview");
                assert_eq!(connection_label, "OpenAI");
            }
            p => panic!("{p:?}"),
        }
        assert_eq!(seat(classic::POSITION_B), Participant::Human);
        assert!(
            plan_line(&c).starts_with(&format!("{} model calls planned", formats::plan(&c).len()))
        );
    }

    #[test]
    fn only_seats_that_can_search_and_are_switched_on_search() {
        let conns = connections();
        let mut d = SetupDraft::default();
        d.pick_connection("local", &conns);
        let own = SeatPick {
            connection: "c-open".into(),
            ..Default::default()
        };
        let config = classic(&d, &conns, own, SeatPick::default());
        let seats = seat_searches(&config, &conns);
        let a = seats.iter().find(|s| s.id == classic::POSITION_A).unwrap();
        assert_eq!(a.can, Ok(()));
        let b = seats.iter().find(|s| s.id == classic::POSITION_B).unwrap();
        assert!(b.can.is_err(), "the local server has no search");
        let extras = Extras {
            search_on: vec![classic::POSITION_A.into(), classic::POSITION_B.into()],
            ..Default::default()
        };
        let c = d.finish(config, extras, &conns).unwrap();
        assert_eq!(c.search_web, vec![classic::POSITION_A.to_string()]);
        // Judges read the sources only when there are some.
        assert!(!c.judges_read_sources);
    }

    #[test]
    fn a_seats_select_brings_its_connections_model_and_names_a_person_or_the_debates_own() {
        let conns = connections();
        let mut pick = SeatPick::default();
        assert_eq!(pick.fill_value(), "__same");
        assert!(!pick.model_editable());
        pick.fill(SeatFill::from_value("c-open"), &conns);
        assert_eq!(
            (pick.connection.as_str(), pick.model.as_str()),
            ("c-open", "gpt-4o-mini-search-preview")
        );
        assert!(pick.model_editable());
        pick.fill(SeatFill::from_value("__human"), &conns);
        assert!(pick.human && !pick.model_editable());
        assert_eq!(pick.fill_value(), "__human");
        pick.fill(SeatFill::from_value("__same"), &conns);
        assert_eq!((pick.human, pick.connection.as_str()), (false, ""));
    }
}
