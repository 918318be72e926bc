//! Streamed calls through the runtime, under paused Tokio time: retries only before the first
//! chunk is forwarded, time limits, output checks on the terminal chunk, and the ends of the
//! stream (reader gone, runtime dropped).

mod runtime_support;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use runtime_support::{Script, Step, after, fail, ok};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tool_executor::runtime::{CallOptions, RetryPolicy, Runtime};
use tool_executor::{Classification, ToolExecutor, ToolFailure, ToolStreamChunk};

const SECOND: Duration = Duration::from_secs(1);

fn busy() -> ToolFailure {
    ToolFailure::ordinary("busy")
        .with_code("busy")
        .with_retry_after(Duration::from_millis(250))
}

fn runtime(script: &Arc<Script>) -> Runtime {
    Runtime::from_shared(script.clone())
        .with_retry(RetryPolicy::exponential(Duration::from_millis(10)).max_attempts(4))
}

/// `tool`'s stream with no arguments and no options.
fn plain(rt: &Runtime, tool: &str) -> mpsc::Receiver<ToolStreamChunk> {
    rt.stream_with(tool, json!({}), CallOptions::new()).unwrap()
}

/// Every chunk of the stream, up to the end of the channel.
async fn drain(mut chunks: mpsc::Receiver<ToolStreamChunk>) -> Vec<ToolStreamChunk> {
    let mut all = Vec::new();
    while let Some(chunk) = chunks.recv().await {
        all.push(chunk);
    }
    all
}

fn text(i: u32) -> ToolStreamChunk {
    ToolStreamChunk::Text {
        text: format!("text {i}"),
    }
}

fn done(result: Value) -> ToolStreamChunk {
    ToolStreamChunk::Done {
        result: Some(result),
    }
}

fn error_code(chunk: &ToolStreamChunk) -> Option<&str> {
    match chunk {
        ToolStreamChunk::Error { code, .. } => code.as_deref(),
        _ => None,
    }
}

#[tokio::test(start_paused = true)]
async fn failures_before_the_first_chunk_are_retried_with_their_hint() {
    let script = Script::repeatable("flaky", [fail(busy()), fail(busy()), Step::Text(2)]);
    let rt = runtime(&script);
    let started = tokio::time::Instant::now();
    let options = CallOptions::new().with_action_id("a-7");
    let chunks = rt.stream_with("flaky", json!({}), options).unwrap();
    assert_eq!(drain(chunks).await, [text(0), text(1), done(json!("done"))]);
    assert_eq!(script.attempts(), [1, 2, 3]);
    let seen = script.seen.lock().unwrap().clone();
    assert!(seen.iter().all(|s| s.action_id == "a-7"));
    // Two waits of at least the 250 ms hint each.
    assert!(started.elapsed() >= Duration::from_millis(500));
    assert!(seen[1].started - seen[0].started >= Duration::from_millis(250));
}

#[tokio::test(start_paused = true)]
async fn a_failure_after_a_forwarded_chunk_ends_the_stream_with_its_typed_error() {
    let script = Script::repeatable(
        "half",
        [Step::TextThen(1, Box::new(fail(busy()))), Step::Text(3)],
    );
    let rt = runtime(&script);
    let all = drain(plain(&rt, "half")).await;
    assert_eq!(
        all,
        [
            text(0),
            ToolStreamChunk::Error {
                message: "busy".to_owned(),
                code: Some("busy".to_owned()),
                classification: Some(Classification::Ordinary),
                retry_after_ms: Some(250),
            }
        ]
    );
    assert_eq!(
        script.attempts(),
        [1],
        "no second attempt after a chunk went out"
    );
}

#[tokio::test(start_paused = true)]
async fn a_slow_attempt_is_dropped_at_the_per_attempt_limit_and_retried() {
    let script = Script::repeatable("slow", [after(10 * SECOND, ok(json!(1))), ok(json!(2))]);
    let rt = runtime(&script).with_attempt_timeout(SECOND);
    let chunks = plain(&rt, "slow");
    assert_eq!(drain(chunks).await, [done(json!(2))]);
    assert_eq!(script.attempts(), [1, 2]);
    assert_eq!(script.dropped.load(Ordering::SeqCst), 1);
    let seen = script.seen.lock().unwrap().clone();
    assert_eq!(seen[0].deadline, Some(seen[0].started + SECOND));
}

#[tokio::test(start_paused = true)]
async fn the_overall_limit_ends_a_stream_that_has_sent_chunks() {
    // One progress chunk a second, ten in all; the call may take 3.5 s.
    let script = Script::repeatable("long", [Step::Progress(10)]);
    let rt = runtime(&script).with_call_timeout(Duration::from_millis(3500));
    let all = drain(plain(&rt, "long")).await;
    let progress = all
        .iter()
        .filter(|c| matches!(c, ToolStreamChunk::Progress { .. }))
        .count();
    assert_eq!(progress, 3);
    assert_eq!(all.len(), 4);
    assert_eq!(error_code(&all[3]), Some("call_timeout"));
    assert_eq!(script.attempts(), [1]);
    assert_eq!(script.dropped.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn the_terminal_chunk_carries_the_checked_output() {
    let script = Script::repeatable("big", [ok(json!({"n": 1_u64 << 60}))]);
    let rt = runtime(&script);
    let all = drain(plain(&rt, "big")).await;
    assert_eq!(all.len(), 1);
    assert_eq!(error_code(&all[0]), Some("non_i_json_output"));
    match &all[0] {
        ToolStreamChunk::Error {
            message,
            classification,
            ..
        } => {
            assert!(message.contains("at `/n`"), "{message}");
            assert_eq!(*classification, Some(Classification::Terminal));
        }
        other => panic!("expected an error chunk, got {other:?}"),
    }
    assert_eq!(script.attempts(), [1], "a failed check is not retried");
}

#[tokio::test(start_paused = true)]
async fn dropping_the_receiver_drops_the_running_attempt() {
    let script = Script::repeatable("long", [Step::Progress(100)]);
    let rt = runtime(&script);
    let mut chunks = plain(&rt, "long");
    assert!(matches!(
        chunks.recv().await,
        Some(ToolStreamChunk::Progress { .. })
    ));
    drop(chunks);
    tokio::time::sleep(5 * SECOND).await;
    assert_eq!(script.dropped.load(Ordering::SeqCst), 1);
    assert_eq!(script.seen.lock().unwrap().len(), 1);
}

#[tokio::test(start_paused = true)]
async fn dropping_the_runtime_cancels_the_stream() {
    let script = Script::repeatable("long", [Step::Progress(100)]);
    let rt = runtime(&script);
    let mut chunks = plain(&rt, "long");
    assert!(chunks.recv().await.is_some());
    drop(rt);
    let rest = drain(chunks).await;
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert_eq!(error_code(&rest[0]), Some("cancelled"));
    assert_eq!(script.dropped.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn the_seed_execute_stream_runs_through_the_runtime() {
    let script = Script::repeatable("flaky", [fail(busy()), Step::Text(1)]);
    let rt = runtime(&script);
    let chunks = ToolExecutor::execute_stream(&rt, "flaky", &json!({"x": 1}), "a-1")
        .await
        .expect("the runtime streams");
    assert_eq!(drain(chunks).await, [text(0), done(json!("done"))]);
    let seen = script.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    assert!(
        seen.iter()
            .all(|s| s.action_id == "a-1" && s.params == json!({"x": 1}))
    );
}

#[tokio::test(start_paused = true)]
async fn a_terminal_failure_is_not_retried_and_an_unknown_tool_is_an_error_chunk() {
    let script = Script::repeatable("t", [fail(ToolFailure::terminal("no").with_code("nope"))]);
    let rt = runtime(&script);
    let all = drain(plain(&rt, "t")).await;
    assert_eq!(all.len(), 1);
    assert_eq!(error_code(&all[0]), Some("nope"));
    assert_eq!(script.attempts(), [1]);

    let all = drain(plain(&rt, "missing")).await;
    assert_eq!(error_code(&all[..][0]), Some("unknown_tool"));
    assert_eq!(script.attempts(), [1]);
}

#[test]
fn streaming_outside_a_tokio_runtime_is_an_error() {
    let script = Script::repeatable("t", [ok(json!(1))]);
    let failure = runtime(&script)
        .stream_with("t", json!({}), CallOptions::new())
        .unwrap_err();
    assert_eq!(
        failure.message(),
        "tool 't': streaming needs a Tokio runtime"
    );
    assert_eq!(failure.classification(), Classification::Terminal);
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_stream_ends_with_a_cancelled_chunk() {
    let script = Script::repeatable("long", [Step::Progress(10)]);
    let rt = runtime(&script);
    let token = tokio_util::sync::CancellationToken::new();
    let options = CallOptions::new().with_cancellation(token.clone());
    let chunks = rt.stream_with("long", json!({}), options).unwrap();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(2500)).await;
        token.cancel();
    });
    let all = drain(chunks).await;
    assert_eq!(all.len(), 3, "{all:?}");
    assert!(
        all[..2]
            .iter()
            .all(|c| matches!(c, ToolStreamChunk::Progress { .. }))
    );
    assert_eq!(error_code(&all[2]), Some("cancelled"));
    assert_eq!(script.dropped.load(Ordering::SeqCst), 1);
}
