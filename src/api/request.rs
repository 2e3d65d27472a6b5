//! What `runDebate` is given, as plain data: the debate (a format and topic, or a whole
//! configuration copied from an export), the connections its seats run on, and which seat
//! uses which. Read from any serde deserializer (a JavaScript object through
//! serde-wasm-bindgen in the browser, JSON in the tests), and refused with a message that
//! names the field that is wrong.
//!
//! The request's own fields are read with their paths tracked; the large parts (a whole
//! configuration, a format's options) are read from JSON text by the same deserializer
//! the store reads events with, so the app does not link a second copy of all the
//! configuration's reading code for the API (a tracked copy cost about 100 KB of wasm).

use std::collections::BTreeMap;

use serde::Deserialize;

use serde_json::Value;

use crate::engine::config::{DebateConfig, FormatId, FormatOptions, Participant};
use crate::engine::formats::default_config;
use crate::engine::script::Script;
use crate::engine::sources::{Origin, Source};
use crate::session::connections::{default_stall_ms, Connection, ConnectionProblem, ProviderKind};
use crate::session::prices::PriceTable;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebateRequest {
    /// With `topic`: the format's default debate (the setup screen's first choices).
    #[serde(default)]
    pub format: Option<FormatId>,
    #[serde(default)]
    pub topic: Option<String>,
    /// Merged over the format's default options (objects merged key by key).
    #[serde(default)]
    pub options: Option<serde_json::Value>,
    /// Instead of `format` and `topic`: a whole configuration, as an export's first event
    /// holds it (`events[0].kind.DebateStarted.config`).
    #[serde(default)]
    pub config: Option<Value>,
    /// At least one; the first runs every seat that `seats` does not place elsewhere.
    pub connections: Vec<ConnectionSpec>,
    /// By seat id (`position-a`, `chair-2`, `analyst`…).
    #[serde(default)]
    pub seats: BTreeMap<String, SeatSpec>,
    #[serde(default)]
    pub spending_cap: Option<f64>,
    /// Documents the debaters may quote, added after any the configuration carries.
    #[serde(default)]
    pub sources: Vec<SourceSpec>,
    /// Judges get the passages too (off: only the quotes and their checks).
    #[serde(default)]
    pub judges_read_sources: bool,
    /// Seats (by id) whose speeches may use their provider's web search.
    #[serde(default)]
    pub search_web: Vec<String>,
}

/// A source given to the API: its text and, optionally, its title.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSpec {
    #[serde(default)]
    pub title: String,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectionSpec {
    /// How seats name it; `c1`, `c2`… by position when absent.
    #[serde(default)]
    pub id: Option<String>,
    pub kind: ProviderKind,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub base_url: Option<String>,
    /// The model its seats use unless a seat names another.
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub api_key: Option<String>,
    /// What a `scripted` connection plays (the stand-in's script format).
    #[serde(default)]
    pub script: Option<Value>,
    #[serde(default)]
    pub context_tokens: Option<u32>,
    #[serde(default)]
    pub concurrency: Option<u32>,
    #[serde(default)]
    pub stall_ms: Option<u64>,
    /// How an OpenAI-compatible server takes a JSON Schema; found on first use when absent.
    #[serde(default)]
    pub schema_form: Option<crate::llm::openai::SchemaForm>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatSpec {
    #[serde(default)]
    pub connection: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
}

/// Why a request is refused: where in it, and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub enum RequestError {
    /// A field, by its path (`connections[0].script.answers[1].fault.status`).
    Field { path: String, why: String },
    /// The request as a whole is not an object of the expected shape.
    Whole { why: String },
    /// A connection the app would not save (the message never holds its key).
    Connection {
        id: String,
        problem: ConnectionProblem,
    },
    /// The debate fails its format's checks, in the format's words.
    Debate { why: String },
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::Field { path, why } => {
                write!(
                    f,
                    "The debate configuration is not valid at `{path}`: {why}"
                )
            }
            RequestError::Whole { why } => {
                write!(f, "The debate configuration is not valid: {why}")
            }
            RequestError::Connection { id, problem } => {
                write!(f, "The connection `{id}` is not valid: {problem}")
            }
            RequestError::Debate { why } => f.write_str(why),
        }
    }
}

/// Reads a request, naming the path of the first field that is wrong
/// (`connections[0].script.answers[1].fault.status: invalid type…`).
pub fn read<'de, D: serde::Deserializer<'de>>(d: D) -> Result<DebateRequest, RequestError> {
    serde_path_to_error::deserialize(d).map_err(|e| {
        let path = e.path().to_string();
        let why = e.into_inner().to_string();
        if path == "." {
            RequestError::Whole { why }
        } else {
            RequestError::Field { path, why }
        }
    })
}

fn field_error(path: &str, why: impl std::fmt::Display) -> RequestError {
    RequestError::Field {
        path: path.to_string(),
        why: why.to_string(),
    }
}

impl ConnectionSpec {
    fn connection(&self, i: usize) -> Result<Connection, RequestError> {
        let at = |f: &str| format!("connections[{i}].{f}");
        let id = self.id.clone().unwrap_or_else(|| format!("c{}", i + 1));
        let label = self.label.clone().unwrap_or_else(|| id.clone());
        let model = self.model.clone().unwrap_or_default();
        let mut c = match self.kind {
            ProviderKind::Scripted => {
                let script = self
                    .script
                    .as_ref()
                    .ok_or_else(|| field_error(&at("script"), "a scripted connection needs one"))?;
                // A path inside the script (`answers[1].fault`) follows the script's own.
                let script = Script::from_json(&script.to_string()).map_err(|e| {
                    let path = match e.path.as_str() {
                        "" => at("script"),
                        inner => format!("{}.{inner}", at("script")),
                    };
                    field_error(&path, e.why)
                })?;
                Connection::scripted(&id, &label, script)
            }
            ProviderKind::InBrowser => {
                return Err(field_error(
                    &at("kind"),
                    "the in-page model runs only in the app",
                ))
            }
            kind => {
                let base_url = self
                    .base_url
                    .clone()
                    .ok_or_else(|| field_error(&at("base_url"), "missing"))?;
                let mut c = Connection::openai_compatible(
                    &id,
                    &label,
                    &base_url,
                    &model,
                    self.api_key.as_deref().unwrap_or_default(),
                );
                c.kind = kind;
                c
            }
        };
        if self.kind != ProviderKind::Scripted && self.script.is_some() {
            return Err(field_error(
                &at("script"),
                "only a scripted connection plays one",
            ));
        }
        if !model.trim().is_empty() {
            c.default_model = model.trim().to_string();
            c.stall_ms = default_stall_ms(&model, None);
        }
        if let Some(n) = self.context_tokens {
            c.context_tokens = n;
        }
        if let Some(n) = self.concurrency {
            c.concurrency = n;
        }
        if let Some(ms) = self.stall_ms {
            c.stall_ms = ms;
        }
        if let Some(f) = self.schema_form {
            (c.schema_form, c.schema_form_known) = (f, true);
        }
        // The key never enters the message (`validate` words it without the key).
        c.validate().map_err(|problem| RequestError::Connection {
            id: c.id.clone(),
            problem,
        })?;
        Ok(c)
    }
}

/// RFC 7396's merge: objects key by key, anything else replaced; a key the defaults do not
/// have is refused (a misspelt option would otherwise be silently ignored).
fn merge(
    into: &mut serde_json::Value,
    patch: &serde_json::Value,
    path: &str,
) -> Result<(), RequestError> {
    let (serde_json::Value::Object(a), serde_json::Value::Object(b)) = (into, patch) else {
        return Err(field_error(path, "expected an object"));
    };
    for (k, v) in b {
        let at = format!("{path}.{k}");
        match a.get_mut(k) {
            Some(slot) if slot.is_object() => merge(slot, v, &at)?,
            Some(slot) => *slot = v.clone(),
            None => {
                let known: Vec<&str> = a.keys().map(String::as_str).collect();
                return Err(field_error(
                    &at,
                    format!("not an option here (options: {})", known.join(", ")),
                ));
            }
        }
    }
    Ok(())
}

/// A typed value from a part of the request, read from its JSON text (see the module's
/// note); the error names the part.
fn typed<T: serde::de::DeserializeOwned>(v: &Value, at: &str) -> Result<T, RequestError> {
    serde_json::from_str(&v.to_string()).map_err(|e| {
        // serde_json appends where in the text it was; the part's path says it better.
        let whole = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        field_error(at, whole.strip_suffix(&place).unwrap_or(&whole))
    })
}

/// The format's options with the caller's merged over them. An option of the wrong type
/// is named by trying the caller's options one at a time.
fn with_options(options: &FormatOptions, patch: &Value) -> Result<FormatOptions, RequestError> {
    // `{"classic": {…}}`: the variant's tag, then its fields.
    let whole: Value = serde_json::to_string(options)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| field_error("options", "the format's options could not be read"))?;
    let Some((tag, defaults)) = whole.as_object().and_then(|o| o.iter().next()) else {
        return Err(field_error("options", "the options have no format"));
    };
    let tagged = |fields: Value| Value::Object([(tag.clone(), fields)].into_iter().collect());
    let mut fields = defaults.clone();
    merge(&mut fields, patch, "options")?;
    if let Ok(o) = typed(&tagged(fields), "options") {
        return Ok(o);
    }
    for (k, v) in patch.as_object().into_iter().flatten() {
        let mut one = defaults.clone();
        merge(
            &mut one,
            &Value::Object([(k.clone(), v.clone())].into_iter().collect()),
            "options",
        )?;
        typed::<FormatOptions>(&tagged(one), &format!("options.{k}"))?;
    }
    Err(field_error("options", "these options do not go together"))
}

impl DebateRequest {
    /// The connections and the configuration to run, checked as the app checks a debate
    /// before it starts.
    pub fn build(
        self,
        prices: &PriceTable,
    ) -> Result<(DebateConfig, Vec<Connection>), RequestError> {
        if self.connections.is_empty() {
            return Err(field_error("connections", "give at least one"));
        }
        let connections = self
            .connections
            .iter()
            .enumerate()
            .map(|(i, c)| c.connection(i))
            .collect::<Result<Vec<_>, _>>()?;
        for (i, c) in connections.iter().enumerate() {
            if connections[..i].iter().any(|o| o.id == c.id) {
                return Err(field_error(
                    &format!("connections[{i}].id"),
                    format!("`{}` is used twice", c.id),
                ));
            }
        }
        let first = &connections[0];
        let seat_of = |_: &str| prices.participant(&first.id, Some(first), "");
        let mut config = match (self.config, self.format) {
            (Some(_), Some(_)) => {
                return Err(field_error(
                    "format",
                    "give `format` and `topic`, or a whole `config`, not both",
                ))
            }
            (Some(c), None) => {
                let mut c: DebateConfig = typed(&c, "config")?;
                if self.options.is_some() {
                    return Err(field_error(
                        "options",
                        "a whole `config` carries its own options",
                    ));
                }
                // The same debate on another topic.
                if let Some(topic) = &self.topic {
                    c.topic = topic.trim().to_string();
                }
                c
            }
            (None, Some(format)) => {
                let topic = self
                    .topic
                    .clone()
                    .ok_or_else(|| field_error("topic", "missing"))?;
                let mut c = default_config(format, &topic, &seat_of);
                if let Some(patch) = &self.options {
                    c.options = with_options(&c.options, patch)?;
                }
                c
            }
            (None, None) => {
                return Err(field_error("format", "missing (or give a whole `config`)"))
            }
        };
        for (seat, spec) in &self.seats {
            let at = format!("seats.{seat}");
            let Some(s) = config.seats.iter_mut().find(|s| &s.id == seat) else {
                let ids: Vec<&str> = config.seats.iter().map(|s| s.id.as_str()).collect();
                return Err(field_error(
                    &at,
                    format!(
                        "this debate has no such seat (its seats: {})",
                        ids.join(", ")
                    ),
                ));
            };
            let conn_id = spec.connection.clone().unwrap_or_else(|| first.id.clone());
            let conn = connections
                .iter()
                .find(|c| c.id == conn_id)
                .ok_or_else(|| {
                    field_error(
                        &format!("{at}.connection"),
                        format!("`{conn_id}` is not among `connections`"),
                    )
                })?;
            s.participant = prices.participant(
                &conn.id,
                Some(conn),
                spec.model.as_deref().unwrap_or_default(),
            );
        }
        // A whole configuration names the connections of the browser it came from.
        for s in &config.seats {
            if let Participant::Model { connection, .. } = &s.participant {
                if !connections.iter().any(|c| &c.id == connection) {
                    return Err(field_error(
                        &format!("seats.{}", s.id),
                        format!("runs on the connection `{connection}`, which is not among `connections`"),
                    ));
                }
            }
        }
        if let Some(cap) = self.spending_cap {
            if !(cap.is_finite() && cap > 0.0) {
                return Err(field_error("spending_cap", "a number of dollars above 0"));
            }
            config.spending_cap = Some(cap);
        }
        for (i, s) in self.sources.iter().enumerate() {
            let id = crate::engine::sources::user_id(config.sources.len() + 1);
            let title = match s.title.trim() {
                "" => format!("Source {}", i + 1),
                t => t.to_string(),
            };
            let source = Source::new(id, &title, Origin::Pasted, &s.text)
                .map_err(|why| field_error(&format!("sources[{i}]"), why))?;
            config.sources.push(source);
        }
        config.judges_read_sources |= self.judges_read_sources;
        for id in &self.search_web {
            check_search(&config, &connections, id)?;
            if !config.search_web.contains(id) {
                config.search_web.push(id.clone());
            }
        }
        config
            .validate()
            .map_err(|why| RequestError::Debate { why })?;
        Ok((config, connections))
    }
}

/// A seat the request asks to search the web: one that argues, on a connection and model
/// that can search; otherwise the reason, named by the field.
fn check_search(
    config: &DebateConfig,
    connections: &[Connection],
    id: &str,
) -> Result<(), RequestError> {
    let field = "search_web";
    let seat = crate::engine::formats::searching_seats(config)
        .into_iter()
        .find(|s| s.id == id)
        .ok_or_else(|| {
            field_error(
                field,
                format!("`{id}` is not a seat that argues with a model here, so it has no speeches to search for"),
            )
        })?;
    if let crate::engine::config::Participant::Model {
        connection, model, ..
    } = &seat.participant
    {
        if let Some(c) = connections.iter().find(|c| c.id == *connection) {
            c.web_search(model)
                .map_err(|why| field_error(field, format!("`{id}` cannot search: {why}")))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn build(v: serde_json::Value) -> Result<(DebateConfig, Vec<Connection>), RequestError> {
        read(v)?.build(&PriceTable::default())
    }

    /// The path a refused request names, and its message.
    fn refused(v: serde_json::Value) -> (String, String) {
        let e = build(v).unwrap_err();
        let path = match &e {
            RequestError::Field { path, .. } => path.clone(),
            RequestError::Connection { id, .. } => format!("connection {id}"),
            RequestError::Whole { .. } | RequestError::Debate { .. } => String::new(),
        };
        (path, e.to_string())
    }

    fn scripted() -> serde_json::Value {
        json!({ "kind": "scripted", "script": { "answers": [] } })
    }

    #[test]
    fn web_search_is_asked_for_seats_that_argue_on_a_connection_that_can_search() {
        let router = json!({ "kind": "open_router", "base_url": "https://openrouter.ai/api/v1",
            "model": "openai/gpt-4o-mini", "api_key": "sk-or-test" });
        let (config, _) = build(json!({ "format": "classic", "topic": "Ban cars?",
            "connections": [router], "search_web": ["position-a"] }))
        .unwrap();
        assert_eq!(config.search_web, ["position-a"]);

        let (path, why) = refused(json!({ "format": "classic", "topic": "Ban cars?",
            "connections": [scripted()], "search_web": ["position-a"] }));
        assert_eq!(path, "search_web");
        assert!(
            why.contains("cannot search") && why.contains("scripted"),
            "{why}"
        );

        let (path, why) = refused(json!({ "format": "classic", "topic": "Ban cars?",
            "connections": [router], "search_web": ["moderator"] }));
        assert_eq!(path, "search_web");
        assert!(why.contains("not a seat that argues"), "{why}");
    }

    #[test]
    fn a_format_and_topic_give_the_formats_default_debate_on_the_first_connection() {
        for format in ["classic", "duelogic", "forecast", "crux", "council"] {
            let (config, conns) = build(
                json!({ "format": format, "topic": "Ban cars?", "connections": [scripted()] }),
            )
            .unwrap_or_else(|e| panic!("{format}: {e}"));
            assert_eq!(config.format().id(), format);
            assert_eq!(conns[0].id, "c1");
            assert_eq!(conns[0].kind, ProviderKind::Scripted);
            for s in &config.seats {
                assert!(
                    matches!(&s.participant, Participant::Model { connection, model, .. } if connection == "c1" && model == "scripted"),
                    "{format}: {s:?}"
                );
            }
        }
    }

    #[test]
    fn sources_are_numbered_after_the_configurations_and_an_empty_one_is_named_by_its_path() {
        let (config, _) = build(json!({
            "format": "classic", "topic": "Ban cars?", "connections": [scripted()],
            "sources": [{ "title": "Report", "text": "Traffic fell." }, { "text": "Shops did well." }]
        }))
        .unwrap();
        let ids: Vec<(&str, &str)> = config
            .sources
            .iter()
            .map(|s| (s.id.as_str(), s.title.as_str()))
            .collect();
        assert_eq!(ids, [("S1", "Report"), ("S2", "Source 2")]);
        let (path, e) = refused(json!({
            "format": "classic", "topic": "t", "connections": [scripted()],
            "sources": [{ "title": "Notes", "text": "ok" }, { "title": "Blank", "text": "  " }]
        }));
        assert_eq!(path, "sources[1]");
        assert!(e.contains("“Blank” has no text to quote."), "{e}");
        let (path, _) = refused(json!({
            "format": "classic", "topic": "t", "connections": [scripted()],
            "sources": [{ "txt": "typo" }]
        }));
        assert!(path.starts_with("sources[0]"), "{path}");
    }

    #[test]
    fn a_wrong_field_is_named_by_its_path() {
        let (path, e) = refused(json!({
            "format": "classic", "topic": "t",
            "connections": [{ "kind": "scripted", "script": { "answers": [{ "frist_delay_ms": 5 }] } }]
        }));
        assert_eq!(
            path, "connections[0].script.answers[0].frist_delay_ms",
            "{e}"
        );

        let (path, e) =
            refused(json!({ "format": "debate-club", "topic": "t", "connections": [scripted()] }));
        assert_eq!(path, "format");
        assert!(e.contains("`format`") && e.contains("classic"), "{e}");

        let (path, e) =
            refused(json!({ "format": "classic", "topic": 7, "connections": [scripted()] }));
        assert_eq!(path, "topic", "{e}");

        let (path, e) = refused(json!({ "format": "classic", "topic": "t" }));
        assert!(path.is_empty() && e.contains("connections"), "{e}");

        let (path, e) = refused(json!({
            "format": "classic", "topic": "t",
            "connections": [{ "kind": "scripted", "script": { "answers": [{ "fault": { "status": 200 } }] } }]
        }));
        assert_eq!(path, "connections[0].script.answers[0].fault.status", "{e}");
    }

    #[test]
    fn options_are_merged_over_the_defaults_and_a_misspelt_one_is_refused() {
        let (config, _) = build(json!({
            "format": "crux", "topic": "t", "connections": [scripted()],
            "options": { "aspects": 2, "temperatures": { "analysis": 0.1 } }
        }))
        .unwrap();
        let FormatOptions::Crux(o) = &config.options else {
            panic!()
        };
        assert_eq!(o.aspects, 2);
        assert_eq!(o.temperatures.analysis, 0.1);
        assert_eq!(o.temperatures.generation, 0.85, "untouched defaults stay");
        assert_eq!(o.personas.len(), 2, "the seats' personas stay");

        let (path, e) = refused(
            json!({ "format": "classic", "topic": "t", "connections": [scripted()], "options": { "roundz": 3 } }),
        );
        assert_eq!(path, "options.roundz");
        assert!(e.contains("rounds"), "the options it has: {e}");
        let (path, e) = refused(
            json!({ "format": "classic", "topic": "t", "connections": [scripted()], "options": { "rounds": "three" } }),
        );
        assert_eq!(path, "options.rounds", "{e}");
        let (path, e) = refused(
            json!({ "format": "classic", "topic": "t", "connections": [scripted()], "options": { "rounds": 0 } }),
        );
        assert!(
            path.is_empty() && e.to_lowercase().contains("round"),
            "the format's own check: {e}"
        );
    }

    #[test]
    fn seats_move_to_other_connections_and_models() {
        let (config, _) = build(json!({
            "format": "classic", "topic": "t",
            "connections": [scripted(), { "id": "judge", "kind": "scripted", "script": {}, "model": "big" }],
            "seats": { "position-b": { "connection": "judge" }, "moderator": { "model": "small" } }
        }))
        .unwrap();
        let on = |seat: &str| match &config.seat(seat).unwrap().participant {
            Participant::Model {
                connection, model, ..
            } => (connection.clone(), model.clone()),
            _ => panic!(),
        };
        assert_eq!(on("position-b"), ("judge".into(), "big".into()));
        assert_eq!(on("moderator"), ("c1".into(), "small".into()));
        assert_eq!(on("position-a"), ("c1".into(), "scripted".into()));

        let (path, e) = refused(
            json!({ "format": "classic", "topic": "t", "connections": [scripted()], "seats": { "chair-1": {} } }),
        );
        assert_eq!(path, "seats.chair-1");
        assert!(e.contains("position-a"), "the seats it has: {e}");
        let (path, e) = refused(
            json!({ "format": "classic", "topic": "t", "connections": [scripted()], "seats": { "moderator": { "connection": "nope" } } }),
        );
        assert_eq!(path, "seats.moderator.connection", "{e}");
    }

    /// A configuration copied from an export runs once its seats' connections are given.
    #[test]
    fn a_whole_config_from_an_export_runs_on_the_connections_given() {
        let (exported, _) = build(json!({
            "format": "duelogic", "topic": "Old topic",
            "connections": [{ "id": "c-openai-1f", "kind": "scripted", "script": {} }]
        }))
        .unwrap();
        let config = serde_json::to_value(&exported).unwrap();
        let (path, e) = refused(json!({ "config": config, "connections": [scripted()] }));
        assert_eq!(path, "seats.arbiter");
        assert!(e.contains("c-openai-1f"), "{e}");
        let (again, _) = build(json!({
            "config": config, "topic": "New topic",
            "connections": [{ "id": "c-openai-1f", "kind": "scripted", "script": {} }]
        }))
        .unwrap();
        assert_eq!(again.options, exported.options);
        assert_eq!(again.topic, "New topic");
        let (path, e) =
            refused(json!({ "config": config, "format": "classic", "connections": [scripted()] }));
        assert_eq!(path, "format");
        assert!(e.contains("not both"), "{e}");
    }

    #[test]
    fn a_connection_error_never_carries_the_key() {
        let (path, e) = refused(json!({
            "format": "classic", "topic": "t",
            "connections": [{ "kind": "anthropic", "base_url": "ftp://example.com", "api_key": "sk-ant-secret-123", "model": "claude" }]
        }));
        assert!(!e.contains("sk-ant-secret-123"), "{e}");
        assert_eq!(path, "connection c1", "{e}");
        let (_, conns) = build(json!({
            "format": "classic", "topic": "t",
            "connections": [{ "kind": "anthropic", "base_url": "https://api.anthropic.com/v1", "api_key": " sk-ant-1 ", "model": "claude-haiku-4-5" }]
        }))
        .unwrap();
        assert_eq!(
            (conns[0].api_key.as_str(), conns[0].kind),
            ("sk-ant-1", ProviderKind::Anthropic)
        );
        let (path, e) = refused(
            json!({ "format": "classic", "topic": "t", "connections": [{ "kind": "in_browser" }] }),
        );
        assert_eq!(path, "connections[0].kind", "{e}");
    }
}
