//! `McpToolExecutor`: an MCP server's tools as a [`ToolExecutor`].

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;

use rmcp::ClientHandler;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotificationParam,
    ClientCapabilities, ClientConfig, ClientRequest, ErrorCode, Implementation,
    ProgressNotificationParam, ProgressToken, ServerResult, Tool,
};
use rmcp::service::{
    NotificationContext, Peer, PeerRequestOptions, RoleClient, RunningService, ServiceError,
    ServiceExt,
};
#[cfg(feature = "mcp-http")]
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::TokioChildProcess;
use serde_json::Value;
use tokio::sync::mpsc;

use super::convert::{RESULT_KEY, is_object_schema};
use crate::tool::SpecList;
use crate::{
    BoxFuture, Classification, FailureKind, ToolAnnotations, ToolContext, ToolExecution,
    ToolExecutor, ToolFailure, ToolSpec,
};

/// The wait bound when a call carries no budget (the seed system's MCP backstop).
const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(600);

/// Where an MCP server runs.
#[derive(Debug, Clone)]
enum Endpoint {
    Stdio(StdioCommand),
    #[cfg(feature = "mcp-http")]
    Http {
        url: String,
    },
}

/// The command line of a stdio server.
#[derive(Debug, Clone)]
struct StdioCommand {
    program: OsString,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    cwd: Option<PathBuf>,
}

/// How to reach an MCP server: a command speaking MCP on stdio, or a streamable HTTP URL.
///
/// ```
/// use executor_core::mcp::McpServerConfig;
/// use std::time::Duration;
///
/// let config = McpServerConfig::stdio("files", "python3")
///     .arg("server.py")
///     .env("LOG_LEVEL", "warning")
///     .prefixed(true)
///     .request_timeout(Duration::from_secs(30));
/// assert_eq!(config.name(), "files");
/// ```
#[derive(Debug, Clone)]
pub struct McpServerConfig {
    name: String,
    endpoint: Endpoint,
    prefixed: bool,
    request_timeout: Duration,
}

impl McpServerConfig {
    /// A server started as `program` with piped stdio. It is killed when the executor is
    /// dropped and restarted on the next call if it dies.
    #[must_use]
    pub fn stdio(name: impl Into<String>, program: impl Into<OsString>) -> Self {
        Self::with_endpoint(
            name,
            Endpoint::Stdio(StdioCommand {
                program: program.into(),
                args: Vec::new(),
                env: Vec::new(),
                cwd: None,
            }),
        )
    }

    /// A server at a streamable HTTP `url` (plain `http`; enable reqwest's TLS features in
    /// your own `Cargo.toml` for `https`).
    ///
    /// ```
    /// use executor_core::mcp::McpServerConfig;
    ///
    /// let remote = McpServerConfig::http("weather", "http://127.0.0.1:8080/mcp").prefixed(true);
    /// assert_eq!(remote.name(), "weather");
    /// ```
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    #[must_use]
    pub fn http(name: impl Into<String>, url: impl Into<String>) -> Self {
        Self::with_endpoint(name, Endpoint::Http { url: url.into() })
    }

    fn with_endpoint(name: impl Into<String>, endpoint: Endpoint) -> Self {
        Self {
            name: name.into(),
            endpoint,
            prefixed: false,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
        }
    }

    /// The command line, for a stdio server.
    #[cfg_attr(not(feature = "mcp-http"), allow(clippy::unnecessary_wraps))] // `None` for HTTP
    fn command(&mut self) -> Option<&mut StdioCommand> {
        match &mut self.endpoint {
            Endpoint::Stdio(command) => Some(command),
            #[cfg(feature = "mcp-http")]
            Endpoint::Http { .. } => None,
        }
    }

    /// Adds a command-line argument (stdio servers).
    #[must_use]
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        if let Some(command) = self.command() {
            command.args.push(arg.into());
        }
        self
    }

    /// Adds command-line arguments (stdio servers).
    #[must_use]
    pub fn args<I, S>(self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        args.into_iter().fold(self, Self::arg)
    }

    /// Sets an environment variable (stdio servers).
    #[must_use]
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        if let Some(command) = self.command() {
            command.env.push((key.into(), value.into()));
        }
        self
    }

    /// Sets the working directory (stdio servers).
    #[must_use]
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        if let Some(command) = self.command() {
            command.cwd = Some(dir.into());
        }
        self
    }

    /// Names tools `mcp_{server}_{tool}` (the bare name is accepted too).
    #[must_use]
    pub const fn prefixed(mut self, prefixed: bool) -> Self {
        self.prefixed = prefixed;
        self
    }

    /// Bounds a call that carries no budget of its own (default 600 s).
    #[must_use]
    pub const fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// The server's name, used in the prefix and in errors.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// Connecting to an MCP server failed.
#[derive(Debug)]
pub struct McpClientError {
    server: String,
    detail: String,
}

impl fmt::Display for McpClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MCP server `{}`: {}", self.server, self.detail)
    }
}

impl std::error::Error for McpClientError {}

/// One progress report: the fraction done and a message.
type Progress = (f64, Option<String>);

/// Routes the server's progress notifications to the calls that asked for them.
#[derive(Clone, Default)]
struct Relay {
    progress: Arc<Mutex<HashMap<ProgressToken, mpsc::UnboundedSender<Progress>>>>,
}

impl ClientHandler for Relay {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("executor-core", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let fraction = match params.total {
            Some(total) if total > 0.0 => params.progress / total,
            _ => params.progress,
        };
        let routes = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tx) = routes.get(&params.progress_token) {
            let _ = tx.send((fraction, params.message));
        }
    }
}

/// How an exposed tool name reaches the server.
#[derive(Debug, Clone)]
struct Route {
    remote: String,
    /// The listed output schema is our `{"result": …}` wrapper: unwrap results.
    unwrap: bool,
}

struct Catalog {
    specs: SpecList,
    routes: HashMap<String, Route>,
}

struct Shared {
    config: McpServerConfig,
    relay: Relay,
    connection: tokio::sync::Mutex<Option<RunningService<RoleClient, Relay>>>,
    catalog: RwLock<Arc<Catalog>>,
}

/// An MCP server's tools as a [`ToolExecutor`] (stdio command or streamable HTTP URL).
///
/// - [`specs`](ToolExecutor::specs) lists the server's tools as [`ToolSpec`]s (names
///   `mcp_{server}_{tool}` with [`McpServerConfig::prefixed`]).
/// - A call's budget (`timeout_ms`, the context's deadline) bounds the wait; without one the
///   config's request timeout does. A call that times out or is dropped sends
///   `notifications/cancelled`.
/// - `isError` results are ordinary failures carrying the text (terminal when the server is
///   one of ours and said so); protocol errors map to failure kinds; a server that died is
///   restarted (and relisted) on the next call.
/// - Progress notifications become the call's [`ToolContext::progress`].
#[derive(Clone)]
pub struct McpToolExecutor {
    shared: Arc<Shared>,
    fallback: Option<Arc<dyn ToolExecutor>>,
}

impl fmt::Debug for McpToolExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpToolExecutor")
            .field("server", &self.shared.config.name)
            .field(
                "tools",
                &self
                    .specs()
                    .iter()
                    .map(|s| s.name.clone())
                    .collect::<Vec<_>>(),
            )
            .field("fallback", &self.fallback.is_some())
            .finish()
    }
}

impl McpToolExecutor {
    /// Starts or connects to the server, runs the `initialize` handshake and lists its tools.
    ///
    /// # Errors
    /// When the command cannot start, the handshake fails or `tools/list` fails.
    pub async fn connect(config: McpServerConfig) -> Result<Self, McpClientError> {
        let shared = Arc::new(Shared {
            config,
            relay: Relay::default(),
            connection: tokio::sync::Mutex::new(None),
            catalog: RwLock::new(Arc::new(Catalog {
                specs: Arc::from(Vec::new()),
                routes: HashMap::new(),
            })),
        });
        let executor = Self {
            shared,
            fallback: None,
        };
        let mut connection = executor.shared.connection.lock().await;
        executor.reconnect(&mut connection).await?;
        drop(connection);
        Ok(executor)
    }

    /// Sends calls for tools this server does not list to `fallback` (the seed's
    /// `with_fallback`), instead of failing them as unhandled.
    #[must_use]
    pub fn with_fallback(mut self, fallback: Arc<dyn ToolExecutor>) -> Self {
        self.fallback = Some(fallback);
        self
    }

    /// Whether the server listed `tool` (under the name callers use).
    fn serves(&self, tool: &str) -> bool {
        self.shared
            .catalog
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .routes
            .contains_key(tool)
    }

    /// The server's name.
    #[must_use]
    pub fn server(&self) -> &str {
        &self.shared.config.name
    }

    fn error(&self, detail: impl fmt::Display) -> McpClientError {
        McpClientError {
            server: self.shared.config.name.clone(),
            detail: detail.to_string(),
        }
    }

    /// Starts the server (again), initializes and relists its tools.
    async fn reconnect(
        &self,
        slot: &mut Option<RunningService<RoleClient, Relay>>,
    ) -> Result<Peer<RoleClient>, McpClientError> {
        if let Some(old) = slot.take() {
            // Dropping it cancels the service loop, which kills a stdio child.
            drop(old);
        }
        let relay = self.shared.relay.clone();
        let service = match &self.shared.config.endpoint {
            Endpoint::Stdio(StdioCommand {
                program,
                args,
                env,
                cwd,
            }) => {
                let mut command = tokio::process::Command::new(program);
                command.args(args).envs(env.iter().map(|(k, v)| (k, v)));
                if let Some(dir) = cwd {
                    command.current_dir(dir);
                }
                let (child, _) = TokioChildProcess::builder(command)
                    .stderr(Stdio::inherit())
                    .spawn()
                    .map_err(|e| {
                        self.error(format_args!(
                            "could not start {}: {e}",
                            program.to_string_lossy()
                        ))
                    })?;
                relay.serve(child).await.map_err(|e| self.error(e))?
            }
            #[cfg(feature = "mcp-http")]
            Endpoint::Http { url } => {
                let transport = StreamableHttpClientTransport::from_uri(url.as_str());
                relay.serve(transport).await.map_err(|e| self.error(e))?
            }
        };
        let peer = service.peer().clone();
        let tools = peer.list_all_tools().await.map_err(|e| self.error(e))?;
        let catalog = self.catalog_of(tools);
        *self
            .shared
            .catalog
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Arc::new(catalog);
        *slot = Some(service);
        Ok(peer)
    }

    fn catalog_of(&self, tools: Vec<Tool>) -> Catalog {
        let prefix = format!("mcp_{}_", self.shared.config.name);
        let mut specs = Vec::with_capacity(tools.len());
        let mut routes = HashMap::with_capacity(tools.len() * 2);
        for tool in tools {
            let remote = tool.name.to_string();
            let (spec, unwrap) = spec_of(&tool);
            let route = Route {
                remote: remote.clone(),
                unwrap,
            };
            let exposed = if self.shared.config.prefixed {
                routes.insert(remote.clone(), route.clone());
                format!("{prefix}{remote}")
            } else {
                remote
            };
            routes.insert(exposed.clone(), route);
            specs.push(Arc::new(ToolSpec {
                name: exposed,
                ..spec
            }));
        }
        Catalog {
            specs: specs.into(),
            routes,
        }
    }

    /// A live connection, restarting a server that died.
    async fn peer(&self) -> Result<Peer<RoleClient>, ToolFailure> {
        let mut slot = self.shared.connection.lock().await;
        if let Some(service) = slot.as_ref()
            && !service.peer().is_transport_closed()
        {
            return Ok(service.peer().clone());
        }
        self.reconnect(&mut slot)
            .await
            .map_err(|e| ToolFailure::ordinary(e.to_string()).with_code("mcp_unavailable"))
    }

    /// Forgets a connection that failed, so the next call restarts it.
    async fn forget(&self) {
        let mut slot = self.shared.connection.lock().await;
        if slot
            .as_ref()
            .is_some_and(|s| s.peer().is_transport_closed())
        {
            slot.take();
        }
    }

    async fn call(
        &self,
        tool: &str,
        params: &Value,
        ctx: &ToolContext,
    ) -> Result<ToolExecution, ToolFailure> {
        let route = self
            .shared
            .catalog
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .routes
            .get(tool)
            .cloned();
        let Some(route) = route else {
            return Err(ToolFailure::unknown_tool(tool));
        };
        let arguments = match params {
            Value::Object(map) => Some(map.clone()),
            Value::Null => None,
            other => {
                let got = crate::__private::describe(other);
                return Err(ToolFailure::invalid_arguments(format!(
                    "arguments: expected an object, got {got}"
                )));
            }
        };
        let peer = self.peer().await?;
        let mut request = CallToolRequestParams::new(route.remote.clone());
        request.arguments = arguments;
        let outcome = self.send_call(&peer, request, ctx).await;
        match outcome {
            Ok(result) => from_result(tool, result, route.unwrap),
            Err(error) => {
                let failure = from_service_error(tool, &self.shared.config.name, error);
                if failure.code() == "mcp_transport" {
                    self.forget().await;
                }
                Err(failure)
            }
        }
    }

    /// Sends one `tools/call`, relaying its progress to `ctx` and cancelling it on the server
    /// if this future is dropped first (timeout, cancellation, the caller going away).
    async fn send_call(
        &self,
        peer: &Peer<RoleClient>,
        request: CallToolRequestParams,
        ctx: &ToolContext,
    ) -> Result<CallToolResult, ServiceError> {
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(request));
        // rmcp stamps every request with its own progress token; route by that one.
        let handle = peer
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await?;
        let mut guard = CancelOnDrop {
            peer: peer.clone(),
            id: Some(handle.id.clone()),
        };
        let progress = ctx.is_streaming().then(|| {
            let (tx, rx) = mpsc::unbounded_channel();
            let token = handle.progress_token.clone();
            self.shared
                .relay
                .progress
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(token.clone(), tx);
            (
                rx,
                Unregister {
                    relay: self.shared.relay.clone(),
                    token,
                },
            )
        });
        let (rx, _unregister) = progress.map_or((None, None), |(rx, u)| (Some(rx), Some(u)));
        let result = relay_progress(handle.await_response(), rx, ctx).await;
        guard.id = None;
        match result? {
            ServerResult::CallToolResult(result) => Ok(result),
            _ => Err(ServiceError::UnexpectedResponse),
        }
    }
}

/// Sends `notifications/cancelled` for a request whose caller stopped waiting.
struct CancelOnDrop {
    peer: Peer<RoleClient>,
    id: Option<rmcp::model::RequestId>,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        runtime.spawn(async move {
            let reason = Some("the caller stopped waiting (timeout or cancellation)".to_owned());
            // A closed connection has nothing left to cancel.
            let _ = peer
                .notify_cancelled(CancelledNotificationParam::new(Some(id), reason))
                .await;
        });
    }
}

/// Removes a call's progress route when the call ends or is dropped.
struct Unregister {
    relay: Relay,
    token: ProgressToken,
}

impl Drop for Unregister {
    fn drop(&mut self) {
        self.relay
            .progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.token);
    }
}

/// Awaits `call`, passing progress from the server to the tool's context meanwhile.
async fn relay_progress<F, T>(
    call: F,
    progress: Option<mpsc::UnboundedReceiver<Progress>>,
    ctx: &ToolContext,
) -> T
where
    F: std::future::Future<Output = T>,
{
    let Some(mut progress) = progress else {
        return call.await;
    };
    let mut call = std::pin::pin!(call);
    loop {
        tokio::select! {
            result = &mut call => return result,
            Some((fraction, message)) = progress.recv() => ctx.progress(fraction, message).await,
        }
    }
}

/// A listed MCP tool as a spec, and whether its results are `{"result": …}`-wrapped.
fn spec_of(tool: &Tool) -> (ToolSpec, bool) {
    let description = tool.description.as_deref().unwrap_or_default();
    let mut spec = ToolSpec::new(
        tool.name.to_string(),
        description,
        Value::Object((*tool.input_schema).clone()),
    );
    let mut unwrap = false;
    if let Some(schema) = &tool.output_schema {
        let schema = Value::Object((**schema).clone());
        unwrap = is_wrapper(&schema);
        spec.output_schema = Some(if unwrap {
            let mut inner = schema["properties"][RESULT_KEY].clone();
            if let (Some(defs), Value::Object(map)) = (schema.get("$defs"), &mut inner) {
                map.insert("$defs".into(), defs.clone());
            }
            inner
        } else {
            schema
        });
    }
    let mut annotations = ToolAnnotations {
        title: tool.title.clone(),
        ..ToolAnnotations::default()
    };
    if let Some(a) = &tool.annotations {
        annotations.title = annotations.title.or_else(|| a.title.clone());
        annotations.read_only = a.read_only_hint;
        annotations.destructive = a.destructive_hint;
        annotations.idempotent = a.idempotent_hint;
        annotations.open_world = a.open_world_hint;
    }
    spec.annotations = annotations;
    (spec, unwrap)
}

/// `{"type":"object","properties":{"result":…},"required":["result"]}` and nothing else.
fn is_wrapper(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    is_object_schema(schema)
        && map
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.len() == 1 && p.contains_key(RESULT_KEY))
        && map.get("required") == Some(&Value::Array(vec![RESULT_KEY.into()]))
        && map.keys().all(|k| {
            matches!(
                k.as_str(),
                "type" | "properties" | "required" | "$defs" | "title" | "description"
            )
        })
}

fn texts(result: &CallToolResult) -> Vec<&str> {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect()
}

/// A `tools/call` result as an output or a failure.
fn from_result(
    tool: &str,
    result: CallToolResult,
    unwrap: bool,
) -> Result<ToolExecution, ToolFailure> {
    if result.is_error == Some(true) {
        let text = texts(&result).join("\n");
        let text = if text.is_empty() {
            format!("tool `{tool}` returned isError with no text content")
        } else {
            text
        };
        return Err(relayed_failure(text, result.structured_content.as_ref()));
    }
    let output = match result.structured_content {
        Some(Value::Object(mut map))
            if unwrap && map.len() == 1 && map.contains_key(RESULT_KEY) =>
        {
            map.remove(RESULT_KEY).unwrap_or_default()
        }
        Some(structured) => structured,
        None => {
            let texts = texts(&result);
            if texts.is_empty() {
                Value::Null
            } else {
                Value::String(texts.join("\n"))
            }
        }
    };
    Ok(ToolExecution::output_only(output))
}

/// An `isError` result as an ordinary failure. When the server is one of ours its
/// `structuredContent` carries the code and classification, which are kept; a relayed
/// failure is never unhandled (car#3104).
fn relayed_failure(text: String, structured: Option<&Value>) -> ToolFailure {
    let mut failure = ToolFailure::ordinary(text).with_code("mcp_tool_error");
    let Some(structured) = structured else {
        return failure;
    };
    if let Some(code) = structured.get("code").and_then(Value::as_str) {
        failure = failure.with_code(code.to_owned());
    }
    if structured.get("classification").and_then(Value::as_str) == Some("terminal") {
        failure = failure.with_classification(Classification::Terminal);
    }
    let kind = match structured.get("kind").and_then(Value::as_str) {
        Some("invalid_arguments") => FailureKind::InvalidArguments,
        Some("timeout") => FailureKind::Timeout,
        Some("cancelled") => FailureKind::Cancelled,
        Some("internal") => FailureKind::Internal,
        _ => FailureKind::Tool,
    };
    failure = failure.with_kind(kind);
    if let Some(ms) = structured.get("retry_after_ms").and_then(Value::as_u64) {
        failure = failure.with_retry_after(Duration::from_millis(ms));
    }
    if let Some(data) = structured.get("data") {
        failure = failure.with_data(data.clone());
    }
    failure
}

/// A protocol or transport error as a failure.
fn from_service_error(tool: &str, server: &str, error: ServiceError) -> ToolFailure {
    match error {
        ServiceError::McpError(e) if e.code == ErrorCode::INVALID_PARAMS => {
            ToolFailure::invalid_arguments(format!("tool `{tool}`: {}", e.message))
        }
        ServiceError::McpError(e) => {
            ToolFailure::ordinary(format!("MCP error from `{server}`: {}", e.message))
                .with_kind(FailureKind::Internal)
                .with_code(format!("mcp_error_{}", e.code.0))
        }
        ServiceError::Timeout { timeout } => ToolFailure::timeout(tool, timeout),
        ServiceError::Cancelled { .. } => ToolFailure::cancelled(tool),
        ServiceError::TransportSend(error) => {
            // rmcp prefixes the transport's type name; the reason follows "] error: ".
            let text = error.to_string();
            let reason = text
                .split_once("] error: ")
                .map_or(text.as_str(), |(_, r)| r);
            ToolFailure::ordinary(format!(
                "could not send `{tool}` to MCP server `{server}`: {reason}"
            ))
            .with_kind(FailureKind::Internal)
            .with_code("mcp_transport")
        }
        ServiceError::TransportClosed => ToolFailure::ordinary(format!(
            "MCP server `{server}` closed the connection during `{tool}`"
        ))
        .with_kind(FailureKind::Internal)
        .with_code("mcp_transport"),
        other => ToolFailure::ordinary(format!("MCP server `{server}`: {other}"))
            .with_kind(FailureKind::Internal)
            .with_code("mcp_protocol"),
    }
}

impl ToolExecutor for McpToolExecutor {
    crate::__funnel_seed_methods!();

    fn execute_with_context<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        if let Some(fallback) = &self.fallback
            && !self.serves(tool)
        {
            return fallback.execute_with_context(tool, params, ctx);
        }
        Box::pin(async move {
            let backstop = Some(self.shared.config.request_timeout);
            crate::__private::drive(
                tool,
                &ctx,
                backstop,
                Box::pin(self.call(tool, params, &ctx)),
            )
            .await
        })
    }

    fn execute_stream<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
    ) -> BoxFuture<'a, Result<mpsc::Receiver<crate::ToolStreamChunk>, String>> {
        Box::pin(std::future::ready(crate::spawn_stream(
            self.clone(),
            tool,
            params,
            action_id,
        )))
    }

    fn specs(&self) -> SpecList {
        Arc::clone(
            &self
                .shared
                .catalog
                .read()
                .unwrap_or_else(PoisonError::into_inner)
                .specs,
        )
    }
}
