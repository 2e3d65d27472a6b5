//! The price table: what each model costs per million tokens. The user's own entries win;
//! otherwise a built-in list of common models (list prices checked in 2025: providers
//! change them, which is why the table is editable); a local server costs nothing.

use serde::{Deserialize, Serialize};

use super::connections::Connection;
use crate::engine::cost::Price;

/// (model name prefix, input $/M, output $/M). The longest matching prefix wins, so dated
/// names ("gpt-4o-mini-2024-07-18") find their family and "gpt-4o-mini" is not "gpt-4o".
const BUILT_IN: &[(&str, f64, f64)] = &[
    ("gpt-4o-mini", 0.15, 0.60),
    ("gpt-4o", 2.50, 10.00),
    ("gpt-4.1-nano", 0.10, 0.40),
    ("gpt-4.1-mini", 0.40, 1.60),
    ("gpt-4.1", 2.00, 8.00),
    ("gpt-5-nano", 0.05, 0.40),
    ("gpt-5-mini", 0.25, 2.00),
    ("gpt-5", 1.25, 10.00),
    ("o3-mini", 1.10, 4.40),
    ("o4-mini", 1.10, 4.40),
    ("o3", 2.00, 8.00),
    ("claude-opus-4", 15.00, 75.00),
    ("claude-sonnet-4", 3.00, 15.00),
    ("claude-3-7-sonnet", 3.00, 15.00),
    ("claude-haiku-4-5", 1.00, 5.00),
    ("claude-3-5-haiku", 0.80, 4.00),
    ("gemini-2.5-pro", 1.25, 10.00),
    ("gemini-2.5-flash-lite", 0.10, 0.40),
    ("gemini-2.5-flash", 0.30, 2.50),
    ("gemini-2.0-flash", 0.10, 0.40),
];

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PriceTable {
    /// The user's own prices by exact model name.
    pub own: Vec<(String, Price)>,
}

/// "openai/gpt-4o" on OpenRouter is priced as "gpt-4o".
fn bare(model: &str) -> &str {
    model.trim().rsplit('/').next().unwrap_or(model)
}

fn built_in(model: &str) -> Option<Price> {
    let m = bare(model).to_ascii_lowercase();
    BUILT_IN
        .iter()
        .filter(|(prefix, ..)| m.starts_with(prefix))
        .max_by_key(|(prefix, ..)| prefix.len())
        .map(|&(_, input, output)| Price { input, output })
}

/// A server on this machine, a model run in this tab, or a script, costs nothing.
fn is_local(c: &Connection) -> bool {
    use super::connections::ProviderKind;
    let u = c.base_url.to_ascii_lowercase();
    matches!(c.kind, ProviderKind::InBrowser | ProviderKind::Scripted)
        || u.contains("://127.0.0.1")
        || u.contains("://localhost")
        || u.contains("://[::1]")
}

impl PriceTable {
    /// The price of `model` on `connection`, or `None` when nobody knows it.
    pub fn price(&self, connection: Option<&Connection>, model: &str) -> Option<Price> {
        let model = model.trim();
        if let Some((_, p)) = self.own.iter().find(|(m, _)| m == model) {
            return Some(*p);
        }
        if connection.is_some_and(is_local) {
            return Some(Price::default());
        }
        built_in(model)
    }

    /// A seat filled by `model` (empty: the connection's default) on the connection
    /// `conn_id`, priced by this table. A connection this tab lacks keeps its id as label.
    pub fn participant(
        &self,
        conn_id: &str,
        conn: Option<&Connection>,
        model: &str,
    ) -> crate::engine::config::Participant {
        let model = match model.trim() {
            "" => conn.map(|c| c.default_model.trim()).unwrap_or_default(),
            m => m,
        };
        crate::engine::config::Participant::Model {
            connection: conn_id.to_string(),
            connection_label: conn.map_or_else(|| conn_id.to_string(), |c| c.label.clone()),
            price: self.price(conn, model),
            model: model.to_string(),
            context_tokens: conn.map_or(4096, |c| c.context_tokens),
        }
    }

    /// The models among `participants`, each once in order, with the connection that
    /// prices it: the rows of a form's price fields.
    pub fn models_to_price(
        participants: impl IntoIterator<Item = crate::engine::config::Participant>,
    ) -> Vec<(String, String)> {
        let mut seen: Vec<(String, String)> = Vec::new();
        for p in participants {
            if let crate::engine::config::Participant::Model {
                model, connection, ..
            } = p
            {
                if !seen.iter().any(|(m, _)| *m == model) {
                    seen.push((model, connection));
                }
            }
        }
        seen
    }

    /// Sets the user's own price for a model (replacing the built-in one).
    pub fn set(&mut self, model: &str, price: Price) {
        let model = model.trim().to_string();
        match self.own.iter_mut().find(|(m, _)| *m == model) {
            Some(e) => e.1 = price,
            None => self.own.push((model, price)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_known_family_prices_a_model_and_the_users_price_wins() {
        let mut t = PriceTable::default();
        let openai = Connection::openai_compatible(
            "c-1",
            "OpenAI",
            "https://api.openai.com/v1",
            "gpt-4o-mini",
            "",
        );
        let p = |t: &PriceTable, m: &str| t.price(Some(&openai), m);
        assert_eq!(
            p(&t, "gpt-4o-mini-2024-07-18"),
            Some(Price {
                input: 0.15,
                output: 0.60
            })
        );
        assert_eq!(
            p(&t, "gpt-4o"),
            Some(Price {
                input: 2.50,
                output: 10.00
            })
        );
        assert_eq!(
            p(&t, "openai/gpt-5-mini"),
            Some(Price {
                input: 0.25,
                output: 2.00
            })
        );
        assert_eq!(p(&t, "claude-sonnet-4-5-20250929").unwrap().output, 15.00);
        assert_eq!(p(&t, "my-finetune"), None, "unknown is unknown, not free");
        t.set(
            "gpt-4o",
            Price {
                input: 1.0,
                output: 2.0,
            },
        );
        assert_eq!(
            p(&t, "gpt-4o"),
            Some(Price {
                input: 1.0,
                output: 2.0
            })
        );
        assert_eq!(t.own.len(), 1);
        t.set(
            "gpt-4o",
            Price {
                input: 1.5,
                output: 2.0,
            },
        );
        assert_eq!(t.own.len(), 1);
    }

    #[test]
    fn a_local_server_costs_nothing_unless_the_user_says_otherwise() {
        let mut t = PriceTable::default();
        let local = Connection::local_model();
        assert_eq!(
            t.price(Some(&local), "smollm2-135m"),
            Some(Price::default())
        );
        // A model run in the tab, whatever its name, costs nothing either.
        let tab = Connection::in_browser();
        assert_eq!(t.price(Some(&tab), "gpt-4o"), Some(Price::default()));
        t.set(
            "smollm2-135m",
            Price {
                input: 0.01,
                output: 0.01,
            },
        );
        assert_eq!(t.price(Some(&local), "smollm2-135m").unwrap().input, 0.01);
    }
}
