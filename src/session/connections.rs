//! Named connections to model providers. The API key lives here, in memory only: it is
//! skipped by serde, so it cannot reach IndexedDB, an export or a log by accident.

use crate::llm::dialect::Effort;
use crate::llm::openai;
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
        name: "Other OpenAI-compatible",
        kind: ProviderKind::OpenAiCompatible,
        base_url: "http://localhost:8000/v1",
        model: "",
        context_tokens: 8_192,
        needs_key: false,
    },
];

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

/// Where the run command serves the local model.
pub const LOCAL_MODEL_URL: &str = "http://127.0.0.1:8081/v1";
pub const LOCAL_MODEL_NAME: &str = "smollm2-135m";

impl Connection {
    /// llama.cpp's server with SmolLM2-135M, started by the README's run command. It serves
    /// one request at a time, and its window is 4,096 tokens.
    pub fn local_model() -> Self {
        Connection {
            id: "local".into(),
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
            api_key: String::new(),
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
            api_key: key.trim().into(),
        }
    }

    /// Says what is wrong with the form, if anything.
    pub fn validate(&self) -> Result<(), String> {
        if self.kind == ProviderKind::OpenAiCompatible {
            let u = self.base_url.trim();
            if !(u.starts_with("http://") || u.starts_with("https://")) {
                return Err("The base URL must start with http:// or https:// (for example https://api.openai.com/v1).".into());
            }
            if self.default_model.trim().is_empty() {
                return Err("Enter the model name (for example gpt-4o-mini).".into());
            }
        }
        if !(1..=32).contains(&self.concurrency) {
            return Err("Calls at once must be between 1 and 32.".into());
        }
        if self.context_tokens < 1024 {
            return Err("The context window must be at least 1,024 tokens.".into());
        }
        if !(5_000..=3_600_000).contains(&self.stall_ms) {
            return Err("The silence limit must be between 5 and 3,600 seconds.".into());
        }
        Ok(())
    }

    /// "model via label", for error messages (never includes the key).
    pub fn describe(&self, model: &str) -> String {
        format!("{} ({model})", self.label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_silence_limit_outside_five_seconds_to_an_hour_is_refused() {
        let mut c = Connection::openai_compatible("c-x", "X", "https://x/v1", "m", "");
        c.stall_ms = 1_000;
        assert!(c.validate().unwrap_err().contains("silence limit"));
        c.stall_ms = 5_000;
        assert!(c.validate().is_ok());
    }
}
