//! A tool served by `ToolAgent` and used through `A2aToolExecutor` keeps what makes retrying
//! it safe or not: every hint as given (the negative ones too), its failure codes and its
//! timeout; and a `Runtime` in front of the client retries it as it would the local tool, with
//! the caller's attempt number and idempotency key reaching the tool on the far side.
#![cfg(feature = "a2a-client")]

mod hop_support;

use std::time::Duration;

use hop_support::{assert_specs_survive, quick, seen, spec, tools};
use serde_json::json;
use tool_executor::agent::{A2aToolExecutor, AgentServer, RunningAgent, ToolAgent};
use tool_executor::runtime::{CallOptions, Runtime};

const LIMIT: Duration = Duration::from_secs(20);

async fn served() -> (RunningAgent, A2aToolExecutor) {
    let agent = AgentServer::bind("127.0.0.1:0", ToolAgent::new(tools()))
        .await
        .expect("bind")
        .spawn();
    let client = tokio::time::timeout(LIMIT, A2aToolExecutor::connect(agent.url()))
        .await
        .expect("connect within the limit")
        .expect("connect");
    (agent, client)
}

#[tokio::test]
async fn the_consuming_spec_keeps_every_hint_failure_code_and_timeout() {
    let (_agent, remote) = served().await;
    assert_specs_survive(&remote);
    assert_eq!(spec(&remote, "book").annotations.read_only, Some(false));
}

#[tokio::test]
async fn a_runtime_does_not_retry_a_remote_non_idempotent_tool() {
    let (_agent, remote) = served().await;
    let local = Runtime::new(tools()).with_retry(quick());
    let failure = local
        .call("book", &json!({"run": "a2a-book-local"}))
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "busy");
    assert_eq!(
        seen("a2a-book-local").len(),
        1,
        "the local tool is tried once"
    );

    let runtime = Runtime::new(remote).with_retry(quick());
    let failure = runtime
        .call("book", &json!({"run": "a2a-book"}))
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "busy");
    assert_eq!(
        seen("a2a-book").len(),
        1,
        "the remote tool is tried once too"
    );
}

#[tokio::test]
async fn a_remote_tool_sees_the_callers_attempt_and_key() {
    let (_agent, remote) = served().await;
    let runtime = Runtime::new(remote).with_retry(quick());
    let options = CallOptions::new().with_idempotency_key("order-42-a2a");
    let args = json!({"run": "a2a-seats-key", "busy": 2});
    let done = runtime.call_with("seats", &args, options).await.unwrap();
    assert_eq!(done.output, json!(7));
    let key = Some("order-42-a2a".to_owned());
    assert_eq!(
        seen("a2a-seats-key"),
        [(1, key.clone()), (2, key.clone()), (3, key)]
    );
}

#[tokio::test]
async fn a_key_the_runtime_makes_reaches_every_remote_attempt_unchanged() {
    let (_agent, remote) = served().await;
    let runtime = Runtime::new(remote).with_retry(quick());
    let args = json!({"run": "a2a-seats-minted", "busy": 1});
    runtime.call("seats", &args).await.unwrap();
    let seen = seen("a2a-seats-minted");
    assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), [1, 2]);
    let key = seen[0].1.clone().expect("a key on the first attempt");
    assert_eq!(seen[1].1.as_deref(), Some(key.as_str()));
}
