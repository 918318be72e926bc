//! The `ToolExecutor` trait (the seed contract).

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;

use super::call::drive::drive;
use super::context::ToolContext;
use super::execution::{BoxFuture, SpecList, ToolExecution};
use super::listing::ListChanges;
use super::stream::{ToolStreamChunk, stream_unsupported};
use crate::failure::ToolFailure;

/// Runs tools by name. This is the seed system's contract, kept method for method, plus
/// [`execute_with_context`](Self::execute_with_context) (the one path generated executors funnel
/// every method into, so no layer loses the action id, session, attempt, typed failure or state
/// changes) and [`specs`](Self::specs).
///
/// Only [`execute`](Self::execute) is required; the provided methods delegate as in the seed:
/// `execute_with_action` → `execute`, `execute_with_action_in_session` → `execute_with_action`,
/// `execute_with_action_state_in_session` → `…_in_session` (output only),
/// `execute_classified` → `…_state_in_session` (string errors become ordinary failures),
/// `execute_with_context` → `execute_classified`.
///
/// Contracts: `attempt` is 1-based; `timeout_ms` bounds every wait; expected effects are
/// assertions, never writes; a stream ends with one terminal chunk and dropping its receiver
/// cancels the work.
///
/// The trait is dyn-compatible: executors are used as `Arc<dyn ToolExecutor>`.
pub trait ToolExecutor: Send + Sync {
    /// Runs `tool` with `params`. Errors are plain text.
    fn execute<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
    ) -> BoxFuture<'a, Result<Value, String>>;

    /// Like `execute`, with the originating action id and its time budget.
    fn execute_with_action<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
        timeout_ms: Option<u64>,
    ) -> BoxFuture<'a, Result<Value, String>> {
        let _ = (action_id, timeout_ms);
        self.execute(tool, params)
    }

    /// Like `execute_with_action`, with the session and the 1-based attempt.
    #[allow(clippy::too_many_arguments)] // the seed contract's signature
    fn execute_with_action_in_session<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
        timeout_ms: Option<u64>,
        session_id: Option<&'a str>,
        attempt: u32,
    ) -> BoxFuture<'a, Result<Value, String>> {
        let _ = (session_id, attempt);
        self.execute_with_action(tool, params, action_id, timeout_ms)
    }

    /// Like `execute_with_action_in_session`, returning the state changes too. Expected effects
    /// are assertions about which keys change, never writes.
    #[allow(clippy::too_many_arguments)] // the seed contract's signature
    fn execute_with_action_state_in_session<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
        timeout_ms: Option<u64>,
        session_id: Option<&'a str>,
        attempt: u32,
        expected_effects: &'a HashMap<String, Value>,
        return_schema: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<ToolExecution, String>> {
        let _ = (expected_effects, return_schema);
        let fut = self.execute_with_action_in_session(
            tool, params, action_id, timeout_ms, session_id, attempt,
        );
        Box::pin(async move { fut.await.map(ToolExecution::output_only) })
    }

    /// The typed path: failures keep their classification, code and kind.
    #[allow(clippy::too_many_arguments)] // the seed contract's signature
    fn execute_classified<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
        timeout_ms: Option<u64>,
        session_id: Option<&'a str>,
        attempt: u32,
        expected_effects: &'a HashMap<String, Value>,
        return_schema: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let fut = self.execute_with_action_state_in_session(
            tool,
            params,
            action_id,
            timeout_ms,
            session_id,
            attempt,
            expected_effects,
            return_schema,
        );
        Box::pin(async move { fut.await.map_err(ToolFailure::ordinary) })
    }

    /// Starts `tool` and returns a bounded channel of chunks ending in one terminal chunk.
    /// Dropping the receiver cancels the work. The default refuses: one-shot executors do not
    /// stream.
    fn execute_stream<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
    ) -> BoxFuture<'a, Result<mpsc::Receiver<ToolStreamChunk>, String>> {
        let _ = (params, action_id);
        Box::pin(std::future::ready(Err(stream_unsupported(tool))))
    }

    /// Runs `tool` with a full [`ToolContext`]: deadline, cancellation, stream sink and
    /// expected effects included. Generated executors implement every other method through
    /// this one. The default forwards to [`execute_classified`](Self::execute_classified).
    fn execute_with_context<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        Box::pin(async move {
            let timeout_ms = ctx
                .remaining()
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
            let empty = HashMap::new();
            let effects = ctx.expected_effects().unwrap_or(&empty);
            let call = self.execute_classified(
                tool,
                params,
                ctx.action_id(),
                timeout_ms,
                ctx.session_id(),
                ctx.attempt(),
                effects,
                None,
            );
            drive(tool, &ctx, None, call).await
        })
    }

    /// The tools this executor serves. The default is empty (an executor that cannot list).
    fn specs(&self) -> SpecList {
        Arc::from(Vec::new())
    }

    /// The tools the caller `ctx` describes may see: what servers list to that caller. The
    /// default is every tool ([`specs`](Self::specs)); an executor with per-caller visibility
    /// ([`transform::Transformed`](crate::transform::Transformed)) leaves out what the caller
    /// may not call.
    fn specs_for(&self, ctx: &ToolContext) -> SpecList {
        let _ = ctx;
        self.specs()
    }

    /// Changes of the listing at run time, for servers to pass on to their clients; `None`
    /// (the default) when the listing never changes.
    fn list_changes(&self) -> Option<ListChanges> {
        None
    }
}
