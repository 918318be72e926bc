//! The call contract of generated tools under every seed method: typed failures, unknown tools,
//! panics, timeouts, the caller's budget, cancellation, the context threaded through, and state
//! changes checked against the expected effects.

mod tool_support;

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use tool_executor::prelude::*;
use tool_executor::{FailureKind, Tool};
use tool_support::{NAP_DROPPED, SLOW_DROPPED, add, boom, call, nap, rt, set, sleepy, whoami};

#[test]
fn typed_failures_pass_through() {
    rt().block_on(async {
        let tools = set();
        let failure = call(
            &tools,
            "weather",
            json!({"location": {"city": "Atlantis"}, "days": 1, "tags": []}),
        )
        .await
        .unwrap_err();
        assert!(failure.is_terminal());
        assert_eq!(failure.code(), "unknown_city");
        let failure = call(&tools, "refuse", json!({"reason": "not today"}))
            .await
            .unwrap_err();
        assert_eq!(failure.message(), "not today");
        assert!(!failure.is_terminal());
        assert_eq!(
            tools.execute("refuse", &json!({"reason": "no"})).await,
            Err("no".to_owned())
        );
    });
}

#[test]
fn unknown_tools_are_unhandled() {
    rt().block_on(async {
        let tools = set();
        let failure = call(&tools, "nope", json!({})).await.unwrap_err();
        assert!(failure.is_unhandled());
        assert_eq!(failure.kind(), FailureKind::UnknownTool);
        assert_eq!(
            tools.execute("nope", &json!({})).await,
            Err("unknown tool `nope`".to_owned())
        );
    });
}

#[test]
fn a_panicking_tool_is_an_internal_failure_and_the_set_keeps_serving() {
    rt().block_on(async {
        let tools = set();
        let failure = call(&tools, "boom", json!({})).await.unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Internal);
        assert_eq!(failure.code(), "panic");
        assert_eq!(failure.message(), "tool `boom` panicked");
        assert!(
            !failure.to_string().contains("hunter2"),
            "the panic text is not shown to models"
        );
        assert!(
            format!("{failure:?}").contains("hunter2"),
            "but it is kept for logs"
        );
        assert_eq!(
            call(&tools, "add", json!({"a": 1, "b": 1})).await,
            Ok(json!(2))
        );
    });
}

#[test]
fn a_panic_under_a_deadline_or_token_is_an_internal_failure_too() {
    // `boom` takes no context: without a deadline or token its call skips `drive`, with
    // either it goes through it; both catch the panic.
    rt().block_on(async {
        let tools = set();
        for ctx in [
            ToolContext::new().with_timeout(Duration::from_secs(10)),
            ToolContext::new().with_cancellation(CancellationToken::new()),
        ] {
            let failure = tools
                .execute_with_context("boom", &json!({}), ctx)
                .await
                .unwrap_err();
            assert_eq!(failure.kind(), FailureKind::Internal);
            assert_eq!(failure.code(), "panic");
            assert_eq!(failure.message(), "tool `boom` panicked");
        }
    });
}

#[test]
fn the_tool_timeout_is_enforced() {
    rt().block_on(async {
        let failure =
            tokio::time::timeout(Duration::from_secs(10), call(&set(), "sleepy", json!({})))
                .await
                .expect("the tool's own timeout fires long before this one")
                .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Timeout);
        assert_eq!(failure.message(), "tool `sleepy` timed out after 30ms");
        assert!(!failure.is_terminal(), "a timeout may be retried");
    });
}

#[test]
fn the_callers_budget_bounds_the_call() {
    rt().block_on(async {
        let tools = set();
        let empty = HashMap::new();
        let failure = tokio::time::timeout(
            Duration::from_secs(10),
            tools.execute_classified("slow", &json!({}), "a-1", Some(20), None, 1, &empty, None),
        )
        .await
        .expect("timeout_ms bounds the wait")
        .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Timeout);
    });
}

#[test]
fn cancellation_drops_the_tool_future() {
    rt().block_on(async {
        SLOW_DROPPED.store(false, Ordering::SeqCst);
        let token = CancellationToken::new();
        let ctx = ToolContext::new().with_cancellation(token.clone());
        let tools = set();
        let params = json!({});
        let call = tools.execute_with_context("slow", &params, ctx);
        let canceller = async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            token.cancel();
        };
        let (result, ()) = tokio::join!(call, canceller);
        let failure = result.unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Cancelled);
        assert!(failure.is_terminal());
        assert!(SLOW_DROPPED.load(Ordering::SeqCst));
    });
}

#[test]
fn tools_that_do_not_read_their_context_answer_alike_under_any_seed_method() {
    rt().block_on(async {
        let out = <add as Tool>::run(&json!({"a": 2, "b": 3}), ToolContext::new())
            .await
            .unwrap();
        assert_eq!(out.output, json!(5));
        assert!(out.state_changes.is_empty());
        let failure = <add as Tool>::run(&json!({"a": "two"}), ToolContext::new())
            .await
            .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::InvalidArguments);

        // Every seed method, whatever it carries, gets the same answer.
        let tools = set();
        let params = json!({"a": 2, "b": 3});
        let effects = HashMap::from([("k".to_owned(), json!(null))]);
        let classified = tools
            .execute_classified("add", &params, "a-1", None, Some("s"), 2, &effects, None)
            .await
            .unwrap();
        assert_eq!(classified.output, json!(5));
        assert!(classified.state_changes.is_empty());
        let budgeted = tools
            .execute_classified("add", &params, "", Some(60_000), None, 1, &effects, None)
            .await
            .unwrap();
        assert_eq!(budgeted.output, json!(5));
        assert_eq!(tools.execute("add", &params).await, Ok(json!(5)));
        assert_eq!(
            tools
                .execute_with_action_in_session("add", &params, "a", None, None, 1)
                .await,
            Ok(json!(5))
        );
    });
}

#[test]
fn tools_without_a_context_still_honour_deadlines_and_tokens() {
    rt().block_on(async {
        let tools = set();
        let empty = HashMap::new();
        let params = json!({});
        let bounded = |fut| tokio::time::timeout(Duration::from_secs(10), fut);

        NAP_DROPPED.store(false, Ordering::SeqCst);
        let failure =
            bounded(tools.execute_classified("nap", &params, "", Some(20), None, 1, &empty, None))
                .await
                .expect("timeout_ms bounds a tool that takes no context")
                .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Timeout);
        assert!(
            NAP_DROPPED.load(Ordering::SeqCst),
            "the tool's future is dropped"
        );

        NAP_DROPPED.store(false, Ordering::SeqCst);
        let failure = bounded(Box::pin(<nap as Tool>::run(
            &params,
            ToolContext::new().with_timeout(Duration::from_millis(20)),
        )))
        .await
        .expect("a deadline bounds `Tool::run` too")
        .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Timeout);
        assert!(NAP_DROPPED.load(Ordering::SeqCst));

        NAP_DROPPED.store(false, Ordering::SeqCst);
        let token = CancellationToken::new();
        let ctx = ToolContext::new().with_cancellation(token.clone());
        let call = tools.execute_with_context("nap", &params, ctx);
        let canceller = async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            token.cancel();
        };
        let (result, ()) = tokio::join!(bounded(call), canceller);
        let failure = result.expect("the token ends the call").unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Cancelled);
        assert!(NAP_DROPPED.load(Ordering::SeqCst));
    });
}

#[test]
fn the_seed_methods_thread_the_context_through() {
    rt().block_on(async {
        let tools = set();
        let empty = HashMap::new();
        let out = tools
            .execute_classified("whoami", &json!({}), "act-7", Some(60_000), Some("sess-1"), 3, &empty, None)
            .await
            .unwrap();
        assert_eq!(
            out.output,
            json!({"action_id": "act-7", "session_id": "sess-1", "attempt": 3, "has_deadline": true})
        );
        let out = tools
            .execute_with_action_in_session("whoami", &json!({}), "act-8", None, Some("s"), 2)
            .await
            .unwrap();
        assert_eq!(out, json!({"action_id": "act-8", "session_id": "s", "attempt": 2, "has_deadline": false}));
        let out = tools.execute_with_action("whoami", &json!({}), "act-9", None).await.unwrap();
        assert_eq!(out, json!({"action_id": "act-9", "session_id": null, "attempt": 1, "has_deadline": false}));
        let out = tools.execute("whoami", &json!({})).await.unwrap();
        assert_eq!(out["attempt"], 1, "attempt is 1-based");
    });
}

#[test]
fn state_changes_are_returned_and_checked_against_expected_effects() {
    rt().block_on(async {
        let tools = set();
        let params = json!({"key": "k", "value": 5});
        let mut effects = HashMap::new();
        effects.insert("k".to_owned(), json!(null));
        let out = tools
            .execute_classified("remember", &params, "", None, None, 1, &effects, None)
            .await
            .unwrap();
        assert_eq!(
            out.state_changes,
            HashMap::from([("k".to_owned(), json!(5))])
        );
        let state = tools
            .execute_with_action_state_in_session(
                "remember", &params, "", None, None, 1, &effects, None,
            )
            .await
            .unwrap();
        assert_eq!(state.state_changes["k"], json!(5));

        let mut other = HashMap::new();
        other.insert("other".to_owned(), json!(null));
        let failure = tools
            .execute_classified("remember", &params, "", None, None, 1, &other, None)
            .await
            .unwrap_err();
        assert_eq!(failure.code(), "state_mismatch");
        assert!(failure.is_terminal());
        assert_eq!(
            failure.message(),
            r#"recorded state changes ["k"] do not match the expected effects ["other"]"#
        );
    });
}

#[test]
fn the_output_entry_answers_as_the_call_with_an_empty_context() {
    // `#[tool]` marks exactly the tools that take no `&ToolContext` and have no `timeout`.
    let reads = [
        <add as Tool>::READS_CONTEXT,
        <boom as Tool>::READS_CONTEXT,
        <whoami as Tool>::READS_CONTEXT,
        <sleepy as Tool>::READS_CONTEXT,
    ];
    assert_eq!(reads, [false, false, true, true]);
    rt().block_on(async {
        let params = json!({"a": 2, "b": 3});
        let output = <add as Tool>::output(&params).await.unwrap();
        let call = <add as Tool>::run(&params, ToolContext::new())
            .await
            .unwrap();
        assert_eq!(output, json!(5));
        assert_eq!(output, call.output);
        let bad = json!({"a": "two"});
        let output = <add as Tool>::output(&bad).await.unwrap_err();
        let call = <add as Tool>::run(&bad, ToolContext::new())
            .await
            .unwrap_err();
        assert_eq!(output.kind(), FailureKind::InvalidArguments);
        assert_eq!(output.message(), call.message());

        // The panic boundary is the output's own.
        let panic = <boom as Tool>::output(&json!({"message": "bang"}))
            .await
            .unwrap_err();
        assert_eq!(panic.kind(), FailureKind::Internal);
        assert_eq!(panic.code(), "panic");
        assert_eq!(panic.message(), "tool `boom` panicked");

        // A tool that reads its context gets the default: its call with an empty context.
        let output = <whoami as Tool>::output(&json!({})).await.unwrap();
        assert_eq!(
            output,
            json!({"action_id": "", "session_id": null, "attempt": 1, "has_deadline": false})
        );

        // Through a set, the seed's plain `execute` and a typed call without a budget take the
        // output entry; a budget still bounds the call.
        let tools = set();
        assert_eq!(tools.execute("add", &params).await, Ok(json!(5)));
        assert_eq!(
            tools.execute("boom", &json!({})).await,
            Err("tool `boom` panicked".to_owned())
        );
        let typed = tools
            .execute_with_context("add", &params, ToolContext::new().with_action_id("a"))
            .await
            .unwrap();
        assert_eq!(typed.output, json!(5));
        assert!(typed.state_changes.is_empty());
    });
}
