//! `SubprocessToolExecutor` against real processes: small `sh` scripts in
//! `tests/fixtures/subprocess/`. Unix only (process groups, `/proc`-free liveness checks).
#![cfg(all(unix, feature = "subprocess"))]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tool_executor::subprocess::{SubprocessTool, SubprocessToolExecutor};
use tool_executor::{FailureKind, ToolContext, ToolExecutor, ToolFailure, ToolSpec};

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/subprocess")
        .join(name)
}

fn sh(name: &str) -> SubprocessTool {
    SubprocessTool::new("sh").arg(script(name))
}

fn scratch(tag: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("executor-subprocess-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether `pid` is still a running process. A zombie (killed, not yet reaped by whatever
/// parent it was handed to) counts as dead.
fn alive(pid: u32) -> bool {
    let Ok(status) = std::process::Command::new("ps")
        .args(["-o", "stat=", "-p", &pid.to_string()])
        .output()
    else {
        panic!("`ps` is needed to check process liveness");
    };
    let stat = String::from_utf8_lossy(&status.stdout);
    let stat = stat.trim();
    !stat.is_empty() && !stat.starts_with('Z')
}

/// Waits (up to 10 s, only to avoid hanging) for every pid to be gone.
async fn assert_gone(pids: &[u32]) {
    for _ in 0..200 {
        if pids.iter().all(|&p| !alive(p)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let left: Vec<u32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    panic!("processes outlived their call: {left:?}");
}

/// Reads the pids a script recorded, waiting for it to start.
async fn pids_in(file: &Path) -> Vec<u32> {
    for _ in 0..200 {
        if let Ok(text) = std::fs::read_to_string(file) {
            return text
                .split_whitespace()
                .map(|p| p.parse().unwrap())
                .collect();
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the script never wrote {}", file.display());
}

#[tokio::test]
async fn good_script_gets_one_request_line_and_answers() {
    let tools = SubprocessToolExecutor::new()
        .with_tool("greet", sh("good.sh").arg("--flag").env("GREETING", "hej"));
    let params = json!({"name": "Ada", "tags": ["x", "y"]});
    let out = tools.execute("greet", &params).await.unwrap();
    assert_eq!(out["request"]["method"], "greet");
    assert_eq!(out["request"]["params"], params);
    assert_eq!(out["request"]["jsonrpc"], "2.0");
    assert!(out["request"]["id"].is_u64());
    assert_eq!(out["argv"], "--flag", "params never go on argv");
    assert_eq!(out["greeting"], "hej");
}

#[tokio::test]
async fn specs_list_registered_tools_in_order() {
    let spec = ToolSpec::new(
        "ignored",
        "Greets.",
        json!({"type": "object", "properties": {"name": {"type": "string"}}}),
    );
    let tools = SubprocessToolExecutor::new()
        .with_tool(
            "greet",
            sh("good.sh").spec(spec).timeout(Duration::from_secs(2)),
        )
        .with_tool("junk", sh("garbage.sh"));
    let specs = tools.specs();
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["greet", "junk"]);
    assert_eq!(specs[0].description, "Greets.");
    assert_eq!(specs[0].timeout, Some(Duration::from_secs(2)));
    assert_eq!(specs[1].input_schema, json!({"type": "object"}));
}

#[tokio::test]
async fn timeout_kills_the_process_group() {
    let dir = scratch("timeout");
    let pidfile = dir.join("pids");
    let tool = sh("slow.sh")
        .arg(&pidfile)
        .arg("300")
        .timeout(Duration::from_millis(400));
    let tools = SubprocessToolExecutor::new().with_tool("slow", tool);
    let failure = tools
        .execute_with_context("slow", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.kind(), FailureKind::Timeout, "{failure:?}");
    assert_eq!(failure.message(), "tool `slow` timed out after 400ms");
    let pids = pids_in(&pidfile).await;
    assert_eq!(pids.len(), 2, "the script and its background child");
    assert_gone(&pids).await;
}

#[tokio::test]
async fn the_wait_is_the_larger_of_tool_timeout_and_budget() {
    let dir = scratch("budget");
    // The tool's own limit (200 ms) is shorter than the script (1 s); the call's budget
    // (20 s) is what bounds the wait, so the call succeeds (car#266).
    let tool = sh("slow.sh")
        .arg(dir.join("pids"))
        .arg("1")
        .timeout(Duration::from_millis(200));
    let tools = SubprocessToolExecutor::new().with_tool("slow", tool);
    let out = tools
        .execute_with_action("slow", &json!({}), "a-1", Some(20_000))
        .await;
    assert_eq!(out, Ok(json!("done")));
}

#[tokio::test]
async fn a_dropped_call_kills_the_process_group() {
    let dir = scratch("drop");
    let pidfile = dir.join("pids");
    let tools =
        SubprocessToolExecutor::new().with_tool("slow", sh("slow.sh").arg(&pidfile).arg("300"));
    let params = json!({});
    let call = tools.execute("slow", &params);
    let outcome = tokio::time::timeout(Duration::from_secs(60), async {
        tokio::select! {
            _ = call => panic!("the slow script answered"),
            pids = pids_in(&pidfile) => pids,
        }
    })
    .await
    .unwrap();
    // The `select!` dropped the call future.
    assert_gone(&outcome).await;
}

#[tokio::test]
async fn cancellation_kills_the_process_group() {
    let dir = scratch("cancel");
    let pidfile = dir.join("pids");
    let tools =
        SubprocessToolExecutor::new().with_tool("slow", sh("slow.sh").arg(&pidfile).arg("300"));
    let token = CancellationToken::new();
    let ctx = ToolContext::new().with_cancellation(token.clone());
    let params = json!({});
    let call = tools.execute_with_context("slow", &params, ctx);
    let cancel = async {
        let pids = pids_in(&pidfile).await;
        token.cancel();
        pids
    };
    let (outcome, pids) = tokio::join!(call, cancel);
    let failure = outcome.unwrap_err();
    assert_eq!(failure.kind(), FailureKind::Cancelled);
    assert_gone(&pids).await;
}

#[tokio::test]
async fn background_children_do_not_outlive_a_successful_call() {
    let dir = scratch("leaky");
    let pidfile = dir.join("pid");
    let tools = SubprocessToolExecutor::new().with_tool("leaky", sh("leaky.sh").arg(&pidfile));
    let out = tokio::time::timeout(Duration::from_secs(20), tools.execute("leaky", &json!({})))
        .await
        .expect("a background child holding stdout must not stall the call");
    assert_eq!(out, Ok(json!("answered")));
    assert_gone(&pids_in(&pidfile).await).await;
}

#[tokio::test]
async fn garbage_on_stdout_is_a_clear_failure() {
    let tools = SubprocessToolExecutor::new().with_tool("junk", sh("garbage.sh"));
    let failure = tools
        .execute_with_context("junk", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "subprocess_protocol");
    assert!(!failure.is_terminal());
    assert!(
        failure
            .message()
            .starts_with("invalid JSON-RPC response from subprocess tool `junk`: expected ident"),
        "{failure}"
    );
    assert!(
        failure.message().contains("(stdout: this is not json)"),
        "{failure}"
    );
    assert!(
        failure.message().ends_with("; stderr: a warning on stderr"),
        "{failure}"
    );
}

#[tokio::test]
async fn non_zero_exit_reports_bounded_stderr() {
    let tools =
        SubprocessToolExecutor::new().with_tool("db", sh("exit_nonzero.sh").max_stderr_bytes(64));
    let failure = tools
        .execute_with_context("db", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    let message = failure.message();
    assert_eq!(failure.code(), "subprocess_exit");
    assert!(
        message.starts_with(
            "subprocess tool `db` exited with exit status: 3; stderr: fatal: the database is locked"
        ),
        "{message}"
    );
    assert!(message.ends_with("more bytes)"), "{message}");
    assert!(
        message.len() < 300,
        "stderr is bounded: {} bytes",
        message.len()
    );
}

#[tokio::test]
async fn oversized_stdout_is_a_clear_failure_and_stops_the_process() {
    let tools =
        SubprocessToolExecutor::new().with_tool("flood", sh("flood.sh").max_stdout_bytes(4096));
    let failure = tokio::time::timeout(
        Duration::from_secs(20),
        tools.execute_with_context("flood", &json!({}), ToolContext::new()),
    )
    .await
    .expect("an endless writer is stopped at the bound")
    .unwrap_err();
    assert_eq!(
        failure.message(),
        "subprocess tool `flood` wrote more than 4096 bytes to stdout"
    );
}

#[tokio::test]
async fn json_rpc_errors_keep_their_message_and_classification() {
    let tools = SubprocessToolExecutor::new().with_tool("quota", sh("error.sh"));
    let failure = tools
        .execute_with_context("quota", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.message(), "quota exhausted");
    assert!(failure.is_terminal());
    assert_eq!(failure.code(), "quota");
    // The seed's string layer sees the message.
    assert_eq!(
        tools.execute("quota", &json!({})).await,
        Err("quota exhausted".to_owned())
    );
}

#[tokio::test]
async fn a_missing_program_is_a_failure_not_a_panic() {
    let tools = SubprocessToolExecutor::new()
        .with_tool("ghost", SubprocessTool::new("/nonexistent/tool-binary"));
    let failure = tools
        .execute_with_context("ghost", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "subprocess_spawn");
    assert!(
        failure
            .message()
            .starts_with("subprocess tool `ghost`: could not start /nonexistent/tool-binary"),
        "{failure}"
    );
}

#[tokio::test]
async fn unknown_tools_are_unhandled_or_go_to_the_fallback() {
    let tools = SubprocessToolExecutor::new().with_tool("greet", sh("good.sh"));
    let failure = tools
        .execute_with_context("nope", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert!(failure.is_unhandled());
    assert_eq!(failure, ToolFailure::unknown_tool("nope"));

    let fallback = SubprocessToolExecutor::new().with_tool("nope", sh("good.sh"));
    let tools = tools.with_fallback(Arc::new(fallback));
    let out: Value = tools.execute("nope", &json!({"k": 1})).await.unwrap();
    assert_eq!(out["request"]["method"], "nope");
}

#[tokio::test]
async fn every_call_is_its_own_process_with_its_own_id() {
    let tools = SubprocessToolExecutor::new().with_tool("greet", sh("good.sh"));
    let (one, two) = (json!({"n": 1}), json!({"n": 2}));
    let (a, b) = tokio::join!(tools.execute("greet", &one), tools.execute("greet", &two));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(
        (
            a["request"]["params"]["n"].clone(),
            b["request"]["params"]["n"].clone()
        ),
        (json!(1), json!(2))
    );
    assert_ne!(a["request"]["id"], b["request"]["id"]);
}
