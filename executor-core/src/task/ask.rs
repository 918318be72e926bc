//! Questions inside a task: a task's call that asks its user (`ctx.elicit`, `ctx.confirm`,
//! `#[tool(confirm)]`) turns the task `input_required` with the question in its
//! `inputRequests`; the answer a `tasks/update` brings lets the call go on where it waited
//! (it is not run again: a task's call stays alive, unlike a 2026-07-28 request's).

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use crate::elicit::{ElicitError, Elicitor, MAX_QUESTIONS_PER_CALL, Question, Reply, question_key};
use crate::tool::BoxFuture;

/// A question of a task's call on its way to the task's record, and where its answer goes.
pub(super) struct Asking {
    /// `q0`, `q1`, …: the key of the question in `inputRequests`.
    pub(super) key: String,
    /// The `elicitation/create` request (`{method, params}`): an `inputRequests` entry.
    pub(super) request: Value,
    /// The `ElicitResult` the answer is.
    pub(super) answer: oneshot::Sender<Value>,
}

/// The [`Elicitor`] of a task's call: hands each question to the task's follower, which
/// records it and waits for `tasks/update`.
pub(super) struct TaskAsker {
    next: AtomicUsize,
    questions: mpsc::Sender<Asking>,
}

impl TaskAsker {
    pub(super) fn new(questions: mpsc::Sender<Asking>) -> Self {
        Self {
            next: AtomicUsize::new(0),
            questions,
        }
    }
}

impl Elicitor for TaskAsker {
    fn ask(&self, question: Question) -> BoxFuture<'static, Result<Reply, ElicitError>> {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        let questions = self.questions.clone();
        Box::pin(async move {
            if index >= MAX_QUESTIONS_PER_CALL {
                return Err(ElicitError::Failed(format!(
                    "a call may ask at most {MAX_QUESTIONS_PER_CALL} questions"
                )));
            }
            let (answer, answered) = oneshot::channel();
            let asking = Asking {
                key: question_key(index),
                request: json!({"method": "elicitation/create", "params": question.to_params()}),
                answer,
            };
            let ended = || ElicitError::Failed("the task ended before the answer came".into());
            questions.send(asking).await.map_err(|_| ended())?;
            let answer = answered.await.map_err(|_| ended())?;
            Reply::from_json(&answer)
        })
    }
}
