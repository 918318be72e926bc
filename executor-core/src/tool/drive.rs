//! Drives one call: catches panics, enforces the deadline, honours cancellation.

use std::any::Any;
use std::fmt;
use std::future::{Future, poll_fn};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::{Pin, pin};
use std::task::{Context, Poll};
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

use super::context::ToolContext;
use super::executor::{BoxFuture, ToolExecution};
use crate::{FailureKind, ToolFailure};

/// Runs `fut` for `tool` under the context's deadline (and the tool's own `timeout`, whichever
/// ends first) and cancellation. A panic becomes an internal failure; an expired deadline a
/// timeout failure; a cancellation a cancelled failure. In each case `fut` is dropped.
///
/// Costs nothing extra when there is no deadline and no cancellation token: no timer is
/// armed, nothing is allocated, and the returned future is a plain struct that polls `fut`
/// under `catch_unwind` (no state machine of its own). With either, the timer and the
/// cancellation wait live in one extra allocation, which keeps them out of every tool's future
/// (measured in BENCHMARKS.md).
///
/// `fut` is `Unpin` (generated tools pass their body pinned in place, other callers a box), so
/// the plain path needs no pin projection.
///
/// # Errors
/// `fut`'s own failure, or a panic, timeout or cancellation failure.
#[inline]
pub fn drive<'a, T, F>(
    tool: &'a str,
    ctx: &'a ToolContext,
    timeout: Option<Duration>,
    fut: F,
) -> Drive<'a, F, impl Future<Output = Result<T, ToolFailure>> + 'a>
where
    F: Future<Output = Result<T, ToolFailure>> + Unpin + 'a,
    T: 'a,
{
    if timeout.is_none() && unguarded(ctx) {
        return Drive(State::Plain { tool, fut });
    }
    Drive(State::Guarded(Box::pin(guarded(tool, ctx, timeout, fut))))
}

/// Whether [`drive`] under `ctx` would only catch panics: no deadline and no cancellation
/// token.
#[inline]
fn unguarded(ctx: &ToolContext) -> bool {
    ctx.deadline().is_none() && ctx.cancellation_token().is_none()
}

/// A context-free tool's call: `body` (decode, run, encode) with its output as a
/// [`ToolExecution`] and a panic while polling it an internal failure of `tool`. This is the
/// whole of [`drive`] for a call without a deadline or cancellation token, as a thin wrapper
/// around `body`: no state machine of its own and no context.
#[inline]
pub fn plain_call<F>(tool: &'static str, body: F) -> PlainCall<F>
where
    F: Future<Output = Result<Value, ToolFailure>>,
{
    PlainCall { tool, body }
}

pin_project_lite::pin_project! {
    /// The future [`plain_call`] returns.
    #[must_use = "futures do nothing unless awaited"]
    pub struct PlainCall<F> {
        tool: &'static str,
        #[pin]
        body: F,
    }
}

impl<F> Future for PlainCall<F>
where
    F: Future<Output = Result<Value, ToolFailure>>,
{
    type Output = Result<ToolExecution, ToolFailure>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        match catch_unwind(AssertUnwindSafe(|| this.body.poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(output.map(ToolExecution::output_only)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(panicked(this.tool, &*payload))),
        }
    }
}

/// A tool that reads nothing of its context but the deadline and the cancellation token (it
/// takes no `&ToolContext` and has no `timeout`), called under `ctx`: `plain` itself when the
/// context has neither (the context is dropped here, so no tool future carries it), otherwise
/// `plain` under the context's deadline and token, in one more allocation next to the timer.
/// Generated tools build `plain` with [`plain_call`] (measured in BENCHMARKS.md).
#[inline]
pub fn with_context<'a>(
    tool: &'static str,
    ctx: ToolContext,
    plain: BoxFuture<'a, Result<ToolExecution, ToolFailure>>,
) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
    if unguarded(&ctx) {
        return plain;
    }
    Box::pin(async move { guarded(tool, &ctx, None, plain).await })
}

/// The future [`drive`] returns.
#[must_use = "futures do nothing unless awaited"]
pub struct Drive<'a, F, G>(State<'a, F, G>);

enum State<'a, F, G> {
    /// No deadline, timeout or token: only panics are caught.
    Plain { tool: &'a str, fut: F },
    /// The timer and the cancellation wait, in one allocation.
    Guarded(Pin<Box<G>>),
}

impl<T, F, G> Future for Drive<'_, F, G>
where
    F: Future<Output = Result<T, ToolFailure>> + Unpin,
    G: Future<Output = Result<T, ToolFailure>>,
{
    type Output = Result<T, ToolFailure>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // Every field is `Unpin` (`F` by bound, the guarded future boxed).
        match &mut self.get_mut().0 {
            State::Plain { tool, fut } => {
                match catch_unwind(AssertUnwindSafe(|| Pin::new(&mut *fut).poll(cx))) {
                    Ok(poll) => poll,
                    Err(payload) => Poll::Ready(Err(panicked(tool, &*payload))),
                }
            }
            State::Guarded(fut) => fut.as_mut().poll(cx),
        }
    }
}

/// `drive` with a deadline or a cancellation token.
async fn guarded<T, F>(
    tool: &str,
    ctx: &ToolContext,
    timeout: Option<Duration>,
    fut: F,
) -> Result<T, ToolFailure>
where
    F: Future<Output = Result<T, ToolFailure>>,
{
    let now = timeout
        .or(ctx.deadline().map(|_| Duration::ZERO))
        .map(|_| Instant::now());
    let own_deadline = timeout.zip(now).map(|(t, now)| now + t);
    let deadline = match (own_deadline, ctx.deadline()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let budget = deadline
        .zip(now)
        .map(|(d, now)| d.saturating_duration_since(now));
    let mut fut = pin!(fut);
    let mut sleep = pin!(deadline.map(tokio::time::sleep_until));
    let mut cancelled = pin!(ctx.cancellation_token().map(|t| t.cancelled()));
    poll_fn(|cx| {
        if let Some(c) = cancelled.as_mut().as_pin_mut()
            && c.poll(cx).is_ready()
        {
            return Poll::Ready(Err(ToolFailure::cancelled(tool)));
        }
        match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
            Ok(Poll::Ready(result)) => return Poll::Ready(result),
            Ok(Poll::Pending) => {}
            Err(payload) => return Poll::Ready(Err(panicked(tool, &*payload))),
        }
        if let Some(s) = sleep.as_mut().as_pin_mut()
            && s.poll(cx).is_ready()
        {
            return Poll::Ready(Err(ToolFailure::timeout(tool, budget.unwrap_or_default())));
        }
        Poll::Pending
    })
    .await
}

/// The text of a panic, kept as the failure's source so logs see it and models do not.
#[derive(Debug)]
struct Panic(String);

impl fmt::Display for Panic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "panic: {}", self.0)
    }
}

impl std::error::Error for Panic {}

fn panicked(tool: &str, payload: &(dyn Any + Send)) -> ToolFailure {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".to_owned());
    ToolFailure::ordinary(format!("tool `{tool}` panicked"))
        .with_kind(FailureKind::Internal)
        .with_code("panic")
        .with_source(Panic(text))
}
