//! [`Tasks`]: starts calls as tasks, keeps their records in a [`TaskStore`], reads and cancels
//! them. A task's call runs as a [`Handle`] (the detached call of
//! [`Runtime::spawn`](crate::runtime::Runtime::spawn)); its record follows the handle.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::ask::{Asking, TaskAsker};
use super::memory::MemoryTaskStore;
use super::record::{TaskId, TaskOutcome, TaskRecord, TaskStatus};
use super::store::{StoreError, TaskStore};
use super::support::TaskSpec;
use crate::elicit::Asker;
use crate::failure::{FailureKind, ToolFailure};
use crate::runtime::{Handle, HandleId, Subscription};
use crate::tool::{BoxFuture, STREAM_CAPACITY, ToolContext, ToolExecution, ToolStreamChunk};

/// A task's TTL when neither its tool nor the server sets one: 5 minutes.
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(5 * 60);

/// The poll interval a client is told when neither the tool nor the server sets one: 1 s.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(1);

/// The longest TTL a task gets, whatever its tool asks: 7 days.
pub const MAX_TASK_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

/// The shortest interval at which a running task's record is read back, to learn of a
/// cancellation made elsewhere (its poll interval, if longer).
const MIN_STORE_CHECK: Duration = Duration::from_millis(100);

/// How a finished call becomes a task's outcome: the protocol's result or error object.
pub type Finish = Box<dyn FnOnce(Result<ToolExecution, ToolFailure>) -> TaskOutcome + Send>;

/// Runs calls as tasks. Cloning is cheap; clones share the store and the running calls.
///
/// A task's call gets the context it is started with, minus the request's cancellation: it
/// outlives its request. [`cancel`](Self::cancel) cancels it, its TTL is its deadline, and its
/// progress messages become the record's `status_message`. A question it asks its user
/// (`ctx.elicit`, `ctx.confirm`) makes the task `input_required` with the question in
/// `input_requests`; [`answer`](Self::answer) brings the reply and the call goes on where it
/// waited.
#[derive(Clone)]
pub struct Tasks {
    inner: Arc<Inner>,
}

/// A call this process runs: its handle, and where `tasks/update` answers go.
struct Live {
    handle: Handle,
    answers: mpsc::Sender<Map<String, Value>>,
}

struct Inner {
    store: Arc<dyn TaskStore>,
    /// The calls this process runs, until their record is final.
    live: Mutex<HashMap<TaskId, Live>>,
    ttl: Duration,
    poll_interval: Duration,
}

impl fmt::Debug for Tasks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tasks")
            .field("ttl", &self.inner.ttl)
            .field("poll_interval", &self.inner.poll_interval)
            .finish_non_exhaustive()
    }
}

impl Default for Tasks {
    fn default() -> Self {
        Self::new(MemoryTaskStore::default())
    }
}

/// Why a task could not be started, read or changed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskError {
    /// No task has this id, or it is past its TTL.
    Unknown(String),
    /// The store failed or is full.
    Store(StoreError),
    /// Started outside a Tokio runtime.
    NoRuntime,
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown(id) => write!(f, "unknown task `{id}` (never created, or expired)"),
            Self::Store(e) => e.fmt(f),
            Self::NoRuntime => f.write_str("tasks run on a Tokio runtime; none is running"),
        }
    }
}

impl std::error::Error for TaskError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for TaskError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

impl Tasks {
    /// Tasks kept in `store`, with the default TTL and poll interval.
    #[must_use]
    pub fn new(store: impl TaskStore) -> Self {
        Self::with_store(Arc::new(store))
    }

    /// Tasks kept in a shared store.
    #[must_use]
    pub fn with_store(store: Arc<dyn TaskStore>) -> Self {
        Self {
            inner: Arc::new(Inner {
                store,
                live: Mutex::new(HashMap::new()),
                ttl: DEFAULT_TASK_TTL,
                poll_interval: DEFAULT_POLL_INTERVAL,
            }),
        }
    }

    /// Sets the TTL and poll interval of tasks whose tool sets none (call before cloning).
    #[must_use]
    pub fn with_defaults(mut self, ttl: Duration, poll_interval: Duration) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.ttl = ttl.min(MAX_TASK_TTL);
            inner.poll_interval = poll_interval;
        }
        self
    }

    /// Starts `call` as a task of `tool` and returns its first record once the store holds it
    /// (so a `tasks/get` from anywhere finds it). `call` gets `ctx` with the task's
    /// cancellation, stream and deadline; `finish` turns its outcome into the record's.
    ///
    /// # Errors
    /// [`TaskError::Store`] when the store is full or failing (the call is not started);
    /// [`TaskError::NoRuntime`] outside Tokio.
    pub async fn start<C>(
        &self,
        tool: &str,
        settings: TaskSpec,
        ctx: ToolContext,
        call: C,
        finish: Finish,
    ) -> Result<TaskRecord, TaskError>
    where
        C: FnOnce(ToolContext) -> BoxFuture<'static, Result<ToolExecution, ToolFailure>>,
    {
        let (record, _) = self
            .start_subscribed(tool, settings, ctx, call, finish)
            .await?;
        Ok(record)
    }

    /// [`start`](Self::start), with a subscription to the call's chunks taken before the call
    /// starts, so none is missed (a server relaying the task's progress to its client).
    ///
    /// # Errors
    /// As [`start`](Self::start).
    pub async fn start_subscribed<C>(
        &self,
        tool: &str,
        settings: TaskSpec,
        ctx: ToolContext,
        call: C,
        finish: Finish,
    ) -> Result<(TaskRecord, Subscription), TaskError>
    where
        C: FnOnce(ToolContext) -> BoxFuture<'static, Result<ToolExecution, ToolFailure>>,
    {
        let tokio = tokio::runtime::Handle::try_current().map_err(|_| TaskError::NoRuntime)?;
        let ttl = settings.ttl.unwrap_or(self.inner.ttl).min(MAX_TASK_TTL);
        let poll = settings.poll_interval.unwrap_or(self.inner.poll_interval);
        let id = HandleId::fresh();
        let record = TaskRecord::working(id, tool, ttl, poll);
        self.inner.store.create(record.clone()).await?;
        let token = CancellationToken::new();
        let (sink, chunks) = mpsc::channel(STREAM_CAPACITY);
        let (questions, asked) = mpsc::channel(1);
        let (answers, answered) = mpsc::channel(4);
        let ctx = ctx
            .with_cancellation(token.clone())
            .with_stream(sink)
            .with_deadline(Instant::now() + ttl)
            .with_extension(Asker::new(TaskAsker::new(questions)));
        let handle = Handle::detached(id, token);
        let subscription = handle.subscribe();
        let watch = handle.subscribe();
        let live = Live {
            handle: handle.clone(),
            answers,
        };
        self.live().insert(id, live);
        handle.start(&tokio, chunks, call(ctx), || {});
        let tasks = self.clone();
        let first = record.clone();
        let follow = Follow {
            handle,
            subscription,
            asked,
            answered,
            waiting: None,
        };
        tokio.spawn(async move { tasks.follow(follow, first, finish).await });
        Ok((record, watch))
    }

    /// Writes the handle's progress messages, its questions and their answers, and then its
    /// outcome into the task's record: the one writer of a running task's record.
    async fn follow(self, mut f: Follow, mut record: TaskRecord, finish: Finish) {
        let every = record.poll_interval.max(MIN_STORE_CHECK);
        let mut check = Instant::now() + every;
        let mut asking = true;
        loop {
            // Each branch is cancel-safe: `Subscription::next` and `recv` lose nothing when
            // another branch wins.
            tokio::select! {
                chunk = f.subscription.next() => {
                    let Some(chunk) = chunk else { break };
                    if let ToolStreamChunk::Progress { message: Some(message), .. } = chunk
                        && record.status_message.as_deref() != Some(message.as_str())
                    {
                        record.status_message = Some(message);
                        self.write(&mut record).await;
                    }
                }
                question = f.asked.recv(), if asking && f.waiting.is_none() => {
                    let Some(question) = question else {
                        asking = false;
                        continue;
                    };
                    record.status = TaskStatus::InputRequired;
                    let requests = Map::from_iter([(question.key.clone(), question.request.clone())]);
                    record.input_requests = Some(requests);
                    record.input_responses = None;
                    self.write(&mut record).await;
                    f.waiting = Some(question);
                }
                Some(responses) = f.answered.recv() => {
                    self.take_answer(&mut f, &mut record, &responses).await;
                }
                () = tokio::time::sleep_until(check) => {
                    self.check_store(&mut f, &mut record).await;
                    check = Instant::now() + every;
                }
            }
        }
        // The subscription ends after the terminal chunk, so the outcome is sealed.
        let outcome = f.handle.outcome().unwrap_or_else(|| {
            Err(ToolFailure::internal(
                "the task's call ended without an outcome",
            ))
        });
        record.updated_at = SystemTime::now();
        record.input_requests = None;
        record.input_responses = None;
        match outcome {
            Err(failure) if failure.kind() == FailureKind::Cancelled => {
                record.status = TaskStatus::Cancelled;
            }
            outcome => {
                let outcome = finish(outcome);
                record.status = match outcome {
                    TaskOutcome::Result(_) => TaskStatus::Completed,
                    TaskOutcome::Error(_) => TaskStatus::Failed,
                };
                record.outcome = Some(outcome);
            }
        }
        let _ = self.inner.store.update(record).await;
        self.live().remove(&f.handle.id());
    }

    /// Stores the running task's record as it is now.
    async fn write(&self, record: &mut TaskRecord) {
        record.updated_at = SystemTime::now();
        // A store that fails now may work for the next write; only the final one must land.
        let _ = self.inner.store.update(record.clone()).await;
    }

    /// Hands the waiting question its answer, if `responses` has one (keys that are not
    /// outstanding are ignored, as the extension says), and the task is `working` again.
    async fn take_answer(
        &self,
        f: &mut Follow,
        record: &mut TaskRecord,
        responses: &Map<String, Value>,
    ) {
        let Some(answer) = f.waiting.as_ref().and_then(|q| responses.get(&q.key)) else {
            return;
        };
        let answer = answer.clone();
        let Some(question) = f.waiting.take() else {
            return;
        };
        record.status = TaskStatus::Working;
        record.input_requests = None;
        record.input_responses = None;
        self.write(record).await;
        // The call may have ended meanwhile (cancelled): nothing waits for the answer then.
        let _ = question.answer.send(answer);
    }

    /// Reads the task's record back: cancels the call when the record says it should not
    /// run any more (cancelled through another process sharing the store, or forgotten at its
    /// TTL), takes in answers another process left in it, and writes this process's record
    /// again over one another process changed otherwise.
    async fn check_store(&self, f: &mut Follow, record: &mut TaskRecord) {
        let stored = match self.inner.store.get(f.handle.id()).await {
            Ok(Some(stored)) if !stored.status.is_terminal() => stored,
            Ok(_) => return f.handle.cancel(),
            // The store is unreachable: keep running, the final write may succeed.
            Err(_) => return,
        };
        if let Some(responses) = &stored.input_responses {
            self.take_answer(f, record, responses).await;
        } else if stored.status != record.status || stored.input_requests != record.input_requests {
            self.write(record).await;
        }
    }

    /// `tasks/update`: answers to the questions a task waits on (`ElicitResult`s by key). The
    /// call waiting goes on; keys that are not outstanding are ignored. A task that runs in
    /// another process sharing the store gets them through the store, within its poll
    /// interval.
    ///
    /// # Errors
    /// As [`get`](Self::get).
    pub async fn answer(&self, id: &str, responses: Map<String, Value>) -> Result<(), TaskError> {
        let mut record = self.get(id).await?;
        if record.status != TaskStatus::InputRequired {
            return Ok(());
        }
        let here = self.live().get(&record.id).map(|live| live.answers.clone());
        if let Some(answers) = here {
            // The follower is gone only once the task is final: then there is nothing to answer.
            let _ = answers.send(responses).await;
            return Ok(());
        }
        record.input_responses = Some(responses);
        record.updated_at = SystemTime::now();
        self.inner.store.update(record).await?;
        Ok(())
    }

    /// The task's record.
    ///
    /// # Errors
    /// [`TaskError::Unknown`] for an unknown or expired id (or one that is not a task id);
    /// [`TaskError::Store`] when the store fails.
    pub async fn get(&self, id: &str) -> Result<TaskRecord, TaskError> {
        let unknown = || TaskError::Unknown(id.to_owned());
        let key: TaskId = id.parse().map_err(|_| unknown())?;
        self.inner.store.get(key).await?.ok_or_else(unknown)
    }

    /// Asks the task to stop (cooperatively: its call is cancelled, and its record becomes
    /// `cancelled` once the call has stopped). A finished task is left as it is. A task
    /// running in another process sharing the store is marked `cancelled` here, and that
    /// process cancels its call when it next reads the record (within the poll interval).
    ///
    /// # Errors
    /// As [`get`](Self::get).
    pub async fn cancel(&self, id: &str) -> Result<(), TaskError> {
        let mut record = self.get(id).await?;
        if record.status.is_terminal() {
            return Ok(());
        }
        let running = self.live().get(&record.id).map(|live| live.handle.clone());
        if let Some(handle) = running {
            handle.cancel();
            return Ok(());
        }
        // Its call runs nowhere here (another process's, or one that died): the record itself
        // is what is left to cancel.
        record.status = TaskStatus::Cancelled;
        record.updated_at = SystemTime::now();
        self.inner.store.update(record).await?;
        Ok(())
    }

    /// The running call of a task this process started, while it runs.
    #[must_use]
    pub fn handle(&self, id: &str) -> Option<Handle> {
        let key: TaskId = id.parse().ok()?;
        self.live().get(&key).map(|live| live.handle.clone())
    }

    fn live(&self) -> std::sync::MutexGuard<'_, HashMap<TaskId, Live>> {
        self.inner
            .live
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// What a task's follower watches: the call's handle and stream, its questions, and the
/// answers `tasks/update` brings.
struct Follow {
    handle: Handle,
    subscription: crate::runtime::Subscription,
    asked: mpsc::Receiver<Asking>,
    answered: mpsc::Receiver<Map<String, Value>>,
    /// The question the task is `input_required` for.
    waiting: Option<Asking>,
}
