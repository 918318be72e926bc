//! Sync tools that read their context run on the blocking pool (issue 15, point 4): a
//! `timeout` ends the call while the body still blocks, a cancellation too, and progress goes
//! through the non-blocking `ToolContext::try_progress`.

mod tool_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use tool_executor::prelude::*;
use tool_executor::{ChunkDropped, FailureKind, ToolStreamChunk};
use tool_support::drain;

/// Set when `stall` returns, so a test sees whether the failure came before the body ended.
static STALL_FINISHED: LazyLock<Arc<AtomicBool>> = LazyLock::new(Arc::default);
/// What releases `stall` early (it gives up after 1 s on its own).
static STALL_RELEASE: LazyLock<Mutex<Option<std_mpsc::Receiver<()>>>> =
    LazyLock::new(Mutex::default);

/// Blocks its thread for up to a second, or until the test releases it.
#[tool(timeout = "200ms")]
fn stall() -> &'static str {
    let release = STALL_RELEASE.lock().unwrap().take();
    if let Some(release) = release {
        let _ = release.recv_timeout(Duration::from_secs(1));
    }
    STALL_FINISHED.store(true, Ordering::SeqCst);
    "finished"
}

/// Reports `steps` progress chunks without waiting, and says which were dropped.
#[tool]
fn steps(steps: u32, label: &str, ctx: &ToolContext) -> Vec<String> {
    (1..=steps)
        .map(|i| {
            let sent = ctx.try_progress(f64::from(i) / f64::from(steps), format!("{label} {i}"));
            match sent {
                Ok(()) => "sent".to_owned(),
                Err(ChunkDropped::Full) => "full".to_owned(),
                Err(other) => other.to_string(),
            }
        })
        .collect()
}

/// Waits on its context's cancellation by polling, as a sync body has to.
#[tool]
fn poll_cancel(ctx: &ToolContext) -> bool {
    for _ in 0..1_000 {
        if ctx.is_cancelled() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

/// Panics on the blocking thread.
#[tool]
fn explode(ctx: &ToolContext) -> u8 {
    let _ = ctx.attempt();
    panic!("sync boom")
}

/// Records a state change from the blocking thread.
#[tool]
fn mark(key: String, ctx: &ToolContext) -> bool {
    ctx.record_state_change(key, json!(true));
    true
}

fn set() -> tool_executor::ToolSet {
    toolset![stall, steps, poll_cancel, explode, mark]
}

/// The timeout failure arrives while the body still blocks: its `finished` flag is unset when
/// the failure is in hand, and the body ends (when released) on its own thread afterwards.
#[tokio::test]
async fn a_sync_tool_times_out_while_its_body_blocks() {
    let (release, wait) = std_mpsc::channel();
    *STALL_RELEASE.lock().unwrap() = Some(wait);
    let failure = set()
        .execute_with_context("stall", &json!({}), ToolContext::new())
        .await
        .expect_err("the 200 ms timeout ends the call");
    assert_eq!(failure.kind(), FailureKind::Timeout, "{failure:?}");
    assert_eq!(failure.code(), "timeout", "{failure:?}");
    assert!(
        !STALL_FINISHED.load(Ordering::SeqCst),
        "the failure came before the body returned"
    );
    release.send(()).unwrap();
    for _ in 0..500 {
        if STALL_FINISHED.load(Ordering::SeqCst) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the released body never finished");
}

#[tokio::test]
async fn try_progress_chunks_reach_the_stream() {
    let rx = set()
        .execute_stream("steps", &json!({"steps": 2, "label": "at"}), "a-1")
        .await
        .unwrap();
    let chunks = drain(rx).await;
    assert_eq!(
        chunks,
        vec![
            json!({"kind": "progress", "fraction": 0.5, "message": "at 1"}),
            json!({"kind": "progress", "fraction": 1.0, "message": "at 2"}),
            json!({"kind": "done", "result": ["sent", "sent"]}),
        ]
    );
}

/// A buffer of one, read by nobody until the call is over: the second chunk is reported
/// dropped and the call still ends (it would hang if `try_progress` waited for room).
#[tokio::test]
async fn a_full_buffer_reports_the_drop_without_blocking() {
    let (sink, mut reader) = tokio::sync::mpsc::channel(1);
    let ctx = ToolContext::new().with_stream(sink);
    let (tools, params) = (set(), json!({"steps": 3, "label": "x"}));
    let call = tools.execute_with_context("steps", &params, ctx);
    let execution = tokio::time::timeout(Duration::from_secs(10), call)
        .await
        .expect("try_progress never waits for the reader")
        .unwrap();
    assert_eq!(execution.output, json!(["sent", "full", "full"]));
    let first = reader.recv().await.unwrap();
    assert!(
        matches!(&first, ToolStreamChunk::Progress { message: Some(m), .. } if m == "x 1"),
        "{first:?}"
    );
    assert!(
        reader.recv().await.is_none(),
        "the dropped chunks never arrive"
    );
}

#[test]
fn try_progress_without_a_reader_is_a_no_op_and_a_closed_stream_says_so() {
    assert_eq!(ToolContext::new().try_progress(0.5, None), Ok(()));
    let (sink, reader) = tokio::sync::mpsc::channel(4);
    drop(reader);
    let ctx = ToolContext::new().with_stream(sink);
    assert_eq!(ctx.try_progress(f64::NAN, None), Err(ChunkDropped::Closed));
    assert_eq!(
        ChunkDropped::Full.to_string(),
        "stream chunk dropped: the buffer is full"
    );
}

#[tokio::test]
async fn a_cancelled_sync_call_ends_at_once_and_the_body_sees_the_token() {
    let token = CancellationToken::new();
    let ctx = ToolContext::new().with_cancellation(token.clone());
    let (tools, params) = (set(), json!({}));
    let call = tools.execute_with_context("poll_cancel", &params, ctx);
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(20)).await;
        token.cancel();
    };
    let (outcome, ()) = tokio::join!(call, cancel);
    let failure = outcome.expect_err("cancelled");
    assert_eq!(failure.kind(), FailureKind::Cancelled, "{failure:?}");
}

#[tokio::test]
async fn a_panic_on_the_blocking_thread_is_an_internal_failure() {
    let failure = set()
        .execute_with_context("explode", &json!({}), ToolContext::new())
        .await
        .expect_err("panicked");
    assert_eq!(failure.kind(), FailureKind::Internal, "{failure:?}");
    assert_eq!(failure.code(), "panic", "{failure:?}");
    assert_eq!(failure.message(), "tool `explode` panicked");
    let source = std::error::Error::source(&failure).map(ToString::to_string);
    assert_eq!(source.as_deref(), Some("panic: sync boom"));
}

#[tokio::test]
async fn state_changes_and_argument_errors_cross_the_thread() {
    let tools = set();
    let execution = tools
        .execute_with_context("mark", &json!({"key": "seen"}), ToolContext::new())
        .await
        .unwrap();
    assert_eq!(execution.output, json!(true));
    assert_eq!(
        execution.state_changes,
        std::collections::HashMap::from([("seen".to_owned(), json!(true))])
    );
    let failure = tools
        .execute_with_context(
            "steps",
            &json!({"steps": "two", "label": "x"}),
            ToolContext::new(),
        )
        .await
        .unwrap_err();
    assert_eq!(failure.kind(), FailureKind::InvalidArguments);
    assert_eq!(
        failure.message(),
        "steps: expected an integer from 0 to 4294967295, got \"two\""
    );
}
