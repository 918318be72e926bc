//! `car_executor!` expanded against car-engine 0.60's exact `ToolExecutor` trait, without
//! building car-engine: this crate is its own `car_engine` (`extern crate self`), whose root
//! holds a verbatim copy of the trait (`car_stand_in/`, checked against car-engine's source by
//! `.ci/car-check.sh`). Every one of car's six methods is called through
//! `Arc<dyn car_engine::ToolExecutor>` on the same tools `integration/car` runs inside car's
//! real `Runtime`.

#![cfg(feature = "car-ir")]

extern crate self as car_engine;

// The copy is car-engine's text, kept verbatim: its docs and lints are car-engine's.
#[allow(missing_docs, clippy::all, clippy::pedantic)]
mod car_stand_in;
mod car_tools;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

pub use car_stand_in::{Runtime, ToolExecution, ToolExecutor};
use car_tools::Probe;
use serde_json::{Value, json};
use tool_executor::ToolFailure;

tool_executor::car_executor!(
    /// The probe's tools as car-engine's `ToolExecutor`.
    CarTools
);

fn bridge() -> (Probe, Arc<dyn car_engine::ToolExecutor>) {
    let probe = Probe::default();
    (probe.clone(), Arc::new(CarTools::new(probe)))
}

fn seen(action_id: &str, session_id: Option<&str>, attempt: u32, budget: bool) -> Value {
    json!({
        "action_id": action_id,
        "session_id": session_id,
        "attempt": attempt,
        "has_budget": budget,
        "expected_effects": null,
    })
}

#[tokio::test]
async fn each_seed_method_hands_the_tool_what_it_carried() {
    let (_, car) = bridge();
    let none = json!({});
    assert_eq!(
        car.execute("add", &json!({"a": 2, "b": 40})).await,
        Ok(json!(42))
    );
    assert_eq!(
        car.execute("whoami", &none).await,
        Ok(seen("", None, 1, false))
    );
    assert_eq!(
        car.execute_with_action("whoami", &none, "a-1", Some(5_000))
            .await,
        Ok(seen("a-1", None, 1, true))
    );
    assert_eq!(
        car.execute_with_action_in_session("whoami", &none, "a-2", None, Some("s-1"), 3)
            .await,
        Ok(seen("a-2", Some("s-1"), 3, false))
    );
    let effects = HashMap::from([("k".to_owned(), json!(1))]);
    let mut expected = seen("a-3", Some("s-2"), 2, true);
    expected["expected_effects"] = json!({"k": 1});
    let state = car
        .execute_with_action_state_in_session(
            "whoami",
            &none,
            "a-3",
            Some(5_000),
            Some("s-2"),
            2,
            &effects,
            None,
        )
        .await;
    assert_eq!(state, Ok(ToolExecution::output_only(expected.clone())));
    let schema = json!({"type": "object"});
    let classified = car
        .execute_classified(
            "whoami",
            &none,
            "a-3",
            Some(5_000),
            Some("s-2"),
            2,
            &effects,
            Some(&schema),
        )
        .await;
    assert_eq!(classified, Ok(ToolExecution::output_only(expected)));
}

#[tokio::test]
async fn recorded_state_changes_come_back_as_cars_state_changes() {
    let (_, car) = bridge();
    let params = json!({"key": "greeting", "value": "hi"});
    let effects = HashMap::from([("greeting".to_owned(), json!("hi"))]);
    let done = car
        .execute_classified("store", &params, "a", None, None, 1, &effects, None)
        .await;
    assert_eq!(
        done,
        Ok(ToolExecution {
            output: json!(true),
            state_changes: effects,
        })
    );

    // Keys other than the expected ones: our own check fails the call (terminal) before car's.
    let other = HashMap::from([("farewell".to_owned(), json!("bye"))]);
    let refused = car
        .execute_classified("store", &params, "a", None, None, 1, &other, None)
        .await
        .unwrap_err();
    assert!(refused.is_terminal());
    let ours = ToolFailure::from(&refused);
    assert_eq!(ours.code(), "state_mismatch");
    assert_eq!(
        ours.message(),
        r#"recorded state changes ["greeting"] do not match the expected effects ["farewell"]"#
    );
}

#[tokio::test]
async fn typed_failures_keep_their_class_and_details() {
    let (probe, car) = bridge();
    let empty = HashMap::new();
    let call = |tool: &'static str, params: Value| {
        let car = Arc::clone(&car);
        let empty = empty.clone();
        async move {
            car.execute_classified(tool, &params, "a", None, None, 1, &empty, None)
                .await
                .unwrap_err()
        }
    };

    let busy = call("flaky", json!({"until": 2})).await;
    assert!(!busy.is_terminal() && !busy.is_unhandled());
    let ours = ToolFailure::from(&busy);
    assert_eq!(ours.message(), "busy on attempt 1");
    assert_eq!(ours.code(), "busy");
    assert_eq!(ours.retry_after(), Some(Duration::from_millis(5)));
    assert_eq!(ours.data(), Some(&json!({"attempt": 1})));
    assert_eq!(probe.attempts(), [1]);

    let terminal = call("forecast", json!({"city": "Atlantis"})).await;
    assert!(terminal.is_terminal());
    assert_eq!(
        terminal.message,
        concat!(
            "unknown city `Atlantis` [executor/failure ",
            r#"{"classification":"terminal","code":"unknown_city","data":{"city":"Atlantis"},"kind":"tool"}]"#
        )
    );

    // Not ours: unhandled, so car's runtime runs its built-in of that name.
    let unknown = call("read_file", json!({"path": "/etc/hostname"})).await;
    assert!(unknown.is_unhandled());
    assert!(
        unknown.message.starts_with("unknown tool `read_file`"),
        "{}",
        unknown.message
    );

    // Invalid arguments never reach the tool.
    let invalid = call("flaky", json!({"until": "two"})).await;
    assert_eq!(ToolFailure::from(&invalid).code(), "invalid_arguments");
    assert_eq!(probe.attempts(), [1]);

    // car's string layers carry the same text as the typed failure.
    assert_eq!(
        car.execute("forecast", &json!({"city": "Atlantis"})).await,
        Err(terminal.message)
    );
}

#[tokio::test]
async fn a_dropped_call_drops_the_tool() {
    let (probe, car) = bridge();
    let empty = HashMap::new();
    let nap = json!({"ms": 60_000});
    let call = car.execute_classified("nap", &nap, "a", None, None, 1, &empty, None);
    // car's per-attempt timeout: `tokio::time::timeout` dropping the dispatch future.
    let timed_out = tokio::time::timeout(Duration::from_millis(20), call).await;
    assert!(timed_out.is_err());
    assert_eq!(probe.dropped(), 1);

    // The budget car passes is the tool's deadline too.
    let failure = car
        .execute_classified("nap", &nap, "a", Some(20), None, 1, &empty, None)
        .await
        .unwrap_err();
    assert!(!failure.is_terminal());
    assert_eq!(ToolFailure::from(&failure).code(), "timeout");
    assert_eq!(probe.dropped(), 2);
}

#[tokio::test]
async fn a_stream_relays_chunks_and_dropping_cars_receiver_drops_the_tool() {
    let (probe, car) = bridge();
    let mut rx = car.execute_stream("tail", &json!({}), "s-1").await.unwrap();
    let mut first = Vec::new();
    for _ in 0..4 {
        first.push(serde_json::to_value(rx.recv().await.unwrap()).unwrap());
    }
    assert_eq!(
        first,
        [
            json!({"kind": "text", "text": "line 0"}),
            json!({"kind": "progress", "fraction": 0.5, "message": "0 lines"}),
            json!({"kind": "text", "text": "line 1"}),
            json!({"kind": "progress", "fraction": 0.5, "message": "1 lines"}),
        ]
    );
    assert_eq!(probe.dropped(), 0);
    drop(rx);
    assert!(probe.wait_dropped(1, Duration::from_secs(5)).await);

    // A stream that ends: its terminal chunk, in car's shape.
    let mut rx = car
        .execute_stream("forecast", &json!({"city": "Atlantis"}), "s-2")
        .await
        .unwrap();
    let end = rx.recv().await.unwrap();
    assert!(rx.recv().await.is_none());
    let tool_executor::ToolStreamChunk::Error { message, code, .. } = end.into() else {
        panic!("an error chunk");
    };
    assert_eq!(
        (message.as_str(), code.as_deref()),
        ("unknown city `Atlantis`", Some("unknown_city"))
    );
}

#[tokio::test]
async fn register_all_registers_every_tool() {
    let tools = CarTools::new(Probe::default());
    let runtime = Runtime::default();
    tools.register_all(&runtime).await;
    let registered = runtime.registered();
    let names: Vec<&str> = registered.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["add", "whoami", "flaky", "forecast", "nap", "store", "tail"]
    );
    assert_eq!(
        serde_json::to_value(&registered[0]).unwrap(),
        json!({
            "name": "add",
            "source": "user_defined",
            "description": "Adds two numbers.",
            "parameters": {
                "type": "object",
                "properties": {"a": {"type": "integer", "format": "int64"}, "b": {"type": "integer", "format": "int64"}},
                "required": ["a", "b"],
                "additionalProperties": false
            },
            "returns": {"type": "integer", "format": "int64"},
            "idempotent": true
        })
    );
    assert!(!registered[2].idempotent);
}
