//! `McpToolExecutor`: an MCP server's tools as a [`ToolExecutor`].

mod config;
#[cfg(feature = "mcp-http")]
mod http;
mod lifecycle;
mod outcome;
mod transport;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use rmcp::ClientHandler;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotificationParam,
    ClientCapabilities, ClientConfig, ClientRequest, Implementation, ProgressNotificationParam,
    ProgressToken, ProtocolVersion, RequestId, ServerResult, Tool,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient, ServiceError};
use serde_json::Value;
use tokio::sync::mpsc;

pub use config::{DEFAULT_HANDSHAKE_TIMEOUT, McpClientError, McpServerConfig};
use lifecycle::Connection;
pub use lifecycle::McpProtocol;
use outcome::{from_result, from_service_error, spec_of};

use crate::failure::ToolFailure;
use crate::tool::SpecList;
use crate::tool::call::drive;
use crate::tool::route::unserved;
use crate::tool::{BoxFuture, ContextExecutor, ToolContext, ToolExecution, ToolExecutor, ToolSpec};
use crate::transport::cancel::CancelOnDrop;

/// One progress report: the fraction done and a message.
type Progress = (f64, Option<String>);

/// How many progress reports for calls not (yet) registered are kept.
const UNCLAIMED_PROGRESS: usize = 256;

/// Routes the server's progress notifications to the calls that asked for them.
#[derive(Clone, Default)]
struct Relay {
    routes: Arc<Mutex<Routes>>,
}

#[derive(Default)]
struct Routes {
    calls: HashMap<ProgressToken, mpsc::UnboundedSender<Progress>>,
    /// Progress that arrived before its call registered (the request is on the wire before
    /// rmcp tells us its token), oldest first and bounded.
    unclaimed: std::collections::VecDeque<(ProgressToken, Progress)>,
}

impl ClientHandler for Relay {
    fn get_info(&self) -> ClientConfig {
        // The version `initialize` asks for; 2026-07-28 is negotiated by `server/discover`.
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("tool-executor", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }
}

impl Relay {
    fn route(&self, params: &ProgressNotificationParam) {
        let fraction = match params.total {
            Some(total) if total > 0.0 => params.progress / total,
            _ => params.progress,
        };
        let progress = (fraction, params.message.clone());
        let mut routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tx) = routes.calls.get(&params.progress_token) {
            let _ = tx.send(progress);
        } else {
            if routes.unclaimed.len() == UNCLAIMED_PROGRESS {
                routes.unclaimed.pop_front();
            }
            routes
                .unclaimed
                .push_back((params.progress_token.clone(), progress));
        }
    }

    /// Routes `token`'s progress to a new channel, starting with what already arrived.
    fn register(&self, token: ProgressToken) -> mpsc::UnboundedReceiver<Progress> {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        routes.unclaimed.retain(|(t, progress)| {
            let mine = *t == token;
            if mine {
                let _ = tx.send(progress.clone());
            }
            !mine
        });
        routes.calls.insert(token, tx);
        rx
    }

    fn unregister(&self, token: &ProgressToken) {
        let mut routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        routes.calls.remove(token);
        routes.unclaimed.retain(|(t, _)| t != token);
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
    /// The protocol version of the connection the tools were listed on.
    protocol_version: String,
}

struct Shared {
    config: McpServerConfig,
    relay: Relay,
    connection: tokio::sync::Mutex<Option<Connection>>,
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
    /// Starts or connects to the server, runs the config's [`McpProtocol`] lifecycle (by
    /// default 2026-07-28 through `server/discover` when the server offers it, else the
    /// 2025-11-25 `initialize` handshake) and lists its tools.
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
        let catalog = self.catalog_of(tools, connection.protocol_version());
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
        Ok((connection, tools.map_err(|e| self.error(e))?))
    }

    fn catalog_of(&self, tools: Vec<Tool>, protocol_version: String) -> Catalog {
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
            protocol_version,
        }
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

/// Removes a call's progress route when the call ends or is dropped.
struct Unregister {
    relay: Relay,
    token: ProgressToken,
}

impl Drop for Unregister {
    fn drop(&mut self) {
        self.relay.unregister(&self.token);
    }
}

/// Awaits `call`, passing progress from the server to the tool's context meanwhile.
async fn relay_progress<F, T>(
    call: F,
    mut progress: mpsc::UnboundedReceiver<Progress>,
    ctx: &ToolContext,
) -> T
where
    F: std::future::Future<Output = T>,
{
    let mut call = std::pin::pin!(call);
    loop {
        tokio::select! {
            result = &mut call => {
                // Progress read before the response is already queued: pass it on too.
                while let Ok((fraction, message)) = progress.try_recv() {
                    ctx.progress(fraction, message).await;
                }
                return result;
            }
            Some((fraction, message)) = progress.recv() => ctx.progress(fraction, message).await,
        }
    }
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

#[cfg(test)]
mod tests {
    use rmcp::model::NumberOrString;

    use super::*;

    fn report(token: &ProgressToken, progress: f64) -> ProgressNotificationParam {
        let mut param = ProgressNotificationParam::new(token.clone(), progress);
        param.total = Some(4.0);
        param
    }

    #[test]
    fn progress_that_beats_registration_is_delivered_in_order() {
        let relay = Relay::default();
        let token = ProgressToken(NumberOrString::Number(7));
        let other = ProgressToken(NumberOrString::Number(8));
        relay.route(&report(&token, 1.0));
        relay.route(&report(&other, 1.0));
        relay.route(&report(&token, 2.0));
        let mut rx = relay.register(token.clone());
        relay.route(&report(&token, 3.0));
        let got: Vec<f64> = std::iter::from_fn(|| rx.try_recv().ok().map(|p| p.0)).collect();
        assert_eq!(got, [0.25, 0.5, 0.75]);
        relay.unregister(&token);
        relay.unregister(&other);
        let routes = relay.routes.lock().unwrap();
        assert!(routes.calls.is_empty() && routes.unclaimed.is_empty());
    }

    #[test]
    fn unclaimed_progress_is_bounded() {
        let relay = Relay::default();
        for i in 0..1000 {
            relay.route(&report(&ProgressToken(NumberOrString::Number(i)), 1.0));
        }
        assert_eq!(
            relay.routes.lock().unwrap().unclaimed.len(),
            UNCLAIMED_PROGRESS
        );
    }
}
