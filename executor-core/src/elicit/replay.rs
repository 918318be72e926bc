//! The rule every stateless transport follows when a tool asks: the question ends the turn,
//! and the call runs again from the start with every answer so far, each question answered in
//! the order it was asked (MCP 2026-07-28 `input_required`, an A2A `input-required` task).
//! [`Replay`] is one turn: the answers it starts with and the first question nobody answered.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use serde_json::Value;
use tokio::sync::Notify;
use tokio::sync::futures::Notified;

use super::answer::{ElicitError, Question, Reply};

/// The most questions one call may ask across its turns; the next fails the call, so a tool
/// that asks in a loop cannot grow what its transport carries without bound.
pub const MAX_QUESTIONS_PER_CALL: usize = 32;

/// One turn of a call that may ask.
pub(crate) struct Replay {
    /// Answers by question key (`q0`, `q1`, …).
    answers: BTreeMap<String, Value>,
    /// Questions asked so far in this turn: the next one's key.
    next: AtomicUsize,
    /// The first unanswered question: what the turn ends on.
    asked: Mutex<Option<(String, Question)>>,
    notify: Notify,
}

impl Replay {
    pub(crate) fn new(answers: BTreeMap<String, Value>) -> Self {
        Self {
            answers,
            next: AtomicUsize::new(0),
            asked: Mutex::new(None),
            notify: Notify::new(),
        }
    }

    /// The answers this turn started with.
    pub(crate) fn answers(&self) -> &BTreeMap<String, Value> {
        &self.answers
    }

    /// Resolves once the tool asked a question nobody answered yet.
    pub(crate) fn asked(&self) -> Notified<'_> {
        self.notify.notified()
    }

    /// The first unanswered question, with its key.
    pub(crate) fn question(&self) -> Option<(String, Question)> {
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The tool's next question: its answer when an earlier turn brought one (after
    /// `answered` checked it), else recorded as what this turn ends on (after `unanswered`
    /// checked the transport can carry it) and [`ElicitError::Suspended`].
    pub(crate) fn ask(
        &self,
        question: Question,
        answered: impl FnOnce(&Question, &Value) -> Result<(), ElicitError>,
        unanswered: impl FnOnce(&Question) -> Result<(), ElicitError>,
    ) -> Result<Reply, ElicitError> {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        let key = format!("q{index}");
        if let Some(answer) = self.answers.get(&key) {
            answered(&question, answer)?;
            return Reply::from_json(answer);
        }
        if index >= MAX_QUESTIONS_PER_CALL {
            return Err(ElicitError::Failed(format!(
                "a call may ask at most {MAX_QUESTIONS_PER_CALL} questions"
            )));
        }
        unanswered(&question)?;
        let mut asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
        if asked.is_none() {
            *asked = Some((key, question));
        }
        drop(asked);
        self.notify.notify_one();
        Err(ElicitError::Suspended)
    }
}
