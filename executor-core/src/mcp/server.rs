//! `McpServer`: any [`ToolExecutor`] as an MCP server (rmcp's `ServerHandler`).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CompleteRequestParams,
    CompleteResult, CustomRequest, CustomResult, ErrorCode, ErrorData, GetPromptRequestParams,
    GetPromptResponse, GetTaskParams, GetTaskResult, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ProgressToken, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, RoleServer, SubscriptionContext};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::context::ContextSettings;
use super::convert::{self, Listed};
use crate::failure::transport::{McpOutcome, for_mcp};
use crate::tool::CatchUnwind;
use crate::tool::SpecList;
use crate::tool::{STREAM_CAPACITY, ToolContext, ToolExecutor, ToolSpec, ToolStreamChunk};

/// The default bound on one stdio request line (8 MiB). Longer requests are answered with an
/// error instead of being read into memory.
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 8 * 1024 * 1024;

/// The default bound on answers a stdio connection has queued and not yet written (8 MiB).
/// Past it the server reads no further request until the client reads its answers.
pub const DEFAULT_MAX_PENDING_OUTPUT: usize = 8 * 1024 * 1024;

/// Serves a [`ToolExecutor`] — a [`ToolSet`](crate::tool::ToolSet), a `#[tools]` service, an
/// [`McpToolExecutor`](super::McpToolExecutor) — to any MCP client, on stdio
/// ([`serve_stdio`](Self::serve_stdio)) or, with the `mcp-http` feature, streamable HTTP
/// (`serve_http`, `serve_http_on`).
///
/// - `tools/list` comes from the executor's cached [`specs`](ToolExecutor::specs), in their
///   order; the MCP listing is built once per spec list, not per request.
/// - `tools/call` answers `structuredContent` plus a text block. Every tool failure, invalid
///   arguments and panics included, is an `isError: true` result whose text a model can act on,
///   with the failure's code, kind and classification in `_meta["executor/failure"]` and in a
///   second text block (not in `structuredContent`, which the output schema describes); an
///   unknown tool is JSON-RPC error -32602.
/// - A tool's failure codes and time limit are listed in its `_meta`
///   ([`FAILURE_CODES_META`](super::FAILURE_CODES_META), [`TIMEOUT_META`](super::TIMEOUT_META));
///   a call's request `_meta` may carry the caller's attempt and idempotency key
///   ([`ATTEMPT_META`](super::ATTEMPT_META), [`IDEMPOTENCY_KEY_META`](super::IDEMPOTENCY_KEY_META)),
///   which the tool sees in its [`ToolContext`] (a value of the wrong type is -32602).
/// - Progress a tool reports through its [`ToolContext`] becomes `notifications/progress` when
///   the client sent a progress token; `notifications/cancelled` drops the tool's future.
/// - An executor whose listing changes at run time ([`ToolExecutor::list_changes`], such as a
///   [`Transformed`](crate::transform::Transformed) set with a
///   [`Visibility`](crate::transform::Visibility)) is served with the `listChanged` capability:
///   each change sends `notifications/tools/list_changed` to every initialized session, and on
///   a 2026-07-28 `subscriptions/listen` stream that asked for it. `tools/list` and calls ask
///   the executor what this caller may see ([`ToolExecutor::specs_for`]).
/// - A [`Catalog`](crate::catalog::Catalog) ([`with_catalog`](Self::with_catalog)) adds
///   prompts, resources and completion; one with an editor
///   ([`Catalog::editor`](crate::catalog::Catalog::editor)) is served with `listChanged` on
///   prompts and resources and the same notifications for its changes, and
///   [`notify_resource_updated`](Self::notify_resource_updated) reaches 2025-11-25
///   subscribers and 2026-07-28 streams that follow the URI.
/// - The server reports your name and version: [`mcp_server!`](crate::mcp_server) fills them
///   from your crate; [`McpServer::new`] uses the executable's name.
///
/// ```
/// use tool_executor::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let server = tool_executor::mcp_server!(toolset![add]);
/// assert_eq!(server.name(), "tool-executor");
/// let server = server.with_name("calculator").with_version("1.2.3");
/// assert_eq!((server.name(), server.version()), ("calculator", "1.2.3"));
/// // In `main`: `server.serve_stdio().await?` or `server.serve_http(addr).await?`.
/// ```
#[derive(Clone)]
pub struct McpServer {
    pub(crate) inner: Arc<Inner>,
    /// The session a stdio connection is (HTTP sessions come from `Mcp-Session-Id`).
    pub(crate) session: Option<Arc<str>>,
}

pub(crate) struct Inner {
    executor: Arc<dyn ToolExecutor>,
    pub(crate) info: Implementation,
    instructions: Option<String>,
    pub(crate) max_request_bytes: usize,
    pub(crate) max_pending_output: usize,
    pub(crate) allowed_hosts: Option<Vec<String>>,
    #[cfg(feature = "mcp-http")]
    pub(crate) http_limits: super::limits::HttpLimits,
    /// Streamable HTTP without sessions (`with_stateless_http`).
    pub(crate) stateless_http: bool,
    /// The keys MCP 2026-07-28 questions are sealed with (`with_request_state_keys`).
    #[cfg(feature = "request-state")]
    pub(super) request_state: Option<Arc<crate::elicit::StateKeys>>,
    /// What a call's context carries beyond ids (`with_extension`, `with_forwarded_headers`).
    context: ContextSettings,
    /// The bearer-token check of streamable HTTP (`with_oauth`).
    #[cfg(all(feature = "mcp-http", feature = "oauth"))]
    pub(crate) oauth: Option<crate::auth::ResourceServer>,
    catalog: Mutex<Option<Arc<Catalog>>>,
    /// The executor's listing can change (`ToolExecutor::list_changes` is `Some`).
    list_changed: bool,
    /// Subscriptions to the listings (and resource updates) taken when a
    /// `subscriptions/listen` request arrived, oldest first: rmcp acknowledges the request
    /// before `listen` runs, and a change made right after the acknowledgment must still
    /// reach it (`mcp/listen.rs`).
    listens: Mutex<std::collections::VecDeque<super::listen::Listen>>,
    /// Where calls that run as tasks are kept; `None` when no tool can be one and
    /// `with_tasks` was not called (see `mcp/tasks.rs`).
    pub(super) tasks: Option<crate::task::Tasks>,
    /// The tasks each session created, for 2025-11-25's `tasks/list` (`mcp/tasks_legacy.rs`).
    pub(super) owned_tasks: Arc<super::tasks::Owned>,
    /// Prompts, resources, log levels and subscriptions (`mcp/catalog.rs`).
    pub(crate) offer: Arc<super::offer::Offer>,
}

/// The most `listens` kept (one per listen request between its arrival and its `listen`;
/// more only when requests fail before `listen`).
const MAX_PENDING_LISTENS: usize = 64;

/// The MCP listing of one spec list.
struct Catalog {
    specs: SpecList,
    tools: Vec<Listed>,
    index: HashMap<Box<str>, usize>,
}

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.inner.info.name)
            .field("version", &self.inner.info.version)
            .finish_non_exhaustive()
    }
}

impl McpServer {
    /// Serves `executor`, named after the running executable (use
    /// [`mcp_server!`](crate::mcp_server) to name it after your crate).
    #[must_use]
    pub fn new(executor: impl ToolExecutor + 'static) -> Self {
        Self::from_shared(Arc::new(executor))
    }

    /// Like [`new`](Self::new) for an executor that is already shared.
    #[must_use]
    pub fn from_shared(executor: Arc<dyn ToolExecutor>) -> Self {
        let name = std::env::current_exe()
            .ok()
            .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "executor".to_owned());
        let list_changed = executor.list_changes().is_some();
        let tasks = super::tasks::default_tasks(&executor.specs());
        Self {
            inner: Arc::new(Inner {
                list_changed,
                listens: Mutex::default(),
                executor,
                info: Implementation::new(name, "0.0.0"),
                instructions: None,
                max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
                max_pending_output: DEFAULT_MAX_PENDING_OUTPUT,
                allowed_hosts: None,
                #[cfg(feature = "mcp-http")]
                http_limits: super::limits::HttpLimits::default(),
                stateless_http: false,
                #[cfg(feature = "request-state")]
                request_state: None,
                context: ContextSettings::default(),
                #[cfg(all(feature = "mcp-http", feature = "oauth"))]
                oauth: None,
                catalog: Mutex::new(None),
                tasks,
                owned_tasks: Arc::default(),
                offer: Arc::default(),
            }),
            session: None,
        }
    }

    pub(super) fn edit(self, f: impl FnOnce(&mut Inner)) -> Self {
        let mut inner = match Arc::try_unwrap(self.inner) {
            Ok(inner) => inner,
            Err(shared) => Inner {
                executor: Arc::clone(&shared.executor),
                info: shared.info.clone(),
                instructions: shared.instructions.clone(),
                max_request_bytes: shared.max_request_bytes,
                max_pending_output: shared.max_pending_output,
                allowed_hosts: shared.allowed_hosts.clone(),
                #[cfg(feature = "mcp-http")]
                http_limits: shared.http_limits.clone(),
                stateless_http: shared.stateless_http,
                #[cfg(feature = "request-state")]
                request_state: shared.request_state.clone(),
                context: shared.context.clone(),
                #[cfg(all(feature = "mcp-http", feature = "oauth"))]
                oauth: shared.oauth.clone(),
                catalog: Mutex::new(None),
                list_changed: shared.list_changed,
                listens: Mutex::default(),
                tasks: shared.tasks.clone(),
                owned_tasks: Arc::clone(&shared.owned_tasks),
                offer: Arc::new(shared.offer.fresh()),
            },
        };
        f(&mut inner);
        Self {
            inner: Arc::new(inner),
            session: self.session,
        }
    }

    /// Sets the name reported in `serverInfo`.
    #[must_use]
    pub fn with_name(self, name: impl Into<String>) -> Self {
        let name = name.into();
        self.edit(|i| i.info.name = name)
    }

    /// Sets the version reported in `serverInfo`.
    #[must_use]
    pub fn with_version(self, version: impl Into<String>) -> Self {
        let version = version.into();
        self.edit(|i| i.info.version = version)
    }

    /// Sets the instructions sent with the `initialize` result.
    #[must_use]
    pub fn with_instructions(self, instructions: impl Into<String>) -> Self {
        let instructions = instructions.into();
        self.edit(|i| i.instructions = Some(instructions))
    }

    /// A value every call's [`ToolContext`] carries (read with
    /// [`ToolContext::extension`]): the [`Principal`](crate::auth::Principal) of a stdio
    /// server's one trusted client, a tenant, a shared client handle. A second value of the
    /// same type replaces the first.
    ///
    /// Every call also carries the request's `_meta` as a
    /// [`RequestMeta`](super::RequestMeta) when it has one.
    #[must_use]
    pub fn with_extension<T: Send + Sync + 'static>(self, value: T) -> Self {
        let value = Arc::new(value);
        self.edit(|i| {
            i.context.extensions.insert_shared(value);
        })
    }

    /// Limits tool calls per caller and per tool (the MCP specification asks servers to
    /// rate-limit tool invocations): a refused call is an `isError` result with code
    /// `rate_limited` and its `retry_after` in `_meta`, before the tool runs. Callers are told
    /// apart by their [`Principal`](crate::auth::Principal) (`with_oauth`); without one they
    /// share a bucket per tool. Buckets are per process (per replica behind a balancer).
    #[must_use]
    pub fn with_rate_limit(self, limit: crate::runtime::RateLimit) -> Self {
        self.edit(|i| {
            let shared = Arc::clone(&i.executor);
            i.executor = Arc::new(crate::runtime::RateLimited::from_shared(shared, limit));
        })
    }

    /// Passes the named HTTP request headers to tools, as a
    /// [`RequestHeaders`](crate::tool::RequestHeaders) extension (default: none; names are
    /// matched in any case). Only listed headers reach a tool, so a credential the server
    /// checks (an `Authorization` header) stays out of the tool unless listed.
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    #[must_use]
    pub fn with_forwarded_headers<I, S>(self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let names: Vec<String> = names
            .into_iter()
            .map(|name| name.as_ref().to_ascii_lowercase())
            .collect();
        self.edit(|i| i.context.forwarded_headers = names)
    }

    /// Bounds one stdio request line and one HTTP request body (default
    /// [`DEFAULT_MAX_REQUEST_BYTES`]).
    #[must_use]
    pub fn with_max_request_bytes(self, bytes: usize) -> Self {
        self.edit(|i| i.max_request_bytes = bytes.max(1024))
    }

    /// Bounds the answers a stdio connection holds queued and not yet written (default
    /// [`DEFAULT_MAX_PENDING_OUTPUT`], 8 MiB). When a client stops reading stdout and the
    /// queue reaches the bound, the server stops reading requests: they wait in the pipe, and
    /// the client's writes block once it is full. Nothing is dropped; once the client reads
    /// again every request is answered, in the order the answers were queued. The server then
    /// holds at most this bound, plus the answers of the requests it had already taken (one
    /// answer may exceed the bound on its own).
    ///
    /// Streamable HTTP needs no such bound: rmcp sends each response stream through a bounded
    /// channel (16 messages), so a tool's sends wait for a client that does not read.
    #[must_use]
    pub fn with_max_pending_output(self, bytes: usize) -> Self {
        self.edit(|i| i.max_pending_output = bytes.max(1))
    }

    /// The `Host` headers streamable HTTP accepts (default: `localhost`, `127.0.0.1`, `::1`,
    /// against DNS rebinding). Entries are host names or `host:port`.
    #[must_use]
    pub fn with_allowed_hosts<I, S>(self, hosts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let hosts = hosts.into_iter().map(Into::into).collect();
        self.edit(|i| i.allowed_hosts = Some(hosts))
    }

    /// Serves streamable HTTP statelessly (rmcp's stateless mode; default off): each POST is
    /// answered on its own, with no `initialize` kept and no `Mcp-Session-Id`, so any replica
    /// behind a load balancer can answer any request. A plain answer is `application/json`;
    /// one with progress before it is an SSE stream. A client that stops reading the response
    /// cancels the call: the tool's future is dropped.
    ///
    /// What a client on a protocol older than 2026-07-28 loses (2026-07-28 is session-free
    /// by design, so it loses nothing):
    /// - server→client requests (sampling, elicitation, roots) and the GET stream for
    ///   notifications outside a request: there is no session to carry them;
    /// - `notifications/cancelled` by request id: a notification arrives on a POST of its own,
    ///   which knows nothing of the other request, and is accepted and ignored; cancel by
    ///   closing the call's response stream instead;
    /// - session identity: [`ToolContext::session_id`] is `None` for every call;
    /// - resuming a broken SSE stream (`Last-Event-ID`): nothing is kept to replay.
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    #[must_use]
    pub fn with_stateless_http(self, stateless: bool) -> Self {
        self.edit(|i| i.stateless_http = stateless)
    }

    /// Seals the `requestState` of MCP 2026-07-28 questions with `keys` (feature
    /// `request-state`; see `mcp/mrtr.rs`). Without it the server seals with a random key of
    /// its own process: enough for one server, but replicas behind a load balancer must share
    /// one key so any of them continues a question another asked. Rotation: see
    /// [`StateKeys`](crate::elicit::StateKeys).
    #[cfg(feature = "request-state")]
    #[cfg_attr(docsrs, doc(cfg(feature = "request-state")))]
    #[must_use]
    pub fn with_request_state_keys(self, keys: crate::elicit::StateKeys) -> Self {
        self.edit(|inner| inner.request_state = Some(Arc::new(keys)))
    }

    /// Keeps the server's tasks in `tasks` (a [`Tasks`](crate::task::Tasks) over your store, or with your default
    /// TTL and poll interval) instead of the in-memory default, and serves the MCP tasks
    /// extension even if no tool can be a task yet (an executor whose listing changes).
    ///
    /// A tool declared `#[tool(task = "optional")]` runs as a task when the client declares
    /// the extension on the call; `task = "required"` only then (else -32021).
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_executor::prelude::*;
    /// use tool_executor::task::{MemoryTaskStore, Tasks};
    ///
    /// /// Writes a long report.
    /// #[tool(task = "required")]
    /// async fn report(seconds: u64) -> String { format!("{seconds} s") }
    ///
    /// let tasks = Tasks::new(MemoryTaskStore::new(1_000))
    ///     .with_defaults(Duration::from_secs(600), Duration::from_secs(2));
    /// let server = tool_executor::mcp_server!(toolset![report]).with_tasks(tasks);
    /// # let _ = server;
    /// ```
    #[must_use]
    pub fn with_tasks(self, tasks: crate::task::Tasks) -> Self {
        self.edit(|inner| inner.tasks = Some(tasks))
    }

    /// The server's tasks; -32601 when it serves none.
    pub(super) fn tasks(&self) -> Result<&crate::task::Tasks, ErrorData> {
        self.inner.tasks.as_ref().ok_or_else(|| {
            ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "this server runs no tasks",
                None,
            )
        })
    }

    /// A copy serving one stdio connection as session `id`.
    pub(crate) fn for_session(&self, id: String) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            session: Some(id.into()),
        }
    }

    /// The session a request belongs to: the HTTP `Mcp-Session-Id`, or the stdio connection.
    pub(super) fn session_of(&self, context: &RequestContext<RoleServer>) -> Option<String> {
        #[cfg(feature = "mcp-http")]
        if let Some(id) = context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.headers.get("mcp-session-id"))
            .and_then(|value| value.to_str().ok())
        {
            return Some(id.to_owned());
        }
        let _ = context;
        self.session.as_deref().map(str::to_owned)
    }

    /// What the executor is told of the caller when it lists tools for it: the session and
    /// what a call's context carries (extensions, the principal behind `with_oauth`), so
    /// per-caller visibility rules read the same context a call does.
    fn caller_of(&self, context: &RequestContext<RoleServer>) -> ToolContext {
        let ctx = match self.session_of(context) {
            Some(session) => ToolContext::new().with_session_id(session),
            None => ToolContext::new(),
        };
        self.inner.context.attach(ctx, context)
    }

    /// The tools `context`'s caller may see that `keep` keeps: from the cached listing when
    /// the executor shows every caller the same, else from the caller's own specs.
    fn listing_for(
        &self,
        context: &RequestContext<RoleServer>,
        keep: impl Fn(&ToolSpec) -> bool,
    ) -> Vec<rmcp::model::Tool> {
        let catalog = self.catalog();
        let specs = if self.inner.list_changed {
            self.inner.executor.specs_for(&self.caller_of(context))
        } else {
            Arc::clone(&catalog.specs)
        };
        if Arc::ptr_eq(&specs, &catalog.specs) {
            return catalog
                .specs
                .iter()
                .zip(&catalog.tools)
                .filter(|(spec, _)| keep(spec))
                .map(|(_, l)| l.tool.clone())
                .collect();
        }
        specs
            .iter()
            .filter(|spec| keep(spec))
            .map(|spec| match catalog.index.get(spec.name.as_str()) {
                Some(&i) if Arc::ptr_eq(&catalog.specs[i], spec) => catalog.tools[i].tool.clone(),
                _ => convert::listed(spec).tool,
            })
            .collect()
    }

    /// How a call of `tool` is answered for this request: the tool's task settings against
    /// the request's declared capabilities.
    fn task_mode(
        &self,
        tool: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<super::tasks::Mode, ErrorData> {
        let declared = super::tasks::declared(context);
        let legacy = super::tasks::is_legacy(context);
        super::tasks::mode(tool, self.task_settings(tool, context), declared, legacy)
    }

    /// The task settings of `tool` as `context`'s caller sees it (from the cached listing, or
    /// this caller's specs); `None` for a tool that is never a task, or no such tool.
    pub(super) fn task_settings(
        &self,
        tool: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<crate::task::TaskSpec> {
        let catalog = self.catalog();
        if let Some(&i) = catalog.index.get(tool) {
            return catalog.specs[i].task;
        }
        let specs = self.inner.executor.specs_for(&self.caller_of(context));
        specs.iter().find(|s| s.name == tool).and_then(|s| s.task)
    }

    /// How results of `tool` are shaped (wrapped as `{"result": …}`, content blocks): from the
    /// cached listing, or for a tool only this caller sees, from its spec.
    pub(super) fn wraps(
        &self,
        tool: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<convert::Shape> {
        let catalog = self.catalog();
        if let Some(&i) = catalog.index.get(tool) {
            return Some(catalog.tools[i].wrap.clone());
        }
        let specs = self.inner.executor.specs_for(&self.caller_of(context));
        specs
            .iter()
            .find(|s| s.name == tool)
            .map(|spec| convert::listed(spec).wrap)
    }

    /// The context a prompt or resource function is given: the request's id, session, log
    /// level, the server's extensions, forwarded headers and principal, and its cancellation.
    pub(crate) fn catalog_context(
        &self,
        name: &str,
        context: &RequestContext<RoleServer>,
    ) -> ToolContext {
        let session = self.session_of(context);
        let mut ctx = ToolContext::new().with_action_id(context.id.to_string());
        ctx = self.attach_client(ctx, name, context, session.as_deref());
        if let Some(session) = session {
            ctx = ctx.with_session_id(session);
        }
        self.inner
            .context
            .attach(ctx, context)
            .with_cancellation(context.ct.clone())
    }

    /// What the server offers beside tools.
    pub(crate) fn offer(&self) -> &super::offer::Offer {
        &self.inner.offer
    }

    /// The served executor.
    #[cfg_attr(not(all(feature = "mcp-http", feature = "oauth")), allow(dead_code))]
    pub(crate) fn executor(&self) -> Arc<dyn ToolExecutor> {
        Arc::clone(&self.inner.executor)
    }

    /// The name reported in `serverInfo`.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.inner.info.name
    }

    /// The version reported in `serverInfo`.
    #[must_use]
    pub fn version(&self) -> &str {
        &self.inner.info.version
    }

    /// The listing for the executor's current specs; rebuilt only when the spec list changes.
    fn catalog(&self) -> Arc<Catalog> {
        let specs = self.inner.executor.specs();
        let mut cached = self
            .inner
            .catalog
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(catalog) = cached.as_ref()
            && Arc::ptr_eq(&catalog.specs, &specs)
        {
            return Arc::clone(catalog);
        }
        let tools: Vec<Listed> = specs.iter().map(|s| convert::listed(s)).collect();
        let index = specs
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone().into_boxed_str(), i))
            .collect();
        let catalog = Arc::new(Catalog {
            specs,
            tools,
            index,
        });
        *cached = Some(Arc::clone(&catalog));
        catalog
    }

    /// The context a call of `request` runs with: the caller's attempt and idempotency key
    /// (from the request's `_meta`), its session and client, and the extensions the server
    /// attaches. Without the request's cancellation: a task outlives its request.
    pub(super) fn call_context(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ToolContext, ErrorData> {
        let (attempt, key) = convert::caller_of(&context.meta.0.0)
            .map_err(|why| ErrorData::invalid_params(why, None))?;
        let mut ctx = ToolContext::new()
            .with_attempt(attempt)
            .with_action_id(context.id.to_string());
        if let Some(key) = key {
            ctx = ctx.with_idempotency_key(key);
        }
        let session = self.session_of(context);
        ctx = self.attach_client(ctx, &request.name, context, session.as_deref());
        if let Some(session) = session {
            ctx = ctx.with_session_id(session);
        }
        ctx = self.inner.context.attach(ctx, context);
        // The span `call_tool` runs this in: the parent of the calls the tool makes.
        #[cfg(feature = "tracing")]
        {
            ctx = ctx.with_extension(crate::tool::span::CallSpan(tracing::Span::current()));
        }
        Ok(ctx)
    }

    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let params = Value::Object(request.arguments.clone().unwrap_or_default());
        let mut ctx = self.call_context(&request, &context)?;
        // A tool that may run as a task, for a client that asked for tasks (`mcp/tasks.rs`).
        if let Some(tasks) = &self.inner.tasks
            && let super::tasks::Mode::Task(settings) = self.task_mode(&request.name, &context)?
        {
            let wrap = self.wraps(&request.name, &context);
            let executor = Arc::clone(&self.inner.executor);
            let name = request.name.to_string();
            return super::tasks::start(tasks, executor, name, params, ctx, settings, wrap).await;
        }
        ctx = ctx.with_cancellation(context.ct.clone());
        #[cfg(feature = "request-state")]
        let round = super::mrtr::Round::begin(
            self.inner.request_state.as_ref(),
            super::mrtr::Retry {
                tool: &request.name,
                arguments: &params,
                state: request.request_state.as_deref(),
                responses: request.input_responses.as_ref(),
            },
            &context,
        )?;
        #[cfg(feature = "request-state")]
        let asker = round.as_ref().map(super::mrtr::Round::asker);
        #[cfg(not(feature = "request-state"))]
        let asker = None;
        ctx = super::elicit::attach(ctx, &context, self.inner.stateless_http, asker);
        // Dropped when the call is done: what tells the forwarder to stop waiting for chunks.
        let mut done = None;
        let forwarder = context.meta.get_progress_token().map(|token| {
            let (tx, rx) = mpsc::channel(STREAM_CAPACITY);
            let (call_done, ended) = oneshot::channel::<()>();
            done = Some(call_done);
            ctx = std::mem::take(&mut ctx).with_stream(tx);
            forward_progress(rx, ended, context.peer.clone(), token)
        });
        // Generated tools catch their own panics; a hand-written executor may not (in its
        // future or in the call that makes it), and a panic here would lose the response.
        let executor = &self.inner.executor;
        let work = async {
            let call = CatchUnwind::new(async {
                executor
                    .execute_with_context(&request.name, &params, ctx)
                    .await
            });
            let outcome = call
                .await
                .unwrap_or_else(|panic| Err(panic.into_failure(&request.name)));
            drop(done);
            outcome
        };
        // Progress is forwarded beside the call, in this task (no task spawned per call).
        // Once the call is done the forwarder closes the stream, sends what is queued and
        // ends, so every notification precedes the response, and the response does not wait
        // for the stream's senders to go (a sync tool's body, still running after its timeout,
        // may hold one).
        let run = async {
            match forwarder {
                Some(forwarder) => tokio::join!(work, forwarder).0,
                None => work.await,
            }
        };
        // A 2026-07-28 call that asked ends with the question (`mcp/mrtr.rs`).
        #[cfg(feature = "request-state")]
        let outcome = match &round {
            Some(round) => match round.run(run).await {
                Ok(outcome) => outcome,
                Err(question) => return round.input_required(&question).map(Into::into),
            },
            None => run.await,
        };
        #[cfg(not(feature = "request-state"))]
        let outcome = run.await;
        match outcome {
            Ok(execution) => {
                let wrap = self.wraps(&request.name, &context);
                Ok(convert::success(execution.output, wrap).into())
            }
            Err(failure) => match for_mcp(&failure) {
                McpOutcome::ToolError { text, details } => {
                    Ok(convert::tool_error(text, details).into())
                }
                McpOutcome::ProtocolError { code, message } => {
                    Err(ErrorData::new(ErrorCode(code), message, None))
                }
            },
        }
    }
}

/// Sends the tool's progress (and streamed text, as the message) to the client until the call
/// has `ended`; then what is queued.
async fn forward_progress(
    mut rx: mpsc::Receiver<ToolStreamChunk>,
    mut ended: oneshot::Receiver<()>,
    peer: Peer<RoleServer>,
    token: ProgressToken,
) {
    let mut last = 0.0;
    loop {
        let chunk = tokio::select! {
            chunk = rx.recv() => chunk,
            _ = &mut ended, if !rx.is_closed() => {
                rx.close();
                continue;
            }
        };
        let Some(chunk) = chunk else { break };
        let (progress, message) = match chunk {
            ToolStreamChunk::Progress { fraction, message } => (fraction, message),
            ToolStreamChunk::Text { text } => (last, Some(text)),
            _ => continue,
        };
        last = progress;
        let mut param = ProgressNotificationParam::new(token.clone(), progress);
        param.total = Some(1.0);
        param.message = message;
        // When the client is gone this fails; keep draining so the tool never blocks on a
        // full stream.
        let _ = peer.notify_progress(param).await;
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = if self.inner.list_changed {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build()
        } else {
            ServerCapabilities::builder().enable_tools().build()
        };
        if self.inner.tasks.is_some() {
            super::tasks::advertise(&mut capabilities);
        }
        self.inner.offer.capabilities(&mut capabilities);
        let config = ServerConfig::new(capabilities).with_server_info(self.inner.info.clone());
        match &self.inner.instructions {
            Some(text) => config.with_instructions(text.clone()),
            None => config,
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // Behind `with_oauth`, a caller sees only the tools its token's scopes allow.
        #[cfg(all(feature = "mcp-http", feature = "oauth"))]
        if let Some(principal) = super::context::principal_of(&context) {
            let tools = self.listing_for(&context, |spec| spec.missing_scope(&principal).is_none());
            return Ok(self.offer().cache(ListToolsResult::with_all_items(tools)));
        }
        // rmcp's result owns its `Tool`s; the schemas inside are shared `Arc`s.
        let tools = self.listing_for(&context, |_| true);
        Ok(self.offer().cache(ListToolsResult::with_all_items(tools)))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let listen = super::listen::Listen::take(&*self.inner.executor, self.offer(), false);
        if !listen.is_empty() {
            tokio::spawn(super::listen::relay(listen, context.peer));
        }
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let updates = requested.resource_subscriptions.is_some();
        let listen = super::listen::Listen::take(&*self.inner.executor, self.offer(), updates);
        let accepted = listen.accepted(self.offer(), requested)?;
        let mut listens = self
            .inner
            .listens
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if listens.len() == MAX_PENDING_LISTENS {
            listens.pop_front();
        }
        listens.push_back(listen);
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        // The oldest subscription taken on arrival: taken no later than this request's own,
        // so before its acknowledgment (an older one may report a change twice, harmlessly).
        let pending = self
            .inner
            .listens
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front();
        let listen = pending.unwrap_or_else(|| {
            super::listen::Listen::take(&*self.inner.executor, self.offer(), true)
        });
        super::listen::run(listen, &context).await;
        Ok(())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // One span per call, by the OpenTelemetry MCP conventions (`mcp/context.rs`).
        #[cfg(feature = "tracing")]
        {
            let session = self.session_of(&context);
            let span = super::context::call_span(&request.name, &context, session.as_deref());
            let answer =
                tracing::Instrument::instrument(self.call(request, context), span.clone()).await;
            super::context::record_call(&span, &answer);
            answer
        }
        #[cfg(not(feature = "tracing"))]
        self.call(request, context).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        super::tasks::get(self.tasks()?, &request.task_id).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        super::tasks::update(self.tasks()?, &request.task_id, request.input_responses).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        super::tasks::cancel(self.tasks()?, &request.task_id).await
    }

    /// The 2025-11-25 task requests the transports renamed (`mcp/tasks_legacy.rs`).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        match self.legacy_task_request(&request, context).await {
            Some(answer) => answer,
            None => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            )),
        }
    }

    // Prompts, resources, completion and logging: `mcp/catalog.rs`.

    #[allow(deprecated)] // Logging is legacy in 2026-07-28 (SEP-2577) and current in 2025-11-25.
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.set_log_level(request.level, self.session_of(&context).as_deref());
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.list_prompts_wire()
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        Ok(self.get_prompt_wire(request, &context).await?.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.list_resources_wire()
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.list_templates_wire()
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        Ok(self.read_resource_wire(request, &context).await?.into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let session = self.session_of(&context);
        self.subscribe_wire(request.uri, &context, session.as_deref())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.unsubscribe_wire(&request.uri, self.session_of(&context).as_deref());
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.complete_wire(&request)
    }
}
