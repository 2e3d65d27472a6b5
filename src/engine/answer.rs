//! Reading a model's structured answer: what can be wrong with one (`Problem`), why a
//! structured call brought nothing usable (`Unread`), and what such a call returns
//! (`Structured`: the call's key beside the value or the reason).
//!
//! A problem is data, not a sentence: the repair request, the "not scored" entry and the
//! `StructuredRead` event all word it through `Display`, and nothing parses the words back.

use std::fmt;

use super::event::CallKey;

/// What is wrong with an answer, naming the field where there is one.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// Nothing but whitespace came back.
    Empty,
    /// Text came back, but no JSON value could be found in it.
    NotJson,
    /// A field the answer must have is absent.
    Missing { field: String },
    /// A field is there but not what it must be; `must` completes "`field` must …"
    /// ("be a list", "be a number from 0 to 10", "name the role ids you rebut").
    Wrong { field: String, must: String },
    /// A problem inside one part of the answer (an item of a list: "side 2", "shift 1").
    In { part: String, problem: Box<Problem> },
    /// A rule across fields, said whole ("`shifts` names none of the participants").
    Rule(String),
}

impl Problem {
    pub fn missing(field: impl Into<String>) -> Self {
        Problem::Missing {
            field: field.into(),
        }
    }

    pub fn wrong(field: impl Into<String>, must: impl Into<String>) -> Self {
        Problem::Wrong {
            field: field.into(),
            must: must.into(),
        }
    }

    pub fn rule(text: impl Into<String>) -> Self {
        Problem::Rule(text.into())
    }

    /// This problem, as found inside `part` of the answer.
    pub fn within(self, part: impl Into<String>) -> Self {
        Problem::In {
            part: part.into(),
            problem: Box::new(self),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Empty => f.write_str("the answer was empty"),
            Problem::NotJson => f.write_str("the answer contained no valid JSON object"),
            Problem::Missing { field } => write!(f, "`{field}` is missing"),
            Problem::Wrong { field, must } => write!(f, "`{field}` must {must}"),
            Problem::In { part, problem } => write!(f, "{part}: {problem}"),
            Problem::Rule(text) => f.write_str(text),
        }
    }
}

/// Why a structured call brought no value.
#[derive(Clone, Debug, PartialEq)]
pub enum Unread {
    /// No answer came: the call failed after its retries, was stopped short, or was
    /// skipped (no room under the spending cap). `message` says which.
    NoAnswer { message: String },
    /// Answers came, but neither the first nor its repair could be read. `problem` is the
    /// last one found.
    Unreadable { problem: Problem },
}

impl fmt::Display for Unread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unread::NoAnswer { message } => write!(f, "no answer came ({message})"),
            Unread::Unreadable { problem } => {
                write!(
                    f,
                    "the answer could not be read, even after a repair: {problem}"
                )
            }
        }
    }
}

/// What a structured call returns: the key of the call whose answer was read (the repair's
/// when a repair was needed), and the value read or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub struct Structured<T> {
    pub key: CallKey,
    pub read: Result<T, Unread>,
}

impl<T> Structured<T> {
    pub fn ok(self) -> Option<T> {
        self.read.ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_says_which_field_and_where() {
        let p = Problem::wrong("score", "be a number from 0 to 10").within("side 2");
        assert_eq!(
            p.to_string(),
            "side 2: `score` must be a number from 0 to 10"
        );
        assert_eq!(
            Problem::missing("claims").to_string(),
            "`claims` is missing"
        );
        let u = Unread::Unreadable {
            problem: Problem::missing("aspects"),
        };
        assert_eq!(
            u.to_string(),
            "the answer could not be read, even after a repair: `aspects` is missing"
        );
    }
}
