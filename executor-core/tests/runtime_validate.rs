//! Output validation against each tool's output schema (feature `validate`).
#![cfg(feature = "validate")]

mod runtime_support;

use runtime_support::{Script, ok};
use serde::Serialize;
use serde_json::{Value, json};
use tool_executor::prelude::*;
use tool_executor::runtime::{CallOptions, Runtime};
use tool_executor::{Classification, FailureKind, ToolStreamChunk};

fn point_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "x": {"type": "integer", "minimum": 0},
            "tags": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["x"]
    })
}

#[derive(Serialize, schemars::JsonSchema)]
struct Reading {
    /// Where.
    place: Place,
    /// How warm, in °C.
    celsius: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
enum Place {
    Indoors,
    Outdoors { city: String },
}

/// A reading whose schema has `$defs` and a `$ref`.
#[tool]
fn read(outdoors: bool) -> Reading {
    let place = if outdoors {
        Place::Outdoors {
            city: "Paris".to_owned(),
        }
    } else {
        Place::Indoors
    };
    Reading {
        place,
        celsius: 21.5,
    }
}

#[tokio::test]
async fn a_mismatch_names_the_output_pointer_and_the_schema_keyword() {
    let bad = json!({"x": 3, "tags": ["a", 7]});
    let script = Script::with_output_schema("point", point_schema(), [ok(bad)]);
    let rt = Runtime::from_shared(script.clone()).with_output_validation(true);
    let failure = rt.call("point", &json!({})).await.unwrap_err();
    assert_eq!(failure.code(), "output_schema_mismatch");
    assert_eq!(failure.kind(), FailureKind::Internal);
    assert_eq!(failure.classification(), Classification::Terminal);
    assert_eq!(
        failure.data(),
        Some(&json!({
            "pointer": "/tags/1",
            "schema_pointer": "/properties/tags/items/type",
            "problem": "7 is not of type \"string\"",
        }))
    );
    assert_eq!(
        failure.message(),
        "tool `point` returned an output that does not match its output schema: \
         7 is not of type \"string\" at `/tags/1`"
    );
    assert_eq!(script.attempts(), [1], "a mismatch is not retried");
}

#[tokio::test]
async fn matching_outputs_pass_and_validation_is_off_by_default() {
    let script = Script::with_output_schema("point", point_schema(), [ok(json!({"x": -1}))]);
    let off = Runtime::from_shared(script.clone());
    assert_eq!(
        off.call("point", &json!({})).await.unwrap().output,
        json!({"x": -1})
    );
    let on = Runtime::from_shared(script.clone()).with_output_validation(true);
    let failure = on.call("point", &json!({})).await.unwrap_err();
    assert_eq!(failure.data().unwrap()["pointer"], json!("/x"));
    assert_eq!(
        failure.data().unwrap()["schema_pointer"],
        json!("/properties/x/minimum")
    );

    let switched_off = on.with_output_validation(false);
    assert!(switched_off.call("point", &json!({})).await.is_ok());

    let good = Script::with_output_schema("point", point_schema(), [ok(json!({"x": 2}))]);
    let rt = Runtime::from_shared(good).with_output_validation(true);
    // Twice: the second call uses the validator compiled by the first.
    for _ in 0..2 {
        assert_eq!(
            rt.call("point", &json!({})).await.unwrap().output,
            json!({"x": 2})
        );
    }
}

#[tokio::test]
async fn generated_schemas_with_refs_accept_the_tools_own_outputs() {
    let rt = Runtime::new(toolset![read]).with_output_validation(true);
    for outdoors in [false, true] {
        let done = rt.call("read", &json!({"outdoors": outdoors})).await;
        assert!(done.is_ok(), "{done:?}");
    }
    let done = rt.call("read", &json!({"outdoors": true})).await.unwrap();
    assert_eq!(
        done.output,
        json!({"place": {"Outdoors": {"city": "Paris"}}, "celsius": 21.5})
    );
}

#[tokio::test]
async fn a_tool_without_an_output_schema_is_not_checked() {
    let script = Script::new("any", [ok(json!("whatever"))]);
    let rt = Runtime::from_shared(script).with_output_validation(true);
    assert_eq!(
        rt.call("any", &json!({})).await.unwrap().output,
        json!("whatever")
    );
}

#[tokio::test]
async fn a_schema_that_does_not_compile_fails_the_calls_it_would_check() {
    let broken = json!({"type": "object", "properties": {"x": {"type": 12}}});
    let script = Script::with_output_schema("odd", broken, [ok(json!({"x": 1}))]);
    let rt = Runtime::from_shared(script).with_output_validation(true);
    let failure = rt.call("odd", &json!({})).await.unwrap_err();
    assert_eq!(failure.code(), "invalid_output_schema");
    assert!(
        failure
            .message()
            .starts_with("tool `odd` declares an output schema that does not compile: "),
        "{}",
        failure.message()
    );
}

#[tokio::test]
async fn a_streamed_call_ends_with_the_mismatch() {
    let script = Script::with_output_schema("point", point_schema(), [ok(json!({"tags": []}))]);
    let rt = Runtime::from_shared(script).with_output_validation(true);
    let mut chunks = rt
        .stream_with("point", json!({}), CallOptions::new())
        .unwrap();
    let Some(ToolStreamChunk::Error { code, message, .. }) = chunks.recv().await else {
        panic!("expected an error chunk");
    };
    assert_eq!(code.as_deref(), Some("output_schema_mismatch"));
    assert_eq!(
        message,
        "tool `point` returned an output that does not match its output schema: \
         \"x\" is a required property at `/`"
    );
    assert!(chunks.recv().await.is_none());
}
