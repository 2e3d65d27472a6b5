//! Which connections can search the web on the user's key, and a search that fails: the
//! call is made again without it, and the turn says so (it is never lost to the search).

use super::connections::{Connection, ProviderKind};
use crate::engine::model::{ChatRequest, ChatResponse, ErrorKind, ModelError};
use crate::engine::sources::web::WebSearch;
use crate::llm::openai::is_search_model;
use crate::llm::web_search::SearchTool;

fn host(base_url: &str) -> &str {
    let rest = base_url.split_once("://").map_or(base_url, |(_, r)| r);
    rest.split(['/', ':', '?', '#']).next().unwrap_or(rest)
}

/// The model's own name, without a router's `provider/` prefix, lowercased.
fn bare(model: &str) -> String {
    let m = model.trim().to_ascii_lowercase();
    m.rsplit('/').next().unwrap_or(&m).to_string()
}

impl Connection {
    /// The provider's search this connection's `model` can use, or why it cannot, worded
    /// for the connection form and the seat's toggle: the family's tool (`search_tool`),
    /// when the model is one that takes it.
    pub fn web_search(&self, model: &str) -> Result<SearchTool, String> {
        let Some(tool) = self.search_tool() else {
            return Err(match self.kind {
                ProviderKind::InBrowser => "The model in this browser cannot search the web.".into(),
                ProviderKind::Scripted => "A scripted connection plays its script; it does not search.".into(),
                _ => "This server has no web search Agora knows of (OpenAI, Anthropic, Gemini and OpenRouter have one).".into(),
            });
        };
        let m = bare(model);
        let why_not = match tool {
            SearchTool::OpenRouter => None,
            SearchTool::Anthropic => {
                let old = ["claude-2", "claude-instant", "claude-3-haiku", "claude-3-opus", "claude-3-sonnet"];
                old.iter().any(|o| m.starts_with(o)).then(|| format!("{model} predates Anthropic's web search tool; Claude 3.5 Haiku and later can search."))
            }
            SearchTool::Gemini => (m.starts_with("gemini-1.") || !m.starts_with("gemini")).then(|| format!("{model} cannot use Google Search grounding as Agora asks for it (the google_search tool); Gemini 2.0 and later can.")),
            SearchTool::OpenAi => (!is_search_model(&m)).then(|| format!("On Chat Completions OpenAI searches only with its search models; {model} is not one. Choose gpt-4o-mini-search-preview or gpt-4o-search-preview for a seat that searches.")),
        };
        why_not.map_or(Ok(tool), Err)
    }

    /// The search tool of this connection's provider family, whatever the model: what its
    /// transport adds to a call that asks for a search (the router drops the request for a
    /// model that cannot).
    pub fn search_tool(&self) -> Option<SearchTool> {
        match self.kind {
            ProviderKind::OpenRouter => Some(SearchTool::OpenRouter),
            ProviderKind::Anthropic => Some(SearchTool::Anthropic),
            ProviderKind::Gemini => Some(SearchTool::Gemini),
            ProviderKind::OpenAiCompatible if host(&self.base_url) == "api.openai.com" => {
                Some(SearchTool::OpenAi)
            }
            _ => None,
        }
    }
}

/// Whether a failed call with a search is worth asking again without it: the provider
/// refused the request itself before any of the answer arrived, with a 4xx that is not
/// the key or a rate limit (OpenRouter answers 404 for a model with no tool use; a model
/// that is really missing fails the plain call too, and that error stands).
pub fn refused_the_search(req: &ChatRequest, e: &ModelError) -> bool {
    req.search_web
        && matches!(e.kind, ErrorKind::BadRequest | ErrorKind::NotFound)
        && e.partial.is_empty()
}

/// The call as it is really sent on `conn`: without its search when the model cannot search
/// (what the Request view shows and the spending cap reserves).
pub fn as_sent(conn: &Connection, req: &ChatRequest) -> Option<ChatRequest> {
    (req.search_web && conn.web_search(&req.model).is_err()).then(|| without_search(req))
}

/// The same call without its search.
pub fn without_search(req: &ChatRequest) -> ChatRequest {
    ChatRequest {
        search_web: false,
        ..req.clone()
    }
}

/// A turn written without the search it asked for, saying why.
pub fn written_without(mut r: ChatResponse, why: String) -> ChatResponse {
    r.web = Some(WebSearch::failed(why));
    r
}

/// Why the search failed, for the turn: what the provider said, never Agora's words twice.
pub fn refusal(e: &ModelError) -> String {
    let said = if e.detail.is_empty() {
        e.message.as_str()
    } else {
        e.detail.as_str()
    };
    format!("The provider refused the web search ({said}); this turn was written without it.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cancel::CancelToken;
    use crate::engine::event::{FinishReason, Purpose, Usage};
    use crate::engine::model::{ChatMessage, ChatModel};
    use crate::engine::sources::web::Citation;
    use crate::session::router::Router;
    use futures::future::LocalBoxFuture;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// A provider that refuses any request with a search (as a proxy without the tool
    /// would), answers the rest, and keeps what it was asked.
    struct Refuses {
        asked: RefCell<Vec<bool>>,
        /// The status a search is refused with, if it is.
        refuse: Option<u16>,
    }

    impl ChatModel for Refuses {
        fn complete<'a>(
            &'a self,
            req: &'a ChatRequest,
            _: &'a dyn Fn(&str),
            _: &'a CancelToken,
        ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
            self.asked.borrow_mut().push(req.search_web);
            Box::pin(async move {
                if let Some(status) = self.refuse.filter(|_| req.search_web) {
                    return Err(crate::llm::openai::http_error(
                        status,
                        r#"{"error":{"message":"tools.0: Input tag 'web_search_20250305' is not supported"}}"#,
                        None,
                        "Proxy (claude)",
                        "",
                    ));
                }
                let mut web = WebSearch::default();
                if req.search_web {
                    // A page that echoes the key back: it never travels further.
                    web.cite(
                        Citation::new("https://a.example/", "A", "words sk-ant-test").unwrap(),
                    );
                }
                Ok(ChatResponse {
                    text: "An answer.".into(),
                    reasoning: String::new(),
                    usage: Usage::default(),
                    finish: FinishReason::Stop,
                    web: req.search_web.then_some(web),
                })
            })
        }
    }

    fn ask(c: Connection, model: &str, refuse: Option<u16>) -> (Vec<bool>, ChatResponse) {
        let can = c.web_search(model).is_ok();
        let fake = Rc::new(Refuses {
            asked: RefCell::new(Vec::new()),
            refuse,
        });
        let provider = fake.clone();
        let router = Router::new(
            Rc::new(RefCell::new(vec![c])),
            Rc::new(move |_: &Connection| provider.clone() as Rc<dyn ChatModel>),
        );
        let req = ChatRequest {
            connection: "c".into(),
            model: model.into(),
            seat: "position-a".into(),
            purpose: Purpose::Argument,
            call: "opening/position-a".into(),
            messages: vec![ChatMessage::user("Argue.")],
            temperature: None,
            max_tokens: 100,
            json: false,
            schema: None,
            search_web: true,
        };
        let r = futures::executor::block_on(router.complete(&req, &|_| {}, &CancelToken::new()))
            .unwrap();
        let asked = fake.asked.borrow().clone();
        // The Request view shows the call as it went: a model that cannot search was
        // asked without it.
        let shown = router.describe(&req);
        assert_eq!(shown.contains("search_web"), can, "{shown}");
        (asked, r)
    }

    #[test]
    fn a_search_the_provider_refuses_is_asked_again_without_it_and_the_turn_says_so() {
        let mut claude = conn(ProviderKind::Anthropic, "https://proxy.example/v1");
        claude.api_key = "sk-ant-test".into();
        let (asked, r) = ask(claude.clone(), "claude-sonnet-4-5", Some(400));
        assert_eq!(asked, [true, false]);
        assert_eq!(r.text, "An answer.");
        let failed = r.web.unwrap().failed;
        assert!(failed.contains("refused the web search"), "{failed}");
        assert!(
            failed.contains("not supported"),
            "the provider's own words: {failed}"
        );

        // OpenRouter's way of saying a model has no tool use: a 404.
        let (asked, _) = ask(claude.clone(), "claude-sonnet-4-5", Some(404));
        assert_eq!(asked, [true, false]);

        let (asked, r) = ask(claude, "claude-sonnet-4-5", None);
        assert_eq!(asked, [true]);
        let web = r.web.unwrap();
        assert_eq!(web.citations.len(), 1);
        assert!(
            !web.citations[0].cited_text.contains("sk-ant-test"),
            "the key never travels on"
        );
    }

    #[test]
    fn a_model_that_cannot_search_is_asked_without_it_and_the_turn_says_why() {
        let local = conn(ProviderKind::OpenAiCompatible, "http://localhost:8081/v1");
        let (asked, r) = ask(local, "smollm2", None);
        assert_eq!(asked, [false], "no search goes to a server that has none");
        assert!(r.web.unwrap().failed.contains("no web search"));
    }

    fn conn(kind: ProviderKind, base: &str) -> Connection {
        let mut c = Connection::openai_compatible("c", "C", base, "m", "");
        c.kind = kind;
        c
    }

    #[test]
    fn each_provider_that_searches_on_the_users_key_says_so_and_the_rest_say_why_not() {
        let openai = conn(ProviderKind::OpenAiCompatible, "https://api.openai.com/v1");
        assert_eq!(
            openai.web_search("gpt-4o-mini-search-preview"),
            Ok(SearchTool::OpenAi)
        );
        let no = openai.web_search("gpt-4o-mini").unwrap_err();
        assert!(no.contains("gpt-4o-mini-search-preview"), "{no}");

        let router = conn(ProviderKind::OpenRouter, "https://openrouter.ai/api/v1");
        assert_eq!(
            router.web_search("meta-llama/llama-3.3-70b"),
            Ok(SearchTool::OpenRouter)
        );

        let claude = conn(ProviderKind::Anthropic, "https://api.anthropic.com/v1");
        assert_eq!(
            claude.web_search("claude-sonnet-4-5"),
            Ok(SearchTool::Anthropic)
        );
        assert!(claude.web_search("claude-3-haiku-20240307").is_err());

        let gemini = conn(
            ProviderKind::Gemini,
            "https://generativelanguage.googleapis.com/v1beta",
        );
        assert_eq!(
            gemini.web_search("gemini-2.5-flash"),
            Ok(SearchTool::Gemini)
        );
        assert!(gemini.web_search("gemini-1.5-pro").is_err());
        assert!(gemini.web_search("gemma-3-27b-it").is_err());

        for (kind, base) in [
            (ProviderKind::OpenAiCompatible, "http://localhost:11434/v1"),
            (
                ProviderKind::OpenAiCompatible,
                "https://api.groq.com/openai/v1",
            ),
            (ProviderKind::InBrowser, ""),
            (ProviderKind::Scripted, ""),
        ] {
            let c = conn(kind, base);
            assert!(c.web_search("any").is_err(), "{kind:?} {base}");
            assert_eq!(c.search_tool(), None);
        }
        // A look-alike host is not OpenAI's.
        let fake = conn(
            ProviderKind::OpenAiCompatible,
            "https://api.openai.com.evil.example/v1",
        );
        assert!(fake.web_search("gpt-4o-search-preview").is_err());
    }
}
