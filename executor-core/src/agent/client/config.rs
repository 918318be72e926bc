//! Where an [`A2aToolExecutor`](super::A2aToolExecutor) connects, its time limits, and what
//! goes wrong connecting.

use std::fmt;
use std::time::Duration;

pub use crate::transport::timeouts::{
    DEFAULT_A2A_CANCEL_TIMEOUT, DEFAULT_A2A_CONNECT_TIMEOUT, DEFAULT_A2A_REQUEST_TIMEOUT,
};

/// Where an [`A2aToolExecutor`](super::A2aToolExecutor) connects, and its time limits.
#[derive(Debug, Clone)]
pub struct A2aClientConfig {
    pub(super) url: String,
    pub(super) connect_timeout: Duration,
    pub(super) request_timeout: Duration,
    pub(super) cancel_timeout: Duration,
}

impl A2aClientConfig {
    /// The agent at `url`: its card is read from `{url}/.well-known/agent-card.json`.
    #[must_use]
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            connect_timeout: DEFAULT_A2A_CONNECT_TIMEOUT,
            request_timeout: DEFAULT_A2A_REQUEST_TIMEOUT,
            cancel_timeout: DEFAULT_A2A_CANCEL_TIMEOUT,
        }
    }

    /// The limit on reading the card ([`DEFAULT_A2A_CONNECT_TIMEOUT`] by default).
    #[must_use]
    pub const fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// The limit on one call when its context sets no shorter budget
    /// ([`DEFAULT_A2A_REQUEST_TIMEOUT`] by default).
    #[must_use]
    pub const fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// The limit on the `CancelTask` a dropped call sends ([`DEFAULT_A2A_CANCEL_TIMEOUT`]).
    #[must_use]
    pub const fn with_cancel_timeout(mut self, timeout: Duration) -> Self {
        self.cancel_timeout = timeout;
        self
    }
}

/// Why [`A2aToolExecutor::connect`](super::A2aToolExecutor::connect) failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct A2aClientError {
    /// The agent's URL.
    pub url: String,
    /// What went wrong.
    pub detail: String,
}

impl fmt::Display for A2aClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "A2A agent at {}: {}", self.url, self.detail)
    }
}

impl std::error::Error for A2aClientError {}
