//! `A2aToolExecutor` against an agent written with the official A2A Python SDK (`a2a-sdk` 1.3,
//! `tests/peers/a2a/py_agent.py`): skills with published schemas called by data part, a text
//! skill, progress, a foreign agent's failures (never unhandled) and a cancel. `.ci/a2a-peer.sh`
//! starts the agent and runs these with `EXECUTOR_A2A_PYTHON_URL` set.
#![cfg(feature = "a2a-client")]

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::mpsc;
use tool_executor::agent::A2aToolExecutor;
use tool_executor::failure::transport::{RetryDecision, for_retry};
use tool_executor::prelude::*;
use tool_executor::{FailureKind, ToolStreamChunk};

const LIMIT: Duration = Duration::from_secs(20);

async fn agent() -> A2aToolExecutor {
    let url = std::env::var("EXECUTOR_A2A_PYTHON_URL").expect("EXECUTOR_A2A_PYTHON_URL");
    tokio::time::timeout(LIMIT, A2aToolExecutor::connect(url))
        .await
        .expect("connect within the limit")
        .expect("connect")
}

async fn call(agent: &A2aToolExecutor, tool: &str, args: Value) -> Result<Value, ToolFailure> {
    let ctx = ToolContext::new().with_timeout(LIMIT);
    agent
        .execute_with_context(tool, &args, ctx)
        .await
        .map(|e| e.output)
}

#[tokio::test]
#[ignore = "needs EXECUTOR_A2A_PYTHON_URL (run by .ci/a2a-peer.sh)"]
async fn published_skills_are_tools_with_their_schemas_and_the_rest_take_text() {
    let agent = agent().await;
    let specs = agent.specs();
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["sum", "divide", "shout"]);
    let numbers = json!({
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"]
    });
    assert_eq!(specs[0].input_schema, numbers);
    assert_eq!(specs[0].output_schema, Some(json!({"type": "number"})));
    assert_eq!(specs[0].annotations.title.as_deref(), Some("Sum"));
    assert_eq!(specs[0].annotations.read_only, Some(true));
    assert_eq!(specs[2].input_schema["required"], json!(["text"]));
    assert_eq!(specs[2].output_schema, None);

    // Numbers come back as the protobuf binding carries them: doubles.
    assert_eq!(
        call(&agent, "sum", json!({"a": 2, "b": 40})).await,
        Ok(json!(42.0))
    );
    assert_eq!(
        call(&agent, "divide", json!({"a": 1, "b": 4})).await,
        Ok(json!(0.25))
    );
    assert_eq!(
        call(&agent, "shout", json!({"text": "hello"})).await,
        Ok(json!("HELLO"))
    );
}

#[tokio::test]
#[ignore = "needs EXECUTOR_A2A_PYTHON_URL (run by .ci/a2a-peer.sh)"]
async fn progress_and_text_answers_stream_as_chunks() {
    let agent = agent().await;
    let (tx, mut rx) = mpsc::channel(64);
    let ctx = ToolContext::new().with_timeout(LIMIT).with_stream(tx);
    let out = agent
        .execute_with_context("sum", &json!({"a": 1, "b": 2}), ctx)
        .await
        .unwrap();
    assert_eq!(out.output, json!(3.0));
    let chunks: Vec<ToolStreamChunk> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
    assert_eq!(
        chunks,
        [ToolStreamChunk::Progress {
            fraction: 0.5,
            message: Some("adding".to_owned())
        }]
    );

    // A plain agent's artifact is its answer and, streamed, a text chunk.
    let (tx, mut rx) = mpsc::channel(64);
    let ctx = ToolContext::new().with_timeout(LIMIT).with_stream(tx);
    let out = agent
        .execute_with_context("shout", &json!({"text": "abc"}), ctx)
        .await
        .unwrap();
    assert_eq!(out.output, json!("ABC"));
    let chunks: Vec<ToolStreamChunk> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
    assert_eq!(
        chunks,
        [ToolStreamChunk::Text {
            text: "ABC".to_owned()
        }]
    );
}

#[tokio::test]
#[ignore = "needs EXECUTOR_A2A_PYTHON_URL (run by .ci/a2a-peer.sh)"]
async fn a_foreign_agents_failures_are_ordinary_and_never_unhandled() {
    let agent = agent().await;
    // A code in the status message's metadata is kept; no class: ordinary.
    let zero = call(&agent, "divide", json!({"a": 2, "b": 0}))
        .await
        .unwrap_err();
    assert_eq!(zero.message(), "cannot divide by zero");
    assert_eq!(zero.code(), "division_by_zero");
    assert_eq!(zero.data(), Some(&json!({"a": 2.0})));
    assert_eq!(zero.kind(), FailureKind::Tool);
    assert!(!zero.is_unhandled() && !zero.is_terminal());

    let refused = call(&agent, "shout", json!({"text": "please fail"}))
        .await
        .unwrap_err();
    assert_eq!(refused.message(), "refused: please fail");
    assert_eq!(refused.code(), "a2a_task_failed");
    assert_eq!(for_retry(&refused), RetryDecision::Retry { after: None });

    // The agent's own "no such tool" is its answer, not ours to reroute.
    let bad = call(&agent, "sum", json!({"a": "x", "b": 1}))
        .await
        .unwrap_err();
    assert!(!bad.is_unhandled(), "{bad:?}");
}

#[tokio::test]
#[ignore = "needs EXECUTOR_A2A_PYTHON_URL (run by .ci/a2a-peer.sh)"]
async fn a_call_that_times_out_cancels_the_python_task() {
    let agent = agent().await;
    let cancels = || async {
        let n = call(&agent, "shout", json!({"text": "cancels?"}))
            .await
            .unwrap();
        n.as_str().unwrap().parse::<u32>().unwrap()
    };
    let before = cancels().await;
    let started = Instant::now();
    let ctx = ToolContext::new().with_timeout(Duration::from_millis(500));
    let failure = agent
        .execute_with_context("shout", &json!({"text": "please wait"}), ctx)
        .await
        .unwrap_err();
    assert_eq!(failure.kind(), FailureKind::Timeout, "{failure:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    while cancels().await != before + 1 {
        assert!(
            started.elapsed() < LIMIT,
            "the Python agent never saw CancelTask"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
