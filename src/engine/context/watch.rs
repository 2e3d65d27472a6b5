//! Following a call while it streams, and cutting it at a sentence. Duelogic's chairs are
//! interrupted this way: a check runs on another seat while the speaker goes on, and an
//! accepted interruption ends the speech at the next sentence boundary, keeping the text up
//! to there.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use super::super::cancel::CancelToken;

/// A shared view of one call's text. Clone it into the format's checking task; give one
/// clone to the call with `CallSpec::watch`.
#[derive(Clone, Default)]
pub struct Watch(Rc<Inner>);

#[derive(Default)]
struct Inner {
    text: RefCell<String>,
    /// Bumped on every fragment, so a waiting task knows something new arrived.
    version: Cell<u64>,
    done: Cell<bool>,
    /// The text's length in bytes when a cut was asked for.
    cut_from: Cell<Option<usize>>,
    /// Where the text was cut, once it was.
    cut_at: Cell<Option<usize>>,
    cancel: RefCell<CancelToken>,
    wakers: RefCell<Vec<Waker>>,
}

impl Watch {
    pub fn new() -> Self {
        Self::default()
    }

    /// The text so far.
    pub fn text(&self) -> String {
        self.0.text.borrow().clone()
    }

    pub fn is_done(&self) -> bool {
        self.0.done.get()
    }

    /// Resolves when more text arrived since `seen` (a value from `version`), or the call
    /// ended; returns the new version, or `None` once the call has ended.
    pub fn changed(&self, seen: u64) -> Changed {
        Changed {
            watch: self.clone(),
            seen,
        }
    }

    pub fn version(&self) -> u64 {
        self.0.version.get()
    }

    /// Asks to end the call at the next sentence boundary (a sentence already ended at the
    /// current end of the text counts). No effect once the call is over.
    pub fn cut_at_sentence(&self) {
        if self.0.done.get() || self.0.cut_from.get().is_some() {
            return;
        }
        let len = self.0.text.borrow().len();
        self.0.cut_from.set(Some(len));
        // The boundary may already be there (the speaker paused right after a sentence).
        self.push("");
    }

    /// Where the text was cut, in bytes, if it was.
    pub fn cut_at(&self) -> Option<usize> {
        self.0.cut_at.get()
    }

    pub(super) fn cancel_token(&self) -> CancelToken {
        self.0.cancel.borrow().clone()
    }

    /// A new attempt at the call starts from nothing (a failed attempt's text is not kept).
    pub(super) fn reset(&self) {
        self.0.text.borrow_mut().clear();
        self.0.cut_from.set(None);
        self.0.cut_at.set(None);
        *self.0.cancel.borrow_mut() = CancelToken::new();
        self.bump();
    }

    /// Takes a fragment; returns the part of it to pass on (all of it, or the part up to
    /// the sentence boundary where a requested cut falls, after which the call is cancelled).
    pub(super) fn push(&self, fragment: &str) -> String {
        if self.0.done.get() || self.0.cut_at.get().is_some() {
            return String::new();
        }
        let before = self.0.text.borrow().len();
        self.0.text.borrow_mut().push_str(fragment);
        let mut passed = fragment.to_string();
        if let Some(from) = self.0.cut_from.get() {
            let boundary = sentence_end_from(&self.0.text.borrow(), from);
            if let Some(at) = boundary {
                self.0.text.borrow_mut().truncate(at);
                passed = fragment[..at.saturating_sub(before).min(fragment.len())].to_string();
                self.0.cut_at.set(Some(at));
                self.cancel_token().cancel();
            }
        }
        if !passed.is_empty() || fragment.is_empty() {
            self.bump();
        }
        passed
    }

    /// The call is over (finished, cut, failed or replayed with `text`).
    pub(super) fn finish(&self, text: Option<&str>) {
        if let Some(t) = text {
            *self.0.text.borrow_mut() = t.to_string();
        }
        self.0.done.set(true);
        self.bump();
    }

    fn bump(&self) {
        self.0.version.set(self.0.version.get() + 1);
        for w in self.0.wakers.borrow_mut().drain(..) {
            w.wake();
        }
    }
}

pub struct Changed {
    watch: Watch,
    seen: u64,
}

impl Future for Changed {
    type Output = Option<u64>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<u64>> {
        let inner = &self.watch.0;
        if inner.done.get() {
            return Poll::Ready(None);
        }
        if inner.version.get() != self.seen {
            return Poll::Ready(Some(inner.version.get()));
        }
        inner.wakers.borrow_mut().push(cx.waker().clone());
        Poll::Pending
    }
}

/// Characters that end a sentence, and closers that may follow them ("…end." she said).
fn ends_sentence(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…' | '。' | '！' | '？')
}
fn closes(c: char) -> bool {
    matches!(c, '"' | '\'' | '”' | '’' | ')' | ']' | '»' | '」' | '』')
}

/// The byte offsets just after each sentence end in `text`, in order. A full stop (or ! ?
/// …) with any closers after it must be followed by white space to count: the space may
/// not have arrived yet, and "3.5" or "e.g" are no ends. CJK full stops end a sentence by
/// themselves.
pub fn sentence_ends(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !ends_sentence(c) {
            continue;
        }
        let mut end = i + c.len_utf8();
        while let Some(&(j, n)) = chars.peek() {
            if ends_sentence(n) || closes(n) {
                end = j + n.len_utf8();
                chars.next();
            } else {
                break;
            }
        }
        let cjk = matches!(c, '。' | '！' | '？');
        match chars.peek() {
            Some(&(_, n)) if n.is_whitespace() || cjk => out.push(end),
            None if cjk => out.push(end),
            _ => {}
        }
    }
    out
}

/// The first sentence end not before `from`; punctuation just before `from` counts, so a
/// cut asked right after "point." (its space not yet arrived) ends there.
pub fn sentence_end_from(text: &str, from: usize) -> Option<usize> {
    let mut start = from.min(text.len());
    while let Some(c) = text[..start].chars().next_back() {
        if ends_sentence(c) || closes(c) {
            start -= c.len_utf8();
        } else {
            break;
        }
    }
    sentence_ends(text).into_iter().find(|&e| e > start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentence_ends_need_space_after_a_full_stop() {
        assert_eq!(sentence_end_from("It costs 3.5 units. Then", 0), Some(19));
        assert_eq!(sentence_end_from("Wait", 0), None);
        assert_eq!(sentence_end_from("He said \"no.\" Then", 0), Some(13));
        assert_eq!(sentence_end_from("First. Second. Third", 8), Some(14));
        // Asked just after "First." (before its space arrived): that sentence counts.
        assert_eq!(sentence_end_from("First. Second", 6), Some(6));
        assert_eq!(sentence_end_from("这是第一句。这是", 3), Some(18));
        assert_eq!(sentence_end_from("Really?! Yes", 0), Some(8));
        assert_eq!(sentence_ends("One. Two! Three"), vec![4, 9]);
    }

    #[test]
    fn a_cut_keeps_the_text_up_to_the_boundary_even_inside_one_fragment() {
        let w = Watch::new();
        assert_eq!(w.push("I will make "), "I will make ");
        w.cut_at_sentence();
        assert!(!w.cancel_token().is_cancelled());
        let passed = w.push("my point. And then go on. More");
        assert_eq!(passed, "my point.");
        assert_eq!(w.text(), "I will make my point.");
        assert!(w.cancel_token().is_cancelled());
        assert_eq!(w.push(" ignored"), "");
        assert_eq!(w.cut_at(), Some(21));
    }
}
