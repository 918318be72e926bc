//! The runtime's retries, time limits and output checks, under paused Tokio time so every
//! schedule is exact.

mod runtime_support;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use runtime_support::{Script, Step, after, fail, ok};
use serde_json::json;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tool_executor::runtime::{CallOptions, RetryPolicy, Runtime};
use tool_executor::tool::ToolAnnotations;
use tool_executor::{FailureKind, ToolFailure};

const MS: Duration = Duration::from_millis(1);

fn busy() -> ToolFailure {
    ToolFailure::ordinary("busy").with_code("busy")
}

fn runtime(script: &Arc<Script>, policy: RetryPolicy) -> Runtime {
    Runtime::from_shared(script.clone()).with_retry(policy)
}

fn gaps(script: &Script) -> Vec<Duration> {
    let starts = script.starts();
    starts.windows(2).map(|w| w[1] - w[0]).collect()
}

fn destructive() -> ToolAnnotations {
    ToolAnnotations {
        destructive: Some(true),
        ..ToolAnnotations::default()
    }
}

#[tokio::test(start_paused = true)]
async fn attempts_are_counted_and_numbered() {
    let script = Script::repeatable("flaky", [fail(busy()), fail(busy()), ok(json!(7))]);
    let rt = runtime(&script, RetryPolicy::exponential(100 * MS).max_attempts(5));
    let options = CallOptions::new()
        .with_action_id("a-1")
        .with_idempotency_key("order-42");
    let done = rt.call_with("flaky", &json!({}), options).await.unwrap();
    assert_eq!(done.output, json!(7));
    assert_eq!(script.attempts(), [1, 2, 3]);
    let seen = script.seen.lock().unwrap().clone();
    assert!(
        seen.iter()
            .all(|s| s.key.as_deref() == Some("order-42") && s.action_id == "a-1")
    );

    // A call the runtime may retry gets a key of its own when the caller gives none.
    rt.call("flaky", &json!({})).await.unwrap();
    let minted = script.seen.lock().unwrap()[3].key.clone();
    assert!(minted.is_some_and(|key| key.len() == 32 && key != "order-42"));
}

#[tokio::test(start_paused = true)]
async fn a_retried_side_effecting_call_gets_one_key_for_all_its_attempts() {
    let script = Script::with_hints(
        "rm",
        destructive(),
        [fail(busy()), ok(json!(1)), ok(json!(2))],
    );
    let policy = RetryPolicy::exponential(MS).retry_side_effects(true);
    let rt = runtime(&script, policy);
    rt.call("rm", &json!({})).await.unwrap();
    rt.call("rm", &json!({})).await.unwrap();
    let keys: Vec<String> = script
        .seen
        .lock()
        .unwrap()
        .iter()
        .map(|s| s.key.clone().expect("a generated key"))
        .collect();
    assert_eq!(keys.len(), 3);
    assert_eq!(keys[0], keys[1], "one key across the attempts of one call");
    assert_ne!(keys[2], keys[0], "another call, another key");
    assert!(
        keys.iter()
            .all(|k| k.len() == 32 && k.bytes().all(|b| b.is_ascii_hexdigit()))
    );
}

#[tokio::test(start_paused = true)]
async fn the_last_failure_is_returned_after_the_last_attempt() {
    let steps = (1..=4).map(|n| fail(ToolFailure::ordinary(format!("fail {n}"))));
    let script = Script::repeatable("down", steps);
    let rt = runtime(&script, RetryPolicy::exponential(MS).max_attempts(4));
    let failure = rt.call("down", &json!({})).await.unwrap_err();
    assert_eq!(failure.message(), "fail 4");
    assert_eq!(script.attempts(), [1, 2, 3, 4]);
}

#[tokio::test(start_paused = true)]
async fn jitter_stays_within_the_exponential_bounds_and_replays_from_a_seed() {
    let schedule = |seed| async move {
        let script = Script::repeatable("down", [fail(busy())]);
        let policy = RetryPolicy::exponential(100 * MS)
            .max_attempts(6)
            .max_delay(Duration::from_secs(1))
            .jitter_seed(seed);
        runtime(&script, policy.clone())
            .call("down", &json!({}))
            .await
            .unwrap_err();
        let gaps = gaps(&script);
        assert_eq!(gaps.len(), 5);
        for (n, gap) in (1..).zip(&gaps) {
            assert!(*gap <= policy.delay_bound(n), "gap {n}: {gap:?}");
        }
        gaps
    };
    let bounds: Vec<_> = (1..=5)
        .map(|n| {
            RetryPolicy::exponential(100 * MS)
                .max_delay(1000 * MS)
                .delay_bound(n)
        })
        .collect();
    assert_eq!(bounds, [100 * MS, 200 * MS, 400 * MS, 800 * MS, 1000 * MS]);
    let first = schedule(7).await;
    assert_eq!(schedule(7).await, first, "one seed, one schedule");
    assert_ne!(schedule(8).await, first, "another seed, another schedule");
    // Full jitter: the delays are not the bounds themselves.
    assert!(first.iter().zip(&bounds).any(|(gap, bound)| gap < bound));
}

#[tokio::test(start_paused = true)]
async fn retry_after_is_never_cut_short() {
    let hinted = busy().with_retry_after(Duration::from_secs(5));
    let script = Script::repeatable("hinted", [fail(hinted), ok(json!("ok"))]);
    let rt = runtime(&script, RetryPolicy::exponential(MS));
    rt.call("hinted", &json!({})).await.unwrap();
    // The jittered backoff (at most 1 ms) is shorter than the hint: the hint decides.
    assert_eq!(gaps(&script), [Duration::from_secs(5)]);
}

/// `Runtime::call` polls an unguarded first attempt itself and boxes the rest: attempts that
/// wait, on both sides of the retry, are polled to their end and timed as scheduled.
#[tokio::test(start_paused = true)]
async fn a_plain_call_waits_through_a_slow_first_attempt_and_its_retry() {
    let hinted = busy().with_retry_after(50 * MS);
    let steps = [
        after(10 * MS, fail(hinted)),
        after(20 * MS, ok(json!("late"))),
    ];
    let script = Script::repeatable("slow", steps);
    let rt = runtime(&script, RetryPolicy::exponential(Duration::ZERO));
    let started = Instant::now();
    let done = rt.call("slow", &json!({})).await.unwrap();
    assert_eq!(done.output, json!("late"));
    assert_eq!(started.elapsed(), 80 * MS, "10 ms, the 50 ms hint, 20 ms");
    assert_eq!(script.attempts(), [1, 2]);
    assert_eq!(gaps(&script), [60 * MS]);

    // A slow first attempt that succeeds is returned as it is, checked.
    let script = Script::repeatable("slow", [after(10 * MS, ok(json!({"n": 1u64 << 53})))]);
    let failure = runtime(&script, RetryPolicy::default())
        .call("slow", &json!({}))
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "non_i_json_output");
    assert_eq!(script.attempts(), [1], "a failed check is not retried");
}

#[tokio::test(start_paused = true)]
async fn a_hint_the_deadline_cannot_hold_ends_the_call_at_once() {
    let hinted = busy().with_retry_after(Duration::from_secs(5));
    let script = Script::repeatable("hinted", [fail(hinted), ok(json!("ok"))]);
    let rt =
        runtime(&script, RetryPolicy::exponential(MS)).with_call_timeout(Duration::from_secs(2));
    let started = Instant::now();
    let failure = rt.call("hinted", &json!({})).await.unwrap_err();
    assert_eq!(failure.code(), "busy");
    assert_eq!(started.elapsed(), Duration::ZERO);
    assert_eq!(script.attempts(), [1]);
}

/// Failures that a second attempt cannot fix are returned after one attempt, unchanged.
#[tokio::test(start_paused = true)]
async fn hopeless_failures_are_not_retried() {
    let relayed: ToolFailure =
        serde_json::from_value(serde_json::to_value(ToolFailure::unknown_tool("gone")).unwrap())
            .unwrap();
    let cases = [
        ToolFailure::terminal("no such city").with_code("unknown_city"),
        ToolFailure::invalid_arguments("`city`: expected a string"),
        ToolFailure::unknown_tool("gone"),
        relayed,
        ToolFailure::cancelled("slow"),
        busy().with_kind(FailureKind::Cancelled),
    ];
    for failure in cases {
        let script = Script::repeatable("t", [fail(failure.clone()), ok(json!("retried"))]);
        let rt = runtime(&script, RetryPolicy::exponential(MS).max_attempts(5));
        let got = rt.call("t", &json!({})).await.unwrap_err();
        assert_eq!(script.attempts(), [1], "{failure:?}");
        assert_eq!(got.code(), failure.code());
        assert_eq!(got.kind(), failure.kind());
        assert_eq!(got.is_unhandled(), failure.is_unhandled());
    }
}

#[tokio::test(start_paused = true)]
async fn side_effecting_tools_are_retried_only_when_the_policy_opts_in() {
    let not_idempotent = ToolAnnotations {
        idempotent: Some(false),
        ..ToolAnnotations::default()
    };
    let safe_to_repeat = ToolAnnotations {
        destructive: Some(true),
        idempotent: Some(true),
        ..ToolAnnotations::default()
    };
    let read_only = ToolAnnotations {
        read_only: Some(true),
        ..ToolAnnotations::default()
    };
    let read_only_not_idempotent = ToolAnnotations {
        idempotent: Some(false),
        ..read_only.clone()
    };
    let not_destructive = ToolAnnotations {
        destructive: Some(false),
        ..ToolAnnotations::default()
    };
    // MCP's defaults: a tool that does not say it is read-only or idempotent may repeat its
    // effect, whatever else it says, and one without hints too.
    let policy = RetryPolicy::exponential(MS).max_attempts(3);
    let cases = [
        (destructive(), 1),
        (not_idempotent, 1),
        (safe_to_repeat, 3),
        (ToolAnnotations::default(), 1),
        (read_only, 3),
        (read_only_not_idempotent, 1),
        (not_destructive, 1),
    ];
    for (hints, default_attempts) in cases {
        let script = Script::with_hints("rm", hints.clone(), [fail(busy())]);
        runtime(&script, policy.clone())
            .call("rm", &json!({}))
            .await
            .unwrap_err();
        assert_eq!(script.attempts().len(), default_attempts, "{hints:?}");

        let script = Script::with_hints("rm", hints.clone(), [fail(busy())]);
        let opted_in = policy.clone().retry_side_effects(true);
        runtime(&script, opted_in)
            .call("rm", &json!({}))
            .await
            .unwrap_err();
        assert_eq!(script.attempts().len(), 3, "{hints:?} opted in");
    }
}

#[tokio::test(start_paused = true)]
async fn a_slow_attempt_is_dropped_at_the_per_attempt_limit_and_retried() {
    let script = Script::repeatable(
        "slow",
        [after(Duration::from_secs(10), ok(json!(1))), ok(json!(2))],
    );
    let rt = runtime(&script, RetryPolicy::exponential(Duration::ZERO))
        .with_attempt_timeout(Duration::from_secs(1));
    let started = Instant::now();
    assert_eq!(rt.call("slow", &json!({})).await.unwrap().output, json!(2));
    assert_eq!(started.elapsed(), Duration::from_secs(1));
    assert_eq!(script.dropped.load(std::sync::atomic::Ordering::SeqCst), 1);
    let seen = script.seen.lock().unwrap().clone();
    assert_eq!(
        seen[0].deadline,
        Some(seen[0].started + Duration::from_secs(1))
    );

    let script = Script::repeatable("slow", [after(Duration::from_secs(10), ok(json!(1)))]);
    let rt = runtime(&script, RetryPolicy::exponential(Duration::ZERO))
        .with_attempt_timeout(Duration::from_secs(1));
    let failure = rt.call("slow", &json!({})).await.unwrap_err();
    assert_eq!(failure.code(), "attempt_timeout");
    assert_eq!(failure.kind(), FailureKind::Timeout);
    assert_eq!(
        failure.message(),
        "tool `slow` timed out: the per-attempt limit of 1000ms ran out"
    );
    assert_eq!(
        failure.data(),
        Some(&json!({"limit": "attempt", "limit_ms": 1000}))
    );
    assert_eq!(script.attempts(), [1, 2, 3]);
}

#[tokio::test(start_paused = true)]
async fn the_last_attempt_cannot_outlive_the_overall_deadline() {
    let script = Script::repeatable("slow", [after(Duration::from_secs(10), ok(json!(1)))]);
    let rt = runtime(
        &script,
        RetryPolicy::exponential(Duration::ZERO).max_attempts(10),
    )
    .with_attempt_timeout(Duration::from_secs(1));
    let started = Instant::now();
    let options = CallOptions::new().with_timeout(Duration::from_millis(2500));
    let failure = rt.call_with("slow", &json!({}), options).await.unwrap_err();
    assert_eq!(started.elapsed(), Duration::from_millis(2500));
    assert_eq!(failure.code(), "call_timeout");
    assert_eq!(
        failure.message(),
        "tool `slow` timed out: the call's overall limit of 2500ms ran out"
    );
    assert_eq!(script.attempts(), [1, 2, 3]);
    let last = script.seen.lock().unwrap()[2].clone();
    assert_eq!(last.deadline, Some(started + Duration::from_millis(2500)));
}

/// A token a task cancels after `delay`.
fn cancelled_in(delay: Duration) -> CancellationToken {
    let token = CancellationToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(delay).await;
        cancel.cancel();
    });
    token
}

#[tokio::test(start_paused = true)]
async fn cancelling_stops_an_attempt_and_the_backoff() {
    let script = Script::repeatable("slow", [after(Duration::from_secs(10), ok(json!(1)))]);
    let rt = runtime(&script, RetryPolicy::exponential(MS));
    let token = cancelled_in(Duration::from_secs(1));
    let options = CallOptions::new().with_cancellation(token);
    let failure = rt.call_with("slow", &json!({}), options).await.unwrap_err();
    assert_eq!(failure.kind(), FailureKind::Cancelled);
    assert_eq!(script.attempts(), [1]);

    let hinted = busy().with_retry_after(Duration::from_secs(60));
    let script = Script::repeatable("hinted", [fail(hinted), ok(json!("ok"))]);
    let rt = runtime(&script, RetryPolicy::exponential(MS));
    let token = cancelled_in(Duration::from_secs(1));
    let started = Instant::now();
    let options = CallOptions::new().with_cancellation(token);
    let failure = rt
        .call_with("hinted", &json!({}), options)
        .await
        .unwrap_err();
    assert_eq!(failure.kind(), FailureKind::Cancelled);
    assert_eq!(started.elapsed(), Duration::from_secs(1));
    assert_eq!(script.attempts(), [1]);
}

#[tokio::test(start_paused = true)]
async fn outputs_and_state_changes_must_be_i_json() {
    let too_big = json!({"a": [1, 9_007_199_254_740_993_u64]});
    let script = Script::repeatable("big", [ok(too_big.clone())]);
    let failure = runtime(&script, RetryPolicy::default())
        .call("big", &json!({}))
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "non_i_json_output");
    assert!(failure.is_terminal());
    assert_eq!(
        failure.message(),
        "tool `big` returned an output that is not I-JSON: integer above 2^53-1 at `/a/1`"
    );
    assert_eq!(
        failure.data(),
        Some(&json!({"pointer": "/a/1", "problem": "integer above 2^53-1"}))
    );
    assert_eq!(
        script.attempts(),
        [1],
        "the effect may have happened: no retry"
    );

    let changes = HashMap::from([("a/b".to_owned(), json!({"n": -9_007_199_254_740_992_i64}))]);
    let script = Script::repeatable("state", [Step::Answer(json!(1), changes)]);
    let failure = runtime(&script, RetryPolicy::default())
        .call("state", &json!({}))
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "non_i_json_state_change");
    assert_eq!(failure.data().unwrap()["pointer"], "/a~1b/n");

    // The largest safe integer passes; with the check off, anything does.
    let script = Script::repeatable("edge", [ok(json!(9_007_199_254_740_991_u64))]);
    runtime(&script, RetryPolicy::default())
        .call("edge", &json!({}))
        .await
        .unwrap();
    let script = Script::repeatable("big", [ok(too_big.clone())]);
    let rt = runtime(&script, RetryPolicy::default()).with_i_json_check(false);
    assert_eq!(rt.call("big", &json!({})).await.unwrap().output, too_big);
}

#[tokio::test(start_paused = true)]
async fn state_changes_must_have_exactly_the_expected_keys() {
    let changes = HashMap::from([
        ("cart".to_owned(), json!(1)),
        ("extra".to_owned(), json!(2)),
    ]);
    let expected = HashMap::from([("cart".to_owned(), json!(null))]);
    let script = Script::repeatable("buy", [Step::Answer(json!("ok"), changes.clone())]);
    let options = CallOptions::new().with_expected_effects(expected.clone());
    let failure = runtime(&script, RetryPolicy::default())
        .call_with("buy", &json!({}), options)
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "state_mismatch");
    assert_eq!(
        failure.data(),
        Some(&json!({"changed": ["cart", "extra"], "expected": ["cart"]}))
    );

    let only_cart = HashMap::from([("cart".to_owned(), json!(1))]);
    let script = Script::repeatable("buy", [Step::Answer(json!("ok"), only_cart.clone())]);
    let options = CallOptions::new().with_expected_effects(expected);
    let done = runtime(&script, RetryPolicy::default())
        .call_with("buy", &json!({}), options)
        .await
        .unwrap();
    assert_eq!(done.state_changes, only_cart);
}
