//! `ContextExecutor`: the one path every generated executor is written against, and the
//! blanket `impl ToolExecutor` that provides every seed method through it.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;

use super::call::adapt::{Adapted, ForSeed};
use super::context::ToolContext;
use super::execution::{BoxFuture, SpecList, ToolExecution};
use super::executor::ToolExecutor;
use super::listing::ListChanges;
use super::stream::{ToolStreamChunk, stream_unsupported};
use crate::failure::ToolFailure;
use crate::failure::transport::for_seed;

/// An executor written against one method that takes the full [`ToolContext`]. Every type that
/// implements it is a [`ToolExecutor`] (a blanket impl): each of the seed's methods builds the
/// context its arguments describe ([`ToolContext::from_seed`]) and calls
/// [`dispatch`](Self::dispatch), so no layer loses the action id, session, attempt, expected effects,
/// typed failure or state changes. String errors are `failure::transport::for_seed`.
///
/// `ToolSet`, `#[tools]` types, `Runtime`, `FallbackChain`, `PrefixRouter`, `McpToolExecutor`,
/// `A2aToolExecutor` and `SubprocessToolExecutor` implement this; implement it for your own
/// executor too, or implement only [`ToolExecutor::execute`], as the seed allows.
///
/// ```
/// use tool_executor::{ContextExecutor, ToolContext, ToolExecution, ToolExecutor, ToolFailure};
/// use tool_executor::tool::BoxFuture;
/// use serde_json::{Value, json};
///
/// /// Answers every call with the attempt number it was given.
/// struct Attempts;
///
/// impl ContextExecutor for Attempts {
///     fn dispatch<'a>(
///         &'a self,
///         _tool: &'a str,
///         _params: &'a Value,
///         ctx: ToolContext,
///     ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
///         Box::pin(async move { Ok(ToolExecution::output_only(json!(ctx.attempt()))) })
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let out = Attempts
///     .execute_with_action_in_session("any", &json!({}), "a-1", None, None, 3)
///     .await;
/// assert_eq!(out, Ok(json!(3)));
/// # });
/// ```
pub trait ContextExecutor: Send + Sync {
    /// Runs `tool` with `params` under `ctx`: its deadline, cancellation token, stream sink and
    /// expected effects included.
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>>;

    /// [`dispatch`](Self::dispatch) for the seed's string layers: the output alone, a failure as its
    /// text. The default adapts `dispatch`'s future, in a second allocation; override it only to
    /// save that allocation (`ToolSet` does, for `#[tool]` functions).
    fn dispatch_for_seed<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(Adapted::<_, ForSeed>::new(self.dispatch(tool, params, ctx)))
    }

    /// Starts `tool` and returns its chunk stream ([`ToolExecutor::execute_stream`]). The
    /// default refuses: an executor that borrows what it runs cannot outlive the call (see
    /// [`spawn_stream`](crate::tool::spawn_stream) for one that can).
    fn stream<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
    ) -> BoxFuture<'a, Result<mpsc::Receiver<ToolStreamChunk>, String>> {
        let _ = (params, action_id);
        Box::pin(std::future::ready(Err(stream_unsupported(tool))))
    }

    /// The tools this executor serves ([`ToolExecutor::specs`]). The default is empty.
    fn list_specs(&self) -> SpecList {
        Arc::from(Vec::new())
    }

    /// What the caller `ctx` describes may see ([`ToolExecutor::specs_for`]). The default is
    /// [`list_specs`](Self::list_specs).
    fn list_specs_for(&self, ctx: &ToolContext) -> SpecList {
        let _ = ctx;
        self.list_specs()
    }

    /// Changes of the listing at run time ([`ToolExecutor::list_changes`]). The default is
    /// `None`: the listing never changes.
    fn list_changes(&self) -> Option<ListChanges> {
        None
    }
}

impl<E: ContextExecutor + ?Sized> ToolExecutor for E {
    #[inline]
    fn execute<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
    ) -> BoxFuture<'a, Result<Value, String>> {
        self.dispatch_for_seed(tool, params, ToolContext::new())
    }

    fn execute_with_action<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
        timeout_ms: Option<u64>,
    ) -> BoxFuture<'a, Result<Value, String>> {
        self.execute_with_action_in_session(tool, params, action_id, timeout_ms, None, 1)
    }

    fn execute_with_action_in_session<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
        timeout_ms: Option<u64>,
        session_id: Option<&'a str>,
        attempt: u32,
    ) -> BoxFuture<'a, Result<Value, String>> {
        let ctx = ToolContext::from_seed(action_id, timeout_ms, session_id, attempt, None);
        self.dispatch_for_seed(tool, params, ctx)
    }

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
        let call = self.execute_classified(
            tool,
            params,
            action_id,
            timeout_ms,
            session_id,
            attempt,
            expected_effects,
            return_schema,
        );
        Box::pin(async move { call.await.map_err(|failure| for_seed(&failure)) })
    }

    #[inline]
    fn execute_classified<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
        timeout_ms: Option<u64>,
        session_id: Option<&'a str>,
        attempt: u32,
        expected_effects: &'a HashMap<String, Value>,
        _return_schema: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let ctx = ToolContext::from_seed(
            action_id,
            timeout_ms,
            session_id,
            attempt,
            Some(expected_effects),
        );
        self.dispatch(tool, params, ctx)
    }

    fn execute_stream<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
    ) -> BoxFuture<'a, Result<mpsc::Receiver<ToolStreamChunk>, String>> {
        self.stream(tool, params, action_id)
    }

    #[inline]
    fn execute_with_context<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        self.dispatch(tool, params, ctx)
    }

    fn specs(&self) -> SpecList {
        self.list_specs()
    }

    fn specs_for(&self, ctx: &ToolContext) -> SpecList {
        self.list_specs_for(ctx)
    }

    fn list_changes(&self) -> Option<ListChanges> {
        ContextExecutor::list_changes(self)
    }
}
