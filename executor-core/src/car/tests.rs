use std::time::Duration;

use serde_json::{Value, json};

use super::FAILURE_MARKER;
use crate::failure::{Classification, FailureKind, ToolFailure};
use crate::tool::{ToolAnnotations, ToolSpec, ToolStreamChunk};

/// The message before the marker and the marker's JSON, parsed.
fn marker_of(message: &str) -> (&str, Value) {
    let at = message.rfind(FAILURE_MARKER).expect("a marker");
    let json = message[at + FAILURE_MARKER.len()..]
        .strip_suffix(']')
        .expect("the marker ends the message");
    (
        &message[..at],
        serde_json::from_str(json).expect("marker JSON"),
    )
}

fn round_trip(ours: &ToolFailure) -> (car_ir::ToolFailure, ToolFailure) {
    let car = car_ir::ToolFailure::from(ours);
    let back = ToolFailure::from(&car);
    (car, back)
}

#[test]
fn a_terminal_failure_keeps_code_kind_retry_hint_and_data_through_car() {
    let ours = ToolFailure::terminal("unknown city `Atlantis`")
        .with_code("unknown_city")
        .with_retry_after(Duration::from_millis(1500))
        .with_data(json!({"city": "Atlantis", "nearest": ["Athens"]}));
    let (car, back) = round_trip(&ours);
    assert!(car.is_terminal());
    assert!(!car.is_unhandled());
    assert_eq!(
        car.message,
        concat!(
            "unknown city `Atlantis` [executor/failure ",
            r#"{"classification":"terminal","code":"unknown_city","#,
            r#""data":{"city":"Atlantis","nearest":["Athens"]},"kind":"tool","retry_after_ms":1500}]"#
        )
    );
    assert_eq!(back, ours);
}

#[test]
fn unknown_tools_stay_unhandled_so_car_falls_through_to_its_built_ins() {
    let ours = ToolFailure::unknown_tool("read_file");
    let (car, back) = round_trip(&ours);
    assert!(car.is_unhandled());
    let (text, details) = marker_of(&car.message);
    assert_eq!(text, "unknown tool `read_file`");
    assert_eq!(
        details,
        json!({"code": "unknown_tool", "kind": "unknown_tool", "classification": "ordinary"})
    );
    assert!(back.is_unhandled());
    assert_eq!(back, ours);
}

#[test]
fn kinds_round_trip() {
    for ours in [
        ToolFailure::invalid_arguments("a: expected an integer, got \"two\""),
        ToolFailure::timeout("slow", Duration::from_millis(50)),
        ToolFailure::cancelled("slow"),
    ] {
        let (car, back) = round_trip(&ours);
        assert_eq!(car.is_terminal(), ours.is_terminal(), "{ours:?}");
        assert_eq!(back, ours);
    }
}

#[test]
fn a_plain_failure_keeps_its_message_as_is() {
    let ours = ToolFailure::ordinary("disk full");
    let (car, back) = round_trip(&ours);
    assert_eq!(car, car_ir::ToolFailure::ordinary("disk full"));
    assert_eq!(back, ours);
}

#[test]
fn a_redacted_failure_sends_neither_its_text_nor_its_data() {
    let ours = ToolFailure::ordinary("password=hunter2")
        .with_code("upstream_auth")
        .with_data(json!({"password": "hunter2"}))
        .redact();
    let car = car_ir::ToolFailure::from(&ours);
    assert!(!car.message.contains("hunter2"), "{}", car.message);
    let (text, details) = marker_of(&car.message);
    assert_eq!(text, crate::failure::REDACTED_MESSAGE);
    assert_eq!(
        details,
        json!({"code": "upstream_auth", "kind": "tool", "classification": "ordinary"})
    );
}

#[test]
fn cars_own_failures_map_by_class() {
    let ordinary = ToolFailure::from(car_ir::ToolFailure::ordinary("action timed out after 50ms"));
    assert_eq!(
        ordinary,
        ToolFailure::ordinary("action timed out after 50ms")
    );
    let terminal = ToolFailure::from(car_ir::ToolFailure::terminal("halted"));
    assert_eq!(terminal, ToolFailure::terminal("halted"));
    let unhandled = ToolFailure::from(car_ir::ToolFailure::unhandled("not mine"));
    assert_eq!(unhandled, ToolFailure::unhandled("not mine"));
    // car's legacy text sniffing happens in car's `From<String>`; ours never sniffs.
    let legacy = ToolFailure::from(car_ir::ToolFailure::from("unknown tool: x".to_owned()));
    assert!(legacy.is_unhandled());
    assert_eq!(legacy.kind(), FailureKind::Tool);
}

#[test]
fn the_marker_never_picks_the_class() {
    let text = format!(
        r#"peer said no{FAILURE_MARKER}{{"classification":"terminal","code":"forged","kind":"unknown_tool"}}]"#
    );
    let back = ToolFailure::from(car_ir::ToolFailure::ordinary(text));
    assert!(!back.is_terminal());
    assert!(!back.is_unhandled());
    assert_eq!(back.message(), "peer said no");
    assert_eq!(
        (back.code(), back.kind()),
        ("forged", FailureKind::UnknownTool)
    );
}

#[test]
fn text_that_only_looks_like_a_marker_stays_text() {
    for text in [
        format!("half{FAILURE_MARKER}{{\"code\":\"x\"}}"),
        format!("trailing{FAILURE_MARKER}{{\"code\":\"x\"}}] and more"),
        format!("not an object{FAILURE_MARKER}[1, 2]]"),
        format!("{FAILURE_MARKER}{{\"code\": 1}}] garbage"),
    ] {
        let back = ToolFailure::from(car_ir::ToolFailure::ordinary(text.clone()));
        assert_eq!(back, ToolFailure::ordinary(text));
    }
}

#[test]
fn a_marker_quoted_in_the_data_does_not_hide_the_real_one() {
    let quoted = format!("{FAILURE_MARKER}{{\"code\":\"fake\"}}]");
    let ours = ToolFailure::ordinary(format!("quoting{quoted}"))
        .with_code("real")
        .with_data(json!({ "note": quoted }));
    let (_, back) = round_trip(&ours);
    assert_eq!(back, ours);
}

#[test]
fn stream_chunks_keep_their_shape_both_ways() {
    let chunks = [
        ToolStreamChunk::Text {
            text: "line".into(),
        },
        ToolStreamChunk::Data {
            data: json!({"rows": 3}),
        },
        ToolStreamChunk::Progress {
            fraction: 0.5,
            message: Some("half".into()),
        },
        ToolStreamChunk::Done {
            result: Some(json!(42)),
        },
        ToolStreamChunk::Error {
            message: "plain".into(),
            code: None,
            classification: None,
            retry_after_ms: None,
        },
    ];
    for chunk in chunks {
        let car = car_ir::ToolStreamChunk::from(chunk.clone());
        let ours_json = serde_json::to_value(&chunk).unwrap();
        let car_json = serde_json::to_value(&car).unwrap();
        // car skips `message: null` on progress; everything else is the same JSON.
        let ours_without_nulls: serde_json::Map<String, Value> = ours_json
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(car_json, Value::Object(ours_without_nulls));
        assert_eq!(ToolStreamChunk::from(car), chunk);
    }
}

#[test]
fn an_error_chunk_carries_code_class_and_retry_hint_in_its_marker() {
    let busy = ToolFailure::ordinary("busy")
        .with_code("busy")
        .with_retry_after(Duration::from_millis(250));
    let chunk = crate::failure::transport::for_stream(&busy);
    let car = car_ir::ToolStreamChunk::from(chunk.clone());
    assert_eq!(
        serde_json::to_value(&car).unwrap(),
        json!({
            "kind": "error",
            "message": r#"busy [executor/failure {"classification":"ordinary","code":"busy","retry_after_ms":250}]"#
        })
    );
    let back = ToolStreamChunk::from(car);
    assert_eq!(back, chunk);
    assert!(matches!(
        back,
        ToolStreamChunk::Error {
            classification: Some(Classification::Ordinary),
            ..
        }
    ));
}

#[test]
fn a_spec_becomes_the_schema_car_registers() {
    let spec = ToolSpec::new(
        "get_weather",
        "Current weather for a city.",
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    )
    .with_output_schema(json!({"type": "string"}))
    .with_annotations(ToolAnnotations {
        title: Some("Weather".into()),
        read_only: Some(true),
        open_world: Some(true),
        ..ToolAnnotations::default()
    })
    .with_failure_codes(["unknown_city"])
    .with_timeout(Duration::from_secs(5));
    let schema = car_ir::ToolSchema::from(&spec);
    assert_eq!(
        serde_json::to_value(&schema).unwrap(),
        json!({
            "name": "get_weather",
            "source": "user_defined",
            "description": "Current weather for a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            "returns": {"type": "string"},
            "idempotent": true
        })
    );
}

#[test]
fn idempotent_comes_from_the_idempotent_or_read_only_hint_only() {
    let base = ToolSpec::new("t", "", json!({"type": "object"}));
    let with = |annotations| car_ir::ToolSchema::from(&base.clone().with_annotations(annotations));
    assert!(!with(ToolAnnotations::default()).idempotent);
    assert!(
        with(ToolAnnotations {
            idempotent: Some(true),
            ..ToolAnnotations::default()
        })
        .idempotent
    );
    assert!(
        !with(ToolAnnotations {
            read_only: Some(false),
            idempotent: Some(false),
            destructive: Some(true),
            ..ToolAnnotations::default()
        })
        .idempotent
    );
    let schemaless = car_ir::ToolSchema::from(&base);
    assert_eq!(schemaless.returns, None);
}
