//! Named connections to model providers. The API key lives here, in memory only: it is
//! skipped by serde, so it cannot reach IndexedDB, an export or a log by accident.

use crate::engine::script::ScriptError;
use crate::llm::dialect::Effort;
use crate::llm::openai;
use crate::llm::openai::SchemaForm;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// `/chat/completions` with SSE streaming: OpenAI, llama.cpp, Ollama, LM Studio, Groq…
    OpenAiCompatible,
    /// OpenAI-compatible, plus OpenRouter's attribution headers.
    OpenRouter,
    Anthropic,
    Gemini,
    /// A GGUF model run inside the page (`llm::inpage`): no key, no server.
    InBrowser,
    /// Plays a JSON script (the stand-in's format, `engine::script`) in the page: answers
    /// by seat, purpose and occurrence, with timing and faults. For demos and for testing
    /// an integration with no key and no network.
    Scripted,
}

impl ProviderKind {
    /// A server of its own speaking OpenAI's chat completions, where servers differ in how
    /// they take a schema. (OpenRouter routes each model to another provider: what one model
    /// refuses says nothing about the others, so it keeps OpenAI's form.)
    pub fn takes_schema_forms(self) -> bool {
        self == ProviderKind::OpenAiCompatible
    }
}

/// A provider as the connection form offers it: kind, base URL, a default model and its
/// context window.
pub struct Preset {
    pub name: &'static str,
    pub kind: ProviderKind,
    pub base_url: &'static str,
    pub model: &'static str,
    pub context_tokens: u32,
    pub needs_key: bool,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "OpenAI",
        kind: ProviderKind::OpenAiCompatible,
        base_url: "https://api.openai.com/v1",
        model: "gpt-4o-mini",
        context_tokens: 128_000,
        needs_key: true,
    },
    Preset {
        name: "Anthropic",
        kind: ProviderKind::Anthropic,
        base_url: "https://api.anthropic.com/v1",
        model: "claude-sonnet-4-5",
        context_tokens: 200_000,
        needs_key: true,
    },
    Preset {
        name: "Google Gemini",
        kind: ProviderKind::Gemini,
        base_url: "https://generativelanguage.googleapis.com/v1beta",
        model: "gemini-2.5-flash",
        context_tokens: 1_000_000,
        needs_key: true,
    },
    Preset {
        name: "OpenRouter",
        kind: ProviderKind::OpenRouter,
        base_url: "https://openrouter.ai/api/v1",
        model: "openai/gpt-4o-mini",
        context_tokens: 128_000,
        needs_key: true,
    },
    Preset {
        name: "Groq",
        kind: ProviderKind::OpenAiCompatible,
        base_url: "https://api.groq.com/openai/v1",
        model: "llama-3.3-70b-versatile",
        context_tokens: 128_000,
        needs_key: true,
    },
    Preset {
        name: "Mistral",
        kind: ProviderKind::OpenAiCompatible,
        base_url: "https://api.mistral.ai/v1",
        model: "mistral-small-latest",
        context_tokens: 32_000,
        needs_key: true,
    },
    Preset {
        name: "DeepSeek",
        kind: ProviderKind::OpenAiCompatible,
        base_url: "https://api.deepseek.com/v1",
        model: "deepseek-chat",
        context_tokens: 64_000,
        needs_key: true,
    },
    Preset {
        name: "Together",
        kind: ProviderKind::OpenAiCompatible,
        base_url: "https://api.together.xyz/v1",
        model: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
        context_tokens: 128_000,
        needs_key: true,
    },
    Preset {
        name: "Ollama",
        kind: ProviderKind::OpenAiCompatible,
        base_url: "http://localhost:11434/v1",
        model: "llama3.2",
        context_tokens: 8_192,
        needs_key: false,
    },
    Preset {
        name: "LM Studio",
        kind: ProviderKind::OpenAiCompatible,
        base_url: "http://localhost:1234/v1",
        model: "local-model",
        context_tokens: 8_192,
        needs_key: false,
    },
    Preset {
        name: "Scripted test answers (no key, no network)",
        kind: ProviderKind::Scripted,
        base_url: "",
        model: "scripted",
        context_tokens: 32_000,
        needs_key: false,
    },
    Preset {
        name: "Other OpenAI-compatible",
        kind: ProviderKind::OpenAiCompatible,
        base_url: "http://localhost:8000/v1",
        model: "",
        context_tokens: 8_192,
        needs_key: false,
    },
];

/// What a new scripted connection plays until the user edits it: every call answered with
/// generated text at a readable pace, and one scripted opening, to show the format.
pub const DEMO_SCRIPT: &str = r#"{
  "answers": [
    { "seat": "position-a", "purpose": "argument", "occurrence": 0, "chunk_delay_ms": 60,
      "text": "Cities that removed cars from their centres saw footfall rise and air quality improve within a year." }
  ],
  "default": { "chunk_delay_ms": 40 }
}"#;

/// Whether Agora builds a connection at every start or the user added it (and so it is
/// saved in this browser).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConnectionOrigin {
    BuiltIn,
    /// The default: only the user's own connections are ever stored.
    #[default]
    User,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Connection {
    pub id: String,
    #[serde(default)]
    pub origin: ConnectionOrigin,
    pub label: String,
    pub kind: ProviderKind,
    /// e.g. `https://api.openai.com/v1`; the path `/chat/completions` is appended.
    pub base_url: String,
    pub default_model: String,
    /// The model's context window; prompts are built to fit it.
    pub context_tokens: u32,
    /// Calls at once on this connection; more wait their turn.
    pub concurrency: u32,
    /// A stream that sends nothing for this long is treated as cut ("Silence limit").
    pub stall_ms: u64,
    /// Send the call's seat/purpose/path in an `X-Agora-Call` header (the test stand-in
    /// uses it to pick scripted answers; real providers do not need it).
    #[serde(default)]
    pub send_call_header: bool,
    /// The user asked to keep this key on this device (in its own localStorage entry).
    #[serde(default)]
    pub remember_key: bool,
    /// Reasoning effort for models that take one (a thinking budget on Anthropic/Gemini).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<Effort>,
    /// How the server takes a JSON Schema (OpenAI-compatible servers differ: llama.cpp's
    /// refuses OpenAI's form and takes its own). Found on the first structured calls
    /// (`session::schema_forms`) unless `schema_form_known`.
    #[serde(default)]
    pub schema_form: SchemaForm,
    /// The server answered a structured call in `schema_form` (or the user chose it): no
    /// more forms are tried.
    #[serde(default)]
    pub schema_form_known: bool,
    /// What a `Scripted` connection plays.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::engine::script::Script::deserialize_stored"
    )]
    pub script: Option<crate::engine::script::Script>,
    #[serde(skip)]
    pub api_key: String,
}

/// The silence limit of most models, and of those that think before they answer: these
/// can go minutes without a word while they reason.
pub const STALL_MS: u64 = 60_000;
pub const REASONING_STALL_MS: u64 = 300_000;

/// Model families that reason before answering, by name (a `provider/` prefix aside):
/// OpenAI's o-series and gpt-5, DeepSeek's reasoner (R1), Gemini 2.5 Pro and Flash, and
/// any "thinking" variant (Claude's on OpenRouter, Gemini's experimental ones).
pub fn thinks_before_answering(model: &str) -> bool {
    let m = model.trim().to_ascii_lowercase();
    let bare = m.rsplit('/').next().unwrap_or(&m);
    openai::is_reasoning_model(bare)
        || bare.starts_with("deepseek-reasoner")
        || bare.starts_with("deepseek-r1")
        || (bare.starts_with("gemini-2.5") && !bare.contains("lite"))
        || bare.contains("thinking")
}

/// The silence limit a connection gets unless the user sets one: longer when it asks for
/// reasoning effort (Claude's and Gemini's thinking budgets too) or its model reasons.
pub fn default_stall_ms(model: &str, effort: Option<Effort>) -> u64 {
    if effort.is_some() || thinks_before_answering(model) {
        REASONING_STALL_MS
    } else {
        STALL_MS
    }
}

/// The connections this page can use with no key, as found when it opened
/// (`session::browser::no_key_choices`): the best of them is the setup's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoKeyChoices {
    /// The run command's local model server answers.
    pub local: bool,
    /// A model file is served beside the app for the in-page model.
    pub served_model: bool,
}

impl NoKeyChoices {
    /// The connection a visitor starts with: the local server when it answers, else the
    /// model inside the page when its file is served, else none (the page offers the
    /// choices instead of a connection that would fail at once).
    pub fn best(&self) -> Option<&'static str> {
        if self.local {
            Some(Connection::LOCAL)
        } else if self.served_model {
            Some(Connection::IN_BROWSER)
        } else {
            None
        }
    }
}

pub use super::address::{key_origin, AddressProblem};

/// What an edit does to a connection's key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyEdit {
    /// Keep the saved key, where it still applies (`key_after_edit`).
    Keep,
    /// A key typed for the connection as edited.
    Replace(String),
}

/// The key a connection carries after an edit. A key is given for one origin and is never
/// sent to another: an edit that moves the base URL to another scheme, host or port drops
/// the saved key (another path on the same origin keeps it), and only a key typed for the
/// new address is used there.
pub fn key_after_edit(saved: Option<&Connection>, edited: &Connection, edit: KeyEdit) -> String {
    match edit {
        KeyEdit::Replace(key) => key.trim().to_string(),
        KeyEdit::Keep => match saved {
            Some(old) if !old.api_key.is_empty() => {
                match (key_origin(&old.base_url), key_origin(&edited.base_url)) {
                    (Ok(was), Ok(now)) if was == now => old.api_key.clone(),
                    _ => String::new(),
                }
            }
            _ => String::new(),
        },
    }
}

/// Where the run command serves the local model.
pub use crate::llm::LOCAL_MODEL_URL;
pub const LOCAL_MODEL_NAME: &str = "smollm2-135m";

impl Connection {
    /// llama.cpp's server with SmolLM2-135M, started by the README's run command. It serves
    /// one request at a time, and its window is 4,096 tokens.
    pub fn local_model() -> Self {
        Connection {
            id: Connection::LOCAL.into(),
            origin: ConnectionOrigin::BuiltIn,
            label: "Local model (no key)".into(),
            kind: ProviderKind::OpenAiCompatible,
            base_url: LOCAL_MODEL_URL.into(),
            default_model: LOCAL_MODEL_NAME.into(),
            context_tokens: 4096,
            concurrency: 1,
            stall_ms: STALL_MS,
            send_call_header: false,
            remember_key: false,
            effort: None,
            schema_form: SchemaForm::JsonObjectSchema,
            schema_form_known: true,
            script: None,
            api_key: String::new(),
        }
    }

    /// The id of the built-in connection `local_model`.
    pub const LOCAL: &'static str = "local";

    /// The id of the built-in connection `in_browser`.
    pub const IN_BROWSER: &'static str = "inpage";

    /// A model run inside this tab: no key, no server, one call at a time. Its context
    /// window is the loaded model's (set when it loads).
    pub fn in_browser() -> Self {
        Connection {
            id: Self::IN_BROWSER.into(),
            label: "In this browser (no key, no install)".into(),
            kind: ProviderKind::InBrowser,
            base_url: String::new(),
            ..Self::local_model()
        }
    }

    /// The id of the built-in connection `demo`.
    pub const DEMO: &'static str = "demo";

    /// Canned answers played in the page, streamed at a reading pace: a visitor with no key
    /// and no model sees a whole debate, every kind of finding included (structured calls get
    /// answers that fit their schema).
    pub fn demo() -> Self {
        let pace = crate::engine::script::Answer {
            chunk_delay_ms: 35,
            ..Default::default()
        };
        Connection {
            origin: ConnectionOrigin::BuiltIn,
            ..Self::scripted(
                Self::DEMO,
                "Scripted test answers (no key)",
                crate::engine::script::Script {
                    answers: Vec::new(),
                    default: Some(pace),
                },
            )
        }
    }

    /// A connection to any OpenAI-compatible endpoint.
    pub fn openai_compatible(
        id: &str,
        label: &str,
        base_url: &str,
        model: &str,
        key: &str,
    ) -> Self {
        Connection {
            id: id.into(),
            origin: ConnectionOrigin::User,
            label: label.into(),
            kind: ProviderKind::OpenAiCompatible,
            base_url: base_url.trim().trim_end_matches('/').into(),
            default_model: model.trim().into(),
            context_tokens: 16_000,
            concurrency: 4,
            stall_ms: default_stall_ms(model, None),
            send_call_header: false,
            remember_key: false,
            effort: None,
            schema_form: SchemaForm::default(),
            schema_form_known: false,
            script: None,
            api_key: key.trim().into(),
        }
    }

    /// A connection that plays `script` in the page: no key, no network, no cost.
    pub fn scripted(id: &str, label: &str, script: crate::engine::script::Script) -> Self {
        Connection {
            id: id.into(),
            origin: ConnectionOrigin::User,
            label: label.into(),
            kind: ProviderKind::Scripted,
            base_url: String::new(),
            default_model: "scripted".into(),
            context_tokens: 32_000,
            concurrency: 8,
            stall_ms: STALL_MS,
            send_call_header: false,
            remember_key: false,
            effort: None,
            schema_form: SchemaForm::default(),
            schema_form_known: false,
            script: Some(script),
            api_key: String::new(),
        }
    }

    /// Says what is wrong with the form, if anything. Save, "List the provider's models",
    /// "Test connection" and every call check this first, so a key is only ever sent to an
    /// address that passes `key_origin`.
    pub fn validate(&self) -> Result<(), ConnectionProblem> {
        use ConnectionProblem as P;
        match self.kind {
            ProviderKind::InBrowser => {}
            ProviderKind::Scripted => match &self.script {
                Some(s) => s.check().map_err(P::Script)?,
                None => {
                    return Err(P::NoScript {
                        label: self.label.clone(),
                    })
                }
            },
            _ => {
                key_origin(&self.base_url).map_err(P::Address)?;
            }
        }
        let keyless = matches!(
            self.kind,
            ProviderKind::OpenAiCompatible | ProviderKind::InBrowser | ProviderKind::Scripted
        );
        if !keyless && self.api_key.trim().is_empty() {
            return Err(P::NoKey {
                label: self.label.clone(),
            });
        }
        if self.kind == ProviderKind::OpenAiCompatible && self.default_model.trim().is_empty() {
            return Err(P::NoModel);
        }
        if !(1..=32).contains(&self.concurrency) {
            return Err(P::Concurrency);
        }
        if self.context_tokens < 1024 {
            return Err(P::ContextWindow);
        }
        if !(5_000..=3_600_000).contains(&self.stall_ms) {
            return Err(P::SilenceLimit);
        }
        Ok(())
    }

    /// What "List the provider's models" checks: everything Save checks (where the key may
    /// go above all) but the model name, which the list is there to choose.
    pub fn validate_listing(&self) -> Result<(), ConnectionProblem> {
        let mut c = self.clone();
        if c.default_model.trim().is_empty() {
            c.default_model = "listing".into();
        }
        c.validate()
    }
}

/// Why a connection cannot be saved or used. Its message never holds the key.
#[derive(Clone, Debug, PartialEq)]
pub enum ConnectionProblem {
    Address(AddressProblem),
    Script(ScriptError),
    NoScript {
        label: String,
    },
    NoKey {
        label: String,
    },
    /// An OpenAI-compatible server has no model to default to.
    NoModel,
    Concurrency,
    ContextWindow,
    SilenceLimit,
}

impl std::fmt::Display for ConnectionProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConnectionProblem::Address(a) => a.fmt(f),
            ConnectionProblem::Script(e) => write!(f, "The script is not valid: {e}."),
            ConnectionProblem::NoScript { label } => write!(f, "{label} has no script to play."),
            ConnectionProblem::NoKey { label } => write!(f, "{label} needs an API key."),
            ConnectionProblem::NoModel => {
                f.write_str("Enter the model name (for example gpt-4o-mini).")
            }
            ConnectionProblem::Concurrency => {
                f.write_str("Calls at once must be between 1 and 32.")
            }
            ConnectionProblem::ContextWindow => {
                f.write_str("The context window must be at least 1,024 tokens.")
            }
            ConnectionProblem::SilenceLimit => {
                f.write_str("The silence limit must be between 5 and 3,600 seconds.")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_key_goes_only_to_the_origin_it_was_given_for() {
        let old = Connection::openai_compatible(
            "c-1",
            "Mine",
            "https://api.example.com/v1",
            "m",
            "sk-secret",
        );
        let to = |url: &str| {
            let mut c = old.clone();
            c.api_key.clear();
            c.base_url = url.into();
            c
        };
        let keep = |url: &str| key_after_edit(Some(&old), &to(url), KeyEdit::Keep);
        assert_eq!(keep("https://api.example.com/v1"), "sk-secret");
        assert_eq!(
            keep("https://API.example.com/v2/"),
            "sk-secret",
            "same origin, other path"
        );
        for moved in [
            "https://evil.example.net/v1",
            "http://api.example.com/v1",
            "https://api.example.com:444/v1",
            "https://api.example.com.evil.net/v1",
            "not a url",
        ] {
            assert_eq!(keep(moved), "", "{moved}");
        }
        let typed = KeyEdit::Replace(" sk-new ".into());
        assert_eq!(
            key_after_edit(Some(&old), &to("https://evil.example.net/v1"), typed),
            "sk-new"
        );
        assert_eq!(
            key_after_edit(None, &to("https://api.example.com/v1"), KeyEdit::Keep),
            ""
        );
    }

    #[test]
    fn reasoning_models_get_a_longer_silence_limit_by_default() {
        for model in [
            "o1",
            "o3-mini",
            "o4-mini",
            "gpt-5",
            "gpt-5-mini",
            "openai/o3",
            "deepseek-reasoner",
            "deepseek-r1:14b",
            "gemini-2.5-pro",
            "gemini-2.5-flash",
            "anthropic/claude-3.7-sonnet:thinking",
            "gemini-2.0-flash-thinking-exp",
        ] {
            assert_eq!(default_stall_ms(model, None), 300_000, "{model}");
        }
        for model in [
            "gpt-4o-mini",
            "gpt-4.1",
            "deepseek-chat",
            "claude-sonnet-4-5",
            "gemini-2.5-flash-lite",
            "gemini-2.0-flash",
            "llama3.2",
            "smollm2-135m",
            "o1x",
        ] {
            assert_eq!(default_stall_ms(model, None), 60_000, "{model}");
        }
        // Any model asked for reasoning effort (a thinking budget on Claude and Gemini).
        assert_eq!(
            default_stall_ms("claude-sonnet-4-5", Some(Effort::Low)),
            300_000
        );
        let c = Connection::openai_compatible("c-x", "X", "https://x/v1", "o3-mini", "");
        assert_eq!(c.stall_ms, 300_000);
        assert_eq!(Connection::local_model().stall_ms, 60_000);
    }

    #[test]
    fn a_connection_saved_before_origins_existed_is_still_the_users_own() {
        let stored = r#"{"id":"c-groq-1a","label":"Groq","kind":"open_ai_compatible","base_url":"https://api.groq.com/openai/v1","default_model":"llama-3.3-70b-versatile","context_tokens":128000,"concurrency":4,"stall_ms":60000}"#;
        let c: Connection = serde_json::from_str(stored).unwrap();
        assert_eq!(c.origin, ConnectionOrigin::User);
        assert_eq!(Connection::local_model().origin, ConnectionOrigin::BuiltIn);
    }

    #[test]
    fn every_provider_kind_is_held_to_the_url_rule() {
        for kind in [
            ProviderKind::OpenAiCompatible,
            ProviderKind::OpenRouter,
            ProviderKind::Anthropic,
            ProviderKind::Gemini,
        ] {
            let mut c = Connection::openai_compatible("c-x", "X", "api.anthropic.com/v1", "m", "k");
            c.kind = kind;
            assert_eq!(
                c.validate(),
                Err(ConnectionProblem::Address(AddressProblem::NotAbsolute)),
                "{kind:?}"
            );
            c.base_url = "https://api.anthropic.com/v1".into();
            assert_eq!(c.validate(), Ok(()), "{kind:?}");
            c.default_model.clear();
            assert_eq!(
                c.validate_listing(),
                Ok(()),
                "{kind:?}: a list is how a model is chosen"
            );
            c.api_key.clear();
            assert_eq!(
                c.validate_listing().is_ok(),
                kind == ProviderKind::OpenAiCompatible
            );
            c.base_url = "http://api.anthropic.com/v1".into();
            assert_eq!(
                c.validate_listing(),
                Err(ConnectionProblem::Address(AddressProblem::PlainHttp))
            );
        }
    }

    #[test]
    fn the_in_browser_connection_needs_no_address_and_no_key() {
        let c = Connection::in_browser();
        assert_eq!((c.kind, c.concurrency), (ProviderKind::InBrowser, 1));
        assert_eq!(c.validate(), Ok(()));
        assert_eq!(c.origin, ConnectionOrigin::BuiltIn);
        // Never saved, but a stored debate names its kind, which reads back.
        let json = serde_json::to_string(&c).unwrap();
        assert!(json.contains("\"kind\":\"in_browser\""));
        assert_eq!(serde_json::from_str::<Connection>(&json).unwrap(), c);
    }

    #[test]
    fn a_silence_limit_outside_five_seconds_to_an_hour_is_refused() {
        let mut c = Connection::openai_compatible("c-x", "X", "https://x/v1", "m", "");
        c.stall_ms = 1_000;
        assert_eq!(c.validate(), Err(ConnectionProblem::SilenceLimit));
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("silence limit"));
        c.stall_ms = 5_000;
        assert!(c.validate().is_ok());
    }
}
