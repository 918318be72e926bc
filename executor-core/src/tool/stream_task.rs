//! Streamed calls: the task that runs a call with a bounded chunk channel as its sink.

use std::future::Future;

use serde_json::Value;
use tokio::sync::mpsc;

use super::context::ToolContext;
use super::execution::BoxFuture;
use super::executor::ToolExecutor;
use super::stream::ToolStreamChunk;
use crate::failure::transport::for_stream;

/// Starts `tool` on `executor` in a task and returns its chunk stream: progress and data the
/// tool reports, then one terminal `done` or `error`, after which the stream ends (`recv`
/// gives `None`) even when the tool's body runs on, as a sync tool's does after its timeout:
/// the context's side of the stream is closed before the terminal chunk is sent. Dropping the
/// receiver drops the tool's future. The channel holds
/// [`STREAM_CAPACITY`](super::stream::STREAM_CAPACITY) chunks.
///
/// # Errors
/// When called outside a Tokio runtime.
pub fn spawn_stream<E>(
    executor: E,
    tool: &str,
    params: &Value,
    action_id: &str,
) -> Result<mpsc::Receiver<ToolStreamChunk>, String>
where
    E: ToolExecutor + 'static,
{
    let handle = tokio::runtime::Handle::try_current()
        .map_err(|_| format!("tool '{tool}': streaming needs a Tokio runtime"))?;
    let (tx, rx) = mpsc::channel(super::stream::STREAM_CAPACITY);
    let (ctx, sink) = ToolContext::new()
        .with_action_id(action_id)
        .with_closable_stream(tx.clone());
    let tool = tool.to_owned();
    let params = params.clone();
    handle.spawn(async move {
        let outcome = {
            let work = executor.execute_with_context(&tool, &params, ctx);
            let closed = tx.closed();
            let mut work = std::pin::pin!(work);
            let mut closed = std::pin::pin!(closed);
            std::future::poll_fn(|cx| {
                if closed.as_mut().poll(cx).is_ready() {
                    return std::task::Poll::Ready(None);
                }
                work.as_mut().poll(cx).map(Some)
            })
            .await
        };
        // Nothing the tool sends may follow the terminal chunk.
        sink.close();
        let chunk = match outcome {
            None => return,
            Some(Ok(execution)) => ToolStreamChunk::Done {
                result: Some(execution.output),
            },
            Some(Err(failure)) => for_stream(&failure),
        };
        let _ = tx.send(chunk).await;
    });
    Ok(rx)
}

/// [`spawn_stream`] on a clone of `executor`, as the boxed future
/// [`ContextExecutor::stream`](super::ContextExecutor::stream) returns: what every executor
/// that is `Clone + 'static` streams with.
pub(crate) fn stream_clone<E>(
    executor: &E,
    tool: &str,
    params: &Value,
    action_id: &str,
) -> BoxFuture<'static, Result<mpsc::Receiver<ToolStreamChunk>, String>>
where
    E: ToolExecutor + Clone + 'static,
{
    Box::pin(std::future::ready(spawn_stream(
        executor.clone(),
        tool,
        params,
        action_id,
    )))
}

/// Autoref specialization for `#[tools]` streaming: a `Clone + 'static` executor streams by
/// moving a clone into the task; any other gets a clear error naming the fix.
pub struct StreamProbe<'a, T>(pub &'a T);

/// Picked when the executor is `Clone + 'static`.
pub trait StreamByClone {
    /// Starts the stream.
    fn stream(
        &self,
        tool: &str,
        params: &Value,
        action_id: &str,
    ) -> BoxFuture<'static, Result<mpsc::Receiver<ToolStreamChunk>, String>>;
}

impl<T: ToolExecutor + Clone + 'static> StreamByClone for StreamProbe<'_, T> {
    fn stream(
        &self,
        tool: &str,
        params: &Value,
        action_id: &str,
    ) -> BoxFuture<'static, Result<mpsc::Receiver<ToolStreamChunk>, String>> {
        stream_clone(self.0, tool, params, action_id)
    }
}

/// Picked when the executor is not `Clone`.
pub trait StreamUnsupported {
    /// Refuses with the fix.
    fn stream(
        &self,
        tool: &str,
        params: &Value,
        action_id: &str,
    ) -> BoxFuture<'static, Result<mpsc::Receiver<ToolStreamChunk>, String>>;
}

impl<T: ToolExecutor> StreamUnsupported for &StreamProbe<'_, T> {
    fn stream(
        &self,
        tool: &str,
        _params: &Value,
        _action_id: &str,
    ) -> BoxFuture<'static, Result<mpsc::Receiver<ToolStreamChunk>, String>> {
        let message = format!(
            "tool '{tool}': `{}` is not `Clone`, so a streamed call cannot outlive the borrow; \
             derive `Clone` (share state behind an `Arc`) or stream it through a `ToolSet`",
            std::any::type_name::<T>()
        );
        Box::pin(std::future::ready(Err(message)))
    }
}
