//! `ToolContext`: what a running tool may know about its call and how it talks back.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::stream::ToolStreamChunk;
use crate::ToolFailure;

/// The call a tool is serving: ids, attempt, deadline, cancellation, a stream sink and the state
/// changes it records.
///
/// A tool asks for it by taking a `&ToolContext` parameter, which is injected and is not part
/// of the input schema. Building the default context allocates nothing.
///
/// ```
/// use executor_core::ToolContext;
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
#[derive(Debug)]
pub struct ToolContext {
    action_id: String,
    attempt: u32,
    deadline: Option<Instant>,
    /// What most calls never set, behind one pointer: the context is moved through every
    /// dispatch layer and into every tool future, and a plain one is 72 bytes with nothing
    /// to drop (measured in BENCHMARKS.md).
    extra: Option<Box<Extra>>,
    // Boxed like `extra`: a `HashMap` inline is 48 bytes, a box 8.
    #[allow(clippy::box_collection)]
    state_changes: Mutex<Option<Box<HashMap<String, Value>>>>,
    /// Set by the first recorded change, so a call that records none finishes without
    /// locking (measured in BENCHMARKS.md).
    recorded: AtomicBool,
}

#[derive(Debug, Default)]
struct Extra {
    session_id: Option<String>,
    cancellation: Option<CancellationToken>,
    sink: Option<mpsc::Sender<ToolStreamChunk>>,
    expected_effects: Option<HashMap<String, Value>>,
    idempotency_key: Option<String>,
}

impl Default for ToolContext {
    fn default() -> Self {
        Self::new()
    }
}

impl ToolContext {
    /// An empty context: no ids, attempt 1, no deadline, never cancelled, no stream.
    #[must_use]
    pub fn new() -> Self {
        Self {
            action_id: String::new(),
            attempt: 1,
            deadline: None,
            extra: None,
            state_changes: Mutex::new(None),
            recorded: AtomicBool::new(false),
        }
    }

    /// Sets the id of the action this call serves.
    #[must_use]
    pub fn with_action_id(mut self, action_id: impl Into<String>) -> Self {
        self.action_id = action_id.into();
        self
    }

    /// Sets the session the call belongs to.
    #[must_use]
    pub fn with_session_id(mut self, session_id: impl Into<String>) -> Self {
        self.extra_mut().session_id = Some(session_id.into());
        self
    }

    /// Sets the 1-based attempt number (1 on the first try). 0 is read as 1.
    #[must_use]
    pub fn with_attempt(mut self, attempt: u32) -> Self {
        self.attempt = attempt.max(1);
        self
    }

    /// Sets an absolute deadline. The earlier of this and the tool's own timeout wins.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(self.deadline.map_or(deadline, |d| d.min(deadline)));
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
        self.extra_mut().cancellation = Some(token);
        self
    }

    /// Sends progress, text and data chunks to `sink`.
    #[must_use]
    pub fn with_stream(mut self, sink: mpsc::Sender<ToolStreamChunk>) -> Self {
        self.extra_mut().sink = Some(sink);
        self
    }

    /// Declares the state keys the call is expected to change. When set, the state changes a
    /// tool records must have exactly these keys.
    #[must_use]
    pub fn with_expected_effects(mut self, effects: HashMap<String, Value>) -> Self {
        self.extra_mut().expected_effects = Some(effects);
        self
    }

    /// Sets the idempotency key: the same for every attempt of one logical call, so a
    /// side-effecting backend can recognise a retry of a request it already carried out.
    #[must_use]
    pub fn with_idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.extra_mut().idempotency_key = Some(key.into());
        self
    }

    /// The id of the action this call serves (empty when the caller gave none).
    #[must_use]
    pub fn action_id(&self) -> &str {
        &self.action_id
    }

    /// The session the call belongs to.
    #[must_use]
    pub fn session_id(&self) -> Option<&str> {
        self.extra.as_ref()?.session_id.as_deref()
    }

    /// 1 on the first try, 2 on the first retry.
    #[must_use]
    pub const fn attempt(&self) -> u32 {
        self.attempt
    }

    /// When the call's budget runs out.
    #[must_use]
    pub const fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Time left before the deadline.
    #[must_use]
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The idempotency key, stable across the attempts of one call, if the caller set one.
    #[must_use]
    pub fn idempotency_key(&self) -> Option<&str> {
        self.extra.as_ref()?.idempotency_key.as_deref()
    }

    /// The declared expected effects, if any.
    #[must_use]
    pub fn expected_effects(&self) -> Option<&HashMap<String, Value>> {
        self.extra.as_ref()?.expected_effects.as_ref()
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

    pub(crate) fn cancellation_token(&self) -> Option<&CancellationToken> {
        self.extra.as_ref()?.cancellation.as_ref()
    }

    fn sink(&self) -> Option<&mpsc::Sender<ToolStreamChunk>> {
        self.extra.as_ref()?.sink.as_ref()
    }

    fn extra_mut(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Box::default)
    }

    /// Whether a reader receives progress and data (a streamed call, or an MCP client that
    /// sent a progress token).
    #[must_use]
    pub fn is_streaming(&self) -> bool {
        self.sink().is_some()
    }

    /// Reports progress (clamped to 0.0..=1.0). Waits while the stream's buffer is full; a no-op
    /// when nobody listens.
    pub async fn progress(&self, fraction: f64, message: impl Into<Option<String>>) {
        let fraction = if fraction.is_nan() {
            0.0
        } else {
            fraction.clamp(0.0, 1.0)
        };
        self.send(ToolStreamChunk::Progress {
            fraction,
            message: message.into(),
        })
        .await;
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
            // A closed stream means the reader is gone; the call is being dropped anyway.
            let _ = sink.send(chunk).await;
        }
    }

    /// Records a state change the runtime should apply when the call succeeds. With expected
    /// effects declared, the recorded keys must match them exactly.
    pub fn record_state_change(&self, key: impl Into<String>, value: Value) {
        self.state_changes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get_or_insert_with(Box::default)
            .insert(key.into(), value);
        self.recorded.store(true, Ordering::Release);
    }

    /// Takes the recorded state changes, checking them against the expected effects.
    #[inline]
    pub(crate) fn take_state_changes(&self) -> Result<HashMap<String, Value>, ToolFailure> {
        if !self.recorded.load(Ordering::Acquire) {
            return Ok(HashMap::new());
        }
        self.take_recorded()
    }

    fn take_recorded(&self) -> Result<HashMap<String, Value>, ToolFailure> {
        let changes = self
            .state_changes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .map(|changes| *changes)
            .unwrap_or_default();
        if changes.is_empty() {
            return Ok(changes);
        }
        if let Some(expected) = self.expected_effects() {
            let same =
                changes.len() == expected.len() && changes.keys().all(|k| expected.contains_key(k));
            if !same {
                let mut got: Vec<&str> = changes.keys().map(String::as_str).collect();
                let mut want: Vec<&str> = expected.keys().map(String::as_str).collect();
                got.sort_unstable();
                want.sort_unstable();
                return Err(ToolFailure::terminal(format!(
                    "recorded state changes {got:?} do not match the expected effects {want:?}"
                ))
                .with_kind(crate::FailureKind::Internal)
                .with_code("state_mismatch"));
            }
        }
        Ok(changes)
    }
}
