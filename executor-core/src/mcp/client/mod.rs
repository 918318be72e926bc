//! `McpToolExecutor`: an MCP server's tools as a [`ToolExecutor`].

#[cfg(all(feature = "mcp-http", feature = "oauth"))]
mod authorized;
mod catalog;
mod config;
mod elicitation;
#[cfg(feature = "mcp-http")]
mod http;
mod lifecycle;
mod outcome;
mod progress;
mod task;
mod transport;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotificationParam,
    ClientRequest, MetaObject, RequestId, RequestMetaObject, ServerResult, Tool,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient, ServiceError};
use serde_json::Value;
use tokio::sync::mpsc;

use catalog::Catalog;
pub use config::{DEFAULT_HANDSHAKE_TIMEOUT, McpClientError, McpProtocol, McpServerConfig};
use lifecycle::Connection;
use outcome::{from_result, from_service_error};
use progress::{Relay, Unregister, relay_progress};

use crate::failure::ToolFailure;
use crate::mcp::convert::caller_meta;
use crate::tool::SpecList;
use crate::tool::call::drive;
use crate::tool::route::unserved;
use crate::tool::{BoxFuture, ContextExecutor, ToolContext, ToolExecution, ToolExecutor};
use crate::transport::cancel::CancelOnDrop;

struct Shared {
    config: McpServerConfig,
    relay: Relay,
    connection: tokio::sync::Mutex<Option<Connection>>,
    catalog: RwLock<Arc<Catalog>>,
}

/// An MCP server's tools as a [`ToolExecutor`] (stdio command or streamable HTTP URL).
///
/// - [`specs`](ToolExecutor::specs) lists the server's tools as
///   [`ToolSpec`](crate::tool::ToolSpec)s (names `mcp_{server}_{tool}` with
///   [`McpServerConfig::prefixed`]).
/// - A call's budget (`timeout_ms`, the context's deadline) bounds the wait; without one the
///   config's request timeout does. A call that times out or is dropped sends
///   `notifications/cancelled`.
/// - `isError` results are ordinary failures carrying the text (terminal when the server is
///   one of ours and said so); protocol errors map to failure kinds; a server that died is
///   restarted (and relisted) on the next call.
/// - Progress notifications become the call's [`ToolContext::progress`].
/// - Specs keep every hint as the server lists it (`idempotentHint: false` too), and, from one
///   of our servers, its failure codes and time limit (tool `_meta`
///   [`FAILURE_CODES_META`](crate::mcp::FAILURE_CODES_META),
///   [`TIMEOUT_META`](crate::mcp::TIMEOUT_META)); each call sends the context's attempt and
///   idempotency key in its request `_meta` ([`ATTEMPT_META`](crate::mcp::ATTEMPT_META),
///   [`IDEMPOTENCY_KEY_META`](crate::mcp::IDEMPOTENCY_KEY_META)), so a
///   [`Runtime`](crate::runtime::Runtime) in front of this executor retries the server's tools
///   as it would the tools themselves.
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
    /// Starts or connects to the server, runs the config's [`McpProtocol`] lifecycle (by
    /// default 2026-07-28 through `server/discover` when the server offers it, else the
    /// 2025-11-25 `initialize` handshake) and lists its tools.
    ///
    /// # Errors
    /// When the command cannot start, the handshake fails or `tools/list` fails.
    pub async fn connect(config: McpServerConfig) -> Result<Self, McpClientError> {
        let relay = Relay::answering(config.elicitor.clone());
        let shared = Arc::new(Shared {
            config,
            relay,
            connection: tokio::sync::Mutex::new(None),
            catalog: RwLock::new(Arc::new(Catalog {
                specs: Arc::from(Vec::new()),
                routes: HashMap::new(),
                protocol_version: String::new(),
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

    /// The MCP protocol version negotiated with the server, such as `"2026-07-28"` (after
    /// `server/discover`) or `"2025-11-25"` (after `initialize`); the latest connection's,
    /// when a server that died was connected again.
    #[must_use]
    pub fn protocol_version(&self) -> String {
        self.shared
            .catalog
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .protocol_version
            .clone()
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

    /// Starts the server (again), initializes and relists its tools, within the config's
    /// handshake timeout. On any failure the server's process group is killed.
    async fn reconnect(
        &self,
        slot: &mut Option<Connection>,
    ) -> Result<Peer<RoleClient>, McpClientError> {
        // Dropping the old one kills a stdio server's group and cancels the service loop.
        drop(slot.take());
        let limit = self.shared.config.handshake_timeout;
        let (connection, tools) = tokio::time::timeout(limit, self.handshake())
            .await
            .map_err(|_| {
                self.error(format_args!(
                    "no answer to the handshake and `tools/list` within {} ms (the handshake timeout)",
                    limit.as_millis()
                ))
            })??;
        let peer = connection.service.peer().clone();
        let catalog = Catalog::of(&self.shared.config, tools, connection.protocol_version());
        *self
            .shared
            .catalog
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Arc::new(catalog);
        *slot = Some(connection);
        Ok(peer)
    }

    /// Starts or reaches the server, runs the lifecycle and lists its tools.
    async fn handshake(&self) -> Result<(Connection, Vec<Tool>), McpClientError> {
        let config = &self.shared.config;
        let connection = lifecycle::open(&config.endpoint, &self.shared.relay, config.protocol)
            .await
            .map_err(|e| self.error(e))?;
        let tools = connection.service.peer().list_all_tools().await;
        let tools = tools.map_err(|e| self.error(outcome::describe(&e)))?;
        Ok((connection, tools))
    }

    /// A live connection, restarting a server that died.
    async fn peer(&self) -> Result<Peer<RoleClient>, ToolFailure> {
        let mut slot = self.shared.connection.lock().await;
        if let Some(connection) = slot.as_ref()
            && !connection.service.peer().is_transport_closed()
        {
            return Ok(connection.service.peer().clone());
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
            .is_some_and(|c| c.service.peer().is_transport_closed())
        {
            slot.take();
        }
    }

    async fn call_remote(
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
                let got = crate::tool::call::args::describe(other);
                return Err(ToolFailure::invalid_arguments(format!(
                    "arguments: expected an object, got {got}"
                )));
            }
        };
        let peer = self.peer().await?;
        let mut request = CallToolRequestParams::new(route.remote.clone());
        request.arguments = arguments;
        // rmcp merges these with the `_meta` it adds itself (the progress token).
        let mut meta = caller_meta(ctx.attempt(), ctx.idempotency_key());
        #[cfg(feature = "tracing")]
        let span = {
            use crate::tool::span::{CallSpan, Kind, mcp};
            let parent = ctx.extension::<CallSpan>().map(|call| &call.0);
            let span = mcp(
                Kind::Client,
                "tools/call",
                Some(&route.remote),
                parent,
                None,
            );
            span.record("mcp.protocol.version", self.protocol_version());
            span
        };
        // The trace goes on as this hop's context (SEP-414): with `otel`, this span's.
        #[cfg(feature = "otel")]
        let child = crate::tool::TraceContext::from_span(
            &span,
            ctx.extension::<crate::tool::TraceContext>(),
        )
        .or_else(|| crate::tool::TraceContext::outgoing(ctx));
        #[cfg(not(feature = "otel"))]
        let child = crate::tool::TraceContext::outgoing(ctx);
        crate::mcp::context::propagate(child, meta.get_or_insert_with(Default::default));
        request.meta = meta.map(|meta| RequestMetaObject(MetaObject(meta)));
        let sent = self.send_call(&peer, request, ctx);
        #[cfg(feature = "tracing")]
        let sent = tracing::Instrument::instrument(sent, span.clone());
        let outcome = sent.await;
        #[cfg(feature = "tracing")]
        if let Err(error) = &outcome {
            let (kind, code) = match error {
                ServiceError::McpError(e) => (e.code.0.to_string(), Some(e.code.0)),
                ServiceError::Timeout { .. } => ("timeout".to_owned(), None),
                _ => ("transport".to_owned(), None),
            };
            crate::tool::span::failed(&span, &kind, code);
        }
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
        let mut guard = CancelOnDrop::armed(notify_cancelled(peer.clone(), handle.id.clone()));
        // Every call is registered, streamed or not, so its progress never lingers unclaimed.
        let token = handle.progress_token.clone();
        let rx = self.shared.relay.register(token.clone());
        let _unregister = Unregister {
            relay: self.shared.relay.clone(),
            token,
        };
        let result = relay_progress(handle.await_response(), rx, ctx).await;
        guard.disarm();
        match result? {
            ServerResult::CallToolResult(result) => Ok(result),
            // The server runs the call as a task (`task.rs`).
            ServerResult::CreateTaskResult(created) => {
                let elicitor = self.shared.config.elicitor.as_ref();
                task::follow(peer, created, ctx, elicitor).await
            }
            _ => Err(ServiceError::UnexpectedResponse),
        }
    }
}

/// Sends `notifications/cancelled` for a request whose caller stopped waiting.
async fn notify_cancelled(peer: Peer<RoleClient>, id: RequestId) {
    let reason = Some("the caller stopped waiting (timeout or cancellation)".to_owned());
    // A closed connection has nothing left to cancel.
    let _ = peer
        .notify_cancelled(CancelledNotificationParam::new(Some(id), reason))
        .await;
}

impl ContextExecutor for McpToolExecutor {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        if self.fallback.is_some() && !self.serves(tool) {
            return unserved(self.fallback.as_ref(), tool, params, ctx);
        }
        Box::pin(async move {
            let backstop = Some(self.shared.config.request_timeout);
            drive(
                tool,
                &ctx,
                backstop,
                Box::pin(self.call_remote(tool, params, &ctx)),
            )
            .await
        })
    }

    fn stream<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
    ) -> BoxFuture<'a, Result<mpsc::Receiver<crate::tool::ToolStreamChunk>, String>> {
        crate::tool::stream_task::stream_clone(self, tool, params, action_id)
    }

    fn list_specs(&self) -> SpecList {
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
