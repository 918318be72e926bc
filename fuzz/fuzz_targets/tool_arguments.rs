//! The argument decoder through generated `#[tool]`s, on arbitrary JSON arguments.
//!
//! Every call must end (no panic: libfuzzer-sys aborts on any panic, caught or not) with a
//! result or an invalid-arguments failure whose message starts with the path it is about:
//! `arguments`, a parameter's name (then `:`, `.` or `[`), or the unknown key it names.
#![no_main]

use std::borrow::Cow;
use std::sync::LazyLock;

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_executor::prelude::*;
use tool_executor::{FailureKind, ToolSet};

#[path = "common/mod.rs"]
mod common;
#[path = "../../executor-core/tests/decoder_support/mod.rs"]
mod decoder_support;

use common::{RUNTIME, json};
use decoder_support::names_a_path;

/// A nested argument.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Place {
    city: String,
    tags: Vec<String>,
    #[serde(default)]
    zip: Option<u32>,
}

/// A unit enum.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

/// An internally tagged enum.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind")]
pub enum Shape {
    Circle { r: f64 },
    Square { side: f64, label: Option<char> },
}

/// Integers of several widths, a float, an optional flag and a default.
#[tool]
fn scalars(a: i64, b: u8, c: f64, flag: Option<bool>, #[arg(default = 7)] d: u16, e: i32) -> f64 {
    let _ = (flag, d, e);
    a as f64 + f64::from(b) + c
}

/// Strings borrowed from the request.
#[tool]
async fn borrowed(
    text: &str,
    words: &[&str],
    cow: Cow<'_, str>,
    #[arg(default)] tail: String,
) -> usize {
    text.len() + words.len() + cow.len() + tail.len()
}

/// Nested structs and enums.
#[tool]
fn nested(
    place: Place,
    unit: Unit,
    shape: Option<Shape>,
    #[arg(default)] more: Vec<Place>,
) -> Place {
    let _ = (unit, shape, more);
    place
}

/// A sync tool that reads its context: decoded on the blocking pool.
#[tool(timeout = "5s")]
fn counted(#[arg(rename = "n")] count: u32, list: Vec<i8>, ctx: &ToolContext) -> u32 {
    let _ = ctx.try_progress(0.5, None);
    count.saturating_add(u32::try_from(list.len()).unwrap_or(u32::MAX))
}

/// Takes nothing.
#[tool]
fn nothing() -> bool {
    true
}

/// Each tool, its parameters' JSON names, and every key it reads (nested ones too), which the
/// generator picks object keys from.
const TOOLS: &[(&str, &[&str], &[&str])] = &[
    (
        "scalars",
        &["a", "b", "c", "flag", "d", "e"],
        &["a", "b", "c", "flag", "d", "e"],
    ),
    (
        "borrowed",
        &["text", "words", "cow", "tail"],
        &["text", "words", "cow", "tail"],
    ),
    (
        "nested",
        &["place", "unit", "shape", "more"],
        &[
            "place", "unit", "shape", "more", "city", "tags", "zip", "kind", "r", "side", "label",
        ],
    ),
    ("counted", &["n", "list"], &["n", "list"]),
    ("nothing", &[], &[]),
];

static SET: LazyLock<ToolSet> =
    LazyLock::new(|| toolset![scalars, borrowed, nested, counted, nothing]);

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let (tool, names, keys) = *u.choose(TOOLS)?;
    // Mostly objects (what a tool takes), sometimes any value.
    let arguments = if u.ratio(7, 8)? {
        json::object(u, keys)?
    } else {
        json::value(u, keys)?
    };
    let outcome = RUNTIME.block_on(SET.execute_with_context(tool, &arguments, ToolContext::new()));
    if let Err(failure) = outcome {
        assert_eq!(
            failure.kind(),
            FailureKind::InvalidArguments,
            "{failure:?} for {arguments}"
        );
        assert!(
            names_a_path(failure.message(), names, &arguments),
            "no path in {:?} for {arguments}",
            failure.message()
        );
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
