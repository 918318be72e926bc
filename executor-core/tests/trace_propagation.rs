//! One W3C trace across hops: a `traceparent` in an MCP request's `_meta` (SEP-414) reaches the
//! tool's context, and an `A2aToolExecutor` hop sends it on in the W3C headers as a child of
//! this hop, so the tool behind it sees the same trace id with a new parent.
#![cfg(all(feature = "mcp", feature = "a2a-client"))]

mod stdio_support;

use serde_json::{Value, json};
use stdio_support::StdioClient;
use tool_executor::agent::{A2aToolExecutor, AgentServer, ToolAgent};
use tool_executor::mcp::McpServer;
use tool_executor::prelude::*;
use tool_executor::tool::TraceContext;

const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/// The trace this call belongs to, as its context has it.
#[tool]
fn trace_seen(ctx: &ToolContext) -> Value {
    match ctx.extension::<TraceContext>() {
        Some(trace) => json!({
            "trace_id": trace.trace_id(),
            "parent_id": trace.parent_id(),
            "tracestate": trace.tracestate(),
            "baggage": trace.baggage(),
        }),
        None => Value::Null,
    }
}

/// Calls `trace_seen` on a stdio MCP server over `executor` with `meta`.
async fn call_over_mcp(server: McpServer, meta: Value) -> Value {
    let mut client = StdioClient::start(server, "trace-test").await;
    let result = client.call(1, "trace_seen", json!({}), meta).await;
    assert_eq!(result["isError"], false, "{result}");
    result["structuredContent"]["result"].clone()
}

#[tokio::test]
async fn an_mcp_requests_trace_reaches_the_tool() {
    let meta =
        json!({"traceparent": TRACEPARENT, "tracestate": "vendor=1", "baggage": "user=alice"});
    let seen = call_over_mcp(McpServer::new(toolset![trace_seen]), meta).await;
    assert_eq!(
        seen,
        json!({"trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "parent_id": "00f067aa0ba902b7",
               "tracestate": "vendor=1", "baggage": "user=alice"})
    );
    // An invalid `traceparent` is ignored, as W3C says.
    let meta = json!({"traceparent": "00-xyz-00f067aa0ba902b7-01"});
    let seen = call_over_mcp(McpServer::new(toolset![trace_seen]), meta).await;
    assert_eq!(seen, Value::Null);
}

#[tokio::test]
async fn the_trace_crosses_an_a2a_hop_with_a_new_parent() {
    let agent = AgentServer::bind("127.0.0.1:0", ToolAgent::new(toolset![trace_seen]))
        .await
        .expect("bind")
        .spawn();
    let remote = A2aToolExecutor::connect(agent.url())
        .await
        .expect("connect");
    let meta =
        json!({"traceparent": TRACEPARENT, "tracestate": "vendor=1", "baggage": "user=alice"});
    let seen = call_over_mcp(McpServer::new(remote), meta).await;
    assert_eq!(
        seen["trace_id"], "4bf92f3577b34da6a3ce929d0e0e4736",
        "{seen}"
    );
    assert_ne!(
        seen["parent_id"], "00f067aa0ba902b7",
        "the hop is a span of its own: {seen}"
    );
    assert_eq!(seen["tracestate"], "vendor=1", "{seen}");
    assert_eq!(seen["baggage"], "user=alice", "{seen}");
}

#[cfg(feature = "mcp-http")]
#[tokio::test]
async fn the_trace_crosses_an_mcp_hop_with_a_new_parent() {
    use tool_executor::mcp::{McpServerConfig, McpToolExecutor};

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shutdown = tokio_util::sync::CancellationToken::new();
    let inner = McpServer::new(toolset![trace_seen]);
    tokio::spawn(inner.serve_http_on(listener, shutdown.clone()));
    let config = McpServerConfig::http("inner", format!("http://{addr}/mcp"));
    let remote = McpToolExecutor::connect(config).await.expect("connect");
    let meta = json!({"traceparent": TRACEPARENT});
    let seen = call_over_mcp(McpServer::new(remote), meta).await;
    shutdown.cancel();
    assert_eq!(
        seen["trace_id"], "4bf92f3577b34da6a3ce929d0e0e4736",
        "{seen}"
    );
    assert_ne!(
        seen["parent_id"], "00f067aa0ba902b7",
        "the hop is a span of its own: {seen}"
    );
}
