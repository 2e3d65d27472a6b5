//! Each format's own part of the setup form as plain data: what the user chose, the rules
//! of its rows (how many, what a new one starts as, what a field accepts), and `build`, the
//! `DebateConfig` it describes with the seats `Seating` turns into participants. The forms
//! in `ui/formats/*/setup.rs` hold one signal of their draft and bind fields to it.

pub mod classic;
pub mod council;
pub mod crux;
pub mod duelogic;
pub mod forecast;

/// A number typed into a field, kept within `lo..=hi`; `None` for what is no number (the
/// field keeps its last good value).
pub fn typed_number<T: std::str::FromStr + Ord>(typed: &str, lo: T, hi: T) -> Option<T> {
    typed.trim().parse::<T>().ok().map(|n| n.clamp(lo, hi))
}

/// Non-empty trimmed lines: a list typed one item a line.
pub fn lines(s: &str) -> Vec<String> {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::engine::config::Participant;
    use crate::session::connections::Connection;
    use crate::session::prices::PriceTable;
    use crate::session::setup_draft::{SeatPick, Seating};

    /// The connections a test's seats choose from: the debate's own (`local`) and `cloud`.
    pub fn connections() -> Vec<Connection> {
        vec![
            Connection::local_model(),
            Connection::openai_compatible(
                "cloud",
                "Cloud",
                "https://api.example.com/v1",
                "gpt-x",
                "sk",
            ),
        ]
    }

    /// Runs `f` with seating on `connections()`, the debate on the local model.
    pub fn with_seating<R>(f: impl FnOnce(&Seating) -> R) -> R {
        let (conns, prices) = (connections(), PriceTable::default());
        let local = conns[0].clone();
        f(&Seating {
            connections: &conns,
            connection: &local.id,
            model: &local.default_model,
            prices: &prices,
        })
    }

    pub fn on_cloud(model: &str) -> SeatPick {
        SeatPick {
            connection: "cloud".into(),
            model: model.into(),
            human: false,
        }
    }

    pub fn person() -> SeatPick {
        SeatPick {
            human: true,
            ..SeatPick::default()
        }
    }

    /// Which connection and model a participant runs on ("person" for a person).
    pub fn runs_on(p: &Participant) -> String {
        match p {
            Participant::Model {
                connection, model, ..
            } => format!("{connection}/{model}"),
            Participant::Human => "person".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_number_is_kept_in_range_and_anything_else_is_ignored() {
        assert_eq!(typed_number("12", 1u32, 10), Some(10));
        assert_eq!(typed_number(" 0", 1u32, 10), Some(1));
        assert_eq!(typed_number("3", 1u32, 10), Some(3));
        assert_eq!(typed_number("three", 1u32, 10), None);
        assert_eq!(typed_number("-1", 0u32, 10), None);
        assert_eq!(lines(" a \n\n b\n"), ["a", "b"]);
    }
}
