//! `serve`: an agent on an address, over the server crate's JSON-RPC and HTTP+JSON dispatchers,
//! with its card at `/.well-known/agent-card.json`.

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use a2a_protocol_server::dispatch::{CombinedDispatcher, DispatchConfig};
use a2a_protocol_server::serve::{ServeReport, Server};
use a2a_protocol_server::{CancellationToken, RequestHandler, ServerError, ShutdownReport};
use tokio::task::JoinHandle;

use super::limit::BodyLimit;

/// Why an agent could not be served.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// The address could not be bound.
    Bind(std::io::Error),
    /// The server refused the agent: most often a card A2A 1.0 does not allow (no skills, a
    /// skill without tags, an empty description).
    Handler(ServerError),
    /// The task stores could not be opened (features `a2a-postgres`, `a2a-sqlite`).
    Store(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Bind(e) => write!(f, "could not bind the agent's address: {e}"),
            Self::Handler(e) => write!(f, "the A2A server refused the agent: {e}"),
            Self::Store(e) => write!(f, "the agent's stores could not be opened: {e}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Bind(e) => Some(e),
            Self::Handler(e) => Some(e),
            Self::Store(e) => Some(&**e),
        }
    }
}

/// How a server stopped.
#[derive(Debug)]
#[non_exhaustive]
pub struct StopReport {
    /// Connections and tasks at the listener.
    pub serve: ServeReport,
    /// The handler's shutdown, which ran the agent's `on_shutdown`.
    pub shutdown: ShutdownReport,
}

/// An agent bound to an address, not yet serving. Binding first lets a caller learn the port
/// when binding port 0.
pub struct AgentServer {
    server: Server,
    handler: Arc<RequestHandler>,
    local_addr: SocketAddr,
    url: String,
    max_request_bytes: usize,
    max_pending_output: usize,
    watch: WatchGuard,
    /// Serves the RFC 9728 metadata (an agent with `with_oauth`).
    #[cfg(feature = "oauth")]
    oauth: Option<crate::auth::ResourceServer>,
}

impl fmt::Debug for AgentServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentServer")
            .field("local_addr", &self.local_addr)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl AgentServer {
    pub(super) fn from_parts(
        server: Server,
        handler: RequestHandler,
        local_addr: SocketAddr,
        url: String,
        max_request_bytes: usize,
        watch: WatchGuard,
    ) -> Self {
        Self {
            server,
            handler: Arc::new(handler),
            local_addr,
            url,
            max_request_bytes,
            max_pending_output: super::limit::DEFAULT_MAX_A2A_PENDING_OUTPUT,
            watch,
            #[cfg(feature = "oauth")]
            oauth: None,
        }
    }

    /// Serves `oauth`'s protected-resource metadata beside the card.
    #[cfg(feature = "oauth")]
    pub(super) fn with_oauth_metadata(mut self, oauth: crate::auth::ResourceServer) -> Self {
        self.oauth = Some(oauth);
        self
    }

    /// Bounds one request body (default
    /// [`DEFAULT_MAX_A2A_REQUEST_BYTES`](super::DEFAULT_MAX_A2A_REQUEST_BYTES), 4 MiB). A
    /// larger body, with a `Content-Length` or chunked, gets HTTP 413 with a JSON-RPC -32600
    /// error naming the limit. The body is read to its end and dropped first (up to 1 GiB and
    /// 10 s; past that the 413 says `Connection: close`), so the client reads the answer and
    /// the connection carries its next request.
    #[must_use]
    pub fn with_max_request_bytes(mut self, bytes: usize) -> Self {
        self.max_request_bytes = bytes.max(1024);
        self
    }

    /// Bounds the bytes of a streamed answer (SSE: `SendStreamingMessage`,
    /// `SubscribeToTask`) waiting for a client that does not read (default
    /// [`DEFAULT_MAX_A2A_PENDING_OUTPUT`](super::DEFAULT_MAX_A2A_PENDING_OUTPUT), 8 MiB).
    /// Past it the stream ends, after what was queued and an SSE comment saying why; the
    /// task goes on, and the client can resubscribe and catch up from the task store.
    #[must_use]
    pub fn with_max_pending_output(mut self, bytes: usize) -> Self {
        self.max_pending_output = bytes.max(1024);
        self
    }

    /// The bound address.
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The URL the card publishes.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The server crate's request handler, for calls in process.
    #[must_use]
    pub fn handler(&self) -> &Arc<RequestHandler> {
        &self.handler
    }

    /// Serves until the process ends.
    pub async fn run(self) {
        self.run_until(std::future::pending()).await;
    }

    /// Serves until `shutdown` resolves, then lets running tasks finish (cancelling those that
    /// do not), drains connections and runs the agent's `on_shutdown`.
    pub async fn run_until(self, shutdown: impl Future<Output = ()> + Send) -> StopReport {
        let max = self.max_request_bytes;
        let config = DispatchConfig::default().with_max_request_body_size(max);
        let dispatcher = BodyLimit {
            inner: CombinedDispatcher::with_config(Arc::clone(&self.handler), config),
            max,
            max_pending_output: self.max_pending_output,
            #[cfg(feature = "oauth")]
            oauth: self.oauth.clone(),
        };
        let serve = self.server.serve_with_shutdown(dispatcher, shutdown).await;
        let shutdown = self.handler.shutdown().await;
        drop(self.watch);
        StopReport { serve, shutdown }
    }

    /// Serves on a task of its own; the server stops when the handle is shut down or dropped.
    #[must_use]
    pub fn spawn(self) -> RunningAgent {
        let stop = CancellationToken::new();
        let local_addr = self.local_addr;
        let url = self.url.clone();
        let stopped = stop.clone();
        let join = tokio::spawn(async move { self.run_until(stopped.cancelled_owned()).await });
        RunningAgent {
            local_addr,
            url,
            stop,
            join: Some(join),
        }
    }
}

/// An agent serving on a task of its own. Dropping it stops the server.
pub struct RunningAgent {
    local_addr: SocketAddr,
    url: String,
    stop: CancellationToken,
    join: Option<JoinHandle<StopReport>>,
}

impl fmt::Debug for RunningAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunningAgent")
            .field("local_addr", &self.local_addr)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl RunningAgent {
    /// The bound address.
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The URL the card publishes.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Stops accepting, ends the work in flight and waits for the server to finish.
    ///
    /// Returns `None` if the serving task panicked.
    pub async fn shutdown(mut self) -> Option<StopReport> {
        self.stop.cancel();
        self.join.take()?.await.ok()
    }
}

impl Drop for RunningAgent {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

pub(super) fn local_url(server: &Server) -> Result<String, ServeError> {
    let mut addr = server.local_addr().map_err(ServeError::Bind)?;
    if addr.ip().is_unspecified() {
        let loopback = match addr {
            SocketAddr::V4(_) => std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
            SocketAddr::V6(_) => std::net::IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
        };
        addr.set_ip(loopback);
    }
    Ok(format!("http://{addr}"))
}

/// Stops the replica watchdog's loop (feature `a2a-postgres`) when dropped; empty otherwise.
#[derive(Debug, Default)]
pub(super) struct WatchGuard(pub(super) Option<tokio::task::JoinHandle<()>>);

impl Drop for WatchGuard {
    fn drop(&mut self) {
        if let Some(join) = self.0.take() {
            join.abort();
        }
    }
}
