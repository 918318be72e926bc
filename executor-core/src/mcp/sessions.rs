//! The gate in front of rmcp's streamable HTTP service: request bodies, requests in flight,
//! sessions, each with a limit of its own that says what it limits.
//!
//! - Every body is read here, bounded by `with_max_request_bytes`: a longer one gets 413 with
//!   a plain-text message naming the limit (there is no id to answer a JSON-RPC error with),
//!   after it is read and dropped (limits.rs), so the client reads the answer and the
//!   connection carries its next request. (rmcp answered 413 without reading the rest, and
//!   from about 16 MiB the client met a reset.)
//! - A 503 is a JSON-RPC error answering the refused request's id (read from the body's first
//!   bytes): a client matches an error without an id to no request, and waits.
//! - Every POST takes a place among the requests in flight (`with_max_in_flight`) until its
//!   response ends; beyond the cap, 503 naming it.
//! - Only an `initialize` without `Mcp-Session-Id` opens a session, so only it counts against
//!   `with_max_sessions` (rmcp's session manager has no cap of its own, and a client that opens
//!   sessions and walks away would grow the server); a 2026-07-28 request, a request in a
//!   session, and every request of a stateless server never wait for a session place.
//! - A `tasks/get`, `tasks/update` or `tasks/cancel` without `Mcp-Name` gets it from the
//!   body's `taskId` (tasks.rs says why).
//! - `Retry-After` says how long the wait is: until the least recently used session idles
//!   out, or how long a request has lately held its place.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::{Bytes, Frame, SizeHint};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};

use super::limits::{InFlight, Permit, TooLarge, read_body};
use super::server::McpServer;
use super::stdio::line::find_id;

#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
impl McpServer {
    /// Caps the live streamable HTTP sessions (default
    /// [`DEFAULT_MAX_SESSIONS`](super::DEFAULT_MAX_SESSIONS), 256). Only an `initialize`
    /// without `Mcp-Session-Id` opens a session (clients before 2026-07-28 do); beyond the cap
    /// it is refused with HTTP 503, a JSON-RPC error naming the cap, and `Retry-After` set to
    /// the seconds until the least recently used session idles out. Sessions in use are never
    /// closed to make room, and requests that open no session (2026-07-28 clients, requests
    /// in a session, every request of a stateless server) never count against this cap.
    #[must_use]
    pub fn with_max_sessions(self, max: usize) -> Self {
        self.edit(|i| i.http_limits.max_sessions = max.max(1))
    }

    /// Caps the HTTP requests in flight: POSTs being read or answered, in sessions or not,
    /// each counted until its response has been sent or dropped (default
    /// [`DEFAULT_MAX_IN_FLIGHT`](super::DEFAULT_MAX_IN_FLIGHT), 1024). Beyond it a request
    /// gets HTTP 503 with a JSON-RPC error naming the cap and `Retry-After` set to how long a
    /// request has lately held its place (1 to 60 s). In stateless mode this is the only cap
    /// on concurrent work; each request in flight holds at most one body of
    /// [`with_max_request_bytes`](Self::with_max_request_bytes).
    #[must_use]
    pub fn with_max_in_flight(self, max: usize) -> Self {
        self.edit(|i| i.http_limits.max_in_flight = max.max(1))
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

/// The limits, in front of rmcp's service (see the module docs).
#[derive(Clone)]
pub(crate) struct Gate<S> {
    inner: S,
    sessions: Arc<LocalSessionManager>,
    /// `None` when serving statelessly: no request opens a session.
    max_sessions: Option<usize>,
    idle_timeout: Duration,
    max_body: usize,
    in_flight: Arc<InFlight>,
    /// New-session requests being answered: counted until rmcp has registered theirs.
    opening: Arc<AtomicUsize>,
    /// When each session was last used, for `Retry-After`; pruned to the live sessions.
    last_used: Arc<Mutex<HashMap<Arc<str>, Instant>>>,
    /// The bearer-token check (`McpServer::with_oauth`).
    #[cfg(feature = "oauth")]
    guard: Option<super::oauth::Guard>,
    /// The server runs tasks: 2025-11-25 task requests are renamed for rmcp, and the
    /// `initialize` answer declares them (`mcp/tasks_legacy.rs`).
    legacy_tasks: bool,
}

/// What the gate needs to know of the server.
pub(crate) struct GateLimits {
    pub(crate) max_sessions: Option<usize>,
    pub(crate) idle_timeout: Duration,
    pub(crate) max_in_flight: usize,
    pub(crate) max_body: usize,
    #[cfg(feature = "oauth")]
    pub(crate) guard: Option<super::oauth::Guard>,
    pub(crate) legacy_tasks: bool,
}

impl<S> Gate<S> {
    pub(crate) fn new(inner: S, sessions: Arc<LocalSessionManager>, limits: &GateLimits) -> Self {
        Self {
            inner,
            sessions,
            max_sessions: limits.max_sessions,
            idle_timeout: limits.idle_timeout,
            max_body: limits.max_body,
            in_flight: InFlight::new(limits.max_in_flight),
            opening: Arc::new(AtomicUsize::new(0)),
            last_used: Arc::new(Mutex::new(HashMap::new())),
            #[cfg(feature = "oauth")]
            guard: limits.guard.clone(),
            legacy_tasks: limits.legacy_tasks,
        }
    }

    fn touch(&self, session: &str) {
        let mut last_used = self
            .last_used
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match last_used.get_mut(session) {
            Some(at) => *at = Instant::now(),
            None => {
                last_used.insert(session.into(), Instant::now());
            }
        }
    }

    /// Seconds until the least recently used live session idles out (at least 1).
    async fn session_wait(&self) -> u64 {
        let live = self.sessions.sessions.read().await;
        let mut last_used = self
            .last_used
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        last_used.retain(|id, _| live.contains_key(id));
        let oldest = last_used.values().min().copied();
        drop(last_used);
        drop(live);
        let wait = oldest.map_or(self.idle_timeout, |at| {
            (at + self.idle_timeout).saturating_duration_since(Instant::now())
        });
        (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
    }
}

/// Counts a new-session request until it is answered.
struct Opening(Arc<AtomicUsize>);

impl Drop for Opening {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl<S, B> hyper::service::Service<Request<B>> for Gate<S>
where
    S: hyper::service::Service<Request<Full<Bytes>>, Response = Response<Body>>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send,
    S::Error: Send,
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Send,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = crate::tool::BoxFuture<'static, Result<Response<Body>, S::Error>>;

    fn call(&self, request: Request<B>) -> Self::Future {
        let gate = self.clone();
        Box::pin(async move { gate.admit(request).await })
    }
}

impl<S> Gate<S>
where
    S: hyper::service::Service<Request<Full<Bytes>>, Response = Response<Body>> + Clone,
{
    async fn admit<B>(&self, request: Request<B>) -> Result<Response<Body>, S::Error>
    where
        B: hyper::body::Body<Data = Bytes> + Unpin,
    {
        let (mut parts, body) = request.into_parts();
        let permit = if parts.method == http::Method::POST {
            let Some(permit) = self.in_flight.enter() else {
                // Read (and drop) the body all the same, so the connection stays usable.
                // Its first bytes give the id the error answers: a client cannot match an error
                // without one to its request, and waits.
                let id = read_body(body, 0)
                    .await
                    .err()
                    .and_then(|too_large| find_id(&too_large.prefix));
                return Ok(too_many_in_flight(&self.in_flight, &json_id(id)));
            };
            Some(permit)
        } else {
            None
        };
        let body = match read_body(body, self.max_body).await {
            Ok(body) => body,
            Err(too_large) => return Ok(too_large_response(&too_large, self.max_body)),
        };
        #[cfg(feature = "oauth")]
        if let Some(guard) = &self.guard
            && let Err(refused) = guard.admit(&mut parts, &body).await
        {
            return Ok(refused);
        }
        super::tasks::fill_route(&mut parts.headers, &body);
        let body = match self
            .legacy_tasks
            .then(|| super::tasks_legacy::rewrite(&body))
        {
            Some(Some(renamed)) => Bytes::from(renamed),
            _ => body,
        };
        let declares_tasks = self.legacy_tasks
            && parts.method == http::Method::POST
            && initialize_id(&body).is_some();
        let session = parts
            .headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if let Some(session) = &session {
            self.touch(session);
        }
        let opens = (self.max_sessions.is_some()
            && parts.method == http::Method::POST
            && session.is_none())
        .then(|| initialize_id(&body))
        .flatten();
        let request = Request::from_parts(parts, Full::new(body));
        let response = match opens {
            Some(id) => self.open_session(request, id).await?,
            None => self.inner.call(request).await?,
        };
        let response = if declares_tasks {
            // The answer grows: its length is the chunks' again.
            let (mut head, body) = response.into_parts();
            head.headers.remove(http::header::CONTENT_LENGTH);
            let body = body.map_frame(|frame| frame.map_data(super::tasks_legacy::advertise_in));
            Response::from_parts(head, body.boxed())
        } else {
            response
        };
        Ok(match permit {
            Some(permit) => response.map(|body| Held { body, permit }.boxed()),
            None => response,
        })
    }

    /// Serves an `initialize` that opens a session, if there is room for one.
    async fn open_session(
        &self,
        request: Request<Full<Bytes>>,
        id: serde_json::Value,
    ) -> Result<Response<Body>, S::Error> {
        let max = self.max_sessions.unwrap_or(usize::MAX);
        let ahead = self.opening.fetch_add(1, Ordering::AcqRel);
        let _opening = Opening(Arc::clone(&self.opening));
        let live = self.sessions.sessions.read().await.len();
        if live + ahead >= max {
            return Ok(too_many_sessions(max, self.session_wait().await, &id));
        }
        let response = self.inner.call(request).await?;
        if let Some(id) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            self.touch(id);
        }
        Ok(response)
    }
}

/// The id of a JSON-RPC `initialize` request (what opens a session), or `None` for any other
/// body. Only `method` and `id` are kept; everything else is skipped.
fn initialize_id(body: &[u8]) -> Option<serde_json::Value> {
    #[derive(serde::Deserialize)]
    struct Probe {
        method: Option<Box<str>>,
        #[serde(default)]
        id: serde_json::Value,
    }
    let probe = serde_json::from_slice::<Probe>(body).ok()?;
    (probe.method.as_deref() == Some("initialize")).then_some(probe.id)
}

/// A request id as JSON (`null` when it was not found).
fn json_id(id: Option<rmcp::model::RequestId>) -> serde_json::Value {
    id.and_then(|id| serde_json::to_value(id).ok())
        .unwrap_or_default()
}

/// A response body that holds its request's place in flight until it ends or is dropped.
struct Held {
    body: Body,
    permit: Permit,
}

impl hyper::body::Body for Held {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let _ = &self.permit;
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// 503 for a new session beyond the cap, naming it.
fn too_many_sessions(max: usize, wait: u64, id: &serde_json::Value) -> Response<Body> {
    let message = format!(
        "too many MCP sessions: this server allows {max} at a time; \
         close one (DELETE with its Mcp-Session-Id) or retry later"
    );
    busy(&message, wait, id)
}

/// 503 for a request beyond the in-flight cap, naming it.
fn too_many_in_flight(in_flight: &InFlight, id: &serde_json::Value) -> Response<Body> {
    let message = format!(
        "too many requests: this server answers at most {} requests in flight at a time \
         (McpServer::with_max_in_flight); retry later",
        in_flight.max()
    );
    busy(&message, in_flight.retry_after(), id)
}

/// 413 naming the body limit, as plain text: the body was not parsed, so there is no id for
/// a JSON-RPC error (a client forwards a JSON error body as a message, and one without an id
/// is never matched to its request: rmcp's client waited for an answer until its timeout).
fn too_large_response(too_large: &TooLarge, max: usize) -> Response<Body> {
    let size = too_large
        .length
        .map_or_else(String::new, |n| format!(" of {n} bytes"));
    let message = format!(
        "request body{size} exceeds the {max}-byte limit (McpServer::with_max_request_bytes)"
    );
    let mut response = Response::new(Full::new(Bytes::from(message)).boxed());
    *response.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
    let headers = response.headers_mut();
    headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if !too_large.drained {
        // The rest of the body was not read: the connection ends after this answer.
        headers.insert(
            http::header::CONNECTION,
            http::HeaderValue::from_static("close"),
        );
    }
    response
}

/// 503 with a JSON-RPC error answering request `id`, and a `Retry-After`.
fn busy(message: &str, retry_after: u64, id: &serde_json::Value) -> Response<Body> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32000, "message": message},
    });
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    headers.insert(
        http::header::RETRY_AFTER,
        http::HeaderValue::from(retry_after),
    );
    response
}
