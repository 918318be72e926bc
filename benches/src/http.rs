//! MCP `tools/call` over streamable HTTP on 127.0.0.1: our `McpServer` (its own accept loop,
//! `serve_http_on`) and rmcp's `#[tool_handler]` server (rmcp's `StreamableHttpService` on a
//! hyper accept loop that sets `TCP_NODELAY`, as ours does), both serving the same 20 tools;
//! clients are rmcp's, on one keep-alive `reqwest` pool, and our `McpToolExecutor`. Used by the
//! `mcp_http` benchmark.

use std::net::SocketAddr;
use std::sync::Arc;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{
    StreamableHttpClientTransport, StreamableHttpServerConfig, StreamableHttpService,
};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_executor::mcp::{McpServer, McpServerConfig, McpToolExecutor};

use super::{ours, peer};

/// A connected rmcp client.
pub type Client = RunningService<RoleClient, ()>;

async fn loopback() -> TcpListener {
    TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port")
}

/// Serves our `McpServer` (the 20 tools) on a loopback port until `stop` fires; returns the
/// `/mcp` URL. Must run inside a Tokio runtime.
///
/// # Panics
/// If no loopback port can be bound.
pub async fn serve_ours(stop: CancellationToken) -> String {
    let listener = loopback().await;
    let url = url(listener.local_addr().expect("a bound address"));
    tokio::spawn(McpServer::new(ours::toolset()).serve_http_on(listener, stop));
    url
}

/// Serves rmcp's `#[tool_handler]` server on a loopback port until `stop` fires, with
/// `TCP_NODELAY` on every accepted socket; returns the `/mcp` URL.
///
/// # Panics
/// If no loopback port can be bound.
pub async fn serve_rmcp(stop: CancellationToken) -> String {
    let listener = loopback().await;
    let url = url(listener.local_addr().expect("a bound address"));
    tokio::spawn(serve_rmcp_on(listener, false, stop));
    url
}

/// Serves rmcp's `#[tool_handler]` server on `listener` until `stop` fires, with
/// `TCP_NODELAY` on every accepted socket: stateful (rmcp's local session manager) or, with
/// `stateless`, in rmcp's stateless mode with JSON answers, as our `with_stateless_http` sets it.
pub async fn serve_rmcp_on(listener: TcpListener, stateless: bool, stop: CancellationToken) {
    let mut config =
        StreamableHttpServerConfig::default().with_cancellation_token(stop.child_token());
    if stateless {
        config = config
            .with_legacy_session_mode(false)
            .with_json_response(true);
    }
    let service = StreamableHttpService::new(
        || Ok(peer::Server::default()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stop.cancelled() => return,
        };
        let Ok((stream, _)) = accepted else { continue };
        // Fails only on a socket that is already dead, which the connection will report.
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(
            hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service),
        );
    }
}

fn url(addr: SocketAddr) -> String {
    format!("http://{addr}/mcp")
}

/// An rmcp client, handshake done, on a keep-alive `reqwest` pool (reqwest's defaults: idle
/// connections are reused, `TCP_NODELAY` on).
///
/// # Panics
/// If the handshake fails.
pub async fn connect(url: &str) -> Client {
    let transport = StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()),
    );
    ().serve(transport)
        .await
        .expect("the server completes the handshake")
}

/// Our `McpToolExecutor` on `url`, tools listed.
///
/// # Panics
/// If it cannot connect.
pub async fn connect_executor(url: &str) -> McpToolExecutor {
    McpToolExecutor::connect(McpServerConfig::http("bench", url))
        .await
        .expect("the executor connects")
}
