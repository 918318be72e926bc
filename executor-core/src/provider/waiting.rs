//! Calls that wait for their user: a tool of a provider loop that asks (`ctx.elicit`,
//! `ctx.confirm`, `#[tool(confirm)]`) is deferred rather than failed. The application shows
//! the question, records the reply on the [`Waiting`] call and [resumes](Definitions::resume)
//! the answer: the deferred calls run again from the start with the reply (the rule of
//! [`elicit::Replay`](crate::elicit::Replay): ask before side effects).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::answer::{Answer, CallOutcome, run_all_in};
use super::definitions::Definitions;
use crate::elicit::{Asked, Question, Reply};
use crate::failure::ToolFailure;
use crate::tool::{Extensions, ToolExecutor};

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
        match &self.0.asked.question {
            Question::Form { message, .. } | Question::Url { message, .. } => message,
        }
    }

    /// Whether the question is a yes/no one (`ctx.confirm`, `#[tool(confirm)]`): a form with
    /// no fields, where accepting is the yes.
    #[must_use]
    pub fn is_confirmation(&self) -> bool {
        match &self.0.asked.question {
            Question::Form { schema, .. } => schema
                .get("properties")
                .and_then(Value::as_object)
                .is_none_or(Map::is_empty),
            Question::Url { .. } => false,
        }
    }

    /// Records the user's reply; the next [`Definitions::resume`] runs the call with it.
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
    fn answers_with_reply(&self) -> Option<BTreeMap<String, Value>> {
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

impl<'a> Answer<'a> {
    /// Whether a call of this answer waits for its user (then resolve each with
    /// [`waiting_mut`](Self::waiting_mut) and [`Definitions::resume`] before sending the
    /// messages: a waiting call's message tells the model it is waiting).
    #[must_use]
    pub fn is_waiting(&self) -> bool {
        self.outcomes().iter().any(|o| o.waiting.is_some())
    }

    /// The calls that wait for their user, with the call each belongs to.
    pub fn waiting(&self) -> impl Iterator<Item = (&CallOutcome<'a>, &Waiting)> {
        self.outcomes()
            .iter()
            .filter_map(|o| o.waiting.as_ref().map(|w| (o, w)))
    }

    /// The waiting calls, to record the user's replies on.
    pub fn waiting_mut(&mut self) -> impl Iterator<Item = &mut Waiting> {
        self.outcomes_mut()
            .iter_mut()
            .filter_map(|o| o.waiting.as_mut())
    }
}

impl Definitions {
    /// Runs again every call of `answer` that waits for its user and has a reply recorded
    /// (all at once, at most [`DEFAULT_CONCURRENCY`](super::DEFAULT_CONCURRENCY)); the other
    /// outcomes are kept. A call may ask again: it waits on its next question.
    ///
    /// ```
    /// use tool_executor::prelude::*;
    /// use tool_executor::provider::Provider;
    ///
    /// /// Deletes a note.
    /// #[tool(confirm)]
    /// async fn delete_note(id: u32) -> String {
    ///     format!("note {id} deleted")
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let tools = toolset![delete_note];
    /// let defs = tools.definitions(Provider::OpenAiChat).unwrap();
    /// let completion = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{
    ///     "id": "call_1", "type": "function",
    ///     "function": {"name": "delete_note", "arguments": "{\"id\":4}"}
    /// }]}}]});
    /// let mut answer = defs.answer(&tools, &completion).await.unwrap();
    /// assert!(answer.is_waiting());
    /// for waiting in answer.waiting_mut() {
    ///     assert_eq!(waiting.message(), "Run delete_note with id = 4?");
    ///     waiting.approve(); // the user said yes
    /// }
    /// let answer = defs.resume(&tools, answer).await;
    /// assert!(!answer.is_waiting());
    /// assert_eq!(answer.outcomes()[0].result, Ok(json!("note 4 deleted")));
    /// # });
    /// ```
    pub async fn resume<'a, E: ToolExecutor + ?Sized>(
        &'a self,
        executor: &E,
        answer: Answer<'a>,
    ) -> Answer<'a> {
        self.resume_in(executor, answer, None).await
    }

    /// [`resume`](Self::resume) with every call's context carrying `extensions`, as
    /// [`answer_with`](Self::answer_with).
    pub async fn resume_with<'a, E: ToolExecutor + ?Sized>(
        &'a self,
        executor: &E,
        answer: Answer<'a>,
        extensions: &Extensions,
    ) -> Answer<'a> {
        self.resume_in(executor, answer, Some(extensions)).await
    }

    async fn resume_in<'a, E: ToolExecutor + ?Sized>(
        &'a self,
        executor: &E,
        mut answer: Answer<'a>,
        extensions: Option<&Extensions>,
    ) -> Answer<'a> {
        let again: Vec<(usize, BTreeMap<String, Value>)> = answer
            .outcomes()
            .iter()
            .enumerate()
            .filter_map(|(i, o)| Some((i, o.waiting.as_ref()?.answers_with_reply()?)))
            .collect();
        if again.is_empty() {
            return answer;
        }
        let calls = again
            .iter()
            .map(|(i, answers)| (answer.outcomes()[*i].call.clone(), answers.clone()))
            .collect();
        let limit = super::DEFAULT_CONCURRENCY;
        let rerun = run_all_in(self, executor, calls, limit, extensions).await;
        let outcomes = answer.outcomes_mut();
        for ((i, _), outcome) in again.into_iter().zip(rerun) {
            outcomes[i] = outcome;
        }
        answer
    }
}
