//! The context-free fast path: [`context_free_output`] and [`call_context_free`].

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::Value;

use super::catch::{CatchUnwind, flatten};
use super::drive::guarded;
use crate::failure::ToolFailure;
use crate::tool::context::ToolContext;
use crate::tool::execution::{BoxFuture, ToolExecution};

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
    // BENCHMARKS.md §5).
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
        Guarded { call: BoxFuture<'a, Result<ToolExecution, ToolFailure>> },
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
