//! Our `#[tools]` inside car-engine 0.60's own `Runtime`, through `car_executor!`: car's
//! validator, retry loop, terminal stop, built-in fall-through, per-attempt timeout,
//! expected-effects check and handle registry, all real. Run by `bash .ci/car-check.sh`.

use std::sync::Arc;
use std::time::Duration;

use car_engine::Runtime;
use car_ir::{ActionProposal, ActionResult, ActionStatus, ToolStatus, ToolStreamChunk};
use executor_car_integration::CarTools;
use executor_car_integration::tools::Probe;
use serde_json::{Value, json};
use tool_executor::ToolFailure;

/// car's runtime with the probe's tools as its executor, every tool registered.
async fn runtime() -> (Probe, Runtime) {
    let probe = Probe::default();
    let tools = CarTools::new(probe.clone());
    let runtime = Runtime::new().with_executor(Arc::new(tools.clone()));
    tools.register_all(&runtime).await;
    (probe, runtime)
}

/// Runs one proposal of `actions` (car's JSON form) and returns its results.
async fn run(runtime: &Runtime, actions: Value) -> Vec<ActionResult> {
    let proposal: ActionProposal =
        serde_json::from_value(json!({"id": "p", "source": "test", "actions": actions}))
            .expect("a proposal");
    runtime.execute(&proposal).await.results
}

/// An action result's failure as ours: class from car's fields, details from the marker.
fn failure_of(result: &ActionResult) -> ToolFailure {
    let message = result.error.clone().expect("a failed action has an error");
    let car = if result.terminal {
        car_ir::ToolFailure::terminal(message)
    } else {
        car_ir::ToolFailure::ordinary(message)
    };
    ToolFailure::from(car)
}

#[tokio::test]
async fn a_call_succeeds_with_what_car_passed() {
    let (_, runtime) = runtime().await;
    let results = run(
        &runtime,
        json!([
            {"id": "add-1", "type": "tool_call", "tool": "add", "parameters": {"a": 2, "b": 40}},
            {"id": "who-1", "type": "tool_call", "tool": "whoami", "timeout_ms": 5000},
        ]),
    )
    .await;
    assert_eq!(results[0].status, ActionStatus::Succeeded);
    assert_eq!(results[0].output, Some(json!(42)));
    assert_eq!(
        results[1].output,
        Some(json!({
            "action_id": "who-1",
            "session_id": null,
            "attempt": 1,
            "has_budget": true,
            "expected_effects": null,
        }))
    );

    // car's validator checks arguments against the registered input schema.
    let rejected = run(
        &runtime,
        json!([{"type": "tool_call", "tool": "add", "parameters": {"a": "two", "b": 1}}]),
    )
    .await;
    assert_eq!(rejected[0].status, ActionStatus::Rejected);
    let reason = rejected[0].error.as_deref().unwrap_or_default();
    assert!(reason.contains("parameter validation"), "{reason}");
}

#[tokio::test]
async fn car_retries_an_ordinary_failure_and_the_tool_sees_each_attempt() {
    let (probe, runtime) = runtime().await;
    let results = run(
        &runtime,
        json!([{
            "type": "tool_call", "tool": "flaky", "parameters": {"until": 3},
            "failure_behavior": "retry", "max_retries": 3,
        }]),
    )
    .await;
    assert_eq!(results[0].status, ActionStatus::Succeeded);
    assert_eq!(results[0].output, Some(json!([1, 2, 3])));
    assert_eq!(probe.attempts(), [1, 2, 3]);

    // Without `retry` car tries once; the failure keeps its code, hint and data.
    let results = run(
        &runtime,
        json!([{"type": "tool_call", "tool": "flaky", "parameters": {"until": 9}}]),
    )
    .await;
    assert_eq!(results[0].status, ActionStatus::Failed);
    assert!(!results[0].terminal);
    let failure = failure_of(&results[0]);
    assert_eq!(failure.message(), "busy on attempt 1");
    assert_eq!(failure.code(), "busy");
    assert_eq!(failure.retry_after(), Some(Duration::from_millis(5)));
    assert_eq!(failure.data(), Some(&json!({"attempt": 1})));
    assert_eq!(probe.attempts(), [1, 2, 3, 1]);
}

/// A failing first action (behaviour `skip`), a state write beside it and an `add` that
/// depends on that write, so it runs in the next DAG level.
fn three_actions(tool: &str, params: Value) -> Value {
    json!([
        {"id": "first", "type": "tool_call", "tool": tool, "parameters": params,
         "failure_behavior": "skip", "max_retries": 2},
        {"id": "write", "type": "state_write", "parameters": {"key": "k", "value": 1},
         "failure_behavior": "skip"},
        {"id": "next", "type": "tool_call", "tool": "add", "parameters": {"a": 1, "b": 1},
         "state_dependencies": ["k"], "failure_behavior": "skip"},
    ])
}

#[tokio::test]
async fn a_terminal_failure_stops_the_proposal() {
    let (_, runtime) = runtime().await;
    let results = run(
        &runtime,
        three_actions("forecast", json!({"city": "Atlantis"})),
    )
    .await;
    assert_eq!(results[0].status, ActionStatus::Failed);
    assert!(results[0].terminal);
    let failure = failure_of(&results[0]);
    assert!(failure.is_terminal());
    assert_eq!(failure.message(), "unknown city `Atlantis`");
    assert_eq!(failure.code(), "unknown_city");
    assert_eq!(failure.data(), Some(&json!({"city": "Atlantis"})));
    assert_eq!(results[2].status, ActionStatus::Skipped);
    assert_eq!(runtime.state.get("k"), None, "the proposal was rolled back");

    // The same proposal with an ordinary failure goes on (`skip`, after car's retries).
    let (probe, runtime) = self::runtime().await;
    let results = run(&runtime, three_actions("flaky", json!({"until": 99}))).await;
    assert_eq!(results[0].status, ActionStatus::Skipped);
    assert_eq!(probe.attempts(), [1, 2, 3]);
    assert_eq!(results[2].status, ActionStatus::Succeeded);
    assert_eq!(runtime.state.get("k"), Some(json!(1)));
}

#[tokio::test]
async fn an_unknown_tool_falls_through_to_cars_built_ins() {
    let (_, runtime) = runtime().await;
    runtime.register_agent_basics().await;
    let results = run(
        &runtime,
        json!([{"type": "tool_call", "tool": "calculate", "parameters": {"expression": "6 * 7"}}]),
    )
    .await;
    assert_eq!(
        results[0].status,
        ActionStatus::Succeeded,
        "{:?}",
        results[0]
    );
    assert_eq!(results[0].output, Some(json!({"result": 42.0})));
}

#[tokio::test]
async fn a_timed_out_attempt_drops_the_tool() {
    let (probe, runtime) = runtime().await;
    let results = run(
        &runtime,
        json!([{
            "type": "tool_call", "tool": "nap", "parameters": {"ms": 60_000},
            "timeout_ms": 50, "failure_behavior": "retry", "max_retries": 1,
        }]),
    )
    .await;
    assert_eq!(results[0].status, ActionStatus::Failed);
    assert!(!results[0].terminal);
    // car's timer or the tool's own deadline (the same budget) fires first; both drop it.
    let error = results[0].error.as_deref().unwrap_or_default();
    assert!(error.contains("timed out after"), "{error}");
    assert_eq!(probe.dropped(), 2, "both attempts were dropped");
}

#[tokio::test]
async fn state_changes_are_checked_against_the_expected_effects() {
    let (_, runtime) = runtime().await;
    let store = |expected: Value| {
        json!([{
            "id": "store-1", "type": "tool_call", "tool": "store",
            "parameters": {"key": "greeting", "value": "hi"}, "expected_effects": expected,
        }])
    };
    let results = run(&runtime, store(json!({"greeting": "hi"}))).await;
    assert_eq!(
        results[0].status,
        ActionStatus::Succeeded,
        "{:?}",
        results[0]
    );
    assert_eq!(runtime.state.get("greeting"), Some(json!("hi")));
    assert_eq!(
        json!(results[0].state_changes),
        json!({"greeting": {"op": "set", "value": "hi"}})
    );

    // Declared nothing, changed something: car's own key-set check refuses the changes.
    let (_, runtime) = self::runtime().await;
    let results = run(&runtime, store(json!({}))).await;
    assert_eq!(results[0].status, ActionStatus::Failed);
    let error = results[0].error.as_deref().unwrap_or_default();
    assert!(
        error.contains("callback state_changes keys do not match action"),
        "{error}"
    );
    assert_eq!(runtime.state.get("greeting"), None);

    // Declared another key: our check fails the call first, terminally.
    let results = run(&runtime, store(json!({"farewell": "bye"}))).await;
    assert!(results[0].terminal);
    assert_eq!(failure_of(&results[0]).code(), "state_mismatch");
    assert_eq!(runtime.state.get("greeting"), None);
}

/// Polls `handle` until its buffered chunks satisfy `done`, gathering them (at most 5 s).
async fn poll_until(
    runtime: &Runtime,
    handle: &str,
    done: impl Fn(&[ToolStreamChunk], ToolStatus) -> bool,
) -> (Vec<ToolStreamChunk>, ToolStatus) {
    let mut chunks = Vec::new();
    for _ in 0..500 {
        let poll = runtime.tool_poll(handle).await.expect("a live handle");
        chunks.extend(poll.chunks);
        if done(&chunks, poll.status) {
            return (chunks, poll.status);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("handle {handle} never got there: {chunks:?}");
}

fn handle_of(result: &ActionResult) -> String {
    let output = result.output.as_ref().expect("a detached action's output");
    assert_eq!(output["status"], "running");
    output["tool_handle"]
        .as_str()
        .expect("a handle id")
        .to_owned()
}

#[tokio::test]
async fn a_streaming_call_runs_in_cars_handle_registry_and_is_cancelled() {
    let (probe, runtime) = runtime().await;
    let results = run(
        &runtime,
        json!([{"id": "tail-1", "type": "tool_call", "tool": "tail", "invocation_mode": "streaming"}]),
    )
    .await;
    assert_eq!(results[0].status, ActionStatus::Succeeded);
    let handle = handle_of(&results[0]);

    let (chunks, status) = poll_until(&runtime, &handle, |chunks, _| chunks.len() >= 4).await;
    assert_eq!(status, ToolStatus::Running);
    assert_eq!(
        chunks[..4],
        [
            ToolStreamChunk::Text {
                text: "line 0".into()
            },
            ToolStreamChunk::Progress {
                fraction: 0.5,
                message: Some("0 lines".into())
            },
            ToolStreamChunk::Text {
                text: "line 1".into()
            },
            ToolStreamChunk::Progress {
                fraction: 0.5,
                message: Some("1 lines".into())
            },
        ]
    );
    assert_eq!(probe.dropped(), 0);

    assert!(runtime.tool_cancel(&handle).await);
    let poll = runtime.tool_poll(&handle).await.expect("still queryable");
    assert_eq!(poll.status, ToolStatus::Cancelled);
    assert!(
        probe.wait_dropped(1, Duration::from_secs(5)).await,
        "cancelling the handle dropped the tool"
    );
}

#[tokio::test]
async fn a_streamed_failure_ends_the_handle_with_its_details() {
    let (_, runtime) = runtime().await;
    let results = run(
        &runtime,
        json!([{"type": "tool_call", "tool": "forecast", "parameters": {"city": "Atlantis"},
                "invocation_mode": "long_running"}]),
    )
    .await;
    let handle = handle_of(&results[0]);
    let (chunks, status) =
        poll_until(&runtime, &handle, |_, status| status != ToolStatus::Running).await;
    assert_eq!(status, ToolStatus::Failed);
    let [end] = &chunks[..] else {
        panic!("one terminal chunk: {chunks:?}");
    };
    let tool_executor::ToolStreamChunk::Error {
        message,
        code,
        classification,
        ..
    } = end.clone().into()
    else {
        panic!("an error chunk: {end:?}");
    };
    assert_eq!(message, "unknown city `Atlantis`");
    assert_eq!(code.as_deref(), Some("unknown_city"));
    assert_eq!(
        classification,
        Some(tool_executor::Classification::Terminal)
    );
}
