//! `McpToolExecutor` against a task server nobody here wrote: `FastMCP` 4.1.4 with
//! `fastmcp-tasks` 4.1.4 (`tests/peers/mcp/fastmcp_task_server.py`, `task=…` tools on an
//! in-memory docket), on stdio and stateless streamable HTTP. Our client declares the tasks
//! extension, `FastMCP` answers with a task, and the caller gets the tool's result as a plain
//! call would give it.
//!
//! These tests need a Python with `fastmcp-tasks`, named by `EXECUTOR_FASTMCP_PYTHON`, so they
//! are `#[ignore]`d in a plain `cargo test`; `.ci/fastmcp-peer.sh` builds the venv and runs
//! them with `--ignored`.
#![cfg(all(unix, feature = "mcp"))]

mod stream_support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;
use tool_executor::mcp::{McpServerConfig, McpToolExecutor};
use tool_executor::{FailureKind, ToolContext, ToolExecutor, ToolStreamChunk};

const WAIT: Duration = Duration::from_secs(30);

fn python() -> String {
    std::env::var("EXECUTOR_FASTMCP_PYTHON").unwrap_or_else(|_| {
        panic!(
            "set EXECUTOR_FASTMCP_PYTHON to a Python with `fastmcp-tasks` (.ci/fastmcp-peer.sh does)"
        )
    })
}

fn server_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/mcp/fastmcp_task_server.py")
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "executor-fastmcp-tasks-{}-{tag}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names of the `cancel-<taskId>` marks the server left in `marks`.
fn cancelled_tasks(marks: &Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(marks)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_prefix("cancel-").map(str::to_owned)
        })
        .collect();
    ids.sort();
    ids
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

/// Every check against one connected server, whose marks go to `marks`.
async fn tasks_as_plain_calls(executor: &McpToolExecutor, marks: &Path) {
    assert_eq!(executor.protocol_version(), "2026-07-28");
    let names: Vec<String> = executor.specs().iter().map(|s| s.name.clone()).collect();
    assert_eq!(names, ["tally", "summary", "refuse", "forever", "add"]);

    // A plain tool, for comparison: FastMCP's structured content for an integer is
    // `{"result": 42}` (its own wrapping, which our client passes on as it is).
    let plain = executor.execute("add", &json!({"a": 20, "b": 22})).await;
    assert_eq!(plain, Ok(json!({"result": 42})));

    // `task=True` (optional): a task because we declared the extension; the same shape back.
    let sum = executor.execute("tally", &json!({"n": 5})).await;
    assert_eq!(sum, Ok(json!({"result": 15})));

    // Required: without the extension this is -32021, so it only answers through a task.
    let summary = executor
        .execute("summary", &json!({"topic": "long running tools"}))
        .await;
    assert_eq!(
        summary,
        Ok(json!({"topic": "long running tools", "words": 3}))
    );

    // The task's status messages (FastMCP's `report_progress` inside a task) come through as
    // progress chunks, then the result.
    let rx = executor
        .execute_stream("tally", &json!({"n": 30}), "t-1")
        .await
        .unwrap();
    let chunks = stream_support::drain(rx, WAIT).await;
    let messages: Vec<&str> = chunks
        .iter()
        .filter_map(|c| match c {
            ToolStreamChunk::Progress {
                message: Some(m), ..
            } => Some(m.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        !messages.is_empty() && messages.iter().all(|m| m.starts_with("added ")),
        "status messages as progress: {chunks:?}"
    );
    assert_eq!(
        chunks.last(),
        Some(&ToolStreamChunk::Done {
            result: Some(json!({"result": 465}))
        })
    );

    // A tool error inside the task: the task completes with `isError`, and the call fails
    // with the tool's message, as a direct call's `isError` result would.
    let refused = executor
        .execute_with_context("refuse", &json!({"why": "no"}), ToolContext::new())
        .await
        .unwrap_err();
    assert!(refused.message().contains("refused: no"), "{refused}");

    // A call we stop waiting for sends `tasks/cancel` for its task.
    assert!(cancelled_tasks(marks).is_empty());
    let ctx = ToolContext::new().with_timeout(Duration::from_millis(300));
    let outcome = executor
        .execute_with_context("forever", &json!({}), ctx)
        .await;
    assert_eq!(outcome.unwrap_err().kind(), FailureKind::Timeout);
    eventually("the task ran", || marks.join("started").exists()).await;
    eventually("tasks/cancel reached FastMCP", || {
        cancelled_tasks(marks).len() == 1
    })
    .await;
    assert!(!cancelled_tasks(marks)[0].is_empty());

    // The connection is still good.
    let again = executor.execute("tally", &json!({"n": 3})).await;
    assert_eq!(again, Ok(json!({"result": 6})));
}

#[tokio::test]
#[ignore = "needs EXECUTOR_FASTMCP_PYTHON (a Python with `fastmcp-tasks`); run by .ci/fastmcp-peer.sh"]
async fn fastmcp_task_tools_over_stdio_answer_as_plain_calls() {
    let marks = scratch("stdio");
    let config = McpServerConfig::stdio("fastmcp", python())
        .arg(server_script())
        .env("EXECUTOR_FIXTURE_MARKS", &marks);
    let executor = tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
        .await
        .expect("the FastMCP server starts")
        .unwrap();
    tasks_as_plain_calls(&executor, &marks).await;
}

#[cfg(feature = "mcp-http")]
#[tokio::test]
#[ignore = "needs EXECUTOR_FASTMCP_PYTHON (a Python with `fastmcp-tasks`); run by .ci/fastmcp-peer.sh"]
async fn fastmcp_task_tools_over_stateless_http_answer_as_plain_calls() {
    let marks = scratch("http");
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut server = tokio::process::Command::new(python())
        .arg(server_script())
        .args(["http", &port.to_string()])
        .env("EXECUTOR_FIXTURE_MARKS", &marks)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut connected = None;
    for _ in 0..300 {
        if let Ok(executor) =
            McpToolExecutor::connect(McpServerConfig::http("fastmcp", url.clone())).await
        {
            connected = Some(executor);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let executor = connected.expect("the FastMCP HTTP server came up");
    tasks_as_plain_calls(&executor, &marks).await;
    drop(executor);
    server.kill().await.unwrap();
}
