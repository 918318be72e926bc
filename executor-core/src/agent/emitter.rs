//! `Emitter`: one call per event an agent writes, with correct ends.

use std::collections::HashSet;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use a2a_protocol_server::{EventQueueWriter, RequestContext};
use a2a_protocol_types::artifact::Artifact;
use a2a_protocol_types::error::A2aResult;
use a2a_protocol_types::events::{StreamResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent};
use a2a_protocol_types::failure::{FailureClass, set_class};
use a2a_protocol_types::message::{Message, Part};
use a2a_protocol_types::task::{ContextId, TaskState, TaskStatus};
use serde_json::{Map, Value, json};

use crate::failure::ToolFailure;
use crate::failure::transport::{A2aFailureClass, A2aTerminal, for_a2a};

/// Writes a task's status updates and artifacts, one call each, and guarantees correct ends:
///
/// - once the task is cancelled (`ctx.cancellation_token`), every call writes the `Canceled`
///   state instead of its own event (once) and nothing else;
/// - once a terminal state is written, every call is a no-op.
///
/// Cancellation stays cooperative: check it with one call, [`is_cancelled`](Self::is_cancelled),
/// or let [`until_cancelled`](Self::until_cancelled) race a wait against it.
///
/// ```
/// use tool_executor::agent::{Emitter, EventQueueWriter, RequestContext, A2aResult};
///
/// async fn answer(ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
///     let emit = Emitter::new(ctx, queue);
///     emit.working("thinking").await?;
///     let text = ctx.message.text().unwrap_or_default().to_uppercase();
///     emit.text_artifact("answer", text).await?;
///     emit.complete().await
/// }
/// ```
pub struct Emitter<'a> {
    ctx: &'a RequestContext,
    queue: &'a dyn EventQueueWriter,
    ended: AtomicBool,
    /// Artifact ids that already had a chunk, so the next one appends.
    begun: Mutex<HashSet<String>>,
}

impl std::fmt::Debug for Emitter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Emitter")
            .field("task_id", &self.ctx.task_id)
            .field("ended", &self.has_ended())
            .finish_non_exhaustive()
    }
}

impl<'a> Emitter<'a> {
    /// An emitter for the task `ctx` runs, writing to `queue`.
    #[must_use]
    pub fn new(ctx: &'a RequestContext, queue: &'a dyn EventQueueWriter) -> Self {
        Self {
            ctx,
            queue,
            ended: AtomicBool::new(false),
            begun: Mutex::new(HashSet::new()),
        }
    }

    /// The request this task runs for.
    #[must_use]
    pub fn ctx(&self) -> &'a RequestContext {
        self.ctx
    }

    /// Whether the task was cancelled.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.ctx.cancellation_token.is_cancelled()
    }

    /// Whether this emitter wrote a terminal state.
    #[must_use]
    pub fn has_ended(&self) -> bool {
        self.ended.load(Ordering::Acquire)
    }

    /// Resolves when the task is cancelled.
    pub fn cancelled(&self) -> impl Future<Output = ()> + Send + 'a {
        self.ctx.cancellation_token.cancelled()
    }

    /// Runs `work` until it finishes or the task is cancelled. On cancellation `work` is
    /// dropped, the `Canceled` state is written, and the result is `None`.
    pub async fn until_cancelled<F: Future>(&self, work: F) -> Option<F::Output> {
        tokio::select! {
            biased;
            () = self.ctx.cancellation_token.cancelled() => {
                self.end_canceled().await;
                None
            }
            out = work => Some(out),
        }
    }

    /// When the task was cancelled, writes `Canceled` and returns `true`: the agent should
    /// return. One call: `if emit.end_if_cancelled().await { return Ok(()); }`.
    pub async fn end_if_cancelled(&self) -> bool {
        if self.is_cancelled() {
            self.end_canceled().await;
            true
        } else {
            false
        }
    }

    /// A `working` status update whose message is `text`.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn working(&self, text: impl Into<String>) -> A2aResult<()> {
        self.status(TaskState::Working, Some(text.into())).await
    }

    /// A `working` status update reporting progress: `fraction` (0.0 to 1.0) in the event's
    /// metadata as `{"progress": fraction}`, `message` as the status message.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn progress(&self, fraction: f64, message: Option<String>) -> A2aResult<()> {
        let fraction = if fraction.is_nan() {
            0.0
        } else {
            fraction.clamp(0.0, 1.0)
        };
        let text = message.unwrap_or_else(|| format!("{:.0}%", fraction * 100.0));
        let mut status = TaskStatus::with_timestamp(TaskState::Working);
        status.message = Some(self.note(vec![Part::text(text)]));
        self.write_status(status, Some(json!({ "progress": fraction })))
            .await
    }

    /// A status update to `state`, with an agent message of `text` when given.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn status(&self, state: TaskState, text: Option<String>) -> A2aResult<()> {
        let mut status = TaskStatus::with_timestamp(state);
        status.message = text.map(|t| self.note(vec![Part::text(t)]));
        self.write_status(status, None).await
    }

    /// A whole artifact in one event.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn artifact(&self, artifact: Artifact) -> A2aResult<()> {
        self.write_artifact(artifact, None, Some(true)).await
    }

    /// A whole artifact holding one text part.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn text_artifact(&self, id: &str, text: impl Into<String>) -> A2aResult<()> {
        self.artifact(Artifact::new(id, vec![Part::text(text)]))
            .await
    }

    /// A whole artifact holding one data part.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn data_artifact(&self, id: &str, data: Value) -> A2aResult<()> {
        self.artifact(Artifact::new(id, vec![Part::data(data)]))
            .await
    }

    /// One chunk of the artifact `id`: the first chunk starts it, later ones append;
    /// `last` closes it.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn chunk(&self, id: &str, parts: Vec<Part>, last: bool) -> A2aResult<()> {
        let append = !self
            .begun
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.to_owned());
        self.write_artifact(Artifact::new(id, parts), Some(append), Some(last))
            .await
    }

    /// Ends the task `completed`.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn complete(&self) -> A2aResult<()> {
        self.status(TaskState::Completed, None).await
    }

    /// Ends the task `completed` with an agent message of `text`.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn complete_with_message(&self, text: impl Into<String>) -> A2aResult<()> {
        self.status(TaskState::Completed, Some(text.into())).await
    }

    /// Parks the task at `input-required`, asking `question`; return after it, and the
    /// answer arrives as the task's next message.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn input_required(&self, question: impl Into<String>) -> A2aResult<()> {
        self.status(TaskState::InputRequired, Some(question.into()))
            .await
    }

    /// Parks the task at `input-required` with `note` (an [`Emitter::note`]) as its status
    /// message: a question with parts and metadata of its own.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn input_required_with(&self, note: Message) -> A2aResult<()> {
        let mut status = TaskStatus::with_timestamp(TaskState::InputRequired);
        status.message = Some(note);
        self.write_status(status, None).await
    }

    /// Ends the task `failed`, saying why with a failure class a caller can branch on
    /// (retry a `Transient` one) and a stable `code`.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn fail(
        &self,
        class: FailureClass,
        message: impl Into<String>,
        code: &str,
    ) -> A2aResult<()> {
        self.fail_carrying(class, message.into(), code, Map::new())
            .await
    }

    /// `fail`, with the code and `details` (the failure's data and retry hint, if any) on the
    /// status message as well as on the event: a blocking `SendMessage` answers with the task,
    /// whose status keeps the message but not the event's metadata.
    async fn fail_carrying(
        &self,
        class: FailureClass,
        message: String,
        code: &str,
        mut details: Map<String, Value>,
    ) -> A2aResult<()> {
        details.insert("code".to_owned(), Value::from(code));
        let mut note = self.note(vec![Part::text(message.clone())]);
        set_class(&mut note, class);
        if let Some(Value::Object(map)) = &mut note.metadata {
            map.extend(details.clone());
        }
        let mut status = TaskStatus::with_timestamp(TaskState::Failed);
        status.message = Some(note);
        details.insert("error".to_owned(), Value::String(message));
        self.write_status(status, Some(Value::Object(details)))
            .await
    }

    /// Ends the task as the A2A row of the failure table says (`failure::transport`): `failed`
    /// with the failure's class, message, code, data and retry hint (`retry_after_ms`), or
    /// `canceled` for a cancelled call.
    ///
    /// # Errors
    /// When the server's queue refuses the event.
    pub async fn fail_with(&self, failure: &ToolFailure) -> A2aResult<()> {
        let outcome = for_a2a(failure);
        match outcome.terminal {
            A2aTerminal::Canceled => {
                self.end_canceled().await;
                Ok(())
            }
            A2aTerminal::Failed(class) => {
                let mut details = Map::new();
                if let Some(data) = outcome.data {
                    details.insert("data".to_owned(), data);
                }
                if let Some(after) = failure.retry_after() {
                    let ms = u64::try_from(after.as_millis()).unwrap_or(u64::MAX);
                    details.insert("retry_after_ms".to_owned(), Value::from(ms));
                }
                self.fail_carrying(
                    failure_class(class),
                    outcome.message,
                    &outcome.code,
                    details,
                )
                .await
            }
        }
    }

    /// Ends the task `canceled`.
    pub async fn cancel(&self) {
        self.end_canceled().await;
    }

    /// An agent message carrying this task's ids.
    #[must_use]
    pub fn note(&self, parts: Vec<Part>) -> Message {
        Message::agent(uuid::Uuid::new_v4().to_string(), parts)
            .with_task_id(self.ctx.task_id.clone())
            .with_context_id(ContextId::new(self.ctx.context_id.clone()))
    }

    async fn write_status(&self, status: TaskStatus, metadata: Option<Value>) -> A2aResult<()> {
        let terminal = status.state.is_terminal();
        let event = StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
            task_id: self.ctx.task_id.clone(),
            context_id: ContextId::new(self.ctx.context_id.clone()),
            status,
            metadata,
        });
        self.write(event, terminal).await
    }

    async fn write_artifact(
        &self,
        artifact: Artifact,
        append: Option<bool>,
        last_chunk: Option<bool>,
    ) -> A2aResult<()> {
        let event = StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent {
            task_id: self.ctx.task_id.clone(),
            context_id: ContextId::new(self.ctx.context_id.clone()),
            artifact,
            append,
            last_chunk,
            metadata: None,
        });
        self.write(event, false).await
    }

    async fn write(&self, event: StreamResponse, terminal: bool) -> A2aResult<()> {
        if self.has_ended() {
            return Ok(());
        }
        if self.is_cancelled() {
            self.end_canceled().await;
            return Ok(());
        }
        self.queue.write(event).await?;
        if terminal {
            self.ended.store(true, Ordering::Release);
        }
        Ok(())
    }

    /// Writes `Canceled` once. Best effort: the server writes it too when a caller cancels,
    /// and a task nobody streams has no receivers.
    async fn end_canceled(&self) {
        if self.ended.swap(true, Ordering::AcqRel) {
            return;
        }
        let _ = self
            .queue
            .write(super::queue::status_event(self.ctx, TaskState::Canceled))
            .await;
    }
}

/// The protocol's failure class for a row of the failure table.
#[must_use]
pub fn failure_class(class: A2aFailureClass) -> FailureClass {
    match class {
        A2aFailureClass::InvalidRequest => FailureClass::InvalidRequest,
        A2aFailureClass::Transient => FailureClass::Transient,
        A2aFailureClass::PolicyRefusal => FailureClass::PolicyRefusal,
        A2aFailureClass::BudgetExhausted => FailureClass::BudgetExhausted,
        A2aFailureClass::Internal => FailureClass::Internal,
    }
}
