//! `McpToolExecutor` against our own `McpServer` on streamable HTTP (in-process, no Python):
//! listing, unwrapping, failures, budgets, dropped calls and progress.
#![cfg(feature = "mcp-http")]

mod mcp_tools;
mod stream_support;

use std::time::Duration;

use mcp_tools::{dropped, tools};
use serde_json::json;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_executor::mcp::{McpProtocol, McpServerConfig, McpToolExecutor};
use tool_executor::{FailureKind, ToolContext, ToolExecutor, ToolStreamChunk};

const WAIT: Duration = Duration::from_secs(10);

/// Shouts; served locally, not by the MCP server.
#[tool_executor::tool]
fn shout(text: &str) -> String {
    text.to_uppercase()
}

/// Serves the shared tools on an ephemeral port; the token stops the server.
async fn serve() -> (String, CancellationToken) {
    serve_with(1 << 20).await
}

async fn serve_with(max_request_bytes: usize) -> (String, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let shutdown = CancellationToken::new();
    let server = tool_executor::mcp_server!(tools()).with_max_request_bytes(max_request_bytes);
    tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
    (url, shutdown)
}

async fn connect(prefixed: bool) -> (McpToolExecutor, CancellationToken) {
    let (url, shutdown) = serve().await;
    let config = McpServerConfig::http("demo", url).prefixed(prefixed);
    let executor = tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
        .await
        .unwrap()
        .unwrap();
    (executor, shutdown)
}

async fn wait_until_dropped(key: &str) {
    tokio::time::timeout(WAIT, async {
        while !dropped(key) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap_or_else(|_| {
        panic!("the server never dropped `{key}`: the cancellation did not reach it")
    });
}

#[tokio::test]
async fn lists_tools_as_specs_with_unwrapped_output_schemas() {
    let (executor, _server) = connect(false).await;
    let specs = executor.specs();
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "add", "echo", "forecast", "refuse", "leak", "boom", "wait", "count", "session"
        ]
    );
    let add = &specs[0];
    assert_eq!(add.description, "Adds two integers.");
    assert_eq!(add.input_schema["required"], json!(["a", "b"]));
    assert_eq!(
        add.output_schema,
        Some(json!({"type": "integer", "format": "int64"})),
        "the {{result}} wrapper is removed"
    );
    assert_eq!(add.annotations.read_only, Some(true));
    assert_eq!(specs[2].annotations.title.as_deref(), Some("Forecast"));
    assert_eq!(specs[2].output_schema.as_ref().unwrap()["type"], "object");
    assert!(
        std::sync::Arc::ptr_eq(&specs, &executor.specs()),
        "specs are cached"
    );
}

#[tokio::test]
async fn calls_return_values_and_failures_keep_their_meaning() {
    let (executor, _server) = connect(false).await;
    assert_eq!(
        executor.execute("add", &json!({"a": 2, "b": 40})).await,
        Ok(json!(42))
    );
    assert_eq!(
        executor.execute("echo", &json!({"text": "hi"})).await,
        Ok(json!("hi"))
    );
    assert_eq!(
        executor.execute("forecast", &json!({"city": "Oslo"})).await,
        Ok(json!({"city": "Oslo", "high": 21}))
    );

    let ctx = || ToolContext::new();
    let failure = executor
        .execute_with_context("add", &json!({"a": "x", "b": 1}), ctx())
        .await
        .unwrap_err();
    assert_eq!(failure.message(), "a: expected an integer, got \"x\"");
    assert_eq!(failure.kind(), FailureKind::InvalidArguments);

    let failure = executor
        .execute_with_context("refuse", &json!({}), ctx())
        .await
        .unwrap_err();
    assert_eq!(failure.message(), "not today");
    assert!(
        failure.is_terminal(),
        "our server's classification survives the hop"
    );
    assert_eq!(failure.code(), "refused");

    let failure = executor
        .execute_with_context("boom", &json!({}), ctx())
        .await
        .unwrap_err();
    assert_eq!(failure.message(), "tool `boom` panicked");
    assert!(
        !failure.is_unhandled(),
        "relayed failures are never unhandled (car#3104)"
    );

    // Tools the server does not list can go to a fallback executor instead.
    let with_fallback = executor
        .clone()
        .with_fallback(std::sync::Arc::new(tool_executor::toolset![shout]));
    assert_eq!(
        with_fallback.execute("shout", &json!({"text": "hi"})).await,
        Ok(json!("HI"))
    );
    assert_eq!(
        with_fallback.execute("add", &json!({"a": 1, "b": 1})).await,
        Ok(json!(2))
    );
    let failure = executor
        .execute_with_context("nope", &json!({}), ctx())
        .await
        .unwrap_err();
    assert!(
        failure.is_unhandled(),
        "a tool the server did not list is not ours"
    );
    assert_eq!(failure.kind(), FailureKind::UnknownTool);

    let failure = executor
        .execute_with_context("add", &json!([1, 2]), ctx())
        .await
        .unwrap_err();
    assert_eq!(
        failure.message(),
        "arguments: expected an object, got an array"
    );
}

#[tokio::test]
async fn the_default_negotiates_2026_07_28_and_has_no_session() {
    let (executor, _server) = connect(false).await;
    assert_eq!(executor.protocol_version(), "2026-07-28");
    // 2026-07-28 is session-free: every request carries its own `_meta`.
    assert_eq!(
        executor.execute("session", &json!({})).await,
        Ok(json!("none"))
    );
}

#[tokio::test]
async fn the_initialize_handshake_keeps_the_http_session() {
    let (url, _server) = serve().await;
    let config = McpServerConfig::http("demo", url).protocol(McpProtocol::Initialize);
    let executor = McpToolExecutor::connect(config).await.unwrap();
    assert_eq!(executor.protocol_version(), "2025-11-25");
    let first = executor.execute("session", &json!({})).await.unwrap();
    let first = first.as_str().unwrap();
    assert!(
        first != "none" && !first.is_empty(),
        "the Mcp-Session-Id reaches the tool: {first}"
    );
    assert_eq!(
        executor.execute("session", &json!({})).await.unwrap(),
        first
    );
}

#[tokio::test]
async fn prefixed_names_route_to_the_server() {
    let (executor, _server) = connect(true).await;
    assert_eq!(executor.specs()[0].name, "mcp_demo_add");
    assert_eq!(
        executor
            .execute("mcp_demo_add", &json!({"a": 1, "b": 2}))
            .await,
        Ok(json!(3))
    );
    assert_eq!(
        executor.execute("add", &json!({"a": 1, "b": 2})).await,
        Ok(json!(3)),
        "bare names too"
    );
}

#[tokio::test]
async fn the_budget_bounds_the_wait_and_cancels_the_remote_call() {
    let (executor, _server) = connect(false).await;
    let out = tokio::time::timeout(
        WAIT,
        executor.execute_with_action("wait", &json!({"key": "client-timeout"}), "a-1", Some(300)),
    )
    .await
    .expect("timeout_ms bounds the wait");
    let message = out.unwrap_err();
    assert!(
        message.starts_with("tool `wait` timed out after"),
        "{message}"
    );
    wait_until_dropped("client-timeout").await;
    assert_eq!(
        executor.execute("add", &json!({"a": 1, "b": 1})).await,
        Ok(json!(2))
    );
}

/// A call dropped, or cancelled through its context, stops the tool on the server.
async fn assert_dropped_calls_stop_the_tool(executor: &McpToolExecutor, tag: &str) {
    let drop_key = format!("{tag}-drop");
    let params = json!({"key": drop_key});
    let call = executor.execute("wait", &params);
    let _ = tokio::time::timeout(Duration::from_millis(300), call).await;
    wait_until_dropped(&drop_key).await;

    let token = CancellationToken::new();
    let ctx = ToolContext::new().with_cancellation(token.clone());
    let cancel_key = format!("{tag}-cancel");
    let params = json!({"key": cancel_key});
    let (out, ()) = tokio::join!(executor.execute_with_context("wait", &params, ctx), async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        token.cancel();
    });
    assert_eq!(out.unwrap_err().kind(), FailureKind::Cancelled);
    wait_until_dropped(&cancel_key).await;
}

#[tokio::test]
async fn a_dropped_call_closes_its_stream_on_2026_07_28() {
    let (executor, _server) = connect(false).await;
    assert_eq!(executor.protocol_version(), "2026-07-28");
    assert_dropped_calls_stop_the_tool(&executor, "modern").await;
}

#[tokio::test]
async fn a_dropped_call_sends_notifications_cancelled_on_2025_11_25() {
    let (url, _server) = serve().await;
    let config = McpServerConfig::http("demo", url).protocol(McpProtocol::Initialize);
    let executor = McpToolExecutor::connect(config).await.unwrap();
    assert_dropped_calls_stop_the_tool(&executor, "legacy").await;
}

#[tokio::test]
async fn server_progress_reaches_the_callers_stream() {
    let (executor, _server) = connect(false).await;
    let rx = executor
        .execute_stream("count", &json!({"to": 4}), "a-1")
        .await
        .unwrap();
    let chunks = stream_support::drain(rx, WAIT).await;
    let fractions = stream_support::progress_fractions(&chunks);
    assert_eq!(fractions, [0.25, 0.5, 0.75, 1.0]);
    assert_eq!(
        chunks.last(),
        Some(&ToolStreamChunk::Done {
            result: Some(json!(4))
        })
    );
}

#[tokio::test]
async fn an_oversized_request_fails_and_the_server_keeps_answering() {
    let (url, _server) = serve_with(4096).await;
    let executor = McpToolExecutor::connect(McpServerConfig::http("demo", url))
        .await
        .unwrap();
    let huge = json!({"text": "x".repeat(100_000)});
    let failure = tokio::time::timeout(
        WAIT,
        executor.execute_with_context("echo", &huge, ToolContext::new()),
    )
    .await
    .expect("no hang on an oversized request")
    .unwrap_err();
    assert_eq!(failure.code(), "mcp_transport");
    assert!(
        failure.message().starts_with(
            "could not send `echo` to MCP server `demo`: unexpected server response: HTTP 413"
        ),
        "{failure}"
    );
    assert_eq!(
        executor.execute("echo", &json!({"text": "small"})).await,
        Ok(json!("small"))
    );
}

#[tokio::test]
async fn a_server_that_went_away_is_an_ordinary_failure() {
    let (executor, server) = connect(false).await;
    server.cancel();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let failure = tokio::time::timeout(
        WAIT,
        executor.execute_with_context("add", &json!({"a": 1, "b": 1}), ToolContext::new()),
    )
    .await
    .expect("no hang when the server is gone")
    .unwrap_err();
    assert!(
        !failure.is_terminal() && !failure.is_unhandled(),
        "{failure:?}"
    );
}
