//! Our `McpToolExecutor` against our `examples/mcp_server` on stdio: the whole circle, with
//! the failure classification surviving the hop, and the server's lifetime: started through a
//! `sh -c` wrapper (as `npx` and `uv run` are), its whole process group goes when the executor
//! is dropped, when the handshake times out and when the server exits.
//!
//! Most need the built example, named by `EXECUTOR_MCP_DEMO_BIN`, so they are `#[ignore]`d in
//! a plain `cargo test`; `.ci/mcp-peer.sh` builds the example and runs them with `--ignored`.
//! Leftover processes are counted in `/proc`, so the lifetime tests are Linux-only.
#![cfg(all(unix, feature = "mcp"))]

use std::path::PathBuf;
use std::time::Duration;

use serde_json::json;
use tool_executor::mcp::{McpServerConfig, McpToolExecutor};
use tool_executor::{FailureKind, ToolContext, ToolExecutor, ToolStreamChunk};

const WAIT: Duration = Duration::from_secs(30);

fn demo_bin() -> String {
    std::env::var("EXECUTOR_MCP_DEMO_BIN").unwrap_or_else(|_| {
        panic!(
            "set EXECUTOR_MCP_DEMO_BIN to target/debug/examples/mcp_server (.ci/mcp-peer.sh does)"
        )
    })
}

async fn demo() -> McpToolExecutor {
    let config = McpServerConfig::stdio("demo", demo_bin()).env("RUST_BACKTRACE", "0");
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
        [
            "add",
            "echo",
            "divide",
            "slow",
            "report",
            "get_weather",
            "boom"
        ]
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
        .execute_with_context("add", &json!({"a": i64::MAX, "b": 1}), ctx())
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "overflow");
    assert!(failure.is_terminal(), "{failure:?}");
    assert_eq!(
        failure.message(),
        "overflow: the sum does not fit in a 64-bit signed integer"
    );

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

/// A file for the wrapper to write its pid and its process group id into.
fn pid_file(tag: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("executor-mcp-{}-{tag}.pid", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// `sh -c script pid_file`: the script sees the pid file as `$0` and the demo as `$DEMO`, and
/// `record FILE` writes `pid pgid` (its own, from `/proc`) into FILE.
fn wrapped(script: &str, pid_file: &PathBuf) -> McpServerConfig {
    let record = r#"record() { read -r _ _ _ _ g _ < /proc/$$/stat; echo "$$ $g" > "$1"; }; "#;
    McpServerConfig::stdio("demo", "sh")
        .args(["-c", &format!("{record}{script}")])
        .arg(pid_file)
        .env(
            "DEMO",
            std::env::var_os("EXECUTOR_MCP_DEMO_BIN").unwrap_or_default(),
        )
        .env("RUST_BACKTRACE", "0")
}

/// Waits for the wrapper to write its pid and group id (`record`), and returns both. The group
/// is led by the executor's supervisor (`transport/process_group.rs`), not by the wrapper.
async fn recorded(pid_file: &PathBuf) -> (i32, i32) {
    tokio::time::timeout(WAIT, async {
        loop {
            let text = std::fs::read_to_string(pid_file).unwrap_or_default();
            if let Some((Ok(pid), Ok(group))) = text
                .split_once(' ')
                .map(|(pid, group)| (pid.parse(), group.trim().parse()))
            {
                return (pid, group);
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the wrapper writes its pid")
}

/// Waits for the wrapper to write its group id.
async fn group_of(pid_file: &PathBuf) -> i32 {
    recorded(pid_file).await.1
}

/// The live (not zombie) processes in process group `group`, from `/proc/<pid>/stat`.
#[cfg(target_os = "linux")]
fn members(group: i32) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue; // gone meanwhile
        };
        // `pid (comm) state ppid pgrp …`; comm may hold spaces, so split after the `)`.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.first() != Some(&"Z") && fields.get(2).and_then(|g| g.parse().ok()) == Some(group)
        {
            found.push(pid);
        }
    }
    found
}

/// Waits until nothing is left in group `pgid`.
#[cfg(target_os = "linux")]
async fn assert_group_gone(pgid: i32, when: &str) {
    let gone = tokio::time::timeout(WAIT, async {
        while !members(pgid).is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(
        gone.is_ok(),
        "{when}: processes left in group {pgid}: {:?}",
        members(pgid)
    );
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_server_that_never_answers_initialize_is_given_up_and_killed() {
    let pids = pid_file("silent");
    // Reads nothing, answers nothing; a background child keeps the group busy.
    let config = wrapped(r#"record "$0"; sleep 600 & wait"#, &pids)
        .handshake_timeout(Duration::from_millis(300));
    let started = std::time::Instant::now();
    let outcome = tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
        .await
        .expect("the handshake timeout bounds connect");
    let error = outcome.unwrap_err().to_string();
    assert_eq!(
        error,
        "MCP server `demo`: no answer to the handshake and `tools/list` within 300 ms (the \
         handshake timeout)"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_group_gone(group_of(&pids).await, "after the handshake timeout").await;
}

#[cfg(target_os = "linux")]
#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_DEMO_BIN (the built mcp_server example); run by .ci/mcp-peer.sh"]
async fn dropping_the_executor_kills_the_wrapper_and_everything_it_started() {
    demo_bin();
    let pids = pid_file("drop");
    // `sh` stays the parent (a command follows the demo), with a background child beside it.
    let config = wrapped(r#"record "$0"; sleep 600 & "$DEMO"; exit $?"#, &pids);
    let demo = tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        demo.execute("add", &json!({"a": 2, "b": 40})).await,
        Ok(json!(42))
    );
    let group = group_of(&pids).await;
    assert_eq!(
        members(group).len(),
        4,
        "the supervisor, sh, sleep and the demo"
    );
    drop(demo);
    assert_group_gone(group, "after dropping the executor").await;
}

#[cfg(target_os = "linux")]
#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_DEMO_BIN (the built mcp_server example); run by .ci/mcp-peer.sh"]
async fn a_server_that_exits_takes_its_group_and_the_next_call_restarts_it() {
    demo_bin();
    let pids = pid_file("exit");
    // The demo replaces the shell, so the recorded pid is the server itself.
    let config = wrapped(r#"record "$0"; sleep 600 & exec "$DEMO""#, &pids);
    let demo = tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
        .await
        .unwrap()
        .unwrap();
    let (server, first) = recorded(&pids).await;
    assert_eq!(
        members(first).len(),
        3,
        "the supervisor, the demo and sleep"
    );
    std::fs::remove_file(&pids).unwrap();
    let killed = std::process::Command::new("kill")
        .args(["-9", &server.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_group_gone(first, "after the server exited").await;

    let sum = tokio::time::timeout(WAIT, async {
        loop {
            // The first call may still meet the dead connection; the next one restarts.
            if let Ok(sum) = demo.execute("add", &json!({"a": 1, "b": 1})).await {
                return sum;
            }
        }
    })
    .await
    .expect("a call restarts the server");
    assert_eq!(sum, json!(2));
    let second = group_of(&pids).await;
    assert_ne!(second, first);
    drop(demo);
    assert_group_gone(second, "after dropping the restarted executor").await;
}

#[cfg(target_os = "linux")]
#[tokio::test]
#[ignore = "needs EXECUTOR_MCP_DEMO_BIN (the built mcp_server example); run by .ci/mcp-peer.sh"]
async fn a_restart_that_never_answers_is_bounded_by_the_handshake_timeout() {
    demo_bin();
    let pids = pid_file("restart");
    let first_pid = PathBuf::from(format!("{}.first", pids.display()));
    let _ = std::fs::remove_file(&first_pid);
    // The first start is the demo; any later start never answers.
    let script = r#"if [ -e "$0.first" ]; then record "$0"; sleep 600 & wait;
        else record "$0.first"; exec "$DEMO"; fi"#;
    let config = wrapped(script, &pids).handshake_timeout(Duration::from_millis(300));
    let demo = tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
        .await
        .unwrap()
        .unwrap();
    let (server, first) = recorded(&first_pid).await;
    let killed = std::process::Command::new("kill")
        .args(["-9", &server.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_group_gone(first, "after the server exited").await;

    let failure = tokio::time::timeout(WAIT, async {
        loop {
            // The first call may still meet the dead connection; the next one restarts.
            let args = json!({"a": 1, "b": 1});
            match demo
                .execute_with_context("add", &args, ToolContext::new())
                .await
            {
                Err(failure) if failure.code() == "mcp_unavailable" => return failure,
                _ => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    })
    .await
    .expect("the restart is bounded");
    assert!(
        failure
            .message()
            .ends_with("within 300 ms (the handshake timeout)"),
        "{failure:?}"
    );
    assert_group_gone(group_of(&pids).await, "after the restart timed out").await;
}
