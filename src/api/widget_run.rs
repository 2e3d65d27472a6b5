//! A live widget's debate before and at Start, as plain data: the request its host page
//! gave (`runDebate`'s shape), what the Start card shows of it, which connections the
//! visitor types a key for, and the rule that a key goes only where the visitor agreed.
//! The `<agora-debate>` component (`ui::widget`) binds its Start card to this.

use serde_json::Value;

use super::request::{self, DebateRequest};
use crate::engine::DebateConfig;
use crate::session::connections::{key_origin, Connection, ProviderKind, PRESETS};
use crate::session::prices::PriceTable;

/// Put in each connection whose key the visitor will type, so the debate can be read,
/// checked and shown before Start; never sent (Start puts the typed keys in its place).
const PLACEHOLDER_KEY: &str = "typed-by-the-visitor";

/// A connection the visitor gives a key for: every one that calls a provider.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyed {
    /// Its place in the request's `connections`.
    pub index: usize,
    pub name: String,
    /// Where the key would be sent (the page around the frame chose it).
    pub origin: String,
    /// A provider Agora offers (its presets), or this machine: no confirmation asked.
    pub known: bool,
}

/// What the Start card shows: the format in one line, the topic, and who sits where.
#[derive(Clone, Debug, PartialEq)]
pub struct Preview {
    pub kind: String,
    pub topic: String,
    pub seats: String,
}

/// A live widget's request, read and checked.
#[derive(Clone, Debug)]
pub struct WidgetRun {
    request: DebateRequest,
    /// Empty unless the visitor types the keys (the widget in Agora's own frame).
    pub keyed: Vec<Keyed>,
    pub preview: Preview,
}

impl WidgetRun {
    /// Reads the host page's request; with `ask_keys`, every provider connection is read
    /// with a placeholder key (the visitor types the real one before Start).
    pub fn read(request: Value, ask_keys: bool) -> Result<Self, String> {
        let request = request::read(request).map_err(|e| e.to_string())?;
        let keyed = if ask_keys {
            keyed(&request)
        } else {
            Vec::new()
        };
        let placeholders = vec![PLACEHOLDER_KEY.to_string(); request.connections.len()];
        let shown = with_keys(request.clone(), ask_keys.then_some(&placeholders[..]))?;
        Ok(Self {
            preview: preview(&shown.0),
            request,
            keyed,
        })
    }

    /// Whether the visitor types keys here.
    pub fn asks_keys(&self) -> bool {
        !self.keyed.is_empty()
    }

    /// How many connections the request names (the visitor's keys are by position).
    pub fn connections(&self) -> usize {
        self.request.connections.len()
    }

    /// What Start runs. The visitor's keys (by connection, `keys[i]` for the `i`-th) go
    /// into the connections only here; an empty one keeps what the request gave. A key
    /// bound for an address Agora does not offer needs the visitor's tick in `trusted`.
    pub fn launch(
        &self,
        keys: &[String],
        trusted: &[bool],
    ) -> Result<(DebateConfig, Vec<Connection>), String> {
        if !self.asks_keys() {
            return with_keys(self.request.clone(), None);
        }
        let typed = |i: usize| keys.get(i).is_some_and(|k| !k.trim().is_empty());
        if let Some(k) = self
            .keyed
            .iter()
            .find(|k| !k.known && typed(k.index) && !trusted.get(k.index).copied().unwrap_or(false))
        {
            return Err(format!(
                "Your key would go to {}, which is not a provider Agora knows: the page around this debate chose that address. Tick that you trust it, or leave that key empty.",
                k.origin
            ));
        }
        with_keys(self.request.clone(), Some(keys))
    }
}

/// The request built with `keys` put into its connections by position (an empty key keeps
/// what the request gave).
fn with_keys(
    mut request: DebateRequest,
    keys: Option<&[String]>,
) -> Result<(DebateConfig, Vec<Connection>), String> {
    for (c, key) in request.connections.iter_mut().zip(keys.unwrap_or_default()) {
        if !key.trim().is_empty() {
            c.api_key = Some(key.trim().to_string());
        }
    }
    request
        .build(&PriceTable::default())
        .map_err(|e| e.to_string())
}

fn preview(config: &DebateConfig) -> Preview {
    Preview {
        kind: config.options.describe(),
        topic: config.topic.clone(),
        seats: config
            .seats
            .iter()
            .map(|s| format!("{} ({})", s.name, s.participant.describe()))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The origins of the providers Agora offers in its connection form, and this machine.
fn known_origin(origin: &str) -> bool {
    PRESETS
        .iter()
        .filter_map(|p| key_origin(p.base_url).ok())
        .any(|o| o == origin)
        || origin.starts_with("http://localhost")
        || origin.starts_with("http://127.0.0.1")
}

fn keyed(request: &DebateRequest) -> Vec<Keyed> {
    request
        .connections
        .iter()
        .enumerate()
        .filter(|(_, c)| c.kind != ProviderKind::Scripted)
        .map(|(index, c)| {
            let name = c
                .label
                .clone()
                .or_else(|| c.id.clone())
                .unwrap_or_else(|| format!("connection {}", index + 1));
            let origin = key_origin(c.base_url.as_deref().unwrap_or_default())
                .unwrap_or_else(|e| format!("nowhere ({e})"));
            Keyed {
                index,
                name,
                known: known_origin(&origin),
                origin,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn request() -> Value {
        json!({
            "format": "classic", "topic": "Should cities charge cars to enter?",
            "connections": [
                { "kind": "anthropic", "label": "Claude", "base_url": "https://api.anthropic.com/v1", "model": "claude-haiku-4-5" },
                { "kind": "open_ai_compatible", "id": "mine", "base_url": "https://llm.example.net/v1", "model": "m", "api_key": "host-key" },
            ],
            "seats": { "position-b": { "connection": "mine" } },
        })
    }

    fn keys(a: &str, b: &str) -> Vec<String> {
        vec![a.to_string(), b.to_string()]
    }

    #[test]
    fn the_start_card_shows_the_format_the_topic_and_who_sits_where_before_any_key() {
        let run = WidgetRun::read(request(), true).unwrap();
        assert_eq!(run.preview.topic, "Should cities charge cars to enter?");
        assert!(
            run.preview.kind.starts_with("Classic debate"),
            "{:?}",
            run.preview
        );
        assert!(run.preview.seats.contains("Claude"), "{:?}", run.preview);
        assert!(!run.preview.seats.contains(PLACEHOLDER_KEY));
    }

    #[test]
    fn the_visitor_is_asked_a_key_per_provider_and_told_where_it_goes() {
        let run = WidgetRun::read(request(), true).unwrap();
        assert_eq!(
            run.keyed,
            [
                Keyed {
                    index: 0,
                    name: "Claude".into(),
                    origin: "https://api.anthropic.com".into(),
                    known: true
                },
                Keyed {
                    index: 1,
                    name: "mine".into(),
                    origin: "https://llm.example.net".into(),
                    known: false
                },
            ]
        );
        // A host page that runs the widget itself gives the keys: nothing is asked.
        let mut given = request();
        given["connections"][0]["api_key"] = json!("sk-ant-host");
        assert!(!WidgetRun::read(given, false).unwrap().asks_keys());
    }

    #[test]
    fn a_typed_key_goes_into_its_connection_only_at_start_and_an_empty_one_keeps_the_hosts() {
        let run = WidgetRun::read(request(), true).unwrap();
        let (_, conns) = run
            .launch(&keys(" sk-ant-typed ", ""), &[false, false])
            .unwrap();
        assert_eq!(conns[0].api_key, "sk-ant-typed");
        assert_eq!(conns[1].api_key, "host-key");
        // Nothing typed: refused, never sent with the placeholder.
        let refused = run.launch(&keys("", ""), &[false, false]).unwrap_err();
        assert!(refused.contains("Claude needs an API key"), "{refused}");
    }

    #[test]
    fn a_key_for_an_address_agora_does_not_offer_waits_for_the_visitors_tick() {
        let run = WidgetRun::read(request(), true).unwrap();
        let refused = run
            .launch(&keys("sk-ant", "sk-mine"), &[false, false])
            .unwrap_err();
        assert!(refused.contains("https://llm.example.net"), "{refused}");
        assert!(refused.contains("Tick that you trust it"), "{refused}");
        let (_, conns) = run
            .launch(&keys("sk-ant", "sk-mine"), &[false, true])
            .unwrap();
        assert_eq!(conns[1].api_key, "sk-mine");
    }

    #[test]
    fn a_request_that_cannot_run_is_refused_with_the_field_that_is_wrong() {
        let mut bad = request();
        bad["connections"][0]["base_url"] = json!("ftp://example.com");
        let refused = WidgetRun::read(bad, true).unwrap_err();
        assert!(
            refused.contains("`c1`") && refused.contains("https://"),
            "{refused}"
        );
        let refused =
            WidgetRun::read(json!({"format": "classic", "topic": "t"}), false).unwrap_err();
        assert!(refused.contains("connections"), "{refused}");
    }
}
