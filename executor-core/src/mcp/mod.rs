//! MCP, on rmcp (the official Rust SDK): serve any [`ToolExecutor`](crate::tool::ToolExecutor) to MCP
//! clients with [`McpServer`], and use an MCP server's tools as an executor with
//! [`McpToolExecutor`].
//!
//! Feature `mcp` covers stdio both ways (rmcp without its HTTP stack); `mcp-http` adds
//! streamable HTTP both ways (hyper to serve, reqwest to connect).
//!
//! Failures follow [`failure::transport::for_mcp`](crate::failure::transport::for_mcp): a
//! tool's failure (invalid arguments and panics included) is an `isError` result the model
//! reads; only an unknown tool or a malformed request is a JSON-RPC error.

mod catalog;
mod client;
mod context;
mod convert;
mod elicit;
#[cfg(feature = "mcp-http")]
mod limits;
mod listen;
#[cfg(feature = "request-state")]
mod mrtr;
#[cfg(all(feature = "mcp-http", feature = "oauth"))]
mod oauth;
mod offer;
mod serve;
mod server;
#[cfg(feature = "mcp-http")]
mod sessions;
mod stdio;
mod tasks;
mod tasks_legacy;
pub mod testing;

pub use catalog::ClientModel;
pub use client::{
    DEFAULT_HANDSHAKE_TIMEOUT, McpClientError, McpProtocol, McpServerConfig, McpToolExecutor,
};
pub use context::RequestMeta;
pub use convert::{ATTEMPT_META, FAILURE_CODES_META, IDEMPOTENCY_KEY_META, TIMEOUT_META};
#[cfg(feature = "mcp-http")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
pub use limits::{DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT};
/// Who may share a cached list result ([`McpServer::with_list_ttl`]).
pub use rmcp::model::CacheScope;
pub use server::{DEFAULT_MAX_PENDING_OUTPUT, DEFAULT_MAX_REQUEST_BYTES, McpServer};

/// Re-export of the MCP SDK this module is built on, for its model types.
pub use rmcp;

/// An [`McpServer`] for `executor`, reporting the calling crate's name and version
/// (`CARGO_PKG_NAME`, `CARGO_PKG_VERSION`).
///
/// ```
/// use tool_executor::prelude::*;
///
/// /// Echoes its input.
/// #[tool]
/// fn echo(text: &str) -> String { text.to_owned() }
///
/// let server = tool_executor::mcp_server!(toolset![echo]);
/// assert_eq!(server.version(), env!("CARGO_PKG_VERSION"));
/// ```
#[macro_export]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
macro_rules! mcp_server {
    ($executor:expr $(,)?) => {
        $crate::mcp::McpServer::new($executor)
            .with_name(::core::env!("CARGO_PKG_NAME"))
            .with_version(::core::env!("CARGO_PKG_VERSION"))
    };
}
