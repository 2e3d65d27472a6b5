//! The new-tournament form's model: its fields as plain values, the `TournamentSpec` they
//! describe (or which field is wrong), the models that need a price, and the words of the
//! plan line. Plain Rust, tested natively below; `ui::tournaments::setup` reads its rows
//! into a draft and binds to these.

use super::connections::Connection;
use super::prices::PriceTable;
use crate::engine::config::{FormatId, Participant};
use crate::engine::cost::{self, Estimate};
use crate::engine::sources::Source;
use crate::engine::tournament::spec::{parse_motions, TournamentSpec};

/// The judge select's value for "Me (I judge blind)".
pub const PERSON: &str = "__person";

/// One row of the form: a contestant, a judge or the host, as its select and model field
/// hold it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EntrantPick {
    /// A connection's id, or `PERSON`.
    pub connection: String,
    pub model: String,
}

impl EntrantPick {
    pub fn is_person(&self) -> bool {
        self.connection == PERSON
    }

    /// Who the row names, priced as `prices` says.
    pub fn participant(&self, connections: &[Connection], prices: &PriceTable) -> Participant {
        if self.is_person() {
            return Participant::Human;
        }
        let conn = connections.iter().find(|c| c.id == self.connection);
        prices.participant(&self.connection, conn, &self.model)
    }
}

/// Every field of the form, as plain values.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentDraft {
    pub name: String,
    pub format: FormatId,
    pub contestants: Vec<EntrantPick>,
    /// One motion a line, or a JSON list.
    pub motions: String,
    pub judges: Vec<EntrantPick>,
    pub host: EntrantPick,
    /// Dollars, as typed; empty for none.
    pub cap: String,
    pub sources: Vec<Source>,
    pub judges_read: bool,
}

impl TournamentDraft {
    /// The tournament the form describes, or what is wrong with it. `today` names an
    /// unnamed tournament; `seed` draws each judge's blind order.
    pub fn spec(
        &self,
        seed: u64,
        connections: &[Connection],
        prices: &PriceTable,
        today: &str,
    ) -> Result<TournamentSpec, String> {
        let motions = parse_motions(&self.motions)?;
        let spending_cap = match self.cap.trim() {
            "" => None,
            c => Some(
                cost::parse_decimal(c)
                    .ok_or("The spending cap must be a number of dollars, like 5.00.")?,
            ),
        };
        let name = match self.name.trim() {
            "" => format!("Tournament of {today}"),
            n => n.to_string(),
        };
        let seat = |e: &EntrantPick| e.participant(connections, prices);
        let spec = TournamentSpec {
            name,
            format: self.format,
            motions,
            contestants: self.contestants.iter().map(seat).collect(),
            judges: self.judges.iter().map(seat).collect(),
            host: seat(&self.host),
            seed,
            spending_cap,
            sources: self.sources.clone(),
            judges_read_sources: self.judges_read,
        };
        spec.validate()?;
        Ok(spec)
    }

    /// The models in use, each once, with the connection that prices it.
    pub fn priced_models(
        &self,
        connections: &[Connection],
        prices: &PriceTable,
    ) -> Vec<(String, String)> {
        let all = self
            .contestants
            .iter()
            .chain(&self.judges)
            .chain([&self.host]);
        PriceTable::models_to_price(all.map(|e| e.participant(connections, prices)))
    }
}

/// "No motion yet.", "1 motion.", "3 motions." (none while the text does not read).
pub fn motions_line(motions: &str) -> String {
    match parse_motions(motions).map_or(0, |l| l.len()) {
        0 => "No motion yet.".to_string(),
        1 => "1 motion.".to_string(),
        n => format!("{n} motions."),
    }
}

/// What the plan line says of the calls and the cost once the estimate is in.
pub fn cost_line(e: &Estimate) -> String {
    if e.unpriced.is_empty() {
        format!(
            "{} model calls. Estimated cost {}, worst case {}.",
            e.calls,
            cost::dollars(e.low),
            cost::dollars(e.high)
        )
    } else {
        format!(
            "{} model calls. Add prices for {} to see the cost.",
            e.calls,
            e.unpriced.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tournament::schedule::{judge_calls, schedule};

    fn connections() -> Vec<Connection> {
        vec![
            Connection::openai_compatible("a", "Server A", "http://localhost:1/v1", "alpha", ""),
            Connection::openai_compatible("b", "Server B", "http://localhost:2/v1", "bravo", ""),
        ]
    }

    fn pick(connection: &str, model: &str) -> EntrantPick {
        EntrantPick {
            connection: connection.into(),
            model: model.into(),
        }
    }

    fn draft() -> TournamentDraft {
        TournamentDraft {
            name: String::new(),
            format: FormatId::Classic,
            contestants: vec![pick("a", "alpha"), pick("b", "bravo")],
            motions: "Cities should ban cars\nHomework should be abolished".into(),
            judges: vec![pick("a", "judge-model")],
            host: pick("a", "alpha"),
            cap: String::new(),
            sources: Vec::new(),
            judges_read: false,
        }
    }

    #[test]
    fn a_draft_becomes_the_spec_the_tournament_runs() {
        let conns = connections();
        let prices = PriceTable::default();
        let spec = draft().spec(7, &conns, &prices, "2026-12-07").unwrap();
        assert_eq!(spec.name, "Tournament of 2026-12-07");
        assert_eq!(spec.motions.len(), 2);
        assert_eq!(spec.seed, 7);
        assert_eq!(spec.spending_cap, None);
        let models: Vec<_> = spec
            .contestants
            .iter()
            .map(|p| match p {
                Participant::Model {
                    model,
                    connection_label,
                    ..
                } => {
                    format!("{model} on {connection_label}")
                }
                Participant::Human => "a person".into(),
            })
            .collect();
        assert_eq!(models, ["alpha on Server A", "bravo on Server B"]);
        // Two contestants, two motions, sides swapped: four debates, one verdict each.
        let matches = schedule(&spec).unwrap();
        assert_eq!((matches.len(), judge_calls(&matches)), (4, 4));
        // A person judges blind.
        let mut d = draft();
        d.judges.push(pick(PERSON, "ignored"));
        d.name = "  Small models  ".into();
        d.cap = "5".into();
        let spec = d.spec(1, &conns, &prices, "x").unwrap();
        assert_eq!(spec.judges[1], Participant::Human);
        assert_eq!(spec.name, "Small models");
        assert_eq!(spec.spending_cap, Some(5.0));
    }

    #[test]
    fn a_wrong_field_is_named() {
        let conns = connections();
        let prices = PriceTable::default();
        let wrong = |f: &dyn Fn(&mut TournamentDraft)| {
            let mut d = draft();
            f(&mut d);
            d.spec(0, &conns, &prices, "x").unwrap_err()
        };
        assert!(wrong(&|d| d.cap = "five".into()).contains("spending cap"));
        assert!(!wrong(&|d| d.motions.clear()).is_empty());
        assert!(!wrong(&|d| d.contestants.truncate(1)).is_empty());
        assert_eq!(motions_line(&draft().motions), "2 motions.");
        assert_eq!(motions_line("Only this"), "1 motion.");
        assert_eq!(motions_line(""), "No motion yet.");
    }

    #[test]
    fn each_model_in_use_is_priced_once() {
        let conns = connections();
        let prices = PriceTable::default();
        let mut d = draft();
        d.judges.push(pick(PERSON, ""));
        assert_eq!(
            d.priced_models(&conns, &prices),
            [
                ("alpha".to_string(), "a".to_string()),
                ("bravo".into(), "b".into()),
                ("judge-model".into(), "a".into())
            ]
        );
        let e = Estimate {
            calls: 12,
            low: 0.01,
            high: 0.05,
            unpriced: vec!["alpha".into()],
        };
        assert_eq!(
            cost_line(&e),
            "12 model calls. Add prices for alpha to see the cost."
        );
    }
}
