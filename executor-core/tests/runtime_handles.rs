//! Detached calls and concurrency limits, under paused Tokio time.

mod runtime_support;

use std::sync::atomic::Ordering;
use std::time::Duration;

use runtime_support::{Script, Step, after, fail, ok};
use serde_json::json;
use tokio::task::JoinSet;
use tokio::time::Instant;
use tool_executor::failure::transport::for_stream;
use tool_executor::runtime::{HANDLE_BUFFER, HandleId, HandleStatus, RetryPolicy, Runtime};
use tool_executor::tool::ToolStreamChunk;
use tool_executor::{FailureKind, ToolFailure};

const SEC: Duration = Duration::from_secs(1);

fn progress(n: u32, of: u32) -> ToolStreamChunk {
    ToolStreamChunk::Progress {
        fraction: f64::from(n) / f64::from(of),
        message: Some(format!("step {n}")),
    }
}

#[tokio::test(start_paused = true)]
async fn a_late_subscriber_sees_the_chunks_from_where_it_joined_then_the_end() {
    let script = Script::new("slow", [Step::Progress(5)]);
    let rt = Runtime::from_shared(script.clone());
    let handle = rt.spawn("slow", json!({})).unwrap();
    assert_eq!(handle.status(), HandleStatus::Running);
    assert_eq!(rt.handle(handle.id()).map(|h| h.id()), Some(handle.id()));

    tokio::time::sleep(SEC * 5 / 2).await; // progress 1 and 2 have been sent
    let mut late = handle.subscribe();
    let mut chunks = Vec::new();
    while let Some(chunk) = late.next().await {
        chunks.push(chunk);
    }
    let done = ToolStreamChunk::Done {
        result: Some(json!("done")),
    };
    assert_eq!(
        chunks,
        [progress(3, 5), progress(4, 5), progress(5, 5), done.clone()]
    );
    assert_eq!(late.missed(), 0);
    assert_eq!(handle.status(), HandleStatus::Done);
    assert_eq!(handle.wait().await.unwrap().output, json!("done"));

    // After the end, a subscriber gets the terminal chunk only.
    let mut after_end = handle.subscribe();
    assert_eq!(after_end.next().await, Some(done));
    assert_eq!(after_end.next().await, None);
}

#[tokio::test(start_paused = true)]
async fn cancelling_a_handle_drops_the_call_and_ends_it_cancelled() {
    let script = Script::new("slow", [Step::Progress(100)]);
    let rt = Runtime::from_shared(script.clone());
    let handle = rt.spawn("slow", json!({})).unwrap();
    let mut watcher = handle.subscribe();
    assert_eq!(watcher.next().await, Some(progress(1, 100)));
    handle.cancel();
    let failure = handle.wait().await.unwrap_err();
    assert_eq!(failure.kind(), FailureKind::Cancelled);
    assert_eq!(handle.status(), HandleStatus::Cancelled);
    assert_eq!(
        watcher.next().await,
        Some(for_stream(&ToolFailure::cancelled("slow")))
    );
    assert_eq!(watcher.next().await, None);
    assert_eq!(script.dropped.load(Ordering::SeqCst), 1);
    assert_eq!(script.attempts(), [1], "a cancelled call is not retried");
}

#[tokio::test(start_paused = true)]
async fn a_failed_call_ends_failed_with_its_last_failure() {
    let script = Script::new("down", [fail(ToolFailure::terminal("no such city"))]);
    let rt = Runtime::from_shared(script.clone());
    let handle = rt.spawn("down", json!({})).unwrap();
    let mut watcher = handle.subscribe();
    assert_eq!(handle.wait().await.unwrap_err().message(), "no such city");
    assert_eq!(handle.status(), HandleStatus::Failed);
    assert_eq!(
        watcher.next().await,
        Some(for_stream(&ToolFailure::terminal("no such city")))
    );
}

#[tokio::test(start_paused = true)]
async fn finished_handles_are_freed_after_the_ttl() {
    let script = Script::new("quick", [after(SEC, ok(json!(1)))]);
    let rt = Runtime::from_shared(script.clone()).with_handle_ttl(60 * SEC);
    let handle = rt.spawn("quick", json!({})).unwrap();
    let id = handle.id();
    handle.wait().await.unwrap();
    tokio::time::sleep(59 * SEC).await;
    assert_eq!(rt.handle(id).map(|h| h.status()), Some(HandleStatus::Done));
    assert_eq!(rt.handle_count(), 1);
    tokio::time::sleep(SEC).await;
    assert!(rt.handle(id).is_none());
    assert_eq!(rt.handle_count(), 0);
    // A handle already held still answers.
    assert_eq!(handle.wait().await.unwrap().output, json!(1));
}

/// Spawns `tool`, subscribes at once, and reads only after the call has ended: every chunk
/// the subscriber still gets, and how many it missed.
async fn read_after_the_end(rt: &Runtime, tool: &str) -> (Vec<ToolStreamChunk>, u64) {
    let handle = rt.spawn(tool, json!({})).unwrap();
    let mut slow_reader = handle.subscribe();
    handle.wait().await.unwrap();
    let mut chunks = Vec::new();
    while let Some(chunk) = slow_reader.next().await {
        chunks.push(chunk);
    }
    (chunks, slow_reader.missed())
}

#[tokio::test(start_paused = true)]
async fn a_full_buffer_drops_the_oldest_chunks_but_never_the_terminal_one() {
    let script = Script::new("chatty", [Step::Text(1000)]);
    let rt = Runtime::from_shared(script.clone());
    let (chunks, missed) = read_after_the_end(&rt, "chatty").await;
    assert_eq!(chunks.len(), HANDLE_BUFFER + 1);
    let skipped = 1000 - HANDLE_BUFFER;
    assert_eq!(missed, u64::try_from(skipped).unwrap());
    assert_eq!(
        chunks[0],
        ToolStreamChunk::Text {
            text: format!("text {skipped}")
        }
    );
    assert_eq!(
        chunks[HANDLE_BUFFER - 1],
        ToolStreamChunk::Text {
            text: "text 999".into()
        }
    );
    assert_eq!(
        chunks[HANDLE_BUFFER],
        ToolStreamChunk::Done {
            result: Some(json!("done"))
        }
    );
}

#[tokio::test(start_paused = true)]
async fn a_full_buffer_coalesces_progress() {
    let of = u32::try_from(HANDLE_BUFFER).unwrap() + 50;
    let script = Script::new("steps", [Step::Progress(of)]);
    let rt = Runtime::from_shared(script.clone());
    let (chunks, missed) = read_after_the_end(&rt, "steps").await;
    // The first chunks are kept; the newest progress replaces the one at the end.
    assert_eq!(chunks.len(), HANDLE_BUFFER + 1);
    assert_eq!(chunks[0], progress(1, of));
    assert_eq!(chunks[HANDLE_BUFFER - 2], progress(of - 51, of));
    assert_eq!(chunks[HANDLE_BUFFER - 1], progress(of, of));
    assert_eq!(missed, 50);
}

#[tokio::test(start_paused = true)]
async fn dropping_the_runtime_cancels_what_it_spawned() {
    let script = Script::new("slow", [after(3600 * SEC, ok(json!(1)))]);
    let rt = Runtime::from_shared(script.clone());
    let clone = rt.clone();
    let handle = rt.spawn("slow", json!({})).unwrap();
    tokio::time::sleep(SEC).await;
    drop(rt);
    tokio::time::sleep(SEC).await;
    assert_eq!(
        handle.status(),
        HandleStatus::Running,
        "a clone is still alive"
    );
    drop(clone);
    let started = Instant::now();
    assert_eq!(
        handle.wait().await.unwrap_err().kind(),
        FailureKind::Cancelled
    );
    assert_eq!(started.elapsed(), Duration::ZERO);
    assert_eq!(script.dropped.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn a_retried_detached_call_streams_every_attempt() {
    let busy = ToolFailure::ordinary("busy").with_retry_after(SEC);
    let script = Script::repeatable("flaky", [fail(busy), Step::Progress(2)]);
    let rt = Runtime::from_shared(script.clone()).with_retry(RetryPolicy::exponential(SEC));
    let handle = rt.spawn("flaky", json!({})).unwrap();
    let mut watcher = handle.subscribe();
    let mut chunks = Vec::new();
    while let Some(chunk) = watcher.next().await {
        chunks.push(chunk);
    }
    assert_eq!(chunks.len(), 3);
    assert_eq!(chunks[1], progress(2, 2));
    assert_eq!(script.attempts(), [1, 2]);
}

#[test]
fn handle_ids_are_128_random_bits_in_hex() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let runtime = Runtime::from_shared(Script::new("t", [ok(json!(1))]));
    let ids: Vec<HandleId> = rt.block_on(async {
        (0..100)
            .map(|_| runtime.spawn("t", json!({})).unwrap().id())
            .collect()
    });
    let text: std::collections::HashSet<String> = ids.iter().map(ToString::to_string).collect();
    assert_eq!(text.len(), 100);
    for (id, written) in ids.iter().zip(ids.iter().map(ToString::to_string)) {
        assert_eq!(written.len(), 32);
        assert_eq!(written.parse::<HandleId>().unwrap(), *id);
    }
    // Outside a Tokio runtime spawning is an error, not a panic.
    let failure = runtime.spawn("t", json!({})).unwrap_err();
    assert_eq!(failure.kind(), FailureKind::Internal);
}

async fn run_all(rt: &Runtime, calls: impl IntoIterator<Item = (&'static str, usize)>) -> Duration {
    let started = Instant::now();
    let mut set = JoinSet::new();
    for (tool, n) in calls {
        let rt = rt.clone();
        set.spawn(async move { rt.call(tool, &json!({"n": n})).await });
    }
    while let Some(done) = set.join_next().await {
        assert_eq!(done.unwrap().unwrap().output, json!("slot"));
    }
    started.elapsed()
}

#[tokio::test(start_paused = true)]
async fn a_thousand_calls_respect_the_overall_limit() {
    let script = Script::new(
        "work",
        [after(Duration::from_millis(10), ok(json!("slot")))],
    );
    let rt = Runtime::from_shared(script.clone()).with_max_concurrency(8);
    let elapsed = run_all(&rt, (0..1000).map(|n| ("work", n))).await;
    assert_eq!(script.most_running.load(Ordering::SeqCst), 8);
    assert_eq!(script.attempts().len(), 1000);
    // 125 waves of 8 calls, 10 ms each: the slots never sit idle.
    assert_eq!(elapsed, Duration::from_millis(1250));
}

#[tokio::test(start_paused = true)]
async fn waiting_calls_are_served_in_arrival_order() {
    let script = Script::new(
        "work",
        [after(Duration::from_millis(10), ok(json!("slot")))],
    );
    let rt = Runtime::from_shared(script.clone()).with_tool_concurrency("work", 1);
    run_all(&rt, (0..50).map(|n| ("work", n))).await;
    let order: Vec<usize> = script
        .seen
        .lock()
        .unwrap()
        .iter()
        .map(|s| usize::try_from(s.params["n"].as_u64().unwrap()).unwrap())
        .collect();
    assert_eq!(order, (0..50).collect::<Vec<_>>());
}

#[tokio::test(start_paused = true)]
async fn a_busy_tool_does_not_hold_slots_other_tools_could_use() {
    let work = |name| Script::new(name, [after(Duration::from_millis(10), ok(json!("slot")))]);
    let (a, b) = (work("a"), work("b"));
    let chain =
        tool_executor::runtime::FallbackChain::new([a.clone() as _, b.clone() as _]).unwrap();
    let rt = Runtime::new(chain)
        .with_max_concurrency(10)
        .with_tool_concurrency("a", 2);
    let calls = (0..1000).map(|n| (if n % 2 == 0 { "a" } else { "b" }, n));
    let elapsed = run_all(&rt, calls).await;
    assert_eq!(a.most_running.load(Ordering::SeqCst), 2);
    // `b` is held back by the overall limit only: `a`'s queued calls hold no overall slot.
    assert_eq!(b.most_running.load(Ordering::SeqCst), 10);
    // `a`: 500 calls two at a time, 10 ms each, is the least it can take.
    assert!(elapsed >= Duration::from_millis(2500), "{elapsed:?}");
    assert_eq!(a.attempts().len() + b.attempts().len(), 1000);
}
