//! Calls that wait for their user: a tool of a provider loop that asks (`ctx.elicit`,
//! `ctx.confirm`, `#[tool(confirm)]`) is deferred rather than failed. The application shows
//! the question, records the reply on the [`Waiting`] call and [resumes](super::Definitions::resume)
//! the answer (`resume.rs`): the deferred calls run again from the start with the reply (the rule of
//! [`elicit::Replay`](crate::elicit::Replay): ask before side effects).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::elicit::{Asked, Question, Reply};
use crate::failure::ToolFailure;

/// A call that asked its user a question, waiting for the reply: the question, what the call
/// was answered before, and the reply once the application records it.
///
/// A `#[tool(confirm)]` tool waits before its body runs: its question is a yes/no one
/// ([`is_confirmation`](Self::is_confirmation)) whose message is the summary of the exact
/// arguments; [`approve`](Self::approve) runs it, [`deny`](Self::deny) answers the model that
/// the user did not approve.
#[derive(Debug, Clone, PartialEq)]
pub struct Waiting(Box<Inner>);

/// Boxed: a [`CallOutcome`] that does not wait carries one word for it.
#[derive(Debug, Clone, PartialEq)]
struct Inner {
    asked: Asked,
    /// Replies to the questions asked before this one, by key.
    answers: BTreeMap<String, Value>,
    reply: Option<Reply>,
}

impl Waiting {
    pub(super) fn new(asked: Asked, answers: BTreeMap<String, Value>) -> Self {
        Self(Box::new(Inner {
            asked,
            answers,
            reply: None,
        }))
    }

    /// What the tool asks.
    #[must_use]
    pub fn question(&self) -> &Question {
        &self.0.asked.question
    }

    /// The question's message, as the user should see it.
    #[must_use]
    pub fn message(&self) -> &str {
        self.0.asked.question.message()
    }

    /// Whether the question is a yes/no one (`ctx.confirm`, `#[tool(confirm)]`: a form with no
    /// fields), where accepting is the yes.
    #[must_use]
    pub fn is_confirmation(&self) -> bool {
        self.0.asked.question.is_confirm()
    }

    /// Records the user's reply; the next
    /// [`Definitions::resume`](super::Definitions::resume) runs the call with it.
    pub fn reply(&mut self, reply: Reply) {
        self.0.reply = Some(reply);
    }

    /// Records a yes (an approval, or agreeing to visit a URL).
    pub fn approve(&mut self) {
        self.reply(Reply::accept());
    }

    /// Records a no.
    pub fn deny(&mut self) {
        self.reply(Reply::decline());
    }

    /// Records a filled-in form: `content` must fit the question's schema (the tool refuses
    /// it otherwise, as a failure answered to the model).
    pub fn fill(&mut self, content: Map<String, Value>) {
        self.reply(Reply::accept_with(content));
    }

    /// The reply recorded, if any.
    #[must_use]
    pub fn replied(&self) -> Option<&Reply> {
        self.0.reply.as_ref()
    }

    /// The answers the call runs again with: the earlier ones and the reply.
    pub(super) fn answers_with_reply(&self) -> Option<BTreeMap<String, Value>> {
        let reply = self.0.reply.as_ref()?;
        let mut answers = self.0.answers.clone();
        answers.insert(self.0.asked.key.clone(), reply.to_json());
        Some(answers)
    }
}

/// What a waiting call answers the model if the application sends the answer's messages
/// without resolving it first: a terminal failure saying what it waits for.
pub(super) fn waiting_failure(tool: &str, waiting: &Waiting) -> ToolFailure {
    ToolFailure::terminal(format!(
        "`{tool}` is waiting for the user to answer: {}",
        waiting.message()
    ))
    .with_code("input_required")
}
