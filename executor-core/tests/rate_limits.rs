//! Rate limits per caller and per tool: the same `RateLimit` in front of an executor, inside a
//! `Runtime` (whose retry waits out the refusal), and on the MCP and A2A servers; a refused
//! call fails before the tool runs with code `rate_limited` and a retry hint.
#![allow(clippy::result_large_err)]

#[cfg(feature = "a2a")]
mod a2a_support;
#[cfg(feature = "mcp")]
mod stdio_support;

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::json;
use tool_executor::auth::Principal;
use tool_executor::prelude::*;
use tool_executor::runtime::{CallOptions, Quota, RateLimit, RateLimited, RetryPolicy, Runtime};

static RUNS: AtomicU32 = AtomicU32::new(0);

/// Counts its runs.
#[tool(idempotent)]
fn tick() -> u32 {
    RUNS.fetch_add(1, Ordering::SeqCst) + 1
}

/// Reads a note.
#[tool(read_only)]
fn read_note(id: u32) -> u32 {
    id
}

fn as_user(name: &str) -> ToolContext {
    ToolContext::new().with_extension(Principal::new(name))
}

#[tokio::test(start_paused = true)]
async fn each_caller_has_its_own_bucket_per_tool_and_refusals_say_when_to_come_back() {
    let limit = RateLimit::new(Quota::per_minute(2)).with_tool("read_note", Quota::per_second(1));
    let tools = RateLimited::new(toolset![tick, read_note], limit);
    let none = json!({});
    for _ in 0..2 {
        tools
            .execute_with_context("tick", &none, as_user("alice"))
            .await
            .unwrap();
    }
    let runs = RUNS.load(Ordering::SeqCst);
    let refused = tools
        .execute_with_context("tick", &none, as_user("alice"))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), "rate_limited");
    assert!(!refused.is_terminal());
    assert_eq!(refused.retry_after(), Some(Duration::from_secs(30)));
    assert!(
        refused
            .message()
            .contains("`alice` may call `tick` 2 times per 60000 ms"),
        "{}",
        refused.message()
    );
    assert_eq!(
        RUNS.load(Ordering::SeqCst),
        runs,
        "the refused call did not run the tool"
    );
    // Bob's bucket is his own; alice's other tool has its own quota.
    tools
        .execute_with_context("tick", &none, as_user("bob"))
        .await
        .unwrap();
    let note_one = json!({"id": 1});
    tools
        .execute_with_context("read_note", &note_one, as_user("alice"))
        .await
        .unwrap();
    let again = tools
        .execute_with_context("read_note", &note_one, as_user("alice"))
        .await
        .unwrap_err();
    assert_eq!(again.retry_after(), Some(Duration::from_secs(1)));
    tokio::time::advance(Duration::from_secs(1)).await;
    tools
        .execute_with_context("read_note", &note_one, as_user("alice"))
        .await
        .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_runtime_retries_a_refused_attempt_after_the_hint() {
    let runtime = Runtime::new(toolset![read_note])
        .with_rate_limit(RateLimit::new(Quota::per_second(1)))
        .with_retry(RetryPolicy::exponential(Duration::from_millis(10)));
    let options = || CallOptions::new().with_extension(Principal::new("carol"));
    let args = json!({"id": 7});
    let (first, report) = runtime
        .call_with_report("read_note", &args, options())
        .await;
    assert_eq!(first.unwrap().output, json!(7));
    assert_eq!(report.attempts, 1);
    let (second, report) = runtime
        .call_with_report("read_note", &args, options())
        .await;
    assert_eq!(second.unwrap().output, json!(7));
    assert_eq!(
        report.attempts, 2,
        "the first attempt was refused, the retry waited"
    );
    assert!(
        report.waited >= Duration::from_secs(1),
        "{:?}",
        report.waited
    );
}

#[cfg(feature = "mcp")]
#[tokio::test]
async fn an_mcp_server_answers_a_refused_call_as_a_tool_error_with_the_hint() {
    use stdio_support::StdioClient;
    use tool_executor::mcp::McpServer;

    let server = McpServer::new(toolset![read_note])
        .with_extension(Principal::new("dave"))
        .with_rate_limit(RateLimit::new(Quota::per_minute(1)));
    let mut client = StdioClient::start(server, "rate-test").await;
    let first = client
        .call(1, "read_note", json!({"id": 1}), json!({}))
        .await;
    assert_eq!(first["isError"], false, "{first}");
    let second = client
        .call(2, "read_note", json!({"id": 2}), json!({}))
        .await;
    let refused = &second;
    assert_eq!(refused["isError"], true, "{refused}");
    let failure = &refused["_meta"]["executor/failure"];
    assert_eq!(failure["code"], "rate_limited", "{refused}");
    assert!(
        failure["retry_after_ms"].as_u64().unwrap() > 50_000,
        "{refused}"
    );
}

#[cfg(feature = "a2a")]
#[tokio::test]
async fn an_a2a_agent_fails_a_refused_task_with_the_code() {
    use a2a_support::{rpc, send_params};
    use tool_executor::agent::{AgentServer, ToolAgent};

    let agent =
        ToolAgent::new(toolset![read_note]).with_rate_limit(RateLimit::new(Quota::per_minute(1)));
    let server = AgentServer::bind("127.0.0.1:0", agent)
        .await
        .expect("bind")
        .spawn();
    let call = send_params(&json!([{ "data": { "tool": "read_note", "arguments": {"id": 1} } }]));
    let first = rpc(server.local_addr(), "SendMessage", call.clone()).await;
    assert_eq!(
        first["task"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{first}"
    );
    let second = rpc(server.local_addr(), "SendMessage", call).await;
    assert_eq!(
        second["task"]["status"]["state"], "TASK_STATE_FAILED",
        "{second}"
    );
    assert!(second.to_string().contains("rate_limited"), "{second}");
}
