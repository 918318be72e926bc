//! Sync tools that read their context ([`call_blocking`]): the body runs on Tokio's blocking
//! pool, so the caller's deadline, the tool's `timeout` and a cancellation end the call on time
//! even while the body blocks (issue 15, point 4).

use std::panic::resume_unwind;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::drive::{drive, finish};
use crate::failure::ToolFailure;
use crate::tool::context::ToolContext;
use crate::tool::execution::ToolExecution;

// Input:  a sync tool's body (decode, run, encode) as a closure of the arguments and the context
// Output: the closure on the blocking pool, its join handle awaited under `drive` (the one
//         deadline, cancellation and panic boundary), then the recorded state changes.
/// A call of a sync tool that takes a `&ToolContext` or has a `timeout`: `body` runs on Tokio's
/// blocking pool with its own copy of the arguments and a shared handle to the context, and
/// the call awaits it under the context's deadline, the tool's `timeout` and cancellation.
///
/// On a timeout or a cancellation the caller gets the failure at once, but the blocking thread
/// runs on until `body` returns (a thread cannot be stopped from outside); what it records or
/// streams after that is dropped. A body that wants to stop early polls
/// [`ToolContext::is_cancelled`] or [`ToolContext::remaining`]. A panic in `body` is the same
/// internal failure as a panic in an async tool.
///
/// Outside a Tokio runtime (a future polled by another executor) `body` runs in place, as it
/// did before, under the same boundary.
///
/// # Errors
/// `body`'s own failure, a panic, timeout or cancellation failure, or a state mismatch.
pub async fn call_blocking<F>(
    tool: &'static str,
    params: &Value,
    ctx: ToolContext,
    timeout: Option<Duration>,
    body: F,
) -> Result<ToolExecution, ToolFailure>
where
    F: FnOnce(&Value, &ToolContext) -> Result<Value, ToolFailure> + Send + 'static,
{
    // Shared rather than moved: the blocking thread reads and records through it, this side
    // guards the call with its deadline and token and takes the state changes.
    let ctx = Arc::new(ctx);
    let output = if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        let (params, shared) = (params.clone(), Arc::clone(&ctx));
        let joined = async move {
            match runtime.spawn_blocking(move || body(&params, &shared)).await {
                Ok(output) => output,
                // Re-raised here so `drive`'s panic boundary words it like any other.
                Err(e) if e.is_panic() => resume_unwind(e.into_panic()),
                // The runtime is shutting down.
                Err(_) => Err(ToolFailure::cancelled(tool)),
            }
        };
        drive(tool, &ctx, timeout, pin!(joined)).await?
    } else {
        let inline = async { body(params, &ctx) };
        drive(tool, &ctx, timeout, pin!(inline)).await?
    };
    finish(output, &ctx)
}
