//! Fallback chains, prefix routing, and the runtime used as an executor.

mod runtime_support;

use std::sync::Arc;
use std::time::Duration;

use runtime_support::{Script, Step, fail, ok};
use tokio::sync::mpsc;
use tool_executor::prelude::*;
use tool_executor::runtime::{FallbackChain, PrefixRouter, RetryPolicy, Runtime};
use tool_executor::tool::{DuplicateTool, ToolStreamChunk};
use tool_executor::{FailureKind, ToolContext};

/// Adds two numbers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Looks up a city.
#[tool]
fn city(name: &str) -> Result<String, ToolFailure> {
    Err(ToolFailure::terminal(format!("no such city `{name}`")).with_code("unknown_city"))
}

/// Reads a file.
#[tool]
fn read(path: &str) -> String {
    format!("contents of {path}")
}

fn shared(executor: impl ToolExecutor + 'static) -> Arc<dyn ToolExecutor> {
    Arc::new(executor)
}

#[tokio::test]
async fn a_chain_routes_listed_tools_to_their_owner_and_merges_the_specs() {
    let late = Script::unlisted([ok(json!("from the unlisted executor"))]);
    let chain =
        FallbackChain::new([shared(toolset![add]), shared(toolset![city]), late.clone()]).unwrap();
    let names: Vec<_> = chain.specs().iter().map(|s| s.name.clone()).collect();
    assert_eq!(names, ["add", "city"]);
    assert_eq!(
        chain.execute("add", &json!({"a": 2, "b": 3})).await,
        Ok(json!(5))
    );

    // A typed failure of the owner is the answer: nothing after it runs.
    let failure = chain
        .execute_with_context("city", &json!({"name": "Atlantis"}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "unknown_city");
    assert!(failure.is_terminal());
    assert!(late.seen.lock().unwrap().is_empty());
    // A name nobody lists goes to the executor that lists nothing.
    let done = chain.execute("weather", &json!({})).await;
    assert_eq!(done, Ok(json!("from the unlisted executor")));
    assert_eq!(late.seen.lock().unwrap()[0].tool, "weather");
}

#[tokio::test]
async fn only_an_unhandled_failure_goes_on_to_the_next_executor() {
    let not_mine = Script::unlisted([fail(ToolFailure::unhandled("not mine"))]);
    let relayed: ToolFailure = serde_json::from_value(
        serde_json::to_value(ToolFailure::unknown_tool("peer_tool")).unwrap(),
    )
    .unwrap();
    let peer = Script::unlisted([fail(relayed)]);
    let last = Script::unlisted([ok(json!("last"))]);

    let chain = FallbackChain::new([not_mine.clone() as _, last.clone() as _]).unwrap();
    let ctx = ToolContext::new().with_action_id("a-7").with_attempt(2);
    let done = chain
        .execute_with_context("x", &json!({}), ctx)
        .await
        .unwrap();
    assert_eq!(done.output, json!("last"));
    let seen = last.seen.lock().unwrap()[0].clone();
    assert_eq!((seen.action_id.as_str(), seen.attempt), ("a-7", 2));

    // A peer's "unknown tool" read off the wire is not unhandled: it cannot reroute the call.
    let chain = FallbackChain::new([peer.clone() as _, last.clone() as _]).unwrap();
    let failure = chain
        .execute_with_context("x", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.kind(), FailureKind::UnknownTool);
    assert!(!failure.is_unhandled());
    assert_eq!(
        last.seen.lock().unwrap().len(),
        1,
        "the last executor was not called again"
    );

    // Nobody serves it: the last unhandled failure.
    let chain = FallbackChain::new([not_mine.clone() as _]).unwrap();
    let failure = chain
        .execute_with_context("x", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.message(), "not mine");
    let chain = FallbackChain::new([shared(toolset![add])]).unwrap();
    let failure = chain
        .execute_with_context("x", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(
        (failure.kind(), failure.is_unhandled()),
        (FailureKind::UnknownTool, true)
    );
}

#[tokio::test]
async fn a_chain_relays_the_stream_of_the_executor_that_answers() {
    let not_mine = Script::unlisted([fail(ToolFailure::unhandled("not mine"))]);
    let streams = Script::unlisted([Step::Text(2)]);
    let chain = FallbackChain::new([not_mine as _, streams as _]).unwrap();
    let (tx, mut rx) = mpsc::channel(8);
    let done = chain
        .execute_with_context("x", &json!({}), ToolContext::new().with_stream(tx))
        .await
        .unwrap();
    assert_eq!(done.output, json!("done"));
    let text = |t: &str| ToolStreamChunk::Text { text: t.into() };
    assert_eq!(rx.recv().await, Some(text("text 0")));
    assert_eq!(rx.recv().await, Some(text("text 1")));
}

#[test]
fn duplicate_names_are_an_error() {
    let twice = FallbackChain::new([shared(toolset![add]), shared(toolset![add])]);
    assert_eq!(twice.unwrap_err(), DuplicateTool("add".into()));
    let clash = PrefixRouter::builder()
        .strip("m_", shared(toolset![add]))
        .keep("m_", Script::new("m_add", [ok(json!(1))]))
        .build();
    assert_eq!(clash.unwrap_err(), DuplicateTool("m_add".into()));
}

#[tokio::test]
async fn prefixes_route_calls_stripped_or_kept_longest_first() {
    let kept = Script::new("mcp_files_special", [ok(json!("kept"))]);
    let router = PrefixRouter::builder()
        .strip("mcp_files_", shared(toolset![read]))
        .keep("mcp_files_special", kept.clone())
        .strip("math.", shared(toolset![add]))
        .build()
        .unwrap();
    let names: Vec<_> = router.specs().iter().map(|s| s.name.clone()).collect();
    assert_eq!(names, ["mcp_files_read", "mcp_files_special", "math.add"]);

    let read = router
        .execute("mcp_files_read", &json!({"path": "a.txt"}))
        .await;
    assert_eq!(read, Ok(json!("contents of a.txt")));
    assert_eq!(
        router.execute("mcp_files_special", &json!({})).await,
        Ok(json!("kept"))
    );
    assert_eq!(kept.seen.lock().unwrap()[0].tool, "mcp_files_special");
    assert_eq!(
        router.execute("math.add", &json!({"a": 1, "b": 2})).await,
        Ok(json!(3))
    );

    let failure = router
        .execute_with_context("web_fetch", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(
        (failure.kind(), failure.is_unhandled()),
        (FailureKind::UnknownTool, true)
    );
    // A prefix that matches but names nothing the executor has: the executor's own answer.
    let failure = router
        .execute_with_context("math.sub", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.message(), "unknown tool `sub`");
}

#[tokio::test(start_paused = true)]
async fn the_runtime_is_an_executor_that_relays_every_attempt_s_stream() {
    let busy = ToolFailure::ordinary("busy").with_retry_after(Duration::from_secs(1));
    let script = Script::repeatable("flaky", [Step::Fail(busy), Step::Progress(2)]);
    let runtime = Runtime::from_shared(script.clone())
        .with_retry(RetryPolicy::exponential(Duration::from_millis(1)));
    let served: Arc<dyn ToolExecutor> = Arc::new(runtime);
    let (tx, mut rx) = mpsc::channel(8);
    let ctx = ToolContext::new()
        .with_action_id("call-1")
        .with_idempotency_key("k-1")
        .with_stream(tx);
    let done = served
        .execute_with_context("flaky", &json!({}), ctx)
        .await
        .unwrap();
    assert_eq!(done.output, json!("done"));
    assert_eq!(script.attempts(), [1, 2]);
    let seen = script.seen.lock().unwrap().clone();
    assert!(
        seen.iter()
            .all(|s| s.key.as_deref() == Some("k-1") && s.action_id == "call-1")
    );
    let progress = |fraction, step: &str| ToolStreamChunk::Progress {
        fraction,
        message: Some(step.into()),
    };
    assert_eq!(rx.recv().await, Some(progress(0.5, "step 1")));
    assert_eq!(rx.recv().await, Some(progress(1.0, "step 2")));
    assert_eq!(served.specs()[0].name, "flaky");
    // The seed's string layer gets the message.
    let script = Script::new("down", [fail(ToolFailure::terminal("gone for good"))]);
    let runtime = Runtime::from_shared(script);
    assert_eq!(
        runtime.execute("down", &json!({})).await,
        Err("gone for good".into())
    );
}

/// Every seed method of a chain, a router and a runtime keeps the typed failure and the call's
/// ids. They implemented only `execute` and `execute_with_context` before, so the seed's
/// `execute_classified` went through the string layer: a terminal failure came back ordinary,
/// its code lost, and `execute_with_action` dropped the action id.
#[tokio::test]
async fn every_seed_method_of_a_composer_keeps_the_typed_failure() {
    let chain = FallbackChain::new([shared(toolset![city])]).unwrap();
    let router = PrefixRouter::builder()
        .strip("geo_", shared(toolset![city]))
        .build()
        .unwrap();
    let runtime = Runtime::new(toolset![city]);
    let effects = std::collections::HashMap::new();
    let cases: [(&dyn ToolExecutor, &str); 3] =
        [(&chain, "city"), (&router, "geo_city"), (&runtime, "city")];
    for (executor, tool) in cases {
        let failure = executor
            .execute_classified(
                tool,
                &json!({"name": "Atlantis"}),
                "a-1",
                None,
                None,
                1,
                &effects,
                None,
            )
            .await
            .unwrap_err();
        assert_eq!(failure.code(), "unknown_city", "{tool}");
        assert!(failure.is_terminal(), "{tool}");
        assert_eq!(
            executor
                .execute_with_action(tool, &json!({"name": "Atlantis"}), "a-1", Some(1_000))
                .await,
            Err("no such city `Atlantis`".to_owned()),
            "{tool}"
        );
    }
}
