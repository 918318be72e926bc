//! [`CarHost`]: our tools hosted for a car daemon over its WebSocket protocol (feature
//! `car-ws`), the seed's "daemon mode" from the host side. No car crate is a dependency:
//! neither car-engine nor car-ir.
//!
//! What one connection does (car-server-core 0.60's dispatcher on the other end):
//!
//! 1. `session.auth {token}` (or `{host_token}`), when a token is set;
//! 2. `server.handshake {protocol_version: 3, required_capabilities: [],
//!    optional_capabilities: ["tools.callback-state.v1"]}`; a refusal (`-32006` version,
//!    `-32008` capability) is fatal;
//! 3. `tools.register` with every spec the executor lists: name, description, input schema
//!    as `parameters`, output schema as `returns`, `idempotent` from the idempotent or
//!    read-only hint;
//! 4. then it serves. Each `tools.execute {action_id, tool, parameters, timeout_ms, attempt,
//!    request_id, session_id}` runs as its own task through the executor's
//!    `execute_classified`: the tool's [`ToolContext`](crate::ToolContext) has the action id,
//!    the 1-based attempt, the session and `timeout_ms` as its deadline. The answer is the
//!    output (with `callback-state.v1`: the envelope `{output, state_changes}` holding what the
//!    tool recorded), or a failure by the failure table's car row
//!    ([`for_car`](crate::failure::transport::for_car)): a JSON-RPC error `-32000` whose message
//!    is the failure's text with its [marker](crate::failure::transport::CAR_FAILURE_MARKER)
//!    (code, kind, retry hint, data) and whose `data` holds the same details and `terminal`.
//!    A `tools.cancel {request_id}` aborts that call's task, which drops the tool's future.
//!
//! Bounded: frames over [`max_message_bytes`](CarHost::max_message_bytes) are refused both
//! ways (an answer too large becomes a failure), at most
//! [`max_concurrent_calls`](CarHost::max_concurrent_calls) calls run per connection (more are
//! answered `host_busy`, ordinary, so car retries), at most
//! [`max_pending_requests`](CarHost::max_pending_requests) of the caller's requests wait, and
//! every request, write and connect has a timeout. When a connection ends every call still
//! running is dropped. [`CarHost::run`] reconnects with exponential backoff and registers
//! again (a daemon session does not outlive its socket).
//!
//! car's rules, as car-server-core 0.60 applies them to a host's answers:
//!
//! - car retries ordinary failures of an action with `failure_behavior: retry` (up to its
//!   `max_retries`), each with the next attempt number;
//! - a terminal failure (`data.terminal: true`) stops the proposal and halts that daemon
//!   session until a host-authenticated client calls `session.clear_halt` on it, or the host
//!   reconnects;
//! - a host's failure never falls through to car's built-in tools, so an unknown tool is an
//!   ordinary failure here;
//! - with `callback-state.v1`, an action with `expected_effects` succeeds only when the
//!   state changes the tool recorded have exactly those keys (the daemon checks; it does not
//!   send the expected effects to the host, so the tool's context has none);
//! - on timeout the daemon stops waiting at `timeout_ms` and sends `tools.cancel`.
//!
//! ```no_run
//! use tool_executor::car::CarHost;
//! use tool_executor::prelude::*;
//!
//! /// Adds two numbers.
//! #[tool(read_only)]
//! async fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! # async fn run() {
//! let host = CarHost::new(toolset![add])
//!     .url("ws://127.0.0.1:9100/")
//!     .token(std::env::var("CAR_TOKEN").unwrap_or_default());
//! // Connects, registers, serves; reconnects when the daemon goes away.
//! let error = host.run().await;
//! eprintln!("car host stopped: {error}");
//! # }
//! ```

mod connection;
mod error;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::watch;
use tokio::task::AbortHandle;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

pub use error::{CarHostError, RpcError};
pub use wire::{
    CALLBACK_STATE_CAPABILITY, CAPABILITY_MISMATCH, HANDSHAKE_REQUIRED, PROTOCOL_VERSION,
    TOOL_FAILURE_CODE, VERSION_MISMATCH,
};

use crate::tool::ToolExecutor;
use connection::{End, Limits, Link};

/// car's default daemon endpoint.
pub const DEFAULT_URL: &str = "ws://127.0.0.1:9100/";
/// The default bound of one WebSocket message, both ways: 16 MiB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 << 20;
/// The default number of calls one connection runs at once.
pub const DEFAULT_MAX_CONCURRENT_CALLS: usize = 64;
/// The default number of the caller's requests that may wait for an answer.
pub const DEFAULT_MAX_PENDING_REQUESTS: usize = 256;
/// How long connecting (TCP and the WebSocket upgrade) may take by default.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request (auth, handshake, register, the caller's own) may wait by default.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Our tools, hosted for a car daemon over its WebSocket protocol. See [the module](self).
#[derive(Clone)]
pub struct CarHost {
    executor: Arc<dyn ToolExecutor>,
    url: String,
    auth: Option<Value>,
    limits: Limits,
    connect_timeout: Duration,
    backoff: (Duration, Duration),
    max_failed_connections: Option<u32>,
}

impl std::fmt::Debug for CarHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CarHost")
            .field("url", &self.url)
            .field("auth", &self.auth.as_ref().map(|_| "<redacted>"))
            .field("limits", &self.limits)
            .field("connect_timeout", &self.connect_timeout)
            .field("backoff", &self.backoff)
            .field("max_failed_connections", &self.max_failed_connections)
            .finish_non_exhaustive()
    }
}

impl CarHost {
    /// Hosts `executor`'s tools at [`DEFAULT_URL`], without a token, with the default bounds.
    #[must_use]
    pub fn new(executor: impl ToolExecutor + 'static) -> Self {
        Self::from_arc(Arc::new(executor))
    }

    /// [`new`](Self::new) for an executor already shared.
    #[must_use]
    pub fn from_arc(executor: Arc<dyn ToolExecutor>) -> Self {
        Self {
            executor,
            url: DEFAULT_URL.to_owned(),
            auth: None,
            limits: Limits {
                max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
                max_concurrent_calls: DEFAULT_MAX_CONCURRENT_CALLS,
                max_pending_requests: DEFAULT_MAX_PENDING_REQUESTS,
                request_timeout: DEFAULT_REQUEST_TIMEOUT,
                write_timeout: DEFAULT_REQUEST_TIMEOUT,
            },
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            backoff: (Duration::from_millis(100), Duration::from_secs(10)),
            max_failed_connections: None,
        }
    }

    /// The daemon's `ws://` URL (plain WebSocket; car's daemon listens on loopback).
    #[must_use]
    pub fn url(mut self, url: impl Into<String>) -> Self {
        self.url = url.into();
        self
    }

    /// Authenticates with car's per-launch daemon token: `session.auth {"token": …}` first on
    /// every connection. An empty token sends nothing.
    #[must_use]
    pub fn token(mut self, token: impl Into<String>) -> Self {
        let token = token.into();
        self.auth = (!token.is_empty()).then(|| serde_json::json!({ "token": token }));
        self
    }

    /// Authenticates as the host (`session.auth {"host_token": …}`), the role that may call
    /// `session.clear_halt` after a terminal failure. An empty token sends nothing.
    #[must_use]
    pub fn host_token(mut self, token: impl Into<String>) -> Self {
        let token = token.into();
        self.auth = (!token.is_empty()).then(|| serde_json::json!({ "host_token": token }));
        self
    }

    /// The largest WebSocket message read or written (default 16 MiB). A larger frame from
    /// the daemon ends the connection; a larger answer becomes an ordinary failure
    /// (`output_too_large`).
    #[must_use]
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_message_bytes = bytes.max(1024);
        self
    }

    /// How many calls one connection runs at once (default 64); more are answered with an
    /// ordinary `host_busy` failure, which car retries.
    #[must_use]
    pub fn max_concurrent_calls(mut self, calls: usize) -> Self {
        self.limits.max_concurrent_calls = calls.max(1);
        self
    }

    /// How many of the caller's requests ([`CarSession::request`]) may wait at once (default
    /// 256); more fail with [`CarHostError::Busy`].
    #[must_use]
    pub fn max_pending_requests(mut self, requests: usize) -> Self {
        self.limits.max_pending_requests = requests.max(1);
        self
    }

    /// How long a request, and writing one frame, may take (default 30 s).
    #[must_use]
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.limits.request_timeout = timeout;
        self.limits.write_timeout = timeout;
        self
    }

    /// How long opening the WebSocket may take (default 10 s).
    #[must_use]
    pub const fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// [`run`](Self::run)'s wait between connections: `initial`, doubled after each failed
    /// connection up to `max` (defaults 100 ms and 10 s), back to `initial` once a connection
    /// has registered.
    #[must_use]
    pub fn backoff(mut self, initial: Duration, max: Duration) -> Self {
        self.backoff = (initial, max.max(initial));
        self
    }

    /// How many connections in a row may fail before [`run`](Self::run) gives up (default:
    /// never; fatal refusals stop it at once).
    #[must_use]
    pub const fn max_failed_connections(mut self, attempts: u32) -> Self {
        self.max_failed_connections = Some(attempts);
        self
    }

    /// One connection: connects, authenticates, shakes hands and registers every tool, then
    /// serves in a background task until the daemon closes or the returned session is dropped.
    ///
    /// # Errors
    /// [`CarHostError::Connection`] or [`Timeout`](CarHostError::Timeout) when the daemon
    /// cannot be reached; [`Auth`](CarHostError::Auth),
    /// [`Handshake`](CarHostError::Handshake) or [`Register`](CarHostError::Register) when it
    /// refuses (fatal: [`CarHostError::is_fatal`]).
    pub async fn connect(&self) -> Result<CarSession, CarHostError> {
        let config = WebSocketConfig::default()
            .max_message_size(Some(self.limits.max_message_bytes))
            .max_frame_size(Some(self.limits.max_message_bytes));
        let opening =
            tokio_tungstenite::connect_async_with_config(self.url.as_str(), Some(config), true);
        let (socket, _) = tokio::time::timeout(self.connect_timeout, opening)
            .await
            .map_err(|_| {
                CarHostError::Connection(format!(
                    "{} did not answer within {:?}",
                    self.url, self.connect_timeout
                ))
            })?
            .map_err(|error| CarHostError::Connection(format!("{}: {error}", self.url)))?;
        let (link, end, driver) = connection::start(socket, self.executor.clone(), self.limits);
        let mut session = CarSession {
            link,
            end,
            driver: Driver(driver),
            tools: Vec::new(),
            capabilities: Vec::new(),
        };
        if let Some(auth) = &self.auth {
            session
                .link
                .request("session.auth", auth)
                .await
                .map_err(|error| refused(error, CarHostError::Auth))?;
        }
        let handshake = session
            .link
            .request("server.handshake", &wire::handshake_params())
            .await
            .map_err(|error| refused(error, CarHostError::Handshake))?;
        session.capabilities = handshake
            .get("negotiated_capabilities")
            .and_then(Value::as_array)
            .map(|all| {
                all.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let callback_state = session
            .capabilities
            .iter()
            .any(|capability| capability == CALLBACK_STATE_CAPABILITY);
        session.link.set_callback_state(callback_state);
        let specs = self.executor.specs();
        let definitions: Vec<Value> = specs
            .iter()
            .map(|spec| wire::tool_definition(spec))
            .collect();
        session
            .link
            .request("tools.register", &Value::Array(definitions))
            .await
            .map_err(|error| refused(error, CarHostError::Register))?;
        session.tools = specs.iter().map(|spec| spec.name.clone()).collect();
        Ok(session)
    }

    /// Serves for as long as it can: [`connect`](Self::connect), serve until the connection
    /// ends, wait the [backoff](Self::backoff), connect and register again. Returns only with
    /// the error that stopped it: a fatal refusal, or
    /// [`GaveUp`](CarHostError::GaveUp) after
    /// [`max_failed_connections`](Self::max_failed_connections). Drop the future to stop
    /// (that drops every call in flight).
    pub async fn run(&self) -> CarHostError {
        let (initial, max) = self.backoff;
        let mut delay = initial;
        let mut failed = 0_u32;
        loop {
            match self.connect().await {
                Ok(session) => {
                    failed = 0;
                    delay = initial;
                    let _ = session.closed().await;
                }
                Err(error) if error.is_fatal() => return error,
                Err(error) => {
                    failed = failed.saturating_add(1);
                    if self
                        .max_failed_connections
                        .is_some_and(|most| failed > most)
                    {
                        return CarHostError::GaveUp {
                            attempts: failed,
                            last: Box::new(error),
                        };
                    }
                }
            }
            tokio::time::sleep(delay).await;
            delay = delay.saturating_mul(2).min(max);
        }
    }
}

/// A daemon's refusal as the step's fatal error; anything else as it is.
fn refused(error: CarHostError, step: fn(RpcError) -> CarHostError) -> CarHostError {
    match error {
        CarHostError::Rpc(error) => step(error),
        other => other,
    }
}

/// Aborts the connection's driver when the session goes.
struct Driver(AbortHandle);

impl Drop for Driver {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// One registered connection to a car daemon, served in the background. Dropping it closes the
/// socket and drops every call still running.
pub struct CarSession {
    link: Arc<Link>,
    end: watch::Receiver<End>,
    driver: Driver,
    tools: Vec<String>,
    capabilities: Vec<String>,
}

impl std::fmt::Debug for CarSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CarSession")
            .field("tools", &self.tools)
            .field("capabilities", &self.capabilities)
            .field("in_flight", &self.link.in_flight())
            .finish_non_exhaustive()
    }
}

impl CarSession {
    /// The tools registered, by name.
    #[must_use]
    pub fn tools(&self) -> &[String] {
        &self.tools
    }

    /// The capabilities the handshake settled on.
    #[must_use]
    pub fn negotiated_capabilities(&self) -> &[String] {
        &self.capabilities
    }

    /// Whether the daemon takes `{output, state_changes}` answers (`tools.callback-state.v1`).
    #[must_use]
    pub fn callback_state(&self) -> bool {
        self.capabilities
            .iter()
            .any(|capability| capability == CALLBACK_STATE_CAPABILITY)
    }

    /// How many `tools.execute` calls are running now.
    #[must_use]
    pub fn calls_in_flight(&self) -> usize {
        self.link.in_flight()
    }

    /// Sends any daemon method on this session and waits (bounded) for its result: for
    /// example `proposal.submit`, whose actions then call the tools this session registered,
    /// or `session.clear_halt` after a terminal failure (host token only).
    ///
    /// # Errors
    /// [`CarHostError::Rpc`] with the daemon's error; [`Timeout`](CarHostError::Timeout),
    /// [`Busy`](CarHostError::Busy) or [`Connection`](CarHostError::Connection) otherwise.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, CarHostError> {
        self.link.request(method, &params).await
    }

    /// Waits until the connection ends: `Ok` when the daemon (or [`close`](Self::close))
    /// closed it with a close frame, the error otherwise.
    ///
    /// # Errors
    /// [`CarHostError::Connection`] when the socket broke.
    pub async fn closed(&self) -> Result<(), CarHostError> {
        let mut end = self.end.clone();
        let ended = end.wait_for(Option::is_some).await;
        match ended.as_deref() {
            Ok(Some(outcome)) => outcome.clone(),
            _ => Err(CarHostError::Connection("the connection task ended".into())),
        }
    }

    /// Sends a close frame and waits (bounded by the request timeout) for the connection to
    /// end; calls still running are dropped.
    pub async fn close(self) {
        self.link.close().await;
        let _ = tokio::time::timeout(CLOSE_TIMEOUT, self.closed()).await;
        drop(self.driver);
    }
}

/// How long [`CarSession::close`] waits for the connection to end.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);
