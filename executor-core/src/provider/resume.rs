//! [`Definitions::resume`]: the calls of an answer that wait for their user ([`Waiting`]) run
//! again with the replies recorded on them.

use std::collections::BTreeMap;

use serde_json::Value;

use super::answer::{Answer, CallOutcome, run_all_in};
use super::definitions::Definitions;
use super::waiting::Waiting;
use crate::tool::{Extensions, ToolExecutor};

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
