//! The runtime: calls against any [`ToolExecutor`] with retries that honour retry hints,
//! per-attempt timeouts inside an overall deadline, output checks, concurrency limits,
//! detached calls with handles, and executors composed by fallback and by name prefix.
//!
//! ```
//! use tool_executor::prelude::*;
//! use tool_executor::runtime::{RetryPolicy, Runtime};
//! use std::sync::atomic::{AtomicU32, Ordering};
//! use std::time::Duration;
//!
//! static CALLS: AtomicU32 = AtomicU32::new(0);
//!
//! /// Fails twice, asking to be retried after 50 ms, then answers. Safe to repeat.
//! #[tool(idempotent)]
//! async fn flaky() -> Result<u32, ToolFailure> {
//!     match CALLS.fetch_add(1, Ordering::SeqCst) {
//!         0 | 1 => Err(ToolFailure::ordinary("busy").with_retry_after(Duration::from_millis(50))),
//!         n => Ok(n + 1),
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build().unwrap().block_on(async {
//! let runtime = Runtime::new(toolset![flaky])
//!     .with_retry(RetryPolicy::exponential(Duration::from_millis(10)).max_attempts(3));
//! let done = runtime.call("flaky", &json!({})).await.unwrap();
//! assert_eq!(done.output, json!(3));
//! # });
//! ```
//!
//! Every attempt reaches the executor through
//! [`execute_with_context`](ToolExecutor::execute_with_context) with a fresh [`ToolContext`]:
//! its 1-based [`attempt`](ToolContext::attempt), its deadline, the call's cancellation token,
//! stream sink, expected effects and [`idempotency_key`](ToolContext::idempotency_key) (the
//! caller's, or one the runtime makes per call when it may try the call more than once; see
//! [`CallOptions::with_idempotency_key`]).
//!
//! Which tools are retried is read from their hints as MCP reads them: a tool that does not
//! say it is read-only or idempotent, one without hints included, may repeat its effect and is
//! not retried unless the policy opts in ([`RetryPolicy::retry_side_effects`]).
//!
//! The runtime is itself a [`ToolExecutor`], so it can be served ([`McpServer::new`] takes
//! any executor) or composed like any other.
//!
//! [`McpServer::new`]: https://docs.rs/tool-executor/latest/tool_executor/mcp/struct.McpServer.html

mod approver;
mod call;
mod check;
mod compose;
mod config;
mod default_call;
mod handle;
mod limit;
mod options;
mod rate;
mod report;
mod retry;
mod stream;
mod trace;
mod validate;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::{CancellationToken, DropGuard};

pub use check::{MAX_SAFE_INTEGER, first_non_i_json, is_i_json};
pub use compose::{FallbackChain, PrefixRouter, PrefixRouterBuilder};
pub use handle::{DEFAULT_HANDLE_TTL, HANDLE_BUFFER, Handle, HandleId, HandleStatus, Subscription};
pub use options::CallOptions;
pub use rate::{Quota, RateLimit, RateLimited};
pub use report::CallReport;
pub use retry::RetryPolicy;

use self::config::Config;
use self::handle::Registry;
use self::options::{forward, relay};
use crate::failure::ToolFailure;
use crate::tool::{
    BoxFuture, ContextExecutor, STREAM_CAPACITY, SpecList, ToolContext, ToolExecution,
    ToolExecutor, ToolStreamChunk,
};

/// Runs calls against an executor: retries, time limits, output checks, concurrency limits and
/// detached calls (see the [module docs](self)).
///
/// Defaults: [`RetryPolicy::default`] (3 attempts, 100 ms base, only tools that say they are
/// read-only or idempotent retried), no time limits, I-JSON checks on, no concurrency limits, finished handles kept
/// [`DEFAULT_HANDLE_TTL`].
///
/// Cloning is cheap and clones share everything; configure before cloning. When the last
/// clone is dropped, every call it [spawned](Self::spawn) is cancelled.
#[derive(Clone)]
pub struct Runtime {
    config: Arc<Config>,
    handles: Arc<Registry>,
    shutdown: CancellationToken,
    _cancel_on_drop: Arc<DropGuard>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("policy", &self.config.policy)
            .field("attempt_timeout", &self.config.attempt_timeout)
            .field("call_timeout", &self.config.call_timeout)
            .field("handles", &self.handles.len())
            .finish_non_exhaustive()
    }
}

impl Runtime {
    /// A runtime over `executor` with the defaults.
    #[must_use]
    pub fn new(executor: impl ToolExecutor + 'static) -> Self {
        Self::from_shared(Arc::new(executor))
    }

    /// Like [`new`](Self::new) for an executor that is already shared.
    ///
    /// The tools' hints (read-only, destructive, idempotent) are read once here from
    /// [`specs`](ToolExecutor::specs); a tool the executor does not list has none, and so is
    /// not retried unless the policy opts in.
    #[must_use]
    pub fn from_shared(executor: Arc<dyn ToolExecutor>) -> Self {
        let (hints, repeatable) = Config::read_hints(&executor.specs());
        let policy = RetryPolicy::default();
        let shutdown = CancellationToken::new();
        let mut runtime = Self {
            config: Arc::new(Config {
                executor,
                hints,
                repeatable,
                mints_keys: false,
                jitter: Arc::new(policy.jitter()),
                keys: Arc::new(retry::Rng::from_os()),
                policy,
                attempt_timeout: None,
                call_timeout: None,
                i_json: true,
                limits: limit::Limits::default(),
                handle_ttl: DEFAULT_HANDLE_TTL,
                #[cfg(feature = "validate")]
                outputs: None,
            }),
            handles: Arc::new(Registry::default()),
            _cancel_on_drop: Arc::new(shutdown.clone().drop_guard()),
            shutdown,
        };
        runtime.config_mut().refresh_keys();
        runtime
    }

    fn config_mut(&mut self) -> &mut Config {
        Arc::make_mut(&mut self.config)
    }

    /// Limits calls per caller and per tool (see [`RateLimit`]): every attempt takes one
    /// call's allowance, and a refused attempt fails with code `rate_limited` and a
    /// `retry_after` the retry policy honours.
    #[must_use]
    pub fn with_rate_limit(mut self, limit: RateLimit) -> Self {
        let config = self.config_mut();
        let limited = RateLimited::from_shared(Arc::clone(&config.executor), limit);
        config.executor = Arc::new(limited);
        self
    }

    /// Answers the questions of the calls this runtime makes (`#[tool(confirm)]`,
    /// `ctx.confirm`, `ctx.elicit`) with `approver`, unless the call's caller attached an
    /// asker of its own (a call served over MCP asks its client, say). Without one, such a
    /// call fails with code `elicitation_unsupported`.
    ///
    /// ```
    /// use tool_executor::elicit::{Question, Reply};
    /// use tool_executor::prelude::*;
    /// use tool_executor::runtime::Runtime;
    ///
    /// /// Deletes a note.
    /// #[tool(confirm)]
    /// async fn delete_note(id: u32) -> String {
    ///     format!("note {id} deleted")
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// // A policy: approve deleting note 4 only.
    /// let runtime = Runtime::new(toolset![delete_note]).with_approver(|question: Question| async move {
    ///     let approve = question.is_confirm() && question.message() == "Run delete_note with id = 4?";
    ///     Ok(if approve { Reply::accept() } else { Reply::decline() })
    /// });
    /// let done = runtime.call("delete_note", &json!({"id": 4})).await.unwrap();
    /// assert_eq!(done.output, json!("note 4 deleted"));
    /// let refused = runtime.call("delete_note", &json!({"id": 5})).await.unwrap_err();
    /// assert_eq!(refused.code(), "not_approved");
    /// # });
    /// ```
    #[must_use]
    pub fn with_approver(mut self, approver: impl crate::elicit::Elicitor) -> Self {
        let config = self.config_mut();
        let inner = Arc::clone(&config.executor);
        let asker = crate::elicit::Asker::new(approver);
        config.executor = Arc::new(approver::Approving { inner, asker });
        self
    }

    /// Retries calls as `policy` says.
    #[must_use]
    pub fn with_retry(mut self, policy: RetryPolicy) -> Self {
        let config = self.config_mut();
        config.jitter = Arc::new(policy.jitter());
        config.policy = policy;
        config.refresh_keys();
        self
    }

    /// Drops an attempt that has run for `timeout` and fails it as a timeout (code
    /// `attempt_timeout`), which may be retried.
    #[must_use]
    pub fn with_attempt_timeout(mut self, timeout: Duration) -> Self {
        self.config_mut().attempt_timeout = Some(timeout);
        self
    }

    /// Limits every call, attempts and backoff included, to `timeout` (code `call_timeout`);
    /// no retry starts that the limit cannot hold, and the last attempt cannot outlive it.
    #[must_use]
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.config_mut().call_timeout = Some(timeout);
        self
    }

    /// Whether outputs and state changes must be I-JSON (RFC 7493: integers within
    /// ±(2^53−1), finite numbers); on by default. A violation is a terminal failure with code
    /// `non_i_json_output` or `non_i_json_state_change` whose data holds the JSON pointer.
    #[must_use]
    pub fn with_i_json_check(mut self, on: bool) -> Self {
        self.config_mut().i_json = on;
        self
    }

    /// Whether outputs must match their tool's output schema (as the executor's
    /// [`specs`](ToolExecutor::specs) list it); off by default. Each schema is compiled with
    /// the [`jsonschema`](https://docs.rs/jsonschema) crate on its tool's first checked output
    /// and kept. A mismatch is a terminal failure with code `output_schema_mismatch` whose data
    /// holds the output's JSON pointer (`pointer`), the schema keyword's (`schema_pointer`) and
    /// the problem; a tool without an output schema is not checked.
    #[cfg(feature = "validate")]
    #[cfg_attr(docsrs, doc(cfg(feature = "validate")))]
    #[must_use]
    pub fn with_output_validation(mut self, on: bool) -> Self {
        let outputs =
            on.then(|| Arc::new(validate::Validators::new(&self.config.executor.specs())));
        self.config_mut().outputs = outputs;
        self
    }

    /// At most `max` attempts run at once across all tools (0 is read as 1); the others wait
    /// in arrival order.
    #[must_use]
    pub fn with_max_concurrency(mut self, max: usize) -> Self {
        self.config_mut().limits.set_overall(max);
        self
    }

    /// At most `max` attempts of `tool` run at once (0 is read as 1); the others wait in
    /// arrival order, without holding an overall slot.
    #[must_use]
    pub fn with_tool_concurrency(mut self, tool: impl Into<String>, max: usize) -> Self {
        self.config_mut().limits.set_tool(tool, max);
        self
    }

    /// Keeps finished handles reachable through [`handle`](Self::handle) for `ttl`.
    #[must_use]
    pub fn with_handle_ttl(mut self, ttl: Duration) -> Self {
        self.config_mut().handle_ttl = ttl;
        self
    }

    /// Calls `tool` with `args`, retrying as configured.
    ///
    /// # Errors
    /// The last attempt's failure, a timeout naming the limit that fired, a cancellation, or
    /// a failed output check.
    pub fn call<'a>(
        &'a self,
        tool: &'a str,
        args: &'a Value,
    ) -> impl Future<Output = Result<ToolExecution, ToolFailure>> + Send + 'a {
        default_call::run(&self.config, tool, args)
    }

    /// Like [`call`](Self::call), with options.
    ///
    /// # Errors
    /// As [`call`](Self::call).
    pub async fn call_with(
        &self,
        tool: &str,
        args: &Value,
        options: CallOptions,
    ) -> Result<ToolExecution, ToolFailure> {
        call::run(
            &self.config,
            tool,
            args,
            &options,
            &mut CallReport::default(),
        )
        .await
    }

    /// Like [`call_with`](Self::call_with), and what the call took: the attempts it made and
    /// the time it spent in backoff ([`CallReport`]).
    ///
    /// ```
    /// use tool_executor::prelude::*;
    /// use tool_executor::runtime::{CallOptions, RetryPolicy, Runtime};
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use std::time::Duration;
    ///
    /// static CALLS: AtomicU32 = AtomicU32::new(0);
    ///
    /// /// Busy once, then answers; safe to repeat.
    /// #[tool(read_only)]
    /// async fn status() -> Result<&'static str, ToolFailure> {
    ///     match CALLS.fetch_add(1, Ordering::SeqCst) {
    ///         0 => Err(ToolFailure::ordinary("busy").with_retry_after(Duration::from_millis(30))),
    ///         _ => Ok("up"),
    ///     }
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build().unwrap().block_on(async {
    /// let runtime = Runtime::new(toolset![status])
    ///     .with_retry(RetryPolicy::exponential(Duration::ZERO));
    /// let (done, report) = runtime.call_with_report("status", &json!({}), CallOptions::new()).await;
    /// assert_eq!(done.unwrap().output, json!("up"));
    /// assert_eq!(report.attempts, 2);
    /// assert_eq!(report.waited, Duration::from_millis(30));
    /// # });
    /// ```
    pub async fn call_with_report(
        &self,
        tool: &str,
        args: &Value,
        options: CallOptions,
    ) -> (Result<ToolExecution, ToolFailure>, CallReport) {
        let mut report = CallReport::default();
        let outcome = call::run(&self.config, tool, args, &options, &mut report).await;
        (outcome, report)
    }

    /// Starts `tool` in a task and returns its [`Handle`].
    ///
    /// # Errors
    /// An internal failure when called outside a Tokio runtime.
    pub fn spawn(&self, tool: &str, args: Value) -> Result<Handle, ToolFailure> {
        self.spawn_with(tool, args, CallOptions::default())
    }

    /// Like [`spawn`](Self::spawn), with options. The handle owns the call's cancellation and
    /// stream: a token or sink in `options` is replaced by the handle's (cancel with
    /// [`Handle::cancel`], read with [`Handle::subscribe`]).
    ///
    /// # Errors
    /// An internal failure when called outside a Tokio runtime.
    pub fn spawn_with(
        &self,
        tool: &str,
        args: Value,
        options: CallOptions,
    ) -> Result<Handle, ToolFailure> {
        let tasks = tokio::runtime::Handle::try_current()
            .map_err(|_| ToolFailure::internal("Runtime::spawn needs a Tokio runtime"))?;
        let token = self.shutdown.child_token();
        let id = HandleId::random(&self.config.keys);
        let (sink, chunks) = mpsc::channel(STREAM_CAPACITY);
        let options = options.with_cancellation(token.clone()).with_stream(sink);
        let (config, handles) = (Arc::clone(&self.config), Arc::clone(&self.handles));
        let ttl = config.handle_ttl;
        let tool = tool.to_owned();
        let call = async move {
            let mut report = CallReport::default();
            call::run(&config, &tool, &args, &options, &mut report).await
        };
        let handle = Handle::detached(id, token);
        handles.insert(&handle);
        handle.start(&tasks, chunks, call, move || handles.finished(id, ttl));
        Ok(handle)
    }

    /// The handle of a call this runtime spawned, while it runs and for the TTL after it ends.
    #[must_use]
    pub fn handle(&self, id: HandleId) -> Option<Handle> {
        self.handles.get(id)
    }

    /// How many handles are reachable: running, or finished within the TTL.
    #[must_use]
    pub fn handle_count(&self) -> usize {
        self.handles.len()
    }
}

// Every seed method comes from the blanket `impl ToolExecutor for ContextExecutor`: each builds
// the context its arguments describe, and the runtime reads the call's options from it.
impl ContextExecutor for Runtime {
    /// Runs the call with the context's ids, deadline, cancellation, expected effects and
    /// idempotency key; the runtime numbers the attempts itself. Chunks from every attempt
    /// reach the context's stream.
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        Box::pin(async move {
            let (options, chunks) = CallOptions::of_context(&ctx);
            let call = self.call_with(tool, params, options);
            relay(chunks, call, |chunk| forward(&ctx, chunk)).await
        })
    }

    /// Streams the call through the runtime ([`stream_with`](Self::stream_with)).
    fn stream<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
    ) -> BoxFuture<'a, Result<mpsc::Receiver<ToolStreamChunk>, String>> {
        let options = CallOptions::new().with_action_id(action_id);
        let stream = self.stream_with(tool, params.clone(), options);
        Box::pin(std::future::ready(
            stream.map_err(|failure| failure.to_string()),
        ))
    }

    fn list_specs(&self) -> SpecList {
        self.config.executor.specs()
    }

    fn list_specs_for(&self, ctx: &ToolContext) -> SpecList {
        self.config.executor.specs_for(ctx)
    }

    fn list_changes(&self) -> Option<crate::tool::ListChanges> {
        self.config.executor.list_changes()
    }
}
