//! Argument decoding of generated tools: nested types, defaults, renames, borrowed strings, no
//! arguments, and the path-naming `InvalidArguments` failures for bad input.

mod tool_support;

use serde_json::Value;
use tool_executor::FailureKind;
use tool_executor::prelude::*;
use tool_support::{add, call, ping, rt, set};

#[test]
fn calls_return_expected_json() {
    rt().block_on(async {
        let tools = set();
        assert_eq!(
            call(&tools, "add", json!({"a": 2, "b": 40})).await,
            Ok(json!(42))
        );
        assert_eq!(
            call(
                &tools,
                "weather",
                json!({"location": {"city": "Paris", "country": "FR"}, "days": 1, "tags": []})
            )
            .await,
            Ok(json!({"place": "Paris, FR", "temperature": 21.5, "unit": "celsius"}))
        );
        assert_eq!(
            call(
                &tools,
                "join_words",
                json!({"words": ["a", "b"], "upper": true})
            )
            .await,
            Ok(json!("A B"))
        );
        assert_eq!(
            call(
                &tools,
                "join_words",
                json!({"words": ["a", "b"], "separator": "-"})
            )
            .await,
            Ok(json!("a-b"))
        );
        assert_eq!(call(&tools, "ping", json!(null)).await, Ok(json!("pong")));
        assert_eq!(call(&tools, "ping", json!({})).await, Ok(json!("pong")));
        assert_eq!(call(&tools, "noop", json!({})).await, Ok(Value::Null));
        assert_eq!(
            tools.execute("add", &json!({"a": 1, "b": 1})).await,
            Ok(json!(2))
        );
        // the function is still callable as written
        assert_eq!(add(1, 2), 3);
        assert_eq!(ping().await, "pong");
    });
}

#[test]
fn str_arguments_borrow_from_the_request() {
    rt().block_on(async {
        let params = json!({"text": "no copy please"});
        let expected = params["text"].as_str().unwrap().as_ptr() as u64;
        assert_eq!(
            call(&set(), "address_of", params).await,
            Ok(json!(expected))
        );
    });
}

#[test]
fn bad_arguments_are_invalid_argument_failures_naming_the_path() {
    rt().block_on(async {
        let tools = set();
        let cases = [
            (
                "add",
                json!({"a": 1, "b": "two"}),
                "b: expected an integer, got \"two\"",
            ),
            (
                "add",
                json!({"a": 1}),
                "b: missing required argument; expected an integer",
            ),
            (
                "add",
                json!({"a": 1, "b": 2, "c": 3}),
                "c: unknown argument; expected one of \"a\", \"b\"",
            ),
            (
                "add",
                json!([1, 2]),
                "arguments: expected an object, got an array",
            ),
            (
                "add",
                json!("1 + 2"),
                "arguments: expected an object, got \"1 + 2\"",
            ),
            (
                "ping",
                json!({"x": 1}),
                "x: unknown argument; this tool takes no arguments",
            ),
            (
                "weather",
                json!({"location": {"city": 5}, "days": 1, "tags": []}),
                "location.city: expected a string, got 5",
            ),
            (
                "weather",
                json!({"location": {"city": "Oslo"}, "days": -1, "tags": []}),
                "days: expected an integer from 0 to 4294967295, got -1",
            ),
            (
                "weather",
                json!({"location": {"city": "Oslo"}, "days": 1, "tags": ["a", 2]}),
                "tags[1]: expected a string, got 2",
            ),
            (
                "weather",
                json!({"location": {"city": "Oslo"}, "unit": "kelvin", "days": 1, "tags": []}),
                "unit: unknown value \"kelvin\"; expected \"celsius\" or \"fahrenheit\"",
            ),
            (
                "join_words",
                json!({"words": ["a"], "shout": true}),
                "shout: unknown argument; expected one of \"words\", \"separator\", \"upper\"",
            ),
        ];
        for (tool, params, message) in cases {
            let failure = call(&tools, tool, params.clone()).await.unwrap_err();
            assert_eq!(failure.message(), message, "{tool}({params})");
            assert_eq!(failure.kind(), FailureKind::InvalidArguments);
            assert_eq!(failure.code(), "invalid_arguments");
            assert!(!failure.is_terminal() && !failure.is_unhandled());
        }
    });
}
