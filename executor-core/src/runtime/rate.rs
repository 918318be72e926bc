//! Rate limits per caller and per tool: a token bucket for each (principal, tool) pair, in
//! front of any executor ([`RateLimited`]), a server (`McpServer::with_rate_limit`,
//! `ToolAgent::with_rate_limit`) or a [`Runtime`](super::Runtime).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use crate::auth::Principal;
use crate::failure::ToolFailure;
use crate::tool::{BoxFuture, ContextExecutor, SpecList, ToolContext, ToolExecution, ToolExecutor};

/// How many buckets a limiter keeps before it drops the ones that have refilled (a refilled
/// bucket is the same as none), so a flood of callers cannot grow it without bound.
const MAX_BUCKETS: usize = 10_000;

/// How many calls a caller may make: `burst` at once, refilled at `burst` per `period`.
///
/// ```
/// use std::time::Duration;
/// use tool_executor::runtime::Quota;
///
/// let quota = Quota::per_minute(60).with_burst(10);
/// assert_eq!(quota.burst(), 10);
/// assert_eq!(quota.refill_every(), Duration::from_secs(1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    burst: u32,
    /// The time one call's token takes to come back.
    every: Duration,
}

impl Quota {
    /// `calls` per `period`, all of them at once if they come at once.
    #[must_use]
    pub fn new(calls: u32, period: Duration) -> Self {
        let calls = calls.max(1);
        Self {
            burst: calls,
            every: period / calls,
        }
    }

    /// `calls` per second.
    #[must_use]
    pub fn per_second(calls: u32) -> Self {
        Self::new(calls, Duration::from_secs(1))
    }

    /// `calls` per minute.
    #[must_use]
    pub fn per_minute(calls: u32) -> Self {
        Self::new(calls, Duration::from_secs(60))
    }

    /// At most `burst` calls at once (the rate stays the same).
    #[must_use]
    pub fn with_burst(mut self, burst: u32) -> Self {
        self.burst = burst.max(1);
        self
    }

    /// Calls allowed at once.
    #[must_use]
    pub const fn burst(&self) -> u32 {
        self.burst
    }

    /// How long one call's allowance takes to come back.
    #[must_use]
    pub const fn refill_every(&self) -> Duration {
        self.every
    }
}

/// Token buckets for each (caller, tool) pair: the caller is the call's
/// [`Principal`] subject (calls without one share one bucket per tool), the quota the tool's
/// own ([`with_tool`](Self::with_tool)) or the default.
///
/// A refused call fails at once, before the tool runs, with an ordinary
/// [`ToolFailure`] of code `rate_limited` whose
/// [`retry_after`](ToolFailure::retry_after) says when the next call will be allowed (a
/// [`Runtime`](super::Runtime) in front waits that long before its retry). The buckets live in
/// this process: behind a balancer each replica keeps its own, so a caller gets up to the
/// quota per replica.
///
/// ```
/// use std::time::Duration;
/// use tool_executor::prelude::*;
/// use tool_executor::runtime::{Quota, RateLimit, RateLimited};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let limit = RateLimit::new(Quota::per_minute(2));
/// let tools = RateLimited::new(toolset![add], limit);
/// let args = json!({"a": 1, "b": 2});
/// assert!(tools.execute_with_context("add", &args, ToolContext::new()).await.is_ok());
/// assert!(tools.execute_with_context("add", &args, ToolContext::new()).await.is_ok());
/// let refused = tools.execute_with_context("add", &args, ToolContext::new()).await.unwrap_err();
/// assert_eq!(refused.code(), "rate_limited");
/// assert!(refused.retry_after().unwrap() <= Duration::from_secs(30));
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct RateLimit {
    inner: Arc<Limits>,
}

#[derive(Debug)]
struct Limits {
    default: Option<Quota>,
    per_tool: HashMap<String, Quota>,
    buckets: Mutex<Buckets>,
}

/// Buckets by tool, then by caller, so a call finds its own without building a key; `count`
/// is their number.
#[derive(Debug, Default)]
struct Buckets {
    by_tool: HashMap<String, HashMap<String, Bucket>>,
    count: usize,
}

/// A bucket as "the instant it will be full again": each call pushes it one refill later;
/// a call is allowed while that instant is at most `burst - 1` refills ahead of now (GCRA).
#[derive(Debug, Clone, Copy)]
struct Bucket {
    full_at: Instant,
}

impl RateLimit {
    /// `quota` for every (caller, tool) pair.
    #[must_use]
    pub fn new(quota: Quota) -> Self {
        Self::build(Some(quota), HashMap::new())
    }

    /// No default: only the tools given [`with_tool`](Self::with_tool) are limited.
    #[must_use]
    pub fn per_tool_only() -> Self {
        Self::build(None, HashMap::new())
    }

    fn build(default: Option<Quota>, per_tool: HashMap<String, Quota>) -> Self {
        Self {
            inner: Arc::new(Limits {
                default,
                per_tool,
                buckets: Mutex::new(Buckets::default()),
            }),
        }
    }

    /// `quota` for each caller of `tool`, instead of the default.
    #[must_use]
    pub fn with_tool(self, tool: impl Into<String>, quota: Quota) -> Self {
        let mut per_tool = self.inner.per_tool.clone();
        per_tool.insert(tool.into(), quota);
        Self::build(self.inner.default, per_tool)
    }

    /// Takes one call's allowance for `caller` on `tool`, or says how long until there is one.
    fn take(&self, caller: &str, tool: &str) -> Result<(), (Quota, Duration)> {
        let Some(quota) = self
            .inner
            .per_tool
            .get(tool)
            .copied()
            .or(self.inner.default)
        else {
            return Ok(());
        };
        let now = Instant::now();
        let mut buckets = self
            .inner
            .buckets
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if buckets.count >= MAX_BUCKETS {
            for callers in buckets.by_tool.values_mut() {
                callers.retain(|_, bucket| bucket.full_at > now);
            }
            buckets.by_tool.retain(|_, callers| !callers.is_empty());
            buckets.count = buckets.by_tool.values().map(HashMap::len).sum();
        }
        let bucket = buckets
            .by_tool
            .get_mut(tool)
            .and_then(|callers| callers.get_mut(caller));
        let full_at = bucket.as_ref().map_or(now, |b| b.full_at.max(now));
        let ahead = full_at.saturating_duration_since(now);
        let allowed_ahead = quota.every * (quota.burst - 1);
        if let Some(wait) = ahead.checked_sub(allowed_ahead).filter(|w| !w.is_zero()) {
            return Err((quota, wait));
        }
        let next = Bucket {
            full_at: full_at + quota.every,
        };
        if let Some(bucket) = bucket {
            *bucket = next;
        } else {
            let callers = buckets.by_tool.entry(tool.to_owned()).or_default();
            callers.insert(caller.to_owned(), next);
            buckets.count += 1;
        }
        Ok(())
    }

    /// `Ok` when the call may run; the failure that refuses it otherwise.
    fn admit(&self, tool: &str, ctx: &ToolContext) -> Result<(), ToolFailure> {
        let caller = ctx.extension::<Principal>().map_or("", Principal::subject);
        self.take(caller, tool).map_err(|(quota, wait)| {
            let ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).max(1);
            let who = if caller.is_empty() {
                "unauthenticated callers".to_owned()
            } else {
                format!("`{caller}`")
            };
            ToolFailure::ordinary(format!(
                "rate limited: {who} may call `{tool}` {} times per {} ms; try again in {ms} ms",
                quota.burst,
                u64::try_from((quota.every * quota.burst).as_millis()).unwrap_or(u64::MAX),
            ))
            .with_code("rate_limited")
            .with_retry_after(Duration::from_millis(ms))
            .with_data(json!({"retry_after_ms": ms, "tool": tool}))
        })
    }
}

/// An executor whose calls pass a [`RateLimit`] first.
#[derive(Clone)]
pub struct RateLimited {
    inner: Arc<dyn ToolExecutor>,
    limit: RateLimit,
}

impl std::fmt::Debug for RateLimited {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimited")
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl RateLimited {
    /// `inner`, limited by `limit`.
    pub fn new(inner: impl ToolExecutor + 'static, limit: RateLimit) -> Self {
        Self::from_shared(Arc::new(inner), limit)
    }

    /// Like [`new`](Self::new) for an executor that is already shared.
    #[must_use]
    pub fn from_shared(inner: Arc<dyn ToolExecutor>, limit: RateLimit) -> Self {
        Self { inner, limit }
    }
}

impl ContextExecutor for RateLimited {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        match self.limit.admit(tool, &ctx) {
            Ok(()) => self.inner.execute_with_context(tool, params, ctx),
            Err(refused) => Box::pin(std::future::ready(Err(refused))),
        }
    }

    fn list_specs(&self) -> SpecList {
        self.inner.specs()
    }

    fn list_specs_for(&self, ctx: &ToolContext) -> SpecList {
        self.inner.specs_for(ctx)
    }

    fn list_changes(&self) -> Option<crate::tool::ListChanges> {
        self.inner.list_changes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_bucket_allows_its_burst_then_one_call_per_refill() {
        let limit = RateLimit::new(Quota::per_second(2));
        assert!(limit.take("a", "t").is_ok());
        assert!(limit.take("a", "t").is_ok());
        let (_, wait) = limit.take("a", "t").unwrap_err();
        assert_eq!(wait, Duration::from_millis(500));
        // Other callers and other tools have buckets of their own.
        assert!(limit.take("b", "t").is_ok());
        assert!(limit.take("a", "u").is_ok());
        tokio::time::advance(Duration::from_millis(500)).await;
        assert!(limit.take("a", "t").is_ok());
        assert!(limit.take("a", "t").is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn a_tools_own_quota_replaces_the_default_and_unlisted_tools_may_be_free() {
        let limit = RateLimit::per_tool_only().with_tool("delete", Quota::per_minute(1));
        for _ in 0..100 {
            assert!(limit.take("a", "read").is_ok());
        }
        assert!(limit.take("a", "delete").is_ok());
        let (_, wait) = limit.take("a", "delete").unwrap_err();
        assert_eq!(wait, Duration::from_secs(60));
    }

    #[tokio::test(start_paused = true)]
    async fn buckets_are_bounded_by_dropping_refilled_ones() {
        let limit = RateLimit::new(Quota::per_second(1));
        for i in 0..MAX_BUCKETS {
            assert!(limit.take(&i.to_string(), "t").is_ok());
        }
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(limit.take("new", "t").is_ok());
        let kept = limit.inner.buckets.lock().unwrap().count;
        assert_eq!(kept, 1, "the refilled buckets were dropped");
    }
}
