//! The debate's sources in its calls: the library they make (rebuilt when evidence arrives),
//! the share of a speaking seat's window kept for their passages, and the request as it
//! goes out, with passages for a speaking call and every quote's check marked.

use std::rc::Rc;

use super::super::config::Participant;
use super::super::event::Purpose;
use super::super::model::ChatRequest;
use super::super::sources::web::WebSearch;
use super::super::sources::{self, grounding, library::Library};
use super::DebateCtx;

impl DebateCtx {
    /// The library of the sources this debate has so far, if it has any.
    pub(super) fn library(&self) -> Option<Rc<Library>> {
        let mut st = self.state.borrow_mut();
        if st.sources.is_empty() {
            return None;
        }
        if st.library.is_none() {
            st.library = Some(Rc::new(Library::new(st.sources.clone())));
        }
        st.library.clone()
    }

    /// Evidence from the audience becomes a source the next calls can quote.
    pub(super) fn add_evidence(&self, text: &str) {
        let mut st = self.state.borrow_mut();
        if sources::add_evidence(&mut st.sources, text) {
            st.library = None;
        }
    }

    /// The pages a turn's web search cited become sources the next calls can quote.
    pub(super) fn add_web(&self, web: &WebSearch) {
        let mut st = self.state.borrow_mut();
        if sources::web::add_web(&mut st.sources, &web.citations) {
            st.library = None;
        }
    }

    /// The window a format fits a speaking prompt's own text in: the seat's, less the share
    /// its passages take when the debate has sources.
    pub fn speaking_window(&self, window: u32) -> u32 {
        if self.state.borrow().sources.is_empty() {
            window
        } else {
            window.min(16_000) - grounding::reserve(window)
        }
    }

    /// The request as it goes out: every quote it carries marked with its check, and, for
    /// a model's speaking turn (and a judge's, when judges read the sources), the passages
    /// most relevant to it.
    pub(super) fn ground(&self, request: &mut ChatRequest, participant: &Participant) {
        let Some(library) = self.library() else {
            return;
        };
        grounding::mark_quotes(request, &library);
        let guide = match request.purpose {
            Purpose::Argument => grounding::GUIDE,
            Purpose::Evaluation if self.state.borrow().config.judges_read_sources => {
                grounding::JUDGE_GUIDE
            }
            _ => return,
        };
        if let Participant::Model { context_tokens, .. } = participant {
            let stance = self
                .state
                .borrow()
                .config
                .seat(&request.seat)
                .and_then(|s| s.stance.clone())
                .unwrap_or_default();
            let asked = request.messages.last().map_or("", |m| m.content.as_str());
            let query = format!("{stance}\n{asked}");
            grounding::add_passages(request, guide, &library, *context_tokens, &query);
        }
    }
}
