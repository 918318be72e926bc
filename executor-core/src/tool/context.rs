//! `ToolContext`: what a running tool may know about its call and how it talks back.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::extensions::Extensions;
use super::stream::ToolStreamChunk;
use crate::failure::ToolFailure;

/// The call a tool is serving: ids, attempt, deadline, cancellation, a stream sink and the state
/// changes it records.
///
/// A tool asks for it by taking a `&ToolContext` parameter, which is injected and is not part
/// of the input schema. The default context is two words and allocates nothing; the first
/// setting (or recorded state change) allocates the rest once.
///
/// ```
/// use tool_executor::ToolContext;
/// use std::time::Duration;
///
/// let ctx = ToolContext::new()
///     .with_action_id("a-1")
///     .with_session_id("s-9")
///     .with_attempt(2)
///     .with_timeout(Duration::from_secs(5));
/// assert_eq!(ctx.action_id(), "a-1");
/// assert_eq!(ctx.attempt(), 2);
/// assert!(ctx.remaining().unwrap() <= Duration::from_secs(5));
/// ```
#[derive(Debug, Default)]
pub struct ToolContext {
    /// Everything a call may carry, allocated on first use: an empty context is two words
    /// with nothing to drop, so building, moving and dropping one costs what passing no
    /// context costs (measured in BENCHMARKS.md §5). A `OnceLock` rather than an `Option`, so a
    /// tool can record state changes through `&self` on a context that carried nothing.
    inner: OnceLock<Box<Inner>>,
}

#[derive(Debug, Default)]
struct Inner {
    action_id: String,
    /// 0 means 1 (a `Default` inner is attempt 1).
    attempt: u32,
    deadline: Option<Instant>,
    session_id: Option<String>,
    idempotency_key: Option<String>,
    cancellation: Option<CancellationToken>,
    sink: Option<StreamHandle>,
    expected_effects: Option<HashMap<String, Value>>,
    state_changes: Mutex<Option<HashMap<String, Value>>>,
    /// What the transport knows about the call beyond its arguments.
    extensions: Extensions,
    /// Set by the first recorded change, so a call that records none finishes without
    /// locking (measured in BENCHMARKS.md §5).
    recorded: AtomicBool,
}

impl ToolContext {
    /// An empty context: no ids, attempt 1, no deadline, never cancelled, no stream.
    #[must_use]
    #[inline]
    pub const fn new() -> Self {
        Self {
            inner: OnceLock::new(),
        }
    }

    /// The context the seed's methods carry: their action id, `timeout_ms` budget, session,
    /// 1-based attempt and expected effects. A call that carries none of them gets
    /// [`ToolContext::new`], which allocates nothing.
    #[must_use]
    #[inline]
    pub fn from_seed(
        action_id: &str,
        timeout_ms: Option<u64>,
        session_id: Option<&str>,
        attempt: u32,
        expected_effects: Option<&HashMap<String, Value>>,
    ) -> Self {
        if action_id.is_empty()
            && timeout_ms.is_none()
            && session_id.is_none()
            && attempt <= 1
            && expected_effects.is_none_or(HashMap::is_empty)
        {
            return Self::new();
        }
        Self::from_seed_with(action_id, timeout_ms, session_id, attempt, expected_effects)
    }

    /// [`from_seed`](Self::from_seed) for a call that carries something: out of line, so the
    /// common empty call inlines only the checks above (measured in BENCHMARKS.md §5).
    #[inline(never)]
    fn from_seed_with(
        action_id: &str,
        timeout_ms: Option<u64>,
        session_id: Option<&str>,
        attempt: u32,
        expected_effects: Option<&HashMap<String, Value>>,
    ) -> Self {
        let mut ctx = Self::new()
            .with_action_id(action_id)
            .with_attempt(attempt)
            .with_timeout_ms(timeout_ms);
        if let Some(session) = session_id {
            ctx = ctx.with_session_id(session);
        }
        match expected_effects {
            Some(effects) if !effects.is_empty() => ctx.with_expected_effects(effects.clone()),
            _ => ctx,
        }
    }

    /// Sets the id of the action this call serves.
    #[must_use]
    pub fn with_action_id(mut self, action_id: impl Into<String>) -> Self {
        self.inner_mut().action_id = action_id.into();
        self
    }

    /// Sets the session the call belongs to.
    #[must_use]
    pub fn with_session_id(mut self, session_id: impl Into<String>) -> Self {
        self.inner_mut().session_id = Some(session_id.into());
        self
    }

    /// Sets the key that identifies this logical call across its attempts, so a backend with
    /// side effects can run them once however often the call is retried.
    #[must_use]
    pub fn with_idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.inner_mut().idempotency_key = Some(key.into());
        self
    }

    /// Sets the 1-based attempt number (1 on the first try). 0 is read as 1.
    #[must_use]
    pub fn with_attempt(mut self, attempt: u32) -> Self {
        if attempt > 1 || self.inner.get().is_some() {
            self.inner_mut().attempt = attempt.max(1);
        }
        self
    }

    /// Sets an absolute deadline. The earlier of this and the tool's own timeout wins.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        let inner = self.inner_mut();
        inner.deadline = Some(inner.deadline.map_or(deadline, |d| d.min(deadline)));
        self
    }

    /// Sets a deadline `timeout` from now.
    #[must_use]
    pub fn with_timeout(self, timeout: Duration) -> Self {
        self.with_deadline(Instant::now() + timeout)
    }

    /// Sets a deadline from a `timeout_ms` budget, if there is one.
    #[must_use]
    pub fn with_timeout_ms(self, timeout_ms: Option<u64>) -> Self {
        match timeout_ms {
            Some(ms) => self.with_timeout(Duration::from_millis(ms)),
            None => self,
        }
    }

    /// Lets `token` cancel the call: the tool's future is dropped when it fires.
    #[must_use]
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.inner_mut().cancellation = Some(token);
        self
    }

    /// Sends progress, text and data chunks to `sink` until the call ends: the call's end
    /// closes the context's side of the stream, so a body that outlives its call (a sync tool
    /// whose timeout fired) sends nothing more, and its
    /// [`try_progress`](Self::try_progress) says [`ChunkDropped::Closed`].
    #[must_use]
    pub fn with_stream(self, sink: mpsc::Sender<ToolStreamChunk>) -> Self {
        self.with_closable_stream(sink).0
    }

    /// [`with_stream`](Self::with_stream), plus a handle that closes the context's side of
    /// the stream from outside: what a caller that sends the terminal chunk itself uses, so
    /// nothing the tool sends can follow it.
    pub(crate) fn with_closable_stream(
        mut self,
        sink: mpsc::Sender<ToolStreamChunk>,
    ) -> (Self, StreamHandle) {
        let handle = StreamHandle(Arc::new(Mutex::new(Some(sink))));
        self.inner_mut().sink = Some(handle.clone());
        (self, handle)
    }

    /// Closes the context's side of its stream (see [`with_stream`](Self::with_stream)):
    /// through a shared reference, since a sync tool's body holds one on its thread.
    pub(crate) fn close_stream(&self) {
        if let Some(handle) = self.inner().and_then(|inner| inner.sink.as_ref()) {
            handle.close();
        }
    }

    /// Declares the state keys the call is expected to change. When set, the state changes a
    /// tool records must have exactly these keys.
    #[must_use]
    pub fn with_expected_effects(mut self, effects: HashMap<String, Value>) -> Self {
        self.inner_mut().expected_effects = Some(effects);
        self
    }

    /// Attaches a typed value the tool reads with [`extension`](Self::extension): what a
    /// transport knows about the call (the [`Principal`](crate::auth::Principal), allow-listed
    /// headers, the MCP `_meta`). A second value of the same type replaces the first.
    #[must_use]
    pub fn with_extension<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.inner_mut().extensions.insert(value);
        self
    }

    /// [`with_extension`](Self::with_extension) for a value already shared (one principal
    /// for every call of a request), without copying it.
    #[must_use]
    pub fn with_shared_extension<T: Send + Sync + 'static>(mut self, value: Arc<T>) -> Self {
        self.inner_mut().extensions.insert_shared(value);
        self
    }

    /// Attaches every value of `extensions` (a connection's values shared by its calls).
    #[must_use]
    pub fn with_extensions(mut self, extensions: Extensions) -> Self {
        if !extensions.is_empty() {
            self.inner_mut().extensions.extend(extensions);
        }
        self
    }

    /// Drops the context when it has neither a deadline nor a cancellation token (an empty
    /// one without running its destructor, which has nothing to free), or gives it back: what
    /// a context-free tool does on every call (measured in BENCHMARKS.md §5).
    ///
    /// # Errors
    /// The context itself, when it has a deadline or a token.
    #[inline]
    pub(crate) fn release_unguarded(self) -> Result<(), Self> {
        if self.inner.get().is_none() {
            std::mem::forget(self);
            return Ok(());
        }
        if self.is_unguarded() {
            drop(self);
            return Ok(());
        }
        Err(self)
    }

    #[inline]
    fn inner(&self) -> Option<&Inner> {
        self.inner.get().map(|inner| &**inner)
    }

    fn inner_mut(&mut self) -> &mut Inner {
        // `get_or_init` then `get_mut`: `OnceLock::get_mut_or_init` is not stable yet.
        self.inner.get_or_init(Box::default);
        self.inner.get_mut().expect("initialized on the line above")
    }

    /// The value of type `T` the transport attached, if any (see
    /// [`with_extension`](Self::with_extension)).
    #[must_use]
    pub fn extension<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.inner().and_then(|inner| inner.extensions.get::<T>())
    }

    /// The value of type `T` the transport attached, for a tool that cannot run without it.
    ///
    /// # Errors
    /// A terminal [`ToolFailure`] with code `missing_extension` naming the type, when the
    /// transport attached none (a server not configured to authenticate its callers, say):
    /// retrying the same call cannot supply it.
    pub fn require_extension<T: Send + Sync + 'static>(&self) -> Result<&T, ToolFailure> {
        self.extension::<T>().ok_or_else(|| {
            let name = std::any::type_name::<T>();
            ToolFailure::terminal(format!(
                "this tool needs a `{name}` in its context and the transport that called it \
                 attached none; configure the server to provide it (for a `Principal`: \
                 authenticate the caller)"
            ))
            .with_code("missing_extension")
            .with_data(serde_json::json!({ "extension": name }))
        })
    }

    /// Every value the transport attached.
    #[must_use]
    pub fn extensions(&self) -> Option<&Extensions> {
        self.inner().map(|inner| &inner.extensions)
    }

    /// The id of the action this call serves (empty when the caller gave none).
    #[must_use]
    pub fn action_id(&self) -> &str {
        self.inner().map_or("", |inner| &inner.action_id)
    }

    /// The session the call belongs to.
    #[must_use]
    pub fn session_id(&self) -> Option<&str> {
        self.inner()?.session_id.as_deref()
    }

    /// The key that identifies this logical call across its attempts, if the caller set one.
    #[must_use]
    pub fn idempotency_key(&self) -> Option<&str> {
        self.inner()?.idempotency_key.as_deref()
    }

    /// 1 on the first try, 2 on the first retry.
    #[must_use]
    pub fn attempt(&self) -> u32 {
        self.inner().map_or(1, |inner| inner.attempt.max(1))
    }

    /// When the call's budget runs out.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        self.inner()?.deadline
    }

    /// Time left before the deadline.
    #[must_use]
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline()
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The declared expected effects, if any.
    #[must_use]
    pub fn expected_effects(&self) -> Option<&HashMap<String, Value>> {
        self.inner()?.expected_effects.as_ref()
    }

    /// Whether the caller cancelled the call.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancellation_token()
            .is_some_and(CancellationToken::is_cancelled)
    }

    /// Resolves when the caller cancels the call; never, if it cannot be cancelled.
    pub fn cancelled(&self) -> impl Future<Output = ()> + Send + '_ {
        let token = self.cancellation_token();
        async move {
            match token {
                Some(token) => token.cancelled().await,
                None => std::future::pending().await,
            }
        }
    }

    /// Takes the cancellation token out: a context-free call's guard holds it instead.
    pub(crate) fn take_cancellation(&mut self) -> Option<CancellationToken> {
        self.inner.get_mut()?.cancellation.take()
    }

    pub(crate) fn cancellation_token(&self) -> Option<&CancellationToken> {
        self.inner()?.cancellation.as_ref()
    }

    /// Whether the call has neither a deadline nor a cancellation token: then running it
    /// only needs a panic boundary.
    #[inline]
    pub(crate) fn is_unguarded(&self) -> bool {
        self.inner()
            .is_none_or(|inner| inner.deadline.is_none() && inner.cancellation.is_none())
    }

    fn sink(&self) -> Option<&StreamHandle> {
        self.inner()?.sink.as_ref()
    }

    /// Whether a reader receives progress and data (a streamed call, or an MCP client that
    /// sent a progress token) and the call has not ended.
    #[must_use]
    pub fn is_streaming(&self) -> bool {
        self.sink().is_some_and(StreamHandle::is_open)
    }

    /// Reports progress (clamped to 0.0..=1.0). Waits while the stream's buffer is full; a no-op
    /// when nobody listens.
    pub async fn progress(&self, fraction: f64, message: impl Into<Option<String>>) {
        self.send(progress_chunk(fraction, message.into())).await;
    }

    /// Reports progress (clamped to 0.0..=1.0) without waiting: for sync tools, which run on
    /// the blocking pool and cannot `.await` [`progress`](Self::progress). A no-op when nobody
    /// listens.
    ///
    /// ```
    /// use tool_executor::{ChunkDropped, ToolContext};
    ///
    /// let (sink, mut reader) = tokio::sync::mpsc::channel(1);
    /// let ctx = ToolContext::new().with_stream(sink);
    /// assert_eq!(ctx.try_progress(0.5, None), Ok(()));
    /// assert_eq!(ctx.try_progress(1.0, None), Err(ChunkDropped::Full), "one slot, taken");
    /// assert!(reader.try_recv().is_ok());
    /// drop(reader);
    /// assert_eq!(ctx.try_progress(1.0, None), Err(ChunkDropped::Closed));
    /// ```
    ///
    /// # Errors
    /// [`ChunkDropped`] when the chunk was not sent: the stream's buffer was full (the reader
    /// is behind; later chunks may pass) or the stream is closed: the reader is gone, or the
    /// call already ended (its timeout fired, or it was cancelled, while the body ran on).
    /// Never blocks either way.
    pub fn try_progress(
        &self,
        fraction: f64,
        message: impl Into<Option<String>>,
    ) -> Result<(), ChunkDropped> {
        let Some(sink) = self.sink() else {
            return Ok(());
        };
        sink.try_send(progress_chunk(fraction, message.into()))
    }

    /// Streams a piece of text output; a no-op when nobody listens.
    pub async fn text(&self, text: impl Into<String>) {
        self.send(ToolStreamChunk::Text { text: text.into() }).await;
    }

    /// Streams a piece of structured output; a no-op when nobody listens.
    ///
    /// # Errors
    /// An internal failure if `data` does not serialize to JSON.
    pub async fn emit<T: Serialize + ?Sized>(&self, data: &T) -> Result<(), ToolFailure> {
        if self.sink().is_none() {
            return Ok(());
        }
        let data = serde_json::to_value(data)
            .map_err(|e| ToolFailure::internal(format!("emitted data did not serialize: {e}")))?;
        self.send(ToolStreamChunk::Data { data }).await;
        Ok(())
    }

    async fn send(&self, chunk: ToolStreamChunk) {
        if let Some(sink) = self.sink() {
            sink.send(chunk).await;
        }
    }

    /// Records a state change the runtime should apply when the call succeeds. With expected
    /// effects declared, the recorded keys must match them exactly.
    pub fn record_state_change(&self, key: impl Into<String>, value: Value) {
        let inner = self.inner.get_or_init(Box::default);
        inner
            .state_changes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get_or_insert_with(HashMap::new)
            .insert(key.into(), value);
        inner.recorded.store(true, Ordering::Release);
    }

    /// Takes the recorded state changes, checking them against the expected effects.
    #[inline]
    pub(crate) fn take_state_changes(&self) -> Result<HashMap<String, Value>, ToolFailure> {
        match self.inner() {
            Some(inner) if inner.recorded.load(Ordering::Acquire) => self.take_recorded(inner),
            _ => Ok(HashMap::new()),
        }
    }

    fn take_recorded(&self, inner: &Inner) -> Result<HashMap<String, Value>, ToolFailure> {
        let changes = inner
            .state_changes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .unwrap_or_default();
        if let Some(expected) = self.expected_effects()
            && let Some((got, want)) = effects_mismatch(&changes, expected)
        {
            return Err(ToolFailure::terminal(format!(
                "recorded state changes {got:?} do not match the expected effects {want:?}"
            ))
            .with_kind(crate::failure::FailureKind::Internal)
            .with_code("state_mismatch"));
        }
        Ok(changes)
    }
}

/// A context's side of its stream: the sender, which the call's end (or its owner, through a
/// clone) takes away, so a tool body that outlives its call can no longer send. Sending checks
/// under the lock, so nothing is sent after [`close`](Self::close) returns.
#[derive(Debug, Clone)]
pub(crate) struct StreamHandle(Arc<Mutex<Option<mpsc::Sender<ToolStreamChunk>>>>);

impl StreamHandle {
    fn sender(&self) -> std::sync::MutexGuard<'_, Option<mpsc::Sender<ToolStreamChunk>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes the sender away: the channel closes once its other senders are gone.
    pub(crate) fn close(&self) {
        let sender = self.sender().take();
        drop(sender);
    }

    fn is_open(&self) -> bool {
        self.sender().as_ref().is_some_and(|s| !s.is_closed())
    }

    fn try_send(&self, chunk: ToolStreamChunk) -> Result<(), ChunkDropped> {
        let sender = self.sender();
        let Some(sender) = sender.as_ref() else {
            return Err(ChunkDropped::Closed);
        };
        sender.try_send(chunk).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => ChunkDropped::Full,
            mpsc::error::TrySendError::Closed(_) => ChunkDropped::Closed,
        })
    }

    /// Waits for room, then sends unless the stream was closed meanwhile.
    async fn send(&self, chunk: ToolStreamChunk) {
        let Some(sender) = self.sender().clone() else {
            return;
        };
        // A closed stream means the reader is gone or the call ended: the chunk is dropped.
        let Ok(permit) = sender.reserve_owned().await else {
            return;
        };
        // Checked and sent under the lock, so a `close` that returned saw this chunk sent.
        let open = self.sender();
        if open.is_some() {
            permit.send(chunk);
        }
    }
}

/// A progress chunk with its fraction clamped to 0.0..=1.0 (NaN is 0.0).
fn progress_chunk(fraction: f64, message: Option<String>) -> ToolStreamChunk {
    let fraction = if fraction.is_nan() {
        0.0
    } else {
        fraction.clamp(0.0, 1.0)
    };
    ToolStreamChunk::Progress { fraction, message }
}

/// Why [`ToolContext::try_progress`] dropped a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChunkDropped {
    /// The stream's buffer was full: the reader is behind. This chunk is lost; a later one
    /// may pass once the reader catches up.
    Full,
    /// The reader is gone (the call's stream was closed); nothing more will be read.
    Closed,
}

impl std::fmt::Display for ChunkDropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Full => "stream chunk dropped: the buffer is full",
            Self::Closed => "stream chunk dropped: the reader is gone",
        })
    }
}

impl std::error::Error for ChunkDropped {}

/// The expected-effects rule, in one place for `ToolContext` and the `Runtime`: the changed
/// keys must be exactly the expected ones, and a call that changes nothing passes (expected
/// effects are assertions about what a call changes, never a demand that it change something).
/// On a mismatch, both key lists, sorted.
pub(crate) fn effects_mismatch(
    changes: &HashMap<String, Value>,
    expected: &HashMap<String, Value>,
) -> Option<(Vec<String>, Vec<String>)> {
    if changes.is_empty()
        || (changes.len() == expected.len() && changes.keys().all(|k| expected.contains_key(k)))
    {
        return None;
    }
    let sorted = |map: &HashMap<String, Value>| {
        let mut keys: Vec<String> = map.keys().cloned().collect();
        keys.sort_unstable();
        keys
    };
    Some((sorted(changes), sorted(expected)))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use serde_json::json;

    use super::ToolContext;

    #[test]
    fn an_empty_context_is_two_words_and_allocates_nothing() {
        assert_eq!(
            std::mem::size_of::<ToolContext>(),
            2 * std::mem::size_of::<usize>()
        );
        let ctx = ToolContext::new().with_attempt(1);
        assert!(ctx.inner.get().is_none(), "attempt 1 is the default");
        assert!(
            ToolContext::from_seed("", None, None, 1, Some(&HashMap::new()))
                .inner
                .get()
                .is_none()
        );
    }

    #[test]
    fn from_seed_carries_every_seed_argument() {
        let effects = HashMap::from([("k".to_owned(), json!(1))]);
        let ctx = ToolContext::from_seed("a-1", Some(5_000), Some("s"), 3, Some(&effects));
        assert_eq!(ctx.action_id(), "a-1");
        assert_eq!(ctx.session_id(), Some("s"));
        assert_eq!(ctx.attempt(), 3);
        assert!(ctx.remaining().is_some_and(|d| d.as_millis() <= 5_000));
        assert_eq!(ctx.expected_effects(), Some(&effects));
        assert_eq!(ctx.idempotency_key(), None);
        let keyed = ToolContext::new().with_idempotency_key("call-7");
        assert_eq!(keyed.idempotency_key(), Some("call-7"));
    }

    /// What a body that outlives its call sees: once the call's end closed the stream, no
    /// chunk passes (sync or async), the reader's channel ends, and the context no longer
    /// streams.
    #[tokio::test]
    async fn a_closed_stream_drops_every_later_chunk_and_ends_the_reader() {
        let (sink, mut reader) = tokio::sync::mpsc::channel(4);
        let ctx = ToolContext::new().with_stream(sink);
        assert_eq!(ctx.try_progress(0.5, None), Ok(()));
        assert!(ctx.is_streaming());
        ctx.close_stream();
        assert!(!ctx.is_streaming());
        assert_eq!(
            ctx.try_progress(0.75, None),
            Err(super::ChunkDropped::Closed)
        );
        ctx.progress(1.0, None).await;
        ctx.text("late").await;
        assert!(matches!(
            reader.recv().await,
            Some(super::ToolStreamChunk::Progress { .. })
        ));
        assert!(reader.recv().await.is_none(), "nothing after the close");
    }

    #[test]
    fn state_changes_recorded_on_an_empty_context_are_kept() {
        let ctx = ToolContext::new();
        ctx.record_state_change("k", json!(2));
        assert_eq!(
            ctx.take_state_changes().unwrap(),
            HashMap::from([("k".to_owned(), json!(2))])
        );
        assert!(ctx.take_state_changes().unwrap().is_empty(), "taken once");
    }
}
