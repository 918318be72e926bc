//! Every client transport's default time limits, in one place. The public ones are re-exported
//! by the transport that reads them (`subprocess::DEFAULT_TIMEOUT`,
//! `mcp::DEFAULT_HANDSHAKE_TIMEOUT`, `agent::DEFAULT_A2A_*`).

#[cfg(any(feature = "subprocess", feature = "mcp", feature = "a2a-client"))]
use std::time::Duration;

/// The wait bound of a call to a long-lived peer (an MCP server, an A2A agent) that carries no
/// budget of its own: the seed system's MCP backstop, 600 s.
#[cfg(any(feature = "mcp", feature = "a2a-client"))]
pub(crate) const REQUEST_BACKSTOP: Duration = Duration::from_secs(600);

/// A subprocess tool's own time limit when none is set (the seed's default).
#[cfg(feature = "subprocess")]
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long starting a server, the handshake (`server/discover` or `initialize`) and
/// `tools/list` may take together, by default.
#[cfg(feature = "mcp")]
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// How long [`A2aToolExecutor::connect`](crate::agent::A2aToolExecutor::connect) waits for the
/// agent card by default.
#[cfg(feature = "a2a-client")]
pub const DEFAULT_A2A_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a call may take by default when its context sets no shorter budget (the same
/// backstop as `McpToolExecutor`'s).
#[cfg(feature = "a2a-client")]
pub const DEFAULT_A2A_REQUEST_TIMEOUT: Duration = REQUEST_BACKSTOP;
/// How long the `CancelTask` sent for a dropped call may take by default.
#[cfg(feature = "a2a-client")]
pub const DEFAULT_A2A_CANCEL_TIMEOUT: Duration = Duration::from_secs(5);
