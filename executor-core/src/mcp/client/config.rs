//! How to reach an MCP server, and what goes wrong connecting.

use std::ffi::OsString;
use std::fmt;
use std::time::Duration;

pub use crate::transport::timeouts::DEFAULT_HANDSHAKE_TIMEOUT;

use crate::transport::command::{CommandBuilder, CommandLine, command_builder};
use crate::transport::timeouts::REQUEST_BACKSTOP;

/// Which MCP lifecycle [`McpToolExecutor`](super::McpToolExecutor) uses with a server.
///
/// ```
/// use tool_executor::mcp::{McpProtocol, McpServerConfig};
///
/// let config = McpServerConfig::stdio("old", "old-server").protocol(McpProtocol::Initialize);
/// assert_eq!(config.name(), "old");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpProtocol {
    /// 2026-07-28 when the server offers it, else 2025-11-25 (the default). The client asks
    /// `server/discover` first (rmcp's `ClientLifecycleMode::Auto`); a server that does not
    /// know the method, or does not answer it within 10 s, gets the `initialize` handshake
    /// on the same connection. A server that knows `server/discover` but supports no version
    /// from 2026-07-28 on is connected again with `initialize` (a stdio server is restarted
    /// for that). The 10 s wait counts against the config's handshake timeout: set under
    /// 10 s, a server that ignores `server/discover` is given up before the fallback.
    #[default]
    Auto,
    /// Only the `initialize` handshake (2025-11-25 or what the server picks below it): a
    /// session, server→client requests, `notifications/cancelled` by id.
    Initialize,
    /// Only 2026-07-28 through `server/discover`; a server without it fails to connect.
    Discover,
}

/// Where an MCP server runs.
#[derive(Debug, Clone)]
pub(super) enum Endpoint {
    Stdio(CommandLine),
    #[cfg(feature = "mcp-http")]
    Http {
        url: String,
        /// Bearer tokens for a protected server (`with_token_provider`).
        #[cfg(all(feature = "mcp-http", feature = "oauth"))]
        tokens: Option<Tokens>,
    },
}

/// A shared token provider (a newtype so `Endpoint` stays `Debug`).
#[cfg(all(feature = "mcp-http", feature = "oauth"))]
#[derive(Clone)]
pub(super) struct Tokens(pub(super) std::sync::Arc<dyn crate::auth::TokenProvider>);

#[cfg(all(feature = "mcp-http", feature = "oauth"))]
impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenProvider")
    }
}

/// How to reach an MCP server: a command speaking MCP on stdio, or a streamable HTTP URL.
///
/// ```
/// use tool_executor::mcp::McpServerConfig;
/// use std::time::Duration;
///
/// let config = McpServerConfig::stdio("files", "python3")
///     .arg("server.py")
///     .env("LOG_LEVEL", "warning")
///     .prefixed(true)
///     .request_timeout(Duration::from_secs(30))
///     .handshake_timeout(Duration::from_secs(10));
/// assert_eq!(config.name(), "files");
/// ```
#[derive(Debug, Clone)]
pub struct McpServerConfig {
    pub(super) name: String,
    pub(super) endpoint: Endpoint,
    pub(super) prefixed: bool,
    pub(super) request_timeout: Duration,
    pub(super) handshake_timeout: Duration,
    pub(super) protocol: McpProtocol,
    /// Who answers the server's `elicitation/create` requests (`with_elicitor`).
    pub(super) elicitor: Option<Elicitor>,
}

/// The application's answerer of a server's questions (a newtype so the config stays `Debug`).
#[derive(Clone)]
pub(super) struct Elicitor(pub(super) std::sync::Arc<dyn crate::elicit::Elicitor>);

impl std::fmt::Debug for Elicitor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Elicitor")
    }
}

impl McpServerConfig {
    /// A server started as `program` with piped stdio, in a process group of its own that a
    /// small supervisor leads. The whole group (a wrapper such as `sh -c`, `npx` or `uv run`
    /// and everything it started) is killed when the executor is dropped, when the handshake
    /// times out and when the server closes its end (it exited), and by the supervisor when
    /// the host ends by any path (`process::exit`, a signal, SIGKILL); a server that died is
    /// restarted on the next call. A process that leaves the group (`setsid`) is not followed.
    #[must_use]
    pub fn stdio(name: impl Into<String>, program: impl Into<OsString>) -> Self {
        Self::with_endpoint(name, Endpoint::Stdio(CommandLine::new(program)))
    }

    /// A server at a streamable HTTP `url` (plain `http`; enable reqwest's TLS features in
    /// your own `Cargo.toml` for `https`).
    ///
    /// ```
    /// use tool_executor::mcp::McpServerConfig;
    ///
    /// let remote = McpServerConfig::http("weather", "http://127.0.0.1:8080/mcp").prefixed(true);
    /// assert_eq!(remote.name(), "weather");
    /// ```
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    #[must_use]
    pub fn http(name: impl Into<String>, url: impl Into<String>) -> Self {
        Self::with_endpoint(
            name,
            Endpoint::Http {
                url: url.into(),
                #[cfg(all(feature = "mcp-http", feature = "oauth"))]
                tokens: None,
            },
        )
    }

    /// Sends a bearer token from `tokens` on every request to an HTTP server (no effect on
    /// stdio): asked before the first request, and again after a 401, whose request is then
    /// sent once more with the new token. [`ClientCredentials`](crate::auth::ClientCredentials)
    /// discovers the authorization server from the server's metadata.
    ///
    /// ```
    /// use tool_executor::auth::ClientCredentials;
    /// use tool_executor::mcp::McpServerConfig;
    ///
    /// let config = McpServerConfig::http("notes", "http://127.0.0.1:8080/mcp")
    ///     .with_token_provider(ClientCredentials::new("bot", "s3cret").with_scope("notes:read"));
    /// # let _ = config;
    /// ```
    #[cfg(all(feature = "mcp-http", feature = "oauth"))]
    #[cfg_attr(docsrs, doc(cfg(all(feature = "mcp-http", feature = "oauth"))))]
    #[must_use]
    pub fn with_token_provider(mut self, tokens: impl crate::auth::TokenProvider) -> Self {
        if let Endpoint::Http { tokens: slot, .. } = &mut self.endpoint {
            *slot = Some(Tokens(std::sync::Arc::new(tokens)));
        }
        self
    }

    fn with_endpoint(name: impl Into<String>, endpoint: Endpoint) -> Self {
        Self {
            name: name.into(),
            endpoint,
            prefixed: false,
            request_timeout: REQUEST_BACKSTOP,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            protocol: McpProtocol::Auto,
            elicitor: None,
        }
    }

    /// Answers the server's questions (`elicitation/create` on a 2025-11-25 session) with
    /// `elicitor`, and declares the `elicitation` capability (form and URL modes) so the
    /// server asks. An accepted form's content gets the `default` of every field the answer
    /// leaves out (SEP-1034). Without one the client declares no elicitation and a server
    /// does not ask.
    ///
    /// ```
    /// use tool_executor::elicit::{Action, ElicitError, Question, Reply};
    /// use tool_executor::mcp::McpServerConfig;
    /// use tool_executor::tool::BoxFuture;
    ///
    /// // Declines every question (a real client shows it to its user).
    /// let decline = |_: Question| -> BoxFuture<'static, Result<Reply, ElicitError>> {
    ///     Box::pin(async { Ok(Reply { action: Action::Decline, content: None }) })
    /// };
    /// let config = McpServerConfig::stdio("files", "python3").arg("server.py").with_elicitor(decline);
    /// # let _ = config;
    /// ```
    #[must_use]
    pub fn with_elicitor(mut self, elicitor: impl crate::elicit::Elicitor) -> Self {
        self.elicitor = Some(Elicitor(std::sync::Arc::new(elicitor)));
        self
    }

    command_builder!(" (stdio servers)");

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

    /// Which protocol lifecycle to use (default [`McpProtocol::Auto`]: 2026-07-28 when the
    /// server offers it, else the 2025-11-25 `initialize` handshake).
    #[must_use]
    pub const fn protocol(mut self, protocol: McpProtocol) -> Self {
        self.protocol = protocol;
        self
    }

    /// Bounds starting the server, the handshake and the first `tools/list`
    /// together (default [`DEFAULT_HANDSHAKE_TIMEOUT`], 30 s), both in
    /// [`McpToolExecutor::connect`](super::McpToolExecutor::connect) and when a call restarts
    /// a server that died. A stdio server that misses it is killed with its process group.
    #[must_use]
    pub const fn handshake_timeout(mut self, timeout: Duration) -> Self {
        self.handshake_timeout = timeout;
        self
    }

    /// The server's name, used in the prefix and in errors.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl CommandBuilder for McpServerConfig {
    #[cfg_attr(not(feature = "mcp-http"), allow(clippy::unnecessary_wraps))] // `None` for HTTP
    fn command_line(&mut self) -> Option<&mut CommandLine> {
        match &mut self.endpoint {
            Endpoint::Stdio(command) => Some(command),
            #[cfg(feature = "mcp-http")]
            Endpoint::Http { .. } => None,
        }
    }
}

/// Connecting to an MCP server failed.
#[derive(Debug)]
pub struct McpClientError {
    pub(super) server: String,
    pub(super) detail: String,
}

impl fmt::Display for McpClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MCP server `{}`: {}", self.server, self.detail)
    }
}

impl std::error::Error for McpClientError {}
