//! Bounds on streamable HTTP sessions: how many may be live, how long an idle one is kept,
//! and which browser origins may talk to the server.
//!
//! rmcp's session manager keeps every session until it idles out and has no cap; a client
//! that opens sessions and walks away grows the server. Here a new session (a POST without
//! `Mcp-Session-Id`) beyond the cap is answered with 503 and a JSON-RPC error naming the cap,
//! and idle sessions close after the idle timeout.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Bytes;
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};

use super::server::McpServer;

#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
impl McpServer {
    /// Caps the live streamable HTTP sessions (default [`DEFAULT_MAX_SESSIONS`](super::DEFAULT_MAX_SESSIONS)). A new
    /// session beyond the cap is refused with HTTP 503 and a JSON-RPC error naming the cap;
    /// sessions in use are never closed to make room.
    #[must_use]
    pub fn with_max_sessions(self, max: usize) -> Self {
        self.edit(|i| i.http_limits.max_sessions = max.max(1))
    }

    /// Closes an HTTP session nobody has used for `timeout` (default
    /// [`DEFAULT_SESSION_IDLE_TIMEOUT`](super::DEFAULT_SESSION_IDLE_TIMEOUT)), freeing what it held and its place under the cap.
    #[must_use]
    pub fn with_session_idle_timeout(self, timeout: Duration) -> Self {
        self.edit(|i| i.http_limits.idle_timeout = timeout)
    }

    /// The browser `Origin`s streamable HTTP accepts (default: loopback pages on any port).
    /// A request with another `Origin` gets 403, as the MCP spec requires; requests without
    /// one (non-browser clients) pass. Entries are `scheme://host:port`, `:*` for any port.
    #[must_use]
    pub fn with_allowed_origins<I, S>(self, origins: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let origins = origins.into_iter().map(Into::into).collect();
        self.edit(|i| i.http_limits.allowed_origins = origins)
    }

    /// rmcp's session manager with this server's idle timeout.
    pub(crate) fn session_manager(&self) -> Arc<LocalSessionManager> {
        let mut config = SessionConfig::default();
        config.keep_alive = Some(self.inner.http_limits.idle_timeout);
        let mut manager = LocalSessionManager::default();
        manager.session_config = config;
        Arc::new(manager)
    }
}

type Body = BoxBody<Bytes, std::convert::Infallible>;

/// Refuses new sessions beyond the cap, in front of rmcp's service.
#[derive(Clone)]
pub(crate) struct SessionGate<S> {
    inner: S,
    sessions: Arc<LocalSessionManager>,
    max: usize,
    /// New-session requests being answered: counted until rmcp has registered theirs.
    opening: Arc<AtomicUsize>,
}

impl<S> SessionGate<S> {
    pub(crate) fn new(inner: S, sessions: Arc<LocalSessionManager>, max: usize) -> Self {
        Self {
            inner,
            sessions,
            max,
            opening: Arc::new(AtomicUsize::new(0)),
        }
    }
}

/// Counts a new-session request until it is answered.
struct Opening(Arc<AtomicUsize>);

impl Drop for Opening {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl<S, B> hyper::service::Service<Request<B>> for SessionGate<S>
where
    S: hyper::service::Service<Request<B>, Response = Response<Body>> + Clone + Send + 'static,
    S::Future: Send,
    B: Send + 'static,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = crate::tool::BoxFuture<'static, Result<Response<Body>, S::Error>>;

    fn call(&self, request: Request<B>) -> Self::Future {
        let opens = request.method() == http::Method::POST
            && !request.headers().contains_key("mcp-session-id");
        let inner = self.inner.clone();
        if !opens {
            return Box::pin(async move { inner.call(request).await });
        }
        // Counted first, so two requests racing for the last place cannot both take it.
        let ahead = self.opening.fetch_add(1, Ordering::AcqRel);
        let opening = Opening(Arc::clone(&self.opening));
        let (sessions, max) = (Arc::clone(&self.sessions), self.max);
        Box::pin(async move {
            let _opening = opening;
            let live = sessions.sessions.read().await.len();
            if live + ahead >= max {
                return Ok(too_many(max));
            }
            inner.call(request).await
        })
    }
}

/// 503 with a JSON-RPC error that names the cap.
fn too_many(max: usize) -> Response<Body> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {
            "code": -32000,
            "message": format!(
                "too many MCP sessions: this server allows {max} at a time; \
                 close one (DELETE with its Mcp-Session-Id) or retry later"
            ),
        },
    });
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    response.headers_mut().insert(
        http::header::RETRY_AFTER,
        http::HeaderValue::from_static("1"),
    );
    response
}
