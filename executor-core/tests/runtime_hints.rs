//! What a `Runtime` reads from a tool's hints: MCP's defaults (a tool that does not say it is
//! read-only or idempotent may have side effects), so a tool without hints is not retried
//! unless the policy opts in; and the key it makes for a call it may retry.

mod hop_support;

use std::time::Duration;

use hop_support::{seen, tools};
use serde_json::json;
use tool_executor::runtime::{CallOptions, RetryPolicy, Runtime};

fn quick() -> RetryPolicy {
    RetryPolicy::exponential(Duration::from_millis(1)).max_attempts(3)
}

#[tokio::test(start_paused = true)]
async fn a_tool_without_hints_is_not_retried_by_default() {
    let runtime = Runtime::new(tools());
    let failure = runtime
        .call("look", &json!({"run": "rt-look"}))
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "busy");
    assert_eq!(seen("rt-look").len(), 1);

    let opted_in = Runtime::new(tools()).with_retry(quick().retry_side_effects(true));
    opted_in
        .call("look", &json!({"run": "rt-look-opted"}))
        .await
        .unwrap_err();
    assert_eq!(seen("rt-look-opted").len(), 3);
}

#[tokio::test(start_paused = true)]
async fn a_tool_that_says_it_is_safe_to_repeat_is_retried_under_one_key() {
    let runtime = Runtime::new(tools()).with_retry(quick());
    let args = json!({"run": "rt-seats", "busy": 2});
    assert_eq!(runtime.call("seats", &args).await.unwrap().output, json!(7));
    let seen = seen("rt-seats");
    assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), [1, 2, 3]);
    let key = seen[0].1.clone().expect("a key the runtime made");
    assert_eq!(key.len(), 32);
    assert!(seen.iter().all(|s| s.1.as_deref() == Some(key.as_str())));
}

#[tokio::test(start_paused = true)]
async fn a_tool_without_hints_gets_no_key_it_has_no_second_attempt_for() {
    let runtime = Runtime::new(tools());
    runtime
        .call("look", &json!({"run": "rt-look-key"}))
        .await
        .unwrap_err();
    assert_eq!(seen("rt-look-key"), [(1, None)]);
}

#[tokio::test(start_paused = true)]
async fn a_report_counts_the_attempts_and_the_time_spent_in_backoff() {
    let policy = RetryPolicy::exponential(Duration::from_millis(100)).jitter_seed(7);
    let runtime = Runtime::new(tools()).with_retry(policy.clone());
    let args = json!({"run": "rt-report", "busy": 2});
    let started = tokio::time::Instant::now();
    let (done, report) = runtime
        .call_with_report("seats", &args, CallOptions::new())
        .await;
    assert_eq!(done.unwrap().output, json!(7));
    assert_eq!(report.attempts, 3);
    // The tool itself takes no time on the paused clock: every tick is backoff.
    assert_eq!(report.waited, started.elapsed());
    assert!(report.waited > Duration::ZERO);
    assert!(report.waited <= policy.delay_bound(1) + policy.delay_bound(2));

    let (failed, report) = runtime
        .call_with_report(
            "look",
            &json!({"run": "rt-report-look"}),
            CallOptions::new(),
        )
        .await;
    assert_eq!(failed.unwrap_err().code(), "busy");
    assert_eq!((report.attempts, report.waited), (1, Duration::ZERO));
}
