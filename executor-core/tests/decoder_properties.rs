//! Property tests of the argument decoder through generated tools (issue 15, point 7): on any
//! JSON it never panics and every failure names the path it is about; what a tool decodes and
//! returns unchanged comes back equal.

mod decoder_support;

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tool_executor::prelude::*;
use tool_executor::{FailureKind, ToolSet};

use decoder_support::names_a_path;

/// A nested argument.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Record {
    name: String,
    tags: Vec<String>,
    count: u32,
    #[serde(default)]
    ratio: Option<f64>,
    unit: Unit,
}

/// A unit enum.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Unit {
    Metric,
    Imperial,
}

/// Returns its record.
#[tool]
fn record(record: Record, #[arg(default)] more: Vec<Record>) -> (Record, Vec<Record>) {
    (record, more)
}

/// Returns its scalars, some borrowed from the request.
#[tool]
#[allow(clippy::needless_pass_by_value)] // a tool's arguments are owned
fn scalars(
    a: i64,
    b: u8,
    text: &str,
    words: &[&str],
    flag: Option<bool>,
    #[arg(default = 7)] d: u16,
) -> Value {
    json!({"a": a, "b": b, "text": text, "words": words, "flag": flag, "d": d})
}

/// Takes nothing.
#[tool]
#[allow(clippy::unused_async)] // the async form of a tool, decoded the same way
async fn nothing() -> bool {
    true
}

/// Each tool and its parameters' JSON names.
const TOOLS: &[(&str, &[&str])] = &[
    ("record", &["record", "more"]),
    ("scalars", &["a", "b", "text", "words", "flag", "d"]),
    ("nothing", &[]),
];

/// Keys the generated objects use besides any string: every name the tools read.
const KEYS: &[&str] = &[
    "record", "more", "name", "tags", "count", "ratio", "unit", "a", "b", "text", "words", "flag",
    "d",
];

fn set() -> ToolSet {
    toolset![record, scalars, nothing]
}

/// A generated tool without a context finishes on its first poll; no runtime needed.
fn now<F: Future>(fut: F) -> F::Output {
    let mut fut = pin!(fut);
    match fut.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("a context-free call finishes at once"),
    }
}

fn call(tool: &str, arguments: &Value) -> Result<Value, tool_executor::ToolFailure> {
    now(set().execute_with_context(tool, arguments, ToolContext::new())).map(|e| e.output)
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(KEYS).prop_map(str::to_owned),
        1 => any::<String>(),
    ]
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6..1e6_f64).prop_map(Value::from),
        any::<String>().prop_map(Value::from),
        proptest::sample::select(&["metric", "imperial", ""][..]).prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Arguments: mostly an object over the tools' names, sometimes any value.
fn arguments() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => proptest::collection::vec((key(), json()), 0..7)
            .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        1 => json(),
    ]
}

fn record_strategy() -> impl Strategy<Value = Record> {
    (
        any::<String>(),
        proptest::collection::vec(any::<String>(), 0..4),
        any::<u32>(),
        proptest::option::of(-1e9..1e9_f64),
        prop_oneof![Just(Unit::Metric), Just(Unit::Imperial)],
    )
        .prop_map(|(name, tags, count, ratio, unit)| Record {
            name,
            tags,
            count,
            ratio,
            unit,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_json_decodes_or_fails_naming_a_path(
        tool in proptest::sample::select(TOOLS),
        arguments in arguments(),
    ) {
        let (tool, names) = tool;
        if let Err(failure) = call(tool, &arguments) {
            prop_assert_eq!(failure.kind(), FailureKind::InvalidArguments, "{:?}", failure);
            prop_assert!(
                names_a_path(failure.message(), names, &arguments),
                "no path in {:?} for {}", failure.message(), arguments
            );
        }
    }

    #[test]
    fn records_round_trip(record in record_strategy(), more in proptest::collection::vec(record_strategy(), 0..3)) {
        let sent = json!({"record": record, "more": more});
        prop_assert_eq!(call("record", &sent), Ok(json!([sent["record"], sent["more"]])));
    }

    #[test]
    fn scalars_round_trip(
        a in any::<i64>(),
        b in any::<u8>(),
        text in any::<String>(),
        words in proptest::collection::vec(any::<String>(), 0..5),
        flag in proptest::option::of(any::<bool>()),
    ) {
        let sent = json!({"a": a, "b": b, "text": text, "words": words, "flag": flag});
        let mut expected = sent.clone();
        expected["d"] = json!(7);
        prop_assert_eq!(call("scalars", &sent), Ok(expected));
    }

    #[test]
    fn an_integer_out_of_range_names_the_argument_and_the_range(b in any::<i64>()) {
        prop_assume!(!(0..=255).contains(&b));
        let sent = json!({"a": 1, "b": b, "text": "", "words": []});
        let failure = call("scalars", &sent).unwrap_err();
        prop_assert_eq!(
            failure.message(),
            format!("b: expected an integer from 0 to 255, got {b}")
        );
    }
}
