//! Sync tools that read their context ([`call_blocking`]): the body runs on Tokio's blocking
//! pool, so the caller's deadline, the tool's `timeout` and a cancellation end the call on time
//! even while the body blocks (issue 15, point 4).
//!
//! A blocking body cannot be interrupted: after its caller has gone (timed out, cancelled,
//! dropped) it runs on until it returns, holding its thread. The process-wide bound on bodies
//! ([`set_max_blocking_bodies`]) keeps such abandoned bodies from taking the whole pool, which
//! a burst of timed-out calls did (issue 22, point 3: the pool grew from 24 to 515 threads and
//! a later quick call timed out queued behind them, without running).

use std::panic::resume_unwind;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::Value;
use tokio::task::AbortHandle;

use super::drive::{drive, finish};
use crate::failure::ToolFailure;
use crate::tool::context::ToolContext;
use crate::tool::execution::ToolExecution;

/// The default of [`set_max_blocking_bodies`]: a quarter of Tokio's default blocking pool (512
/// threads), so sync tools that never return leave most of it to what else needs it (`tokio::fs`,
/// DNS lookups, stdin, a server's own `spawn_blocking`).
pub const DEFAULT_MAX_BLOCKING_BODIES: usize = 128;

static MAX_BODIES: AtomicUsize = AtomicUsize::new(DEFAULT_MAX_BLOCKING_BODIES);
/// Bodies admitted and not yet returned (queued for a thread or running).
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
/// Of those, the ones running after their caller has gone.
static ABANDONED: AtomicUsize = AtomicUsize::new(0);

/// Bounds the sync tool bodies on the blocking pool, process-wide (at least 1; default
/// [`DEFAULT_MAX_BLOCKING_BODIES`]).
///
/// A sync `#[tool]` that takes a `&ToolContext` or has a `timeout` runs on Tokio's blocking
/// pool ([`call_blocking`]). Its body cannot be interrupted: when the call times out or is
/// cancelled, the caller gets the failure at once, but the body runs on, holding its thread,
/// until it returns. Each body holds one of `max` places from its call's start until it
/// returns, whether its caller still waits or not; a call that finds all taken is refused at
/// once with an ordinary (retryable) failure of code `blocking_limit`, without running. So
/// bodies that outlived their calls never hold more than `max` threads, and the pool keeps
/// threads for the calls after them.
///
/// The bound counts every body, not only abandoned ones, because any running body may be
/// abandoned at any moment (a burst of calls all time out together): a bound on abandoned
/// bodies alone could be checked only after the fact. It is process-wide, like the threads it
/// protects, rather than per [`ToolSet`](crate::tool::ToolSet): the threads are shared by every
/// set, and a per-set bound would let many sets together take the whole pool. Keep `max` below
/// the runtime's `max_blocking_threads` (512 unless configured). Lowering it below the bodies
/// now in flight refuses new calls until enough have returned.
///
/// ```
/// use tool_executor::tool::{max_blocking_bodies, set_max_blocking_bodies};
///
/// set_max_blocking_bodies(32);
/// assert_eq!(max_blocking_bodies(), 32);
/// ```
pub fn set_max_blocking_bodies(max: usize) {
    MAX_BODIES.store(max.max(1), Ordering::Relaxed);
}

/// The bound [`set_max_blocking_bodies`] set.
#[must_use]
pub fn max_blocking_bodies() -> usize {
    MAX_BODIES.load(Ordering::Relaxed)
}

/// How many sync tool bodies hold a place under [`set_max_blocking_bodies`] now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BlockingBodies {
    /// Bodies admitted and not yet returned: queued for a thread or running.
    pub in_flight: usize,
    /// Of those, the ones still running after their caller has gone (timed out, cancelled,
    /// dropped).
    pub abandoned: usize,
}

/// The sync tool bodies in flight now, process-wide (see [`set_max_blocking_bodies`]).
#[must_use]
pub fn blocking_bodies() -> BlockingBodies {
    BlockingBodies {
        in_flight: IN_FLIGHT.load(Ordering::SeqCst),
        abandoned: ABANDONED.load(Ordering::SeqCst),
    }
}

// Input:  a sync tool's body (decode, run, encode) as a closure of the arguments and the context
// Output: the closure on the blocking pool, its join handle awaited under `drive` (the one
//         deadline, cancellation and panic boundary), then the recorded state changes.
/// A call of a sync tool that takes a `&ToolContext` or has a `timeout`: `body` runs on Tokio's
/// blocking pool with its own copy of the arguments and a shared handle to the context, and
/// the call awaits it under the context's deadline, the tool's `timeout` and cancellation.
///
/// **A blocking body cannot be interrupted.** On a timeout or a cancellation the caller gets
/// the failure at once, but the blocking thread runs on until `body` returns (a thread cannot
/// be stopped from outside); what it records after that is dropped, and its stream is closed
/// with the call ([`ToolContext::try_progress`] says [`Closed`](crate::tool::ChunkDropped)). A
/// body that wants to stop early polls [`ToolContext::is_cancelled`] or
/// [`ToolContext::remaining`]. A body still queued for a thread when its caller goes never
/// starts. A panic in `body` is the same internal failure as a panic in an async tool.
///
/// Each body holds a place under the process-wide [`set_max_blocking_bodies`] until it
/// returns; with none free the call is refused at once with code `blocking_limit`.
///
/// Outside a Tokio runtime (a future polled by another executor) `body` runs in place, as it
/// did before, under the same boundary.
///
/// # Errors
/// `body`'s own failure, a panic, timeout or cancellation failure, a state mismatch, or the
/// `blocking_limit` refusal.
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
        let place = Place::admit(tool)?;
        let (params, shared) = (params.clone(), Arc::clone(&ctx));
        let state = Arc::clone(&place.0);
        let handle = runtime.spawn_blocking(move || {
            // Dropped when the closure returns, unwinds or is dropped unrun: the place is freed.
            let place = place;
            if !place.start() {
                return Err(ToolFailure::cancelled(tool));
            }
            body(&params, &shared)
        });
        // Until the join completes, dropping this marks the body abandoned (or never to start)
        // and closes the context's stream: the call is over whatever the body does.
        let caller = Caller {
            state,
            abort: handle.abort_handle(),
            ctx: Arc::clone(&ctx),
        };
        let joined = async move {
            let joined = handle.await;
            drop(caller);
            match joined {
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

/// A body's place under the bound, moved into its closure.
struct Place(Arc<AtomicU8>);

/// The states of a body, shared by its [`Place`] and its [`Caller`].
const QUEUED: u8 = 0;
const RUNNING: u8 = 1;
const RETURNED: u8 = 2;
/// The caller went before the body started: it never will.
const LEFT: u8 = 3;
/// The caller went while the body ran.
const ABANDONED_BODY: u8 = 4;

impl Place {
    /// Takes a place, or refuses the call when none is free.
    fn admit(tool: &str) -> Result<Self, ToolFailure> {
        let max = max_blocking_bodies();
        let admitted = IN_FLIGHT.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < max).then_some(n + 1)
        });
        match admitted {
            Ok(_) => Ok(Self(Arc::new(AtomicU8::new(QUEUED)))),
            Err(in_flight) => Err(refusal(tool, in_flight, max)),
        }
    }

    /// Whether the body may run: its caller has not gone while it was queued.
    fn start(&self) -> bool {
        self.0
            .compare_exchange(QUEUED, RUNNING, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if self.0.swap(RETURNED, Ordering::SeqCst) == ABANDONED_BODY {
            ABANDONED.fetch_sub(1, Ordering::SeqCst);
        }
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The caller's side of a body on the pool; dropped when the join completes or the call is
/// dropped (its timeout fired, it was cancelled, its caller went).
struct Caller {
    state: Arc<AtomicU8>,
    abort: AbortHandle,
    ctx: Arc<ToolContext>,
}

impl Drop for Caller {
    fn drop(&mut self) {
        self.ctx.close_stream();
        if self.state.load(Ordering::SeqCst) == RETURNED {
            return;
        }
        if self
            .state
            .compare_exchange(QUEUED, LEFT, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            // Not started: keep it from starting (its closure, and so its place, is dropped).
            self.abort.abort();
            return;
        }
        // Counted before the mark, so the body's return (which uncounts a marked body) never
        // takes the count below zero.
        ABANDONED.fetch_add(1, Ordering::SeqCst);
        if self
            .state
            .compare_exchange(RUNNING, ABANDONED_BODY, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // It returned meanwhile.
            ABANDONED.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// The `blocking_limit` refusal.
fn refusal(tool: &str, in_flight: usize, max: usize) -> ToolFailure {
    let abandoned = ABANDONED.load(Ordering::SeqCst);
    ToolFailure::ordinary(format!(
        "tool `{tool}` was not run: {in_flight} sync tool bodies hold blocking threads \
         ({abandoned} of them after their calls ended; the limit is {max}); try again later"
    ))
    .with_code("blocking_limit")
}
