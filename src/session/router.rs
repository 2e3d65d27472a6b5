//! Routes each call to its seat's connection, and admits calls through that connection's
//! cap on calls at once.

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;

use super::connections::Connection;
use super::error::SessionError;
use super::schema_forms::{self, Lesson};
use super::searching;
use crate::engine::cancel::CancelToken;
use crate::engine::limiter::Limiter;
use crate::engine::model::{
    Admission, Ceiling, ChatModel, ChatRequest, ChatResponse, ErrorKind, ModelError,
};
use crate::llm::redact::{redact_error, redact_key, redact_streaming};
use std::collections::HashMap;

/// Makes the model object for a connection (a provider transport; a scripted model in tests).
pub type ProviderFactory = Rc<dyn Fn(&Connection) -> Rc<dyn ChatModel>>;

pub struct Router {
    connections: Rc<RefCell<Vec<Connection>>>,
    limiters: RefCell<HashMap<String, (u32, Rc<Limiter>)>>,
    providers: ProviderFactory,
    /// Each connection's model object, rebuilt only when the connection or its key changes.
    cache: RefCell<ModelCache>,
    /// Told when a call settled or moved a connection's schema form, so it is saved.
    on_learned: RefCell<Option<Rc<dyn Fn()>>>,
    /// When set, a call admitted in the same task as another goes on after a sleep of 0
    /// (see `SessionEnv::pace_calls`); `Pace::burst` says a call was admitted in this task.
    pace: RefCell<Option<Pace>>,
}

struct Pace {
    clock: Rc<dyn crate::engine::clock::Clock>,
    spawn: Rc<dyn Fn(LocalBoxFuture<'static, ()>)>,
    burst: Rc<std::cell::Cell<bool>>,
}

impl Router {
    pub fn new(connections: Rc<RefCell<Vec<Connection>>>, providers: ProviderFactory) -> Self {
        Router {
            connections,
            limiters: RefCell::new(HashMap::new()),
            providers,
            cache: RefCell::new(HashMap::new()),
            on_learned: RefCell::new(None),
            pace: RefCell::new(None),
        }
    }

    /// Paces calls that start together; `spawn` runs a task after the current one's work
    /// (a microtask in the browser).
    pub fn pace_with(
        &self,
        clock: Rc<dyn crate::engine::clock::Clock>,
        spawn: Rc<dyn Fn(LocalBoxFuture<'static, ()>)>,
    ) {
        *self.pace.borrow_mut() = Some(Pace {
            clock,
            spawn,
            burst: Rc::new(std::cell::Cell::new(false)),
        });
    }

    /// Waits for the page's next turn if another call was admitted in this task: calls
    /// that start together (a forecast round's five) each go on in a task of their own,
    /// and a call that starts alone goes at once.
    async fn pace(&self) {
        let clock = {
            let pace = self.pace.borrow();
            let Some(p) = pace.as_ref() else { return };
            if !p.burst.replace(true) {
                let burst = p.burst.clone();
                (p.spawn)(Box::pin(async move { burst.set(false) }));
                return;
            }
            p.clock.clone()
        };
        clock.sleep(0).await;
    }

    pub fn on_learned(&self, f: Rc<dyn Fn()>) {
        *self.on_learned.borrow_mut() = Some(f);
    }

    /// Keeps what a structured call taught about its connection's schema form. The form
    /// only moves from the one the call was sent in: calls refused together move it once.
    fn learn(
        &self,
        conn: &Connection,
        req: &ChatRequest,
        result: Result<ChatResponse, ModelError>,
    ) -> Result<ChatResponse, ModelError> {
        let Some(lesson) = schema_forms::lesson(conn, req, &result) else {
            return result;
        };
        let (form, known) = match lesson {
            Lesson::Works => (conn.schema_form, true),
            Lesson::Refused { next } => (next, false),
        };
        let (changed, now) = {
            let mut list = self.connections.borrow_mut();
            match list.iter_mut().find(|c| c.id == conn.id) {
                Some(c) if c.schema_form == conn.schema_form && !c.schema_form_known => {
                    c.schema_form = form;
                    c.schema_form_known = known;
                    (true, form)
                }
                Some(c) => (false, c.schema_form),
                None => (false, form),
            }
        };
        if changed {
            let hook = self.on_learned.borrow().clone();
            if let Some(f) = hook {
                f();
            }
        }
        match (lesson, result) {
            // Another call settled the form meanwhile (the server answered it): this refusal
            // was something else, and goes on as the error it is.
            (Lesson::Refused { .. }, Err(e)) if now == conn.schema_form => Err(e),
            (Lesson::Refused { .. }, Err(e)) => {
                Err(schema_forms::refused(e, conn.schema_form, now))
            }
            (_, result) => result,
        }
    }

    /// Makes the call, with its web search when it asks for one and the connection's model
    /// can: a model that cannot is asked without it, and a search the provider refuses is
    /// asked again without it. Either way the turn says it was written without a search.
    async fn search_or_not(
        &self,
        conn: &Connection,
        model: &dyn ChatModel,
        req: &ChatRequest,
        on_delta: &dyn Fn(&str),
        cancel: &CancelToken,
    ) -> Result<ChatResponse, ModelError> {
        if !req.search_web {
            return model.complete(req, on_delta, cancel).await;
        }
        if let Err(why) = conn.web_search(&req.model) {
            let plain = searching::without_search(req);
            let r = model.complete(&plain, on_delta, cancel).await?;
            return Ok(searching::written_without(r, why));
        }
        match model.complete(req, on_delta, cancel).await {
            Err(e) if searching::refused_the_search(req, &e) => {
                let plain = searching::without_search(req);
                let r = model.complete(&plain, on_delta, cancel).await?;
                Ok(searching::written_without(
                    r,
                    redact_error(&searching::refusal(&e), &conn.api_key),
                ))
            }
            other => other,
        }
    }

    fn limiter(&self, c: &Connection) -> Rc<Limiter> {
        let mut l = self.limiters.borrow_mut();
        let entry = l
            .entry(c.id.clone())
            .or_insert_with(|| (c.concurrency, Limiter::new(c.concurrency)));
        if entry.0 != c.concurrency {
            *entry = (c.concurrency, Limiter::new(c.concurrency));
        }
        entry.1.clone()
    }

    fn connection(&self, id: &str) -> Option<Connection> {
        self.connections
            .borrow()
            .iter()
            .find(|c| c.id == id)
            .cloned()
    }

    /// The models a connection offers (it may be a draft not saved yet, checked here as
    /// Save checks it, but for the model name); errors never carry its key.
    pub async fn list_models(&self, c: &Connection) -> Result<Vec<String>, SessionError> {
        c.validate_listing()?;
        (self.providers)(c)
            .list_models()
            .await
            .map_err(|e| SessionError::Call(redact_error(&e.message, &c.api_key)))
    }

    fn model(&self, c: &Connection) -> Rc<dyn ChatModel> {
        let mut cache = self.cache.borrow_mut();
        if let Some((conn, m)) = cache.get(c.id.as_str()) {
            if conn == c && conn.api_key == c.api_key {
                return m.clone();
            }
        }
        let m = (self.providers)(c);
        cache.insert(c.id.clone(), (c.clone(), m.clone()));
        m
    }
}

/// Each connection's model object, by connection id, with the connection it was built for.
type ModelCache = HashMap<String, (Connection, Rc<dyn ChatModel>)>;

/// A connection that does not pass `Connection::validate` (one saved by an older Agora, or
/// edited in storage) is never called: its key could go to an address it was not meant for.
fn checked(c: Connection) -> Result<Connection, ModelError> {
    match c.validate() {
        Ok(()) => Ok(c),
        Err(e) => Err(ModelError::new(
            ErrorKind::BadRequest,
            format!("{e} Fix it under Edit connection, then resume."),
        )),
    }
}

fn not_set_up(id: &str) -> ModelError {
    ModelError::new(
        ErrorKind::NotFound,
        format!(
            "The connection `{id}` is not set up in this tab. Add it (and its key) under Connections, then resume."
        ),
    )
}

impl ChatModel for Router {
    /// A place among the connection's calls at once (the engine shows the call as queued
    /// while it waits).
    fn admit<'a>(
        &'a self,
        req: &'a ChatRequest,
        wait: bool,
    ) -> LocalBoxFuture<'a, Result<Admission, ModelError>> {
        Box::pin(async move {
            let conn = self
                .connection(&req.connection)
                .ok_or_else(|| not_set_up(&req.connection))?;
            match self.limiter(&conn).place(wait).await {
                Some(p) => {
                    self.pace().await;
                    Ok(Box::new(p) as Admission)
                }
                None => Err(ModelError::new(
                    ErrorKind::Busy,
                    format!(
                        "{} is busy with the speech this check is about (it takes {} at once), so the check was skipped rather than run after the speech.",
                        conn.label,
                        crate::engine::reading::count(conn.concurrency as usize, "call")
                    ),
                )),
            }
        })
    }

    fn complete<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: &'a dyn Fn(&str),
        cancel: &'a CancelToken,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        Box::pin(async move {
            let conn = self
                .connection(&req.connection)
                .ok_or_else(|| not_set_up(&req.connection))?;
            let conn = checked(conn)?;
            let model = self.model(&conn);
            let result = self
                .search_or_not(&conn, &*model, req, on_delta, cancel)
                .await;
            let result = self.learn(&conn, req, result);
            // Whatever a provider echoes back, the key does not travel further. Its error
            // text may hold part of a key, so key-shaped words go too; what the model said
            // is shown as said, only the real key replaced.
            match result {
                Ok(mut r) => {
                    r.text = redact_key(&r.text, &conn.api_key);
                    r.reasoning = redact_key(&r.reasoning, &conn.api_key);
                    if let Some(web) = &mut r.web {
                        web.failed = redact_error(&web.failed, &conn.api_key);
                        for c in &mut web.citations {
                            c.title = redact_key(&c.title, &conn.api_key);
                            c.cited_text = redact_key(&c.cited_text, &conn.api_key);
                        }
                    }
                    Ok(r)
                }
                Err(mut e) => {
                    e.message = redact_error(&e.message, &conn.api_key);
                    // Cut off mid-stream: a key may end it half-written.
                    e.partial = redact_streaming(&e.partial, &conn.api_key);
                    Err(e)
                }
            }
        })
    }

    fn ceiling(&self, req: &ChatRequest) -> Ceiling {
        match self.connection(&req.connection) {
            Some(c) => {
                let sent = searching::as_sent(&c, req);
                self.model(&c).ceiling(sent.as_ref().unwrap_or(req))
            }
            None => Ceiling::of(req),
        }
    }

    fn describe(&self, req: &ChatRequest) -> String {
        match self.connection(&req.connection) {
            Some(c) => {
                let sent = searching::as_sent(&c, req);
                let shown = self.model(&c).describe(sent.as_ref().unwrap_or(req));
                redact_key(&shown, &c.api_key)
            }
            None => String::new(),
        }
    }
}
