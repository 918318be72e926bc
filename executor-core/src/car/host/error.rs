//! What connecting to, or talking with, a car daemon can end in.

use std::fmt;

use serde_json::Value;

/// Why a [`CarHost`](super::CarHost) could not connect, register or finish a request.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CarHostError {
    /// The WebSocket could not be opened, or broke (a reconnect may help).
    Connection(String),
    /// The daemon refused `session.auth` (the token is wrong or missing).
    Auth(RpcError),
    /// The daemon refused `server.handshake`: no protocol version in common (`-32006`) or a
    /// capability it lacks (`-32008`).
    Handshake(RpcError),
    /// The daemon refused `tools.register` (for example a name one of its own tools has).
    Register(RpcError),
    /// A request the caller sent through [`CarSession::request`](super::CarSession::request)
    /// was answered with an error.
    Rpc(RpcError),
    /// No answer to `method` within the request timeout.
    Timeout {
        /// The method asked.
        method: String,
    },
    /// Too many of the caller's requests are waiting for an answer on this connection.
    Busy {
        /// The bound that was reached.
        limit: usize,
    },
    /// [`CarHost::run`](super::CarHost::run) gave up: this many connections in a row failed.
    GaveUp {
        /// Consecutive failed attempts.
        attempts: u32,
        /// The last attempt's error.
        last: Box<CarHostError>,
    },
}

/// A JSON-RPC error the daemon answered with.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The JSON-RPC code.
    pub code: i64,
    /// The message.
    pub message: String,
    /// The error's `data`, if any.
    pub data: Option<Value>,
}

impl RpcError {
    pub(super) fn from_value(error: &Value) -> Self {
        Self {
            code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("error without a message")
                .to_owned(),
            data: error.get("data").cloned(),
        }
    }
}

impl CarHostError {
    /// Whether reconnecting cannot help: the daemon refused the token, the protocol or the
    /// registration, which the next connection would send again.
    #[must_use]
    pub const fn is_fatal(&self) -> bool {
        matches!(self, Self::Auth(_) | Self::Handshake(_) | Self::Register(_))
    }
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (JSON-RPC {})", self.message, self.code)
    }
}

impl fmt::Display for CarHostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Connection(reason) => write!(f, "car daemon connection: {reason}"),
            Self::Auth(error) => write!(f, "car daemon refused session.auth: {error}"),
            Self::Handshake(error) => write!(f, "car daemon refused server.handshake: {error}"),
            Self::Register(error) => write!(f, "car daemon refused tools.register: {error}"),
            Self::Rpc(error) => write!(f, "car daemon answered with an error: {error}"),
            Self::Timeout { method } => write!(f, "car daemon did not answer `{method}` in time"),
            Self::Busy { limit } => write!(
                f,
                "{limit} requests already wait for the car daemon on this connection"
            ),
            Self::GaveUp { attempts, last } => {
                write!(f, "gave up after {attempts} failed connections: {last}")
            }
        }
    }
}

impl std::error::Error for CarHostError {}
