//! The connection form's model: what the form holds while the user types, its rules as
//! methods (presets, the silence limit that follows the model, how structured answers are
//! asked for, when the saved key stops applying), and the connection it becomes. The form
//! only binds fields to it; its native tests below are the form's rules.
//!
//! The draft never holds a saved key: it knows only whether the connection had one and for
//! which origin. The key a saved connection keeps is decided where keys live
//! (`connections::key_after_edit`, applied by `Session::save_connection`).

use super::connections::{
    default_stall_ms, key_origin, Connection, KeyEdit, ProviderKind, DEMO_SCRIPT, PRESETS,
};
use crate::engine::script::Script;
use crate::llm::dialect::Effort;
use crate::llm::openai::SchemaForm;

#[derive(Clone, Debug, PartialEq)]
pub struct ConnectionDraft {
    /// The connection being edited (without its key); `None` while adding one.
    existing: Option<Connection>,
    /// The edited connection had a key, given for this origin.
    saved_key_origin: Option<String>,
    pub label: String,
    pub base_url: String,
    pub model: String,
    /// A key typed in this form; empty keeps the saved one (where it still applies).
    pub key: String,
    pub kind: ProviderKind,
    pub context_tokens: u32,
    pub concurrency: u32,
    pub effort: Option<Effort>,
    silence_s: u32,
    /// The user set the silence limit: it no longer follows the model.
    silence_set: bool,
    /// How structured answers are asked for; `None`: found on first use.
    pub schema_form: Option<SchemaForm>,
    /// A scripted connection's script, as JSON text (the stand-in's format).
    pub script: String,
    pub remember: bool,
    pub call_header: bool,
    /// The chosen provider asks for a key (the key field's hint says so).
    needs_key: bool,
}

/// Why the form cannot be saved as it is (the session's own checks come after).
#[derive(Clone, Debug, PartialEq)]
pub enum DraftProblem {
    Script(String),
}

impl std::fmt::Display for DraftProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DraftProblem::Script(e) => write!(f, "The script is not valid: {e}."),
        }
    }
}

impl ConnectionDraft {
    /// A form for editing `existing`, or for adding a connection (OpenAI's preset).
    pub fn new(existing: Option<Connection>) -> Self {
        let mut base = existing.clone().unwrap_or_else(|| {
            let p = &PRESETS[0];
            let mut c = Connection::openai_compatible("", p.name, p.base_url, p.model, "");
            c.context_tokens = p.context_tokens;
            c
        });
        let saved_key_origin = (!base.api_key.is_empty())
            .then(|| key_origin(&base.base_url).ok())
            .flatten();
        base.api_key.clear();
        ConnectionDraft {
            existing: existing.map(|_| base.clone()),
            saved_key_origin,
            label: base.label.clone(),
            base_url: base.base_url.clone(),
            model: base.default_model.clone(),
            key: String::new(),
            kind: base.kind,
            context_tokens: base.context_tokens,
            concurrency: base.concurrency,
            effort: base.effort,
            silence_s: (base.stall_ms / 1000) as u32,
            // A saved limit other than its default was set by the user.
            silence_set: base.stall_ms != default_stall_ms(&base.default_model, base.effort),
            schema_form: base.schema_form_known.then_some(base.schema_form),
            script: base
                .script
                .as_ref()
                .and_then(|s| serde_json::to_string_pretty(s).ok())
                .unwrap_or_else(|| DEMO_SCRIPT.to_string()),
            remember: base.remember_key,
            call_header: base.send_call_header,
            needs_key: true,
        }
    }

    pub fn is_new(&self) -> bool {
        self.existing.is_none()
    }

    pub fn scripted(&self) -> bool {
        self.kind == ProviderKind::Scripted
    }

    /// A provider from the list: its kind, address, model, window and name.
    pub fn pick_preset(&mut self, name: &str) {
        let Some(p) = PRESETS.iter().find(|p| p.name == name) else {
            return;
        };
        self.kind = p.kind;
        self.label = p.name.to_string();
        self.base_url = p.base_url.to_string();
        self.model = p.model.to_string();
        self.context_tokens = p.context_tokens;
        self.needs_key = p.needs_key;
        self.follow_default_silence();
    }

    /// Another server: how it takes a schema is found again.
    pub fn set_base_url(&mut self, url: String) {
        self.base_url = url;
        self.schema_form = None;
    }

    /// Another model: its silence limit (unless set) and its schema form are found again.
    pub fn set_model(&mut self, model: String) {
        self.model = model;
        self.follow_default_silence();
        self.schema_form = None;
    }

    pub fn set_effort(&mut self, effort: Option<Effort>) {
        self.effort = effort;
        self.follow_default_silence();
    }

    pub fn silence_s(&self) -> u32 {
        self.silence_s
    }

    /// The user's own silence limit: it stays whatever the model.
    pub fn set_silence_s(&mut self, seconds: u32) {
        self.silence_s = seconds;
        self.silence_set = true;
    }

    fn follow_default_silence(&mut self) {
        if !self.silence_set {
            self.silence_s = (default_stall_ms(&self.model, self.effort) / 1000) as u32;
        }
    }

    /// The saved key was given for another origin than the base URL now names: it will not
    /// be sent there (`key_after_edit`), and the form asks for the key again.
    pub fn key_moved(&self) -> bool {
        self.saved_key_origin.is_some()
            && key_origin(self.base_url.trim()).ok() != self.saved_key_origin
    }

    /// What the empty key field says.
    pub fn key_placeholder(&self) -> &'static str {
        if self.key_moved() {
            "Enter the key again for the new address"
        } else if self.saved_key_origin.is_some() {
            "Unchanged: type a new key to replace it"
        } else if self.needs_key {
            "Your API key for this provider"
        } else {
            "Not needed for local servers"
        }
    }

    /// What happens to the key on Save: a typed key replaces it; else the saved one is kept
    /// where it still applies.
    pub fn key_edit(&self) -> KeyEdit {
        match self.key.trim() {
            "" => KeyEdit::Keep,
            typed => KeyEdit::Replace(typed.to_string()),
        }
    }

    /// The connection the form describes, with `new_id` if it is a new one. Its key is
    /// `key_edit`'s business: the connection carries none.
    pub fn connection(&self, new_id: &str) -> Connection {
        let mut c = self
            .existing
            .clone()
            .unwrap_or_else(|| Connection::openai_compatible(new_id, "", "", "", ""));
        c.label = match self.label.trim() {
            "" => "My connection".into(),
            l => l.to_string(),
        };
        c.base_url = self.base_url.trim().trim_end_matches('/').to_string();
        c.default_model = self.model.trim().to_string();
        c.context_tokens = self.context_tokens;
        c.kind = self.kind;
        c.remember_key = self.remember;
        c.send_call_header = self.call_header;
        c.concurrency = self.concurrency;
        c.effort = self.effort;
        c.stall_ms = u64::from(self.silence_s) * 1000;
        match self.schema_form {
            Some(f) => (c.schema_form, c.schema_form_known) = (f, true),
            // Found again from the start, unless a search is already under way.
            None if c.schema_form_known => {
                (c.schema_form, c.schema_form_known) = (SchemaForm::default(), false)
            }
            None => {}
        }
        c.script = self
            .scripted()
            .then(|| Script::from_json(&self.script).ok())
            .flatten();
        c
    }

    /// What Save hands the session, or what in the form is wrong.
    pub fn to_save(&self, new_id: &str) -> Result<(Connection, KeyEdit), DraftProblem> {
        if self.scripted() {
            Script::from_json(&self.script).map_err(|e| DraftProblem::Script(e.to_string()))?;
        }
        Ok((self.connection(new_id), self.key_edit()))
    }

    /// What a seat on this connection can do about web search, as the form says now.
    pub fn web_search_line(&self) -> String {
        let mut c = Connection::openai_compatible("", "", self.base_url.trim(), "", "");
        c.kind = self.kind;
        let m = self.model.trim();
        match c.web_search(m) {
            Ok(tool) => format!(
                "Web search: {m} can search the web on your key ({}); switch it on per seat on the setup screen.",
                tool.describe()
            ),
            Err(why) => format!("Web search: cannot search. {why}"),
        }
    }
}

/// A new connection's id: its name as a slug and a random tail
/// (`c-my-server-1a2b3c`).
pub fn new_connection_id(label: &str, random: u64) -> String {
    let slug: String = label
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("c-{}-{:x}", slug.trim_matches('-'), random % 1_000_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::connections::{REASONING_STALL_MS, STALL_MS};

    fn saved() -> Connection {
        let mut c = Connection::openai_compatible(
            "c-mine-1",
            "Mine",
            "https://api.example.com/v1",
            "gpt-4o-mini",
            "sk-secret",
        );
        c.schema_form = SchemaForm::JsonObjectSchema;
        c.schema_form_known = true;
        c
    }

    #[test]
    fn a_new_connection_starts_from_openai_and_a_preset_fills_every_field() {
        let mut d = ConnectionDraft::new(None);
        assert!(d.is_new());
        let c = d.connection("c-openai-1");
        assert_eq!(
            (c.id.as_str(), c.label.as_str(), c.base_url.as_str()),
            ("c-openai-1", "OpenAI", "https://api.openai.com/v1")
        );
        assert_eq!(c.default_model, "gpt-4o-mini");
        assert_eq!(c.stall_ms, STALL_MS);
        assert_eq!(d.key_placeholder(), "Your API key for this provider");

        d.pick_preset("Anthropic");
        let c = d.connection("x");
        assert_eq!(c.kind, ProviderKind::Anthropic);
        assert_eq!(c.base_url, "https://api.anthropic.com/v1");
        assert_eq!(c.default_model, "claude-sonnet-4-5");
        let local = PRESETS.iter().find(|p| !p.needs_key).unwrap();
        d.pick_preset(local.name);
        assert_eq!(d.key_placeholder(), "Not needed for local servers");
        // An unknown name changes nothing.
        let before = d.clone();
        d.pick_preset("Nobody");
        assert_eq!(d, before);
    }

    #[test]
    fn the_silence_limit_follows_the_model_until_the_user_sets_one() {
        let mut d = ConnectionDraft::new(None);
        d.set_model("o3-mini".into());
        assert_eq!(u64::from(d.silence_s()) * 1000, REASONING_STALL_MS);
        d.set_model("gpt-4o".into());
        assert_eq!(u64::from(d.silence_s()) * 1000, STALL_MS);
        d.set_effort(Some(Effort::High));
        assert_eq!(u64::from(d.silence_s()) * 1000, REASONING_STALL_MS);
        d.set_effort(None);
        d.set_silence_s(90);
        d.set_model("o3-mini".into());
        assert_eq!(d.connection("x").stall_ms, 90_000, "the user's limit stays");
        // A saved connection whose limit differs from its default keeps it too.
        let mut c = saved();
        c.stall_ms = 120_000;
        let mut d = ConnectionDraft::new(Some(c));
        d.set_model("o3-mini".into());
        assert_eq!(d.silence_s(), 120);
    }

    #[test]
    fn a_new_server_or_model_finds_its_schema_form_again() {
        let d = ConnectionDraft::new(Some(saved()));
        assert_eq!(d.schema_form, Some(SchemaForm::JsonObjectSchema));
        let c = d.connection("unused");
        assert!(c.schema_form_known);
        assert_eq!(c.schema_form, SchemaForm::JsonObjectSchema);

        let mut moved = d.clone();
        moved.set_base_url("http://127.0.0.1:8080/v1/".into());
        let c = moved.connection("unused");
        assert!(!c.schema_form_known);
        assert_eq!(c.schema_form, SchemaForm::default());
        assert_eq!(
            c.base_url, "http://127.0.0.1:8080/v1",
            "trailing slash trimmed"
        );

        let mut other = d.clone();
        other.set_model("gpt-4.1".into());
        assert!(!other.connection("unused").schema_form_known);
        // A search under way (a form tried, none known yet) is left to go on.
        let mut searching = saved();
        searching.schema_form = SchemaForm::ALL[2];
        searching.schema_form_known = false;
        let c = ConnectionDraft::new(Some(searching)).connection("unused");
        assert_eq!(
            (c.schema_form, c.schema_form_known),
            (SchemaForm::ALL[2], false)
        );
    }

    #[test]
    fn the_draft_never_holds_the_saved_key_and_says_when_it_stops_applying() {
        let mut d = ConnectionDraft::new(Some(saved()));
        assert!(!format!("{d:?}").contains("sk-secret"));
        assert_eq!(d.connection("unused").api_key, "");
        assert_eq!(d.key_edit(), KeyEdit::Keep);
        assert_eq!(
            d.key_placeholder(),
            "Unchanged: type a new key to replace it"
        );
        // Another path on the same origin: the key still applies.
        d.set_base_url("https://api.example.com/v2".into());
        assert!(!d.key_moved());
        // Another host, port or scheme: it does not.
        for url in [
            "https://evil.example.net/v1",
            "https://api.example.com:8443/v1",
            "http://api.example.com/v1",
        ] {
            d.set_base_url(url.into());
            assert!(d.key_moved(), "{url}");
            assert_eq!(
                d.key_placeholder(),
                "Enter the key again for the new address"
            );
        }
        d.key = "  sk-new  ".into();
        assert_eq!(d.key_edit(), KeyEdit::Replace("sk-new".into()));
        // A connection saved without a key never says its key moved.
        let mut keyless = saved();
        keyless.api_key.clear();
        let mut d = ConnectionDraft::new(Some(keyless));
        d.set_base_url("https://elsewhere.example/v1".into());
        assert!(!d.key_moved());
    }

    #[test]
    fn an_edit_keeps_the_id_and_a_blank_name_gets_one() {
        let mut d = ConnectionDraft::new(Some(saved()));
        d.label = "   ".into();
        d.concurrency = 4;
        d.remember = true;
        let c = d.connection("ignored");
        assert_eq!(c.id, "c-mine-1");
        assert_eq!(c.label, "My connection");
        assert_eq!((c.concurrency, c.remember_key), (4, true));
        assert_eq!(
            new_connection_id("My Server!", 0x1a2b3c),
            "c-my-server-1a2b3c"
        );
    }

    #[test]
    fn a_scripted_connection_saves_only_a_script_that_reads() {
        let mut d = ConnectionDraft::new(None);
        d.kind = ProviderKind::Scripted;
        let (c, _) = d.to_save("c-demo-1").unwrap();
        assert!(c.script.is_some(), "the demo script is offered");
        d.script = "{ not json".into();
        let e = d.to_save("c-demo-1").unwrap_err();
        assert!(
            e.to_string().starts_with("The script is not valid: "),
            "{e}"
        );
    }

    #[test]
    fn the_web_search_line_follows_the_provider() {
        let mut d = ConnectionDraft::new(None);
        assert!(d.web_search_line().contains("gpt-4o-mini is not one"));
        d.set_model("gpt-4o-mini-search-preview".into());
        let line = d.web_search_line();
        assert!(line.starts_with("Web search: gpt-4o-mini-search-preview can search"));
        d.pick_preset("Anthropic");
        assert!(d.web_search_line().contains("can search the web"));
        d.set_base_url("http://127.0.0.1:8080/v1".into());
        d.kind = ProviderKind::OpenAiCompatible;
        assert!(d
            .web_search_line()
            .starts_with("Web search: cannot search."));
    }
}
