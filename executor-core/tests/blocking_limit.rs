//! Sync tools that time out keep their threads (issue 22, point 3): a blocking body cannot be
//! interrupted, so a timed-out one runs on after its caller got the failure. The process-wide
//! bound on sync bodies (`tool::set_max_blocking_bodies`) caps the blocking threads they hold;
//! a call beyond it is refused at once with `blocking_limit`, and a body whose caller is gone
//! before it started never starts.
//!
//! The runtime here has 16 blocking threads (Tokio's default is 512), so a burst fills it the
//! way the burst filled the default pool. The bound is process-wide, so the tests of
//! this binary run one at a time ([`SERIAL`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tool_executor::FailureKind;
use tool_executor::prelude::*;
use tool_executor::tool::{blocking_bodies, set_max_blocking_bodies};

/// The tests share the process-wide bound and the counters below.
static SERIAL: Mutex<()> = Mutex::new(());

/// `stuck` bodies running now, the most seen at once, and how many ever started.
static RUNNING: AtomicUsize = AtomicUsize::new(0);
static MOST_RUNNING: AtomicUsize = AtomicUsize::new(0);
static STARTED: AtomicUsize = AtomicUsize::new(0);
/// What lets the `stuck` bodies return (each gives up after 5 s on its own).
static RELEASE: AtomicBool = AtomicBool::new(false);
/// Set when `quick` ran.
static QUICK_RAN: AtomicBool = AtomicBool::new(false);

/// A bound on every wait.
const WAIT: Duration = Duration::from_secs(10);

/// Blocks its thread until released (5 s at most); its timeout is 1 s.
#[tool(timeout = "1s")]
fn stuck() -> bool {
    STARTED.fetch_add(1, Ordering::SeqCst);
    let now = RUNNING.fetch_add(1, Ordering::SeqCst) + 1;
    MOST_RUNNING.fetch_max(now, Ordering::SeqCst);
    let start = Instant::now();
    while !RELEASE.load(Ordering::SeqCst) && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(5));
    }
    RUNNING.fetch_sub(1, Ordering::SeqCst);
    true
}

/// Returns at once; its timeout (500 ms) puts it on the blocking pool too.
#[tool(timeout = "500ms")]
fn quick() -> &'static str {
    QUICK_RAN.store(true, Ordering::SeqCst);
    "ran"
}

fn runtime(blocking_threads: usize) -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(blocking_threads)
        .enable_all()
        .build()
        .unwrap()
}

fn reset() {
    RELEASE.store(false, Ordering::SeqCst);
    QUICK_RAN.store(false, Ordering::SeqCst);
    STARTED.store(0, Ordering::SeqCst);
    MOST_RUNNING.store(0, Ordering::SeqCst);
}

/// Waits (bounded) until no `stuck` body runs and the bound's count is back to zero.
async fn until_all_returned() {
    tokio::time::timeout(WAIT, async {
        while RUNNING.load(Ordering::SeqCst) > 0 || blocking_bodies().in_flight > 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the stuck bodies returned");
}

/// 40 sync calls at once against a bound of 8: 8 run and time out (their bodies held on),
/// 32 are refused at once, the abandoned bodies never exceed 8, a quick call is refused while
/// they hold their threads, and runs once they return.
#[test]
fn a_burst_of_timed_out_sync_calls_holds_at_most_the_bound() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    reset();
    set_max_blocking_bodies(8);
    runtime(16).block_on(async {
        let tools = toolset![stuck, quick];
        let started = Instant::now();
        let calls = (0..40).map(|_| {
            let tools = tools.clone();
            tokio::spawn(async move {
                let params = json!({});
                let outcome = tools
                    .execute_with_context("stuck", &params, ToolContext::new())
                    .await;
                (outcome, started.elapsed())
            })
        });
        let calls: Vec<_> = calls.collect();
        let mut most_abandoned = 0;
        let mut outcomes = Vec::new();
        for call in calls {
            let (outcome, at) = tokio::time::timeout(WAIT, call).await.unwrap().unwrap();
            most_abandoned = most_abandoned.max(blocking_bodies().abandoned);
            outcomes.push((outcome.expect_err("no stuck call succeeds"), at));
        }
        let timed_out = outcomes
            .iter()
            .filter(|(f, _)| f.code() == "timeout")
            .count();
        let refused: Vec<_> = outcomes
            .iter()
            .filter(|(f, _)| f.code() == "blocking_limit")
            .collect();
        let slowest_refusal = refused.iter().map(|(_, at)| *at).max();
        let counts = format!(
            "{timed_out} timed out, {} refused (slowest after {slowest_refusal:?}), {} bodies \
             started, at most {} ran at once, {} still running",
            refused.len(),
            STARTED.load(Ordering::SeqCst),
            MOST_RUNNING.load(Ordering::SeqCst),
            RUNNING.load(Ordering::SeqCst),
        );
        assert_eq!((timed_out, refused.len()), (8, 32), "{counts}");
        assert!(
            MOST_RUNNING.load(Ordering::SeqCst) <= 8,
            "the bound held: {counts}"
        );
        assert!(most_abandoned <= 8, "abandoned {most_abandoned}: {counts}");
        assert!(
            slowest_refusal.is_some_and(|at| at < Duration::from_millis(500)),
            "refused at once, not at the 1 s timeout: {counts}"
        );
        let (failure, _) = refused[0];
        assert_eq!(failure.kind(), FailureKind::Tool, "{failure:?}");
        assert!(!failure.is_terminal(), "a refusal may be retried");
        assert!(
            failure.message().contains("the limit is 8"),
            "{}",
            failure.message()
        );

        // The 8 timed-out bodies still hold their threads: a quick call is refused at once.
        assert_eq!(blocking_bodies().abandoned, 8, "{counts}");
        let quick_at = Instant::now();
        let refused = tools
            .execute_with_context("quick", &json!({}), ToolContext::new())
            .await
            .expect_err("the bound is reached");
        assert_eq!(
            refused.code(),
            "blocking_limit",
            "after {:?}, ran: {}: {refused:?}",
            quick_at.elapsed(),
            QUICK_RAN.load(Ordering::SeqCst)
        );
        assert!(!QUICK_RAN.load(Ordering::SeqCst));

        // Once they return, it runs.
        RELEASE.store(true, Ordering::SeqCst);
        until_all_returned().await;
        assert_eq!(blocking_bodies().abandoned, 0);
        let ran = tools
            .execute_with_context("quick", &json!({}), ToolContext::new())
            .await
            .expect("the quick call runs once the stuck bodies returned");
        assert_eq!(ran.output, json!("ran"));
        assert_eq!(STARTED.load(Ordering::SeqCst), 8, "the refused never ran");
    });
}

/// A body still queued for a blocking thread when its caller times out never starts: with 2
/// blocking threads, 4 calls time out; the 2 that never got a thread are not run for nobody.
#[test]
fn a_body_whose_caller_left_before_it_started_never_runs() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    reset();
    set_max_blocking_bodies(8);
    runtime(2).block_on(async {
        let tools = toolset![stuck, quick];
        let calls: Vec<_> = (0..4)
            .map(|_| {
                let tools = tools.clone();
                tokio::spawn(async move {
                    tools
                        .execute_with_context("stuck", &json!({}), ToolContext::new())
                        .await
                })
            })
            .collect();
        for call in calls {
            let failure = tokio::time::timeout(WAIT, call)
                .await
                .unwrap()
                .unwrap()
                .expect_err("timed out");
            assert_eq!(failure.code(), "timeout", "{failure:?}");
        }
        RELEASE.store(true, Ordering::SeqCst);
        until_all_returned().await;
        // Give a queued body the chance to start, as it would have before the fix.
        tokio::time::sleep(Duration::from_millis(100)).await;
        until_all_returned().await;
        assert_eq!(
            STARTED.load(Ordering::SeqCst),
            2,
            "only the bodies that had a thread before their callers left ran"
        );
        let ran = tools
            .execute_with_context("quick", &json!({}), ToolContext::new())
            .await
            .expect("runs");
        assert_eq!(ran.output, json!("ran"));
    });
}
