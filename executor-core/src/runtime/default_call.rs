//! `Runtime::call`: a call with the default options, whose first attempt is polled in place.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::Value;

use super::call::{attempts, backoff, from_attempt};
use super::config::Config;
use super::options::CallOptions;
use super::report::CallReport;
use super::trace;
use crate::failure::ToolFailure;
use crate::tool::{BoxFuture, ToolContext, ToolExecution};

/// [`call::run`](super::call::run) with the default options: what
/// [`Runtime::call`](super::Runtime::call) returns.
pub(super) fn run<'a>(
    config: &'a Config,
    tool: &'a str,
    args: &'a Value,
) -> impl Future<Output = Result<ToolExecution, ToolFailure>> + Send + 'a {
    trace::instrument(
        tool,
        "",
        DefaultCall {
            config,
            tool,
            args,
            call: None,
            first: false,
            started: false,
        },
    )
}

/// The options of a call that has none; a static, so no call builds or drops one.
static DEFAULT: CallOptions = CallOptions::DEFAULT;

/// A call with the default options. When the runtime guards nothing for the tool (no time
/// limit, concurrency limit or key to make), its first attempt is the executor's own future
/// with an empty context, polled here, checked in place and returned as it was polled; the
/// rest of the call (a retry, or the guarded path) is one boxed future. Written by hand so a
/// call that succeeds at once moves its result no further than the executor wrote it
/// (measured in BENCHMARKS.md §11).
struct DefaultCall<'a> {
    config: &'a Config,
    tool: &'a str,
    args: &'a Value,
    /// The future being polled: the first attempt, or everything after it.
    call: Option<BoxFuture<'a, Result<ToolExecution, ToolFailure>>>,
    /// Whether `call` is the unguarded first attempt, whose success is checked here.
    first: bool,
    started: bool,
}

impl DefaultCall<'_> {
    #[inline]
    fn start(&mut self) {
        let (config, tool, args) = (self.config, self.tool, self.args);
        self.started = true;
        self.first = config.guards_nothing(tool);
        self.call = Some(if self.first {
            let attempt = config
                .executor
                .execute_with_context(tool, args, ToolContext::new());
            trace::boxed_attempt(tool, 1, attempt)
        } else {
            Box::pin(async move {
                attempts(config, tool, args, &DEFAULT, &mut CallReport::default()).await
            })
        });
    }
}

impl Future for DefaultCall<'_> {
    type Output = Result<ToolExecution, ToolFailure>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        if !this.started {
            this.start();
        }
        loop {
            let Some(call) = this.call.as_mut() else {
                panic!("`Runtime::call` polled after it ended");
            };
            let polled = call.as_mut().poll(cx);
            match polled {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Ok(ref execution)) if this.first => {
                    this.call = None;
                    if let Err(failure) = this.config.check(this.tool, execution, None) {
                        return Poll::Ready(Err(failure));
                    }
                    return polled;
                }
                Poll::Ready(Err(failure)) if this.first => {
                    this.first = false;
                    let rest = after_first(this.config, this.tool, this.args, failure);
                    this.call = Some(Box::pin(rest));
                }
                Poll::Ready(_) => {
                    this.call = None;
                    return polled;
                }
            }
        }
    }
}

/// The rest of a [`DefaultCall`] call after its first attempt failed with `failure`: what
/// [`attempts`] does from there, without a deadline or a key.
async fn after_first(
    config: &Config,
    tool: &str,
    args: &Value,
    failure: ToolFailure,
) -> Result<ToolExecution, ToolFailure> {
    backoff(config, tool, 1, failure, None, &DEFAULT)?.await?;
    let mut report = CallReport::default();
    from_attempt(config, tool, args, &DEFAULT, None, None, 2, &mut report).await
}
