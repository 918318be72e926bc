//! Checks on a successful call: I-JSON numbers in the output and state changes, and the state
//! changes' keys against the declared expected effects.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::failure::{FailureKind, ToolFailure};
use crate::tool::ToolExecution;
use crate::tool::context::effects_mismatch;

/// The largest integer every I-JSON reader (RFC 7493) holds exactly: 2^53 − 1.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Checks `execution` for `tool`: I-JSON numbers when `i_json` is set, the state changes' key
/// set against `expected` when given.
///
/// A failure here is terminal: the tool has run, its effect may have happened, and the same
/// call would answer the same way.
///
/// The common case, no state changes, no expected effects and an I-JSON output, is decided in
/// the caller; everything else (and every failure) out of line in [`execution_in_full`].
#[inline]
pub(super) fn execution(
    tool: &str,
    execution: &ToolExecution,
    i_json: bool,
    expected: Option<&HashMap<String, Value>>,
) -> Result<(), ToolFailure> {
    if expected.is_none()
        && execution.state_changes.is_empty()
        && (!i_json || walk(&execution.output))
    {
        return Ok(());
    }
    execution_in_full(tool, execution, i_json, expected)
}

#[inline(never)]
fn execution_in_full(
    tool: &str,
    execution: &ToolExecution,
    i_json: bool,
    expected: Option<&HashMap<String, Value>>,
) -> Result<(), ToolFailure> {
    if i_json {
        if let Some((pointer, problem)) = violation(&execution.output) {
            return Err(not_i_json(
                tool,
                "an output",
                "non_i_json_output",
                &pointer,
                problem,
            ));
        }
        for (key, value) in &execution.state_changes {
            if let Some((pointer, problem)) = violation(value) {
                let pointer = format!("/{}{pointer}", escape(key));
                let code = "non_i_json_state_change";
                return Err(not_i_json(tool, "a state change", code, &pointer, problem));
            }
        }
    }
    match expected {
        Some(expected) => effects(tool, &execution.state_changes, expected),
        None => Ok(()),
    }
}

/// The state changes' keys must be the expected effects' keys, exactly
/// ([`effects_mismatch`], the rule `ToolContext` applies too).
fn effects(
    tool: &str,
    changes: &HashMap<String, Value>,
    expected: &HashMap<String, Value>,
) -> Result<(), ToolFailure> {
    let Some((got, want)) = effects_mismatch(changes, expected) else {
        return Ok(());
    };
    Err(ToolFailure::terminal(format!(
        "tool `{tool}` changed state keys {got:?}, but the call expected exactly {want:?}"
    ))
    .with_kind(FailureKind::Internal)
    .with_code("state_mismatch")
    .with_data(json!({"changed": got, "expected": want})))
}

#[cold]
fn not_i_json(
    tool: &str,
    what: &str,
    code: &'static str,
    pointer: &str,
    problem: &str,
) -> ToolFailure {
    let at = if pointer.is_empty() { "/" } else { pointer };
    ToolFailure::terminal(format!(
        "tool `{tool}` returned {what} that is not I-JSON: {problem} at `{at}`"
    ))
    .with_kind(FailureKind::Internal)
    .with_code(code)
    .with_data(json!({"pointer": pointer, "problem": problem}))
}

/// [`first_non_i_json`] behind a walk that builds no pointers: outputs are nearly always
/// I-JSON, and the pointer is only needed for the failure (measured in BENCHMARKS.md §11).
#[inline]
fn violation(value: &Value) -> Option<(String, &'static str)> {
    if is_i_json(value) {
        None
    } else {
        first_non_i_json(value)
    }
}

/// Whether every number in `value` is one an I-JSON reader holds exactly.
///
/// The walk checks scalars in place and only calls out of line for a nested array or object:
/// a call per value cost more than the check (measured in BENCHMARKS.md §11).
#[must_use]
pub fn is_i_json(value: &Value) -> bool {
    walk(value)
}

/// [`is_i_json`], always inlined: the top level of an output is walked in its caller.
#[allow(clippy::inline_always)] // measured: once per checked success (BENCHMARKS.md §11)
#[inline(always)]
fn walk(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().all(item_is_i_json),
        Value::Object(map) => map.values().all(item_is_i_json),
        scalar => item_is_i_json(scalar),
    }
}

/// One value of a walk: a scalar checked here, a container walked by [`is_i_json`].
#[allow(clippy::inline_always)] // as `walk`: once per value of the top level
#[inline(always)]
fn item_is_i_json(value: &Value) -> bool {
    match value {
        Value::Number(n) => number_is_i_json(n),
        Value::Null | Value::Bool(_) | Value::String(_) => true,
        Value::Array(_) | Value::Object(_) => is_i_json(value),
    }
}

/// [`number_problem`] as a yes or no, without building its answer.
#[allow(clippy::inline_always)] // as `walk`: once per number of the top level
#[inline(always)]
fn number_is_i_json(n: &serde_json::Number) -> bool {
    if let Some(u) = n.as_u64() {
        return u <= MAX_SAFE_INTEGER;
    }
    if let Some(i) = n.as_i64() {
        return i.unsigned_abs() <= MAX_SAFE_INTEGER;
    }
    n.as_f64().is_some_and(f64::is_finite)
}

/// The JSON pointer of the first number an I-JSON reader may not hold exactly, and what is
/// wrong with it.
#[must_use]
pub fn first_non_i_json(value: &Value) -> Option<(String, &'static str)> {
    match value {
        Value::Number(n) => number_problem(n).map(|problem| (String::new(), problem)),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            first_non_i_json(item).map(|(rest, problem)| (format!("/{i}{rest}"), problem))
        }),
        Value::Object(map) => map.iter().find_map(|(key, item)| {
            first_non_i_json(item).map(|(rest, problem)| {
                let mut pointer = String::with_capacity(key.len() + rest.len() + 1);
                let _ = write!(pointer, "/{}{rest}", escape(key));
                (pointer, problem)
            })
        }),
        Value::Null | Value::Bool(_) | Value::String(_) => None,
    }
}

fn number_problem(n: &serde_json::Number) -> Option<&'static str> {
    if let Some(u) = n.as_u64() {
        return (u > MAX_SAFE_INTEGER).then_some("integer above 2^53-1");
    }
    if let Some(i) = n.as_i64() {
        return (i.unsigned_abs() > MAX_SAFE_INTEGER).then_some("integer below -(2^53-1)");
    }
    match n.as_f64() {
        Some(f) if f.is_finite() => None,
        _ => Some("number that is not finite"),
    }
}

/// A key as a JSON pointer segment (RFC 6901: `~` as `~0`, `/` as `~1`).
fn escape(key: &str) -> std::borrow::Cow<'_, str> {
    if key.contains(['~', '/']) {
        key.replace('~', "~0").replace('/', "~1").into()
    } else {
        key.into()
    }
}
