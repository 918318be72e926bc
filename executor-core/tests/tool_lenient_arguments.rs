//! Arguments the schema accepts decode on every path (issue 22, point 6): a `null` for a
//! property that is optional and does not accept `null` means "absent", at every depth; a whole
//! float (`2.0`) is an integer where the schema says integer; and a call with several bad
//! arguments reports each of them in one failure.
//!
//! Each case is called through `ToolSet::execute` (a caller with arguments from its own
//! provider client) and through a `#[tools]` impl, so no adapter is in between.

// The tools are written the ways users write them: owned arguments, async without awaits.
#![allow(clippy::needless_pass_by_value, clippy::unused_async)]

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_executor::prelude::*;
use tool_executor::{FailureKind, ToolSet};

/// A genre.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Genre {
    Jazz,
    Folk,
}

/// A nested query whose optional fields OpenAI strict makes required-and-nullable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Query {
    text: String,
    #[serde(default)]
    genres: Vec<Genre>,
    #[serde(default)]
    page: Page,
    #[serde(default)]
    year: u16,
}

/// Deeper still (through `$defs`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Page {
    #[serde(default)]
    size: u32,
    #[serde(default)]
    after: Option<String>,
}

/// Searches.
#[tool]
fn search(q: &str, #[arg(default = 5)] limit: u32, #[arg(default)] offset: u64) -> Value {
    json!({"q": q, "limit": limit, "offset": offset})
}

/// Searches with a nested query.
#[tool]
fn find(query: Query, #[arg(default)] more: Vec<Query>) -> Value {
    json!({"query": query, "more": more})
}

/// Adds.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Counts.
#[tool]
fn counts(a: u64, list: Vec<u32>, page: Page, ratio: f64) -> Value {
    json!({"a": a, "list": list, "page": page, "ratio": ratio})
}

/// The same tools as methods.
struct Methods;

#[tools]
impl Methods {
    /// Searches.
    #[tool]
    async fn search(&self, q: String, #[arg(default = 5)] limit: u32) -> Value {
        json!({"q": q, "limit": limit})
    }

    /// Searches with a nested query.
    #[tool]
    async fn find(&self, query: Query) -> Value {
        json!({"query": query})
    }

    /// Adds.
    #[tool]
    async fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }
}

fn set() -> ToolSet {
    toolset![search, find, add, counts]
}

/// A generated tool without a context finishes on its first poll; no runtime needed.
fn now<F: Future>(fut: F) -> F::Output {
    let mut fut = pin!(fut);
    match fut.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("a context-free call finishes at once"),
    }
}

fn call(tool: &str, arguments: Value) -> Result<Value, ToolFailure> {
    now(set().execute_with_context(tool, &arguments, ToolContext::new())).map(|e| e.output)
}

fn call_method(tool: &str, arguments: Value) -> Result<Value, ToolFailure> {
    now(Methods.execute_with_context(tool, &arguments, ToolContext::new())).map(|e| e.output)
}

#[test]
fn a_null_top_level_argument_with_a_default_is_absent() {
    assert_eq!(
        call("search", json!({"q": "x", "limit": null, "offset": null})),
        Ok(json!({"q": "x", "limit": 5, "offset": 0}))
    );
    assert_eq!(
        call_method("search", json!({"q": "x", "limit": null})),
        Ok(json!({"q": "x", "limit": 5}))
    );
}

#[test]
fn the_seed_execute_reads_a_null_as_absent_too() {
    let tools = set();
    let args = json!({"q": "x", "limit": null});
    assert_eq!(
        now(tools.execute("search", &args)),
        Ok(json!({"q": "x", "limit": 5, "offset": 0}))
    );
}

#[test]
fn a_null_required_argument_is_still_refused() {
    let failure = call("search", json!({"q": null})).unwrap_err();
    assert_eq!(failure.message(), "q: expected a string, got null");
}

#[test]
fn a_nested_null_in_a_defaulted_field_is_absent() {
    let sent = json!({"query": {"text": "x", "genres": null, "page": {"size": null, "after": null}, "year": null}});
    let expected = json!({"query": {"text": "x", "genres": [], "page": {"size": 0, "after": null}, "year": 0}, "more": []});
    assert_eq!(call("find", sent.clone()), Ok(expected));
    let sent =
        json!({"query": {"text": "x"}, "more": [{"text": "y", "genres": null, "page": null}]});
    let found = call("find", sent).unwrap();
    assert_eq!(found["more"][0]["genres"], json!([]));
    assert_eq!(found["more"][0]["page"], json!({"size": 0, "after": null}));
    assert_eq!(
        call_method("find", json!({"query": {"text": "x", "genres": null}})),
        Ok(
            json!({"query": {"text": "x", "genres": [], "page": {"size": 0, "after": null}, "year": 0}})
        )
    );
}

#[test]
fn a_nested_null_in_a_required_field_is_still_refused() {
    let failure = call("find", json!({"query": {"text": null}})).unwrap_err();
    assert_eq!(failure.message(), "query.text: expected a string, got null");
}

#[test]
fn a_whole_float_is_an_integer_at_the_top_level_and_nested() {
    assert_eq!(call("add", json!({"a": 2.0, "b": -3.0})), Ok(json!(-1)));
    assert_eq!(call_method("add", json!({"a": 2.0, "b": 3})), Ok(json!(5)));
    assert_eq!(
        call(
            "counts",
            json!({"a": 7.0, "list": [1.0, 2.0], "page": {"size": 10.0}, "ratio": 2.0})
        ),
        Ok(json!({"a": 7, "list": [1, 2], "page": {"size": 10, "after": null}, "ratio": 2.0}))
    );
    // Not whole: still refused, with the value as sent.
    let failure = call("add", json!({"a": 2.5, "b": 1})).unwrap_err();
    assert_eq!(failure.message(), "a: expected an integer, got 2.5");
    let failure = call(
        "counts",
        json!({"a": 1, "list": [1.0, 2.5], "page": {}, "ratio": 1}),
    )
    .unwrap_err();
    assert_eq!(
        failure.message(),
        "list[1]: expected an integer from 0 to 4294967295, got 2.5"
    );
}

#[test]
fn every_bad_argument_is_reported_at_once() {
    let failure = call("add", json!({"a": "two", "b": "three"})).unwrap_err();
    assert_eq!(failure.kind(), FailureKind::InvalidArguments);
    assert_eq!(
        failure.message(),
        "a: expected an integer, got \"two\"\nb: expected an integer, got \"three\""
    );
    let failure = call_method("add", json!({"b": "three"})).unwrap_err();
    assert_eq!(
        failure.message(),
        "a: missing required argument; expected an integer\nb: expected an integer, got \"three\""
    );
    // A repaired argument is not an error beside a bad one.
    let failure = call("counts", json!({"a": 1.0, "list": "x", "page": null})).unwrap_err();
    assert_eq!(
        failure.message(),
        "list: expected an array, got \"x\"\npage: expected an object, got null\n\
         ratio: missing required argument; expected a number"
    );
}
