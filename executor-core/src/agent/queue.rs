//! The task's queue as the agent's code sees it, and the run around `execute` and `cancel` that
//! guarantees a correct end.
//!
//! `EventQueueWriter` implementors must be `'static`, but the queue the server hands to
//! `execute` is borrowed, so a wrapper cannot hold it. [`TaskQueue`] is therefore a `'static`
//! handle that sends each event over a channel to the run ([`run_execute`]), which forwards it to
//! the server's queue while the agent's future is polled beside it, and answers with the write's
//! result. Every event an agent writes passes through it, whatever helper wrote it, so the run
//! knows what was written: it drops what follows cancellation or a terminal state, and ends a
//! task that `execute` left open.

use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::{Arc, Mutex, PoisonError};

use a2a_protocol_server::{CancellationToken, EventQueueWriter, RequestContext};
use a2a_protocol_types::error::{A2aError, A2aResult};
use a2a_protocol_types::events::{StreamResponse, TaskStatusUpdateEvent};
use a2a_protocol_types::task::{ContextId, TaskState, TaskStatus};
use tokio::sync::{mpsc, oneshot};

use crate::tool::BoxFuture;
use crate::tool::CatchUnwind;

/// How many events an agent may have in flight to the forwarding run. Each write waits for its
/// own result, so one agent rarely has more than one.
const CHANNEL: usize = 16;

struct Request {
    event: StreamResponse,
    reply: oneshot::Sender<A2aResult<()>>,
}

/// What the run has seen written.
#[derive(Default)]
struct Seen {
    /// The terminal state written, if any: nothing is written after it.
    ended: Option<TaskState>,
    /// The last state written (`input-required` ends a turn without ending the task).
    last: Option<TaskState>,
}

/// The queue an agent's `execute` (or `cancel`) writes to when declared with
/// [`agent_executor!`](crate::agent_executor) or [`#[agent]`](macro@crate::agent): an
/// [`EventQueueWriter`] that forwards to the server's queue and enforces correct ends.
///
/// - After the task is cancelled (`ctx.cancellation_token`), it writes nothing but the
///   `Canceled` state: other events are dropped, and a terminal state becomes `Canceled`.
/// - After a terminal state, it writes nothing.
/// - Dropped events report `Ok(())`: the agent did nothing wrong by writing them.
#[derive(Clone)]
pub struct TaskQueue {
    tx: mpsc::Sender<Request>,
    seen: Arc<Mutex<Seen>>,
    token: CancellationToken,
    /// The task is being cancelled: this queue serves the `cancel` hook.
    cancelling: bool,
    task_id: a2a_protocol_types::task::TaskId,
    context_id: String,
}

impl std::fmt::Debug for TaskQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskQueue")
            .field("task_id", &self.task_id)
            .field("cancelling", &self.cancelling)
            .finish_non_exhaustive()
    }
}

impl TaskQueue {
    fn channel(ctx: &RequestContext, cancelling: bool) -> (Self, mpsc::Receiver<Request>) {
        let (tx, rx) = mpsc::channel(CHANNEL);
        let queue = Self {
            tx,
            seen: Arc::default(),
            token: ctx.cancellation_token.clone(),
            cancelling,
            task_id: ctx.task_id.clone(),
            context_id: ctx.context_id.clone(),
        };
        (queue, rx)
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The event to forward in place of `event`, or `None` to drop it.
    fn admit(&self, event: StreamResponse) -> Option<StreamResponse> {
        let mut seen = self.seen();
        if seen.ended.is_some() {
            return None;
        }
        let state = state_of(&event);
        if self.cancelling || self.token.is_cancelled() {
            // Only a terminal state gets through, and only as `Canceled`.
            if !state.is_some_and(TaskState::is_terminal) {
                return None;
            }
            seen.ended = Some(TaskState::Canceled);
            seen.last = Some(TaskState::Canceled);
            return Some(if state == Some(TaskState::Canceled) {
                event
            } else {
                canceled_event(&self.task_id, &self.context_id)
            });
        }
        if let Some(state) = state {
            seen.last = Some(state);
            if state.is_terminal() {
                seen.ended = Some(state);
            }
        }
        Some(event)
    }

    fn forget_end(&self, state: Option<TaskState>) {
        // A terminal write the server refused did not end the task.
        if let Some(state) = state.filter(|s| s.is_terminal()) {
            let mut seen = self.seen();
            if seen.ended == Some(state) {
                seen.ended = None;
            }
        }
    }
}

impl EventQueueWriter for TaskQueue {
    fn write<'a>(
        &'a self,
        event: StreamResponse,
    ) -> Pin<Box<dyn Future<Output = A2aResult<()>> + Send + 'a>> {
        Box::pin(async move {
            let Some(event) = self.admit(event) else {
                return Ok(());
            };
            let state = state_of(&event);
            let (reply, answer) = oneshot::channel();
            if self.tx.send(Request { event, reply }).await.is_err() {
                self.forget_end(state);
                return Err(A2aError::internal(
                    "the task's run has ended; nothing more can be written",
                ));
            }
            let result = answer.await.unwrap_or_else(|_| {
                Err(A2aError::internal("the task's run ended before the write"))
            });
            if result.is_err() {
                self.forget_end(state);
            }
            result
        })
    }

    fn close<'a>(&'a self) -> Pin<Box<dyn Future<Output = A2aResult<()>> + Send + 'a>> {
        // The server closes the real queue when the run ends.
        Box::pin(std::future::ready(Ok(())))
    }
}

/// Runs an agent's `execute` body with a [`TaskQueue`], then ends the task if the body did not:
///
/// - the body returned `Ok` without a terminal state: `Completed` (or `Canceled` when the task
///   was cancelled; a turn that ended in `input-required` or `auth-required` is left waiting);
/// - the body returned `Err` and the task was cancelled: `Canceled`, and `Ok` (the cancel, not
///   the error, ended the task); otherwise the error goes to the server, which fails the task;
/// - the body panicked: an internal error, so the task fails instead of staying `working`.
pub fn run_execute<'a, B, F>(
    ctx: &'a RequestContext,
    queue: &'a dyn EventQueueWriter,
    body: B,
) -> BoxFuture<'a, A2aResult<()>>
where
    B: FnOnce(&'a RequestContext, TaskQueue) -> F + Send + 'a,
    F: Future<Output = A2aResult<()>> + Send + 'a,
{
    Box::pin(async move {
        let (writer, rx) = TaskQueue::channel(ctx, false);
        let seen = Arc::clone(&writer.seen);
        let result = pump(queue, rx, catch_panic(body(ctx, writer))).await;
        let (ended, last) = {
            let seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
            (seen.ended, seen.last)
        };
        if ended.is_some() {
            return Ok(());
        }
        if ctx.cancellation_token.is_cancelled() {
            write_state(ctx, queue, TaskState::Canceled).await;
            return Ok(());
        }
        match result {
            Ok(()) if last.is_some_and(TaskState::is_interrupted) => Ok(()),
            Ok(()) => queue.write(status_event(ctx, TaskState::Completed)).await,
            Err(e) => Err(e),
        }
    })
}

/// Runs an agent's `cancel` body with a [`TaskQueue`] that writes nothing but `Canceled`, and
/// writes `Canceled` after a body that returned `Ok` without it.
pub fn run_cancel<'a, B, F>(
    ctx: &'a RequestContext,
    queue: &'a dyn EventQueueWriter,
    body: B,
) -> BoxFuture<'a, A2aResult<()>>
where
    B: FnOnce(&'a RequestContext, TaskQueue) -> F + Send + 'a,
    F: Future<Output = A2aResult<()>> + Send + 'a,
{
    Box::pin(async move {
        let (writer, rx) = TaskQueue::channel(ctx, true);
        let seen = Arc::clone(&writer.seen);
        pump(queue, rx, catch_panic(body(ctx, writer))).await?;
        let ended = seen.lock().unwrap_or_else(PoisonError::into_inner).ended;
        if ended.is_none() {
            write_state(ctx, queue, TaskState::Canceled).await;
        }
        Ok(())
    })
}

/// The default `cancel` of a declared agent: `Canceled`, best effort (a task nobody streams has
/// no receivers, and that must not fail the cancel).
pub fn default_cancel<'a>(
    ctx: &'a RequestContext,
    queue: &'a dyn EventQueueWriter,
) -> BoxFuture<'a, A2aResult<()>> {
    Box::pin(async move {
        write_state(ctx, queue, TaskState::Canceled).await;
        Ok(())
    })
}

/// An agent's `on_shutdown` body, boxed.
pub fn run_shutdown<'a, F>(body: F) -> BoxFuture<'a, ()>
where
    F: Future<Output = ()> + Send + 'a,
{
    Box::pin(body)
}

/// Polls `work` and forwards the events it sends until it finishes, then forwards what it left
/// in the channel.
async fn pump<F>(
    queue: &dyn EventQueueWriter,
    mut rx: mpsc::Receiver<Request>,
    work: F,
) -> A2aResult<()>
where
    F: Future<Output = A2aResult<()>>,
{
    let mut work = pin!(work);
    let result = loop {
        tokio::select! {
            biased;
            Some(request) = rx.recv() => {
                let written = queue.write(request.event).await;
                let _ = request.reply.send(written);
            }
            result = &mut work => break result,
        }
    };
    rx.close();
    while let Ok(request) = rx.try_recv() {
        let written = queue.write(request.event).await;
        let _ = request.reply.send(written);
    }
    result
}

/// A panicking agent fails its task instead of leaving it `working` forever.
async fn catch_panic<F>(fut: F) -> A2aResult<()>
where
    F: Future<Output = A2aResult<()>>,
{
    CatchUnwind::new(fut).await.unwrap_or_else(|panic| {
        Err(A2aError::internal(format!(
            "the agent panicked: {}",
            panic.text()
        )))
    })
}

fn state_of(event: &StreamResponse) -> Option<TaskState> {
    match event {
        StreamResponse::Task(t) => Some(t.status.state),
        StreamResponse::StatusUpdate(u) => Some(u.status.state),
        _ => None,
    }
}

pub(crate) fn status_event(ctx: &RequestContext, state: TaskState) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: ctx.task_id.clone(),
        context_id: ContextId::new(ctx.context_id.clone()),
        status: TaskStatus::with_timestamp(state),
        metadata: None,
    })
}

fn canceled_event(task_id: &a2a_protocol_types::task::TaskId, context_id: &str) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: task_id.clone(),
        context_id: ContextId::new(context_id.to_owned()),
        status: TaskStatus::with_timestamp(TaskState::Canceled),
        metadata: None,
    })
}

/// Writes `state`, ignoring a refusal: used for ends the server may already have written.
async fn write_state(ctx: &RequestContext, queue: &dyn EventQueueWriter, state: TaskState) {
    let _ = queue.write(status_event(ctx, state)).await;
}
