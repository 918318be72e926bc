//! `CallOptions`: what a caller says about one call, and the contexts built from it.

use std::collections::HashMap;
use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::tool::{Extensions, STREAM_CAPACITY, ToolContext, ToolStreamChunk};

/// The options of one [`Runtime::call_with`](super::Runtime::call_with): ids, an overall time
/// limit, expected effects, an idempotency key, cancellation and a stream sink. Every attempt
/// of the call gets a [`ToolContext`] built from them, with its own attempt number.
///
/// The default (what [`Runtime::call`](super::Runtime::call) uses) allocates nothing.
///
/// ```
/// use tool_executor::runtime::CallOptions;
/// use std::time::Duration;
///
/// let options = CallOptions::new()
///     .with_action_id("a-1")
///     .with_session_id("s-9")
///     .with_timeout(Duration::from_secs(5))
///     .with_idempotency_key("order-42");
/// assert_eq!(options.idempotency_key(), Some("order-42"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct CallOptions {
    pub(super) action_id: String,
    pub(super) session_id: Option<String>,
    pub(super) timeout: Option<Duration>,
    pub(super) deadline: Option<Instant>,
    pub(super) expected_effects: Option<HashMap<String, Value>>,
    pub(super) idempotency_key: Option<String>,
    pub(super) cancellation: Option<CancellationToken>,
    pub(super) stream: Option<mpsc::Sender<ToolStreamChunk>>,
    pub(super) extensions: Option<Extensions>,
}

impl CallOptions {
    /// What [`Runtime::call`](super::Runtime::call) uses: a value, so no call builds or drops
    /// one.
    pub(super) const DEFAULT: Self = Self {
        action_id: String::new(),
        session_id: None,
        timeout: None,
        deadline: None,
        expected_effects: None,
        idempotency_key: None,
        cancellation: None,
        stream: None,
        extensions: None,
    };

    /// No ids, no limit beyond the runtime's, no effects, no key, no cancellation, no stream.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of the action the call serves (`gen_ai.tool.call.id` in traces).
    #[must_use]
    pub fn with_action_id(mut self, action_id: impl Into<String>) -> Self {
        self.action_id = action_id.into();
        self
    }

    /// The session the call belongs to.
    #[must_use]
    pub fn with_session_id(mut self, session_id: impl Into<String>) -> Self {
        self.session_id = Some(session_id.into());
        self
    }

    /// An overall limit for the call, every attempt and backoff included (the earlier of this
    /// and the runtime's [`with_call_timeout`](super::Runtime::with_call_timeout) wins).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// An absolute overall deadline (combined with any timeout: the earlier wins).
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(self.deadline.map_or(deadline, |d| d.min(deadline)));
        self
    }

    /// The state keys the call is expected to change: a successful call's state changes must
    /// have exactly these keys.
    #[must_use]
    pub fn with_expected_effects(mut self, effects: HashMap<String, Value>) -> Self {
        self.expected_effects = Some(effects);
        self
    }

    /// The key every attempt sees as [`ToolContext::idempotency_key`]. Without one, the
    /// runtime makes one per call (32 hex digits) when it may try the call more than once (its
    /// policy allows a retry, and the tool says it is read-only or idempotent or the policy
    /// retries side effects); a call that gets one attempt gets none.
    #[must_use]
    pub fn with_idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }

    /// Lets `token` cancel the call: the running attempt is dropped and no retry follows.
    #[must_use]
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancellation = Some(token);
        self
    }

    /// Sends every attempt's progress, text and data chunks to `sink` (no terminal chunk: the
    /// call's result is the return value).
    #[must_use]
    pub fn with_stream(mut self, sink: mpsc::Sender<ToolStreamChunk>) -> Self {
        self.stream = Some(sink);
        self
    }

    /// A typed value every attempt's context carries (see
    /// [`ToolContext::extension`]): the caller's [`Principal`](crate::auth::Principal), say.
    #[must_use]
    pub fn with_extension<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.extensions
            .get_or_insert_with(Extensions::new)
            .insert(value);
        self
    }

    /// The idempotency key the caller set.
    #[must_use]
    pub fn idempotency_key(&self) -> Option<&str> {
        self.idempotency_key.as_deref()
    }

    /// The options a [`ToolContext`] received by an executor stands for, and, when the context
    /// streams, the receiver whose chunks must be relayed to it (see [`relay`]): the context
    /// itself can be handed to one executor only, and a retried call needs one per attempt.
    pub(super) fn of_context(ctx: &ToolContext) -> (Self, Option<mpsc::Receiver<ToolStreamChunk>>) {
        let mut options = Self {
            action_id: ctx.action_id().to_owned(),
            session_id: ctx.session_id().map(str::to_owned),
            deadline: ctx.deadline(),
            expected_effects: ctx.expected_effects().cloned(),
            idempotency_key: ctx.idempotency_key().map(str::to_owned),
            cancellation: ctx.cancellation_token().cloned(),
            extensions: ctx.extensions().filter(|e| !e.is_empty()).cloned(),
            ..Self::default()
        };
        if !ctx.is_streaming() {
            return (options, None);
        }
        let (tx, rx) = mpsc::channel(STREAM_CAPACITY);
        options.stream = Some(tx);
        (options, Some(rx))
    }

    /// The overall deadline of a call started now, the runtime's own limit included, and the
    /// budget it leaves (for the failure that names it). No clock is read without a limit.
    #[inline]
    pub(super) fn deadline_from(
        &self,
        runtime_limit: Option<Duration>,
    ) -> Option<(Instant, Duration)> {
        let timeout = match (self.timeout, runtime_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if timeout.is_none() && self.deadline.is_none() {
            return None;
        }
        let now = Instant::now();
        let at = match (self.deadline, timeout.map(|t| now + t)) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        Some((at, at.saturating_duration_since(now)))
    }

    /// The context of attempt `attempt`, ending at `deadline`: the empty context, which
    /// allocates nothing, when there is nothing to carry (checked inline, the rest out of
    /// line; measured in BENCHMARKS.md §11).
    #[inline]
    pub(super) fn context(
        &self,
        attempt: u32,
        deadline: Option<Instant>,
        key: Option<&str>,
    ) -> ToolContext {
        if attempt <= 1
            && deadline.is_none()
            && key.is_none()
            && self.action_id.is_empty()
            && self.session_id.is_none()
            && self.cancellation.is_none()
            && self.stream.is_none()
            && self.expected_effects.is_none()
            && self.extensions.is_none()
        {
            return ToolContext::new();
        }
        self.full_context(attempt, deadline, key)
    }

    #[inline(never)]
    fn full_context(
        &self,
        attempt: u32,
        deadline: Option<Instant>,
        key: Option<&str>,
    ) -> ToolContext {
        let mut ctx = ToolContext::new().with_attempt(attempt);
        if !self.action_id.is_empty() {
            ctx = ctx.with_action_id(self.action_id.clone());
        }
        if let Some(session) = &self.session_id {
            ctx = ctx.with_session_id(session.clone());
        }
        if let Some(deadline) = deadline {
            ctx = ctx.with_deadline(deadline);
        }
        if let Some(token) = &self.cancellation {
            ctx = ctx.with_cancellation(token.clone());
        }
        if let Some(sink) = &self.stream {
            ctx = ctx.with_stream(sink.clone());
        }
        if let Some(effects) = &self.expected_effects {
            ctx = ctx.with_expected_effects(effects.clone());
        }
        if let Some(key) = key {
            ctx = ctx.with_idempotency_key(key);
        }
        if let Some(extensions) = &self.extensions {
            ctx = ctx.with_extensions(extensions.clone());
        }
        ctx
    }
}

/// Runs `call` while handing every chunk `rx` receives to `deliver`; when `call` ends, the
/// chunks still queued are delivered before its output is returned. The one place a stream is
/// carried across a layer that makes its own contexts (retries, fallbacks, detached calls).
pub(super) async fn relay<T, D, F>(
    rx: Option<mpsc::Receiver<ToolStreamChunk>>,
    call: impl Future<Output = T>,
    mut deliver: D,
) -> T
where
    D: FnMut(ToolStreamChunk) -> F,
    F: Future<Output = ()>,
{
    let Some(mut rx) = rx else {
        return call.await;
    };
    let mut call = pin!(call);
    let output = loop {
        let next = poll_fn(|cx| {
            if let Poll::Ready(output) = call.as_mut().poll(cx) {
                return Poll::Ready(Err(output));
            }
            rx.poll_recv(cx).map(Ok)
        })
        .await;
        match next {
            Ok(Some(chunk)) => deliver(chunk).await,
            // Every sender is gone (the options holding one were dropped): only the call is left.
            Ok(None) => break call.await,
            Err(output) => break output,
        }
    };
    while let Ok(chunk) = rx.try_recv() {
        deliver(chunk).await;
    }
    output
}

/// Hands a relayed chunk to the context a layer received, through its public methods.
pub(super) async fn forward(ctx: &ToolContext, chunk: ToolStreamChunk) {
    match chunk {
        ToolStreamChunk::Progress { fraction, message } => ctx.progress(fraction, message).await,
        ToolStreamChunk::Text { text } => ctx.text(text).await,
        ToolStreamChunk::Data { data } => {
            // A `Value` always serializes.
            let _ = ctx.emit(&data).await;
        }
        // The terminal chunk belongs to whoever ends the outer stream, not to a tool's sink.
        ToolStreamChunk::Done { .. } | ToolStreamChunk::Error { .. } => {}
    }
}
