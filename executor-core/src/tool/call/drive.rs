//! The deadline and cancellation guard every call runs under ([`drive`]), and [`finish`].

use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::task::{Context, Poll};
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

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
/// cancellation wait live in one extra allocation, which keeps them out of every tool's future
/// (measured in BENCHMARKS.md §5).
///
/// `fut` is `Unpin` (generated tools pass their body pinned in place, other callers a box), so
/// the unguarded path needs no pin projection.
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
    if timeout.is_none() && ctx.is_unguarded() {
        return Drive(State::Unguarded {
            tool,
            fut: CatchUnwind::new(fut),
        });
    }
    Drive(State::Guarded(Box::pin(guarded(tool, ctx, timeout, fut))))
}

/// The future [`drive`] returns.
#[must_use = "futures do nothing unless awaited"]
pub struct Drive<'a, F, G>(State<'a, F, G>);

enum State<'a, F, G> {
    /// No deadline, timeout or token: only panics are caught.
    Unguarded { tool: &'a str, fut: CatchUnwind<F> },
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
        // Every field is `Unpin` (`F` by bound, so `CatchUnwind<F>`; the guarded future boxed).
        match &mut self.get_mut().0 {
            State::Unguarded { tool, fut } => Pin::new(fut).poll(cx).map(|c| flatten(tool, c)),
            State::Guarded(fut) => fut.as_mut().poll(cx),
        }
    }
}

/// `drive` with a deadline or a cancellation token.
pub(super) async fn guarded<T, F>(
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
    let mut fut = pin!(CatchUnwind::new(fut));
    let mut sleep = pin!(deadline.map(tokio::time::sleep_until));
    let mut cancelled = pin!(ctx.cancellation_token().map(|t| t.cancelled()));
    poll_fn(|cx| {
        if let Some(c) = cancelled.as_mut().as_pin_mut()
            && c.poll(cx).is_ready()
        {
            return Poll::Ready(Err(ToolFailure::cancelled(tool)));
        }
        if let Poll::Ready(caught) = fut.as_mut().poll(cx) {
            return Poll::Ready(flatten(tool, caught));
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
