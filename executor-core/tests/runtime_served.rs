//! A `Runtime` served over MCP: the served tool gets retries with no code of its own.
#![cfg(feature = "mcp")]

mod runtime_support;

use std::time::Duration;

use runtime_support::{Script, fail, ok};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tool_executor::ToolFailure;
use tool_executor::mcp::McpServer;
use tool_executor::runtime::{RetryPolicy, Runtime};

#[tokio::test]
async fn an_mcp_server_over_a_runtime_retries_the_tools_it_serves() {
    let busy = ToolFailure::ordinary("busy").with_retry_after(Duration::from_millis(20));
    let script = Script::new("flaky", [fail(busy), ok(json!(42))]);
    let runtime = Runtime::from_shared(script.clone())
        .with_retry(RetryPolicy::exponential(Duration::from_millis(1)));
    let (client, server_end) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(McpServer::new(runtime).serve_io(server_read, server_write));
    let (read, mut write) = tokio::io::split(client);
    let mut lines = BufReader::new(read).lines();

    let messages = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "runtime-test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "flaky", "arguments": {}}}),
    ];
    for message in messages {
        write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    let reply = loop {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("the server answers")
            .unwrap()
            .expect("the pipe stays open");
        let message: Value = serde_json::from_str(&line).unwrap();
        if message["id"] == json!(1) {
            break message;
        }
    };
    assert_eq!(reply["result"]["isError"], json!(false));
    assert_eq!(reply["result"]["content"][0]["text"], json!("42"));
    assert_eq!(script.attempts(), [1, 2]);
}
