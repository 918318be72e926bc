//! Detached calls: `Handle`, its chunk buffer and subscribers, and the registry of handles.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::future::Future;
use std::pin::pin;
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, SystemTime};

use tokio::sync::{Notify, mpsc};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::options::relay;
use crate::failure::{FailureKind, ToolFailure};
use crate::tool::{ToolExecution, ToolStreamChunk};

/// How many chunks a handle keeps for its subscribers. When it is full, a progress chunk
/// replaces a progress chunk at the end (progress is coalesced), otherwise the oldest chunk is
/// dropped; a subscriber that falls behind skips what was dropped and can read how much with
/// [`Subscription::missed`]. The terminal chunk is kept apart and never dropped.
pub const HANDLE_BUFFER: usize = 256;

/// How long a finished handle stays reachable through
/// [`Runtime::handle`](super::Runtime::handle) unless configured
/// ([`Runtime::with_handle_ttl`](super::Runtime::with_handle_ttl)): 15 minutes, as the seed's
/// registry. [`Handle`] values already held keep working after it.
pub const DEFAULT_HANDLE_TTL: Duration = Duration::from_secs(15 * 60);

/// A detached call's id: 128 bits from the operating system's random generator, written as 32
/// lowercase hex digits. Unguessable, so an id can be handed to a client as the right to
/// watch or cancel its call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandleId(u128);

impl HandleId {
    pub(super) fn random(fallback: &super::retry::Rng) -> Self {
        let mut bytes = [0u8; 16];
        if getrandom::fill(&mut bytes).is_ok() {
            return Self(u128::from_le_bytes(bytes));
        }
        Self((u128::from(fallback.next_u64()) << 64) | u128::from(fallback.next_u64()))
    }

    /// A fresh id for a detached call started outside a runtime (a task,
    /// [`crate::task::Tasks`]): the operating system's generator, else one generator per
    /// process seeded from it.
    pub(crate) fn fresh() -> Self {
        static FALLBACK: OnceLock<super::retry::Rng> = OnceLock::new();
        Self::random(FALLBACK.get_or_init(super::retry::Rng::from_os))
    }
}

impl fmt::Display for HandleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl FromStr for HandleId {
    type Err = std::num::ParseIntError;

    /// Reads the 32 hex digits [`Display`](fmt::Display) writes.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        u128::from_str_radix(s, 16).map(Self)
    }
}

/// Where a detached call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandleStatus {
    /// Still running (or waiting for a slot or a retry).
    Running,
    /// Succeeded.
    Done,
    /// Failed (after its last attempt).
    Failed,
    /// Cancelled through the handle, or by dropping the runtime.
    Cancelled,
}

/// A detached call started by [`Runtime::spawn`](super::Runtime::spawn), or the live side of
/// a task ([`crate::task`]: an MCP task runs as a handle, and its id is the task's id).
/// Cloning is cheap; every clone watches the same call. Dropping a handle does not cancel the
/// call.
#[derive(Debug, Clone)]
pub struct Handle {
    id: HandleId,
    shared: Arc<Shared>,
}

#[derive(Debug)]
pub(super) struct Shared {
    token: CancellationToken,
    state: Mutex<State>,
    changed: Notify,
}

#[derive(Debug)]
struct State {
    /// Buffered chunks with their sequence numbers, oldest first.
    chunks: VecDeque<(u64, ToolStreamChunk)>,
    next_seq: u64,
    outcome: Option<Result<ToolExecution, ToolFailure>>,
    /// The message of the last progress chunk that had one.
    message: Option<String>,
    created: SystemTime,
    updated: SystemTime,
}

impl Shared {
    pub(super) fn new(token: CancellationToken) -> Self {
        let now = SystemTime::now();
        Self {
            token,
            state: Mutex::new(State {
                chunks: VecDeque::new(),
                next_seq: 0,
                outcome: None,
                message: None,
                created: now,
                updated: now,
            }),
            changed: Notify::new(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Buffers a chunk from the running call (see [`HANDLE_BUFFER`]).
    pub(super) fn push(&self, chunk: ToolStreamChunk) {
        if chunk.is_terminal() {
            return; // the outcome makes the terminal chunk
        }
        let mut state = self.state();
        state.updated = SystemTime::now();
        if let ToolStreamChunk::Progress {
            message: Some(message),
            ..
        } = &chunk
        {
            state.message = Some(message.clone());
        }
        if state.chunks.len() >= HANDLE_BUFFER {
            let coalesce = matches!(chunk, ToolStreamChunk::Progress { .. })
                && matches!(
                    state.chunks.back(),
                    Some((_, ToolStreamChunk::Progress { .. }))
                );
            if coalesce {
                state.chunks.pop_back();
            } else {
                state.chunks.pop_front();
            }
        }
        let seq = state.next_seq;
        state.next_seq += 1;
        state.chunks.push_back((seq, chunk));
        drop(state);
        self.changed.notify_waiters();
    }

    /// Seals the call with its outcome.
    pub(super) fn finish(&self, outcome: Result<ToolExecution, ToolFailure>) {
        let mut state = self.state();
        state.outcome = Some(outcome);
        state.updated = SystemTime::now();
        drop(state);
        self.changed.notify_waiters();
    }
}

impl Handle {
    pub(super) fn new(id: HandleId, shared: Arc<Shared>) -> Self {
        Self { id, shared }
    }

    /// A handle for a detached call about to [`start`](Self::start), cancelled by `token`:
    /// made first so its owner can register it before the call can end.
    pub(crate) fn detached(id: HandleId, token: CancellationToken) -> Self {
        Self::new(id, Arc::new(Shared::new(token)))
    }

    /// Runs `call` on `tasks`, detached: the chunks `chunks` receives are buffered for
    /// subscribers, then the outcome seals the handle and `ended` runs. The one place a detached
    /// call is spawned: [`Runtime::spawn`](super::Runtime::spawn) and tasks
    /// ([`crate::task::Tasks`]) both come here, so a runtime's handle and a task are one object.
    /// `call` must be cancelled by the token the handle was made with.
    pub(crate) fn start<C, E>(
        &self,
        tasks: &tokio::runtime::Handle,
        chunks: mpsc::Receiver<ToolStreamChunk>,
        call: C,
        ended: E,
    ) where
        C: Future<Output = Result<ToolExecution, ToolFailure>> + Send + 'static,
        E: FnOnce() + Send + 'static,
    {
        let live = Arc::clone(&self.shared);
        tasks.spawn(async move {
            let outcome = relay(Some(chunks), call, |chunk| {
                live.push(chunk);
                std::future::ready(())
            })
            .await;
            live.finish(outcome);
            ended();
        });
    }

    /// The call's id.
    #[must_use]
    pub const fn id(&self) -> HandleId {
        self.id
    }

    /// Where the call is now.
    #[must_use]
    pub fn status(&self) -> HandleStatus {
        match &self.shared.state().outcome {
            None => HandleStatus::Running,
            Some(Ok(_)) => HandleStatus::Done,
            Some(Err(f)) if f.kind() == FailureKind::Cancelled => HandleStatus::Cancelled,
            Some(Err(_)) => HandleStatus::Failed,
        }
    }

    /// The message of the last progress the call reported with one (a task's `statusMessage`).
    #[must_use]
    pub fn status_message(&self) -> Option<String> {
        self.shared.state().message.clone()
    }

    /// When the call started.
    #[must_use]
    pub fn created_at(&self) -> SystemTime {
        self.shared.state().created
    }

    /// When the call last reported a chunk, or ended.
    #[must_use]
    pub fn updated_at(&self) -> SystemTime {
        self.shared.state().updated
    }

    /// The call's outcome, once it has ended.
    #[must_use]
    pub fn outcome(&self) -> Option<Result<ToolExecution, ToolFailure>> {
        self.shared.state().outcome.clone()
    }

    /// Cancels the call: its running attempt is dropped, no retry follows, and it ends
    /// [`Cancelled`](HandleStatus::Cancelled) (unless it had already ended).
    pub fn cancel(&self) {
        self.shared.token.cancel();
    }

    /// The chunks the call sends from now on, then its terminal chunk (`done` with the output,
    /// or `error` with the failure's message). Subscribing after the end yields only the
    /// terminal chunk.
    #[must_use]
    pub fn subscribe(&self) -> Subscription {
        let cursor = self.shared.state().next_seq;
        Subscription {
            shared: Arc::clone(&self.shared),
            cursor,
            missed: 0,
            ended: false,
        }
    }

    /// Waits for the call's result (the last attempt's failure if it failed).
    ///
    /// # Errors
    /// The call's failure; a cancelled call's is of kind [`Cancelled`](FailureKind::Cancelled).
    pub async fn wait(&self) -> Result<ToolExecution, ToolFailure> {
        loop {
            let mut changed = pin!(self.shared.changed.notified());
            changed.as_mut().enable();
            if let Some(outcome) = &self.shared.state().outcome {
                return outcome.clone();
            }
            changed.await;
        }
    }
}

/// A subscriber's view of a detached call's chunks (see [`Handle::subscribe`]).
#[derive(Debug)]
pub struct Subscription {
    shared: Arc<Shared>,
    cursor: u64,
    missed: u64,
    ended: bool,
}

impl Subscription {
    /// The next chunk; `None` after the terminal chunk.
    pub async fn next(&mut self) -> Option<ToolStreamChunk> {
        loop {
            if self.ended {
                return None;
            }
            let shared = Arc::clone(&self.shared);
            let mut changed = pin!(shared.changed.notified());
            changed.as_mut().enable();
            if let Some(chunk) = self.take() {
                return Some(chunk);
            }
            changed.await;
        }
    }

    /// How many chunks this subscriber skipped because the buffer dropped or coalesced them
    /// before it read them.
    #[must_use]
    pub const fn missed(&self) -> u64 {
        self.missed
    }

    fn take(&mut self) -> Option<ToolStreamChunk> {
        let state = self.shared.state();
        let first = state.chunks.partition_point(|(seq, _)| *seq < self.cursor);
        if let Some((seq, chunk)) = state.chunks.get(first) {
            self.missed += seq - self.cursor;
            self.cursor = seq + 1;
            return Some(chunk.clone());
        }
        let outcome = state.outcome.as_ref()?;
        self.missed += state.next_seq - self.cursor;
        self.ended = true;
        Some(match outcome {
            Ok(execution) => ToolStreamChunk::Done {
                result: Some(execution.output.clone()),
            },
            Err(failure) => crate::failure::transport::for_stream(failure),
        })
    }
}

/// The runtime's live and recently finished handles. Finished ones are freed a TTL after
/// they end, by a sweep on every use (one TTL per runtime, so the expiries are in finishing
/// order and a sweep pops from the front).
#[derive(Debug, Default)]
pub(super) struct Registry {
    inner: Mutex<Entries>,
}

#[derive(Debug, Default)]
struct Entries {
    handles: HashMap<HandleId, Arc<Shared>>,
    expiries: VecDeque<(Instant, HandleId)>,
}

impl Registry {
    fn entries(&self) -> MutexGuard<'_, Entries> {
        let mut entries = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        while let Some(&(at, id)) = entries.expiries.front() {
            if at > now {
                break;
            }
            entries.expiries.pop_front();
            entries.handles.remove(&id);
        }
        entries
    }

    pub(super) fn insert(&self, handle: &Handle) {
        self.entries()
            .handles
            .insert(handle.id, Arc::clone(&handle.shared));
    }

    pub(super) fn finished(&self, id: HandleId, ttl: Duration) {
        let at = Instant::now() + ttl;
        self.entries().expiries.push_back((at, id));
    }

    pub(super) fn get(&self, id: HandleId) -> Option<Handle> {
        let shared = Arc::clone(self.entries().handles.get(&id)?);
        Some(Handle::new(id, shared))
    }

    pub(super) fn len(&self) -> usize {
        self.entries().handles.len()
    }
}
