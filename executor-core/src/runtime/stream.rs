//! Streamed calls through the runtime: attempts whose chunks are forwarded as they come,
//! retried only while nothing has been forwarded.

use std::future::poll_fn;
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::call::{attempt_once, backoff, start};
use super::config::Config;
use super::options::{CallOptions, relay};
use super::{Runtime, trace};
use crate::failure::transport::for_stream;
use crate::failure::{FailureKind, ToolFailure};
use crate::tool::{STREAM_CAPACITY, ToolExecution, ToolStreamChunk};

impl Runtime {
    /// Starts `tool` in a task and returns its chunk stream: the progress, text and data
    /// chunks of its attempts as they come, then one terminal chunk, `done` with the checked
    /// output or `error` with the failure ([`for_stream`]: its code, class and retry hint).
    ///
    /// The call runs as [`call_with`](Self::call_with) would, per-attempt and overall time
    /// limits, concurrency limits and output checks included, with one difference: **a failed
    /// attempt is retried only while no chunk has been forwarded**. Once the reader has seen a
    /// chunk, a retry would show it a second attempt's chunks after the first's, so a failure
    /// then ends the stream with its error chunk.
    ///
    /// The channel holds [`STREAM_CAPACITY`] chunks; a slow reader slows the tool down.
    /// Dropping the receiver drops the running attempt. Dropping the last clone of the runtime
    /// drops it too and ends the stream with a `cancelled` error chunk, as does a cancellation
    /// token in `options`. A stream sink in `options` is replaced by the returned receiver.
    ///
    /// # Errors
    /// A terminal internal failure when called outside a Tokio runtime.
    pub fn stream_with(
        &self,
        tool: &str,
        args: Value,
        options: CallOptions,
    ) -> Result<mpsc::Receiver<ToolStreamChunk>, ToolFailure> {
        let tasks = tokio::runtime::Handle::try_current().map_err(|_| {
            // Not redacted: the caller's mistake, and the seed's string layer shows the text.
            ToolFailure::terminal(format!("tool '{tool}': streaming needs a Tokio runtime"))
                .with_kind(FailureKind::Internal)
                .with_code("internal")
        })?;
        let mut options = options;
        options.stream = None;
        let (out, chunks) = mpsc::channel(STREAM_CAPACITY);
        let (config, shutdown) = (Arc::clone(&self.config), self.shutdown.clone());
        let tool = tool.to_owned();
        tasks.spawn(async move {
            let call = attempts(&config, &tool, &args, &options, &out);
            let call = trace::instrument(&tool, &options.action_id, call);
            let terminal = match until_closed(&out, &shutdown, call).await {
                Ended::Call(Ok(execution)) => ToolStreamChunk::Done {
                    result: Some(execution.output),
                },
                Ended::Call(Err(failure)) => for_stream(&failure),
                Ended::Shutdown => for_stream(&ToolFailure::cancelled(&tool)),
                Ended::ReaderGone => return,
            };
            let _ = out.send(terminal).await;
        });
        Ok(chunks)
    }
}

/// How a streamed call's task ended.
enum Ended<T> {
    Call(T),
    /// The last clone of the runtime was dropped.
    Shutdown,
    /// The receiver was dropped: nobody is left to tell.
    ReaderGone,
}

/// Runs `call` until it ends, the reader goes or the runtime is dropped; the call is dropped
/// on the last two.
async fn until_closed<T>(
    out: &mpsc::Sender<ToolStreamChunk>,
    shutdown: &CancellationToken,
    call: impl Future<Output = T>,
) -> Ended<T> {
    let mut call = pin!(call);
    let mut closed = pin!(out.closed());
    let mut dropped = pin!(shutdown.cancelled());
    poll_fn(|cx| {
        if closed.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Ended::ReaderGone);
        }
        if dropped.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Ended::Shutdown);
        }
        call.as_mut().poll(cx).map(Ended::Call)
    })
    .await
}

/// The attempts of a streamed call, each forwarding its chunks to `out` as they come; a
/// failure is retried as [`call_with`](Runtime::call_with) would, but only while no chunk has
/// been forwarded. The success is the checked execution.
async fn attempts(
    config: &Config,
    tool: &str,
    args: &Value,
    options: &CallOptions,
    out: &mpsc::Sender<ToolStreamChunk>,
) -> Result<ToolExecution, ToolFailure> {
    let (deadline, generated) = start(config, tool, options);
    let key = options.idempotency_key.as_deref().or(generated.as_deref());
    let mut attempt = 1;
    loop {
        let (sink, chunks) = mpsc::channel(STREAM_CAPACITY);
        let streamed = options.clone().with_stream(sink);
        let once = attempt_once(config, tool, args, &streamed, attempt, deadline, key);
        let mut forwarded = false;
        let outcome = relay(Some(chunks), trace::attempt(tool, attempt, once), |chunk| {
            // The stream's one terminal chunk is the task's; a sink's own is not forwarded.
            let keep = !chunk.is_terminal();
            forwarded |= keep;
            async move {
                if keep {
                    // A closed channel ends the task in `until_closed`.
                    let _ = out.send(chunk).await;
                }
            }
        })
        .await;
        let failure = match outcome {
            Ok(execution) => {
                config.check(tool, &execution, options.expected_effects.as_ref())?;
                return Ok(execution);
            }
            Err(failure) if forwarded => return Err(failure),
            Err(failure) => failure,
        };
        backoff(config, tool, attempt, failure, deadline, options)?.await?;
        attempt += 1;
    }
}
