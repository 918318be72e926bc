//! Which protocol `McpToolExecutor` negotiates: 2026-07-28 (`server/discover`, no session)
//! with a server that offers it, the 2025-11-25 `initialize` handshake with rmcp servers that
//! do not, each asserted with `protocol_version()` and a call. The servers that do not are
//! rmcp `ServerHandler`s on rmcp's own streamable HTTP service: one whose `server/discover`
//! lists only versions up to 2025-11-25 (rmcp's `supported_protocol_versions`), one that
//! answers `server/discover` with -32601 as servers from before 2026-07-28 do. Their tools are
//! our `McpServer`'s, delegated to.
//!
//! The `#[ignore]`d tests run the built `examples/mcp_server` (named by
//! `EXECUTOR_MCP_DEMO_BIN`; `.ci/mcp-peer.sh` builds it and runs them with `--ignored`) on
//! stdio, on stateful HTTP and on `--stateless` HTTP.
#![cfg(feature = "mcp-http")]

mod mcp_tools;

use std::borrow::Cow;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use mcp_tools::tools;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, DiscoverRequestMethod, DiscoverResult, ErrorData,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpListener;
use tokio::process::{Child, Command};
use tokio_util::sync::CancellationToken;
use tool_executor::mcp::{McpProtocol, McpServer, McpServerConfig, McpToolExecutor, rmcp};
use tool_executor::{ToolExecutor, ToolStreamChunk};

const WAIT: Duration = Duration::from_secs(10);

/// How an rmcp server from before 2026-07-28 meets `server/discover`.
#[derive(Clone, Copy)]
enum Legacy {
    /// Knows the method but lists only versions up to 2025-11-25.
    ListsOlderVersions,
    /// Does not know the method (-32601 for `server/discover`).
    NoDiscover,
}

/// Our tools behind an rmcp handler that offers no 2026-07-28.
#[derive(Clone)]
struct OlderServer {
    tools: McpServer,
    legacy: Legacy,
}

impl ServerHandler for OlderServer {
    fn get_info(&self) -> ServerConfig {
        self.tools.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        match self.legacy {
            Legacy::ListsOlderVersions => {
                Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
            }
            // rmcp checks a request's `_meta` version before dispatch: let `server/discover`
            // through to the handler below.
            Legacy::NoDiscover => Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS),
        }
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        match self.legacy {
            Legacy::ListsOlderVersions => Ok(DiscoverResult::from_server_info(
                self.supported_protocol_versions().into_owned(),
                self.get_info(),
            )),
            Legacy::NoDiscover => Err(ErrorData::method_not_found::<DiscoverRequestMethod>()),
        }
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.tools.list_tools(request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.tools.call_tool(request, context).await
    }
}

/// Serves `handler` with rmcp's stateful streamable HTTP service on a loopback port.
async fn serve_rmcp<H: ServerHandler + Clone>(handler: H, stop: &CancellationToken) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let config = StreamableHttpServerConfig::default().with_cancellation_token(stop.child_token());
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let stop = stop.clone();
    tokio::spawn(async move {
        loop {
            let (stream, _) = tokio::select! {
                accepted = listener.accept() => accepted.unwrap(),
                () = stop.cancelled() => return,
            };
            stream.set_nodelay(true).unwrap();
            let service = TowerToHyperService::new(service.clone());
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service),
            );
        }
    });
    url
}

async fn connect(url: String, protocol: McpProtocol) -> Result<McpToolExecutor, String> {
    let config = McpServerConfig::http("old", url).protocol(protocol);
    tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
        .await
        .expect("the handshake ends within the test's bound")
        .map_err(|e| e.to_string())
}

async fn older(legacy: Legacy, stop: &CancellationToken) -> String {
    let handler = OlderServer {
        tools: tool_executor::mcp_server!(tools()),
        legacy,
    };
    serve_rmcp(handler, stop).await
}

/// A session id reaches the tool: the handshake was `initialize`, not `server/discover`.
async fn assert_legacy_session(executor: &McpToolExecutor) {
    assert_eq!(executor.protocol_version(), "2025-11-25");
    assert_eq!(
        executor.execute("add", &json!({"a": 2, "b": 3})).await,
        Ok(json!(5))
    );
    let session = executor.execute("session", &json!({})).await.unwrap();
    assert_ne!(session, json!("none"), "a legacy session: {session}");
}

/// `Auto` falls back to `initialize` with `legacy`; `Discover` refuses it with `refusal`.
async fn assert_falls_back(legacy: Legacy, refusal: &str) {
    let stop = CancellationToken::new();
    let url = older(legacy, &stop).await;
    let executor = connect(url.clone(), McpProtocol::Auto).await.unwrap();
    assert_legacy_session(&executor).await;
    let refused = connect(url, McpProtocol::Discover).await.unwrap_err();
    assert!(refused.contains(refusal), "{refused}");
    stop.cancel();
}

#[tokio::test]
async fn a_server_listing_only_older_versions_gets_the_initialize_handshake() {
    assert_falls_back(Legacy::ListsOlderVersions, "no compatible protocol version").await;
}

#[tokio::test]
async fn a_server_without_server_discover_gets_the_initialize_handshake() {
    assert_falls_back(
        Legacy::NoDiscover,
        "JSON-RPC error: -32601: server/discover",
    )
    .await;
}

#[tokio::test]
async fn an_rmcp_server_with_every_version_negotiates_2026_07_28() {
    let stop = CancellationToken::new();
    let url = serve_rmcp(tool_executor::mcp_server!(tools()), &stop).await;
    let executor = connect(url.clone(), McpProtocol::Auto).await.unwrap();
    assert_eq!(executor.protocol_version(), "2026-07-28");
    assert_eq!(
        executor.execute("add", &json!({"a": 2, "b": 3})).await,
        Ok(json!(5))
    );
    assert_eq!(
        executor.execute("session", &json!({})).await,
        Ok(json!("none"))
    );
    let legacy = connect(url, McpProtocol::Initialize).await.unwrap();
    assert_legacy_session(&legacy).await;
    stop.cancel();
}

fn demo_bin() -> String {
    std::env::var("EXECUTOR_MCP_DEMO_BIN").unwrap_or_else(|_| {
        panic!(
            "set EXECUTOR_MCP_DEMO_BIN to target/debug/examples/mcp_server (.ci/mcp-peer.sh does)"
        )
    })
}

/// `examples/mcp_server --http 127.0.0.1:0 [extra]`, killed when dropped, and its URL.
async fn demo_http(extra: &[&str]) -> (Child, String) {
    let mut child = Command::new(demo_bin())
        .args(["--http", "127.0.0.1:0"])
        .args(extra)
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the example starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = tokio::time::timeout(WAIT, async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(url) = line.strip_prefix("listening on ") {
                return url.to_owned();
            }
        }
        panic!("the example exited before listening")
    })
    .await
    .expect("the example listens");
    // Keeps reading its stderr, so it never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, url)
}

/// The seven demo tools are listed (their names: `mcp_stdio_demo.rs`), `add` answers,
/// `report` runs as a task our client follows to its result (when `tasks`: a client declares
/// the extension on each 2026-07-28 request, or once at `initialize` for a session; a
/// stateless server keeps no `initialize`, so there a 2025-11-25 client without `params.task`
/// gets -32601), and
/// `slow` streams its ten progress reports.
async fn assert_demo_serves(demo: &McpToolExecutor, tasks: bool) {
    assert_eq!(demo.specs().len(), 7);
    assert_eq!(
        demo.execute("add", &json!({"a": 2, "b": 40})).await,
        Ok(json!(42))
    );
    let report = demo
        .execute("report", &json!({"topic": "q3", "seconds": 1}))
        .await;
    if tasks {
        assert_eq!(report, Ok(json!("report on q3: 1 sections")));
    } else {
        let error = report.unwrap_err();
        // 2025-11-25: a tool that runs only as a task wants `params.task` (-32601).
        assert!(error.contains("call it with `params.task`"), "{error}");
    }
    let mut rx = demo
        .execute_stream("slow", &json!({"seconds": 1}), "a-1")
        .await
        .unwrap();
    let (mut progress, mut last) = (0, None);
    while let Some(chunk) = tokio::time::timeout(WAIT, rx.recv()).await.unwrap() {
        match chunk {
            ToolStreamChunk::Progress { .. } => progress += 1,
            other => last = Some(other),
        }
    }
    assert_eq!(progress, 10);
    assert_eq!(
        last,
        Some(ToolStreamChunk::Done {
            result: Some(json!("waited 1s"))
        })
    );
}

async fn connect_demo(config: McpServerConfig, protocol: McpProtocol) -> McpToolExecutor {
    tokio::time::timeout(WAIT, McpToolExecutor::connect(config.protocol(protocol)))
        .await
        .expect("the demo answers")
        .unwrap()
}

#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_DEMO_BIN (the built mcp_server example); run by .ci/mcp-peer.sh"]
async fn the_demo_on_stdio_negotiates_2026_07_28_and_still_takes_initialize() {
    let config = McpServerConfig::stdio("demo", demo_bin());
    let modern = connect_demo(config.clone(), McpProtocol::Auto).await;
    assert_eq!(modern.protocol_version(), "2026-07-28");
    assert_demo_serves(&modern, true).await;
    let legacy = connect_demo(config, McpProtocol::Initialize).await;
    assert_eq!(legacy.protocol_version(), "2025-11-25");
    assert_demo_serves(&legacy, true).await;
}

#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_DEMO_BIN (the built mcp_server example); run by .ci/mcp-peer.sh"]
async fn the_demo_on_http_negotiates_2026_07_28_stateful_and_stateless() {
    for extra in [&[][..], &["--stateless"]] {
        let (_demo, url) = demo_http(extra).await;
        let config = McpServerConfig::http("demo", url);
        let modern = connect_demo(config.clone(), McpProtocol::Auto).await;
        assert_eq!(modern.protocol_version(), "2026-07-28", "{extra:?}");
        assert_demo_serves(&modern, true).await;
        let legacy = connect_demo(config, McpProtocol::Initialize).await;
        assert_eq!(legacy.protocol_version(), "2025-11-25", "{extra:?}");
        assert_demo_serves(&legacy, extra.is_empty()).await;
    }
}
