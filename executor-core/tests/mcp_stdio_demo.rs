//! Our `McpToolExecutor` against our `examples/mcp_server` on stdio: the whole circle, with
//! the failure classification surviving the hop.
//!
//! Needs the built example, named by `EXECUTOR_MCP_DEMO_BIN`, so the tests are `#[ignore]`d in
//! a plain `cargo test`; `.ci/mcp-peer.sh` builds the example and runs them with `--ignored`.
#![cfg(all(unix, feature = "mcp"))]

use std::time::Duration;

use executor_core::mcp::{McpServerConfig, McpToolExecutor};
use executor_core::{FailureKind, ToolContext, ToolExecutor, ToolStreamChunk};
use serde_json::json;

const WAIT: Duration = Duration::from_secs(30);

async fn demo() -> McpToolExecutor {
    let bin = std::env::var("EXECUTOR_MCP_DEMO_BIN").unwrap_or_else(|_| {
        panic!(
            "set EXECUTOR_MCP_DEMO_BIN to target/debug/examples/mcp_server (.ci/mcp-peer.sh does)"
        )
    });
    let config = McpServerConfig::stdio("demo", bin).env("RUST_BACKTRACE", "0");
    tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
        .await
        .expect("the demo server starts")
        .unwrap()
}

#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_DEMO_BIN (the built mcp_server example); run by .ci/mcp-peer.sh"]
async fn every_demo_tool_through_our_own_client() {
    let demo = demo().await;
    let names: Vec<String> = demo.specs().iter().map(|s| s.name.clone()).collect();
    assert_eq!(
        names,
        ["add", "echo", "divide", "slow", "get_weather", "boom"]
    );

    assert_eq!(
        demo.execute("add", &json!({"a": 2, "b": 40})).await,
        Ok(json!(42))
    );
    assert_eq!(
        demo.execute("echo", &json!({"text": "hi"})).await,
        Ok(json!("hi"))
    );
    assert_eq!(
        demo.execute("divide", &json!({"a": 1, "b": 4})).await,
        Ok(json!(0.25))
    );
    let weather = demo
        .execute("get_weather", &json!({"city": "Paris"}))
        .await
        .unwrap();
    assert_eq!(weather["unit"], "celsius");

    let ctx = ToolContext::new;
    let failure = demo
        .execute_with_context("divide", &json!({"a": 1, "b": 0}), ctx())
        .await
        .unwrap_err();
    assert!(
        failure.is_terminal(),
        "terminal survives the hop: {failure:?}"
    );
    assert_eq!(failure.code(), "division_by_zero");

    let failure = demo
        .execute_with_context("boom", &json!({}), ctx())
        .await
        .unwrap_err();
    assert_eq!(failure.message(), "tool `boom` panicked");
    assert_eq!(failure.kind(), FailureKind::Internal);

    let failure = demo
        .execute_with_context("add", &json!({"a": "x", "b": 1}), ctx())
        .await
        .unwrap_err();
    assert_eq!(failure.kind(), FailureKind::InvalidArguments);
}

#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_DEMO_BIN (the built mcp_server example); run by .ci/mcp-peer.sh"]
async fn slow_reports_progress_and_can_be_cut_short() {
    let demo = demo().await;
    let mut rx = demo
        .execute_stream("slow", &json!({"seconds": 1}), "a-1")
        .await
        .unwrap();
    let mut progress = 0;
    let mut last = None;
    while let Some(chunk) = tokio::time::timeout(WAIT, rx.recv()).await.unwrap() {
        match chunk {
            ToolStreamChunk::Progress { .. } => progress += 1,
            other => last = Some(other),
        }
    }
    assert_eq!(progress, 10, "one progress report every 100 ms");
    assert_eq!(
        last,
        Some(ToolStreamChunk::Done {
            result: Some(json!("waited 1s"))
        })
    );

    let out = tokio::time::timeout(
        WAIT,
        demo.execute_with_action("slow", &json!({"seconds": 60}), "a-2", Some(300)),
    )
    .await
    .expect("timeout_ms bounds the wait");
    assert!(out.unwrap_err().starts_with("tool `slow` timed out after"));
    assert_eq!(
        demo.execute("add", &json!({"a": 1, "b": 1})).await,
        Ok(json!(2))
    );
}
