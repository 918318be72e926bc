//! The settings of the streamable HTTP server ([`HttpLimits`]): how many sessions may be live,
//! how long an idle one is kept, which browser origins may talk to it. Set through
//! `McpServer`'s `with_*` methods (sessions.rs); read by the session gate.

use std::time::Duration;

/// The default cap on live streamable HTTP sessions.
pub const DEFAULT_MAX_SESSIONS: usize = 256;

/// The default time an HTTP session may stay idle before it is closed (2 minutes).
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(120);

/// The `Origin`s accepted by default: loopback pages only (any port, http or https).
const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// The session settings of an [`McpServer`].
#[derive(Debug, Clone)]
pub(crate) struct HttpLimits {
    pub(crate) max_sessions: usize,
    pub(crate) idle_timeout: Duration,
    pub(crate) allowed_origins: Vec<String>,
}

impl Default for HttpLimits {
    fn default() -> Self {
        Self {
            max_sessions: DEFAULT_MAX_SESSIONS,
            idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
            allowed_origins: LOOPBACK_ORIGINS.map(str::to_owned).to_vec(),
        }
    }
}
