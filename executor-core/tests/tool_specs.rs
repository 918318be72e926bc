//! Specs of generated tools: against snapshots, descriptions from doc comments and
//! `# Arguments` sections, and specs built once and shared.

mod common;
mod tool_support;

use std::sync::Arc;
use std::time::Duration;

use common::assert_snapshot;
use tool_executor::prelude::*;
use tool_support::{add, join, set, weather};

#[test]
fn specs_match_snapshots() {
    let tools = set();
    for spec in tools.list() {
        assert_snapshot(
            &format!("spec_{}", spec.name),
            &serde_json::to_value(&**spec).unwrap(),
        );
    }
    let names: Vec<&str> = tools.list().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "weather",
            "add",
            "join_words",
            "address_of",
            "ping",
            "noop",
            "boom",
            "sleepy",
            "slow",
            "whoami",
            "remember",
            "refuse",
            "nap"
        ],
        "specs are listed in the order tools were added"
    );
}

#[test]
fn descriptions_come_from_docs_and_arguments_sections() {
    let spec = add::spec();
    assert_eq!(spec.description, "Adds two numbers.");
    assert_eq!(
        spec.input_schema["properties"]["a"]["description"],
        "The first addend."
    );
    let weather = weather::spec();
    assert_eq!(
        weather.description,
        "Looks up the weather.\n\nSecond paragraph of the description."
    );
    assert_eq!(
        weather.input_schema["properties"]["location"]["description"],
        "Where to look up."
    );
    assert_eq!(
        weather.input_schema["required"],
        json!(["location", "days", "tags"])
    );
    assert_eq!(weather.timeout, Some(Duration::from_secs(5)));
    let join = join::spec();
    assert_eq!(
        join.input_schema["properties"]["upper"]["description"],
        "Upper-case it"
    );
    assert!(join.input_schema["properties"].get("shout").is_none());
}

#[test]
fn specs_are_built_once_and_shared() {
    assert!(Arc::ptr_eq(add::spec(), add::spec()));
    let tools = set();
    let a = tools.specs();
    let b = tools.specs();
    assert!(Arc::ptr_eq(&a, &b), "listing specs shares one list");
    assert!(Arc::ptr_eq(&a[1], add::spec()));
}
