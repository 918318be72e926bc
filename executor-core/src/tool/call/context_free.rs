//! The context-free fast path: [`context_free_output`] and [`call_context_free`].

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::Value;

use super::catch::{CatchUnwind, flatten};
use super::drive::Guard;
use crate::failure::ToolFailure;
use crate::tool::context::ToolContext;
use crate::tool::execution::ToolExecution;

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
    // Forced only where it pays: a debug build would compile a copy into each wrapper of every
    // tool (BENCHMARKS.md §9).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let tool = *this.tool;
        this.body.poll(cx).map(|caught| flatten(tool, caught))
    }
}

// Input:  a context-free tool's output future and the call's context
// Output: the output as a `ToolExecution` when the context has no deadline and no token (the
//         context is dropped here, so no tool future carries it), else the output under them,
//         with the timer and the cancellation wait in one allocation (a `Guard`, the same type
//         for every tool, so a crate of tools compiles it once: BENCHMARKS.md §9).
/// A call of `tool`, which reads nothing of its context: such a tool records no state changes
/// (so any expected effects hold) and sees no ids, so the context only matters for its
/// deadline and cancellation token.
/// `output` is the tool's [`context_free_output`] (directly or as `Tool::output`), which catches the
/// body's panics itself.
#[inline]
pub fn call_context_free<F>(tool: &'static str, ctx: ToolContext, output: F) -> ContextFreeCall<F>
where
    F: Future<Output = Result<Value, ToolFailure>> + Send,
{
    let state = match ctx.release_unguarded() {
        Ok(()) => ContextFreeState::Inert { output },
        Err(ctx) => ContextFreeState::Guarded {
            output,
            guard: Held::new(tool, ctx),
        },
    };
    ContextFreeCall { state }
}

pin_project_lite::pin_project! {
    /// The future [`call_context_free`] returns.
    #[must_use = "futures do nothing unless awaited"]
    pub struct ContextFreeCall<F> {
        #[pin]
        state: ContextFreeState<F>,
    }
}

pin_project_lite::pin_project! {
    #[project = ContextFreeProj]
    enum ContextFreeState<F> {
        /// No deadline and no token: the output, in place.
        Inert { #[pin] output: F },
        /// The output in place, the timer and the cancellation wait boxed beside it.
        Guarded {
            #[pin]
            output: F,
            guard: Pin<Box<Held>>,
        },
    }
}

pin_project_lite::pin_project! {
    /// The guard of a context-free call, with the tool's name and the context, which is kept
    /// until the call ends: one allocation, the same type for every tool.
    struct Held {
        #[pin]
        guard: Guard,
        tool: &'static str,
        ctx: ToolContext,
    }
}

impl Held {
    fn new(tool: &'static str, mut ctx: ToolContext) -> Pin<Box<Self>> {
        // The tool never sees its context, so the token moves to the guard.
        let token = ctx.take_cancellation();
        Box::pin(Self {
            guard: Guard::with_token(&ctx, None, token),
            tool,
            ctx,
        })
    }

    fn cancelled(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Option<ToolFailure> {
        let this = self.project();
        this.guard.cancelled(this.tool, cx)
    }

    fn expired(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Option<ToolFailure> {
        let this = self.project();
        this.guard.expired(this.tool, cx)
    }
}

impl<F> Future for ContextFreeCall<F>
where
    F: Future<Output = Result<Value, ToolFailure>>,
{
    type Output = Result<ToolExecution, ToolFailure>;

    #[allow(clippy::inline_always)]
    // Forced only where it pays: a debug build would compile a copy into each wrapper of every
    // tool (BENCHMARKS.md §9).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project().state.project() {
            ContextFreeProj::Inert { output } => output
                .poll(cx)
                .map(|output| output.map(ToolExecution::output_only)),
            ContextFreeProj::Guarded { output, guard } => {
                if let Some(failure) = guard.as_mut().cancelled(cx) {
                    return Poll::Ready(Err(failure));
                }
                if let Poll::Ready(output) = output.poll(cx) {
                    return Poll::Ready(output.map(ToolExecution::output_only));
                }
                match guard.as_mut().expired(cx) {
                    Some(failure) => Poll::Ready(Err(failure)),
                    None => Poll::Pending,
                }
            }
        }
    }
}
