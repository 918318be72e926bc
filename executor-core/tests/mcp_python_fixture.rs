//! `McpToolExecutor` against a server written with the official MCP Python SDK
//! (`tests/fixtures/mcp/py_server.py`), on stdio and streamable HTTP.
//!
//! These tests need a Python with the `mcp` package, named by `EXECUTOR_MCP_PYTHON`, so they
//! are `#[ignore]`d in a plain `cargo test`; `.ci/mcp-peer.sh` builds the venv and runs them
//! with `--ignored`.
#![cfg(all(unix, feature = "mcp"))]

mod stream_support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;
use tool_executor::mcp::{McpServerConfig, McpToolExecutor};
use tool_executor::{FailureKind, ToolContext, ToolExecutor, ToolStreamChunk};

const WAIT: Duration = Duration::from_secs(30);

fn python() -> String {
    std::env::var("EXECUTOR_MCP_PYTHON").unwrap_or_else(|_| {
        panic!("set EXECUTOR_MCP_PYTHON to a Python with the `mcp` package (.ci/mcp-peer.sh does)")
    })
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/py_server.py")
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("executor-mcp-py-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn stdio(tag: &str, prefixed: bool) -> (McpToolExecutor, PathBuf) {
    let marks = scratch(tag);
    let config = McpServerConfig::stdio("py", python())
        .arg(fixture())
        .env("EXECUTOR_FIXTURE_MARKS", &marks)
        .prefixed(prefixed);
    let executor = tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
        .await
        .expect("the Python server starts")
        .unwrap();
    (executor, marks)
}

fn alive(pid: u64) -> bool {
    let out = std::process::Command::new("ps")
        .args(["-o", "stat=", "-p", &pid.to_string()])
        .output()
        .unwrap();
    let stat = String::from_utf8_lossy(&out.stdout);
    !stat.trim().is_empty() && !stat.trim().starts_with('Z')
}

async fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    tokio::time::timeout(WAIT, async {
        while !check() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{what}"));
}

#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_PYTHON (a Python with `mcp`); run by .ci/mcp-peer.sh"]
async fn lists_and_calls_the_python_servers_tools() {
    let (executor, _) = stdio("list", false).await;
    assert_eq!(executor.protocol_version(), "2026-07-28");
    let specs = executor.specs();
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["add", "forecast", "fail", "sleep", "pid", "die"]);
    assert_eq!(specs[0].description, "Adds two integers.");
    assert_eq!(specs[0].input_schema["required"], json!(["a", "b"]));
    assert_eq!(
        specs[0].output_schema.as_ref().unwrap()["type"],
        "integer",
        "the SDK's {{result}} wrapper is removed"
    );

    assert_eq!(
        executor.execute("add", &json!({"a": 2, "b": 40})).await,
        Ok(json!(42))
    );
    assert_eq!(
        executor.execute("forecast", &json!({"city": "Oslo"})).await,
        Ok(json!({"city": "Oslo", "high": 21, "low": 12}))
    );

    let failure = executor
        .execute_with_context("fail", &json!({"reason": "x"}), ToolContext::new())
        .await
        .unwrap_err();
    assert!(
        failure.message().contains("failed on purpose: x"),
        "{failure}"
    );
    assert!(!failure.is_terminal() && !failure.is_unhandled());
    assert_eq!(failure.code(), "mcp_tool_error");

    let failure = executor
        .execute_with_context("add", &json!({"a": "x", "b": 1}), ToolContext::new())
        .await
        .unwrap_err();
    assert!(
        failure.message().contains("validation error"),
        "the SDK's message is relayed: {failure}"
    );

    let failure = executor
        .execute_with_context("missing", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.kind(), FailureKind::UnknownTool);
}

#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_PYTHON (a Python with `mcp`); run by .ci/mcp-peer.sh"]
async fn prefixed_names() {
    let (executor, _) = stdio("prefix", true).await;
    assert_eq!(executor.specs()[0].name, "mcp_py_add");
    assert_eq!(
        executor
            .execute("mcp_py_add", &json!({"a": 1, "b": 2}))
            .await,
        Ok(json!(3))
    );
}

#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_PYTHON (a Python with `mcp`); run by .ci/mcp-peer.sh"]
async fn timeout_ms_bounds_the_wait_and_the_server_sees_the_cancellation() {
    let (executor, marks) = stdio("timeout", false).await;
    let out = tokio::time::timeout(
        WAIT,
        executor.execute_with_action("sleep", &json!({"seconds": 30}), "a-1", Some(500)),
    )
    .await
    .expect("timeout_ms bounds the wait");
    assert!(out.unwrap_err().starts_with("tool `sleep` timed out after"));
    eventually(
        "the Python server never saw notifications/cancelled",
        || marks.join("cancelled").exists(),
    )
    .await;
    assert_eq!(
        executor.execute("add", &json!({"a": 1, "b": 1})).await,
        Ok(json!(2))
    );
}

#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_PYTHON (a Python with `mcp`); run by .ci/mcp-peer.sh"]
async fn progress_from_the_python_server_is_streamed() {
    let (executor, _) = stdio("progress", false).await;
    let rx = executor
        .execute_stream("sleep", &json!({"seconds": 0.2}), "a-1")
        .await
        .unwrap();
    let chunks = stream_support::drain(rx, WAIT).await;
    let fractions = stream_support::progress_fractions(&chunks);
    assert_eq!(fractions, [0.25, 0.5, 0.75, 1.0]);
    assert_eq!(
        chunks.last(),
        Some(&ToolStreamChunk::Done {
            result: Some(json!("slept 0.2"))
        })
    );
}

#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_PYTHON (a Python with `mcp`); run by .ci/mcp-peer.sh"]
async fn a_dead_server_is_restarted_on_the_next_call_and_killed_on_drop() {
    let (executor, _) = stdio("restart", false).await;
    let first = executor
        .execute("pid", &json!({}))
        .await
        .unwrap()
        .as_u64()
        .unwrap();
    let failure = executor
        .execute_with_context("die", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "mcp_transport", "{failure:?}");
    eventually("the server process exited", || !alive(first)).await;
    let second = executor
        .execute("pid", &json!({}))
        .await
        .unwrap()
        .as_u64()
        .unwrap();
    assert_ne!(first, second, "a new server process");
    assert_eq!(
        executor.execute("add", &json!({"a": 2, "b": 2})).await,
        Ok(json!(4))
    );
    drop(executor);
    eventually("dropping the executor stops its server", || !alive(second)).await;
}

#[cfg(feature = "mcp-http")]
#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_PYTHON (a Python with `mcp`); run by .ci/mcp-peer.sh"]
async fn streamable_http() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut server = tokio::process::Command::new(python())
        .arg(fixture())
        .args(["http", &port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut connected = None;
    for _ in 0..300 {
        if let Ok(executor) =
            McpToolExecutor::connect(McpServerConfig::http("py", url.clone())).await
        {
            connected = Some(executor);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let executor = connected.expect("the Python HTTP server came up");
    assert_eq!(executor.protocol_version(), "2026-07-28");
    assert_eq!(executor.specs().len(), 6);
    assert_eq!(
        executor.execute("add", &json!({"a": 20, "b": 22})).await,
        Ok(json!(42))
    );
    let failure = executor
        .execute_with_context("fail", &json!({"reason": "y"}), ToolContext::new())
        .await
        .unwrap_err();
    assert!(
        failure.message().contains("failed on purpose: y"),
        "{failure}"
    );
    let out = executor
        .execute_with_action("sleep", &json!({"seconds": 30}), "a-2", Some(300))
        .await;
    assert!(out.unwrap_err().starts_with("tool `sleep` timed out after"));
    assert_eq!(
        executor.execute("add", &json!({"a": 1, "b": 1})).await,
        Ok(json!(2))
    );
    drop(executor);
    server.kill().await.unwrap();
}
