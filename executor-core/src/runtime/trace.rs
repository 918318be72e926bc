//! Spans for calls and attempts (feature `tracing`), named after the OpenTelemetry `GenAI`
//! conventions for tool calls: a call span `execute_tool {tool}` with `gen_ai.operation.name`,
//! `gen_ai.tool.name`, `gen_ai.tool.call.id` and `error.type`, and inside it one span per
//! attempt. Both record `executor.outcome` (`ok` / `failed`), `executor.failure_code` and
//! `executor.duration_ms`; attempts also `executor.attempt`. Without the feature these
//! functions return the future they are given.

use std::future::Future;

use crate::failure::ToolFailure;
use crate::tool::BoxFuture;

/// The span of one call (every attempt and backoff inside it).
#[cfg(feature = "tracing")]
pub(super) fn instrument<F, T>(tool: &str, call_id: &str, fut: F) -> Traced<F>
where
    F: Future<Output = Result<T, ToolFailure>>,
{
    let span = tracing::info_span!(
        "execute_tool",
        "otel.name" = %format_args!("execute_tool {tool}"),
        "gen_ai.operation.name" = "execute_tool",
        "gen_ai.tool.name" = tool,
        "gen_ai.tool.call.id" = tracing::field::Empty,
        "error.type" = tracing::field::Empty,
        "executor.outcome" = tracing::field::Empty,
        "executor.failure_code" = tracing::field::Empty,
        "executor.duration_ms" = tracing::field::Empty,
    );
    if !call_id.is_empty() {
        span.record("gen_ai.tool.call.id", call_id);
    }
    Traced::new(span, fut, true)
}

/// The span of one attempt.
#[cfg(feature = "tracing")]
pub(super) fn attempt<F, T>(tool: &str, attempt: u32, fut: F) -> Traced<F>
where
    F: Future<Output = Result<T, ToolFailure>>,
{
    let span = tracing::info_span!(
        "tool_attempt",
        "gen_ai.tool.name" = tool,
        "executor.attempt" = attempt,
        "executor.outcome" = tracing::field::Empty,
        "executor.failure_code" = tracing::field::Empty,
        "executor.duration_ms" = tracing::field::Empty,
    );
    Traced::new(span, fut, false)
}

/// [`attempt`] of an executor's boxed future, as a boxed future.
#[cfg(feature = "tracing")]
pub(super) fn boxed_attempt<'a, T: 'a>(
    tool: &str,
    attempt: u32,
    fut: BoxFuture<'a, Result<T, ToolFailure>>,
) -> BoxFuture<'a, Result<T, ToolFailure>> {
    Box::pin(self::attempt(tool, attempt, fut))
}

#[cfg(feature = "tracing")]
pin_project_lite::pin_project! {
    /// A future polled inside its span, whose outcome and duration the span records when it
    /// ends. A struct rather than an `async` block, so the wrapped future is stored once.
    pub(super) struct Traced<F> {
        #[pin]
        fut: F,
        span: tracing::Span,
        started: tokio::time::Instant,
        error_type: bool,
    }
}

#[cfg(feature = "tracing")]
impl<F> Traced<F> {
    fn new(span: tracing::Span, fut: F, error_type: bool) -> Self {
        Self {
            fut,
            span,
            started: tokio::time::Instant::now(),
            error_type,
        }
    }
}

#[cfg(feature = "tracing")]
impl<F, T> Future for Traced<F>
where
    F: Future<Output = Result<T, ToolFailure>>,
{
    type Output = F::Output;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let this = self.project();
        let outcome = {
            let _entered = this.span.enter();
            std::task::ready!(this.fut.poll(cx))
        };
        let span = &*this.span;
        let ms = u64::try_from(this.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        span.record("executor.duration_ms", ms);
        match &outcome {
            Ok(_) => {
                span.record("executor.outcome", "ok");
            }
            Err(failure) => {
                span.record("executor.outcome", "failed");
                span.record("executor.failure_code", failure.code());
                if *this.error_type {
                    span.record("error.type", failure.code());
                }
            }
        }
        std::task::Poll::Ready(outcome)
    }
}

/// The span of one call: without the feature, the call itself.
#[cfg(not(feature = "tracing"))]
#[inline]
pub(super) fn instrument<F, T>(_tool: &str, _call_id: &str, fut: F) -> F
where
    F: Future<Output = Result<T, ToolFailure>>,
{
    fut
}

/// [`attempt`] of an executor's boxed future: without the feature, the future itself.
#[cfg(not(feature = "tracing"))]
#[inline]
pub(super) fn boxed_attempt<'a, T>(
    _tool: &str,
    _attempt: u32,
    fut: BoxFuture<'a, Result<T, ToolFailure>>,
) -> BoxFuture<'a, Result<T, ToolFailure>> {
    fut
}

/// The span of one attempt: without the feature, the attempt itself.
#[cfg(not(feature = "tracing"))]
#[inline]
pub(super) fn attempt<F, T>(_tool: &str, _attempt: u32, fut: F) -> F
where
    F: Future<Output = Result<T, ToolFailure>>,
{
    fut
}
