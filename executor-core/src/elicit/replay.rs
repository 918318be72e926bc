//! Questions answered by running the call again: the rule MCP 2026-07-28 (`input_required`),
//! A2A continuations on another replica and the provider loop's deferred calls share.
//!
//! A [`Replay`] holds the answers given so far, keyed by the order the call asked its questions
//! (`q0`, `q1`, …). The call runs with its [`asker`](Replay::asker): a question already
//! answered gets its answer at once; the first one not yet answered is recorded and ends the
//! attempt ([`Replay::run`] returns it as [`Asked`]). Whoever carries the question brings the
//! answer back and runs the call again with one more answer, so everything before the question
//! runs again: **ask before side effects** (or make them idempotent).

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, ready};

use serde_json::Value;
use tokio::sync::Notify;
use tokio::sync::futures::Notified;

use super::answer::{ElicitError, Question, Reply};
use super::ask::{Asker, Elicitor};
use crate::tool::execution::BoxFuture;

/// The most questions one call may ask across its attempts; the next fails the call, so a tool
/// that asks in a loop cannot grow what is carried between attempts without bound.
pub const MAX_QUESTIONS_PER_CALL: usize = 32;

/// The key of the call's `index`th question (0-based): `q0`, `q1`, ….
#[must_use]
pub fn question_key(index: usize) -> String {
    format!("q{index}")
}

/// The question an attempt ended on: its key (the place its answer goes in the next
/// attempt's answers) and the question.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    /// `q0`, `q1`, …: the order the call asked it in.
    pub key: String,
    /// What the user is asked.
    pub question: Question,
}

type Check = Box<dyn Fn(&Question) -> Result<(), ElicitError> + Send + Sync>;

/// One attempt of a call whose questions are answered by running it again: answers by
/// question key (`q0`, `q1`, …) from earlier attempts; the first question not answered yet
/// ends the attempt, so everything before it runs again: ask before side effects.
///
/// ```
/// use std::collections::BTreeMap;
/// use tool_executor::elicit::{Question, Replay, Reply};
/// use tool_executor::ToolContext;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let body = |ctx: ToolContext| async move { ctx.confirm("Delete note 4?").await };
///
/// // The first attempt ends on the question.
/// let first = Replay::new(BTreeMap::new());
/// let ctx = ToolContext::new().with_extension(first.asker());
/// let asked = first.run(body(ctx)).await.unwrap_err();
/// assert_eq!(asked.key, "q0");
/// assert!(asked.question.is_confirm());
///
/// // The second runs with the answer and finishes.
/// let answers = BTreeMap::from([(asked.key, Reply::accept().to_json())]);
/// let second = Replay::new(answers);
/// let ctx = ToolContext::new().with_extension(second.asker());
/// assert_eq!(second.run(body(ctx)).await, Ok(Ok(true)));
/// # });
/// ```
pub struct Replay {
    shared: Arc<Shared>,
}

struct Shared {
    /// `ElicitResult`s by question key, from earlier attempts.
    answers: BTreeMap<String, Value>,
    /// Questions asked so far in this attempt: the next one's index.
    next: AtomicUsize,
    /// The first unanswered question: what the attempt ends on.
    asked: Mutex<Option<Asked>>,
    notify: Notify,
    /// Refuses a question the other side cannot carry (a client's declared capability).
    check: Option<Check>,
}

impl fmt::Debug for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Replay")
            .field("answers", &self.shared.answers.len())
            .field("asked", &self.asked())
            .finish_non_exhaustive()
    }
}

impl Replay {
    /// An attempt with `answers` (`ElicitResult` JSON by question key) from earlier attempts.
    #[must_use]
    pub fn new(answers: BTreeMap<String, Value>) -> Self {
        Self::build(answers, None)
    }

    /// [`new`](Self::new), refusing with `check`'s error a question the other side cannot
    /// carry (MCP: a form or URL question the client did not declare).
    #[must_use]
    pub fn checked(
        answers: BTreeMap<String, Value>,
        check: impl Fn(&Question) -> Result<(), ElicitError> + Send + Sync + 'static,
    ) -> Self {
        Self::build(answers, Some(Box::new(check)))
    }

    fn build(answers: BTreeMap<String, Value>, check: Option<Check>) -> Self {
        Self {
            shared: Arc::new(Shared {
                answers,
                next: AtomicUsize::new(0),
                asked: Mutex::new(None),
                notify: Notify::new(),
                check,
            }),
        }
    }

    /// The answers this attempt started with.
    #[must_use]
    pub fn answers(&self) -> &BTreeMap<String, Value> {
        &self.shared.answers
    }

    /// The asker the call's tool puts its questions to (attach it to the call's context).
    #[must_use]
    pub fn asker(&self) -> Asker {
        Asker::from_shared(Arc::clone(&self.shared) as Arc<dyn Elicitor>)
    }

    /// The question this attempt ended on, if it asked one nobody answered yet.
    #[must_use]
    pub fn asked(&self) -> Option<Asked> {
        self.shared
            .asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Runs `work` until it ends or asks a question not answered yet; then that question (the
    /// work's future is dropped: nothing after the question runs in this attempt).
    ///
    /// The returned future holds `work` in place (no copy of it, however large).
    ///
    /// # Errors
    /// The question the attempt ended on. A sync body that returns
    /// [`ElicitError::Suspended`] with `?` ends with its question too.
    pub fn run<F: Future>(&self, work: F) -> Run<'_, F> {
        Run {
            work,
            asked: self.shared.notify.notified(),
            replay: self,
        }
    }
}

pin_project_lite::pin_project! {
    /// The future of [`Replay::run`]: the work, or the question it ended on.
    #[must_use = "futures do nothing unless polled"]
    pub struct Run<'a, F> {
        #[pin]
        work: F,
        #[pin]
        asked: Notified<'a>,
        replay: &'a Replay,
    }
}

impl<F: Future> Future for Run<'_, F> {
    type Output = Result<F::Output, Asked>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        // Asked first: a question recorded ends the attempt even if the work could go on.
        if this.asked.poll(cx).is_ready()
            && let Some(asked) = this.replay.asked()
        {
            return Poll::Ready(Err(asked));
        }
        let output = ready!(this.work.poll(cx));
        Poll::Ready(match this.replay.asked() {
            Some(asked) => Err(asked),
            None => Ok(output),
        })
    }
}

impl Elicitor for Shared {
    fn ask(&self, question: Question) -> BoxFuture<'static, Result<Reply, ElicitError>> {
        let result = self.answer_or_record(question);
        Box::pin(async move { result })
    }
}

impl Shared {
    fn answer_or_record(&self, question: Question) -> Result<Reply, ElicitError> {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        let key = question_key(index);
        if let Some(answer) = self.answers.get(&key) {
            return Reply::from_json(answer);
        }
        if index >= MAX_QUESTIONS_PER_CALL {
            return Err(ElicitError::Failed(format!(
                "a call may ask at most {MAX_QUESTIONS_PER_CALL} questions"
            )));
        }
        if let Some(check) = &self.check {
            check(&question)?;
        }
        let mut asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
        if asked.is_none() {
            *asked = Some(Asked { key, question });
        }
        drop(asked);
        self.notify.notify_one();
        Err(ElicitError::Suspended)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::ToolContext;

    async fn two_questions(ctx: ToolContext) -> Result<(bool, bool), ElicitError> {
        let first = ctx.confirm("first?").await?;
        let second = ctx.confirm("second?").await?;
        Ok((first, second))
    }

    fn attempt(answers: &BTreeMap<String, Value>) -> (Replay, ToolContext) {
        let replay = Replay::new(answers.clone());
        let ctx = ToolContext::new().with_extension(replay.asker());
        (replay, ctx)
    }

    #[tokio::test]
    async fn each_attempt_ends_on_the_first_unanswered_question() {
        let mut answers = BTreeMap::new();
        let (replay, ctx) = attempt(&answers);
        let asked = replay.run(two_questions(ctx)).await.unwrap_err();
        assert_eq!(asked.key, "q0");
        answers.insert(asked.key, Reply::accept().to_json());

        let (replay, ctx) = attempt(&answers);
        let asked = replay.run(two_questions(ctx)).await.unwrap_err();
        assert_eq!(asked.key, "q1");
        assert_eq!(asked.question.message(), "second?");
        answers.insert(asked.key, Reply::decline().to_json());

        let (replay, ctx) = attempt(&answers);
        assert_eq!(replay.run(two_questions(ctx)).await, Ok(Ok((true, false))));
    }

    #[tokio::test]
    async fn a_check_refuses_before_recording() {
        let replay = Replay::checked(BTreeMap::new(), |_| {
            Err(ElicitError::Unsupported("no forms here".into()))
        });
        let ctx = ToolContext::new().with_extension(replay.asker());
        let out = replay.run(two_questions(ctx)).await;
        assert_eq!(
            out,
            Ok(Err(ElicitError::Unsupported("no forms here".into())))
        );
        assert_eq!(replay.asked(), None);
    }

    #[tokio::test]
    async fn a_bad_stored_answer_is_a_failure_not_a_question() {
        let answers = BTreeMap::from([("q0".to_owned(), serde_json::json!({"action": "maybe"}))]);
        let (replay, ctx) = attempt(&answers);
        let out = replay.run(two_questions(ctx)).await.unwrap();
        assert!(matches!(out, Err(ElicitError::Failed(_))), "{out:?}");
    }

    #[tokio::test]
    async fn asking_past_the_limit_fails_the_call() {
        let answers: BTreeMap<String, Value> = (0..MAX_QUESTIONS_PER_CALL)
            .map(|i| (question_key(i), Reply::accept().to_json()))
            .collect();
        let (replay, ctx) = attempt(&answers);
        let out = replay
            .run(async move {
                loop {
                    ctx.confirm("again?").await?;
                }
                #[allow(unreachable_code)]
                Ok::<(), ElicitError>(())
            })
            .await
            .unwrap();
        assert!(matches!(out, Err(ElicitError::Failed(_))), "{out:?}");
    }
}
