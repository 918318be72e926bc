//! The call path every tool runs on: the argument decoder ([`args`]), the one panic
//! boundary ([`CatchUnwind`]), the deadline and cancellation guard ([`drive`]), and the
//! context-free fast path ([`context_free_output`], [`call_context_free`]), and sync tools on the blocking pool
//! ([`call_blocking`]).

pub(crate) mod adapt;
pub(crate) mod args;
mod blocking;
mod catch;

use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::task::{Context, Poll};
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

use super::context::ToolContext;
use super::executor::ToolExecution;
use crate::ToolFailure;

pub use blocking::call_blocking;
use catch::flatten;
pub use catch::{CatchUnwind, Panic};

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

// Input:  a context-free tool's body (decode, run, encode)
// Output: the body under the panic boundary, its output a `Value`: what `Tool::output`
//         returns, and what `call_context_free` runs with or without the call's context.
/// The output of a tool that reads nothing of its context (it takes no `&ToolContext` and has
/// no `timeout`): `body` under the panic boundary, a panic an internal failure of `tool`.
#[inline]
pub fn context_free_output<F>(tool: &'static str, body: F) -> ContextFreeOutput<F>
where
    F: Future<Output = Result<Value, ToolFailure>>,
{
    ContextFreeOutput {
        tool,
        body: CatchUnwind::new(body),
    }
}

pin_project_lite::pin_project! {
    /// The future [`context_free_output`] returns.
    #[must_use = "futures do nothing unless awaited"]
    pub struct ContextFreeOutput<F> {
        tool: &'static str,
        #[pin]
        body: CatchUnwind<F>,
    }
}

impl<F> Future for ContextFreeOutput<F>
where
    F: Future<Output = Result<Value, ToolFailure>>,
{
    type Output = Result<Value, ToolFailure>;

    // Always inlined: every wrapper of the plain call (`ContextFreeCall`, `FnTool`'s boxes) then
    // polls the body itself instead of copying its result through one more frame (measured in
    // BENCHMARKS.md).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let tool = *this.tool;
        this.body.poll(cx).map(|caught| flatten(tool, caught))
    }
}

// Input:  a context-free tool's output future and the call's context
// Output: the output as a `ToolExecution` when the context has no deadline and no token (the
//         context is dropped here, so no tool future carries it), else the output under them,
//         in one more allocation next to the timer.
/// A call of `tool`, which reads nothing of its context: such a tool records no state changes
/// (so any expected effects hold) and sees no ids, so the context only matters for its
/// deadline and cancellation token.
/// `output` is the tool's [`context_free_output`] (directly or as `Tool::output`), which catches the
/// body's panics itself.
#[inline]
pub fn call_context_free<'a, F>(
    tool: &'static str,
    ctx: ToolContext,
    output: F,
) -> ContextFreeCall<'a, F>
where
    F: Future<Output = Result<Value, ToolFailure>> + Send + 'a,
{
    let state = match ctx.release_unguarded() {
        Ok(()) => ContextFreeState::Inert { output },
        Err(ctx) => ContextFreeState::Guarded {
            call: Box::pin(async move {
                let out = guarded(tool, &ctx, None, output).await?;
                Ok(ToolExecution::output_only(out))
            }),
        },
    };
    ContextFreeCall { state }
}

pin_project_lite::pin_project! {
    /// The future [`call_context_free`] returns.
    #[must_use = "futures do nothing unless awaited"]
    pub struct ContextFreeCall<'a, F> {
        #[pin]
        state: ContextFreeState<'a, F>,
    }
}

pin_project_lite::pin_project! {
    #[project = ContextFreeProj]
    enum ContextFreeState<'a, F> {
        /// No deadline and no token: the output, in place.
        Inert { #[pin] output: F },
        /// The output, the timer and the cancellation wait, in one allocation.
        Guarded { call: crate::BoxFuture<'a, Result<ToolExecution, ToolFailure>> },
    }
}

impl<F> Future for ContextFreeCall<'_, F>
where
    F: Future<Output = Result<Value, ToolFailure>>,
{
    type Output = Result<ToolExecution, ToolFailure>;

    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project().state.project() {
            ContextFreeProj::Inert { output } => output
                .poll(cx)
                .map(|output| output.map(ToolExecution::output_only)),
            ContextFreeProj::Guarded { call } => call.as_mut().poll(cx),
        }
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

/// Names the parts of a `Result` return type, so aliases like `io::Result<T>` work.
pub trait ResultParts {
    /// The success type.
    type Ok;
    /// The error type.
    type Err;
    /// Back to a plain `Result`.
    ///
    /// # Errors
    /// The error the value holds.
    fn into_result(self) -> Result<Self::Ok, Self::Err>;
}

impl<T, E> ResultParts for Result<T, E> {
    type Ok = T;
    type Err = E;
    #[inline]
    fn into_result(self) -> Result<T, E> {
        self
    }
}
