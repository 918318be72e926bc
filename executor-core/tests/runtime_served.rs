//! A `Runtime` served over MCP and as an A2A `ToolAgent`: the served tools get retries and
//! limits with no code of their own.
#![cfg(any(feature = "mcp", feature = "a2a"))]

#[cfg(feature = "a2a")]
mod a2a_support;
mod runtime_support;

use std::time::Duration;

#[cfg(feature = "a2a")]
use runtime_support::after;
use runtime_support::{Script, fail, ok};
use serde_json::{Value, json};
#[cfg(feature = "mcp")]
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tool_executor::ToolFailure;
use tool_executor::runtime::{RetryPolicy, Runtime};

#[cfg(feature = "mcp")]
#[tokio::test]
async fn an_mcp_server_over_a_runtime_retries_the_tools_it_serves() {
    let busy = ToolFailure::ordinary("busy").with_retry_after(Duration::from_millis(20));
    let script = Script::repeatable("flaky", [fail(busy), ok(json!(42))]);
    let runtime = Runtime::from_shared(script.clone())
        .with_retry(RetryPolicy::exponential(Duration::from_millis(1)));
    let (client, server_end) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(tool_executor::mcp::McpServer::new(runtime).serve_io(server_read, server_write));
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

#[cfg(feature = "a2a")]
async fn serve_a2a(runtime: Runtime) -> tool_executor::agent::RunningAgent {
    let agent = tool_executor::agent::ToolAgent::new(runtime).with_name("Retrying");
    tool_executor::agent::AgentServer::bind("127.0.0.1:0", agent)
        .await
        .expect("bind")
        .spawn()
}

#[cfg(feature = "a2a")]
async fn send(addr: std::net::SocketAddr, tool: &str) -> Value {
    let params = a2a_support::send_params(&json!([{ "data": { "tool": tool, "arguments": {} } }]));
    a2a_support::rpc(addr, "SendMessage", params).await["task"].clone()
}

#[cfg(feature = "a2a")]
#[tokio::test]
async fn a_tool_agent_over_a_runtime_retries_the_tools_it_serves() {
    let busy = ToolFailure::ordinary("busy").with_retry_after(Duration::from_millis(20));
    let script = Script::repeatable("flaky", [fail(busy.clone()), fail(busy), ok(json!(42))]);
    let runtime = Runtime::from_shared(script.clone())
        .with_retry(RetryPolicy::exponential(Duration::from_millis(1)));
    let server = serve_a2a(runtime).await;
    let task = send(server.local_addr(), "flaky").await;
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{task}");
    assert_eq!(task["artifacts"][0]["parts"], json!([{"data": 42}]));
    assert_eq!(script.attempts(), [1, 2, 3]);
    // The task's id reached every attempt as the action id.
    let seen = script.seen.lock().unwrap().clone();
    assert!(
        seen.iter()
            .all(|s| s.action_id == task["id"].as_str().unwrap())
    );
}

#[cfg(feature = "a2a")]
#[tokio::test]
async fn a_tool_agent_over_a_runtime_applies_its_time_and_concurrency_limits() {
    let script = Script::repeatable("slow", [after(Duration::from_secs(60), ok(json!(1)))]);
    let runtime = Runtime::from_shared(script.clone())
        .with_retry(RetryPolicy::exponential(Duration::from_millis(1)).max_attempts(2))
        .with_attempt_timeout(Duration::from_millis(50))
        .with_tool_concurrency("slow", 1);
    let server = serve_a2a(runtime).await;
    let addr = server.local_addr();
    let (first, second) = tokio::join!(send(addr, "slow"), send(addr, "slow"));
    for task in [first, second] {
        assert_eq!(task["status"]["state"], "TASK_STATE_FAILED", "{task}");
        let message = &task["status"]["message"];
        assert_eq!(message["metadata"]["code"], "attempt_timeout", "{task}");
        assert_eq!(
            message["parts"][0]["text"],
            "tool `slow` timed out: the per-attempt limit of 50ms ran out"
        );
    }
    // Two calls of two attempts each, never two at once.
    let mut attempts = script.attempts();
    attempts.sort_unstable();
    assert_eq!(attempts, [1, 1, 2, 2]);
    assert_eq!(
        script
            .most_running
            .load(std::sync::atomic::Ordering::SeqCst),
        1
    );
    assert_eq!(script.dropped.load(std::sync::atomic::Ordering::SeqCst), 4);
}
