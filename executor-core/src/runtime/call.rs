//! One call through the runtime: attempts, backoff, time limits, cancellation and checks.

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::config::Config;
use super::options::CallOptions;
use super::report::CallReport;
use super::trace;
use crate::failure::{FailureKind, ToolFailure};
use crate::tool::{BoxFuture, ToolExecution};

/// A time limit an attempt runs under, and which one it is, for the failure that names it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limit {
    pub(super) at: Instant,
    kind: LimitKind,
}

#[derive(Debug, Clone, Copy)]
enum LimitKind {
    /// The runtime's per-attempt timeout.
    Attempt(Duration),
    /// The call's overall deadline, of this total budget.
    Call(Duration),
}

impl Limit {
    fn failure(self, tool: &str) -> ToolFailure {
        let (text, code, which, limit) = match self.kind {
            LimitKind::Attempt(t) => ("the per-attempt limit", "attempt_timeout", "attempt", t),
            LimitKind::Call(t) => ("the call's overall limit", "call_timeout", "call", t),
        };
        let ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX);
        ToolFailure::ordinary(format!("tool `{tool}` timed out: {text} of {ms}ms ran out"))
            .with_kind(FailureKind::Timeout)
            .with_code(code)
            .with_data(json!({"limit": which, "limit_ms": ms}))
    }

    fn earliest(a: Option<Self>, b: Option<Self>) -> Option<Self> {
        match (a, b) {
            (Some(a), Some(b)) => Some(if b.at < a.at { b } else { a }),
            (a, b) => a.or(b),
        }
    }
}

/// Runs `tool` to its last attempt under `options`: the result of the first success (after the
/// output checks) or the last attempt's failure; `report` counts the attempts and the backoff.
/// A plain function around one `async fn`, so the call is one state machine (two with feature
/// `tracing`: the span wrapper is a struct).
pub(super) fn run<'a>(
    config: &'a Config,
    tool: &'a str,
    args: &'a Value,
    options: &'a CallOptions,
    report: &'a mut CallReport,
) -> impl Future<Output = Result<ToolExecution, ToolFailure>> + Send + 'a {
    trace::instrument(
        tool,
        &options.action_id,
        attempts(config, tool, args, options, report),
    )
}

pub(super) async fn attempts(
    config: &Config,
    tool: &str,
    args: &Value,
    options: &CallOptions,
    report: &mut CallReport,
) -> Result<ToolExecution, ToolFailure> {
    let (deadline, generated) = start(config, tool, options);
    let key = options.idempotency_key.as_deref().or(generated.as_deref());
    from_attempt(config, tool, args, options, deadline, key, 1, report).await
}

/// The attempts of a call from attempt `attempt` on, each after the backoff of the one before;
/// `report` counts them and the time spent in backoff (the clock is read only on a retry).
#[allow(clippy::too_many_arguments)] // the call's fixed parts, passed down unbundled: no struct to build per call
pub(super) async fn from_attempt(
    config: &Config,
    tool: &str,
    args: &Value,
    options: &CallOptions,
    deadline: Option<Limit>,
    key: Option<&str>,
    mut attempt: u32,
    report: &mut CallReport,
) -> Result<ToolExecution, ToolFailure> {
    loop {
        report.attempts = attempt;
        let once = attempt_once(config, tool, args, options, attempt, deadline, key);
        let outcome = trace::attempt(tool, attempt, once).await;
        let failure = match outcome {
            Ok(ref execution) => {
                config.check(tool, execution, options.expected_effects.as_ref())?;
                return outcome;
            }
            Err(failure) => failure,
        };
        let pause = backoff(config, tool, attempt, failure, deadline, options)?;
        let paused_at = Instant::now();
        let paused = pause.await;
        report.waited += paused_at.elapsed();
        paused?;
        attempt += 1;
    }
}

/// What a call fixes before its first attempt: its overall deadline, and the idempotency key
/// the runtime makes for it when the caller gave none and the tool needs one.
pub(super) fn start(
    config: &Config,
    tool: &str,
    options: &CallOptions,
) -> (Option<Limit>, Option<String>) {
    let deadline = options
        .deadline_from(config.call_timeout)
        .map(|(at, budget)| Limit {
            at,
            kind: LimitKind::Call(budget),
        });
    let generated = (options.idempotency_key.is_none() && config.makes_keys_for(tool))
        .then(|| config.keys.hex128());
    (deadline, generated)
}

/// The wait before retrying after `failure` on attempt `attempt` (cut short by the call's
/// token), or `failure` when the call stops there ([`Config::next_delay`]). Boxed: the timer is
/// only needed on a retry, so a call with the default options's future is smaller.
pub(super) fn backoff<'a>(
    config: &Config,
    tool: &'a str,
    attempt: u32,
    failure: ToolFailure,
    deadline: Option<Limit>,
    options: &'a CallOptions,
) -> Result<BoxFuture<'a, Result<(), ToolFailure>>, ToolFailure> {
    let at = deadline.map(|d| d.at);
    let Some(delay) = config.next_delay(tool, attempt, &failure, at) else {
        return Err(failure);
    };
    let pause = async move {
        tokio::time::sleep(delay).await;
        Ok(())
    };
    Ok(Box::pin(guard(
        tool,
        pause,
        None,
        options.cancellation.as_ref(),
    )))
}

/// One attempt. An attempt with nothing to wait for or guard (no limit, slot, deadline or
/// token) is the executor's own future, decided in line; the guarded path's timers and
/// semaphore waits live in a box of their own ([`guarded_attempt`], out of line), so an unguarded
/// call neither allocates for them nor moves their space around with every future that holds
/// the attempt (measured in BENCHMARKS.md §11).
#[inline]
pub(super) fn attempt_once<'a>(
    config: &'a Config,
    tool: &'a str,
    args: &'a Value,
    options: &'a CallOptions,
    attempt: u32,
    deadline: Option<Limit>,
    key: Option<&'a str>,
) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
    let unguarded = deadline.is_none()
        && options.cancellation.is_none()
        && config.attempt_timeout.is_none()
        && !config.limits.applies_to(tool);
    if unguarded {
        let ctx = options.context(attempt, None, key);
        return config.executor.execute_with_context(tool, args, ctx);
    }
    guarded_attempt(config, tool, args, options, attempt, deadline, key)
}

/// One guarded attempt: a concurrency slot (waiting counts against the call's deadline), then
/// the executor's call under the earlier of the per-attempt limit and the call's deadline.
#[inline(never)]
fn guarded_attempt<'a>(
    config: &'a Config,
    tool: &'a str,
    args: &'a Value,
    options: &'a CallOptions,
    attempt: u32,
    deadline: Option<Limit>,
    key: Option<&'a str>,
) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
    let token = options.cancellation.as_ref();
    Box::pin(async move {
        let permits = if config.limits.applies_to(tool) {
            let waiting = async { Ok(config.limits.acquire(tool).await) };
            Some(guard(tool, waiting, deadline, token).await?)
        } else {
            None
        };
        let own = config.attempt_timeout.map(|t| Limit {
            at: Instant::now() + t,
            kind: LimitKind::Attempt(t),
        });
        let limit = Limit::earliest(own, deadline);
        let ctx = options.context(attempt, limit.map(|l| l.at), key);
        let call = config.executor.execute_with_context(tool, args, ctx);
        let outcome = guard(tool, call, limit, token).await;
        drop(permits);
        outcome
    })
}

/// Runs `fut` until it ends, `limit` passes or `token` fires, whichever comes first; the
/// future is dropped on the last two. A timeout the executor reports itself once `limit` has
/// passed is reported as the runtime's limit, so the failure names the limit that fired
/// whichever of the two timers woke first.
async fn guard<T>(
    tool: &str,
    fut: impl Future<Output = Result<T, ToolFailure>>,
    limit: Option<Limit>,
    token: Option<&CancellationToken>,
) -> Result<T, ToolFailure> {
    let mut fut = pin!(fut);
    let mut timer = pin!(limit.map(|l| tokio::time::sleep_until(l.at)));
    let mut cancelled = pin!(token.map(CancellationToken::cancelled));
    poll_fn(|cx| {
        if let Some(cancelled) = cancelled.as_mut().as_pin_mut()
            && cancelled.poll(cx).is_ready()
        {
            return Poll::Ready(Err(ToolFailure::cancelled(tool)));
        }
        if let Poll::Ready(outcome) = fut.as_mut().poll(cx) {
            return Poll::Ready(outcome.map_err(|failure| match limit {
                Some(limit)
                    if failure.kind() == FailureKind::Timeout && Instant::now() >= limit.at =>
                {
                    limit.failure(tool)
                }
                _ => failure,
            }));
        }
        let expired = timer
            .as_mut()
            .as_pin_mut()
            .is_some_and(|timer| timer.poll(cx).is_ready());
        match limit {
            Some(limit) if expired => Poll::Ready(Err(limit.failure(tool))),
            _ => Poll::Pending,
        }
    })
    .await
}
