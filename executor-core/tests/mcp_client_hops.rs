//! A tool served by `McpServer` and used through `McpToolExecutor` (streamable HTTP on
//! loopback) keeps what makes retrying it safe or not: every hint as given, its failure codes
//! and its timeout; and a `Runtime` in front of the client retries it as it would the local
//! tool, with the caller's attempt number and idempotency key reaching the tool on the server.
#![cfg(feature = "mcp-http")]

mod hop_support;

use std::time::Duration;

use hop_support::{assert_specs_survive, quick, seen, tools};
use serde_json::json;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_executor::mcp::{McpProtocol, McpServerConfig, McpToolExecutor};
use tool_executor::runtime::{CallOptions, Runtime};

const LIMIT: Duration = Duration::from_secs(20);

/// The tools on an ephemeral port and a client of them; dropping the token's guard stops the
/// server.
async fn served() -> (tokio_util::sync::DropGuard, McpToolExecutor) {
    served_on(McpProtocol::Auto).await
}

async fn served_on(protocol: McpProtocol) -> (tokio_util::sync::DropGuard, McpToolExecutor) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let shutdown = CancellationToken::new();
    let server = tool_executor::mcp_server!(tools());
    tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
    let config = McpServerConfig::http("hops", url).protocol(protocol);
    let client = tokio::time::timeout(LIMIT, McpToolExecutor::connect(config))
        .await
        .expect("connect within the limit")
        .expect("connect");
    (shutdown.drop_guard(), client)
}

#[tokio::test]
async fn the_consuming_spec_keeps_every_hint_failure_code_and_timeout() {
    let (_server, remote) = served().await;
    assert_specs_survive(&remote);
}

#[tokio::test]
async fn a_runtime_does_not_retry_a_remote_non_idempotent_tool() {
    let (_server, remote) = served().await;
    let runtime = Runtime::new(remote).with_retry(quick());
    let failure = runtime
        .call("book", &json!({"run": "mcp-book"}))
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "busy");
    assert_eq!(seen("mcp-book").len(), 1, "the remote tool is tried once");
}

#[tokio::test]
async fn a_remote_tool_sees_the_callers_attempt_and_key() {
    // 2026-07-28 (per-request `_meta` of its own) and the 2025-11-25 session alike.
    for protocol in [McpProtocol::Discover, McpProtocol::Initialize] {
        let (_server, remote) = served_on(protocol).await;
        let runtime = Runtime::new(remote).with_retry(quick());
        let options = CallOptions::new().with_idempotency_key("order-42-mcp");
        let run = format!("mcp-seats-key-{protocol:?}");
        let args = json!({"run": run, "busy": 2});
        let done = runtime.call_with("seats", &args, options).await.unwrap();
        assert_eq!(done.output, json!(7));
        let key = Some("order-42-mcp".to_owned());
        assert_eq!(
            seen(&run),
            [(1, key.clone()), (2, key.clone()), (3, key)],
            "{protocol:?}"
        );
    }
}

#[tokio::test]
async fn a_key_the_runtime_makes_reaches_every_remote_attempt_unchanged() {
    let (_server, remote) = served().await;
    let runtime = Runtime::new(remote).with_retry(quick());
    let args = json!({"run": "mcp-seats-minted", "busy": 1});
    runtime.call("seats", &args).await.unwrap();
    let seen = seen("mcp-seats-minted");
    assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), [1, 2]);
    let key = seen[0].1.clone().expect("a key on the first attempt");
    assert_eq!(seen[1].1.as_deref(), Some(key.as_str()));
}
