//! The deadline and cancellation guard every call runs under ([`drive`]), and [`finish`].

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use serde_json::Value;
use tokio::time::{Instant, Sleep};
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};

use super::catch::{CatchUnwind, flatten};
use crate::failure::ToolFailure;
use crate::tool::context::ToolContext;
use crate::tool::execution::ToolExecution;

/// Runs `fut` for `tool` under the context's deadline (and the tool's own `timeout`, whichever
/// ends first) and cancellation. A panic becomes an internal failure; an expired deadline a
/// timeout failure; a cancellation a cancelled failure. In each case `fut` is dropped.
///
/// Costs nothing extra when there is no deadline and no cancellation token: no timer is
/// armed, nothing is allocated, and the returned future is a plain struct that polls `fut`
/// under `catch_unwind` (no state machine of its own). With either, the timer and the
/// cancellation wait live in one extra allocation (a `Guard`), which keeps them out of every
/// tool's future (measured in BENCHMARKS.md §5) and is the same type for every tool, so a
/// crate of tools compiles it once (§9).
///
/// `fut` is `Unpin` (generated tools pass their body pinned in place, other callers a box), so
/// no pin projection is needed.
///
/// # Errors
/// `fut`'s own failure, or a panic, timeout or cancellation failure.
#[inline]
pub fn drive<'a, T, F>(
    tool: &'a str,
    ctx: &'a ToolContext,
    timeout: Option<Duration>,
    fut: F,
) -> Drive<'a, F>
where
    F: Future<Output = Result<T, ToolFailure>> + Unpin + 'a,
    T: 'a,
{
    let guard = if timeout.is_none() && ctx.is_unguarded() {
        None
    } else {
        Some(Box::pin(Guard::new(ctx, timeout)))
    };
    Drive {
        tool,
        fut: CatchUnwind::new(fut),
        guard,
    }
}

/// The future [`drive`] returns.
#[must_use = "futures do nothing unless awaited"]
pub struct Drive<'a, F> {
    tool: &'a str,
    fut: CatchUnwind<F>,
    /// The deadline and cancellation wait; `None` without either: only panics are caught.
    guard: Option<Pin<Box<Guard>>>,
}

impl<T, F> Future for Drive<'_, F>
where
    F: Future<Output = Result<T, ToolFailure>> + Unpin,
{
    type Output = Result<T, ToolFailure>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // Every field is `Unpin` (`F` by bound, so `CatchUnwind<F>`; the guard boxed).
        let this = self.get_mut();
        let Some(guard) = &mut this.guard else {
            return Pin::new(&mut this.fut)
                .poll(cx)
                .map(|c| flatten(this.tool, c));
        };
        if let Some(failure) = guard.as_mut().cancelled(this.tool, cx) {
            return Poll::Ready(Err(failure));
        }
        if let Poll::Ready(caught) = Pin::new(&mut this.fut).poll(cx) {
            return Poll::Ready(flatten(this.tool, caught));
        }
        match guard.as_mut().expired(this.tool, cx) {
            Some(failure) => Poll::Ready(Err(failure)),
            None => Poll::Pending,
        }
    }
}

pin_project_lite::pin_project! {
    /// A call's deadline (the context's, or the tool's own `timeout` if that ends first) and
    /// cancellation wait, boxed beside the call's future. Not generic: one copy serves every tool.
    pub(super) struct Guard {
        #[pin]
        cancelled: Option<WaitForCancellationFutureOwned>,
        #[pin]
        sleep: Option<Sleep>,
        budget: Option<Duration>,
    }
}

impl Guard {
    /// The guard for a call under `ctx` with the tool's own `timeout`.
    pub(super) fn new(ctx: &ToolContext, timeout: Option<Duration>) -> Self {
        Self::with_token(ctx, timeout, ctx.cancellation_token().cloned())
    }

    /// [`new`](Self::new) with the context's cancellation token already taken out of it (no
    /// clone, whose count is kept under a lock).
    pub(super) fn with_token(
        ctx: &ToolContext,
        timeout: Option<Duration>,
        token: Option<CancellationToken>,
    ) -> Self {
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
        Self {
            cancelled: token.map(CancellationToken::cancelled_owned),
            sleep: deadline.map(tokio::time::sleep_until),
            budget,
        }
    }

    /// Polled before the call: the cancelled failure of `tool` once the token is cancelled.
    pub(super) fn cancelled(
        self: Pin<&mut Self>,
        tool: &str,
        cx: &mut Context<'_>,
    ) -> Option<ToolFailure> {
        let cancelled = self.project().cancelled.as_pin_mut()?;
        cancelled
            .poll(cx)
            .is_ready()
            .then(|| ToolFailure::cancelled(tool))
    }

    /// Polled after the call, while it is pending: the timeout failure of `tool` once the
    /// deadline has passed.
    pub(super) fn expired(
        self: Pin<&mut Self>,
        tool: &str,
        cx: &mut Context<'_>,
    ) -> Option<ToolFailure> {
        let this = self.project();
        let sleep = this.sleep.as_pin_mut()?;
        sleep
            .poll(cx)
            .is_ready()
            .then(|| ToolFailure::timeout(tool, this.budget.unwrap_or_default()))
    }
}

/// Wraps a tool's encoded output with the state changes it recorded.
///
/// # Errors
/// A terminal failure when the recorded keys differ from the expected effects.
#[inline]
pub fn finish(output: Value, ctx: &ToolContext) -> Result<ToolExecution, ToolFailure> {
    Ok(ToolExecution {
        output,
        state_changes: ctx.take_state_changes()?,
    })
}
