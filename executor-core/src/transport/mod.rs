//! Plumbing the client transports share: the command line a process transport starts
//! ([`command`]: subprocess tools, stdio MCP servers), the process group that dies with a call
//! or a connection ([`process_group`]), the cancellation a peer is sent when its caller stops
//! waiting ([`cancel`]: MCP, A2A) and every client's default time limits ([`timeouts`]).
//!
//! Each part compiles only with the features whose transports use it.

#[cfg(any(feature = "mcp", feature = "a2a-client"))]
pub(crate) mod cancel;
#[cfg(any(feature = "subprocess", feature = "mcp"))]
pub(crate) mod command;
#[cfg(any(feature = "subprocess", feature = "mcp"))]
pub(crate) mod process_group;
pub(crate) mod timeouts;
